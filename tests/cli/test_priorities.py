"""`yk priorities` and the priority breakdown: the seed's numbers, offsets, fences, the clamp, sorting notes, input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import tree_of
from tests.conftest import ROOT, run_program
from tests.helpers.golden import check_golden
from yk_cli.core.ordering.priority import MAX_PRIORITY, MIN_PRIORITY, PriorityCache, effective_ask_priority, explain_ask
from yk_cli.core.workload.model import Ask

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
FENCED = ("samples/workloads/queues/fenced-teams.yaml", "samples/workloads/fenced-teams.yaml")
CLAMP = ("samples/workloads/queues/classes-and-clamp.yaml", "samples/workloads/classes-and-clamp.yaml")




def queue_priorities(run_yk, config: str, workload: str) -> dict[str, int | None]:
    """queuePath -> currentPriority from the JSON output."""
    result = run_yk("priorities", config, workload, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return {q["queuePath"]: q["currentPriority"] for q in json.loads(result.stdout)["queues"]}


def test_tenant_sample_gives_the_documents_numbers(run_yk) -> None:
    got = queue_priorities(run_yk, *TENANTS)
    leaf = {path.rsplit(".", 1)[-1]: value for path, value in got.items()}
    assert leaf == {
        "root": 1001,
        "system": 1001,
        "system-normal": 10,
        "system-high": 1001,
        "system-low": -997,
        "tenants": 0,
        "tenant-a": 10,
        "child-a-1": 8,
        "child-a-2": 6,
        "tenant-b": 0,
        "child-b-1": 9,
        "child-b-2": 8,
    }


def test_tenant_sample_text_golden(run_yk) -> None:
    result = run_yk("priorities", *TENANTS)
    assert result.exit_code == 0 and result.stderr == ""
    check_golden("priorities_tenants.txt", result.stdout)


def test_fenced_teams_json_golden(run_yk) -> None:
    result = run_yk("priorities", *FENCED, "--format", "json")
    assert result.exit_code == 0
    json.loads(result.stdout)
    check_golden("priorities_fenced-teams.json", result.stdout)


def test_nested_fences_and_the_empty_fenced_queue(run_yk) -> None:
    got = queue_priorities(run_yk, *FENCED)
    assert got["root.teams"] == 0  # fenced, offset unset: 0 whatever its children ask
    assert got["root.teams.team-a"] == 5  # fenced: only its offset
    assert got["root.teams.team-a.interactive"] == 30  # 20 + 10
    assert got["root.teams.team-b"] == 10  # not fenced: prod 7 + 3
    assert got["root.teams.team-b.research"] is None  # fenced but empty: n/a, not its offset 100
    assert got["root.shared"] == 50 and got["root"] == 50


def test_clamp_sample(run_yk) -> None:
    result = run_yk("priorities", *CLAMP, "--format", "json")
    data = json.loads(result.stdout)
    queues = {q["queuePath"]: q["currentPriority"] for q in data["queues"]}
    assert queues["root.platform"] == MAX_PRIORITY
    assert queues["root.platform.critical"] == 2_000_001_000
    assert queues["root.batch"] == 999_950
    asks = {a["ask"]: a for a in data["asks"]}
    agent = asks["agent"]
    assert agent["priorityClass"] == "system-cluster-critical" and agent["effectivePriority"] == MAX_PRIORITY
    assert [s["kind"] for s in agent["steps"]] == ["ask", "application", "offset", "clamp"]
    assert asks["nightly-default-0"]["priority"] == 100  # the globalDefault class
    assert "globalDefault PriorityClass standard" in asks["nightly-default-1"]["steps"][0]["detail"]
    assert asks["nightly-default-0"]["effectivePriority"] == 0
    assert asks["nightly-low"]["priority"] == 10


# The examples of yunikorn-semantics.md section 4, through the cache and through the breakdown.
OFFSETS = """
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: parent
            properties: {priority.offset: "5"}
            queues:
              - name: leaf
                properties: {priority.offset: "3"}
              - name: fenced
                properties: {priority.offset: "-20", priority.policy: fence}
          - name: other
            properties: {priority.offset: "-10"}
            queues:
              - name: fenced
                properties: {priority.offset: "-20", priority.policy: fence}
          - name: top
            properties: {priority.offset: "5"}
            queues:
              - name: max
                properties: {priority.offset: "2147483647"}
              - name: min
                properties: {priority.offset: "-2147483648"}
