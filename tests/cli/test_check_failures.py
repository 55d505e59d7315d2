"""`yk check` when it cannot check: a queue the config does not have is a policy error (exit 2) reported with the
other policy errors at once; the json, github and sarif reports carry the problems of a broken policy or of inputs
with errors (and the exit code stays 1 or 2); yk's own messages name YAML types in words."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT, SAMPLES, dedent
from tests.helpers import paths

SARIF_SCHEMA = json.loads((paths.DATA / "sarif-schema-2.1.0.json").read_text())
CONFIG = SAMPLES / "queues" / "production.yaml"
TENANTS = SAMPLES / "queues" / "tenants.yaml"
BAD_CONFIG = (SAMPLES / "queues" / "invalid" / "limit-max-resources.yaml").read_text(encoding="utf-8")
MISSPELT = dedent(
    """
    assertions:
      - name: platform-before-batch
        outranks: {queue: root.prdo, over: root.batch}
      - name: fenced
        fenced: {queue: root.tenants, fence: priorty}
      - name: ci-capped
        max-at-most: {queue: root.batch.cii, resources: {vcore: 4}}
    """
)
PRDO = (
    "assertion 'platform-before-batch': outranks: queue root.prdo is not in the queue config (did you mean "
    "root.platform?); outranks is proved on the queues the config defines"
)
CII = (
    "assertion 'ci-capped': max-at-most: queue root.batch.cii is not in the queue config (did you mean "
    "root.batch.ci?); max-at-most is proved on the queues the config defines"
)
FENCE = "assertion 'fenced': fenced: fence is priority, preemption, both (did you mean 'priority'?)"


def _write(name: str, text: str) -> str:
    Path(name).write_text(text, encoding="utf-8")
    return name


# --- a queue the config does not have is a policy error --------------------------------------------------------


def test_misspelt_queues_are_policy_errors_with_the_other_policy_errors(run_yk, here: Path) -> None:
    policy = _write("policy.yaml", MISSPELT)
    result = run_yk("check", policy, str(CONFIG))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"yk: error: policy.yaml:3:23: {PRDO}",
        f"yk: error: policy.yaml:5:42: {FENCE}",
        f"yk: error: policy.yaml:7:26: {CII}",
    ]


def test_a_misspelt_queue_alone_is_a_policy_error(run_yk, here: Path) -> None:
    policy = _write("policy.yaml", MISSPELT.replace("priorty", "priority"))
    result = run_yk("check", policy, str(CONFIG))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [f"yk: error: policy.yaml:3:23: {PRDO}", f"yk: error: policy.yaml:7:26: {CII}"]


def test_without_placement_that_creates_queues_every_unknown_queue_is_an_error(run_yk, here: Path) -> None:
    policy = _write(
        "policy.yaml",
        "assertions:\n"
        "  - name: a\n"
        "    can-submit: {user: alice, queue: root.tenants.tenant-c}\n"
        "  - name: b\n"
        "    never-pending: root.sytem\n",
    )
    result = run_yk("check", policy, str(TENANTS), str(SAMPLES / "workloads" / "tenants.yaml"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        "yk: error: policy.yaml:3:38: assertion 'a': can-submit: queue root.tenants.tenant-c is not in the queue "
        "config (did you mean root.tenants.tenant-b?)",
        "yk: error: policy.yaml:5:20: assertion 'b': never-pending: queue root.sytem is not in the queue config (did "
        "you mean root.system?)",
    ]


def test_a_queue_placement_may_create_is_no_policy_error(run_yk, here: Path) -> None:
    policy = _write("policy.yaml", "assertions:\n  - name: a\n    can-submit: {user: alice, queue: root.users.alice}\n")
    result = run_yk("check", policy, str(CONFIG))
    assert (result.exit_code, result.stderr) == (0, "")


# --- the machine-readable reports when nothing could be checked -------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_policy_errors_are_in_the_report(run_yk, here: Path, fmt: str) -> None:
    policy = _write("policy.yaml", MISSPELT)
    result = run_yk("check", policy, str(CONFIG), "-f", fmt)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 3
    if fmt == "json":
        document = json.loads(result.stdout)
        assert [(p["file"], p["line"], p["column"], p["rule"], p["message"]) for p in document["problems"]] == [
            ("policy.yaml", 3, 23, "policy-error", PRDO),
            ("policy.yaml", 5, 42, "policy-error", FENCE),
            ("policy.yaml", 7, 26, "policy-error", CII),
        ]
        assert (document["checks"], document["summary"]["checks"]) == ([], 0)
    elif fmt == "github":
        lines = result.stdout.splitlines()
        assert lines[0] == (f"::error file=policy.yaml,line=3,col=23,endLine=3,endColumn=24,title=policy-error::{PRDO}")
        assert lines[-1] == "yk: nothing was checked: 3 errors, 0 warnings in the inputs"
    else:
        log = json.loads(result.stdout)
        jsonschema.validate(log, SARIF_SCHEMA)
        run = log["runs"][0]
        assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["policy-error"]
        assert [
            (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]
        ] == [
            ("policy-error", 3),
            ("policy-error", 5),
            ("policy-error", 7),
        ]


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_config_errors_are_in_the_report(run_yk, here: Path, fmt: str) -> None:
    config = _write("q.yaml", BAD_CONFIG)
    result = run_yk("check", str(SAMPLES / "policies" / "production.yaml"), config, "-f", fmt)
    assert result.exit_code == 1
    assert result.stderr.startswith("q.yaml:15:17: [error] invalid MaxResources settings")
    if fmt == "json":
        document = json.loads(result.stdout)
        assert [(p["file"], p["line"], p["column"], p["rule"]) for p in document["problems"]] == [
            ("q.yaml", 15, 17, "limit-max-resources")
        ]
        assert document["config"] == "q.yaml"
        assert document["summary"] == {"assertions": 0, "checks": 0, "passed": 0, "failed": 0}
    elif fmt == "github":
        assert result.stdout.splitlines() == [
            "::error file=q.yaml,line=15,col=17,endLine=15,endColumn=29,title=limit-max-resources::invalid "
            "MaxResources settings for limit alice exeecd current the queue MaxResources%0Ahint: the limit allows "
            "{memory: 32Gi} but queue sandbox has max {memory: 16Gi, vcore: 8}.",
            "yk: nothing was checked: 1 error, 0 warnings in the inputs",
        ]
    else:
        log = json.loads(result.stdout)
        jsonschema.validate(log, SARIF_SCHEMA)
        assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["limit-max-resources"]


def test_text_keeps_input_problems_on_standard_error(run_yk, here: Path) -> None:
    config = _write("q.yaml", BAD_CONFIG)
    result = run_yk("check", str(SAMPLES / "policies" / "production.yaml"), config)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.endswith("1 file checked: 1 error, 0 warnings\n")


@pytest.mark.parametrize("missing", ["config", "workload", "policy"])
def test_a_missing_input_is_in_the_json_report(run_yk, here: Path, missing: str) -> None:
    names = {"policy": str(SAMPLES / "policies" / "production-dry-run.yaml"), "config": str(CONFIG)}
    names["workload"] = str(SAMPLES / "workloads" / "production.yaml")
    names[missing] = "nope.yaml"
    result = run_yk("check", names["policy"], names["config"], names["workload"], "-f", "json")
    assert result.exit_code == 2
    assert result.stderr == "yk: error: nope.yaml: no such file\n"
    problems = json.loads(result.stdout)["problems"]
    rule = "policy-error" if missing == "policy" else "input-error"
    assert [(p["file"], p["rule"], p["message"]) for p in problems] == [("nope.yaml", rule, "no such file")]


def test_workload_errors_are_in_the_report(run_yk, here: Path) -> None:
    workload = SAMPLES / "workloads" / "invalid" / "workload-unknown-queue.yaml"
    policy = _write("policy.yaml", "assertions:\n  - name: a\n    never-pending: root.system\n")
    result = run_yk("check", policy, str(TENANTS), str(workload), "-f", "json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"], p["line"], p["column"], p["rule"]) for p in problems] == [
        (str(workload), 6, 12, "workload-unknown-queue")
    ]


def test_a_partition_the_config_lacks_is_in_the_report(run_yk, here: Path) -> None:
    policy = _write("policy.yaml", "assertions:\n  - name: a\n    fenced: root.tenants\n")
    result = run_yk("check", policy, str(CONFIG), "--partition", "defualt", "-f", "json")
    assert result.exit_code == 2
    message = f"{CONFIG} has no partition 'defualt' (it has: default)"
    assert result.stderr == f"yk: error: {message}\n"
    assert [(p["file"], p["rule"], p["message"]) for p in json.loads(result.stdout)["problems"]] == [
        (str(CONFIG), "input-error", "has no partition 'defualt' (it has: default)")
    ]


def test_a_passing_json_report_has_no_problems(run_yk, here: Path) -> None:
    result = run_yk("check", str(SAMPLES / "policies" / "production.yaml"), str(CONFIG), "-f", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["problems"] == []
    assert list(document) == [
        "policy",
        "config",
        "partition",
        "workload",
        "priorityRange",
        "notes",
        "problems",
        "checks",
        "summary",
    ]


# --- YAML types in words --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "starts-within: {queue: root.system, time: -1m}",
            "assertion 'a': starts-within: time must be a duration such as 90s, 10m or 1h30m, not a string `-1m`",
        ),
        ("cannot-preempt: [root.a]", "assertion 'a': cannot-preempt takes a mapping of from, victims, not a list"),
        (
            "fenced: {queue: {name: root.system}}",
            "assertion 'a': fenced: queue must be a queue path such as root.tenants, not a mapping",
        ),
    ],
)
def test_yaml_types_are_named_in_words(run_yk, here: Path, body: str, message: str) -> None:
    policy = _write("policy.yaml", f"assertions:\n  - name: a\n    {body}\n")
    result = run_yk("check", policy, str(TENANTS), str(SAMPLES / "workloads" / "tenants.yaml"))
    assert result.exit_code == 2
    assert [line.split(": ", 3)[3] for line in result.stderr.splitlines()] == [message]


def test_the_docs_example_reproduces(run_yk, here: Path) -> None:
    text = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    start = text.index("With this `policy.yaml`:\n\n```yaml\n") + len("With this `policy.yaml`:\n\n```yaml\n")
    policy = text[start : text.index("```", start)]
    command = "$ yk check policy.yaml samples/queues/production.yaml\n"
    after = text.index(command, start) + len(command)
    expected = text[after : text.index("```", after)]
    _write("policy.yaml", policy)
    result = run_yk("check", "policy.yaml", str(CONFIG))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected)
