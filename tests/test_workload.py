"""The workload file: conversion into core values, every workload problem at its exact position, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES, SHARED, dedent
from yk_cli.core.queues import QueueTree, build_queue_tree
from yk_cli.core.workload import NANOS
from yk_cli.core.workload_checks import WORKLOAD_RULES, qualify_queue
from yk_cli.load.config import load_config
from yk_cli.load.source import InputError
from yk_cli.load.workload import LoadedWorkload, load_workload, parse_workload, read_workload

CONFORMANCE = sorted(SHARED.glob("conformance/*/*/workload.yaml"))


def tree_of(path: Path) -> QueueTree:
    """The default partition's tree of a queue config file."""
    result = load_config(str(path))
    return build_queue_tree(result.configs[0].config.partitions[0])


TENANTS = SAMPLES / "queues" / "tenants.yaml"


def found(loaded: LoadedWorkload) -> list[tuple[str, int, int]]:
    """(rule, line, column) of every problem."""
    return [(p.rule, p.span.line, p.span.column) for p in loaded.problems if p.span]


@pytest.mark.skipif(not CONFORMANCE, reason="shared/conformance is not beside this checkout")
@pytest.mark.parametrize("path", CONFORMANCE, ids=lambda p: p.parent.name)
def test_conformance_workloads_load_cleanly(path: Path) -> None:
    workload, problems = load_workload(str(path), tree_of(path.parent / "queues.yaml"))
    assert problems == []
    assert workload.applications


def test_conformance_formats() -> None:
    text = dedent(
        """
        nodes:
          - {name: node-0, resources: {memory: 40}}
        applications:
          - id: run
            queue: root.q
            allocations:
              - {name: a0, node: node-0, priority: 79, resources: {memory: 10}, startTime: -4s}
              - {name: a1, node: node-0, priority: 51, resources: {memory: 20}, startTime: -3s, allowPreemption: false}
          - id: ask
            queue: root.q
            asks:
              - {name: k0, priority: 95, resources: {memory: 5}, submitTime: -60s, preemptionPolicy: Never}
        """
    )
    loaded = parse_workload(text)
    assert loaded.problems == []
    run, ask = loaded.workload.applications
    assert [a.start_time for a in run.allocations] == [-4 * NANOS, -3 * NANOS]
    assert [a.allow_preemption for a in run.allocations] == [True, False]
    assert run.allocations[0].resources == {"memory": 10}
    assert ask.asks[0].submit_time == -60 * NANOS
    assert ask.asks[0].preempt_other is False


ISSUE_EXAMPLE = dedent(
    """
    partition: default                 # optional
    priorityClasses:                   # optional, Kubernetes semantics
      - {name: high, value: 1000, preemptionPolicy: PreemptLowerPriority, allowPreemption: true, globalDefault: false}
    nodes:
      - {name: node-1, resources: {vcore: 8, memory: 32Gi}, schedulable: true}
    applications:
      - id: app-a1
        queue: root.tenants.tenant-a.child-a-1
        submitTime: 0s                 # offset from the start of the run (Go duration, may be negative)
        user: alice                    # optional, groups optional
        asks:
          - {name: a1-p8, priority: 8, resources: {vcore: 1, memory: 1Gi}, submitTime: 0s}
          - {name: a1-hi, priorityClass: high, resources: {vcore: 1}, count: 3, duration: 10m,
             allowPreemption: false, preemptionPolicy: Never}
        allocations:                   # already running on a node
          - {name: a1-run, node: node-1, priority: 0, resources: {vcore: 2}, allowPreemption: true}
    """
)


def test_issue_example() -> None:
    loaded = parse_workload(ISSUE_EXAMPLE, "w.yaml", tree_of(TENANTS))
    assert loaded.problems == []
    workload = loaded.workload
    assert workload.partition == "default"
    assert workload.nodes[0].capacity == {"vcore": 8000, "memory": 32 * 2**30}
    (app,) = workload.applications
    assert app.user == "alice" and app.queue == "root.tenants.tenant-a.child-a-1"
    assert [a.name for a in app.asks] == ["a1-p8", "a1-hi-0", "a1-hi-1", "a1-hi-2"]
    assert [a.seq for a in app.asks] == [0, 1, 2, 3]
    hi = app.asks[1]
    assert (hi.priority, hi.priority_class, hi.duration) == (1000, "high", 600 * NANOS)
    assert (hi.allow_preemption, hi.preempt_other) == (False, False)
    assert hi.resources == {"vcore": 1000}
    assert app.allocations[0].node == "node-1" and app.allocations[0].resources == {"vcore": 2000}


