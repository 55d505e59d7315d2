"""Preemption in the dry run, law by law, against the reference (yunikorn-semantics.md section 7 and section 9).

Every case builds a tiny cluster (memory only, small integers) whose nodes are full, runs the simulation and
checks the exact steps (type, ask, node, victim allocations) and what stays pending. Laws 3-7 each have a case
where the law allows preemption and one where it blocks it. The design doc's three ReplicaSet loop-prevention
flows are golden traces (tests/golden/preempt_flow*.txt; UPDATE_GOLDEN=1 rewrites them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings

from tests.conftest import ROOT
from tests.helpers.golden import check_golden
from tests.helpers.scenarios import SECOND, alloc, app, ask, pending, preempting_case, q, run, wl
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.trace import Trace
from yk_cli.report import trace_text

# --- builders ----------------------------------------------------------------------------------------------------




def cfg(*queues: dict[str, Any], enabled: bool = True) -> str:
    """A queue config (JSON is YAML) with the given queues under root; enabled=False turns preemption off."""
    partition: dict[str, Any] = {
        "name": "default",
        "queues": [{"name": "root", "submitacl": "*", "queues": list(queues)}],
    }
    if not enabled:
        partition["preemption"] = {"enabled": False}
    return json.dumps({"partitions": [partition]})










def preempts(trace: Trace) -> list[tuple[str, str, tuple[str, ...]]]:
    """(ask, node, victim allocations) of every preempt step."""
    return [(e.ask, e.node, tuple(v.allocation for v in e.victims)) for e in trace.events if e.type == codes.PREEMPT]


def events(trace: Trace) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(type, ask, node, victims) of every step."""
    return [(e.type, e.ask, e.node, tuple(v.allocation for v in e.victims)) for e in trace.events]


