"""One Volcano scheduling session: the snapshot as the scheduler's cache builds it, its mutable state and statements.

Follows pkg/scheduler/cache (Snapshot), pkg/scheduler/api (TaskInfo, JobInfo, NodeInfo) and
pkg/scheduler/framework (Session, Statement) at volcano-sh/volcano HEAD: task statuses from the pod phase and node
name, job priority from the PodGroup's PriorityClass (else the globalDefault class, else 0), task priority 1 /
spec.priority / volcano.sh/task-priority, `pods` in every request, the total = the Ready nodes' allocatable, pods of
other schedulers bound to a node occupy it. Plugins see allocations and evictions through `on_allocate` and
`on_deallocate`, exactly when Volcano calls its event handlers (statement operations and their undo).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from yk_cli.core.predicates.model import Namespace
from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.model import (
    DEFAULT_QUEUE,
    POD_GROUP_COMPLETED,
    POD_GROUP_INQUEUE,
    POD_GROUP_PENDING,
    POD_GROUP_RUNNING,
    POD_GROUP_UNKNOWN,
    Cluster,
    Node,
    Pod,
    PodGroup,
    Queue,
)

if TYPE_CHECKING:
    from yk_cli.core.volcano.framework import Framework

# Task statuses (pkg/scheduler/api/types.go).
PENDING = "Pending"
ALLOCATED = "Allocated"
PIPELINED = "Pipelined"
BINDING = "Binding"
BOUND = "Bound"
RUNNING = "Running"
RELEASING = "Releasing"
SUCCEEDED = "Succeeded"
FAILED = "Failed"
UNKNOWN = "Unknown"

ALLOCATED_STATUSES = frozenset({ALLOCATED, BINDING, BOUND, RUNNING})
"""api.AllocatedStatus: what counts in a queue's or a job's allocated resources."""
READY_STATUSES = ALLOCATED_STATUSES | {SUCCEEDED}
"""What JobInfo.ReadyTaskNum counts."""
VALID_STATUSES = READY_STATUSES | {PENDING, PIPELINED}
"""What JobInfo.ValidTaskNum counts."""
ROLE_VALID = VALID_STATUSES
"""What CheckTaskValid counts of a role."""
ROLE_READY = ALLOCATED_STATUSES | {SUCCEEDED}
"""What getJobAllocatedRoles (CheckTaskReady) counts of a role, besides its pending best-effort tasks."""
ROLE_PIPELINED = ROLE_READY | {PIPELINED}
"""What CheckTaskPipelined counts of a role, besides its pending best-effort tasks."""
SCHEDULED_STATUSES = frozenset({RUNNING, BOUND, FAILED, SUCCEEDED})
"""api.ScheduledStatus: what getPodGroupPhase counts against minMember (a task bound in this session is Binding,
not yet scheduled)."""
COMPLETED_STATUSES = frozenset({FAILED, SUCCEEDED})
"""api.CompletedStatus."""
PREEMPTABLE_STATUSES = frozenset({RUNNING, BOUND, BINDING})
"""api.PreemptableStatus: the statuses preempt may evict."""
CRITICAL_CLASSES = frozenset({"system-cluster-critical", "system-node-critical"})

_INDEX = re.compile(r"^-?\d+$")

ASSUMED_DEFAULT_QUEUE = (
    "assumed: queue default as Volcano creates it at start-up (weight 1, reclaimable, no capability, open), since "
    "a job names it and the dump holds no Queue default (Volcano never lets it be deleted)"
)
"""The note of a session that adds the `default` queue the dump does not hold."""


@dataclass(eq=False, slots=True)
class TaskInfo:
    """A pod as a Volcano task."""

    uid: str
    namespace: str
    name: str
    pod: Pod
    resreq: res.Vec
    priority: int
    priority_source: str
    status: str
    node: str
    job: JobInfo | None = None
    best_effort: bool = False
    index: int | None = None
    """The pod name's last `-`-separated part when it is an integer and the name has at least three parts."""
    outside: str = ""
    """Why the task belongs to no job of the session although its pod names a PodGroup (the job's queue does not
    exist); "" otherwise. Such a task still occupies its node, but no action looks at it (its `job` is None)."""

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def preemptable(self) -> bool:
        return self.pod.preemptable

    @property
    def spec_key(self) -> str:
        """The task's role (TaskInfo.TaskRole: the volcano.sh/task-spec annotation, else the label of that name), the
        key of the job's minTaskMember and of its fit-error cache."""
        return self.pod.task_spec


