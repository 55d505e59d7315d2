"""The workload file: conversion into core values, every workload problem at its exact position, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CONFORMANCE, SAMPLES, dedent
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.core.workload.checks import WORKLOAD_RULES, qualify_queue
from yk_cli.core.workload.model import NANOS
from yk_cli.load.config import load_config
from yk_cli.load.source import InputError
from yk_cli.load.workload import LoadedWorkload, load_workload, parse_workload, read_workload

CONFORMANCE_WORKLOADS = sorted(CONFORMANCE.glob("*/*/workload.yaml"))


def tree_of(path: Path) -> QueueTree:
    """The default partition's tree of a queue config file."""
    result = load_config(str(path))
    return build_queue_tree(result.configs[0].config.partitions[0])


TENANTS = SAMPLES / "queues" / "tenants.yaml"


def found(loaded: LoadedWorkload) -> list[tuple[str, int, int]]:
    """(rule, line, column) of every problem."""
    return [(p.rule, p.span.line, p.span.column) for p in loaded.problems if p.span]


@pytest.mark.parametrize("path", CONFORMANCE_WORKLOADS, ids=lambda p: p.parent.name)
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


def test_restart_on_preemption_defaults_to_false_and_asks_and_allocations_override_the_application() -> None:
    text = dedent(
        """
        nodes:
          - {name: n, resources: {vcore: 8}}
        applications:
          - id: plain
            asks:
              - {name: p-ask, resources: {vcore: 1}}
              - {name: p-on, resources: {vcore: 1}, restartOnPreemption: true}
            allocations:
              - {name: p-run, node: n}
              - {name: p-run-on, node: n, restartOnPreemption: true}
          - id: replicas
            restartOnPreemption: true
            asks:
              - {name: r-ask, resources: {vcore: 1}, count: 2}
              - {name: r-off, resources: {vcore: 1}, restartOnPreemption: false}
            allocations:
              - {name: r-run, node: n}
              - {name: r-run-off, node: n, restartOnPreemption: false}
        """
    )
    loaded = parse_workload(text)
    assert loaded.problems == []
    plain, replicas = loaded.workload.applications
    got = {a.name: a.restart_on_preemption for app in (plain, replicas) for a in (*app.asks, *app.allocations)}
    assert got == {
        "p-ask": False,
        "p-on": True,
        "p-run": False,
        "p-run-on": True,
        "r-ask-0": True,
        "r-ask-1": True,
        "r-off": False,
        "r-run": True,
        "r-run-off": False,
    }


def test_equal_asks_of_applications_with_different_restart_defaults_resolve_apart() -> None:
    ask = "{name: x, priority: 1, resources: {vcore: 1}}"
    text = f"applications:\n  - id: a\n    restartOnPreemption: true\n    asks:\n      - {ask}\n"
    text += f"  - id: b\n    asks:\n      - {ask.replace('x', 'y')}\n"
    loaded = parse_workload(text)
    assert loaded.problems == []
    assert [app.asks[0].restart_on_preemption for app in loaded.workload.applications] == [True, False]


