"""Quota preemption (YuniKorn 1.8+, yunikorn-semantics.md section 7.9, the core's quota_preemptor.go).

A queue whose running pods are above its max at the start of the run (a config that lowers a max, tried on a
cluster dump) is brought down after its quota.preemption.delay when the partition enables quota preemption. Tiny
clusters (memory only), exact steps, victims and notes.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.conftest import run_program
from tests.helpers.scenarios import SECOND, alloc, app, ask, pending, q, run, scenario, wl
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.quota import sgte_only_existing, usage_ratio_key
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sim.trace import Trace
from yk_cli.report import trace_json, trace_markdown, trace_text

NODES = {"n1": 100}


def qcfg(*queues: dict[str, Any], switch: bool | None = True) -> str:
    """A config with the given queues under root; switch is preemption.quotapreemptionenabled (None: unset)."""
    partition: dict[str, Any] = {
        "name": "default",
        "queues": [{"name": "root", "submitacl": "*", "queues": list(queues)}],
    }
    if switch is not None:
        partition["preemption"] = {"quotapreemptionenabled": switch}
    return json.dumps({"partitions": [partition]})


def quota_steps(trace: Trace) -> list[tuple[float, str, tuple[str, ...]]]:
    """(seconds, queue, victims) of every step, all of which must be quota preemptions."""
    assert {e.type for e in trace.events} <= {codes.QUOTA_PREEMPT}
    return [(e.time / SECOND, e.queue_path, tuple(v.allocation for v in e.victims)) for e in trace.events]


# Five pods in root.a (9 in all): an originator, then regular pods of priority 0 and 1.
FIVE = [
    alloc("o1", 1, age=100, priority=10, originator=True),
    alloc("x1", 3, age=50),
    alloc("x2", 2, age=40),
    alloc("x3", 2, age=30, priority=1),
    alloc("x4", 1, age=20),
]


def test_a_leaf_over_its_max_is_brought_down_after_the_delay() -> None:
    """Max 5, usage 9: 4 to preempt. SortAllocationsBasedOnAsk puts the originator first (the core scores
    originators and opted-out pods highest and sorts highest first), then priority 0 before 1, then the smaller
    share of the max: o1, x4, x2, x1, x3. The greedy rule takes each pod that keeps the total within 4: o1, x4, x2."""
    trace = run(qcfg(q("a", mx=5, quota_preemption_delay="30s")), wl(app("A", "root.a", FIVE), nodes=NODES))
    assert quota_steps(trace) == [(30, "root.a", ("o1", "x4", "x2"))]
    event = trace.events[0]
    assert event.resources == {"memory": 4}
    assert event.reason == (
        "quota preemption: root.a is over its max {memory: 5} (uses {memory: 9}) after quota.preemption.delay 30s; "
        "{memory: 4} to preempt, 3 victims released ({memory: 4})"
    )
    assert trace.notes == ()
    assert trace.summary.preemptions == 3
    assert trace.summary.end_time == 30 * SECOND


def test_the_greedy_rule_never_goes_past_the_amount() -> None:
    """Max 6: 3 to preempt. o1 (1) and x4 (1) are taken; x2 (2), x1 (3) and x3 (2) would each go past 3. The queue
    stays over its max (7 > 6) and is not tried again: the core clears the start time after the run."""
    trace = run(qcfg(q("a", mx=6, quota_preemption_delay="30s")), wl(app("A", "root.a", FIVE), nodes=NODES))
    assert quota_steps(trace) == [(30, "root.a", ("o1", "x4"))]
    assert trace.events[0].reason.endswith("{memory: 3} to preempt, 2 victims released ({memory: 2})")


def test_pods_larger_than_the_amount_are_never_taken() -> None:
    pods = [alloc("b1", 3, age=20), alloc("b2", 3, age=10)]
    trace = run(qcfg(q("a", mx=4, quota_preemption_delay="1m")), wl(app("A", "root.a", pods)))
    assert trace.events == ()
    assert trace.notes == (
        "quota preemption at 1m0s: root.a is over its max {memory: 4} (uses {memory: 6}), but no running pod fits "
        "in the {memory: 2} to preempt; it stays so",
    )


def test_equal_pods_go_newest_first() -> None:
    """Equal score, priority, creation hour and share: the core leaves them in map order; yk takes the newest."""
    pods = [alloc("p1", 2, age=30), alloc("p2", 2, age=10), alloc("p3", 2, age=20)]
    trace = run(qcfg(q("a", mx=2, quota_preemption_delay="5s")), wl(app("A", "root.a", pods)))
    assert quota_steps(trace) == [(5, "root.a", ("p2", "p3"))]


def test_the_creation_hour_orders_before_the_size() -> None:
    """A pod created in a later hour goes first, however large its share."""
    pods = [alloc("old", 1, age=7200), alloc("new", 2, age=10)]
    trace = run(qcfg(q("a", mx=1, quota_preemption_delay="5s")), wl(app("A", "root.a", pods)))
    assert quota_steps(trace) == [(5, "root.a", ("new",))]


def test_switch_off_or_unset_only_notes_why() -> None:
    for switch, why in (
        (False, "quota preemption is off: the partition does not set preemption.quotapreemptionenabled"),
        (None, "quota preemption is off: the partition does not set preemption.quotapreemptionenabled"),
    ):
        config = qcfg(q("a", mx=5, quota_preemption_delay="30s"), switch=switch)
        trace = run(config, wl(app("A", "root.a", FIVE), nodes=NODES))
        assert trace.events == ()
        assert trace.notes == (
            f"root.a runs {{memory: 9}}, over its max {{memory: 5}}, and stays over it in this run ({why}); no new "
            "allocation fits it until enough pods finish",
        )
        assert trace.summary.end_time == 0


def test_no_delay_means_no_quota_preemption() -> None:
    for props in ({}, {"quota_preemption_delay": "0s"}):
        trace = run(qcfg(q("a", mx=5, **props)), wl(app("A", "root.a", FIVE), nodes=NODES))
        assert trace.events == ()
        assert trace.notes == (
            "root.a runs {memory: 9}, over its max {memory: 5}, and stays over it in this run (quota preemption is on "
            "but the queue sets no quota.preemption.delay); no new allocation fits it until enough pods finish",
        )


def test_the_delay_is_inherited_by_configured_children() -> None:
    """filterParentProperty passes quota.preemption.delay down unchanged."""
    config = qcfg(q("p", quota_preemption_delay="30s", kids=[q("a", mx=5)]))
    trace = run(config, wl(app("A", "root.p.a", FIVE), nodes=NODES))
    assert quota_steps(trace) == [(30, "root.p.a", ("o1", "x4", "x2"))]


def test_a_parent_shares_the_amount_in_proportion_to_usage_above_guarantee() -> None:
    """root.p: max 10, usage 14, so 4 to preempt. c1 (guaranteed 2, usage 8) counts 6, c2 (no guarantee, usage 5)
    counts 5, c3 (guaranteed 3, usage 1) is skipped: c1 gets floor(6/11 * 4) = 2, c2 floor(5/11 * 4) = 1 (one unit
    lost to the floors). c1 gives one pod of 2, c2 its newest pod of 1; p stays at 11, over its max."""
    config = qcfg(
        q("p", mx=10, quota_preemption_delay="30s", kids=[q("c1", g=2), q("c2"), q("c3", g=3)]),
    )
    c1 = [alloc(f"c1-{i}", 2, age=50 - i) for i in range(4)]
    c2 = [alloc("c2-big", 3, age=40), alloc("c2-a", 1, age=30), alloc("c2-b", 1, age=35)]
    c3 = [alloc("c3-a", 1, age=10)]
    trace = run(
        config, wl(app("A", "root.p.c1", c1), app("B", "root.p.c2", c2), app("C", "root.p.c3", c3), nodes=NODES)
    )
    assert quota_steps(trace) == [(30, "root.p", ("c1-3", "c2-a"))]
    assert [v.queue_path for v in trace.events[0].victims] == ["root.p.c1", "root.p.c2"]
    assert trace.events[0].resources == {"memory": 4}
    assert trace.events[0].reason.endswith("{memory: 4} to preempt, 2 victims released ({memory: 3})")


def test_guarantees_on_the_path_cap_the_amount() -> None:
    """root.a is 4 over its max, but its parent (guaranteed 5) is only 2 over its guarantee: 2 are preempted."""
    config = qcfg(q("p", g=5, kids=[q("a", mx=3, quota_preemption_delay="10s")]))
    pods = [alloc(f"a{i}", 1, age=50 - i) for i in range(7)]
    trace = run(config, wl(app("A", "root.p.a", pods), nodes=NODES))
    assert quota_steps(trace) == [(10, "root.p.a", ("a6", "a5"))]


def test_a_parent_that_fires_stops_its_children_in_that_pass() -> None:
    """root.p (max 9, usage 12: 3 to preempt) and its child c1 (max 6 or 4, usage 8) both wait 30 s. The parent
    fires first and its pass does not descend: c1 gets floor(8/12 * 3) = 2 (one pod), c2 floor(4/12 * 3) = 1 (no pod
    of 2 fits). In the next pass (1 s later) c1 is checked on its own: at 6 it is under a max of 6 (nothing happens,
    the clock does not even move there), over a max of 4 (it fires for the 2 above it)."""
    c1 = [alloc(f"c1-{i}", 2, age=50 - i) for i in range(4)]
    c2 = [alloc(f"c2-{i}", 2, age=20 - i) for i in range(2)]
    for child_max, expected, end in (
        (6, [(30, "root.p", ("c1-3",))], 30),
        (4, [(30, "root.p", ("c1-3",)), (31, "root.p.c1", ("c1-2",))], 31),
    ):
        config = qcfg(
            q(
                "p",
                mx=9,
                quota_preemption_delay="30s",
                kids=[q("c1", mx=child_max, quota_preemption_delay="30s"), q("c2")],
            )
        )
        trace = run(config, wl(app("A", "root.p.c1", c1), app("B", "root.p.c2", c2), nodes=NODES))
        assert quota_steps(trace) == expected
        assert trace.summary.end_time == end * SECOND


def test_a_child_with_a_shorter_delay_fires_first() -> None:
    """c1 waits 10 s, its parent 30 s: c1 fires alone at 10 s (back at its max 6); at 30 s the parent (max 9,
    usage now 10: 1 to preempt) fires, shares it among c1 (6) and c2 (4): floor(0.6) = floor(0.4) = 0, no victim."""
    c1 = [alloc(f"c1-{i}", 2, age=50 - i) for i in range(4)]
    c2 = [alloc(f"c2-{i}", 2, age=20 - i) for i in range(2)]
    config = qcfg(
        q("p", mx=9, quota_preemption_delay="30s", kids=[q("c1", mx=6, quota_preemption_delay="10s"), q("c2")])
    )
    trace = run(config, wl(app("A", "root.p.c1", c1), app("B", "root.p.c2", c2), nodes=NODES))
    assert quota_steps(trace) == [(10, "root.p.c1", ("c1-3",))]
    assert trace.notes == (
        "quota preemption at 30s: root.p is over its max {memory: 9} (uses {memory: 10}), but no running pod fits in "
        "the {memory: 1} to preempt; it stays so",
    )


def test_usage_back_under_the_max_before_the_delay_means_nothing_happens() -> None:
    pods = [alloc("short", 3, age=20, duration="10s"), alloc("long", 3, age=10)]
    trace = run(qcfg(q("a", mx=4, quota_preemption_delay="30s")), wl(app("A", "root.a", pods)))
    assert [(e.time / SECOND, e.type, e.ask) for e in trace.events] == [(10, codes.COMPLETE, "short")]
    assert trace.summary.end_time == 10 * SECOND  # the quota timer at 30 s does not move the clock


def test_a_restart_on_preemption_victim_comes_back_as_an_ask() -> None:
    pods = [alloc("r1", 2, age=30, restartOnPreemption=True), alloc("r2", 2, age=20, restartOnPreemption=True)]
    trace = run(qcfg(q("a", mx=2, quota_preemption_delay="30s")), wl(app("A", "root.a", pods)))
    assert quota_steps(trace) == [(30, "root.a", ("r2",))]
    again = trace.events[0].victims[0].restarted_as
    assert again == "r2.r1"
    assert pending(trace)[again][0] == codes.QUEUE_MAX  # the queue is at its max: the fresh pod waits


def test_required_node_pods_are_never_victims() -> None:
    """A DaemonSet pod (required node, from a cluster dump) is skipped though it is the newest."""
    pods = [alloc("plain", 2, age=30), alloc("ds", 2, age=5)]
    partition, tree, work = scenario(qcfg(q("a", mx=2, quota_preemption_delay="30s")), wl(app("A", "root.a", pods)))
    application = work.applications[0]
    daemonset = replace(application.allocations[1], required_node=True)
    application = replace(application, allocations=(application.allocations[0], daemonset))
    trace = simulate(partition, tree, replace(work, applications=(application,)), SimulationOptions())
    assert quota_steps(trace) == [(30, "root.a", ("plain",))]


def test_freed_room_goes_to_other_queues_asks() -> None:
    """The victims' room on the node serves a pending ask of another queue once they are gone."""
    pods = [alloc("a1", 5, age=30), alloc("a2", 5, age=20)]
    trace = run(
        qcfg(q("a", mx=5, quota_preemption_delay="30s"), q("b")),
        wl(app("A", "root.a", pods), app("B", "root.b", asks=[ask("b1", 5, submit="0s")])),
    )
    assert [(e.time / SECOND, e.type, e.ask or e.queue_path) for e in trace.events] == [
        (30, codes.QUOTA_PREEMPT, "root.a"),
        (30, codes.ALLOCATE, "b1"),
    ]


