"""The capacity plugin (pkg/scheduler/plugins/capacity/capacity.go at HEAD), flat and hierarchical.

Flat: deserved is `spec.deserved` capped by the real capability (the cluster total less every queue's guarantee,
plus the queue's own, capped by its capability) and raised to the guarantee (no water-filling); a queue without
deserved is best-effort with share 1. Hierarchical (`enableHierarchy`, checkHierarchicalQueue): from the root down,
a queue's deserved is raised to its guarantee (the root's deserved and guarantee are the sums over its children), its
capability takes its parent's cpu or memory where its own is not above 0 and its parent's other dimensions where it
names none, and its real capability is what its parent's real capability leaves above the guarantees of the parent's
children (never below 0), plus its own guarantee, capped by that capability. The root's real capability, and its
capability when it has none, are the cluster total: Volcano before volcano-sh/volcano#4973 (since then an unset root
capability is unlimited; yk keeps the cluster total, see tests/data/volcano/upstream/plugins/capacity_test.yaml
case13 to case16). Queue order: spec.priority, then (hierarchical: leaf before non-leaf;
two leaves compared through the children of their lowest common ancestor) share, then deserved before best-effort.
Allocatable: an Open queue, allocated + request within the real capability (hierarchical: of the queue and every
ancestor). Reclaimable: a queue above its deserved, keeping its guarantee (whatever its state). Preemptive: an Open
queue, within the real capability and below deserved in some requested dimension. JobEnqueueable: an Open queue,
minResources + allocated + inqueue - elastic within the real capability (hierarchical: of the queue and every
ancestor). With `enableHierarchy`, a job in a non-leaf queue (or a broken hierarchy) makes the plugin refuse
everything in the session.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.framework import PERMIT, REJECT, Plugin
from yk_cli.core.volcano.model import QUEUE_OPEN, ROOT_QUEUE, Queue
from yk_cli.core.volcano.proportion import capability_vec
from yk_cli.core.volcano.session import ALLOCATED_STATUSES, JobInfo, QueueInfo, Session, TaskInfo, inqueue_of


@dataclass(slots=True)
class CapacityAttr:
    """capacity's queueAttr for one queue."""

    name: str
    queue: Queue
    deserved: res.Vec
    deserved_inf: res.Vec
    """deserved with the scalar dimensions it does not name as unlimited (LessEqual with api.Infinity)."""
    best_effort: bool
    allocated: res.Vec
    inqueue: res.Vec
    elastic: res.Vec
    guarantee: res.Vec
    real_capability: res.Vec
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    ancestors: list[str] = field(default_factory=list)
    """From the root down to the parent."""
    share: float = 0.0
    dominant: int = -1


