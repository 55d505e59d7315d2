"""`yk tree`: the resolved tree with every setting's provenance, in text, JSON (REST names) and Mermaid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import tree_of
from tests.conftest import ROOT, dedent, run_program
from tests.helpers.golden import check_golden
from yk_cli.core.config.guarantees import overall_state, queue_guarantees, type_states
from yk_cli.report.tree_mermaid import escape

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
FENCED = ("samples/workloads/queues/fenced-teams.yaml", "samples/workloads/fenced-teams.yaml")
NAMESPACES = ("samples/workloads/queues/namespaces.yaml", "samples/workloads/namespaces.yaml")
GUARANTEES = ("samples/workloads/queues/guarantees.yaml", "samples/workloads/guarantees.yaml")
GI = 2**30


def tree_json(run_yk, config: str, workload: str | None = None) -> dict[str, dict[str, object]]:
    """queuename -> queue object of `yk tree --format json`, flattened."""
    result = run_yk("tree", config, *(("-w", workload) if workload else ()), "--format", "json")
    assert result.exit_code == 0, result.stderr
    out: dict[str, dict[str, object]] = {}
    stack = [json.loads(result.stdout)]
    while stack:
        queue = stack.pop()
        out[str(queue["queuename"])] = queue
        stack.extend(queue["children"])  # type: ignore[arg-type]
    return out


def test_text_golden_without_workload(run_yk) -> None:
    result = run_yk("tree", TENANTS[0])
    assert result.exit_code == 0 and result.stderr == ""
    check_golden("tree_tenants.txt", result.stdout)


def test_text_golden_with_workload(run_yk) -> None:
    result = run_yk("tree", FENCED[0], "--workload", FENCED[1])
    assert result.exit_code == 0
    check_golden("tree_fenced-teams.txt", result.stdout)


def test_json_golden(run_yk) -> None:
    result = run_yk("tree", TENANTS[0], "-w", TENANTS[1], "--format", "json")
    assert result.exit_code == 0
    check_golden("tree_tenants.json", result.stdout)


def test_mermaid_golden(run_yk) -> None:
    result = run_yk("tree", FENCED[0], "-w", FENCED[1], "--format", "mermaid")
    assert result.exit_code == 0
    assert result.stdout.startswith("flowchart TD\n")
    check_golden("tree_fenced-teams.mmd", result.stdout)


@pytest.mark.parametrize(
    ("fmt", "name"),
    [("text", "tree_guarantees.txt"), ("json", "tree_guarantees.json"), ("mermaid", "tree_guarantees.mmd")],
)
def test_guarantee_goldens(run_yk, fmt: str, name: str) -> None:
    result = run_yk("tree", *GUARANTEES[:1], "-w", GUARANTEES[1], "--format", fmt)
    assert result.exit_code == 0 and result.stderr == ""
    check_golden(name, result.stdout)


def test_guarantee_states_in_json(run_yk) -> None:
    queues = tree_json(run_yk, *GUARANTEES)
    states = {path: (q["guaranteeState"], q["overMax"], q["victimSource"]) for path, q in queues.items()}
    assert states == {
        "root": ("none", False, None),
        "root.prod": ("under", False, None),
        "root.prod.web": ("under", False, False),
        "root.prod.api": ("at", False, False),
        "root.prod.reports": ("none", False, False),  # lives off prod's remaining guarantee
        "root.dev": ("over", False, None),
        "root.dev.notebooks": ("under", False, True),
        "root.dev.ci": ("over", True, True),
        "root.dev.tests": ("under", False, True),  # under its own guarantee, but dev is over
        "root.scratch": ("none", False, True),
    }
    notebooks = queues["root.dev.notebooks"]
    assert notebooks["guaranteeTypes"] == {"memory": "over", "vcore": "under"}
    assert notebooks["allocatedResource"] == {"memory": 6 * GI, "vcore": 1000}
    assert notebooks["remainingGuaranteedResource"] == {"memory": -3 * GI, "vcore": -500}
    assert notebooks["remainingGuaranteedFrom"] == {"memory": "root.dev", "vcore": "root.dev"}
    assert queues["root.dev.ci"]["overMaxTypes"] == ["vcore"]
    assert queues["root.scratch"]["remainingGuaranteedResource"] is None
    text = run_yk("tree", *GUARANTEES[:1], "-w", GUARANTEES[1]).stdout
    assert "notebooks  leaf · priority n/a · under guarantee (memory over, vcore under)" in text
    assert "ci  leaf · priority n/a · over guarantee · over max" in text


def test_rest_field_names_and_values(run_yk) -> None:
    queues = tree_json(run_yk, *TENANTS)
    tenant_a = queues["root.tenants.tenant-a"]
    assert {k: tenant_a[k] for k in ("currentPriority", "priorityOffset", "isPriorityFence", "isLeaf")} == {
        "currentPriority": 10,
        "priorityOffset": 10,
        "isPriorityFence": True,
        "isLeaf": False,
    }
    leaf = queues["root.tenants.tenant-a.child-a-1"]
    assert leaf["pendingResource"] == {"memory": 2 * 2**30, "vcore": 2000}
    assert leaf["pendingAsks"] == 2 and leaf["allocatedResource"] == {}
    assert leaf["sortingPolicy"] == "fifo" and leaf["prioritySorting"] is True
    assert leaf["preemptionDelay"] == "30s" and leaf["isManaged"] is True
    assert queues["root"]["currentPriority"] == 1001


def test_without_a_workload_priorities_are_null(run_yk) -> None:
    queues = tree_json(run_yk, TENANTS[0])
    assert all(q["currentPriority"] is None for q in queues.values())
    assert "pendingResource" not in queues["root"]
    assert "guaranteeState" not in queues["root"]
    assert "guarantee" not in run_yk("tree", GUARANTEES[0]).stdout.replace("guaranteed {", "")
    assert "▲" not in run_yk("tree", GUARANTEES[0], "-f", "mermaid").stdout


def test_empty_fenced_queue_is_na(run_yk) -> None:
    queues = tree_json(run_yk, *FENCED)
    assert queues["root.teams.team-b.research"]["currentPriority"] is None
    result = run_yk("tree", *FENCED[:1], "-w", FENCED[1])
    assert "research  leaf · priority n/a · priority fence" in result.stdout


PROVENANCE = """
partitions:
  - name: default
    placementrules:
      - {name: provided, create: true}
    queues:
      - name: root
        submitacl: "*"
        properties:
          preemption.delay: 45s
        queues:
          - name: parent
            properties:
              application.sort.priority: maybe
              preemption.policy: disabled
              team.owner: data
            childtemplate:
              properties: {priority.offset: "7"}
            queues:
              - name: leaf
                properties:
                  priority.offset: ten
