"""`yk validate` when an input cannot be checked, and what it lints besides queue configs: a --partition no config
defines is refused (exit 2), every input problem is in the json, github and sarif documents, a workload or a
cluster dump is linted in full (--workload, --cluster), a Volcano input gets `yk volcano validate` as its hint."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import SAMPLES, dedent
from tests.helpers import paths
from yk_cli.commands.validate import fast_path

SARIF_SCHEMA = json.loads((paths.DATA / "sarif-schema-2.1.0.json").read_text())
CLEAN = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
ERRORS = dedent(
    """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            maxApplications: 3
            queues:
              - name: a
                resources: {guaranteed: {vcore: 2}, max: {vcore: 1}}
              - name: a
              - name: b c
                properties: {priority.offset: 1}
              - name: d
                parent: maybe
    """
)
WORKLOAD = SAMPLES / "workloads" / "invalid" / "workload-priority-mismatch.yaml"
TENANTS = SAMPLES / "queues" / "tenants.yaml"


@pytest.fixture
def errors(tmp_path: Path) -> Path:
    path = tmp_path / "q.yaml"
    path.write_text(ERRORS, encoding="utf-8")
    return path


# --- item 1: a --partition no config defines is refused, never a silent pass -------------------------------------


def test_the_config_has_errors(run_yk, errors: Path) -> None:
    summary = json.loads(run_yk("validate", str(errors), "-f", "json").stdout)["summary"]
    assert summary == {"files": 1, "errors": 5, "warnings": 0}


def test_a_misspelt_partition_is_refused(run_yk, errors: Path) -> None:
    result = run_yk("validate", str(errors), "--partition", "defualt")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"yk: error: {errors} has no partition 'defualt' (it has: default)\n"


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_a_misspelt_partition_is_in_every_machine_readable_report(run_yk, errors: Path, fmt: str) -> None:
    result = run_yk("validate", str(errors), "--partition", "defualt", "-f", fmt)
    assert result.exit_code == 2
    assert result.stderr == f"yk: error: {errors} has no partition 'defualt' (it has: default)\n"
    if fmt == "json":
        assert json.loads(result.stdout) == {
            "problems": [
                {
                    "file": str(errors),
                    "line": 1,
                    "column": 1,
                    "endLine": 1,
                    "endColumn": 2,
                    "level": "error",
                    "rule": "input-error",
                    "message": "has no partition 'defualt' (it has: default)",
                    "path": "",
                }
            ],
            "summary": {"files": 0, "errors": 1, "warnings": 0},
        }
    elif fmt == "github":
        assert result.stdout == (
            f"::group::{errors}\n"
            f"::error file={errors},line=1,col=1,endLine=1,endColumn=2,title=input-error::has no partition 'defualt' "
            "(it has: default)\n"
            "::endgroup::\n"
            "yk: 0 files checked: 1 error, 0 warnings\n"
        )
    else:
        log = json.loads(result.stdout)
        jsonschema.validate(log, SARIF_SCHEMA)
        (result_,) = log["runs"][0]["results"]
        rules = log["runs"][0]["tool"]["driver"]["rules"]
        assert result_["ruleId"] == "input-error"
        assert rules[result_["ruleIndex"]]["id"] == "input-error"
        assert rules[result_["ruleIndex"]]["shortDescription"]["text"].startswith("An input yk could not check")


def test_a_partition_the_config_has_still_filters(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(ERRORS + "  - name: other\n    queues:\n      - name: root\n        submitacl: '*'\n")
    result = run_yk("validate", str(path), "--partition", "other")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "1 file checked: no problems\n"


def test_one_file_without_the_partition_among_several(run_yk, tmp_path: Path, errors: Path) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(CLEAN.replace("name: default", "name: gpu"), encoding="utf-8")
    result = run_yk("validate", str(errors), str(other), "--partition", "gpu", "-f", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert [(p["file"], p["rule"]) for p in document["problems"]] == [(str(errors), "input-error")]
    assert document["summary"] == {"files": 1, "errors": 1, "warnings": 0}


# --- item 6: every input problem is in the document ------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_a_missing_file_alone_still_writes_the_document(run_yk, tmp_path: Path, fmt: str) -> None:
    missing = tmp_path / "missing.yaml"
    result = run_yk("validate", str(missing), "-f", fmt)
    assert result.exit_code == 2
    assert result.stderr == f"yk: error: {missing}: no such file\n"
    assert result.stdout != ""
    if fmt == "json":
        document = json.loads(result.stdout)
        assert [(p["file"], p["rule"], p["message"]) for p in document["problems"]] == [
            (str(missing), "input-error", "no such file")
        ]
        assert document["summary"] == {"files": 0, "errors": 1, "warnings": 0}
    elif fmt == "sarif":
        log = json.loads(result.stdout)
        jsonschema.validate(log, SARIF_SCHEMA)
        assert [r["message"]["text"] for r in log["runs"][0]["results"]] == ["no such file"]
    else:
        assert f"::error file={missing},line=1,col=1,endLine=1,endColumn=2,title=input-error::no such file" in (
            result.stdout
        )


def test_a_missing_file_among_several_is_counted(run_yk, tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(CLEAN, encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = tmp_path / "nope.yaml"
    result = run_yk("validate", str(missing), str(good), str(empty), "-f", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert [(p["file"], p["message"]) for p in document["problems"]] == [
        (str(empty), "no *.yaml or *.yml files in this directory"),
        (str(missing), "no such file"),
    ]
    assert document["summary"] == {"files": 1, "errors": 2, "warnings": 0}
    assert result.stderr == (
        f"yk: error: {missing}: no such file\nyk: error: {empty}: no *.yaml or *.yml files in this directory\n"
    )


def test_text_keeps_input_problems_on_standard_error(run_yk, tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(CLEAN, encoding="utf-8")
    result = run_yk("validate", str(tmp_path / "nope.yaml"), str(good))
    assert result.exit_code == 2
    assert result.stdout == "1 file checked: no problems\n"
    assert result.stderr == f"yk: error: {tmp_path / 'nope.yaml'}: no such file\n"


def test_a_clean_sarif_report_lists_only_the_rules_of_yk_validate(run_yk, tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(CLEAN, encoding="utf-8")
    log = json.loads(run_yk("validate", str(good), "-f", "sarif").stdout)
    assert "input-error" not in [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]


# --- item 14: workloads and dumps linted in full ----------------------------------------------------------------


def test_a_workload_warning_in_full(run_yk) -> None:
    result = run_yk("validate", str(TENANTS), "--workload", str(WORKLOAD))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"{WORKLOAD}:10:54: [warning] priority 5 differs from priority class gold's value 1000; yk uses 5 "
        "(workload-priority-mismatch)\n"
        "   10 |       - {name: job-1, priorityClass: gold, priority: 5, resources: {vcore: 1}}\n"
        "      |                                                      ^\n"
        "      hint: Kubernetes refuses such a pod; keep only one of `priority` and `priorityClass`.\n"
        "2 files checked: 0 errors, 1 warning\n"
    )
    assert run_yk("validate", str(TENANTS), "--workload", str(WORKLOAD), "--strict").exit_code == 1


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_a_workload_warning_in_every_format(run_yk, fmt: str) -> None:
    result = run_yk("validate", str(TENANTS), "-w", str(WORKLOAD), "-f", fmt)
    assert (result.exit_code, result.stderr) == (0, "")
    if fmt == "json":
        (problem,) = json.loads(result.stdout)["problems"]
        assert problem == {
            "file": str(WORKLOAD),
            "line": 10,
            "column": 54,
            "endLine": 10,
            "endColumn": 55,
            "level": "warning",
            "rule": "workload-priority-mismatch",
            "message": "priority 5 differs from priority class gold's value 1000; yk uses 5",
            "path": "applications[0].asks[0].priority",
            "hint": "Kubernetes refuses such a pod; keep only one of `priority` and `priorityClass`.",
        }
    elif fmt == "github":
        assert "::warning file=" in result.stdout and "title=workload-priority-mismatch::" in result.stdout
        assert "hint: Kubernetes refuses such a pod" in result.stdout
    else:
        log = json.loads(result.stdout)
        jsonschema.validate(log, SARIF_SCHEMA)
        assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["workload-priority-mismatch"]


def test_a_workload_is_checked_against_the_config(run_yk) -> None:
    workload = SAMPLES / "workloads" / "invalid" / "workload-unknown-queue.yaml"
    result = run_yk("validate", str(TENANTS), "-w", str(workload), "-f", "json")
    assert result.exit_code == 1
    assert [(p["rule"], p["line"], p["column"]) for p in json.loads(result.stdout)["problems"]] == [
        ("workload-unknown-queue", 6, 12)
    ]


def test_a_workload_alone_is_checked_on_its_own(run_yk) -> None:
    workload = SAMPLES / "workloads" / "invalid" / "workload-unknown-queue.yaml"
    result = run_yk("validate", "--workload", str(workload))
    assert result.exit_code == 0
    assert result.stdout == "1 file checked: no problems\n"
    assert result.stderr == (
        f"yk: note: no queue config given: the queues of {workload} are not checked against one "
        f"(yk validate CONFIG --workload {workload})\n"
    )
    result = run_yk("validate", "--workload", str(WORKLOAD), "-f", "json")
    assert [p["rule"] for p in json.loads(result.stdout)["problems"]] == ["workload-priority-mismatch"]


def test_a_workload_against_a_config_with_errors(run_yk, errors: Path) -> None:
    result = run_yk("validate", str(errors), "-w", str(WORKLOAD), "-f", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["summary"] == {"files": 2, "errors": 5, "warnings": 1}
    assert result.stderr == f"yk: note: {errors} has errors: the queues of {WORKLOAD} are not checked against it\n"


def test_a_workload_with_several_configs_is_a_usage_error(run_yk) -> None:
    result = run_yk("validate", str(TENANTS), str(TENANTS), "-w", str(WORKLOAD))
    assert result.exit_code == 2
    assert result.stderr == "yk: error: --workload is checked against one queue config: 2 files given\n"


def test_a_missing_workload_is_an_input_problem(run_yk, tmp_path: Path) -> None:
    missing = tmp_path / "w.yaml"
    result = run_yk("validate", str(TENANTS), "-w", str(missing), "-f", "json")
    assert result.exit_code == 2
    assert [(p["file"], p["message"]) for p in json.loads(result.stdout)["problems"]] == [
        (str(missing), "no such file")
    ]


def test_a_dump_warning_in_full(run_yk) -> None:
    dump = SAMPLES / "cluster" / "invalid" / "cluster-user-info.yaml"
    result = run_yk("validate", "--cluster", str(dump))
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == (
        f"{dump}:73:38: [warning] yunikorn.apache.org/user.info is not valid user info (Expecting property name "
        "enclosed in double quotes: line 1 column 2 (char 1)): user is nobody (cluster-user-info)"
    )
    assert lines[1].startswith("   73 |       yunikorn.apache.org/user.info: ")
    assert lines[-1] == "1 file checked: 0 errors, 1 warning"
    json_result = run_yk("validate", "--cluster", str(dump), "-f", "json")
    assert [(p["rule"], p["line"], p["column"]) for p in json.loads(json_result.stdout)["problems"]] == [
        ("cluster-user-info", 73, 38)
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["-w", "w.yaml", "q.yaml"],
        ["--workload=w.yaml"],
        ["--cluster", "dump.yaml", "-f", "json"],
        ["q.yaml", "--partition", "defualt", "-f", "sarif"],
        ["missing.yaml", "q.yaml", "-f", "json"],
    ],
)
def test_fast_path_matches_typer(
    run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    (tmp_path / "q.yaml").write_text((TENANTS).read_text())
    (tmp_path / "w.yaml").write_text(WORKLOAD.read_text())
    (tmp_path / "dump.yaml").write_text((SAMPLES / "cluster" / "invalid" / "cluster-user-info.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    expected = run_yk("validate", *args)
    capsys.readouterr()
    code = fast_path(args)
    out, err = capsys.readouterr()
    assert (code, out, err) == (expected.exit_code, expected.stdout, expected.stderr)


def test_no_input_at_all_is_a_usage_error(run_yk) -> None:
    result = run_yk("validate")
    assert result.exit_code == 2
    assert result.stderr == "yk: error: no files given (use '-' for standard input)\n"


# --- item 17: a Volcano input names `yk volcano validate` -------------------------------------------------------


def test_a_volcano_conf_suggests_yk_volcano_validate(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("volcano-scheduler.conf").write_text(
        'actions: "enqueue, allocate, backfill"\ntiers:\n- plugins:\n  - name: priority\n', encoding="utf-8"
    )
    result = run_yk("validate", "volcano-scheduler.conf")
    assert result.exit_code == 1
    assert result.stdout == (
        "volcano-scheduler.conf:1:1: [error] field actions not found in type configs.SchedulerConfig (unknown-field)\n"
        '    1 | actions: "enqueue, allocate, backfill"\n'
        "      | ^^^^^^^\n"
        "      hint: `actions` is a key of Volcano's volcano-scheduler.conf: did you mean "
        "`yk volcano validate volcano-scheduler.conf`?\n"
        "volcano-scheduler.conf:2:1: [error] field tiers not found in type configs.SchedulerConfig (unknown-field)\n"
        "    2 | tiers:\n"
        "      | ^^^^^\n"
        "      hint: `tiers` is a key of Volcano's volcano-scheduler.conf: did you mean "
        "`yk volcano validate volcano-scheduler.conf`?\n"
        "1 file checked: 2 errors, 0 warnings\n"
    )


@pytest.mark.parametrize("sample", ["cluster.yaml", "seed-example.yaml"])
def test_volcano_objects_suggest_yk_volcano_validate(run_yk, sample: str) -> None:
    path = SAMPLES / "volcano" / sample
    result = run_yk("validate", str(path), "-f", "json")
    hints = [p.get("hint", "") for p in json.loads(result.stdout)["problems"]]
    assert hints and all(
        h.endswith(f"For Volcano's scheduler conf and objects: `yk volcano validate {path}`.") for h in hints
    )


def test_a_yunikorn_config_gets_no_volcano_hint(run_yk) -> None:
    result = run_yk("validate", str(SAMPLES / "queues" / "invalid" / "unknown-field.yaml"))
    assert "volcano" not in result.stdout
