"""The job-level and node-level plugins (priority, gang, conformance, drf, overcommit, nodeorder, binpack) and the
registry of every plugin yk models. proportion, capacity and predicates live in their own modules; the node scores of
nodeorder and binpack in scoring.py.

Each follows its pkg/scheduler/plugins/<name>/<name>.go at volcano-sh/volcano HEAD; what is left out is listed in
`NOT_MODELLED` and reported in the output.
"""

from __future__ import annotations

from collections.abc import Callable

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.capacity import CapacityPlugin
from yk_cli.core.volcano.conf import PluginOption
from yk_cli.core.volcano.framework import PERMIT, REJECT, Plugin
from yk_cli.core.volcano.predicates import PredicatesPlugin
from yk_cli.core.volcano.proportion import ProportionPlugin
from yk_cli.core.volcano.session import (
    CRITICAL_CLASSES,
    JobInfo,
    Session,
    TaskInfo,
    inqueue_of,
)

SHARE_DELTA = 0.000001
"""drf's shareDelta: equal shares within it count as equal."""
DEFAULT_OVERCOMMIT = 1.2


def _cmp_desc(left: int, right: int) -> int:
    return -1 if left > right else (1 if left < right else 0)


class PriorityPlugin(Plugin):
    """priority: higher task and job priority first; preemptable: other jobs of strictly lower job priority, tasks of
    the same job of strictly lower task priority; starving: fewer ready + pipelined tasks than tasks."""

    name = "priority"

    def open(self, ssn: Session) -> None:
        self.ssn = ssn
        self.task_order = lambda a, b: _cmp_desc(a.priority, b.priority)
        self.job_order = lambda a, b: _cmp_desc(a.priority, b.priority)
        self.preemptable = self._preemptable
        self.job_starving = lambda job: job.ready_task_num() + job.waiting_task_num() < len(job.tasks)

    def _preemptable(self, preemptor: TaskInfo, preemptees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        job = preemptor.job
        victims = []
        for preemptee in preemptees:
            other = preemptee.job
            if other is None or job is None:
                continue
            if other is not job:
                if other.priority >= job.priority:
                    continue
            elif preemptee.priority >= preemptor.priority:
                continue
            victims.append(preemptee)
        return victims, PERMIT

    def describe_job(self, job: JobInfo) -> str:
        return f"priority {job.priority} ({job.priority_source})"

    def describe_task(self, task: TaskInfo) -> str:
        return f"task priority {task.priority} ({task.priority_source})"


def job_ready(job: JobInfo) -> bool:
    """JobInfo.IsReady: ready tasks + pending best-effort tasks reach minAvailable."""
    return job.ready_task_num() + job.pending_best_effort() >= job.min_available


def gang_ready(job: JobInfo) -> bool:
    """gang's JobReadyFn: every role at its minTaskMember (CheckTaskReady) and the job ready (IsReady)."""
    return job.check_task_ready() and job_ready(job)


def gang_pipelined(job: JobInfo) -> int:
    """gang's JobPipelinedFn: every role at its minimum counting pipelined tasks (CheckTaskPipelined), and ready +
    pipelined + pending best-effort tasks reach minAvailable (IsPipelined)."""
    occupied = job.waiting_task_num() + job.ready_task_num() + job.pending_best_effort()
    return PERMIT if job.check_task_pipelined() and occupied >= job.min_available else REJECT


class GangPlugin(Plugin):
    """gang: a job is valid with every role's minTaskMember and at least minAvailable valid tasks, ready with every
    role at its minimum and minAvailable ready ones; not-ready jobs first; pipelined likewise with pipelined tasks
    counting; starving by ready + pipelined tasks against minAvailable alone (the roles play no part in
    preemption); victims keep every job at minAvailable. Per-role checks are skipped when minAvailable is below the
    sum of the role minimums, as Volcano skips them."""

    name = "gang"

    def open(self, ssn: Session) -> None:
        self.job_valid = self._valid
        self.job_order = self._order
        self.job_ready = gang_ready
        self.job_pipelined = gang_pipelined
        self.job_starving = lambda j: j.waiting_task_num() + j.ready_task_num() < j.min_available
        self.preemptable = self._victims
        self.reclaimable = self._victims

    def close(self, ssn: Session) -> None:
        """OnSessionClose: a job that is not ready (IsReady; its roles are not looked at) gets the PodGroup condition
        Unschedulable of this session, which makes its phase Unknown while it has running tasks."""
        for job in ssn.jobs.values():
            if not job_ready(job):
                ssn.unschedulable.add(job.uid)

    def _valid(self, job: JobInfo) -> str | None:
        if not job.check_task_valid():
            return "not enough valid pods of each task for gang-scheduling"
        valid = job.valid_task_num()
        if valid < job.min_available:
            return f"not enough valid tasks for gang-scheduling, valid: {valid}, min: {job.min_available}"
        return None

    def _order(self, left: JobInfo, right: JobInfo) -> int:
        lr, rr = job_ready(left), job_ready(right)
        if lr == rr:
            return 0
        return 1 if lr else -1

    def _victims(self, preemptor: TaskInfo, preemptees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        occupied: dict[int, int] = {}
        victims = []
        for preemptee in preemptees:
            job = preemptee.job
            if job is None:
                continue
            left = occupied.setdefault(id(job), job.ready_task_num())
            if left > job.min_available:
                occupied[id(job)] = left - 1
                victims.append(preemptee)
        return victims, PERMIT

    def describe_job(self, job: JobInfo) -> str:
        state = "ready" if job_ready(job) else "not ready"
        return f"{state} ({job.ready_task_num()} ready of minAvailable {job.min_available})"


class ConformancePlugin(Plugin):
    """conformance: never evict system-cluster-critical / system-node-critical pods or anything in kube-system."""

    name = "conformance"

    def open(self, ssn: Session) -> None:
        self.preemptable = self._evictable
        self.reclaimable = self._evictable

    @staticmethod
    def _evictable(preemptor: TaskInfo, preemptees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        victims = [
            t for t in preemptees if t.pod.priority_class_name not in CRITICAL_CLASSES and t.namespace != "kube-system"
        ]
        return victims, PERMIT


class DrfPlugin(Plugin):
    """drf (flat): jobs by dominant share (allocated / cluster total, the largest over the dimensions); preemptable
    when the preemptor's share after the preemption is at most the victim job's after it. enableHierarchy (HDRF) is
    not modelled: the queue order and reclaim of HDRF are left out and the output says so."""

    name = "drf"

    def open(self, ssn: Session) -> None:
        self.ssn = ssn
        self.total = ssn.total
        self.allocated: dict[int, res.Vec] = {}
        self.shares: dict[int, float] = {}
        for job in ssn.jobs.values():
            self.allocated[id(job)] = list(job.allocated)
            self.shares[id(job)] = res.share(job.allocated, self.total)[0]
        self.job_order = self._order
        self.preemptable = self._preemptable

    def share_of(self, job: JobInfo) -> float:
        return self.shares.get(id(job), 0.0)

    def _order(self, left: JobInfo, right: JobInfo) -> int:
        ls, rs = self.shares.get(id(left), 0.0), self.shares.get(id(right), 0.0)
        return -1 if ls < rs else (1 if ls > rs else 0)

    def _preemptable(self, preemptor: TaskInfo, preemptees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        job = preemptor.job
        if job is None:
            return [], PERMIT
        mine = res.add(self.allocated.get(id(job), res.zero(len(self.total))), preemptor.resreq)
        ls = res.share(mine, self.total)[0]
        allocations: dict[int, res.Vec] = {}
        victims = []
        for preemptee in preemptees:
            other = preemptee.job
            if other is None:
                continue
            current = allocations.setdefault(id(other), list(self.allocated.get(id(other), res.zero(len(self.total)))))
            res.isub(current, preemptee.resreq)
            rs = res.share(current, self.total)[0]
            if ls < rs or abs(ls - rs) <= SHARE_DELTA:
                victims.append(preemptee)
        return victims, PERMIT

    def _update(self, task: TaskInfo, sign: int) -> None:
        job = task.job
        if job is None or id(job) not in self.allocated:
            return
        vec = self.allocated[id(job)]
        (res.iadd if sign > 0 else res.isub)(vec, task.resreq)
        self.shares[id(job)] = res.share(vec, self.total)[0]

    def on_allocate(self, task: TaskInfo) -> None:
        self._update(task, 1)

    def on_deallocate(self, task: TaskInfo) -> None:
        self._update(task, -1)

    def describe_job(self, job: JobInfo) -> str:
        return f"drf share {self.share_of(job):.4g}"


def min_resources(job: JobInfo, n: int) -> res.Vec:
    """JobInfo.GetMinResources: the PodGroup's minResources (empty when unset)."""
    return list(job.min_resources) if job.min_resources is not None else res.zero(n)


class OvercommitPlugin(Plugin):
    """overcommit: admit a job in enqueue while inqueue + its minResources fit total x overcommit-factor - used."""

    name = "overcommit"

    def open(self, ssn: Session) -> None:
        n = len(ssn.dims)
        factor = DEFAULT_OVERCOMMIT
        raw = self.option.arguments.get("overcommit-factor")
        if isinstance(raw, int | float) and not isinstance(raw, bool):
            factor = float(raw)
        elif isinstance(raw, str):
            try:
                factor = float(raw)
            except ValueError:
                factor = DEFAULT_OVERCOMMIT
        if factor < 1.0:
            factor = DEFAULT_OVERCOMMIT
        self.factor = factor
        used = res.zero(n)
        for node in ssn.nodes:
            res.iadd(used, res.sub(node.allocatable, node.idle))
        self.idle = res.sub([x * factor for x in ssn.total], used)
        self.inqueue = res.zero(n)
        for job in ssn.jobs.values():
            held = inqueue_of(job, n)
            if held is not None:
                res.iadd(self.inqueue, held)
        self.job_enqueueable = self._enqueueable
        self.job_enqueued = self._enqueued

    def _enqueueable(self, job: JobInfo) -> int:
        if job.min_resources is None:
            return PERMIT
        wanted = res.add(self.inqueue, job.min_resources)
        return PERMIT if res.less_equal_with_dimension(wanted, self.idle, job.min_resources) else REJECT

    def _enqueued(self, job: JobInfo) -> None:
        if job.min_resources is not None:
            res.iadd(self.inqueue, job.min_resources)


class NodeOrderPlugin(Plugin):
    """nodeorder: scores nodes with kube-scheduler's score plugins and its weights (core/volcano/scoring.py, which
    the actions call for their node choice)."""

    name = "nodeorder"


class BinpackPlugin(Plugin):
    """binpack: scores nodes by how full the task leaves them, per resource weight (core/volcano/scoring.py)."""

    name = "binpack"


def builders() -> dict[str, Callable[[PluginOption], Plugin]]:
    """Plugin name -> builder, for every plugin yk models."""
    return {
        "priority": PriorityPlugin,
        "gang": GangPlugin,
        "conformance": ConformancePlugin,
        "drf": DrfPlugin,
        "proportion": ProportionPlugin,
        "capacity": CapacityPlugin,
        "overcommit": OvercommitPlugin,
        "predicates": PredicatesPlugin,
        "nodeorder": NodeOrderPlugin,
        "binpack": BinpackPlugin,
    }


NOT_MODELLED = {
    "sla": "job order by waiting time",
    "tdm": "time-division multiplexing of nodes",
    "numaaware": "NUMA topology predicates and scores",
    "task-topology": "task affinity inside a job",
    "network-topology-aware": "hypernode topology",
    "resource-strategy-fit": "node scoring",
    "deviceshare": "GPU sharing predicates",
    "extender": "HTTP scheduler extenders",
    "usage": "node usage predicates and scores",
    "pdb": "PodDisruptionBudgets in victim selection",
    "rescheduling": "rescheduling of running pods",
    "cdp": "cooldown protection of victims",
    "nodegroup": "node-group affinity of queues",
    "sharding": "node shards",
}
"""Plugins Volcano has and yk does not model, with what they would change."""