@dataclass(eq=False, slots=True)
class JobInfo:
    """A PodGroup with its tasks; its ID is `<namespace>/<name>`."""

    uid: str
    pod_group: PodGroup
    queue: str
    priority: int
    priority_source: str
    min_available: int
    phase: str
    tasks: list[TaskInfo] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    allocated: res.Vec = field(default_factory=list)
    """The requests of the tasks in an allocated status (JobInfo.Allocated)."""
    min_resources: res.Vec | None = None
    fit_failed: set[str] = field(default_factory=set)
    """Task specs that found no node in this session (JobInfo.TaskHasFitErrors)."""
    ready: int = 0
    """Tasks in READY_STATUSES (kept current by Session.set_status)."""
    valid: int = 0
    best_effort_pending: int = 0
    task_min: dict[str, int] = field(default_factory=dict)
    """PodGroup spec.minTaskMember: role -> its own minimum (JobInfo.TaskMinAvailable)."""
    task_min_total: int = 0
    """The sum of task_min (JobInfo.TaskMinAvailableTotal)."""
    roles: dict[str, dict[str, int]] = field(default_factory=dict)
    """role -> task status -> count, kept (by track) only for a job with task_min."""
    roles_best_effort: dict[str, int] = field(default_factory=dict)
    """role -> its pending best-effort tasks, kept with `roles`."""

    @property
    def created(self) -> float | None:
        return self.pod_group.created

    def count(self, *statuses: str) -> int:
        return sum(self.counts.get(s, 0) for s in statuses)

    def ready_task_num(self) -> int:
        return self.ready

    def waiting_task_num(self) -> int:
        return self.counts.get(PIPELINED, 0)

    def valid_task_num(self) -> int:
        return self.valid

    def pending_best_effort(self) -> int:
        return self.best_effort_pending

    def track(self, task: TaskInfo, old: str | None, new: str) -> None:
        """Move a task between the status counts (old None: the task is new)."""
        if old is not None:
            self.counts[old] -= 1
            self.ready -= old in READY_STATUSES
            self.valid -= old in VALID_STATUSES
            self.best_effort_pending -= task.best_effort and old == PENDING
        self.counts[new] = self.counts.get(new, 0) + 1
        self.ready += new in READY_STATUSES
        self.valid += new in VALID_STATUSES
        self.best_effort_pending += task.best_effort and new == PENDING
        if self.task_min:
            role = task.spec_key
            counts = self.roles.setdefault(role, {})
            if old is not None:
                counts[old] -= 1
                if task.best_effort and old == PENDING:
                    self.roles_best_effort[role] -= 1
            counts[new] = counts.get(new, 0) + 1
            if task.best_effort and new == PENDING:
                self.roles_best_effort[role] = self.roles_best_effort.get(role, 0) + 1

    def _role_count(self, role: str, statuses: frozenset[str], best_effort_pending: bool) -> int:
        """The tasks of a role in `statuses`, plus its pending best-effort ones when asked."""
        counts = self.roles.get(role, {})
        found = sum(n for status, n in counts.items() if status in statuses)
        return found + (self.roles_best_effort.get(role, 0) if best_effort_pending else 0)

    def roles_skipped(self) -> bool:
        """minAvailable below the sum of the role minimums: Volcano skips every per-role check (they pass)."""
        return self.min_available < self.task_min_total

    def check_task_valid(self) -> bool:
        """JobInfo.CheckTaskValid: every role with a minimum has at least that many tasks pending, pipelined, in an
        allocated status or succeeded."""
        if not self.task_min or self.roles_skipped():
            return True
        return all(m == 0 or self._role_count(role, ROLE_VALID, False) >= m for role, m in self.task_min.items())

    def check_task_ready(self) -> bool:
        """JobInfo.CheckTaskReady: every role has at least its minimum in an allocated status, succeeded, or pending
        best-effort (getJobAllocatedRoles)."""
        if not self.task_min or self.roles_skipped():
            return True
        return all(self._role_count(role, ROLE_READY, True) >= m for role, m in self.task_min.items())

    def check_task_pipelined(self) -> bool:
        """JobInfo.CheckTaskPipelined: as check_task_ready, pipelined tasks counting too."""
        if not self.task_min or self.roles_skipped():
            return True
        return all(self._role_count(role, ROLE_PIPELINED, True) >= m for role, m in self.task_min.items())

    def role_shortfalls(self) -> list[tuple[str, int, int]]:
        """(role, ready, minimum) of every role below its minimum, as check_task_ready counts (for messages)."""
        if not self.task_min or self.roles_skipped():
            return []
        out = []
        for role, m in sorted(self.task_min.items()):
            have = self._role_count(role, ROLE_READY, True)
            if have < m:
                out.append((role, have, m))
        return out

    def need_continue_allocating(self) -> bool:
        """JobInfo.NeedContinueAllocating, asked by allocate when a task found no node (its role already in
        fit_failed): whether the job's other pending tasks are still worth trying. No when minAvailable is every
        task; when minAvailable < the role total, whether the ready tasks plus the pending ones of roles that have
        not failed can reach minAvailable; else whether every failed role with a minimum already has it."""
        if self.min_available == len(self.tasks):
            return False
        if self.roles_skipped():
            left = sum(
                1 for t in self.tasks if t.status == PENDING and t.spec_key not in self.fit_failed
            )
            return self.ready + left >= self.min_available
        for role in self.fit_failed:
            m = self.task_min.get(role, 0)
            if m and self._role_count(role, ROLE_READY, True) < m:
                return False
        return True

    def is_pending(self) -> bool:
        """JobInfo.IsPending: the PodGroup is still Pending (not admitted by enqueue)."""
        return self.phase == POD_GROUP_PENDING


