"""Per-role minimums (PodGroup spec.minTaskMember) in the Volcano engine: how a pod's role is read, and the gang
plugin's checks (JobInfo.CheckTaskValid / CheckTaskReady / CheckTaskPipelined, NeedContinueAllocating) as
volcano-sh/volcano's pkg/scheduler/api/job_info.go and plugins/gang/gang.go have them."""

from __future__ import annotations

import json
from pathlib import Path

from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, Queue
from yk_cli.core.volcano.plugins import gang_pipelined, gang_ready
from yk_cli.core.volcano.session import ALLOCATED, BINDING, PENDING, PIPELINED, JobInfo, Session, open_session
from yk_cli.load.volcano import load_volcano
from yk_cli.load.volcano_fast import load_volcano_fast

GI = 2**30 * 1000
REJECT = -1


def _pod(name: str, role: str, cpu: int = 1000) -> Pod:
    return Pod("ns", name, f"ns-{name}", group="pg", task_spec=role, request={"cpu": cpu, "pods": 1000})


def _session(min_member: int, roles: dict[str, int], pods: list[Pod]) -> tuple[Session, JobInfo]:
    cluster = Cluster(
        queues=(Queue("default"),),
        pod_groups=(PodGroup("ns", "pg", min_member=min_member, min_task_member=roles, phase="Inqueue"),),
        pods=tuple(pods),
        nodes=(Node("n1", {"cpu": 64000, "memory": 64 * GI, "pods": 110000}),),
    )
    ssn = open_session(cluster)
    return ssn, ssn.jobs["ns/pg"]


def _set(ssn: Session, job: JobInfo, name: str, status: str) -> None:
    task = next(t for t in job.tasks if t.name == name)
    ssn.set_status(task, status)


def test_ready_needs_every_role_at_its_minimum() -> None:
    pods = [_pod("m0", "master"), _pod("m1", "master"), _pod("w0", "worker"), _pod("w1", "worker")]
    ssn, job = _session(2, {"master": 2, "worker": 0}, pods)
    assert job.check_task_valid()
    _set(ssn, job, "m0", ALLOCATED)
    _set(ssn, job, "w0", ALLOCATED)
    assert job.ready_task_num() == 2
    assert not job.check_task_ready() and not gang_ready(job)  # minAvailable met, master is not
    assert job.role_shortfalls() == [("master", 1, 2)]
    assert gang_pipelined(job) == REJECT
    _set(ssn, job, "m1", PIPELINED)
    assert job.check_task_pipelined() and not job.check_task_ready()
    _set(ssn, job, "m1", PENDING)
    _set(ssn, job, "m1", BINDING)
    assert gang_ready(job) and job.role_shortfalls() == []


def test_role_checks_are_skipped_below_the_role_total() -> None:
    """minAvailable < the sum of the role minimums: every per-role check passes (job_info.go's escape)."""
    ssn, job = _session(1, {"master": 1, "worker": 1}, [_pod("m0", "master"), _pod("w0", "worker")])
    assert job.roles_skipped()
    _set(ssn, job, "w0", ALLOCATED)
    assert job.check_task_ready() and gang_ready(job)


def test_valid_needs_enough_pods_of_each_role() -> None:
    _, job = _session(3, {"master": 1, "worker": 2}, [_pod("m0", "master"), _pod("w0", "worker"), _pod("x", "ps")])
    assert not job.check_task_valid()  # one worker pod for a minimum of 2


def test_need_continue_allocating() -> None:
    pods = [_pod("m0", "master"), _pod("m1", "master"), _pod("w0", "worker"), _pod("w1", "worker")]
    ssn, job = _session(2, {"master": 2, "worker": 0}, pods)
    _set(ssn, job, "m0", ALLOCATED)
    job.fit_failed.add("master")
    assert not job.need_continue_allocating()  # master failed below its minimum: break
    ssn, job = _session(2, {"master": 1, "worker": 1}, pods)
    _set(ssn, job, "m0", ALLOCATED)
    job.fit_failed.add("master")
    assert job.need_continue_allocating()  # master already has its one
    ssn, job = _session(4, {}, pods)
    assert not job.need_continue_allocating()  # minAvailable is every task
    ssn, job = _session(1, {"master": 1, "worker": 1}, pods)  # below the role total: count what is left
    job.fit_failed.add("master")
    assert job.need_continue_allocating()
    job.fit_failed.add("worker")
    assert not job.need_continue_allocating()


def test_the_role_is_the_annotation_else_the_label(tmp_path: Path) -> None:
    def pod(name: str, meta: dict[str, object]) -> dict[str, object]:
        return {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "ns", **meta},
            "spec": {"schedulerName": "volcano", "containers": [{"name": "c"}]},
        }

    group = {"scheduling.k8s.io/group-name": "pg"}
    items = [
        pod("a", {"annotations": {**group, "volcano.sh/task-spec": "master"}, "labels": {"volcano.sh/task-spec": "x"}}),
        pod("b", {"annotations": group, "labels": {"volcano.sh/task-spec": "worker"}}),
        pod("c", {"annotations": {**group, "volcano.sh/task-spec": ""}, "labels": {"volcano.sh/task-spec": "ps"}}),
        pod("d", {"annotations": group}),
    ]
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    fast = load_volcano_fast([str(dump)])
    assert fast is not None
    for loaded in (load_volcano([str(dump)]), fast):
        assert {p.name: p.task_spec for p in loaded.cluster.pods} == {"a": "master", "b": "worker", "c": "ps", "d": ""}
