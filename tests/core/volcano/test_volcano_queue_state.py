"""A queue that is not Open (Closing, Closed, Unknown) in proportion and capacity: Allocatable, Preemptive and
JobEnqueueable refuse it (queueAllocatable and the enqueue check at HEAD), while its running tasks may still be
reclaimed by other queues."""

from __future__ import annotations

import pytest

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, Queue
from yk_cli.core.volcano.simulate import simulate

GI = 2**30 * 1000


def _conf(share: str, actions: tuple[str, ...]) -> SchedulerConf:
    plugins = ("priority", "gang", "conformance", share)
    return SchedulerConf(actions, (Tier(tuple(PluginOption(p, _defaulted({})) for p in plugins)),))


def _pod(name: str, group: str, phase: str = "Pending", node: str = "") -> Pod:
    return Pod("ns", name, f"u-{name}", group=group, phase=phase, node_name=node, request={"cpu": 1000, "pods": 1000})


def _events(share: str, state: str, actions: tuple[str, ...], *, running: bool = False) -> list[tuple[str, str]]:
    queues = (Queue("open", deserved={"cpu": 1000}), Queue("shut", state=state, deserved={"cpu": 1000}))
    groups = [PodGroup("ns", "a", queue="shut", min_member=1, phase="Inqueue")]
    pods = [_pod("a-0", "a")]
    if running:
        groups = [PodGroup("ns", "a", queue="open", min_member=1, phase="Inqueue"),
                  PodGroup("ns", "b", queue="shut", min_member=0, phase="Running")]
        pods = [_pod("a-0", "a"), _pod("b-0", "b", "Running", "n1"), _pod("b-1", "b", "Running", "n1")]
    cluster = Cluster(
        queues=queues, pod_groups=tuple(groups), pods=tuple(pods),
        nodes=(Node("n1", {"cpu": 2000, "memory": 4 * GI, "pods": 110000}),),
    )
    result = simulate(cluster, _conf(share, actions))
    kept = ("bind", "not-allocatable", "evict")
    return [(e.type, str(e.get("task"))) for _, events in result.actions for e in events if e.type in kept]


@pytest.mark.parametrize("share", ["proportion", "capacity"])
@pytest.mark.parametrize("state", ["Closed", "Closing", "Unknown"])
def test_a_queue_that_is_not_open_allocates_nothing(share: str, state: str) -> None:
    assert _events(share, "Open", ("allocate",)) == [("bind", "ns/a-0")]
    assert _events(share, state, ("allocate",)) == [("not-allocatable", "ns/a-0")]


@pytest.mark.parametrize("share", ["proportion", "capacity"])
def test_its_running_tasks_can_still_be_reclaimed(share: str) -> None:
    evicted = [name for kind, name in _events(share, "Closed", ("reclaim",), running=True) if kind == "evict"]
    assert evicted == ["ns/b-1"] or evicted == ["ns/b-0"]