"""


def test_offsets_add_up_and_fences_cut() -> None:
    tree = tree_of(OFFSETS)
    cache = PriorityCache(tree)
    cache.add_app("a", tree.queues["root.parent.leaf"])
    cache.add_ask("a", 0)
    cache.add_app("b", tree.queues["root.parent.leaf"])
    cache.add_ask("b", 5)
    assert cache.queue_priority("root.parent.leaf") == 8
    assert cache.queue_priority("root.parent") == 13
    cache.add_app("c", tree.queues["root.other.fenced"])
    cache.add_ask("c", 1000)
    assert cache.queue_priority("root.other.fenced") == -20
    assert cache.queue_priority("root.other") == -30
    assert cache.queue_priority("root.parent.fenced") == MIN_PRIORITY  # empty fenced: n/a, not -20


def test_breakdown_matches_the_cache() -> None:
    tree = tree_of(OFFSETS)
    value, steps = effective_ask_priority(tree.queues["root.parent.leaf"], 5)
    assert value == 13
    assert [(s.queue_path, s.kind, s.value) for s in steps] == [
        ("root.parent.leaf", "offset", 8),
        ("root.parent", "offset", 13),
    ]
    value, steps = effective_ask_priority(tree.queues["root.other.fenced"], 1000)
    assert value == -30 and [s.kind for s in steps] == ["fence", "offset"]


def test_int32_clamp_both_ways() -> None:
    tree = tree_of(OFFSETS)
    value, steps = effective_ask_priority(tree.queues["root.top.max"], 10)
    assert value == MAX_PRIORITY
    assert [s.kind for s in steps] == ["clamp", "clamp"]
    assert "2147483657, outside int32" in steps[0].detail
    value, steps = effective_ask_priority(tree.queues["root.top.min"], -5)
    # clamped to MinInt32, which YuniKorn reads as "nothing pending" one level up: top is n/a, not MinInt32 + 5
    assert value == MIN_PRIORITY and [s.kind for s in steps] == ["clamp", "n/a"]
    cache = PriorityCache(tree)
    cache.add_app("a", tree.queues["root.top.max"])
    cache.add_ask("a", 10)
    assert cache.queue_priority("root.top.max") == MAX_PRIORITY == cache.queue_priority("root.top")
    cache.remove_ask("a", 10)
    cache.add_app("b", tree.queues["root.top.min"])
    cache.add_ask("b", -5)
    assert cache.queue_priority("root.top.min") == MIN_PRIORITY == cache.queue_priority("root.top")


def test_an_ask_at_minint32_is_nothing_pending() -> None:
    tree = tree_of(OFFSETS)
    value, steps = effective_ask_priority(tree.queues["root.parent.leaf"], MIN_PRIORITY)
    assert value == MIN_PRIORITY and {s.kind for s in steps} == {"n/a"}
    cache = PriorityCache(tree)
    cache.add_app("a", tree.queues["root.parent.leaf"])
    cache.add_ask("a", MIN_PRIORITY)
    assert cache.queue_priority("root.parent.leaf") == MIN_PRIORITY


SORTING = """
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: teams
            properties: {application.sort.priority: disabled}
            queues:
              - name: a
                queues:
                  - name: leaf
              - name: b
                properties: {application.sort.priority: enabled}