"""


def test_every_provenance_kind(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "queues.yaml"
    config.write_text(dedent(PROVENANCE))
    workload = tmp_path / "w.yaml"
    workload.write_text("applications:\n  - id: a\n    queue: root.parent.new\n    asks: [{name: x, priority: 1}]\n")
    result = run_yk("tree", str(config), "-w", str(workload), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"5 warnings in {config}: run yk validate {config}\n"  # as one line, not in full
    queues = tree_json(run_yk, str(config), str(workload))
    leaf = queues["root.parent.leaf"]["provenance"]
    assert leaf["priority.offset"] == {  # type: ignore[index]
        "value": 0,
        "source": "set",
        "origin": "root.parent.leaf",
        "text": "ten",
        "location": f"{config}:21",
        "fallback": True,
        "note": 'strconv.ParseInt: parsing "ten": invalid syntax',
    }
    assert leaf["application.sort.priority"]["source"] == "inherited"  # type: ignore[index]
    assert leaf["application.sort.priority"]["fallback"] is True  # type: ignore[index]
    assert leaf["preemption.policy"]["origin"] == "root.parent"  # type: ignore[index]
    assert leaf["preemption.delay"] == {  # type: ignore[index]
        "value": "45s",
        "source": "inherited",
        "origin": "root",
        "text": "45s",
        "location": f"{config}:9",
    }
    assert queues["root.parent"]["provenance"]["team.owner"]["ignored"] is True  # type: ignore[index]
    dynamic = queues["root.parent.new"]
    assert dynamic["isManaged"] is False
    assert dynamic["provenance"]["priority.offset"]["source"] == "template"  # type: ignore[index]
    assert dynamic["provenance"]["priority.offset"]["location"] == f"{config}:17"  # type: ignore[index]
    assert dynamic["provenance"]["preemption.policy"]["source"] == "default"  # type: ignore[index]
    text = run_yk("tree", str(config), "-w", str(workload)).stdout
    assert f"YuniKorn's fallback after a bad value 'ten', set here ({config}:21)" in text
    assert f"YuniKorn's fallback after a bad value 'maybe', inherited from root.parent ({config}:13)" in text
    assert f"from root.parent's child template ({config}:17)" in text
    assert f"inherited from root ({config}:9)" in text
    assert "team.owner" in text and "not a YuniKorn property, ignored" in text


def test_dynamic_queues_from_placement(run_yk) -> None:
    queues = tree_json(run_yk, *NAMESPACES)
    analytics = queues["root.tenants.analytics"]
    assert analytics["isManaged"] is False and analytics["currentPriority"] == 30
    assert analytics["guaranteedResource"] == {"memory": 16 * 2**30, "vcore": 4000}
    assert analytics["preemptionPolicy"] == "default"  # dynamic queues inherit nothing
    assert queues["root.tenants.pipelines"]["allocations"] == 1


def test_mermaid_escapes_labels() -> None:
    assert escape('a"b#c<d>&`') == "a#quot;b#35;c#lt;d#gt;#amp;#96;"


def test_partition_option(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "two.yaml"
    config.write_text(
        "partitions:\n  - name: default\n    queues: [{name: root}]\n"
        "  - name: gpu\n    queues: [{name: root, queues: [{name: train}]}]\n"
    )
    result = run_yk("tree", str(config), "--partition", "gpu")
    assert result.exit_code == 0 and "└── train  leaf" in result.stdout
    assert "(partition gpu)" in result.stdout
    result = run_yk("tree", str(config), "--partition", "cpu")
    assert result.exit_code == 2 and "has no partition 'cpu' (it has: default, gpu)" in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("tree", "missing.yaml"), 2, "missing.yaml: no such file"),
        (("tree", "samples"), 2, "is a directory"),
        (("tree", TENANTS[0], "-w", "missing.yaml"), 2, "missing.yaml: no such file"),
        (("tree", TENANTS[0], "--format", "dot"), 2, "unknown format 'dot'"),
    ],
)
def test_usage_errors(run_yk, args: tuple[str, ...], code: int, message: str) -> None:
    result = run_yk(*args)
    assert result.exit_code == code and message in result.stderr


def test_garbage_config(run_yk, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.yaml"
    garbage.write_text("partitions: [\n")
    result = run_yk("tree", str(garbage))
    assert result.exit_code == 1 and "(yaml-syntax)" in result.stderr and result.stdout == ""
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = run_yk("tree", str(empty))  # an empty config: YuniKorn's built-in default
    assert result.exit_code == 0 and result.stdout.startswith("root  (partition default)  parent")


def test_stdin_config(run_yk) -> None:
    result = run_yk("tree", "-", input=(ROOT / TENANTS[0]).read_text())
    assert result.exit_code == 0 and "(<stdin>:23)" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("samples/queues/tenants.yaml",),
        ("samples/queues/tenants.yaml", "-w", "samples/workloads/tenants.yaml", "--format", "json"),
        ("--format=mermaid", "samples/queues/tenants.yaml", "--partition", "default"),
        ("samples/queues/tenants.yaml", "--workload", "samples/workloads/invalid/workload-unknown-queue.yaml"),
        ("samples/queues/tenants.yaml", "-f", "xml"),
        ("missing.yaml",),
    ],
)
def test_the_program_prints_what_the_command_prints(run_yk, args: tuple[str, ...]) -> None:
    """`python -m yk_cli tree` (the console entry point with its fast path and early exit) against typer."""
    expected = run_yk("tree", *args)
    assert run_program("tree", *args) == (expected.exit_code, expected.stdout, expected.stderr)


def test_the_fast_path_leaves_help_and_odd_arguments_to_typer() -> None:
    from yk_cli.commands.tree import fast_path

    three = ["a.yaml", "b.yaml", "c.yaml"]
    for args in ([], ["--help"], three, ["a.yaml", "-w"], ["a.yaml", "-fjson"], ["a", "--bogus"]):
        assert fast_path(args) is None


NESTED = """
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: parent
            resources:
              guaranteed: {vcore: 4, memory: 8Gi}
            queues:
              - name: own
                resources:
                  guaranteed: {vcore: 2}
                  max: {vcore: 3, memory: 4Gi}
              - name: bare
              - name: calm
                properties: {preemption.policy: disabled}
          - name: free