def test_allocation_start_time_defaults_to_the_start_of_the_run_and_seq_is_file_order() -> None:
    text = dedent(
        """
        nodes:
          - {name: n, resources: {vcore: 8}}
        applications:
          - id: a
            allocations:
              - {name: a0, node: n}
              - {name: a1, node: n, startTime: -5m}
          - id: b
            allocations:
              - {name: b0, node: n}
        """
    )
    loaded = parse_workload(text)
    assert loaded.problems == []
    allocations = [al for app in loaded.workload.applications for al in app.allocations]
    assert [(al.name, al.start_time, al.seq) for al in allocations] == [
        ("a0", 0, 0),
        ("a1", -300 * NANOS, 1),
        ("b0", 0, 2),
    ]
    assert not any(al.originator or al.restart_on_preemption for al in allocations)
    assert all(al.allow_preemption for al in allocations)


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
    "node resource name typo": (
        """
        nodes:
          - {name: n1, resources: {vcore: 4, memroy: 8Gi}}
          - {name: n2, resources: {vcore: 4, memroy: 8Gi}}
        """,
        [("workload-resource-name-typo", 2, 38)],
        "did you mean `memory`?",
    ),
    "task group resource name typo": (
        """
        nodes:
          - {name: n1, resources: {vcore: 4, memory: 8Gi}}
        applications:
          - id: a
            taskGroups:
              - {name: tg, minMember: 1, minResource: {vcpu: 1}}
        """,
        [("workload-resource-name-typo", 6, 48)],
        "did you mean `vcore`?",
    ),
    "ask resource name alias": (
        """
        nodes:
          - {name: n1, resources: {vcore: 4, memory: 8Gi}}
        applications:
          - id: a
            asks:
              - {name: x, resources: {vcore: 1, mem: 1Gi}}
        """,
        [("workload-resource-name-typo", 6, 41)],
        "did you mean `memory`?",
    ),
    "taint effect": (
        """
        nodes:
          - {name: n, resources: {memory: 1}, taints: [{key: k, effect: NoScheduled}]}
        """,
        [("workload-bad-pod-spec", 2, 65)],
        "the Kubernetes API server refuses such a pod or node",
    ),
    "node selector value": (
        """
        applications:
          - id: a
            asks:
              - {name: x, resources: {memory: 1}, nodeSelector: {zone: "a b"}}
        """,
        [("workload-bad-pod-spec", 4, 64)],
        "the Kubernetes API server refuses such a pod or node",
    ),
    "repeated task group": (
        """
        applications:
          - id: a
            taskGroups:
              - {name: tg, minMember: 1, minResource: {memory: 1}}
              - {name: tg, minMember: 2, minResource: {memory: 1}}
        """,
        [("workload-bad-task-group", 5, 16)],
        "its own name",
    ),
    "unknown task group": (
        """
        applications:
          - id: a
            taskGroups:
              - {name: tg, minMember: 1, minResource: {memory: 1}}
            asks:
              - {name: x, resources: {memory: 1}, taskGroupName: tgg}
        """,
        [("workload-bad-task-group", 6, 58)],
        "its task groups: tg.",
    ),
    "task group without minMember": (
        """
        applications:
          - id: a
            taskGroups:
              - {name: tg, minResource: {memory: 1}}
        """,
        [("workload-missing-key", 4, 9)],
        "",
    ),
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
    "restartOnPreemption not a boolean": (
        """
        nodes:
          - {name: n, resources: {vcore: 1}}
        applications:
          - id: a
            restartOnPreemption: "true"
            asks:
              - {name: x, restartOnPreemption: 1}
            allocations:
              - {name: r, node: n, restartOnPreemption: yes}
        """,
        [("workload-wrong-type", 5, 26), ("workload-wrong-type", 7, 40), ("workload-wrong-type", 9, 49)],
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
    rules |= {"workload-unknown-partition"}  # needs the command: tests/cli/test_priorities.py
    rules |= {"workload-too-many-asks"}  # needs a million asks: tests/cli/test_bad_input.py
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


# --- the fast reader gives exactly the full parser's data ---------------------------------------------------------

FAST_CASES = [
    "a: 1\n",
    "a:\n  b: [1, x, 'y', \"z\"]\n  c: {d: ~, e: true, f: 1.5, g: 0x1F, h: 1_000, i: 012, j: 2024-01-02}\n",
    "- {name: a, resources: {vcore: 500m, memory: 1Gi}, submitTime: -60s}\n- {name: b, priority: -5, count: 3}\n",
    "apps:\n- id: a\n  asks:\n  - {name: x}\n  -   {name: y , v: [ ] , w: { }}\n",
    "k: value with spaces   # a comment\nl: 'it''s'\nm: \"quoted # not a comment\"\n",
    "n: {a: 1, b: True, c: FALSE, d: Null, e: .inf, f: -.5, g: +7, h: 1e3}\n",
    "o: [a b, c d]\np: {x y: z w}\nq:\nr: -\n",
    "- {a: 1}\n- {a: x, b: {c: 1}}\n- {a: y, b: [1, 2]}\n- {}\n",
    "x: {a: 1, a: 2}\n",
    "x: [1, 2\n",
    "x: a\n  b\n",
    "x: &a 1\ny: *a\n",
    "x: |\n  text\n",
    "--- \nx: 1\n",
    "x:\n- a\n- b\ny: 1\n",
    "just text\n",
    "- a\n- - b\n",
    "x: {a: 1}  # comment\ny: [1, 2] # comment\n",
    "x: 'a' b\n",
    "x: a: b\n",
    "x: {a: b: c}\n",
    "x: {a:b}\n",
    "x: {'a': 1, \"b\": [x, 'y']}\n",
    "1: x\n~: y\ntrue: z\n",
]


def _full_data(text: str) -> object:
    from yk_cli.load.workload import _full_parse

    document = _full_parse(text)
    assert not document.problems
    return document.data


def _plain_data(text: str) -> tuple[bool, object]:
    from yk_cli.load.yamlreader import read_plain

    return read_plain(text)


@pytest.mark.parametrize("text", FAST_CASES)
def test_plain_reader_matches_the_node_reader(text: str) -> None:
    read, plain = _plain_data(text)
    if not read:
        return
    assert plain == _full_data(text)
    assert repr(plain) == repr(_full_data(text))  # same types too (1 vs 1.0 vs True)


@pytest.mark.parametrize(
    "path",
    [*sorted((SAMPLES / "workloads").glob("*.yaml")), *CONFORMANCE_WORKLOADS[:20]],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_plain_reader_reads_every_sample_like_the_node_reader(path: Path) -> None:
    text = path.read_text()
    assert repr(_plain_data(text)) == repr((True, _full_data(text)))


_SCALARS = st.sampled_from(
    ["a", "b c", "1", "-5", "0", "007", "1.5", "1e3", "true", "True", "no", "~", "null", "-60s", "1Gi", "500m", "x-1"]
)
_FLOW = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
        | st.dictionaries(st.sampled_from(["k", "l", "m"]), inner, max_size=3).map(
            lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}"
        )
    ),
    max_leaves=6,
)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(["p", "q", "r"]), st.lists(_FLOW, min_size=1, max_size=4)), max_size=3))
def test_plain_reader_matches_on_generated_documents(blocks: list[tuple[str, list[str]]]) -> None:
    seen: set[str] = set()
    lines = []
    for key, items in blocks:
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"{key}:")
        lines.extend(f"  - {item}" for item in items)
    text = "\n".join(lines) + "\n"
    read, plain = _plain_data(text)
    assert read
    assert repr(plain) == repr(_full_data(text))


