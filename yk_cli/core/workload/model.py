"""What is in the cluster and what is asked of it: nodes, priority classes, applications, asks, allocations."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Path
from yk_cli.core.predicates.model import Labels, Namespace, PodSpec, Taint
from yk_cli.core.resources import Resource, add_into

NANOS = 1_000_000_000
SYSTEM_CLUSTER_CRITICAL = 2_000_000_000
SYSTEM_NODE_CRITICAL = 2_000_001_000


@dataclass(frozen=True, slots=True)
class PriorityClass:
    """A Kubernetes PriorityClass (scheduling.k8s.io/v1) with YuniKorn's allow-preemption annotation."""

    name: str
    value: int
    preemption_policy: str = "PreemptLowerPriority"
    """PreemptLowerPriority (the Kubernetes default) or Never."""
    allow_preemption: bool = True
    """yunikorn.apache.org/allow-preemption: may pods of this class be preempted."""
    global_default: bool = False
    path: Path = ()


BUILTIN_PRIORITY_CLASSES = (
    PriorityClass("system-cluster-critical", SYSTEM_CLUSTER_CRITICAL),
    PriorityClass("system-node-critical", SYSTEM_NODE_CRITICAL),
)


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """A node: its capacity and what non-YuniKorn pods already occupy."""

    name: str
    capacity: Resource
    schedulable: bool = True
    occupied: Resource = field(default_factory=dict)
    """Resources used by pods YuniKorn does not schedule (foreign allocations)."""
    path: Path = ()
    labels: Labels = ()
    """metadata.labels (node predicates: nodeSelector, node affinity, topology keys)."""
    taints: tuple[Taint, ...] = ()
    """spec.taints."""
    foreign_pods: tuple[PodSpec, ...] = ()
    """Namespace, labels and node constraints of the pods other schedulers run here (their resources are in
    occupied): other pods' affinity and spread constraints count them, their host ports are taken."""


@dataclass(slots=True)
class Ask:
    """A pending request (a pod waiting to be scheduled).

    Treat it as immutable. It is not a frozen dataclass only because a workload holds hundreds of thousands and a
    frozen dataclass takes twice as long to create.
    """

    name: str
    application: str
    priority: int
    resources: Resource
    submit_time: int
    """Nanoseconds from the start of the run when the ask arrives (may be negative: it already waited)."""
    seq: int
    """File order, the final tie-breaker between equal submit times."""
    duration: int | None = None
    """Nanoseconds the allocation runs once placed; None runs forever."""
    allow_preemption: bool = True
    """allowPreemptSelf: may this pod be preempted once running."""
    preempt_other: bool = True
    """allowPreemptOther: may this ask trigger preemption (preemptionPolicy is not Never)."""
    required_node: str = ""
    """A DaemonSet-style ask that must run on this node."""
    originator: bool = False
    priority_class: str = ""
    path: Path = ()
    priority_source: str = ""
    """Where the priority came from: priority (explicit), priorityClass, globalDefault, or '' (none: 0)."""
    restart_on_preemption: bool = False
    """ReplicaSet-like: once preempted, a fresh ask of the same shape is submitted at once (resolved: the
    application's default already applied)."""
    task_group: str = ""
    """Gang scheduling: the task group this pod belongs to (yunikorn.apache.org/task-group-name), '' for none."""
    placeholder: bool = False
    """A gang placeholder the dry run created for a task group (never in a workload file)."""
    pod: PodSpec | None = None
    """Namespace, labels and node constraints (selectors, tolerations, affinity, spread, host ports); None: a pod in
    the default namespace without any."""
    observed_start: int | None = None
    """observedStartTime: nanoseconds from the start of the run when the recorded scheduler started this pod (an
    imported trace, `yk import`); None when not recorded. The dry run ignores it; metrics compare it with the start
    yk predicts."""


@dataclass(frozen=True, slots=True)
class TaskGroup:
    """A gang's task group (yunikorn.apache.org/task-groups): minMember placeholders of minResource each."""

    name: str
    min_member: int
    min_resource: Resource
    path: Path = ()
    pod: PodSpec | None = None
    """The placeholders' node constraints (the task group's nodeSelector, tolerations, affinity, spread)."""