class CapacityPlugin(Plugin):
    """capacity: see the module docstring."""

    name = "capacity"

    def open(self, ssn: Session) -> None:
        self.ssn = ssn
        self.hierarchy = self.option.flags.get("enableHierarchy") is True
        self.ready = True
        self.why_not_ready = ""
        dims = ssn.dims
        n = len(dims)
        total_guarantee = res.zero(n)
        queues = dict(ssn.queues)
        if self.hierarchy and ROOT_QUEUE not in queues:
            queues[ROOT_QUEUE] = QueueInfo(ROOT_QUEUE, Queue(ROOT_QUEUE))
        for info in queues.values():
            if info.queue.guarantee:
                res.iadd(total_guarantee, res.from_milli(info.queue.guarantee, dims))
        self.attrs: dict[str, CapacityAttr] = {}
        for name in sorted(queues):
            queue = queues[name].queue
            guarantee = res.from_milli(queue.guarantee, dims) if queue.guarantee else res.zero(n)
            real = res.add(res.sub(ssn.total, total_guarantee), guarantee)
            capability = capability_vec(queue, dims)
            if capability is not None:
                real = res.minimum(real, capability)
            deserved = res.from_milli(queue.deserved or {}, dims)
            deserved_inf = res.from_milli(queue.deserved or {}, dims, missing=math.inf)
            deserved_inf[res.CPU] = deserved[res.CPU]
            deserved_inf[res.MEMORY] = deserved[res.MEMORY]
            best_effort = res.is_empty(deserved)
            deserved = res.maximum(res.minimum(deserved, real), guarantee)
            self.attrs[name] = CapacityAttr(
                name=name,
                queue=queue,
                deserved=deserved,
                deserved_inf=deserved_inf,
                best_effort=best_effort,
                allocated=res.zero(n),
                inqueue=res.zero(n),
                elastic=res.zero(n),
                guarantee=guarantee,
                real_capability=real,
            )
        if self.hierarchy:
            self._build_tree(ssn)
        for job in ssn.jobs.values():
            attr = self.attrs[job.queue]
            for task in job.tasks:
                if task.status in ALLOCATED_STATUSES:
                    for name in self._path(job.queue):
                        res.iadd(self.attrs[name].allocated, task.resreq)
            held = inqueue_of(job, n)
            minimum = job.min_resources if job.min_resources is not None else res.zero(n)
            for name in self._path(job.queue):
                if held is not None:
                    res.iadd(self.attrs[name].inqueue, held)
                res.iadd(self.attrs[name].elastic, res.exceeded_part(job.allocated, minimum))
            if self.hierarchy and attr.children:
                self.ready = False
                self.why_not_ready = f"job {job.uid} is in queue {job.queue}, which is not a leaf"
        for attr in self.attrs.values():
            self._share(attr)
        self.queue_order = self._order_hierarchical if self.hierarchy else self._order
        self.reclaimable = self._reclaimable
        self.allocatable = self._allocatable
        self.preemptive = self._preemptive
        self.job_enqueueable = self._enqueueable
        if self.hierarchy:
            self.victim_queue_order = self._victim_order

    def _build_tree(self, ssn: Session) -> None:
        for name, attr in self.attrs.items():
            if name == ROOT_QUEUE:
                continue
            parent = attr.queue.parent or ROOT_QUEUE
            if parent not in self.attrs:
                self.ready = False
                self.why_not_ready = f"queue {name}: its parent {parent!r} does not exist"
                continue
            attr.parent = parent
            self.attrs[parent].children.append(name)
        for name, attr in self.attrs.items():
            chain: list[str] = []
            seen = {name}
            up = attr.parent
            while up is not None:
                if up in seen:
                    self.ready = False
                    self.why_not_ready = f"queue {name}: its parents form a cycle"
                    chain = []
                    break
                seen.add(up)
                chain.append(up)
                up = self.attrs[up].parent
            attr.ancestors = list(reversed(chain))
        if self.ready:
            self._derive(ssn)

    def _derive(self, ssn: Session) -> None:
        """buildHierarchicalQueueAttrs' root and checkHierarchicalQueue, parent before children: every child's
        deserved is raised to its guarantee; its capability takes the parent's cpu or memory where its own is not
        above 0 and the parent's other dimensions where it names none; its real capability is what its parent's
        real capability leaves above the guarantees of the parent's children (never below 0), plus its own guarantee,
        capped by that capability. The root's deserved and guarantee are the sums over its children; its capability,
        when empty, and its real capability are the cluster total."""
        dims = ssn.dims
        n = len(dims)
        capability: dict[str, res.Vec] = {}
        root = self.attrs[ROOT_QUEUE]
        root_cap = res.from_milli(root.queue.capability or {}, dims, missing=math.inf)
        for i in (res.CPU, res.MEMORY):
            if root_cap[i] == math.inf:
                root_cap[i] = 0.0  # NewResource: a capability without cpu or memory has 0 there
        if res.is_empty([v if v != math.inf else 0.0 for v in root_cap]):
            root_cap = list(ssn.total)
        capability[ROOT_QUEUE] = root_cap
        root.real_capability = list(ssn.total)
        queue: list[str] = [ROOT_QUEUE]
        while queue:
            parent = self.attrs[queue.pop(0)]
            parent_cap = capability[parent.name]
            children = [self.attrs[c] for c in sorted(parent.children)]
            total_deserved = res.zero(n)
            total_guarantee = res.zero(n)
            for child in children:
                child.deserved = res.maximum(res.from_milli(child.queue.deserved or {}, dims), child.guarantee)
                res.iadd(total_deserved, child.deserved)
                res.iadd(total_guarantee, child.guarantee)
                spec = child.queue.capability or {}
                cap = res.from_milli(spec, dims, missing=math.nan)
                for i, value in enumerate(cap):
                    if math.isnan(value) or (i in (res.CPU, res.MEMORY) and value <= 0):
                        cap[i] = parent_cap[i]
                capability[child.name] = cap
            if parent is root:
                parent.guarantee = total_guarantee
                parent.deserved = total_deserved
            left = res.exceeded_part(parent.real_capability, total_guarantee)
            for child in children:
                child.real_capability = res.minimum(res.add(left, child.guarantee), capability[child.name])
                queue.append(child.name)
        for attr in self.attrs.values():
            attr.best_effort = res.is_empty(attr.deserved)

    def _path(self, queue: str) -> list[str]:
        """The queue and, in a hierarchy, its ancestors (whose allocated include it)."""
        if not self.hierarchy:
            return [queue]
        return [*self.attrs[queue].ancestors, queue]

    def _share(self, attr: CapacityAttr) -> None:
        if attr.best_effort:
            attr.share, attr.dominant = 1.0, -1
        else:
            attr.share, attr.dominant = res.share(attr.allocated, attr.deserved)

    def _compare_share(self, left: CapacityAttr, right: CapacityAttr) -> int:
        if left.share == right.share:
            if left.best_effort == right.best_effort:
                return 0
            return 1 if left.best_effort else -1
        return -1 if left.share < right.share else 1

    def _order(self, left: QueueInfo, right: QueueInfo) -> int:
        if left.priority != right.priority:
            return -1 if left.priority > right.priority else 1
        return self._compare_share(self.attrs[left.name], self.attrs[right.name])

    def _order_hierarchical(self, left: QueueInfo, right: QueueInfo) -> int:
        if left.priority != right.priority:
            return -1 if left.priority > right.priority else 1
        la, ra = self.attrs[left.name], self.attrs[right.name]
        lleaf, rleaf = not la.children, not ra.children
        if lleaf != rleaf:
            return -1 if lleaf else 1
        if not lleaf:
            return self._compare_share(la, ra)
        lpath, rpath = [*la.ancestors, la.name], [*ra.ancestors, ra.name]
        depth = 0
        while depth < min(len(lpath), len(rpath)) and lpath[depth] == rpath[depth]:
            depth += 1
        lside = self.attrs[lpath[depth]] if depth < len(lpath) else la
        rside = self.attrs[rpath[depth]] if depth < len(rpath) else ra
        return self._compare_share(lside, rside)

    def _victim_order(self, left: QueueInfo, right: QueueInfo, preemptor: QueueInfo) -> int:
        def common(queue: str) -> int:
            a = [*self.attrs[queue].ancestors, queue]
            b = [*self.attrs[preemptor.name].ancestors, preemptor.name]
            depth = 0
            while depth < min(len(a), len(b)) and a[depth] == b[depth]:
                depth += 1
            return depth

        ld, rd = common(left.name), common(right.name)
        return -1 if ld > rd else (1 if ld < rd else 0)

    def _allocatable(self, queue: QueueInfo, task: TaskInfo) -> bool:
        if queue.queue.state != QUEUE_OPEN or not self.ready:
            return False
        for name in reversed(self._path(queue.name)):
            attr = self.attrs[name]
            if not res.less_equal_with_dimension(
                res.add(attr.allocated, task.resreq), attr.real_capability, task.resreq
            ):
                return False
        return True

    def _reclaimable(self, reclaimer: TaskInfo, reclaimees: list[TaskInfo]) -> tuple[list[TaskInfo], int]:
        if not self.ready:
            return [], REJECT
        allocations: dict[str, res.Vec] = {}
        victims = []
        for reclaimee in reclaimees:
            job = reclaimee.job
            if job is None:
                continue
            attr = self.attrs[job.queue]
            allocated = allocations.setdefault(job.queue, list(attr.allocated))
            without = res.sub(allocated, reclaimee.resreq)
            if res.less_equal(allocated, attr.deserved_inf) or not res.less_equal(attr.guarantee, without):
                continue
            res.isub(allocated, reclaimee.resreq)
            victims.append(reclaimee)
        return victims, PERMIT

    def _preemptive(self, queue: QueueInfo, task: TaskInfo) -> bool:
        if not self.ready or queue.queue.state != QUEUE_OPEN:
            return False
        attr = self.attrs[queue.name]
        future = res.add(attr.allocated, task.resreq)
        if not res.less_equal_with_dimension(future, attr.real_capability, task.resreq):
            return False
        return res.less_equal_partly_with_dimension_zero_filtered(future, attr.deserved, task.resreq)

    def _enqueueable(self, job: JobInfo) -> int:
        if not self.ready:
            return REJECT
        attr = self.attrs[job.queue]
        if self.hierarchy and attr.children:
            return REJECT
        if attr.queue.state != QUEUE_OPEN:
            return REJECT
        if job.min_resources is None:
            return PERMIT
        for name in reversed(self._path(job.queue)):
            step = self.attrs[name]
            wanted = res.sub(res.add(res.add(job.min_resources, step.allocated), step.inqueue), step.elastic)
            if not res.less_equal_with_dimension(wanted, step.real_capability, job.min_resources):
                return REJECT
        for name in self._path(job.queue):
            res.iadd(self.attrs[name].inqueue, job.min_resources)
        return PERMIT

    def _update(self, task: TaskInfo, sign: int) -> None:
        job = task.job
        if job is None or job.queue not in self.attrs:
            return
        for name in self._path(job.queue):
            attr = self.attrs[name]
            (res.iadd if sign > 0 else res.isub)(attr.allocated, task.resreq)
            self._share(attr)

    def on_allocate(self, task: TaskInfo) -> None:
        self._update(task, 1)

    def on_deallocate(self, task: TaskInfo) -> None:
        self._update(task, -1)

    def describe_queue(self, queue: QueueInfo) -> str:
        attr = self.attrs.get(queue.name)
        if attr is None:
            return f"priority {queue.priority}"
        kind = "best-effort" if attr.best_effort else "with deserved"
        return f"priority {queue.priority}, capacity share {attr.share:.4g} ({kind})"