GATE_ASK_KEYS = ("name", "priority", "priorityClass", "count", "resources", "preemptionPolicy", "restartOnPreemption",
                 "observedStartTime", "bogus")  # fmt: skip


@settings(max_examples=200)
@given(st.data())
def test_gate_agrees_with_jsonschema(data: st.DataObject) -> None:
    from jsonschema import Draft202012Validator

    from yk_cli.load.schema import compile_gate, load_schema

    schema = load_schema("workload.schema.json")
    values = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**32), 2**32), st.floats(allow_nan=False), st.text(max_size=3)
    )
    ask = st.dictionaries(
        st.sampled_from(GATE_ASK_KEYS),
        values | st.just("Never") | st.dictionaries(st.sampled_from(["vcore", "memory"]), values, max_size=2),
        max_size=4,
    )
    document = {"applications": [{"id": data.draw(st.text(max_size=2)), "asks": data.draw(st.lists(ask, max_size=2))}]}
    assert compile_gate(schema)(document) == Draft202012Validator(schema).is_valid(document)


def test_workload_schema_is_valid_and_describes_every_key() -> None:
    from jsonschema import Draft202012Validator

    from yk_cli.load.schema import load_schema

    schema = load_schema("workload.schema.json")
    Draft202012Validator.check_schema(schema)

    def walk(node: dict[str, Any], where: str) -> None:
        for key, child in node.get("properties", {}).items():
            assert child.get("description"), f"{where}.{key} has no description"
            walk(child, f"{where}.{key}")
        for key, child in node.get("$defs", {}).items():
            assert child.get("description"), f"$defs/{key} has no description"
            walk(child, f"$defs/{key}")

    walk(schema, "workload")
    for where in ("Application", "Ask", "Allocation"):
        assert schema["$defs"][where]["properties"]["restartOnPreemption"]["type"] == "boolean"