@dataclass(eq=False, slots=True)
class NodeInfo:
    """A Ready node: allocatable, idle, releasing and pipelined resources, and the tasks placed on it."""

    name: str
    node: Node
    allocatable: res.Vec
    idle: res.Vec
    releasing: res.Vec
    pipelined: res.Vec
    tasks: dict[str, TaskInfo] = field(default_factory=dict)
    version: int = 0
    """Bumped on every change (for the node index's lazy heap)."""

    def future_idle(self) -> res.Vec:
        """NodeInfo.FutureIdle: idle + releasing - pipelined."""
        return [i + r - p for i, r, p in zip(self.idle, self.releasing, self.pipelined, strict=True)]


@dataclass(eq=False, slots=True)
class QueueInfo:
    """A Queue as the session sees it; its ID is its name."""

    name: str
    queue: Queue

    @property
    def created(self) -> float | None:
        return self.queue.created

    @property
    def priority(self) -> int:
        return self.queue.priority


EventValue = str | bool | int | float | list[str] | dict[str, int]
"""What an event field holds."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing an action did, in order: see schemas/volcano-simulate.schema.json for the types and fields."""

    type: str
    fields: tuple[tuple[str, EventValue], ...]

    def get(self, name: str) -> EventValue | None:
        return next((v for k, v in self.fields if k == name), None)


def event(kind: str, **fields: EventValue | None) -> Event:
    """An event with its fields in the given order (None values left out)."""
    return Event(kind, tuple((k.removesuffix("_"), v) for k, v in fields.items() if v is not None))


def task_status(pod: Pod) -> str:
    """getTaskStatus: the pod phase, a node name and a deletion mark as a task status."""
    if pod.phase == "Running":
        return RELEASING if pod.deleting else RUNNING
    if pod.phase == "Pending":
        if pod.deleting:
            return RELEASING
        return BOUND if pod.node_name else PENDING
    if pod.phase in ("Succeeded", "Failed"):
        return pod.phase
    return UNKNOWN


def _name_index(name: str) -> int | None:
    parts = name.split("-")
    if len(parts) >= 3 and _INDEX.match(parts[-1]):
        return int(parts[-1])
    return None


