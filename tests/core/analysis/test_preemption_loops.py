"""Preemption loops: hand-built traces of pod lineages preempting each other, and one run of the real engine."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.paths import ROOT
from tests.helpers.scenarios import run
from yk_cli.core.analysis.preemption_loops import PreemptionLoop, _may_loop, find_loops, lineages, preemption_graph
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.trace import Summary, Trace, TraceEvent, Victim


def victim(application: str, allocation: str, restarted_as: str = "") -> Victim:
    return Victim(allocation, application, f"root.{application}", "n1", 0, {"memory": 1}, restarted_as)


def preempt(step: int, application: str, ask: str, *victims: Victim) -> TraceEvent:
    return TraceEvent(step, step, codes.PREEMPT, f"root.{application}", application, ask, 0, "n1", victims=victims)


def allocate(step: int, application: str, ask: str) -> TraceEvent:
    return TraceEvent(step, step, codes.ALLOCATE, f"root.{application}", application, ask, 0, "n1")


def trace(*events: TraceEvent) -> Trace:
    return Trace(events, (), Summary(steps=len(events)))


def test_one_way_preemption_is_no_loop() -> None:
    events = trace(
        preempt(1, "app-a", "a1", victim("app-b", "b1", "b1.r1")),
        allocate(2, "app-a", "a1"),
        allocate(3, "app-b", "b1.r1"),
        preempt(4, "app-a", "a2", victim("app-b", "b1.r1", "b1.r1.r2")),
    )
    assert find_loops(events) == []
    graph = preemption_graph(events)
    assert list(graph.edges) == [(("app-a", "a1"), ("app-b", "b1")), (("app-a", "a2"), ("app-b", "b1"))]
    assert lineages(events) == {("app-b", "b1.r1"): "b1", ("app-b", "b1.r1.r2"): "b1"}


def test_direct_loop() -> None:
    events = [
        preempt(3, "app-a", "a1", victim("app-b", "b1", "b1.r1")),
        allocate(4, "app-a", "a1"),
        preempt(7, "app-b", "b1.r1", victim("app-a", "a1", "a1.r2")),
        allocate(8, "app-b", "b1.r1"),
    ]
    assert find_loops(events) == [
        PreemptionLoop(
            ("app-a/a1", "app-b/b1"),
            (3, 7),
            "preemption loop: app-a/a1 preempts app-b/b1 (step 3), whose replacement b1.r1 preempts app-a/a1 (step 7)",
        )
    ]
    assert find_loops(trace(*events)) == find_loops(events)


def test_a_restart_of_a_restart_is_the_same_lineage() -> None:
    loops = find_loops(
        [
            preempt(1, "app-a", "a1", victim("app-b", "b1", "b1.r1")),
            preempt(2, "app-c", "c1", victim("app-b", "b1.r1", "b1.r1.r2")),
            preempt(5, "app-b", "b1.r1.r2", victim("app-a", "a1", "a1.r3")),
        ]
    )
    assert [(loop.lineages, loop.steps) for loop in loops] == [(("app-a/a1", "app-b/b1"), (1, 5))]
    assert "whose replacement b1.r1.r2 preempts app-a/a1 (step 5)" in loops[0].message


def test_three_ring() -> None:
    loops = find_loops(
        [
            preempt(2, "app-a", "a1", victim("app-b", "b1", "b1.r1")),
            preempt(5, "app-b", "b1.r1", victim("app-c", "c1", "c1.r2")),
            preempt(9, "app-c", "c1.r2", victim("app-a", "a1", "a1.r3")),
        ]
    )
    assert loops == [
        PreemptionLoop(
            ("app-a/a1", "app-b/b1", "app-c/c1"),
            (2, 5, 9),
            "preemption loop: app-a/a1 preempts app-b/b1 (step 2), whose replacement b1.r1 preempts app-c/c1 (step 5),"
            " whose replacement c1.r2 preempts app-a/a1 (step 9)",
        )
    ]


def test_ring_starts_at_its_earliest_preemption_whatever_the_order_of_appearance() -> None:
    """c1 preempts a1 first; the ring is reported from c1, and a non-restarted preemptor is named as itself."""
    loops = find_loops(
        [
            preempt(1, "app-c", "c1", victim("app-a", "a1", "a1.r1")),
            preempt(4, "app-a", "a1.r1", victim("app-b", "b1", "b1.r2")),
            preempt(6, "app-b", "b1.r2", victim("app-c", "c1", "c1.r3")),
        ]
    )
    assert [loop.lineages for loop in loops] == [("app-c/c1", "app-a/a1", "app-b/b1")]
    assert loops[0].message.startswith("preemption loop: app-c/c1 preempts app-a/a1 (step 1), whose replacement a1.r1")


def two_loops() -> list[TraceEvent]:
    return [
        preempt(1, "app-x", "x1", victim("app-y", "y1", "y1.r1")),
        preempt(2, "app-a", "a1", victim("app-b", "b1", "b1.r2")),
        preempt(3, "app-b", "b1.r2", victim("app-a", "a1", "a1.r3")),
        preempt(8, "app-y", "y1.r1", victim("app-x", "x1", "x1.r4")),
    ]


def test_two_independent_loops_ordered_by_first_step() -> None:
    loops = find_loops(two_loops())
    assert [(loop.lineages, loop.steps) for loop in loops] == [
        (("app-x/x1", "app-y/y1"), (1, 8)),
        (("app-a/a1", "app-b/b1"), (2, 3)),
    ]


def test_ordering_is_deterministic() -> None:
    """Same loops whatever the order of unrelated events, and several victims of one step each get an edge."""
    events = two_loops()
    expected = find_loops(events)
    shuffled = [events[1], events[2], events[0], events[3]]
    assert find_loops(shuffled) == expected
    assert find_loops(events) == expected
    merged = [
        preempt(1, "app-a", "a1", victim("app-b", "b1", "b1.r1"), victim("app-c", "c1", "c1.r2")),
        preempt(2, "app-c", "c1.r2", victim("app-a", "a1", "a1.r3")),
        preempt(3, "app-b", "b1.r1", victim("app-a", "a1.r3", "a1.r3.r4")),
    ]
    assert [(loop.lineages, loop.steps) for loop in find_loops(merged)] == [
        (("app-a/a1", "app-b/b1"), (1, 3)),
        (("app-a/a1", "app-c/c1"), (1, 2)),
    ]


def test_an_original_preemptor_inside_the_ring_is_named_as_itself() -> None:
    loops = find_loops(
        [
            preempt(1, "app-c", "c1", victim("app-a", "a1", "a1.r1")),
            preempt(2, "app-b", "b1", victim("app-c", "c1", "c1.r2")),
            preempt(3, "app-a", "a1.r1", victim("app-b", "b1", "b1.r3")),
        ]
    )
    assert [loop.message for loop in loops] == [
        "preemption loop: app-c/c1 preempts app-a/a1 (step 1), whose replacement a1.r1 preempts app-b/b1 (step 3),"
        " and app-b/b1 preempts app-c/c1 (step 2)"
    ]


def test_a_self_loop_is_reported() -> None:
    """Cannot happen in YuniKorn (a queue never preempts itself), but a lineage preempting itself is a loop."""
    loops = find_loops(
        [
            preempt(1, "app-x", "x1", victim("app-a", "a1", "a1.r1")),
            preempt(2, "app-a", "a1.r1", victim("app-a", "a1")),
        ]
    )
    assert loops == [
        PreemptionLoop(("app-a/a1",), (2,), "preemption loop: app-a/a1 (replacement a1.r1) preempts app-a/a1 (step 2)")
    ]


# --- the real engine ---------------------------------------------------------------------------------------------

TWO_GUARANTEED_QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources: {guaranteed: {memory: 5}}
            properties: {preemption.delay: 1s}
          - name: b
            resources: {guaranteed: {memory: 5}}
            properties: {preemption.delay: 1s}
"""


