"""`yk diff`: config-level changes, priorities, the two dry runs, every --fail-on condition, git: inputs, the four
formats (goldens), and the GitHub annotations' lines."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from tests.cli.mermaid_gantt import blocks, check
from tests.conftest import ROOT
from tests.helpers import paths
from tests.helpers.golden import check_golden

DATA = paths.DATA / "diff"
SCHEMA = json.loads((ROOT / "schemas" / "diff.schema.json").read_text(encoding="utf-8"))
FILES = ("old.yaml", "new.yaml", "wl.yaml")


@pytest.fixture
def here(here: Path) -> Path:
    """The working directory (conftest's `here`) holding old.yaml, new.yaml and wl.yaml (short relative names in
    every report)."""
    for name in FILES:
        shutil.copy(DATA / name, here / name)
    return here


def run(run_yk, *args: str) -> tuple[int, str, str]:
    result = run_yk("diff", *args)
    return result.exit_code, result.stdout, result.stderr


def as_json(run_yk, *args: str) -> dict:
    code, out, err = run(run_yk, *args, "-f", "json")
    assert err == ""
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    data["_exit"] = code
    return data


# --- a config against itself -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "github"])
def test_a_config_against_itself_is_empty(run_yk, here: Path, fmt: str) -> None:
    code, out, err = run(run_yk, "old.yaml", "old.yaml", "wl.yaml", "-f", fmt, "--fail-on", "any")
    assert (code, err) == (0, "")
    if fmt == "text":
        assert (
            out == "yk diff: old.yaml -> old.yaml; workload wl.yaml, partition default\n\n"
            "Summary: no changes, 0 new errors\n\nNo changes.\n"
        )
    elif fmt == "json":
        data = json.loads(out)
        assert data["empty"] is True and data["failing"] == [] and data["summary"] == "no changes, 0 new errors"
        assert data["config"]["settings"] == [] and data["workloadChanges"]["run"]["asks"] == []
    elif fmt == "markdown":
        assert out.endswith("**Summary:** no changes, 0 new errors\n\nNo changes.\n")
    else:
        assert out.splitlines()[-1] == "yk diff: no changes, 0 new errors"


# --- goldens -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "name"), [("text", "txt"), ("json", "json"), ("markdown", "md"), ("github", "github.txt")]
)
def test_goldens(run_yk, here: Path, fmt: str, name: str) -> None:
    code, out, err = run(run_yk, *FILES, "-f", fmt)
    assert (code, err) == (0, "")
    check_golden(f"diff_scenario.{name}", out)


def test_the_summary_line_a_reviewer_reads_first(run_yk, here: Path) -> None:
    data = as_json(run_yk, *FILES)
    assert data["summary"] == (
        "1 ask starts later (max +10m), 1 ask starts earlier (max -4m30s), 1 ask no longer waits, 1 ask on another "
        "node, 1 new preemption (root.prod preempts root.batch: 1 pod), other steps differ: complete 1 -> 2, 1 ask "
        "with a lower priority, 1 ask with a higher priority, 3 setting changes, 0 new errors"
    )


def test_settings_provenance_and_lines(run_yk, here: Path) -> None:
    settings = as_json(run_yk, *FILES)["config"]["settings"]
    assert [(s["queuePath"], s["key"], s["before"], s["after"], s["line"]) for s in settings] == [
        ("root.teams.a", "priority.offset", "10", "0", 11),
        ("root.teams.b", "priority.offset", "0", "10", 14),
        ("root.batch", "preemption.policy", "disabled", "default", 18),
    ]
    first = settings[0]
    assert first["beforeFrom"] == {
        "source": "set",
        "origin": "root.teams.a",
        "line": 13,
        "fallback": False,
        "text": "10",
    }
    assert first["afterFrom"] == {"source": "default", "origin": "", "line": None, "fallback": False, "text": None}
    new = (here / "new.yaml").read_text().splitlines()
    assert new[10].strip() == "- name: a"  # a value back to its default: the queue's own line in NEW
    assert new[13].strip() == 'priority.offset: "10"'


def test_priorities_name_the_step_and_the_line(run_yk, here: Path) -> None:
    priorities = as_json(run_yk, *FILES)["workloadChanges"]["priorities"]
    assert priorities == [
        {
            "application": "app-a",
            "ask": "a-1",
            "queuePath": "root.teams.a",
            "before": 10,
            "after": 0,
            "stepQueue": "root.teams.a",
            "stepBefore": "priority.offset +10",
            "stepAfter": "priority.offset +0",
            "cause": "priority.offset",
            "removed": True,
            "line": 11,
        },
        {
            "application": "app-b",
            "ask": "b-1",
            "queuePath": "root.teams.b",
            "before": 0,
            "after": 10,
            "stepQueue": "root.teams.b",
            "stepBefore": "priority.offset +0",
            "stepAfter": "priority.offset +10",
            "cause": "priority.offset",
            "removed": False,
            "line": 14,
        },
    ]


def test_the_dry_runs_compared(run_yk, here: Path) -> None:
    run_ = as_json(run_yk, *FILES)["workloadChanges"]["run"]
    asks = {(a["application"], a["ask"]): (a["changes"], a["shift"]) for a in run_["asks"]}
    assert asks == {
        ("app-b", "b-1"): (["no-longer-waits"], None),
        ("api", "api-1"): (["earlier", "node"], -270),
        ("app-a", "a-1"): (["later"], 600),
    }
    assert [
        (p["preemptor"]["ask"], p["victim"]["allocation"], p["victim"]["queuePath"]) for p in run_["preemptionsAdded"]
    ] == [("api-1", "etl-1", "root.batch")]
    assert run_["preemptionsRemoved"] == []
    assert run_["steps"] == [
        {
            "type": "complete",
            "before": 1,
            "after": 2,
            "onlyAfter": ["app-b/b-1"],
            "onlyBefore": [],
            "onlyAfterTotal": 1,
            "onlyBeforeTotal": 0,
        }
    ]


def test_reversed_the_preemption_is_removed_and_an_ask_now_waits(run_yk, here: Path) -> None:
    data = as_json(run_yk, "new.yaml", "old.yaml", "wl.yaml")
    run_ = data["workloadChanges"]["run"]
    assert [a["changes"] for a in run_["asks"] if a["ask"] == "b-1"] == [["now-waits"]]
    assert len(run_["preemptionsRemoved"]) == 1 and run_["preemptionsAdded"] == []
    assert (
        "1 ask now waits" in data["summary"]
        and "1 preemption gone (root.prod preempts root.batch: 1 pod)" in data["summary"]
    )


# --- --fail-on ----------------------------------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("condition", "forward", "backward"),
    [
        ("later-start", 1, 1),  # a-1 starts later one way, b-1 now waits the other
        ("later-start=10m", 0, 1),  # +10m is not more than 10m; now-waits always counts
        ("later-start=9m", 1, 1),
        ("new-pending", 0, 1),
        ("new-preemption", 1, 0),
        ("priority-drop", 1, 1),
        ("placement-change", 0, 0),
        ("new-errors", 0, 0),
        ("any", 1, 1),
    ],
)
def test_fail_on_conditions(run_yk, here: Path, condition: str, forward: int, backward: int) -> None:
    assert run(run_yk, *FILES, "--fail-on", condition)[0] == forward
    code, out, _err = run(run_yk, "new.yaml", "old.yaml", "wl.yaml", "--fail-on", condition)
    assert code == backward
    assert (f"Fails: {condition}" in out) == bool(backward)


def test_fail_on_priority_drop_negative(run_yk, here: Path) -> None:
    raised = (here / "old.yaml").read_text().replace('priority.offset: "10"', 'priority.offset: "20"')
    _write(here / "raised.yaml", raised)
    data = as_json(run_yk, "old.yaml", "raised.yaml", "wl.yaml", "--fail-on", "priority-drop")
    assert data["_exit"] == 0 and [p["after"] for p in data["workloadChanges"]["priorities"]] == [20]
    assert as_json(run_yk, "raised.yaml", "old.yaml", "wl.yaml", "--fail-on", "priority-drop")["_exit"] == 1


def test_fail_on_placement_change(run_yk, here: Path) -> None:
    renamed = (here / "old.yaml").read_text().replace("- name: batch", "- name: nightly")
    _write(here / "renamed.yaml", renamed)
    data = as_json(run_yk, "old.yaml", "renamed.yaml", "wl.yaml", "--fail-on", "placement-change")
    assert data["_exit"] == 1
    [change] = data["workloadChanges"]["placements"]
    assert change["application"] == "nightly" and change["before"] == {"queuePath": "root.batch", "reason": ""}
    assert change["after"] == {"queuePath": "root.@recovery@", "reason": ""}  # it runs: the core's recovery queue
    assert [(q["change"], q["queuePath"]) for q in data["config"]["queues"]] == [
        ("added", "root.nightly"),
        ("removed", "root.batch"),
    ]


def test_fail_on_new_errors_is_the_default(run_yk, here: Path) -> None:
    broken = (here / "new.yaml").read_text().replace("submitacl: '*'", "submitacl: '*'\n        maxApplications: 3")
    _write(here / "broken.yaml", broken)
    code, out, err = run(run_yk, "old.yaml", "broken.yaml", "wl.yaml")
    assert code == 1 and err == ""
    assert "broken.yaml:6:9: [error] field maxApplications not found in type configs.QueueConfig (unknown-field)" in out
    assert "Dry runs not compared: YuniKorn refuses NEW (broken.yaml)" in out
    assert out.splitlines()[2].endswith("1 new error")
    # the other way round it is fixed, and a warning alone is no new error
    assert run(run_yk, "broken.yaml", "old.yaml", "wl.yaml")[0] == 0
    warned = (here / "new.yaml").read_text().replace('priority.offset: "10"', 'priority.offset: "ten"')
    _write(here / "warned.yaml", warned)
    code, out, _err = run(run_yk, "new.yaml", "warned.yaml")
    assert code == 0 and "1 new warning, 0 new errors" in out


def test_bad_fail_on_and_usage(run_yk, here: Path) -> None:
    assert run(run_yk, *FILES, "--fail-on", "later")[0] == 2
    code, _out, err = run(run_yk, *FILES, "--fail-on", "new-pending=5m")
    assert code == 2 and "only later-start takes a duration" in err
    code, _out, err = run(run_yk, *FILES, "--fail-on", "later-start=soon")
    assert code == 2 and "'soon' is not a duration" in err
    code, _out, err = run(run_yk, "old.yaml", "missing.yaml")
    assert (code, err) == (2, "yk: error: missing.yaml: no such file\n")
    code, _out, err = run(run_yk, *FILES, "--cluster", "wl.yaml")
    assert code == 2 and "not both" in err


# --- queues added, removed, moved ------------------------------------------------------------------------------


def test_queues_added_removed_moved(run_yk, here: Path) -> None:
    moved = (here / "old.yaml").read_text()
    moved = moved.replace(
        "          - name: batch\n", "          - name: ops\n            queues:\n              - name: batch\n"
    )
    _write(here / "moved.yaml", moved)
    data = as_json(run_yk, "old.yaml", "moved.yaml")
    assert [(q["change"], q["queuePath"], q["oldPath"], q["line"]) for q in data["config"]["queues"]] == [
        ("added", "root.ops", None, 18),
        ("moved", "root.ops.batch", "root.batch", 20),
    ]
    text = run(run_yk, "old.yaml", "moved.yaml")[1]
    assert "  moved  root.batch -> root.ops.batch  (leaf)" in text


# --- git: inputs ------------------------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_git_inputs(run_yk, here: Path) -> None:
    _git(here, "init", "-q", "-b", "main")
    shutil.copy(here / "old.yaml", here / "queues.yaml")
    _git(here, "add", "queues.yaml")
    _git(here, "commit", "-q", "-m", "old")
    shutil.copy(here / "new.yaml", here / "queues.yaml")
    via_git = as_json(run_yk, "git:main:queues.yaml", "queues.yaml", "wl.yaml")
    direct = as_json(run_yk, "old.yaml", "new.yaml", "wl.yaml")
    assert via_git["old"] == "git:main:queues.yaml"
    assert via_git["summary"] == direct["summary"]
    assert via_git["config"]["settings"][0]["beforeFrom"]["line"] == 13
    _git(here, "commit", "-q", "-am", "new")
    assert as_json(run_yk, "git:HEAD~1:queues.yaml", "git:HEAD:queues.yaml")["config"] == direct["config"] | {
        "settings": via_git["config"]["settings"]
    }
    code, _out, err = run(run_yk, "git:nope:queues.yaml", "queues.yaml")
    assert code == 2 and err.startswith("yk: error: git:nope:queues.yaml: fatal: ")
    code, _out, err = run(run_yk, "git:main:absent.yaml", "queues.yaml")
    assert code == 2 and "absent.yaml" in err and "fatal:" in err
    code, _out, err = run(run_yk, "git:main", "queues.yaml")
    assert code == 2 and "expected git:REV:PATH" in err


# --- the GitHub annotations and the Markdown timeline ----------------------------------------------------------


def test_github_annotations_point_at_new_lines(run_yk, here: Path) -> None:
    out = run(run_yk, *FILES, "-f", "github")[1]
    new = (here / "new.yaml").read_text().splitlines()
    lines = [line for line in out.splitlines() if line.startswith("::") and ",line=" in line]
    assert lines
    for line in lines:
        assert line.split(" ", 1)[1].startswith("file=new.yaml,")
        number = int(line.split(",line=")[1].split(",")[0])
        column = int(line.split(",col=")[1].split(",")[0])
        assert 1 <= number <= len(new) and new[number - 1][column - 1 :].strip()
    offset_line = next(line for line in lines if "root.teams.b: priority.offset" in line)
    assert new[int(offset_line.split(",line=")[1].split(",")[0]) - 1].strip() == 'priority.offset: "10"'


@pytest.mark.parametrize("by", ["queue", "node"])
def test_markdown_timelines_parse(run_yk, here: Path, by: str) -> None:
    out = run(run_yk, *FILES, "-f", "markdown", "--timeline", by)[1]
    after, before = (check(block) for block in blocks(out))
    if by == "queue":
        assert [name for name, *_ in after["root.teams.a"]] == ["a-1"]
        assert after["root.teams.a"][0][1:] == (("done",), 600, 1200)
        assert ("etl-1", ("crit",), 0, 330) in after["root.batch"]
        assert any("milestone" in tags for _n, tags, *_ in after["root.prod"])
        assert "root.prod" in before and not any("milestone" in t for _n, t, *_ in before["root.prod"])
    else:
        assert set(after) == {"node-1", "node-2"}


# --- units ---------------------------------------------------------------------------------------------------------


def test_shifts_are_written_without_zero_units() -> None:
    from yk_cli.report.diff_common import shift

    second = 1_000_000_000
    assert [shift(n * second) for n in (600, -270, 3600, 30, 0, 5430)] == [
        "+10m",
        "-4m30s",
        "+1h",
        "+30s",
        "±0s",
        "+1h30m30s",
    ]
    assert shift(2_100_000_000) == "+2.1s"


def test_problems_are_matched_without_positions() -> None:
    from yk_cli.core.diagnostics import Level, Problem, Span
    from yk_cli.core.diff.config_diff import diff_problems

    a = Problem("unknown-field", Level.ERROR, "field x not found", span=Span(3, 1, 3, 2), file="old")
    moved = Problem("unknown-field", Level.ERROR, "field x not found", span=Span(9, 1, 9, 2), file="new")
    other = Problem("unknown-field", Level.ERROR, "field y not found", span=Span(4, 1, 4, 2), file="new")
    changes = diff_problems([a], [moved, other, moved])
    assert changes.introduced == (other, moved) and changes.fixed == ()
    assert diff_problems([a, a], [moved]).fixed == (a,)