class Session:
    """The session's state. Build it with `open_session`; actions change it only through Statement or allocate()."""

    def __init__(self, dims: tuple[str, ...]) -> None:
        self.dims = dims
        self.nodes: list[NodeInfo] = []
        self.node_map: dict[str, NodeInfo] = {}
        self.jobs: dict[str, JobInfo] = {}
        self.queues: dict[str, QueueInfo] = {}
        self.total: res.Vec = res.zero(len(dims))
        self.framework: Framework | None = None
        self.events: list[Event] = []
        self.notes: list[str] = []
        self.enqueue_configured = False
        self.node_listeners: list[Callable[[NodeInfo], None]] = []
        self.node_choices: dict[str, tuple[float, tuple[str, ...], bool]] = {}
        """task uid -> (score, the other nodes of a tie, whether the tie has more) of its last node choice."""
        self.changes = 0
        """Counts every change of a node's resources (a state version for caches)."""
        self.namespaces: tuple[Namespace, ...] = ()
        """The dump's Namespaces (the predicates plugin reads their labels)."""
        self.unschedulable: set[str] = set()
        """Jobs given the PodGroup condition Unschedulable by this session (gang's OnSessionClose), by ID."""

    @property
    def fw(self) -> Framework:
        assert self.framework is not None
        return self.framework

    def emit(self, item: Event) -> None:
        self.events.append(item)

    # -- low-level state changes -------------------------------------------------------------------------------------
    def set_status(self, task: TaskInfo, status: str) -> None:
        """JobInfo.UpdateTaskStatus: move the task between status counts and keep the job's allocated in step."""
        job = task.job
        old = task.status
        task.status = status
        if job is None:
            return
        job.track(task, old, status)
        was, now = old in ALLOCATED_STATUSES, status in ALLOCATED_STATUSES
        if was and not now:
            res.isub(job.allocated, task.resreq)
        elif now and not was:
            res.iadd(job.allocated, task.resreq)

    def choice_fields(self, task: TaskInfo) -> dict[str, EventValue | None]:
        """A bind's or pipeline's score fields: the node's total and, when other nodes had the same best total
        (Volcano picks among them at random, yk the smallest name), the tie."""
        found = self.node_choices.get(task.uid)
        if found is None:
            return {}
        score, tie, more = found
        return {"score": round(score, 6), "tie": list(tie) if tie else None, "tie_more": True if more else None}

    def _changed(self, node: NodeInfo) -> None:
        node.version += 1
        self.changes += 1
        for listener in self.node_listeners:
            listener(node)

    def node_add(self, node: NodeInfo, task: TaskInfo) -> None:
        """NodeInfo.AddTask for the task's current status."""
        node.tasks[task.uid] = task
        task.node = node.name
        if task.status == PIPELINED:
            res.iadd(node.pipelined, task.resreq)
        else:
            res.isub(node.idle, task.resreq)
            if task.status == RELEASING:
                res.iadd(node.releasing, task.resreq)
        self._changed(node)

    def node_remove(self, node: NodeInfo, task: TaskInfo) -> None:
        """NodeInfo.RemoveTask (the task keeps its current status while it is taken off)."""
        del node.tasks[task.uid]
        task.node = ""
        if task.status == PIPELINED:
            res.isub(node.pipelined, task.resreq)
        else:
            res.iadd(node.idle, task.resreq)
            if task.status == RELEASING:
                res.isub(node.releasing, task.resreq)
        self._changed(node)

    def allocated(self, task: TaskInfo) -> None:
        self.fw.on_allocate(task)

    def deallocated(self, task: TaskInfo) -> None:
        self.fw.on_deallocate(task)


@dataclass(slots=True)
class _Op:
    kind: str
    task: TaskInfo
    node: NodeInfo
    reason: str = ""
    previous: str = ""
    preemptor: str = ""