"""


def test_sort_priority_disabled_on_a_parent_reaches_its_static_children() -> None:
    tree = tree_of(SORTING)
    leaf = tree.queues["root.teams.a.leaf"]
    assert not tree.queues["root.teams.a"].sort_priority and not leaf.sort_priority
    assert tree.queues["root.teams.b"].sort_priority
    ask = Ask("x", "app", 7, {}, 0, 0)
    value, steps = explain_ask(leaf, ask, 7)
    assert value == 7
    by_queue = {s.queue_path: s for s in steps if s.kind not in ("ask", "application")}
    # a's children and teams' children are ordered by fair share first; root sorts by priority
    assert not by_queue["root.teams.a.leaf"].sorting and "root.teams.a has application.sort.priority disabled" in (
        by_queue["root.teams.a.leaf"].note
    )
    assert not by_queue["root.teams.a"].sorting and by_queue["root.teams"].sorting
    cause = by_queue["root.teams.a.leaf"].causes[-1]
    assert cause.setting.source.value == "inherited" and cause.setting.origin == "root.teams"
    assert cause.config_path == ("partitions", 0, "queues", 0, "queues", 0, "properties", "application.sort.priority")
    app_step = steps[1]
    assert app_step.kind == "application" and not app_step.sorting and "its applications by fifo order" in app_step.note


def test_fenced_teams_breakdown_names_config_lines(run_yk) -> None:
    data = json.loads(run_yk("priorities", *FENCED, "--format", "json").stdout)
    server = next(a for a in data["asks"] if a["ask"] == "server")
    assert server["effectivePriority"] == 0
    prod, team_b, teams = server["steps"][2:]
    assert prod["note"].startswith("root.teams.team-b has application.sort.priority disabled")
    sort_cause = prod["causes"][-1]
    assert sort_cause == {
        "queuePath": "root.teams.team-b",
        "key": "application.sort.priority",
        "value": False,
        "source": "inherited",
        "origin": "root.teams",
        "location": "samples/workloads/queues/fenced-teams.yaml:15",
    }
    assert team_b["causes"][0]["location"] == "samples/workloads/queues/fenced-teams.yaml:30"
    assert teams["kind"] == "fence" and teams["value"] == 0


def test_warnings_are_printed_and_the_command_goes_on(run_yk) -> None:
    result = run_yk("priorities", TENANTS[0], "samples/workloads/invalid/workload-priority-mismatch.yaml")
    assert result.exit_code == 0
    assert result.stderr == (
        "1 warning in samples/workloads/invalid/workload-priority-mismatch.yaml: workload-priority-mismatch (line 10)\n"
    )
    assert "effective priority 0" in result.stdout


def test_workload_errors_stop_the_command_like_validate_reports_them(run_yk) -> None:
    result = run_yk("priorities", TENANTS[0], "samples/workloads/invalid/workload-unknown-queue.yaml")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(
        "samples/workloads/invalid/workload-unknown-queue.yaml:6:12: [error] application batch: queue "
        "root.tenants.tenant-c.child-c-1 does not exist in partition default (workload-unknown-queue)\n"
        "    6 |     queue: root.tenants.tenant-c.child-c-1\n"
    )
    assert result.stderr.endswith("2 files checked: 1 error, 0 warnings\n")


def test_unknown_partition_of_the_workload(run_yk) -> None:
    result = run_yk("priorities", TENANTS[0], "samples/workloads/invalid/workload-unknown-partition.yaml")
    assert result.exit_code == 1 and "(workload-unknown-partition)" in result.stderr


def test_config_errors_stop_before_the_workload(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 3\n")
    result = run_yk("priorities", str(config), TENANTS[1])
    assert result.exit_code == 1
    assert f"{config}:5:9: [error] field maxApplications not found in type configs.QueueConfig" in result.stderr


def test_rejected_applications_are_reported(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "acl.yaml"
    config.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues: [{name: q}]\n")
    workload = tmp_path / "w.yaml"
    workload.write_text("applications:\n  - id: a\n    queue: root.q\n    asks:\n      - {name: x, priority: 1}\n")
    result = run_yk("priorities", str(config), str(workload), "--format", "json")
    assert result.exit_code == 0
    assert "yk: warning: application a is not placed" in result.stderr
    data = json.loads(result.stdout)
    assert data["asks"] == [] and data["rejected"][0]["application"] == "a"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("priorities", "missing.yaml", TENANTS[1]), 2, "missing.yaml: no such file"),
        (("priorities", TENANTS[0], "missing.yaml"), 2, "missing.yaml: no such file"),
        (("priorities", TENANTS[0], "samples"), 2, "is a directory"),
        (("priorities", TENANTS[0], TENANTS[1], "--format", "xml"), 2, "unknown format 'xml'"),
        (("priorities", TENANTS[0], TENANTS[1], "--partition", "gpu"), 2, "has no partition 'gpu'"),
        (("priorities", "-", "-"), 2, "may be given only once"),
    ],
)
def test_usage_errors(run_yk, args: tuple[str, ...], code: int, message: str) -> None:
    result = run_yk(*args)
    assert result.exit_code == code
    assert message in result.stderr


def test_empty_and_garbage_inputs(run_yk, tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = run_yk("priorities", TENANTS[0], str(empty))
    assert result.exit_code == 0 and "No pending asks at 0s." in result.stdout
    result = run_yk("priorities", str(empty), TENANTS[1])  # an empty config: YuniKorn's built-in default
    assert result.exit_code == 0 and "holds no queue config: YuniKorn uses its built-in default" in result.stderr
    garbage = tmp_path / "garbage.yaml"
    garbage.write_bytes(b"applications: [\x00\xff")
    result = run_yk("priorities", TENANTS[0], str(garbage))
    assert result.exit_code == 1 and "(yaml-syntax)" in result.stderr
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    result = run_yk("priorities", TENANTS[0], str(listing))
    assert result.exit_code == 1 and "the document must be a mapping" in result.stderr


def test_stdin_workload(run_yk) -> None:
    text = (ROOT / TENANTS[1]).read_text()
    result = run_yk("priorities", TENANTS[0], "-", "--format", "json", input=text)
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["asks"]) == 11


@pytest.mark.parametrize(
    "args",
    [
        (TENANTS[0], TENANTS[1]),
        (TENANTS[0], TENANTS[1], "--format=json", "--partition", "default"),
        ("-f", "json", TENANTS[0], "samples/workloads/invalid/workload-priority-mismatch.yaml"),
        (TENANTS[0], "samples/workloads/invalid/workload-unknown-queue.yaml"),
        (TENANTS[0], TENANTS[1], "--format", "xml"),
        (TENANTS[0], TENANTS[1], "--partition", "gpu"),
        ("missing.yaml", TENANTS[1]),
        ("--", TENANTS[0], TENANTS[1]),
    ],
)
def test_the_program_prints_what_the_command_prints(run_yk, args: tuple[str, ...]) -> None:
    """`python -m yk_cli priorities` (the console entry point with its fast path and early exit) against typer."""
    expected = run_yk("priorities", *args)
    assert run_program("priorities", *args) == (expected.exit_code, expected.stdout, expected.stderr)


def test_the_fast_path_leaves_help_and_odd_arguments_to_typer() -> None:
    from yk_cli.commands.priorities import fast_path

    for args in (
        [],
        ["--help"],
        ["a.yaml", "b.yaml", "--format"],
        ["a.yaml"],
        ["a.yaml", "b.yaml", "-fjson"],
        ["a", "b", "--bogus"],
    ):
        assert fast_path(args) is None


PROVENANCE_CONFIG = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: team
            properties:
              application.sort.priority: disabled
            queues:
              - name: a
              - name: b
                properties:
                  application.sort.priority: enabled
"""
PROVENANCE_WORKLOAD = """nodes:
  - {name: n1, resources: {vcore: 100}}
applications:
  - id: app1
    queue: root.team.a
    asks:
      - {name: x, priority: 3, resources: {vcore: 1}}
      - {name: y, priority: 7, resources: {vcore: 1}}
  - id: app2
    queue: root.team.b
    asks:
      - {name: z, priority: 1, resources: {vcore: 1}}
"""


