"""`yk check` end to end: the four formats (goldens), exit codes, usage errors, broken policy files, --cluster."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT, dedent, run_program
from tests.helpers import paths
from tests.helpers.golden import check_golden

SARIF_SCHEMA = json.loads((paths.DATA / "sarif-schema-2.1.0.json").read_text())
FAILING = "samples/policies/production-failing.yaml"
PASSING = "samples/policies/production.yaml"
DRY_RUN = "samples/policies/production-dry-run.yaml"
CONFIG = "samples/queues/production.yaml"
WORKLOAD = "samples/workloads/production.yaml"


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("text", "txt"), ("json", "json"), ("github", "github.txt"), ("sarif", "sarif.json")]
)
def test_failing_policy_goldens(run_yk, in_root: Path, fmt: str, suffix: str) -> None:
    result = run_yk("check", FAILING, CONFIG, "--format", fmt)
    assert result.exit_code == 1
    check_golden(f"check_production-failing.{suffix}", result.stdout)


def test_dry_run_golden_verbose(run_yk, in_root: Path) -> None:
    result = run_yk("check", DRY_RUN, CONFIG, WORKLOAD, "--verbose", "-q")
    assert result.exit_code == 0, result.stdout
    check_golden("check_production-dry-run.txt", result.stdout)


def test_the_production_policy_passes(run_yk, in_root: Path) -> None:
    result = run_yk("check", PASSING, CONFIG)
    assert result.exit_code == 0
    assert result.stdout.endswith("\n20 checks of 20 assertions: 20 passed, 0 failed\n")


def test_the_process_fast_path_prints_what_typer_prints(run_yk, in_root: Path) -> None:
    for args in ((FAILING, CONFIG), (FAILING, CONFIG, "-f", "json"), (DRY_RUN, CONFIG, WORKLOAD, "-q", "-v")):
        code, out, _ = run_program("check", *args)
        result = run_yk("check", *args)
        assert (code, out) == (result.exit_code, result.stdout)


def test_sarif_is_valid_and_points_at_the_config_and_policy_lines(run_yk, in_root: Path) -> None:
    log = json.loads(run_yk("check", FAILING, CONFIG, "-f", "sarif").stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == CONFIG
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 73
    related = result["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == FAILING
    assert related["region"]["startLine"] == 12


def test_json_matches_the_policy_and_config_positions(run_yk, in_root: Path) -> None:
    document = json.loads(run_yk("check", FAILING, CONFIG, "-f", "json").stdout)
    failed = [c for c in document["checks"] if not c["passed"]]
    assert [c["name"] for c in failed] == ["batch-never-preempts-tenants"]
    assert failed[0]["location"]["path"] == "partitions[0].queues[0].queues[1].properties.priority.policy"
    assert failed[0]["counterExample"]["ask"] == {"queue": "root.batch.ci", "priority": 1000}
    assert document["summary"] == {"assertions": 2, "checks": 2, "passed": 1, "failed": 1}


def test_github_is_chosen_under_github_actions(run_yk, in_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_yk("check", FAILING, CONFIG)
    assert not result.stdout.startswith("::error")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    from typer.testing import CliRunner

    from yk_cli.cli import app

    out = CliRunner().invoke(app, ["check", FAILING, CONFIG]).stdout
    assert out.startswith("::error file=samples/queues/production.yaml,line=73,col=32,")


def test_dynamic_assertions_without_a_workload_are_a_usage_error(run_yk, in_root: Path) -> None:
    result = run_yk("check", DRY_RUN, CONFIG)
    assert result.exit_code == 2
    assert result.stderr == (
        "yk: error: 3 assertions need a dry run: platform-starts-within-a-minute (starts-within), "
        "payments-starts-within-a-minute (starts-within), batch-catches-up (starts-within); give a WORKLOAD, "
        "--cluster DUMP or --state FILE\n"
    )


def test_workload_and_cluster_exclude_each_other(run_yk, in_root: Path) -> None:
    result = run_yk("check", PASSING, CONFIG, WORKLOAD, "--cluster", "samples/cluster/dump.yaml")
    assert result.exit_code == 2
    assert result.stderr == "yk: error: give WORKLOAD or --cluster DUMP, not both\n"


def test_cluster_dump_gives_the_priority_range(run_yk, in_root: Path, tmp_path: Path) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("assertions:\n  - name: x\n    fenced: {queue: root.tenants, fence: priority}\n")
    result = run_yk("check", str(policy), CONFIG, "--cluster", "samples/cluster/dump.yaml", "-q")
    assert result.exit_code == 0, result.stdout + result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("pod priorities:"))
    assert line == "pod priorities: [10, 1000] (the PriorityClasses and pods of samples/cluster/dump.yaml)"


def test_default_priority_range(run_yk, in_root: Path, tmp_path: Path) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("assertions:\n  - name: x\n    outranks: {queue: root.platform, over: root.batch}\n")
    result = run_yk("check", str(policy), CONFIG)
    assert result.exit_code == 1  # over [0, 1000000000] the +1000 offset of platform is not enough
    assert "pod priorities: [0, 1000000000] (default: " in result.stdout


def test_config_errors_stop_the_check(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "q.yaml"
    config.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 3\n")
    result = run_yk("check", str(ROOT / PASSING), str(config))
    assert result.exit_code == 1
    assert "unknown-field" in result.stderr


# --- broken policy files: exit 2, every problem with its position ---------------------------------------------------


def _policy(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.yaml"
    path.write_text(dedent(text))
    return str(path)


def test_broken_policy_reports_every_problem_with_positions(run_yk, tmp_path: Path) -> None:
    path = _policy(
        tmp_path,
        """
        priorityRange: [1000, 0]
        asertions: []
        assertions:
          - name: a
            cannot-prempt: {from: root.a, victims: root.b}
          - name: b
            cannot-preempt: {from: root.a, victim: root.b}
          - name: c
            starts-within: {queue: root.a, time: 10 minutes}
          - name: a
            fenced: root.a
          - fenced: root.x
          - name: e
            guaranteed-at-least: {queue: root.a, resources: {vcore: 1.5}}
          - name: f
            fenced: {queue: root.a, fence: priorty}
            check: dynamic
        """,
    )
    result = run_yk("check", path, str(ROOT / CONFIG))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"yk: error: {path}:1:16: priorityRange: the lowest priority 1000 is above the highest 0",
        f"yk: error: {path}:2:1: policy: unknown key 'asertions' (did you mean 'assertions'?); it takes priorityRange, "
        "partition, assertions",
        f"yk: error: {path}:5:5: assertions[0]: unknown key 'cannot-prempt' (did you mean 'cannot-preempt'?); it takes "
        "name, description, check, cannot-preempt, outranks, fenced, guaranteed-at-least, max-at-most, starts-within, "
        "never-pending, can-submit, cannot-submit",
        f"yk: error: {path}:7:36: assertion 'b': cannot-preempt: unknown key 'victim' (did you mean 'victims'?); it "
        "takes from, victims",
        f"yk: error: {path}:9:42: assertion 'c': starts-within: time must be a duration such as 90s, 10m or 1h30m, "
        "not a string `10 minutes`",
        f"yk: error: {path}:10:5: assertion name 'a' is used twice (first at line 4)",
        f"yk: error: {path}:12:5: assertions[4]: no name (each assertion has a `name:` the report uses)",
        f"yk: error: {path}:14:61: assertion 'e': guaranteed-at-least: resources.vcore must be a quantity such as 4, "
        "500m or 16Gi",
        f"yk: error: {path}:16:36: assertion 'f': fenced: fence is priority, preemption, both (did you mean "
        "'priority'?)",
        f"yk: error: {path}:17:12: assertion 'f': fenced is only checked on the config alone (check: static)",
    ]


def test_policy_yaml_syntax_error_is_a_usage_error(run_yk, tmp_path: Path) -> None:
    path = _policy(tmp_path, "assertions:\n  - name: [a\n")
    result = run_yk("check", path, str(ROOT / CONFIG))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"yk: error: {path}:")
    assert "Traceback" not in result.stderr


def test_empty_and_missing_policy_files(run_yk, tmp_path: Path) -> None:
    empty = _policy(tmp_path, "")
    result = run_yk("check", empty, str(ROOT / CONFIG))
    assert (result.exit_code, result.stderr) == (
        2,
        f"yk: error: {empty}:1:1: the policy file is empty: give `assertions:`, a list of named assertions\n",
    )
    result = run_yk("check", str(tmp_path / "nope.yaml"), str(ROOT / CONFIG))
    assert result.exit_code == 2
    assert result.stderr.startswith("yk: error: ") and "nope.yaml" in result.stderr


def test_unknown_format_is_a_usage_error(run_yk, in_root: Path) -> None:
    result = run_yk("check", PASSING, CONFIG, "--format", "xml")
    assert result.exit_code == 2
    assert result.stderr == "yk: error: unknown format 'xml'; choose one of text, json, github, sarif\n"


def test_schema_policy_is_printed_and_validates_the_samples(run_yk) -> None:
    from ruamel.yaml import YAML

    result = run_yk("schema", "policy")
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    for sample in sorted((ROOT / "samples" / "policies").glob("*.yaml")):
        jsonschema.validate(YAML(typ="safe").load(sample.read_text()), schema)
    bad = YAML(typ="safe").load(
        "assertions:\n  - name: x\n    fenced: root.a\n    outranks: {queue: root.a, over: root.b}\n"
    )
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