class Statement:
    """framework.Statement: evictions, pipelines and allocations that take effect in the session at once and are
    either committed (events emitted: evict, pipeline, bind) or discarded (undone in reverse order)."""

    def __init__(self, ssn: Session, action: str) -> None:
        self.ssn = ssn
        self.action = action
        self.ops: list[_Op] = []

    def evict(self, task: TaskInfo, reason: str, preemptor: str) -> None:
        node = self.ssn.node_map[task.node]
        previous = task.status
        self.ssn.node_remove(node, task)
        self.ssn.set_status(task, RELEASING)
        self.ssn.node_add(node, task)
        self.ssn.deallocated(task)
        self.ops.append(_Op("evict", task, node, reason, previous, preemptor))

    def pipeline(self, task: TaskInfo, node: NodeInfo) -> None:
        self.ssn.set_status(task, PIPELINED)
        self.ssn.node_add(node, task)
        self.ssn.allocated(task)
        self.ops.append(_Op("pipeline", task, node))

    def allocate(self, task: TaskInfo, node: NodeInfo) -> None:
        self.ssn.set_status(task, ALLOCATED)
        self.ssn.node_add(node, task)
        self.ssn.allocated(task)
        self.ops.append(_Op("allocate", task, node))

    def discard(self) -> None:
        ssn = self.ssn
        for op in reversed(self.ops):
            if op.kind == "evict":
                ssn.node_remove(op.node, op.task)
                ssn.set_status(op.task, op.previous)
                ssn.node_add(op.node, op.task)
                ssn.allocated(op.task)
            else:
                ssn.node_remove(op.node, op.task)
                ssn.set_status(op.task, PENDING)
                ssn.deallocated(op.task)
        self.ops.clear()

    def commit(self) -> None:
        ssn = self.ssn
        for op in self.ops:
            task, job = op.task, op.task.job
            job_id = job.uid if job is not None else None
            queue = job.queue if job is not None else None
            if op.kind == "evict":
                ssn.emit(
                    event(
                        "evict",
                        task=task.key,
                        node=op.node.name,
                        for_=op.preemptor,
                        reason=op.reason,
                        job=job_id,
                        queue=queue,
                    )
                )
            elif op.kind == "pipeline":
                ssn.emit(event("pipeline", task=task.key, node=op.node.name, job=job_id, queue=queue,
                               **ssn.choice_fields(task)))
            else:
                ssn.set_status(task, BINDING)
                ssn.emit(event("bind", task=task.key, node=op.node.name, job=job_id, queue=queue,
                               **ssn.choice_fields(task)))
        self.ops.clear()


def open_session(cluster: Cluster, scheduler_name: str = "volcano") -> Session:
    """The snapshot of `cluster` as Volcano's cache builds it (plugins are attached later by the framework)."""
    names: set[str] = set()
    for node in cluster.nodes:
        names.update(node.allocatable)
    for pod in cluster.pods:
        names.update(pod.request)
    for queue in cluster.queues:
        for quantities in (queue.capability, queue.deserved, queue.guarantee):
            names.update(quantities or {})
    for group in cluster.pod_groups:
        names.update(group.min_resources or {})
    dims = res.dimensions(names)
    ssn = Session(dims)
    ssn.namespaces = cluster.namespaces
    for node in sorted(cluster.nodes, key=lambda n: n.name):
        if not node.ready or node.name in ssn.node_map:
            continue
        alloc = res.from_milli(node.allocatable, dims)
        info = NodeInfo(node.name, node, alloc, list(alloc), res.zero(len(dims)), res.zero(len(dims)))
        ssn.nodes.append(info)
        ssn.node_map[node.name] = info
        res.iadd(ssn.total, alloc)
    for queue in cluster.queues:
        ssn.queues.setdefault(queue.name, QueueInfo(queue.name, queue))
    if DEFAULT_QUEUE not in ssn.queues and any(g.queue == DEFAULT_QUEUE for g in cluster.pod_groups):
        ssn.queues[DEFAULT_QUEUE] = QueueInfo(DEFAULT_QUEUE, Queue(DEFAULT_QUEUE))
        ssn.notes.append(ASSUMED_DEFAULT_QUEUE)
    classes = {c.name: c.value for c in cluster.priority_classes}
    default_value, default_name = 0, ""
    for pc in cluster.priority_classes:
        if pc.global_default:
            default_value, default_name = pc.value, pc.name
    groups: dict[tuple[str, str], JobInfo] = {}
    for group in cluster.pod_groups:
        if (group.namespace, group.name) in groups:
            continue
        name = group.priority_class_name
        if name in classes:
            priority, source = classes[name], f"PodGroup class {name}"
        elif default_name:
            priority = default_value
            source = f"globalDefault class {default_name}" + (f"; class {name} undefined" if name else "")
        else:
            priority, source = 0, f"class {name} undefined" if name else "no class"
        min_res = res.from_milli(group.min_resources, dims) if group.min_resources is not None else None
        job = JobInfo(
            uid=group.uid,
            pod_group=group,
            queue=group.queue,
            priority=priority,
            priority_source=source,
            min_available=group.min_member,
            phase=group.phase,
            allocated=res.zero(len(dims)),
            min_resources=min_res,
            task_min=dict(group.min_task_member),
            task_min_total=sum(group.min_task_member.values()),
        )
        groups[(group.namespace, group.name)] = job
    seen: set[str] = set()
    for pod in cluster.pods:
        if pod.key in seen:
            continue
        seen.add(pod.key)
        status = task_status(pod)
        ours = pod.scheduler_name == scheduler_name
        if not ours and not (pod.node_name and status not in (SUCCEEDED, FAILED)):
            continue
        priority, source = 1, "default 1"
        if pod.priority is not None:
            priority, source = pod.priority, "spec.priority"
        if pod.task_priority_annotation is not None:
            priority, source = pod.task_priority_annotation, "volcano.sh/task-priority"
        vec = res.from_milli(pod.request, dims)
        task = TaskInfo(
            uid=pod.uid,
            namespace=pod.namespace,
            name=pod.name,
            pod=pod,
            resreq=vec,
            priority=priority,
            priority_source=source,
            status=status,
            node="",
            best_effort=res.is_empty(vec),
            index=_name_index(pod.name),
        )
        owner = groups.get((pod.namespace, pod.group)) if ours and pod.group else None
        if owner is not None:
            task.job = owner
            owner.tasks.append(task)
            owner.track(task, None, status)
            if status in ALLOCATED_STATUSES:
                res.iadd(owner.allocated, vec)
        placed = ssn.node_map.get(pod.node_name) if pod.node_name else None
        if placed is not None and status not in (SUCCEEDED, FAILED):
            ssn.node_add(placed, task)
    for job in sorted(groups.values(), key=lambda j: j.uid):
        if job.queue not in ssn.queues:
            ssn.notes.append(f"job {job.uid}: its queue {job.queue!r} does not exist; Volcano ignores the job")
            for task in job.tasks:  # Volcano's snapshot leaves the job out; its pods still hold their nodes
                task.job = None
                task.outside = f"its job {job.uid} is not in the session (queue {job.queue!r} does not exist)"
            continue
        ssn.jobs[job.uid] = job
    return ssn