def _provenance_files(tmp_path: Path) -> tuple[str, str]:
    config = tmp_path / "queues.yaml"
    config.write_text(PROVENANCE_CONFIG)
    workload = tmp_path / "workload.yaml"
    workload.write_text(PROVENANCE_WORKLOAD)
    return str(config), str(workload)


def test_inherited_sort_priority_is_labelled_inherited_not_set_here(run_yk, tmp_path: Path) -> None:
    config, workload = _provenance_files(tmp_path)
    result = run_yk("priorities", config, workload)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    start = lines.index("ask x · application app1 · root.team.a · effective priority 3")
    assert lines[start + 1 : start + 8] == [
        "  ask                   3  spec.priority 3",
        "  application           3  application app1 passes on the ask's priority 3; the application itself sorts "
        "at currentPriority 7 (its highest pending ask)",
        f"                           from application.sort.priority disabled: inherited from root.team ({config}:9)",
        "                           note: root.team.a has application.sort.priority disabled: it orders its "
        "applications by fifo order first, priority only breaks ties",
        "  a                     3  priority.offset +0",
        "                           from priority.offset 0: default; application.sort.priority disabled: "
        f"inherited from root.team ({config}:9)",
        "                           note: root.team has application.sort.priority disabled: it orders its child "
        "queues by fair share first, priority only breaks ties",
    ]
    # b overrides the setting: the row for b names root.team's own setting as set on root.team, not inherited
    start = lines.index("ask z · application app2 · root.team.b · effective priority 1")
    assert lines[start + 2 : start + 5] == [
        "  application           1  application app2: currentPriority 1 (its highest pending ask)",
        "  b                     1  priority.offset +0",
        "                           from priority.offset 0: default; application.sort.priority disabled: "
        f"set on root.team ({config}:9)",
    ]
    assert not any("set here" in line for line in lines)


def test_explain_labels_inherited_sort_priority(run_yk, tmp_path: Path) -> None:
    config, workload = _provenance_files(tmp_path)
    result = run_yk("explain", config, workload, "x", "z", "--format", "json")
    assert result.exit_code == 0
    text = result.stdout
    assert "set here" not in text
    assert f"application.sort.priority disabled: inherited from root.team ({config}:9)" in text
    assert f"application.sort.priority disabled: set on root.team ({config}:9)" in text
