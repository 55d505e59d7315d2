"""preempt with `enableTopologyAwarePreemption` (preempt.go topologyAwarePreempt and SelectVictimsOnNode): victims
are taken off in victim order until the preemptor fits, then put back one by one, and only those it cannot do
without are evicted; the normal path evicts in victim order until the preemptor fits."""

from __future__ import annotations

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, PriorityClass, Queue
from yk_cli.core.volcano.simulate import SimulationResult, simulate

GI = 2**30 * 1000


def _conf(topology_aware: bool) -> SchedulerConf:
    plugins = (
        PluginOption("priority", _defaulted({})),
        PluginOption("gang", _defaulted({})),
        PluginOption("conformance", _defaulted({})),
        PluginOption("predicates", _defaulted({})),
        PluginOption("proportion", _defaulted({})),
    )
    arguments = {"preempt": {"enableTopologyAwarePreemption": True}} if topology_aware else {}
    return SchedulerConf(("preempt",), (Tier(plugins),), configurations=arguments)


def _pod(name: str, group: str, cpu: int, node: str = "", created: float = 0.0) -> Pod:
    phase = "Running" if node else "Pending"
    return Pod("ns", name, f"u-{name}", created=created, group=group, phase=phase, node_name=node,
               request={"cpu": cpu, "memory": GI, "pods": 1000})


def _run(topology_aware: bool) -> SimulationResult:
    """n1 (4 cpu) is full: low-a (1 cpu, the newer: first in victim order), low-b (2 cpu), keep (1 cpu, its own
    job's priority equals the preemptor's). high-0 asks 2 cpu."""
    cluster = Cluster(
        queues=(Queue("q"),),
        priority_classes=(PriorityClass("low", 1), PriorityClass("high", 100)),
        pod_groups=(
            PodGroup("ns", "low", queue="q", min_member=0, phase="Running", priority_class_name="low"),
            PodGroup("ns", "keep", queue="q", min_member=1, phase="Running", priority_class_name="high"),
            PodGroup("ns", "high", queue="q", min_member=1, phase="Inqueue", priority_class_name="high"),
        ),
        pods=(
            _pod("low-a", "low", 1000, "n1", created=20.0),
            _pod("low-b", "low", 2000, "n1", created=10.0),
            _pod("keep-0", "keep", 1000, "n1"),
            _pod("high-0", "high", 2000),
        ),
        nodes=(Node("n1", {"cpu": 4000, "memory": 8 * GI, "pods": 110000}),),
    )
    return simulate(cluster, _conf(topology_aware))


def _evicted(result: SimulationResult) -> list[str]:
    return [str(e.get("task")) for _, events in result.actions for e in events if e.type == "evict"]


def _pipelined(result: SimulationResult) -> list[str]:
    return [str(e.get("task")) for _, events in result.actions for e in events if e.type == "pipeline"]


def test_the_normal_path_evicts_in_victim_order_until_the_preemptor_fits() -> None:
    result = _run(False)
    assert _evicted(result) == ["ns/low-a", "ns/low-b"]
    assert _pipelined(result) == ["ns/high-0"]


def test_the_topology_aware_path_reprieves_the_victims_it_can_do_without() -> None:
    result = _run(True)
    assert _evicted(result) == ["ns/low-b"]
    assert _pipelined(result) == ["ns/high-0"]
    assert any("enableTopologyAwarePreemption is on" in note for note in result.notes)
