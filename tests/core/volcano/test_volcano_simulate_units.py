"""The Volcano engine's parts: proportion's water-filling, capacity's shares, comparator chains and their flags,
the victim tiers, and random dumps (never raise, same bytes)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.paths import DATA
from tests.helpers.volcano import GI, PLUGINS, _conf, clusters
from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted, default_conf
from yk_cli.core.volcano.framework import PERMIT, Plugin
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, PriorityClass, Queue
from yk_cli.core.volcano.simulate import simulate
from yk_cli.load.volcano import load_volcano
from yk_cli.report.volcano_sim_json import render_json
from yk_cli.report.volcano_sim_text import render

CASES = DATA / "volcano" / "cases"
G = 10**9 * 1000


def case(name: str):
    loaded = load_volcano([str(CASES / name / "objects.yaml")], str(CASES / name / "volcano-scheduler.conf"))
    return simulate(loaded.cluster, loaded.conf.effective)


def conf_of(*tiers: list[tuple[str, dict[str, bool]]], actions: tuple[str, ...] = ("allocate",)) -> SchedulerConf:
    """A conf built like Volcano's unit tests: every flag off unless given."""
    from yk_cli.core.volcano.conf import FLAGS

    def option(name: str, on: dict[str, bool]) -> PluginOption:
        return PluginOption(name, {f: on.get(f, False) for f in FLAGS})

    return SchedulerConf(actions, tuple(Tier(tuple(option(n, f) for n, f in tier)) for tier in tiers))


def test_water_filling_v07() -> None:
    """Reference V07 (derived): q1 = q2 = 1.5 cpu / 1.647e9 / 2 pods; q3 = 1 cpu / 1e9 / 1 pod."""
    result = case("v07-reclaim-victim-queue-priority")
    deserved = {row.name: row.deserved for row in result.queues}
    for name in ("q1", "q2"):
        assert deserved[name]["cpu"] == pytest.approx(1500)
        assert deserved[name]["memory"] == pytest.approx(1.647e9, rel=1e-3)
        assert deserved[name]["pods"] == 2
    assert deserved["q3"] == {"cpu": 1000.0, "memory": 1e9, "pods": 1.0}
    proportion = result.framework.plugins["proportion"]
    assert proportion.rounds == 2  # type: ignore[attr-defined]


def test_water_filling_v10_and_v14() -> None:
    v10 = {r.name: r.deserved["cpu"] for r in case("v10-reclaim-preemptable-only").queues}
    assert v10 == {"q1": 2000.0, "q2": 1000.0}
    (q1,) = case("v14-preempt-victim-task-order").queues
    assert q1.deserved == {"cpu": 3000.0, "memory": 3e9, "pods": 4.0}
    # At its cap in cpu and memory, yet not Overused: deserved pods (4, the request) > allocated pods (3), and
    # Overused's LessEqual compares pods too.
    assert q1.overused is False


def test_v01_deserved_is_four_thirds() -> None:
    """V01's caveat: water-filled deserved is 1.333 cpu for each queue (so default Allocatable would refuse p3)."""
    rows = case("v01-queue-priority-proportion").queues
    assert [(r.name, r.rank) for r in rows] == [("q3", 1), ("q1", 2), ("q2", 3)]
    for row in rows:
        assert row.deserved["cpu"] == pytest.approx(4000 / 3)


def test_capacity_best_effort_share_is_one() -> None:
    rows = case("v02-queue-priority-capacity").queues
    assert [(r.name, r.rank, r.share) for r in rows] == [("q9", 1, 1.0), ("q7", 2, 1.0), ("q8", 3, 1.0)]
    assert rows[0].decided_by == ""
    assert rows[1].decided_by == "q9 before q7: capacity (tier 1): priority 10, capacity share 1 (best-effort) vs " \
        "priority 5, capacity share 1 (best-effort)"


def _capacity_cluster(deserved_a: dict[str, int] | None, used_a: int, deserved_b: dict[str, int] | None, used_b: int):
    nodes = (Node("n1", {"cpu": 8000, "memory": 8 * GI, "pods": 100_000}),)
    queues = (Queue("a", deserved=deserved_a), Queue("b", deserved=deserved_b))
    groups = (PodGroup("ns", "ja", queue="a", phase="Running"), PodGroup("ns", "jb", queue="b", phase="Running"))
    pods = []
    for job, count in (("ja", used_a), ("jb", used_b)):
        for i in range(count):
            pods.append(Pod("ns", f"{job}-p-{i}", f"{job}-{i}", group=job, request={"cpu": 1000, "pods": 1000},
                            node_name="n1", phase="Running", scheduler_name="volcano"))
    return Cluster(queues=queues, pod_groups=groups, pods=tuple(pods), nodes=nodes)


def test_capacity_shares_and_deserved_before_best_effort() -> None:
    conf = conf_of([("capacity", {"enableQueueOrder": True})])
    result = simulate(_capacity_cluster({"cpu": 4000}, 2, {"cpu": 2000}, 1), conf)
    assert [(r.name, r.share, r.dominant) for r in result.queues] == [("a", 0.5, "cpu"), ("b", 0.5, "cpu")]
    # Equal shares: queue order falls to the fallbacks (name).
    assert result.queues[1].decided_by == "a before b: fallback: queue name: a vs b"
    best_effort = simulate(_capacity_cluster({"cpu": 2000}, 2, None, 0), conf)
    # a: share 2/2 = 1; b: best-effort, share 1: the queue with a deserved goes first.
    assert [(r.name, r.share) for r in best_effort.queues] == [("a", 1.0), ("b", 1.0)]
    assert best_effort.queues[1].decided_by.startswith("a before b: capacity (tier 1)")