def memory(amount: int) -> dict[str, int]:
    return {"memory": amount}


def replica_sets() -> str:
    """ReplicaSet-like pods in two queues guaranteed half of one node each; b fills the node at the start.

    a1 (a under its guarantee) preempts b1, b1.r1 waits (b is at its guarantee). The five small b pods finish at
    10 s and a's five higher-priority pods take their room first (queue priority before fairness), so a is over its
    guarantee and b under it with nothing running: b1.r1 preempts a1, the pod whose preemption created it.
    """
    small_b = [
        {"name": f"s{i}", "node": "n1", "priority": 1, "resources": memory(1), "duration": "10s"} for i in range(1, 6)
    ]
    late_a = [{"name": f"a{i}", "priority": 10, "resources": memory(1), "submitTime": "5s"} for i in range(2, 7)]
    workload: dict[str, Any] = {
        "nodes": [{"name": "n1", "resources": memory(10)}],
        "applications": [
            {
                "id": "app-b",
                "queue": "root.b",
                "submitTime": "-60s",
                "restartOnPreemption": True,
                "allocations": [{"name": "b1", "node": "n1", "priority": 0, "resources": memory(5)}, *small_b],
            },
            {
                "id": "app-a",
                "queue": "root.a",
                "submitTime": "-60s",
                "restartOnPreemption": True,
                "asks": [{"name": "a1", "priority": 0, "resources": memory(5), "submitTime": "-60s"}, *late_a],
            },
        ],
    }
    return json.dumps(workload)