def test_priority_resolution_and_defaults() -> None:
    text = dedent(
        """
        priorityClasses:
          - {name: low-default, value: 5, globalDefault: true, allowPreemption: false}
          - {name: lower-default, value: 3, globalDefault: true, preemptionPolicy: Never}
          - {name: batch, value: 100}
        applications:
          - id: app
            submitTime: -30s
            asks:
              - {name: explicit, priority: 7}
              - {name: by-class, priorityClass: batch}
              - {name: by-default}
              - {name: builtin, priorityClass: system-node-critical, submitTime: 5s}
        """
    )
    loaded = parse_workload(text)
    assert loaded.problems == []
    (app,) = loaded.workload.applications
    assert app.queue is None
    got = {a.name: (a.priority, a.priority_class, a.preempt_other, a.allow_preemption) for a in app.asks}
    assert got == {
        "explicit": (7, "lower-default", False, True),
        "by-class": (100, "batch", True, True),
        "by-default": (3, "lower-default", False, True),
        "builtin": (2_000_001_000, "system-node-critical", True, True),
    }
    assert [a.submit_time for a in app.asks] == [-30 * NANOS] * 3 + [5 * NANOS]


def test_no_classes_means_priority_zero_and_plain_integers() -> None:
    loaded = parse_workload("applications:\n  - id: a\n    asks:\n      - {name: x, resources: {vcore: 2, pods: 1}}\n")
    ask = loaded.workload.applications[0].asks[0]
    assert (ask.priority, ask.priority_class, ask.resources) == (0, "", {"vcore": 2000, "pods": 1})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("# only a comment\n", []),
        ("applications:\n", []),
        ("- 1\n", [("workload-wrong-type", 1, 1)]),
        ("just text\n", [("workload-wrong-type", 1, 1)]),
        ("a: [1\n", [("yaml-syntax", 2, 1)]),
        ("nodes: []\n---\napplications: []\n", [("ignored-document", 3, 1)]),
        ("nodes: []\nnodes: []\n", [("duplicate-key", 2, 1)]),
    ],
)
def test_document_level_input(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(parse_workload(text)) == expected


# Each case: a workload snippet and the (rule, line, column) problems it must give, against the tenant tree.
PROBLEMS = {
    "unknown key with a did-you-mean": (
        """
        applications:
          - id: a
            queue: root.system.system-high
            asks:
              - {name: x, priorityclass: high}
        """,
        [("workload-unknown-key", 5, 19)],
        "did you mean `priorityClass`?",
    ),
    "wrong type": (
        """
        nodes:
          - {name: n, resources: [vcore]}
        """,
        [("workload-wrong-type", 2, 26)],
        "",
    ),
    "quoted number": (
        """
        applications:
          - id: a
            asks:
              - {name: x, priority: "5"}
        """,
        [("workload-wrong-type", 4, 29)],
        "without quotes",
    ),
    "priority outside int32": (
        """
        applications:
          - id: a
            asks:
              - {name: x, priority: 2147483648}
        """,
        [("workload-wrong-type", 4, 29)],
        "",
    ),
    "enum": (
        """
        priorityClasses:
          - {name: c, value: 1, preemptionPolicy: never}
        """,
        [("workload-wrong-type", 2, 43)],
        "",
    ),
    "missing key": (
        """
        applications:
          - queue: root.system.system-high
        """,
        [("workload-missing-key", 2, 5)],
        "",
    ),
    "duplicate application": (
        """
        applications:
          - id: a
          - id: a
        """,
        [("workload-duplicate-name", 3, 9)],
        "",
    ),
    "count expansion collides": (
        """
        applications:
          - id: a
            asks:
              - {name: x, count: 2}
              - {name: x-1}
        """,
        [("workload-duplicate-name", 5, 16)],
        "",
    ),
    "bad quantity": (
        """
        nodes:
          - {name: n, resources: {vcore: 0.5, memory: 1Gb}}
        """,
        [("workload-bad-quantity", 2, 34), ("workload-bad-quantity", 2, 47)],
        "",
    ),
    "bad duration": (
        """
        applications:
          - id: a
            submitTime: 60
            asks:
              - {name: x, duration: -5s}
        """,
        [("workload-bad-duration", 3, 17), ("workload-bad-duration", 5, 29)],
        "",
    ),
    "unknown priority class": (
        """
        applications:
          - id: a
            asks:
              - {name: x, priorityClass: gold}
        """,
        [("workload-unknown-priority-class", 4, 34)],
        "known classes",
    ),
    "priority mismatch": (
        """
        priorityClasses:
          - {name: gold, value: 10}
        applications:
          - id: a
            asks:
              - {name: x, priorityClass: gold, priority: 11}
        """,
        [("workload-priority-mismatch", 6, 50)],
        "",
    ),
    "unknown node": (
        """
        nodes:
          - {name: n1, resources: {vcore: 1}}
        applications:
          - id: a
            asks:
              - {name: ds, requiredNode: n2}
            allocations:
              - {name: r, node: n3}
        """,
        [("workload-unknown-node", 6, 34), ("workload-unknown-node", 8, 25)],
        "known nodes: n1",
    ),
    "node overflow": (
        """
        nodes:
          - {name: n1, resources: {vcore: 2}, occupied: {vcore: 500m}}
        applications:
          - id: a
            allocations:
              - {name: r1, node: n1, resources: {vcore: 1}}
              - {name: r2, node: n1, resources: {vcore: 1}}
              - {name: r3, node: n1, resources: {memory: 1}}
        """,
        [("workload-node-overflow", 7, 26)],
        "",
    ),
    "unknown queue": (
        """
        applications:
          - id: a
            queue: root.system.system-hi
        """,
        [("workload-unknown-queue", 3, 12)],
        "did you mean root.system.system-high?",
    ),
    "parent queue": (
        """
        applications:
          - id: a
            queue: Tenants.TENANT-A
        """,
        [("workload-parent-queue", 3, 12)],
        "root.tenants.tenant-a.child-a-1",
    ),
}


@pytest.mark.parametrize("case", sorted(PROBLEMS))
def test_problem_positions(case: str) -> None:
    text, expected, hint = PROBLEMS[case]
    loaded = parse_workload(dedent(text), "w.yaml", tree_of(TENANTS))
    assert found(loaded) == expected, [(p.rule, p.message) for p in loaded.problems]
    assert all(p.file == "w.yaml" for p in loaded.problems)
    if hint:
        assert any(hint in p.hint for p in loaded.problems), [p.hint for p in loaded.problems]


def test_queue_names_are_relative_to_root_and_case_insensitive() -> None:
    assert qualify_queue("Tenants.Tenant-A.child-a-1") == "root.tenants.tenant-a.child-a-1"
    assert qualify_queue("ROOT.system") == "root.system"
    text = "applications:\n  - id: a\n    queue: SYSTEM.system-high\n"
    assert parse_workload(text, tree=tree_of(TENANTS)).problems == []


def test_missing_queue_is_fine_when_rules_may_create_it() -> None:
    text = "applications:\n  - id: a\n    queue: root.tenants.new\n"
    loaded = parse_workload(text, tree=tree_of(TENANTS), dynamic_queues=True)
    assert loaded.problems == []


def test_every_workload_rule_is_exercised_here_or_in_samples() -> None:
    rules = {rule for _, expected, _ in PROBLEMS.values() for rule, _, _ in expected}
    rules |= {"workload-unknown-partition"}  # needs the command: tests/test_priorities.py
    assert rules == {r.id for r in WORKLOAD_RULES}


def test_unreadable_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_workload(str(tmp_path / "missing.yaml"))
    with pytest.raises(InputError, match="is a directory"):
        read_workload(str(tmp_path))
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x00\xff\xfe")
    assert [p.rule for p in read_workload(str(binary)).problems] == ["yaml-syntax"]


def test_stdin() -> None:
    workload, problems = load_workload("-", stdin=b"applications:\n  - id: a\n")
    assert problems == [] and workload.applications[0].id == "a"