def _priority_cluster() -> Cluster:
    nodes = (Node("n1", {"cpu": 1000, "memory": GI, "pods": 10_000}),)
    classes = (PriorityClass("high", 100),)
    groups = (
        PodGroup("ns", "low", queue="q", min_member=1, phase="Inqueue", created=1.0),
        PodGroup("ns", "high", queue="q", min_member=1, phase="Inqueue", priority_class_name="high", created=2.0),
    )
    pods = tuple(
        Pod("ns", f"{g.name}-0", f"ns-{g.name}-0", group=g.name, request={"cpu": 1000, "pods": 1000},
            scheduler_name="volcano")
        for g in groups
    )
    return Cluster(queues=(Queue("q"),), pod_groups=groups, pods=pods, priority_classes=classes, nodes=nodes)


def test_job_order_flags_on_and_off() -> None:
    on = simulate(_priority_cluster(), conf_of([("priority", {"enableJobOrder": True})]))
    assert [j.uid for j in on.jobs] == ["ns/high", "ns/low"]
    assert on.jobs[1].decided_by == "ns/high before ns/low: priority (tier 1): priority 100 (PodGroup class high) " \
        "vs priority 0 (no class)"
    binds = [e.get("task") for _, events in on.actions for e in events if e.type == "bind"]
    assert binds == ["ns/high-0"]
    off = simulate(_priority_cluster(), conf_of([("priority", {"enableTaskOrder": True})]))
    assert [j.uid for j in off.jobs] == ["ns/low", "ns/high"]
    assert off.jobs[1].decided_by.startswith("ns/low before ns/high: fallback: creationTimestamp")
    assert [e.get("task") for _, ev in off.actions for e in ev if e.type == "bind"] == ["ns/low-0"]


def test_decide_agrees_with_less_in_later_tiers() -> None:
    """A later tier is consulted only when every earlier plugin ties: gang (tier 1) ties, priority (tier 2) decides."""
    conf = conf_of([("gang", {"enableJobOrder": True})], [("priority", {"enableJobOrder": True})], actions=())
    result = simulate(_priority_cluster(), conf)
    fw = result.framework
    low, high = result.session.jobs["ns/low"], result.session.jobs["ns/high"]
    decision = fw.job_chain.decide(low, high)
    assert (decision.first, decision.plugin, decision.tier, decision.result) == ("ns/high", "priority", 2, 1)
    assert fw.job_less(high, low) and not fw.job_less(low, high)


class _Fixed(Plugin):
    def __init__(self, name: str, answer: list[str]) -> None:
        super().__init__(PluginOption(name, _defaulted({})))
        self.name = name
        self.answer = answer
        self.reclaimable = self._victims

    def _victims(self, preemptor, candidates):  # type: ignore[no-untyped-def]
        return [c for c in candidates if c.name in self.answer], PERMIT


def _victims_with(tiers: list[list[_Fixed]]) -> list[str] | None:
    from yk_cli.core.volcano.framework import Framework, _Slot
    from yk_cli.core.volcano.session import open_session

    ssn = open_session(_priority_cluster())
    fw = Framework(ssn, default_conf())
    for index, tier in enumerate(tiers, start=1):
        for plugin in tier:
            fw.slots.append(_Slot(index, plugin, plugin.option))
    tasks = [t for j in ssn.jobs.values() for t in j.tasks]
    found = fw.victims("reclaimable", tasks[0], tasks)
    return None if found is None else sorted(t.name for t in found)


def test_victim_tiers_intersect_and_empty_set_moves_on() -> None:
    both = ["low-0", "high-0"]
    assert _victims_with([[_Fixed("a", both), _Fixed("b", ["low-0"])]]) == ["low-0"]
    # An empty set in tier 1 (a veto) does not stop tier 2 from choosing (issue #2147).
    assert _victims_with([[_Fixed("a", [])], [_Fixed("b", ["high-0"])]]) == ["high-0"]
    # An empty intersection resets: the next plugin of the tier starts again from its own set.
    assert _victims_with([[_Fixed("a", ["low-0"]), _Fixed("b", ["high-0"]), _Fixed("c", both)]]) == sorted(both)
    assert _victims_with([[_Fixed("a", [])]]) is None


# --- random dumps ---------------------------------------------------------------------------------------------------







@settings(max_examples=150)
@given(
    cluster=clusters(),
    actions=st.lists(st.sampled_from(["enqueue", "allocate", "preempt", "reclaim", "backfill", "shuffle"]),
                     max_size=5),
    plugins=st.lists(st.sampled_from(PLUGINS), max_size=6, unique=True),
    hierarchy=st.booleans(),
)
def test_random_dumps_never_raise_and_repeat(cluster: Cluster, actions: list[str], plugins: list[str],
                                             hierarchy: bool) -> None:
    conf = _conf(actions, plugins, hierarchy)
    first = simulate(cluster, conf)
    text, data = render(first, "x"), render_json(first, "x")
    assert text == render(simulate(cluster, conf), "x")
    assert data == render_json(simulate(cluster, conf), "x")
    parsed = json.loads(data)
    for action in parsed["actions"]:
        for item in action["events"]:
            if item["type"] == "bind":
                assert item["node"] in {n.name for n in cluster.nodes if n.ready}
    assert all(not (isinstance(v, float) and math.isnan(v)) for row in parsed["queues"] for v in row.values())