SOFT, HARD = "Soft", "Hard"
"""gangSchedulingStyle: on placeholder timeout Soft resumes the application as a plain one, Hard fails it."""


@dataclass(frozen=True, slots=True)
class Allocation:
    """A pod already running on a node when the run starts."""

    name: str
    application: str
    node: str
    priority: int
    resources: Resource
    start_time: int = 0
    """Nanoseconds from the start of the run (usually negative; default 0, the start of the run): creation order
    for 'newest first'."""
    seq: int = 0
    """File order (dump order for a cluster): the creation order between equal start times."""
    duration: int | None = None
    """Nanoseconds from the start of the run until it completes; None runs forever."""
    allow_preemption: bool = True
    originator: bool = False
    required_node: bool = False
    priority_class: str = ""
    path: Path = ()
    restart_on_preemption: bool = False
    """ReplicaSet-like: once preempted, a fresh ask of the same shape is submitted at once (resolved)."""
    pod: PodSpec | None = None
    """Namespace, labels and node constraints of the running pod (other pods' affinity and spread count it)."""


@dataclass(frozen=True, slots=True)
class Application:
    """An application: its queue (or None to be placed by the placement rules), asks and running allocations."""

    id: str
    queue: str | None
    submit_time: int
    seq: int
    user: str = ""
    groups: tuple[str, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)
    asks: tuple[Ask, ...] = ()
    allocations: tuple[Allocation, ...] = ()
    path: Path = ()
    task_groups: tuple[TaskGroup, ...] = ()
    """Gang scheduling: the application's task groups (none: not a gang)."""
    gang_style: str = SOFT
    """gangSchedulingStyle: Soft (the default) or Hard."""
    placeholder_timeout: int | None = None
    """placeholderTimeoutInSeconds in nanoseconds; None: YuniKorn's default, 15 minutes."""
    placed: bool = False
    """The scheduler has already placed it in `queue` (a state dump): the placement rules and ACLs are not run
    again; a queue the config lacks is created from its parent's child template, as the core did."""


@dataclass(frozen=True, slots=True)
class Workload:
    """Everything a dry run needs besides the queue config."""

    partition: str = "default"
    priority_classes: tuple[PriorityClass, ...] = ()
    nodes: tuple[NodeSpec, ...] = ()
    applications: tuple[Application, ...] = ()
    gang_pods: tuple[str, ...] = ()
    """Placeholder pods (namespace/name) already in a cluster dump: the dry run treats them as ordinary pods."""
    namespaces: tuple[Namespace, ...] = ()
    """Namespaces with labels (pod affinity's namespaceSelector reads them)."""
    assumptions: tuple[str, ...] = ()
    """What the inputs could not say and yk assumed, each a sentence (a YuniKorn state dump's: pod runtimes,
    preemption opt-outs, gang settings): every report states them with what yk does not model."""

    def asks(self) -> list[Ask]:
        """Every ask in file order."""
        return [ask for app in self.applications for ask in app.asks]


@dataclass(slots=True)
class QueueUsage:
    """What a queue and its descendants hold: applications, pending asks and running allocations."""

    applications: int = 0
    pending: int = 0
    """Number of pending asks."""
    pending_resource: Resource = field(default_factory=dict)
    allocations: int = 0
    allocated_resource: Resource = field(default_factory=dict)


def queue_usage(placed: Iterable[tuple[Application, str]]) -> dict[str, QueueUsage]:
    """Usage per queue path (a leaf and every ancestor) from applications placed in leaf queues."""
    usage: dict[str, QueueUsage] = {}
    for app, leaf_path in placed:
        pending: Resource = {}
        for ask in app.asks:
            add_into(pending, ask.resources)
        allocated: Resource = {}
        for alloc in app.allocations:
            add_into(allocated, alloc.resources)
        parts = leaf_path.split(".")
        for depth in range(len(parts), 0, -1):
            entry = usage.setdefault(".".join(parts[:depth]), QueueUsage())
            entry.applications += 1
            entry.pending += len(app.asks)
            entry.allocations += len(app.allocations)
            add_into(entry.pending_resource, pending)
            add_into(entry.allocated_resource, allocated)
    return usage
