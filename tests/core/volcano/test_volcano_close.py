"""The PodGroup phase a Volcano session writes when it closes (framework.closeSession -> JobUpdater -> jobStatus ->
getPodGroupPhase; gang's OnSessionClose marks a job that is not ready Unschedulable first)."""

from __future__ import annotations

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, Queue
from yk_cli.core.volcano.session import PENDING, RELEASING, open_session, phase_at_close
from yk_cli.core.volcano.simulate import simulate

GI = 2**30 * 1000


def _conf(*plugins: str, actions: tuple[str, ...] = ("enqueue", "allocate")) -> SchedulerConf:
    return SchedulerConf(actions, (Tier(tuple(PluginOption(p, _defaulted({})) for p in plugins)),))


def _pod(name: str, group: str, phase: str = "Pending", node: str = "", cpu: int = 1000) -> Pod:
    return Pod("ns", name, f"u-{name}", group=group, phase=phase, node_name=node, request={"cpu": cpu, "pods": 1000})


def _cluster(groups: list[PodGroup], pods: list[Pod], cpu: int = 2000) -> Cluster:
    return Cluster(
        queues=(Queue("default"),), pod_groups=tuple(groups), pods=tuple(pods),
        nodes=(Node("n1", {"cpu": cpu, "memory": 8 * GI, "pods": 110000}),),
    )


def _phases(cluster: Cluster, conf: SchedulerConf) -> dict[str, str]:
    return {row.uid: row.phase_after for row in simulate(cluster, conf).jobs}


def test_bound_in_this_session_is_not_running_yet() -> None:
    """allocate's binds are Binding when the session closes: the PodGroup is Inqueue until the next session."""
    cluster = _cluster([PodGroup("ns", "a", min_member=1)], [_pod("a-0", "a")])
    assert _phases(cluster, _conf("gang", "proportion")) == {"ns/a": "Inqueue"}
    assert _phases(cluster, _conf("gang", "proportion", actions=("allocate",))) == {"ns/a": "Inqueue"}
    assert _phases(cluster, _conf("gang", "proportion", actions=("backfill",))) == {"ns/a": "Pending"}


def test_running_completed_and_back_to_pending() -> None:
    groups = [
        PodGroup("ns", "run", min_member=1, phase="Running"),
        PodGroup("ns", "done", min_member=1, phase="Running"),
        PodGroup("ns", "gone", min_member=1, phase="Running"),
        PodGroup("ns", "empty", min_member=0, phase="Pending"),
    ]
    pods = [
        _pod("run-0", "run", "Running", "n1"),
        _pod("done-0", "done", "Succeeded", "n1"),
        _pod("gone-0", "gone", cpu=9000),
    ]
    assert _phases(_cluster(groups, pods), _conf("proportion")) == {
        "ns/run": "Running", "ns/done": "Completed", "ns/gone": "Pending", "ns/empty": "Completed",
    }


def test_unknown_when_running_tasks_and_gang_marks_it_unschedulable() -> None:
    groups = [PodGroup("ns", "big", min_member=2, phase="Running")]
    pods = [_pod("big-0", "big", "Running", "n1"), _pod("big-1", "big", cpu=9000)]
    assert _phases(_cluster(groups, pods), _conf("gang", "proportion")) == {"ns/big": "Unknown"}
    assert _phases(_cluster(groups, pods), _conf("proportion")) == {"ns/big": "Pending"}  # no gang: no condition


def test_evicted_tasks_no_longer_count() -> None:
    group = PodGroup("ns", "r", min_member=1, phase="Running")
    ssn = open_session(_cluster([group], [_pod("r-0", "r", "Running", "n1")]))
    job = ssn.jobs["ns/r"]
    assert phase_at_close(job, False) == "Running"
    ssn.set_status(job.tasks[0], RELEASING)
    assert phase_at_close(job, False) == "Pending"
    ssn.set_status(job.tasks[0], PENDING)
    job.phase = "Inqueue"
    assert phase_at_close(job, True) == "Inqueue"
