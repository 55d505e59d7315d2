"""The objects of a Volcano cluster snapshot as the scheduler's cache sees them (pkg/scheduler/api)."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.predicates.model import NO_POD_SPEC, Namespace, PodSpec, Taint
from yk_cli.core.yamldoc import Node as YamlNode

Quantities = dict[str, int]
"""Resource name -> Kubernetes milli-value (`quantity.MilliValue()`): cpu "1" -> 1000, memory "1Gi" -> 2**30 * 1000.

Kept exact and in one unit for every resource; Volcano's own units (cpu milli, memory bytes, scalars milli) are
derived from it where the scheduler computes (see resource.py)."""

DEFAULT_QUEUE = "default"
"""The queue of a PodGroup without spec.queue (and the scheduler's --default-queue)."""
ROOT_QUEUE = "root"
"""The parent of every queue without spec.parent in the capacity hierarchy."""
QUEUE_OPEN = "Open"

POD_GROUP_PENDING = "Pending"
POD_GROUP_INQUEUE = "Inqueue"
POD_GROUP_RUNNING = "Running"
POD_GROUP_UNKNOWN = "Unknown"
POD_GROUP_COMPLETED = "Completed"

DEFAULT_TASK_PRIORITY = 1
"""NewTaskInfo's starting priority when the pod has no spec.priority."""


@dataclass(frozen=True, slots=True)
class Queue:
    """A `scheduling.volcano.sh/v1beta1` Queue; its scheduler ID is its name."""

    name: str
    created: float | None = None
    """metadata.creationTimestamp as Unix seconds; None when absent (then it ties with every other absent one)."""
    weight: int = 1
    priority: int = 0
    capability: Quantities | None = None
    deserved: Quantities | None = None
    guarantee: Quantities | None = None
    reclaimable: bool = True
    parent: str | None = None
    state: str = QUEUE_OPEN
    hierarchy: str | None = None
    """Annotation volcano.sh/hierarchy (HDRF path, e.g. root/eng/team-a)."""
    hierarchy_weights: str | None = None
    """Annotation volcano.sh/hierarchy-weights (e.g. 1/2/1)."""
    priority_class_name: str = ""
    """spec.priorityClassName: the 2023 design proposal's field. Volcano never reads it (it is not in the Queue API);
    only `--proposal` does."""


@dataclass(frozen=True, slots=True)
class PodGroup:
    """A `scheduling.volcano.sh/v1beta1` PodGroup: one Volcano job; its ID is `<namespace>/<name>`."""

    namespace: str
    name: str
    created: float | None = None
    queue: str = DEFAULT_QUEUE
    priority_class_name: str = ""
    min_member: int = 0
    min_task_member: dict[str, int] = field(default_factory=dict)
    min_resources: Quantities | None = None
    phase: str = POD_GROUP_PENDING
    derived_from: str = ""
    """`batch.volcano.sh/v1alpha1 Job <ns>/<name>` when built from a vcjob rather than read from a PodGroup."""

    @property
    def uid(self) -> str:
        """The job ID the scheduler sorts by last: `<namespace>/<name>`."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class Pod:
    """A pod as a Volcano task: its request, priority inputs, preemption settings, placement and phase."""

    namespace: str
    name: str
    uid: str
    created: float | None = None
    group: str = ""
    """Annotation scheduling.k8s.io/group-name: the PodGroup (same namespace) the pod belongs to."""
    task_spec: str = ""
    """Annotation volcano.sh/task-spec: the task name inside its job (min_task_member keys)."""
    request: Quantities = field(default_factory=dict)
    """Containers + sidecars, the init-container maximum, overhead, plus `pods: 1` (Kubernetes milli-values)."""
    init_request: Quantities = field(default_factory=dict)
    priority: int | None = None
    """spec.priority; None when unset (the task priority then starts at DEFAULT_TASK_PRIORITY)."""
    task_priority_annotation: int | None = None
    """A parseable volcano.sh/task-priority annotation, which overrides spec.priority."""
    preemptable: bool = True
    """volcano.sh/preemptable, annotation first, then label; absent = true, unparseable = false."""
    priority_class_name: str = ""
    preemption_policy: str = ""
    """spec.preemptionPolicy: "" (PreemptLowerPriority) or Never."""
    node_name: str = ""
    phase: str = "Pending"
    scheduler_name: str = "volcano"
    queue_annotation: str = ""
    """Annotation scheduling.volcano.sh/queue-name: the queue of the PodGroup made for a pod without one."""
    deleting: bool = False
    """metadata.deletionTimestamp is set: the pod is Releasing."""
    spec: PodSpec = NO_POD_SPEC
    """What the node predicates read of the pod: its namespace and labels (which other pods' affinity and spread
    count), nodeSelector, tolerations, affinity, topology spread constraints and host ports (core/predicates). The
    default, a pod without constraints, is read in the pod's own namespace."""

    @property
    def key(self) -> str:
        """How yk names a task in events: `<namespace>/<name>`."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class PriorityClass:
    """A `scheduling.k8s.io/v1` PriorityClass."""

    name: str
    value: int
    global_default: bool = False


@dataclass(frozen=True, slots=True)
class Node:
    """A node's allocatable resources, whether the scheduler may use it, and what the node predicates read."""

    name: str
    allocatable: Quantities
    ready: bool = True
    unschedulable: bool = False
    labels: dict[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    """spec.taints (NoSchedule and NoExecute ones filter; a cordoned node's node.kubernetes.io/unschedulable taint is
    one of them when the dump has it)."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """Everything one Volcano scheduling session reads, in dump order."""

    queues: tuple[Queue, ...] = ()
    pod_groups: tuple[PodGroup, ...] = ()
    pods: tuple[Pod, ...] = ()
    priority_classes: tuple[PriorityClass, ...] = ()
    nodes: tuple[Node, ...] = ()
    namespaces: tuple[Namespace, ...] = ()
    """The dump's Namespaces with their labels (pod affinity terms' namespaceSelector reads them)."""


@dataclass(frozen=True, slots=True)
class LoadedObject:
    """One object of the input as read: kind, identity, its YAML node (for positions) and the file it is in."""

    kind: str
    api_version: str
    namespace: str
    name: str
    node: YamlNode
    file: str