def phase_at_close(job: JobInfo, unschedulable: bool) -> str:
    """The PodGroup phase closeSession writes (JobUpdater -> jobStatus -> getPodGroupPhase): Unknown when the job
    has running tasks and this session marked it Unschedulable; else Running once minMember tasks are scheduled
    (running, bound, failed or succeeded), Completed if all of those have completed; else the phase it has now if
    that is Inqueue (enqueue or allocate may have set it in this session), Pending otherwise."""
    if unschedulable and job.counts.get(RUNNING, 0):
        return POD_GROUP_UNKNOWN
    scheduled = job.count(*SCHEDULED_STATUSES)
    if scheduled >= job.pod_group.min_member:
        return POD_GROUP_COMPLETED if scheduled == job.count(*COMPLETED_STATUSES) else POD_GROUP_RUNNING
    return POD_GROUP_INQUEUE if job.phase == POD_GROUP_INQUEUE else POD_GROUP_PENDING


def close_session(ssn: Session) -> dict[str, str]:
    """closeSession's job updates: every job's PodGroup phase at the end of the session, by job ID (the plugins'
    OnSessionClose must have run: gang's sets the Unschedulable condition this reads)."""
    return {uid: phase_at_close(job, uid in ssn.unschedulable) for uid, job in ssn.jobs.items()}


def inqueue_of(job: JobInfo, n: int) -> res.Vec | None:
    """What a job holds in `inqueue` at session open: an Inqueue job its minResources; a Running one with enough
    allocated tasks the part of its minResources not yet allocated."""
    if job.min_resources is None:
        return None
    if job.phase == POD_GROUP_INQUEUE:
        return list(job.min_resources)
    allocated_tasks = job.count(*ALLOCATED_STATUSES)
    if job.phase == POD_GROUP_RUNNING and allocated_tasks >= job.min_available:
        return res.exceeded_part(job.min_resources, job.allocated)
    return None