def test_the_run_is_deterministic_and_renders() -> None:
    """root.a fires at 20 s; root.p (13 used, max 10: 3) at 30 s gives c1 floor(6/11 * 3) = 1 (no pod of 2 fits) and
    c2 floor(5/11 * 3) = 1: its newest pod of 1, restarted."""
    config = qcfg(
        q("p", mx=10, quota_preemption_delay="30s", kids=[q("c1", g=2), q("c2"), q("c3", g=3)]),
        q("a", mx=5, quota_preemption_delay="20s"),
    )
    c1 = [alloc(f"c1-{i}", 2, age=50 - i) for i in range(4)]
    c2 = [alloc("c2-a", 1, age=30), alloc("c2-b", 1, age=35), alloc("c2-c", 3, age=40)]
    work = wl(
        app("A", "root.p.c1", c1),
        app("B", "root.p.c2", [{**pod, "restartOnPreemption": True} for pod in c2]),
        app("C", "root.a", FIVE),
        nodes=NODES,
    )
    first, second = run(config, work), run(config, work)
    assert first == second
    assert quota_steps(first) == [(20, "root.a", ("o1", "x4", "x2")), (30, "root.p", ("c2-a",))]
    text = trace_text.render(first, "x")
    assert "quota-preempt  root.a" in text
    assert "preempted B/c2-a (root.p.c2, P0, {memory: 1}), restarted as c2-a.r1" in text
    assert text == trace_text.render(second, "x")
    assert trace_json.render(first, "x") == trace_json.render(second, "x")
    assert "| quota-preempt | `root.p` |" in trace_markdown.render(first, "x")


