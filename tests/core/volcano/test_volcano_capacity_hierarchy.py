"""capacity with enableHierarchy: the queue attributes buildHierarchicalQueueAttrs and checkHierarchicalQueue derive
(capacity.go at HEAD), level by level from the root: deserved raised to the guarantee, the root's deserved and
guarantee the sums over its children, a capability inherited where a queue names none, and a real capability that is
what the parent's real capability leaves above its children's guarantees (never below 0) plus the queue's own
guarantee. yk keeps the root's real capability at the cluster total (see capacity.py)."""

from __future__ import annotations

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, Queue
from yk_cli.core.volcano.simulate import SimulationResult, simulate

GI = 2**30 * 1000
CONF = SchedulerConf(
    ("enqueue", "allocate"),
    (Tier((
        PluginOption("capacity", _defaulted({"enableHierarchy": True})),
        PluginOption("predicates", _defaulted({})),
        PluginOption("gang", _defaulted({})),
    )),),
)


def _run(queues: tuple[Queue, ...], groups: tuple[PodGroup, ...] = (), pods: tuple[Pod, ...] = ()) -> SimulationResult:
    node = Node("n1", {"cpu": 16000, "memory": 16 * GI, "pods": 110000})
    return simulate(Cluster(queues=queues, pod_groups=groups, pods=pods, nodes=(node,)), CONF)


def _rows(result: SimulationResult) -> dict[str, tuple[dict[str, float | str], dict[str, float | str]]]:
    return {row.name: (row.deserved, row.real_capability) for row in result.queues}


def _cpu(values: dict[str, float | str]) -> float | str:
    return values.get("cpu", 0.0)


def test_guarantee_only_queues_get_their_guarantee_as_deserved_and_no_negative_capability() -> None:
    """capacity_test.go case13's queues: the guarantees (64 cpu in all) exceed the cluster (16 cpu)."""
    queues = (
        Queue("root"),
        Queue("q1", parent="root", guarantee={"cpu": 32000, "memory": 32 * GI}),
        Queue("q11", parent="q1", guarantee={"cpu": 16000, "memory": 16 * GI}),
        Queue("q12", parent="q1", guarantee={"cpu": 16000, "memory": 16 * GI}),
    )
    rows = _rows(_run(queues))
    assert {name: (_cpu(d), _cpu(r)) for name, (d, r) in rows.items()} == {
        "root": (32000.0, 16000.0),  # deserved: its children's sum; real capability: the cluster
        "q1": (32000.0, 16000.0),  # 0 left above 32 of guarantees, + 32, capped by the inherited 16
        "q11": (16000.0, 16000.0),
        "q12": (16000.0, 16000.0),
    }
    for deserved, real in rows.values():
        assert all(not isinstance(v, float) or v >= 0 for v in (*deserved.values(), *real.values()))


def test_a_guarantee_only_limits_its_own_branch() -> None:
    """Guarantees under another parent do not shrink a queue's real capability twice (the flat formula took the
    total of every guarantee in the cluster off each queue)."""
    queues = (
        Queue("root"),
        Queue("a", parent="root", guarantee={"cpu": 8000}),
        Queue("a1", parent="a", guarantee={"cpu": 8000}),
        Queue("b", parent="root"),
        Queue("b1", parent="b"),
    )
    groups = (PodGroup("ns", "job", queue="b1", min_member=1, min_resources={"cpu": 6000}, phase="Pending"),)
    pods = (Pod("ns", "job-0", "u-job-0", group="job", request={"cpu": 6000, "pods": 1000}),)
    result = _run(queues, groups, pods)
    rows = _rows(result)
    assert _cpu(rows["b"][1]) == 8000.0  # 16 - 8 (a's guarantee) + 0
    assert _cpu(rows["b1"][1]) == 8000.0
    assert _cpu(rows["a"][1]) == 16000.0  # 16 - 8 + its own 8
    assert _cpu(rows["a1"][1]) == 16000.0
    binds = [e.get("task") for _, events in result.actions for e in events if e.type == "bind"]
    assert binds == ["ns/job-0"]


def test_a_capability_is_inherited_where_a_queue_names_none() -> None:
    """case5 and case11 of capacity_test.go: cpu not above 0 and unnamed dimensions come from the parent."""
    queues = (
        Queue("root"),
        Queue("p", parent="root", capability={"cpu": 4000, "memory": 4 * GI}),
        Queue("c", parent="p", capability={"memory": 2 * GI}),
    )
    rows = _rows(_run(queues))
    assert _cpu(rows["p"][1]) == 4000.0
    assert _cpu(rows["c"][1]) == 4000.0  # cpu from p
    assert rows["c"][1]["memory"] == float(2 * 2**30)