def test_the_engine_produces_a_replica_set_loop() -> None:
    result = run(TWO_GUARANTEED_QUEUES, replica_sets())
    preempts = [
        (e.step, e.ask, [(v.allocation, v.restarted_as) for v in e.victims])
        for e in result.events
        if e.type == codes.PREEMPT
    ]
    assert preempts == [(1, "a1", [("b1", "b1.r1")]), (13, "b1.r1", [("a1", "a1.r1")])]
    assert find_loops(result) == [
        PreemptionLoop(
            ("app-a/a1", "app-b/b1"),
            (1, 13),
            "preemption loop: app-a/a1 preempts app-b/b1 (step 1), whose replacement b1.r1 preempts app-a/a1 (step 13)",
        )
    ]


def test_without_the_late_pods_the_engine_produces_no_loop() -> None:
    """The same pods without a's late arrivals: b1.r1 simply runs once the small b pods finish."""
    workload = json.loads(replica_sets())
    workload["applications"][1]["asks"] = workload["applications"][1]["asks"][:1]
    result = run(TWO_GUARANTEED_QUEUES, json.dumps(workload))
    assert [e.ask for e in result.events if e.type == codes.PREEMPT] == ["a1"]
    assert "b1.r1" in [e.ask for e in result.events if e.type == codes.ALLOCATE]
    assert find_loops(result) == []


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde"), st.integers(0, 2), st.booleans(), st.booleans()),
        max_size=12,
    )
)
def test_the_cycle_precheck_agrees_with_networkx(pairs: list[tuple[str, str, int, bool, bool]]) -> None:
    """_may_loop (peeling lineages that preempt nobody or nobody preempts) says yes exactly when networkx finds a
    simple cycle in the preemption graph; restarts map replacements back to their lineage in both."""
    import networkx as nx

    events = []
    replacements: dict[str, str] = {}
    """The newest replacement of each application's restarted victims: a later preemptor may be one."""
    for step, (source, target, generation, restarted, by_replacement) in enumerate(pairs, 1):
        name = replacements.get(target, f"{target}{generation}") if by_replacement else f"{target}{generation}"
        gone = victim(f"app-{target}", name, f"{name}.r{step}" if restarted else "")
        if restarted:
            replacements[target] = f"{name}.r{step}"
        ask = replacements.get(source, f"{source}{generation}") if by_replacement else f"{source}{generation}"
        events.append(preempt(step, f"app-{source}", ask, gone))
    has_cycle = any(True for _ in nx.simple_cycles(preemption_graph(events)))
    assert _may_loop(events) == has_cycle
    assert bool(find_loops(events)) == has_cycle


def test_one_way_preemption_does_not_import_networkx() -> None:
    """networkx costs about 20 MB and 0.2 s to import: a run whose preemptions form no ring never loads it."""
    code = (
        "import sys\n"
        "from tests.core.analysis.test_preemption_loops import preempt, victim\n"
        "from yk_cli.core.analysis.preemption_loops import find_loops\n"
        "events = [preempt(i, 'app-a', f'a{i}', victim('app-b', f'b{i}', f'b{i}.r')) for i in range(1, 50)]\n"
        "assert find_loops(events) == []\n"
        "print('networkx' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout == "False\n"