def test_resource_helpers_match_the_core() -> None:
    # StrictlyGreaterThanOrEqualsOnlyExisting: only common types; an empty smaller needs all positive
    assert sgte_only_existing({"memory": 5}, {"memory": 5, "vcore": 100})
    assert not sgte_only_existing({"memory": 5}, {"memory": 6})
    assert sgte_only_existing({"memory": 5}, {"vcore": 1})  # disjoint: true
    assert not sgte_only_existing(None, {"memory": 1})
    assert not sgte_only_existing({"memory": 0}, {})
    assert sgte_only_existing({"memory": 1}, {})
    # CompUsageRatioSpecificTypes as a key: shares of the asked types, largest first
    assert usage_ratio_key({"memory": 1, "vcore": 4}, {"memory": 2, "vcore": 8}, {"memory": 1}) == (0.5,)
    assert usage_ratio_key({"memory": 1}, None, {"memory": 1, "vcore": 1}) == (1.0,)


def test_yk_explain_tells_a_quota_victim_story(tmp_path: Path) -> None:
    config = tmp_path / "queues.json"
    config.write_text(qcfg(q("a", mx=5, quota_preemption_delay="30s")), encoding="utf-8")
    workload = tmp_path / "workload.json"
    workload.write_text(wl(app("A", "root.a", FIVE), nodes=NODES), encoding="utf-8")
    code, out, _ = run_program("explain", str(config), str(workload), "x4")
    assert code == 0
    assert "A/x4 (root.a) was preempted at 30s (step 1) by quota preemption: root.a was over its max." in out