def preempted_ok(ask_name: str, node: str, victims: tuple[str, ...]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The two steps of a successful preemption: preempt (the node is reserved), then the allocation from it."""
    return [(codes.PREEMPT, ask_name, node, victims), (codes.ALLOCATE, ask_name, node, ())]


# The usual shape: root.a (the asker, guaranteed) and root.b (the victims), one full node of 10.
def two_b_pods(**extra: Any) -> list[dict[str, Any]]:
    return [alloc("b0", 5, age=20, **extra), alloc("b1", 5, age=10, **extra)]


# --- law 3: never victims from the ask's own leaf queue ----------------------------------------------------------


def test_law3_allows_victims_from_a_sibling_leaf() -> None:
    trace = run(
        cfg(q("a", g=10), q("b")), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)]))
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))  # newest first
    assert pending(trace) == {}


def test_law3_blocks_victims_from_the_own_leaf_even_of_another_application() -> None:
    trace = run(
        cfg(q("a", g=20), q("b")),
        wl(app("A0", "root.a", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


# --- law 4: the ask queue must be under its guarantee ------------------------------------------------------------


def test_law4_blocks_without_any_guarantee_on_the_path() -> None:
    trace = run(cfg(q("a"), q("b")), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])))
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law4_guarantee_on_the_parent_of_the_ask_leaf_is_enough() -> None:
    # a has no guarantee of its own but p does; the victims come from outside p (x has none).
    trace = run(
        cfg(q("p", g=10, kids=[q("a")]), q("x")),
        wl(app("X", "root.x", two_b_pods()), app("A", "root.p.a", asks=[ask("a1", 5)])),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))


def test_law4_the_ask_queue_may_reach_its_guarantee_exactly() -> None:
    # a uses 5 of its 10 guaranteed; the ask of 5 brings it to exactly 10.
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(
            app("B", "root.b", two_b_pods()),
            app("A", "root.a", [alloc("a0", 5, node="n2")], [ask("a1", 5)]),
            nodes={"n1": 10, "n2": 5},
        ),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))
    assert pending(trace) == {}


def test_victims_must_also_fit_the_ask_queue_remaining_guarantee() -> None:
    # a has 5 of guarantee left and the ask is 5, but the victims on the node are 4 (newest) then 3: after the
    # 4 only 1 of a's guarantee is left, the 3 does not fit it and the node scan stops (section 7.5, pass 1).
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(
            app("B", "root.b", [alloc("b0", 3, age=30), alloc("b1", 3, age=20), alloc("b2", 4, age=10)]),
            app("A", "root.a", [alloc("a0", 5, node="n2")], [ask("a1", 5)]),
            nodes={"n1": 10, "n2": 5},
        ),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law4_the_ask_queue_may_never_go_above_its_guarantee() -> None:
    # a already uses 5 of its 8 guaranteed: one more 5 would take it to 10 > 8 (section 9.2).
    trace = run(
        cfg(q("a", g=8), q("b")),
        wl(
            app("B", "root.b", two_b_pods()),
            app("A", "root.a", [alloc("a0", 5, node="n2")], [ask("a1", 5)]),
            nodes={"n1": 10, "n2": 5},
        ),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law4_an_ask_larger_than_the_guarantee_never_preempts() -> None:
    trace = run(cfg(q("a", g=4), q("b")), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])))
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


# --- law 5: the victim leaf must be over its guarantee -----------------------------------------------------------


def test_law5_allows_a_victim_leaf_over_its_guarantee() -> None:
    trace = run(
        cfg(q("a", g=10), q("b", g=5)), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)]))
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))


def test_law5_a_leaf_without_any_guarantee_is_a_victim_source() -> None:
    trace = run(
        cfg(q("a", g=10), q("p", kids=[q("b")])),
        wl(app("B", "root.p.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))


def test_law5_blocks_a_victim_leaf_at_its_guarantee() -> None:
    trace = run(
        cfg(q("a", g=10), q("b", g=10)), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)]))
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law5_blocks_a_victim_leaf_under_a_guaranteed_parent_at_its_guarantee() -> None:
    # b has no own guarantee but its parent p is exactly at its own: b's remaining guarantee is 0.
    trace = run(
        cfg(q("a", g=10), q("p", g=10, kids=[q("b")])),
        wl(app("B", "root.p.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law2_one_victim_may_take_its_queue_below_its_guarantee() -> None:
    # b guaranteed 6 runs 10 (two pods of 5): it is over, so one pod goes and b drops to 5 < 6 (section 9.1).
    # A second ask of a then finds b under its guarantee: no further victim.
    trace = run(
        cfg(q("a", g=10), q("b", g=6)),
        wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5), ask("a2", 5)])),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))
    assert set(pending(trace)) == {"a2"}


# --- law 6: lower or equal priority ------------------------------------------------------------------------------


def test_law6_equal_priority_is_eligible() -> None:
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", two_b_pods(priority=5)), app("A", "root.a", asks=[ask("a1", 5, priority=5)])),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1",))


def test_law6_higher_priority_is_not_eligible() -> None:
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", two_b_pods(priority=6)), app("A", "root.a", asks=[ask("a1", 5, priority=5)])),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law6_priority_filters_but_does_not_order() -> None:
    # The newest eligible pod goes, even though an older pod has a lower priority (section 9.3).
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(
            app("B", "root.b", [alloc("b0", 5, age=20, priority=-100), alloc("b1", 5, age=10, priority=3)]),
            app("A", "root.a", asks=[ask("a1", 5, priority=3)]),
        ),
    )
    assert preempts(trace) == [("a1", "n1", ("b1",))]


# --- law 7: preemption.policy fence ------------------------------------------------------------------------------


def fenced_config() -> str:
    """root.f (fence) holds a (the asker) and x; root.b is outside the fence; root.o asks from outside."""
    return cfg(q("f", preemption_policy="fence", kids=[q("a", g=10), q("x")]), q("b"), q("o", g=10))


def test_law7_a_fence_keeps_the_search_inside() -> None:
    trace = run(fenced_config(), wl(app("B", "root.b", two_b_pods()), app("A", "root.f.a", asks=[ask("a1", 5)])))
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_law7_inside_a_fence_victims_are_found() -> None:
    trace = run(
        fenced_config(),
        wl(
            app("B", "root.b", [alloc("b0", 5, age=1)]),
            app("X", "root.f.x", [alloc("x0", 5, age=50)]),
            app("A", "root.f.a", asks=[ask("a1", 5)]),
        ),
    )
    # b0 is newer but outside the fence: the older x0 goes.
    assert events(trace) == preempted_ok("a1", "n1", ("x0",))


def test_law7_pods_inside_a_fence_can_be_preempted_from_outside() -> None:
    trace = run(
        fenced_config(),
        wl(app("X", "root.f.x", two_b_pods()), app("O", "root.o", asks=[ask("o1", 5)])),
    )
    assert events(trace) == preempted_ok("o1", "n1", ("b1",))


def test_nested_fences_at_several_levels() -> None:
    # root.f1 (fence) > f2 (fence) > {a, s}; f1 > t; root.u. An ask of a sees only s; one of t sees s (inside f1
    # but not across f2's fence from outside is allowed) and never u; one of root.o sees everything.
    config = cfg(
        q(
            "f1",
            preemption_policy="fence",
            kids=[q("f2", preemption_policy="fence", kids=[q("a", g=10), q("s")]), q("t", g=10)],
        ),
        q("u"),
        q("o", g=10),
    )
    running = [
        app("U", "root.u", [alloc("u0", 5, node="n1", age=1)]),
        app("T", "root.f1.t", [alloc("t0", 5, node="n1", age=2)]),
        app("S", "root.f1.f2.s", [alloc("s0", 5, node="n2", age=30)]),
    ]
    nodes = {"n1": 10, "n2": 5}
    # a: only s0 (the oldest pod) is inside f2.
    trace = run(config, wl(*running, app("A", "root.f1.f2.a", asks=[ask("a1", 5)]), nodes=nodes))
    assert preempts(trace) == [("a1", "n2", ("s0",))]
    # t: u0 is newest but outside f1; t0 is its own leaf; s0 inside f2 is reachable from outside f2.
    trace = run(config, wl(*running, app("T2", "root.f1.t", asks=[ask("t1", 5)]), nodes=nodes))
    assert preempts(trace) == [("t1", "n2", ("s0",))]
    # o: no fence on its path, the newest pod anywhere goes.
    trace = run(config, wl(*running, app("O", "root.o", asks=[ask("o1", 5)]), nodes=nodes))
    assert preempts(trace) == [("o1", "n1", ("u0",))]
    # a with nothing in s: blocked by f2 although t and u have pods.
    trace = run(config, wl(*running[:2], app("A", "root.f1.f2.a", asks=[ask("a1", 5)]), nodes={"n1": 10}))
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


# --- priority offsets and priority fences in victim selection (section 7.4) ---------------------------------------


def offset_case(a: dict[str, Any], b: dict[str, Any], ask_priority: int, pod_priority: int) -> Trace:
    return run(
        cfg(a, b),
        wl(
            app("B", "root.b", two_b_pods(priority=pod_priority)),
            app("A", "root.a", asks=[ask("a1", 5, priority=ask_priority)]),
        ),
    )


@pytest.mark.parametrize(
    ("a_props", "b_props", "ask_priority", "pod_priority", "victims"),
    [
        # a victim queue's positive offset protects its pods: level priority 5 - 10 = -5 < 0
        ({}, {"priority_offset": 10}, 5, 0, None),
        # a negative one exposes them: 5 + 10 >= 10
        ({}, {"priority_offset": -10}, 5, 10, ("b1",)),
        # the ask leaf's offset helps the ask: 0 + 10 >= 5
        ({"priority_offset": 10}, {}, 0, 5, ("b1",)),
        # a priority-fenced ask leaf: the ask priority becomes the leaf's offset (0), 50 is out of reach
        ({"priority_policy": "fence"}, {}, 100, 50, None),
        ({"priority_policy": "fence", "priority_offset": 60}, {}, 0, 50, ("b1",)),
        # a priority-fenced victim leaf with offset <= the level priority: every pod is eligible
        ({}, {"priority_policy": "fence"}, 0, 1000, ("b1",)),
        # ... with offset > the level priority: skipped entirely
        ({}, {"priority_policy": "fence", "priority_offset": 10}, 0, -1000, None),
    ],
)
def test_offsets_and_priority_fences(
    a_props: dict[str, Any], b_props: dict[str, Any], ask_priority: int, pod_priority: int, victims: Any
) -> None:
    trace = offset_case(q("a", g=10, **a_props), q("b", **b_props), ask_priority, pod_priority)
    if victims is None:
        assert events(trace) == []
        assert set(pending(trace)) == {"a1"}
    else:
        assert events(trace) == preempted_ok("a1", "n1", victims)


def test_common_parent_offset_quirk() -> None:
    # p has offset +100: added on the way up from a, never removed on the way down to b, so a priority-0 ask
    # preempts b's priority-50 pods (section 7.4 quirk, 9.4). Without the offset it does not.
    def case(offset: int) -> Trace:
        return run(
            cfg(q("p", kids=[q("a", g=10), q("b")], priority_offset=offset)),
            wl(app("B", "root.p.b", two_b_pods(priority=50)), app("A", "root.p.a", asks=[ask("a1", 5, priority=0)])),
        )

    assert preempts(case(100)) == [("a1", "n1", ("b1",))]
    assert preempts(case(0)) == []


# --- preemption.policy: disabled -------------------------------------------------------------------------------


def disabled_config() -> str:
    """root.d (disabled) > {c (guaranteed, static child), e}; root.x has no guarantee; root.o asks from outside."""
    return cfg(q("d", preemption_policy="disabled", kids=[q("c", g=10), q("e")]), q("x"), q("o", g=10))


def test_disabled_is_inherited_by_static_children_and_protects_their_pods() -> None:
    trace = run(disabled_config(), wl(app("E", "root.d.e", two_b_pods()), app("O", "root.o", asks=[ask("o1", 5)])))
    assert events(trace) == []
    assert set(pending(trace)) == {"o1"}


def test_disabled_does_not_stop_its_own_asks_from_preempting() -> None:
    trace = run(disabled_config(), wl(app("X", "root.x", two_b_pods()), app("C", "root.d.c", asks=[ask("c1", 5)])))
    assert events(trace) == preempted_ok("c1", "n1", ("b1",))


def test_disabled_sibling_inside_skipped_but_outside_pods_taken() -> None:
    trace = run(
        disabled_config(),
        wl(
            app("E", "root.d.e", [alloc("e0", 5, age=1)]),
            app("X", "root.x", [alloc("x0", 5, age=100)]),
            app("C", "root.d.c", asks=[ask("c1", 5)]),
        ),
    )
    assert preempts(trace) == [("c1", "n1", ("x0",))]


# --- opted-out and originator pods: ordered last, still preemptable -----------------------------------------------


def test_opted_out_and_originator_pods_go_last() -> None:
    pods = [
        alloc("regular", 2, age=30),
        alloc("origin", 2, age=5, originator=True),
        alloc("optout", 2, age=1, allowPreemption=False),
        alloc("filler", 4, age=40, node="n1"),
    ]
    config = cfg(q("a", g=10), q("b"))
    # one pod of 2 needed: the regular ones first, newest first (regular, then filler) though the others are newer
    trace = run(config, wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", 2)])))
    assert preempts(trace) == [("a1", "n1", ("regular",))]
    # 6 needed: both regular pods are taken
    trace = run(config, wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", 6)])))
    assert preempts(trace) == [("a1", "n1", ("regular", "filler"))]


def test_opted_out_and_originator_pods_are_still_preemptable() -> None:
    pods = [alloc("optout", 5, age=1, allowPreemption=False), alloc("origin", 5, age=5, originator=True)]
    config = cfg(q("a", g=10), q("b"))
    # allow-preemption first, then non-originators: the (older) originator goes before the opted-out pod
    trace = run(config, wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", 5)])))
    assert events(trace) == preempted_ok("a1", "n1", ("origin",))
    trace = run(config, wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", 10)])))
    assert events(trace) == preempted_ok("a1", "n1", ("origin", "optout"))


def test_opt_out_through_the_priority_class() -> None:
    classes = [{"name": "keep", "value": 0, "allowPreemption": False}]
    pods = [alloc("kept", 5, age=1, priorityClass="keep"), alloc("plain", 5, age=30)]
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", 5)]), classes=classes),
    )
    assert preempts(trace) == [("a1", "n1", ("plain",))]


# --- required-node (DaemonSet) preemption (section 7.8) ----------------------------------------------------------

# n1 is full; n2 is empty so that root has headroom for the DaemonSet ask (the headroom check comes first).
DS_NODES = {"n1": 10, "n2": 10}


def test_daemonset_preemption_ignores_queues_guarantees_opt_outs_and_the_partition_switch() -> None:
    # b is at its guarantee and disabled, with opted-out pods and an originator; a has no guarantee; preemption
    # is off on the partition. The DaemonSet ask reserves n1 at once and preempts there: regular pods first,
    # then opted-out, then originators; lower priority first; newest first; until the victims alone cover it.
    config = cfg(q("a"), q("b", g=10, preemption_policy="disabled"), enabled=False)
    pods = [
        alloc("origin", 2, age=1, originator=True),
        alloc("optout", 2, age=2, allowPreemption=False),
        alloc("low", 2, age=50, priority=-5),
        alloc("new", 2, age=3),
        alloc("old", 2, age=40),
    ]
    cases = [
        (2, ("low",)),
        (6, ("low", "new", "old")),
        (8, ("low", "new", "old", "optout")),
        (10, ("low", "new", "old", "optout", "origin")),
    ]
    for size, victims in cases:
        trace = run(
            config,
            wl(app("B", "root.b", pods), app("D", "root.a", asks=[ask("ds", size, requiredNode="n1")]), nodes=DS_NODES),
        )
        assert events(trace) == [(codes.RESERVE, "ds", "n1", ()), *preempted_ok("ds", "n1", victims)], size
        assert pending(trace) == {}


def test_daemonset_preemption_spares_higher_priority_pods() -> None:
    config = cfg(q("a"), q("b"))
    pods = [alloc("high", 5, age=1, priority=10), alloc("low", 5, age=3)]
    for size, expected in [(5, [("ds", "n1", ("low",))]), (6, [])]:
        trace = run(
            config,
            wl(
                app("B", "root.b", pods),
                app("D", "root.a", asks=[ask("ds", size, priority=5, requiredNode="n1")]),
                nodes=DS_NODES,
            ),
        )
        assert preempts(trace) == expected
    assert pending(trace)["ds"][0] == codes.RESERVED


def test_daemonset_ask_in_a_completely_full_cluster_is_stopped_by_the_root_headroom() -> None:
    # Root's max is the cluster size: with every node full the ask fails the headroom check before
    # tryRequiredNode, so it neither reserves nor preempts (section 6).
    trace = run(
        cfg(q("a"), q("b")),
        wl(app("B", "root.b", two_b_pods()), app("D", "root.a", asks=[ask("ds", 5, requiredNode="n1")])),
    )
    assert events(trace) == []
    assert pending(trace)["ds"][0] == codes.CLUSTER_FULL


def test_normal_asks_cannot_preempt_daemonset_pods() -> None:
    # The DaemonSet pod runs first (t=0); a's asks arrive at 1 s with a 1 s delay: a1 takes the only other pod,
    # a2 finds nothing but the DaemonSet pod.
    trace = run(
        cfg(q("a", g=10, preemption_delay="1s"), q("b"), q("d")),
        wl(
            app("B", "root.b", [alloc("b0", 5)]),
            app("D", "root.d", asks=[ask("ds", 5, requiredNode="n1", submit="0s")]),
            {**app("A", "root.a", asks=[ask("a1", 5, submit="1s"), ask("a2", 5, submit="1s")]), "submitTime": "1s"},
        ),
    )
    assert [(e.time / SECOND, e.type, e.ask, tuple(v.allocation for v in e.victims)) for e in trace.events] == [
        (0, codes.ALLOCATE, "ds", ()),
        (2, codes.PREEMPT, "a1", ("b0",)),
        (2, codes.ALLOCATE, "a1", ()),
    ]
    assert set(pending(trace)) == {"a2"}


# --- fragmented nodes: over-preemption and refusal (section 7.7) -------------------------------------------------


def test_over_preemption_ignores_the_free_space_of_the_node() -> None:
    # n1: 5 with two pods of 2 and 1 free; the ask needs 3: one victim makes it fit, but the final set must
    # cover the ask by itself, so both pods go.
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(
            app("B", "root.b", [alloc("b0", 2, age=20), alloc("b1", 2, age=10)]),
            app("A", "root.a", asks=[ask("a1", 3)]),
            nodes={"n1": 5},
        ),
    )
    assert events(trace) == preempted_ok("a1", "n1", ("b1", "b0"))


def test_refusal_on_a_fragmented_node() -> None:
    # n1: 2 with one pod of 1 and 1 free; the ask needs 2: the victim alone (1) does not cover the ask.
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", [alloc("b0", 1)]), app("A", "root.a", asks=[ask("a1", 2)]), nodes={"n1": 2}),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


# --- preconditions: delay, once only, preemptionPolicy Never, partition switch ----------------------------------


@pytest.mark.parametrize(("delay", "expected"), [(None, 30), ("10s", 10), ("1500ms", 1.5), ("0s", 30), ("-5s", 30)])
def test_preemption_delay_on_the_virtual_clock(delay: str | None, expected: float) -> None:
    props = {"preemption_delay": delay} if delay else {}
    trace = run(
        cfg(q("a", g=10, **props), q("b")),
        wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5, submit="0s")])),
    )
    assert [(e.time / SECOND, e.type, e.ask) for e in trace.events] == [
        (expected, codes.PREEMPT, "a1"),
        (expected, codes.ALLOCATE, "a1"),
    ]


def test_preemption_delay_inherited_from_the_parent() -> None:
    trace = run(
        cfg(q("p", preemption_delay="12s", kids=[q("a", g=10)]), q("b")),
        wl(app("B", "root.b", two_b_pods()), app("A", "root.p.a", asks=[ask("a1", 5, submit="0s")])),
    )
    assert [(e.time / SECOND, e.type) for e in trace.events] == [(12, codes.PREEMPT), (12, codes.ALLOCATE)]


def test_the_ask_waits_while_the_delay_has_not_passed() -> None:
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5, submit="0s")])),
        until=29,
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


def test_preemption_policy_never_never_preempts() -> None:
    classes = [{"name": "meek", "value": 100, "preemptionPolicy": "Never"}]
    config = cfg(q("a", g=10), q("b"))
    trace = run(
        config,
        wl(
            app("B", "root.b", two_b_pods()),
            app("A", "root.a", asks=[ask("a1", 5, priorityClass="meek")]),
            classes=classes,
        ),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}
    trace = run(
        config, wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5, preemptionPolicy="Never")]))
    )
    assert events(trace) == []


def test_partition_switch_disables_queue_preemption() -> None:
    trace = run(
        cfg(q("a", g=10), q("b"), enabled=False),
        wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])),
    )
    assert events(trace) == []
    assert set(pending(trace)) == {"a1"}


# --- the design doc's ReplicaSet loop-prevention flows (seed 002; reference 7.10) ---------------------------------


def flow(prod_g: int, test_g: int, prod_running: int, test_running: int, prod_pending: int) -> Trace:
    """root.p > {prod, test}: ReplicaSets of pods of 2 with equal priority; one node of 10, full.

    Running pods are ReplicaSet pods (restartOnPreemption), the oldest first; prod's pending pods are old."""
    config = cfg(q("p", kids=[q("prod", g=prod_g), q("test", g=test_g)]))
    test_pods = [alloc(f"t{i}", 2, age=100 - i, restartOnPreemption=True) for i in range(test_running)]
    prod_pods = [alloc(f"p{i}", 2, age=200 - i, restartOnPreemption=True) for i in range(prod_running)]
    prod_asks = [ask(f"pa{i}", 2) for i in range(prod_pending)]
    return run(
        config, wl(app("test-repl", "root.p.test", test_pods), app("prod-repl", "root.p.prod", prod_pods, prod_asks))
    )


def test_flow1_prod_reaches_its_guarantee_and_nothing_loops() -> None:
    # prod guaranteed 4 runs 2, test guaranteed 4 runs 8: one test pod goes, prod ends *at* its guarantee (it
    # cannot go above it, section 9.2); the recreated test pod and the other prod pods cannot preempt.
    trace = flow(prod_g=4, test_g=4, prod_running=1, test_running=4, prod_pending=3)
    assert preempts(trace) == [("pa0", "n1", ("t3",))]
    assert set(pending(trace)) == {"pa1", "pa2", trace.events[0].victims[0].restarted_as}
    check_golden("preempt_flow1.txt", trace_text.render(trace, "flow 1"))


def test_flow2_the_core_preempts_once_below_the_victim_guarantee() -> None:
    # The design expects no preemption (test would drop below its guarantee); the core preempts one test pod
    # (8 -> 6 < 7, section 9.1). No loop follows: test is under its guarantee and prod is not over its own.
    trace = flow(prod_g=4, test_g=7, prod_running=1, test_running=4, prod_pending=2)
    assert preempts(trace) == [("pa0", "n1", ("t3",))]
    assert set(pending(trace)) == {"pa1", trace.events[0].victims[0].restarted_as}
    check_golden("preempt_flow2.txt", trace_text.render(trace, "flow 2"))


def test_flow2_with_the_victim_queue_exactly_at_its_guarantee_nothing_happens() -> None:
    trace = flow(prod_g=4, test_g=8, prod_running=1, test_running=4, prod_pending=2)
    assert events(trace) == []
    assert set(pending(trace)) == {"pa0", "pa1"}


def test_flow3_prod_preempts_one_pod_at_a_time_up_to_its_guarantee() -> None:
    # prod guaranteed 6 runs nothing, test guaranteed 2 runs 10: prod preempts a pod per ask, newest first,
    # until it reaches 6; the recreated test pods never preempt back and the fourth prod pod waits.
    trace = flow(prod_g=6, test_g=2, prod_running=0, test_running=5, prod_pending=4)
    assert preempts(trace) == [("pa0", "n1", ("t4",)), ("pa1", "n1", ("t3",)), ("pa2", "n1", ("t2",))]
    restarted = {v.restarted_as for e in trace.events for v in e.victims}
    assert len(restarted) == 3
    assert set(pending(trace)) == {"pa3", *restarted}
    check_golden("preempt_flow3.txt", trace_text.render(trace, "flow 3"))


# --- YuniKorn 1.8: a full parent is no fence (reference 7.4) ------------------------------------------------------


def test_yunikorn_1_8_a_full_parent_is_no_fence_and_the_useless_preemption_happens_once() -> None:
    # p (max 5) holds a (the asker) and s; s0 inside p is old, b0 outside p is newest. In 1.8 the search starts at
    # root: b0 goes, n1 is reserved for a1, but p's headroom still blocks a1, which has now preempted and never
    # tries again (an ask preempts at most once), although the run goes on past the 15 s retry wait.
    trace = run(
        cfg(q("p", mx=5, kids=[q("a", g=5), q("s")]), q("b")),
        wl(
            app("S", "root.p.s", [alloc("s0", 5, age=100)]),
            app("B", "root.b", [alloc("b0", 5, age=1)]),
            app("A", "root.p.a", asks=[ask("a1", 5)]),
        ),
        yunikorn_version="1.8",
        until=120,
    )
    assert events(trace) == [(codes.PREEMPT, "a1", "n1", ("b0",))]
    assert set(pending(trace)) == {"a1"}


def test_a_full_parent_fences_the_search_as_in_yunikorn_head() -> None:
    # The core after 1.8 (yk's 1.9, YUNIKORN-3241): p's usage 5 plus the ask 5 exceeds its max 5, so p is the fence
    # root, the search stays inside it and the older s0 goes; a1 is then allocated.
    trace = run(
        cfg(q("p", mx=5, kids=[q("a", g=5), q("s")]), q("b")),
        wl(
            app("S", "root.p.s", [alloc("s0", 5, age=100)]),
            app("B", "root.b", [alloc("b0", 5, age=1)]),
            app("A", "root.p.a", asks=[ask("a1", 5)]),
        ),
        yunikorn_version="1.9",
    )
    assert events(trace) == preempted_ok("a1", "n1", ("s0",))


# --- invariants on random preempting workloads ------------------------------------------------------------------




def queue_props(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Queue path -> its config dict."""
    out: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any], prefix: str) -> None:
        path = f"{prefix}.{node['name']}" if prefix else node["name"]
        out[path] = node
        for child in node.get("queues", []):
            walk(child, path)

    walk(config["partitions"][0]["queues"][0], "")
    return out


def check(config: dict[str, Any], work: dict[str, Any]) -> Trace:
    """Run the case and check every preemption and the node usage at every step."""
    trace = run(json.dumps(config), json.dumps(work))
    queues = queue_props(config)

    def policy(path: str) -> str | None:
        return (queues[path].get("properties") or {}).get("preemption.policy")

    def ancestors(path: str) -> list[str]:
        parts = path.split(".")
        return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]

    capacity = {n["name"]: n["resources"]["memory"] for n in work["nodes"]}
    used = dict.fromkeys(capacity, 0)
    where: dict[str, tuple[str, int]] = {}
    for a in work["applications"]:
        for pod in a["allocations"]:
            used[pod["node"]] += pod["resources"]["memory"]
            where[pod["name"]] = (pod["node"], pod["resources"]["memory"])
    required = {k["name"] for a in work["applications"] for k in a["asks"] if "requiredNode" in k}
    preempted_by: dict[str, int] = {}
    for e in trace.events:
        if e.type == codes.ALLOCATE:
            used[e.node] += e.resources["memory"]
            where[e.ask] = (e.node, e.resources["memory"])
        elif e.type == codes.COMPLETE:
            node, size = where.pop(e.ask)
            used[node] -= size
        elif e.type == codes.PREEMPT:
            preempted_by[e.ask] = preempted_by.get(e.ask, 0) + 1
            daemonset = e.reason.startswith("required node")
            assert daemonset == (e.ask in required)
            for v in e.victims:
                node, size = where.pop(v.allocation)
                assert (node, size) == (v.node, v.resources["memory"])
                used[node] -= size
                assert v.allocation not in required  # DaemonSet pods are never victims
                assert v.priority <= e.priority  # no offsets: lower or equal priority
                if daemonset:
                    assert v.node == e.node
                    continue
                assert v.queue_path != e.queue_path  # law 3
                assert all(policy(p) != "disabled" for p in ancestors(v.queue_path))
                fence = next((p for p in ancestors(e.queue_path) if policy(p) == "fence"), "root")
                assert v.queue_path.startswith(fence + ".")  # law 7
        assert all(used[n] <= capacity[n] for n in capacity), e
        assert all(v >= 0 for v in used.values())
    assert all(count == 1 for count in preempted_by.values())  # an ask preempts at most once
    return trace


def without_guarantees(config: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(config))
    for queue in queue_props(out).values():
        queue.pop("resources", None)
    return out


@settings(max_examples=200)
@given(preempting_case())
def test_invariants_on_random_preempting_workloads(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    config, work = case
    check(config, work)
    # without any guarantee only DaemonSet asks preempt
    trace = check(without_guarantees(config), work)
    assert all(e.reason.startswith("required node") for e in trace.events if e.type == codes.PREEMPT)


@settings(max_examples=60)
@given(preempting_case())
def test_explaining_changes_no_step_and_no_try(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """--explain-preemption only adds candidates: the same steps and the same tries at the same times."""
    config, work = json.dumps(case[0]), json.dumps(case[1])
    plain, explained = run(config, work), run(config, work, explain_preemption=True)
    assert events(plain) == events(explained)
    assert [(a.time, a.ask, a.branch, a.fence, a.outcome, a.node) for a in plain.attempts] == [
        (a.time, a.ask, a.branch, a.fence, a.outcome, a.node) for a in explained.attempts
    ]


@settings(max_examples=80)
@given(preempting_case())
def test_skipped_retries_change_no_step(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """A retry is skipped (the ask dormant, a twin's failed try reused, a victim search reused) only when it would
    fail the same way: running every 15 s retry in full gives the same steps."""
    from tests.helpers.scenarios import scenario
    from yk_cli.core.sim.run import Simulation, SimulationOptions

    config, work = json.dumps(case[0]), json.dumps(case[1])
    until = 400 * SECOND
    fast = run(config, work, until=400)
    partition, tree, loaded = scenario(config, work)
    simulation = Simulation(partition, tree, loaded, SimulationOptions(until=until))
    simulation.state.every_retry = True
    full = simulation.run()
    assert events(fast) == events(full)
    assert [(e.time, e.type, e.ask) for e in fast.events] == [(e.time, e.type, e.ask) for e in full.events]
    assert len(full.attempts) >= len(fast.attempts)


def test_random_cases_do_preempt() -> None:
    """The generator is worth its time: a fixed sample of its cases preempts, both ways."""
    found = {"queue": 0, "daemonset": 0}

    @settings(max_examples=100, database=None, derandomize=True)
    @given(preempting_case())
    def count(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
        for e in run(json.dumps(case[0]), json.dumps(case[1])).events:
            if e.type == codes.PREEMPT:
                found["daemonset" if e.reason.startswith("required node") else "queue"] += 1

    count()
    assert found["queue"] > 0 and found["daemonset"] > 0, found


# --- determinism -------------------------------------------------------------------------------------------------


def test_json_output_does_not_depend_on_the_hash_seed(tmp_path) -> None:
    """A preempting workload with ties everywhere (equal priorities, start times, sizes, node sizes) gives the
    same bytes under different PYTHONHASHSEEDs."""
    config = cfg(
        q("f", preemption_policy="fence", kids=[q("a", g=12), q("x", g=2)]),
        q("b"),
        q("c", g=4, kids=[q("c1"), q("c2")]),
    )
    pods = {
        "root.f.x": [alloc(f"x{i}", 2, node=f"n{i % 3}", age=5, restartOnPreemption=True) for i in range(4)],
        "root.b": [alloc(f"b{i}", 2, node=f"n{i % 3}", age=5, restartOnPreemption=True) for i in range(6)],
        "root.c.c1": [alloc(f"c{i}", 1, node=f"n{i % 3}", age=5) for i in range(2)],
        "root.c.c2": [alloc(f"d{i}", 1, node=f"n{i % 3}", age=5, allowPreemption=False) for i in range(2)],
    }
    apps = [app(f"app-{leaf}", leaf, items) for leaf, items in pods.items()]
    apps.append(app("A", "root.f.a", asks=[ask(f"a{i}", 2) for i in range(5)]))
    apps.append(app("O", "root.c.c1", asks=[ask(f"o{i}", 1, submit="0s") for i in range(3)]))
    apps.append(app("D", "root.b", asks=[ask("ds", 2, requiredNode="n1", priority=1)]))
    (tmp_path / "queues.yaml").write_text(config, encoding="utf-8")
    (tmp_path / "workload.yaml").write_text(wl(*apps, nodes={"n0": 10, "n1": 8, "n2": 6, "n3": 2}), encoding="utf-8")
    files = [str(tmp_path / "queues.yaml"), str(tmp_path / "workload.yaml")]
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        done = subprocess.run(
            [sys.executable, "-m", "yk_cli", "simulate", *files, "--format", "json"],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=ROOT,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    steps = json.loads(outputs.pop())
    assert any(e["type"] == codes.PREEMPT for e in steps["events"])


# --- choosing the node (section 7.6) -----------------------------------------------------------------------------


def node_choice(pods: list[dict[str, Any]], size: int = 4) -> Trace:
    return run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", pods), app("A", "root.a", asks=[ask("a1", size)]), nodes={"n1": 4, "n2": 4}),
    )


def test_the_node_needing_the_fewest_victims_wins() -> None:
    trace = node_choice([alloc("s1", 2, "n1", age=10), alloc("s2", 2, "n1", age=20), alloc("big", 4, "n2", age=100)])
    assert events(trace) == preempted_ok("a1", "n2", ("big",))


def test_equal_nodes_go_by_node_name_not_victim_age() -> None:
    trace = node_choice([alloc("old", 4, "n1", age=100), alloc("new", 4, "n2", age=1)])
    assert events(trace) == preempted_ok("a1", "n1", ("old",))


def test_opted_out_and_originator_victims_are_penalised_in_the_node_choice() -> None:
    # With the shim registered (as in Kubernetes) the solution score adds a penalty for an opted-out or originator
    # victim up to the index: n2 wins although n1 comes first by name.
    trace = node_choice([alloc("kept", 4, "n1", allowPreemption=False), alloc("plain", 4, "n2")])
    assert events(trace) == preempted_ok("a1", "n2", ("plain",))
    trace = node_choice([alloc("driver", 4, "n1", originator=True), alloc("plain", 4, "n2")])
    assert events(trace) == preempted_ok("a1", "n2", ("plain",))
    # only penalised nodes: the originator (2^33) is preferred to the opted-out pod (2^34)
    trace = node_choice([alloc("kept", 4, "n1", allowPreemption=False), alloc("driver", 4, "n2", originator=True)])
    assert events(trace) == preempted_ok("a1", "n2", ("driver",))


# --- a guarantee on the common parent (sections 7.2, 7.3) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "victims"),
    [
        # only p is guaranteed: b's remaining guarantee is p's (0), so b is not over it and gives no victims
        (q("a"), q("b"), None),
        # a guaranteed itself: p then reports "none" below it, b has no guarantee and is a victim source
        (q("a", g=5), q("b"), ("b1",)),
        # ... but a's own guarantee must hold the ask
        (q("a", g=4), q("b"), None),
        # b over its own guarantee; a's guarantee comes from p, shared with b, and removing b's pods restores it
        (q("a"), q("b", g=2), ("b1",)),
    ],
)
def test_guarantee_on_the_common_parent(a: dict[str, Any], b: dict[str, Any], victims: Any) -> None:
    trace = run(
        cfg(q("p", g=10, kids=[a, b])),
        wl(app("B", "root.p.b", two_b_pods()), app("A", "root.p.a", asks=[ask("a1", 5)])),
    )
    if victims is None:
        assert events(trace) == []
        assert set(pending(trace)) == {"a1"}
    else:
        assert events(trace) == preempted_ok("a1", "n1", victims)


# --- why an ask does not preempt (pending reasons) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "ask_extra", "until", "words"),
    [
        # (named only where guarantees are in use somewhere in the partition)
        (cfg(q("a"), q("b", g=1)), {}, None, "no guarantee on root.a or its parents"),
        (cfg(q("a", g=10), q("b"), enabled=False), {}, None, "preemption.enabled false"),
        (cfg(q("a", g=10), q("b")), {"preemptionPolicy": "Never"}, None, "preemptionPolicy is Never"),
        (cfg(q("a", g=10), q("b")), {"submit": "0s"}, 10, "preemption.delay 30s before it may preempt: 20s left"),
        (cfg(q("a", g=4), q("b")), {}, None, "queue guarantees check failed"),
        (cfg(q("a", g=10), q("b", g=10)), {}, None, "preemption does not help"),
    ],
)
def test_pending_reason_says_why_the_ask_does_not_preempt(
    config: str, ask_extra: dict[str, Any], until: int | None, words: str
) -> None:
    trace = run(
        config, wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5, **ask_extra)])), until=until
    )
    assert events(trace) == []
    code, reason = pending(trace)["a1"]
    assert code == codes.CLUSTER_FULL  # the cluster is full: root's headroom
    assert words in reason


def test_no_preemption_note_where_no_guarantee_is_in_use() -> None:
    trace = run(cfg(q("a"), q("b")), wl(app("B", "root.b", two_b_pods()), app("A", "root.a", asks=[ask("a1", 5)])))
    assert "preempt" not in pending(trace)["a1"][1]


def test_pending_reason_of_a_refusal_on_a_fragmented_node() -> None:
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(app("B", "root.b", [alloc("b0", 1)]), app("A", "root.a", asks=[ask("a1", 2)]), nodes={"n1": 2}),
    )
    assert "preemption helped but short of resources" in pending(trace)["a1"][1]


def test_a_retry_after_a_change_keeps_the_15s_grid_of_the_core() -> None:
    # a1 fails at 0 (root.a has 2 of its guarantee left); a0 ends at 32 s and frees enough guarantee, but the
    # core retried at 15 and 30 s meanwhile (failing, each restarting the wait): it preempts at 45 s, not at 32 s
    trace = run(
        cfg(q("a", g=10), q("b")),
        wl(
            app(
                "A",
                "root.a",
                [alloc("a0", 4, node="n2", duration="32s"), alloc("a00", 4, node="n3")],
                [ask("a1", 5)],
            ),
            app("B", "root.b", two_b_pods()),
            nodes={"n1": 10, "n2": 4, "n3": 4},
        ),
    )
    assert [(e.time / SECOND, e.type, e.ask) for e in trace.events] == [
        (32, codes.COMPLETE, "a0"),
        (45, codes.PREEMPT, "a1"),
        (45, codes.ALLOCATE, "a1"),
    ]
    assert [(a.time / SECOND, a.outcome) for a in trace.attempts] == [
        (0, "Preemption queue guarantees check failed"),
        (45, "preempted"),
    ]


def test_a_change_outside_the_usage_scope_does_not_wake_a_failed_guarantee_check() -> None:
    # root.f is a preemption fence: a1's failed guarantee check reads only f's usage; c's pod ending at 20 s
    # changes nothing there, so no retry is logged until f's own pod ends at 50 s (retry grid: 60 s)
    trace = run(
        cfg(q("f", preemption_policy="fence", kids=[q("a", g=10), q("b")]), q("c")),
        wl(
            app(
                "A",
                "root.f.a",
                [alloc("a0", 4, node="n2", duration="50s"), alloc("a00", 4, node="n3")],
                [ask("a1", 5)],
            ),
            app("B", "root.f.b", two_b_pods()),
            app("C", "root.c", [alloc("c0", 2, node="n4", duration="20s")]),
            nodes={"n1": 10, "n2": 4, "n3": 4, "n4": 2},
        ),
    )
    assert [(a.time / SECOND, a.outcome) for a in trace.attempts] == [
        (0, "Preemption queue guarantees check failed"),
        (60, "preempted"),
    ]


def test_a_sibling_freeing_the_parent_guarantee_wakes_a_failed_guarantee_check() -> None:
    # root.p guarantees 10 and its leaf s uses 8: a1 (root.p.a, no guarantee of its own) fails the check; s0 ends
    # at 32 s on a node too small for a1, which leaves room in p's guarantee: the retry at 45 s preempts
    trace = run(
        cfg(q("p", g=10, kids=[q("a"), q("s")]), q("b")),
        wl(
            app("S", "root.p.s", [alloc("s0", 4, node="n2", duration="32s"), alloc("s00", 4, node="n3")]),
            app("A", "root.p.a", asks=[ask("a1", 5)]),
            app("B", "root.b", two_b_pods()),
            nodes={"n1": 10, "n2": 4, "n3": 4},
        ),
    )
    assert [(e.time / SECOND, e.type, e.ask) for e in trace.events] == [
        (32, codes.COMPLETE, "s0"),
        (45, codes.PREEMPT, "a1"),
        (45, codes.ALLOCATE, "a1"),
    ]


@pytest.mark.parametrize(("submit", "preempted"), [("2h5s", True), ("1h", False)])
def test_a_reservation_held_over_two_hours_is_cancelled_for_a_higher_priority_ask(submit: str, preempted: bool) -> None:
    # r reserves n1 at 2.1 s (no node holds it, the cluster does); a1 (P10) cannot use n1 while r holds it, unless
    # r's reservation is older than 2 x 60 min + 2 s when a1 tries: initWorkingState then cancels it
    trace = run(
        cfg(q("a", g=10), q("b"), q("c"), q("d", preemption_policy="disabled")),
        wl(
            app("B", "root.b", [alloc("b0", 5, age=20), alloc("b1", 3, age=10)]),
            app("D", "root.d", [alloc("d0", 1, node="n2")]),
            app("C", "root.c", asks=[ask("r", 4, submit="0s")]),
            app("A", "root.a", asks=[ask("a1", 4, priority=10, submit=submit)]),
            nodes={"n1": 10, "n2": 3},
        ),
    )
    if preempted:
        assert preempts(trace) == [("a1", "n1", ("b1", "b0"))]
    else:
        assert preempts(trace) == []
        assert [a.outcome for a in trace.attempts] == ["Preemption does not help"]
