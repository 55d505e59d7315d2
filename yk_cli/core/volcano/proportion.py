"""The proportion plugin (pkg/scheduler/plugins/proportion/proportion.go at HEAD): water-filled deserved, share,
queue order (spec.priority, then share), Overused, Allocatable, Preemptive, Reclaimable and JobEnqueueable.

A queue that is not Open (Closing, Closed, Unknown) is refused by Allocatable, Preemptive (both queueAllocatable)
and JobEnqueueable; Overused, the queue order and Reclaimable do not look at the state, so such a queue's running
tasks can still be reclaimed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.framework import PERMIT, REJECT, Plugin
from yk_cli.core.volcano.model import QUEUE_OPEN, Queue
from yk_cli.core.volcano.session import ALLOCATED_STATUSES, PENDING, JobInfo, QueueInfo, Session, TaskInfo, inqueue_of


@dataclass(slots=True)
class QueueAttr:
    """proportion's queueAttr: the per-queue numbers, in Volcano's units."""

    name: str
    weight: int
    deserved: res.Vec
    allocated: res.Vec
    request: res.Vec
    inqueue: res.Vec
    elastic: res.Vec
    guarantee: res.Vec
    capability: res.Vec | None
    real_capability: res.Vec = field(default_factory=list)
    share: float = 0.0
    dominant: int = -1


def capability_vec(queue: Queue, dims: tuple[str, ...]) -> res.Vec | None:
    """spec.capability; cpu or memory <= 0 (or absent) is unlimited, as is every dimension it does not name."""
    if not queue.capability:
        return None
    vec = res.from_milli(queue.capability, dims, missing=math.inf)
    for i in (res.CPU, res.MEMORY):
        if vec[i] <= 0:
            vec[i] = math.inf
    return vec


def water_fill(attrs: list[QueueAttr], total: res.Vec) -> int:
    """The deserved loop of OnSessionOpen; returns the number of rounds. Every queue of a round starts from the same
    `remaining`, so the result does not depend on the order of `attrs`."""
    remaining = list(total)
    met: set[int] = set()
    rounds = 0
    while True:
        weight = sum(a.weight for i, a in enumerate(attrs) if i not in met)
        if weight == 0:
            break
        rounds += 1
        old_remaining = list(remaining)
        increased = res.zero(len(total))
        decreased = res.zero(len(total))
        for i, attr in enumerate(attrs):
            if i in met:
                continue
            old = list(attr.deserved)
            ratio = attr.weight / weight
            deserved = [d + r * ratio for d, r in zip(attr.deserved, old_remaining, strict=True)]
            deserved = res.minimum(deserved, attr.real_capability)
            deserved = res.minimum(deserved, attr.request)
            deserved = res.maximum(deserved, attr.guarantee)
            attr.deserved = deserved
            if res.less_equal(attr.request, deserved) or deserved == old:
                met.add(i)
            res.iadd(increased, res.exceeded_part(deserved, old))
            res.iadd(decreased, res.exceeded_part(old, deserved))
        remaining = res.exceeded_part(res.add(remaining, decreased), increased)
        if res.is_empty(remaining) or remaining == old_remaining:
            break
    for attr in attrs:
        attr.share, attr.dominant = res.share(attr.allocated, attr.deserved)
    return rounds


class ProportionPlugin(Plugin):
    """proportion: see the module docstring. Only queues that hold a job in the session get attributes."""

    name = "proportion"

    def open(self, ssn: Session) -> None:
        self.ssn = ssn
        dims = ssn.dims
        n = len(dims)
        total_guarantee = res.zero(n)
        for queue in ssn.queues.values():
            if queue.queue.guarantee:
                res.iadd(total_guarantee, res.from_milli(queue.queue.guarantee, dims))
        self.attrs: dict[str, QueueAttr] = {}
        for job in ssn.jobs.values():
            attr = self.attrs.get(job.queue)
            if attr is None:
                spec = ssn.queues[job.queue].queue
                guarantee = res.from_milli(spec.guarantee, dims) if spec.guarantee else res.zero(n)
                attr = QueueAttr(
                    name=spec.name,
                    weight=spec.weight,
                    deserved=res.zero(n),
                    allocated=res.zero(n),
                    request=res.zero(n),
                    inqueue=res.zero(n),
                    elastic=res.zero(n),
                    guarantee=guarantee,
                    capability=capability_vec(spec, dims),
                )
                real = res.add(res.sub(ssn.total, total_guarantee), guarantee)
                attr.real_capability = res.minimum(real, attr.capability) if attr.capability is not None else real
                self.attrs[job.queue] = attr
            for task in job.tasks:
                if task.status in ALLOCATED_STATUSES:
                    res.iadd(attr.allocated, task.resreq)
                    res.iadd(attr.request, task.resreq)
                elif task.status == PENDING:
                    res.iadd(attr.request, task.resreq)
            held = inqueue_of(job, n)
            if held is not None:
                res.iadd(attr.inqueue, held)
            minimum = job.min_resources if job.min_resources is not None else res.zero(n)
            res.iadd(attr.elastic, res.exceeded_part(job.allocated, minimum))
        self.rounds = water_fill(list(self.attrs.values()), ssn.total)
        self.queue_order = self._order
        self.reclaimable = self._reclaimable
        self.overused = self._overused
        self.allocatable = self._allocatable
        self.preemptive = self._preemptive
        self.job_enqueueable = self._enqueueable

    def _order(self, left: QueueInfo, right: QueueInfo) -> int:
        if left.priority != right.priority:
            return -1 if left.priority > right.priority else 1
        ls, rs = self.attrs[left.name].share, self.attrs[right.name].share
        return -1 if ls < rs else (1 if ls > rs else 0)

    def _reclaimable(self, reclaimer: TaskInfo, reclaimees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        allocations: dict[str, res.Vec] = {}
        victims = []
        for reclaimee in reclaimees:
            job = reclaimee.job
            if job is None or job.queue not in self.attrs:
                continue
            attr = self.attrs[job.queue]
            allocated = allocations.setdefault(job.queue, list(attr.allocated))
            if not res.less_equal(allocated, attr.deserved):
                res.isub(allocated, reclaimee.resreq)
                victims.append(reclaimee)
        return victims, PERMIT

    def _overused(self, queue: QueueInfo) -> bool:
        attr = self.attrs[queue.name]
        return res.less_equal(attr.deserved, attr.allocated)

    def _allocatable(self, queue: QueueInfo, task: TaskInfo) -> bool:
        """queueAllocatable: the queue is Open (not Closing, Closed or Unknown) and allocated + request stays within
        deserved on the dimensions the request uses."""
        if queue.queue.state != QUEUE_OPEN:
            return False
        attr = self.attrs[queue.name]
        return res.less_equal_with_dimension(res.add(attr.allocated, task.resreq), attr.deserved, task.resreq)

    def _preemptive(self, queue: QueueInfo, task: TaskInfo) -> bool:
        """PreemptiveFn is queueAllocatable too: a queue that is not Open never reclaims."""
        return self._allocatable(queue, task)

    def _enqueueable(self, job: JobInfo) -> int:
        queue = self.ssn.queues[job.queue]
        if queue.queue.state != QUEUE_OPEN:
            return REJECT
        if job.min_resources is None:
            return PERMIT
        attr = self.attrs[job.queue]
        wanted = res.sub(res.add(res.add(job.min_resources, attr.allocated), attr.inqueue), attr.elastic)
        if res.less_equal_with_dimension(wanted, attr.real_capability, job.min_resources):
            res.iadd(attr.inqueue, job.min_resources)
            return PERMIT
        return REJECT

    def _update(self, task: TaskInfo, sign: int) -> None:
        job = task.job
        if job is None or job.queue not in self.attrs:
            return
        attr = self.attrs[job.queue]
        (res.iadd if sign > 0 else res.isub)(attr.allocated, task.resreq)
        attr.share, attr.dominant = res.share(attr.allocated, attr.deserved)

    def on_allocate(self, task: TaskInfo) -> None:
        self._update(task, 1)

    def on_deallocate(self, task: TaskInfo) -> None:
        self._update(task, -1)

    def describe_queue(self, queue: QueueInfo) -> str:
        attr = self.attrs.get(queue.name)
        share = f", share {attr.share:.4g}" if attr is not None else ""
        return f"priority {queue.priority}{share}"