"""


def test_type_states_and_overall_state() -> None:
    types = type_states({"memory": 6, "vcore": 1, "pods": 9}, {"vcore": 2, "memory": 4})
    assert types == {"memory": "over", "vcore": "under"}  # pods is not guaranteed: left out
    assert overall_state(types) == "under"  # under in some type wins, like YuniKorn's "under guarantee"
    assert overall_state(type_states({"vcore": 3}, {"vcore": 2, "memory": 4})) == "under"  # memory 0 of 4
    assert overall_state(type_states({"vcore": 3, "memory": 4}, {"vcore": 2, "memory": 4})) == "over"
    assert overall_state(type_states({"vcore": 2}, {"vcore": 2})) == "at"
    assert overall_state(type_states({"vcore": 2}, None)) == "none"


def test_remaining_guarantee_takes_the_min_with_the_ancestors() -> None:
    tree = tree_of(NESTED)
    used = {
        "root.parent.own": {"vcore": 1000, "memory": 5 * GI},
        "root.parent.bare": {"vcore": 4000, "memory": 1 * GI},
        "root.parent.calm": {"vcore": 1000},
    }
    used["root.parent"] = {"vcore": 6000, "memory": 6 * GI}
    result = queue_guarantees(tree, used)
    parent = result["root.parent"]
    assert (parent.state, parent.types) == ("under", {"memory": "under", "vcore": "over"})
    assert parent.remaining == {"memory": 2 * GI, "vcore": -2000}
    own = result["root.parent.own"]
    # under its own vcore guarantee (1 of 2) but the parent is 2 over: the min is the parent's -2; memory it does
    # not guarantee comes from the parent alone
    assert own.state == "under" and own.types == {"vcore": "under"}
    assert own.remaining == {"memory": 2 * GI, "vcore": -2000}
    assert own.remaining_from == {"memory": "root.parent", "vcore": "root.parent"}
    assert own.victim_source is True
    assert own.over_max == ("memory",)  # 5Gi of max 4Gi; vcore 1 of 3 is fine
    bare = result["root.parent.bare"]
    assert bare.state == "none" and bare.remaining == parent.remaining and bare.victim_source is True
    calm = result["root.parent.calm"]
    assert calm.victim_source is False  # preemption.policy disabled protects it whatever the guarantee says
    free = result["root.free"]
    assert free.state == "none" and free.remaining is None and free.victim_source is True  # no guarantee anywhere
    assert result["root"].remaining is None and result["root"].victim_source is None


def test_a_leaf_within_every_guarantee_gives_no_victims() -> None:
    tree = tree_of(NESTED)
    used = {"root.parent.own": {"vcore": 2000}, "root.parent": {"vcore": 2000}}
    result = queue_guarantees(tree, used)
    own = result["root.parent.own"]
    assert own.state == "at" and own.remaining == {"memory": 8 * GI, "vcore": 0}
    assert own.remaining_from == {"memory": "root.parent", "vcore": "root.parent.own"}  # the leaf is the min for vcore
    assert own.victim_source is False and own.over_max == ()
    assert result["root.parent.bare"].remaining == {"memory": 8 * GI, "vcore": 2000}
    assert result["root.parent.bare"].victim_source is False
