"""What a pod asks of a node and what a node offers, in Kubernetes' own terms (core/v1 field names, as values).

Everything is frozen and hashable: pods with equal constraints share one PodSpec value, and the engine groups asks
by it. Label maps are sorted tuples of (key, value) pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

Labels = tuple[tuple[str, str], ...]
"""A label map as sorted (key, value) pairs."""

NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE = "NoSchedule", "PreferNoSchedule", "NoExecute"
"""Taint effects."""
EQUAL, EXISTS = "Equal", "Exists"
"""Toleration operators."""
IN, NOT_IN, DOES_NOT_EXIST, GT, LT = "In", "NotIn", "DoesNotExist", "Gt", "Lt"
"""Selector operators (EXISTS is shared with tolerations)."""
DO_NOT_SCHEDULE, SCHEDULE_ANYWAY = "DoNotSchedule", "ScheduleAnyway"
"""TopologySpreadConstraint.whenUnsatisfiable."""
HONOR, IGNORE = "Honor", "Ignore"
"""TopologySpreadConstraint.nodeAffinityPolicy / nodeTaintsPolicy."""
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"
"""The taint a cordoned node carries; a pod tolerating it (NoSchedule) passes NodeUnschedulable."""


def labels_of(mapping: dict[str, str]) -> Labels:
    """A label map as the sorted pairs the model keeps."""
    return tuple(sorted(mapping.items()))


@dataclass(frozen=True, slots=True)
class Taint:
    """spec.taints[] of a node."""

    key: str
    value: str = ""
    effect: str = NO_SCHEDULE


@dataclass(frozen=True, slots=True)
class Toleration:
    """spec.tolerations[] of a pod (operator "" means Equal)."""

    key: str = ""
    operator: str = EQUAL
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class Requirement:
    """A matchExpressions / matchFields entry (NodeSelectorRequirement, or LabelSelectorRequirement)."""

    key: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    """One of requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: its parts are ANDed."""

    match_expressions: tuple[Requirement, ...] = ()
    match_fields: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """metav1.LabelSelector: matchLabels AND matchExpressions (an empty selector matches everything)."""

    match_labels: Labels = ()
    match_expressions: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class PodAffinityTerm:
    """A required pod (anti-)affinity term.

    label_selector None matches no pod. namespaces empty and namespace_selector None: the pod's own namespace;
    namespace_selector empty (LabelSelector()): every namespace.
    """

    topology_key: str
    label_selector: LabelSelector | None = None
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    """spec.topologySpreadConstraints[]."""

    max_skew: int
    topology_key: str
    when_unsatisfiable: str = DO_NOT_SCHEDULE
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str = HONOR
    node_taints_policy: str = IGNORE
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HostPort:
    """A container port with a hostPort (init containers included)."""

    port: int
    protocol: str = "TCP"
    host_ip: str = ""
    """"" and "0.0.0.0" both mean every address."""


@dataclass(frozen=True, slots=True)
class PodSpec:
    """Everything about a pod that node predicates read, besides its resource requests.

    Pods that carry none of the constraints still have a namespace and labels: other pods' affinity and spread
    constraints count them.
    """

    namespace: str = "default"
    labels: Labels = ()
    node_selector: Labels = ()
    required_node_affinity: tuple[NodeSelectorTerm, ...] | None = None
    """The required node affinity terms (ORed); None when the pod has none."""
    tolerations: tuple[Toleration, ...] = ()
    preferred_node_affinity: tuple[tuple[int, NodeSelectorTerm], ...] = ()
    """preferredDuringSchedulingIgnoredDuringExecution of the node affinity: (weight, preference) pairs (only
    Volcano's nodeorder scores them)."""
    pod_affinity: tuple[PodAffinityTerm, ...] = ()
    """Required pod affinity terms (ANDed)."""
    pod_anti_affinity: tuple[PodAffinityTerm, ...] = ()
    """Required pod anti-affinity terms."""
    topology_spread: tuple[TopologySpreadConstraint, ...] = ()
    """Every constraint (ScheduleAnyway ones included: only DoNotSchedule ones filter)."""
    host_ports: tuple[HostPort, ...] = ()
    node_name: str = ""
    """spec.nodeName (a pending pod that names its node)."""
    soft: tuple[str, ...] = ()
    """Soft constraints the pod carries, which YuniKorn never scores (e.g. "preferred node affinity")."""
    unmodelled: tuple[str, ...] = ()
    """What the pod carries that yk does not evaluate (e.g. "VolumeBinding (persistentVolumeClaim data)")."""

    @property
    def filters(self) -> bool:
        """Whether any Filter plugin could reject a node for this pod (tolerations alone cannot)."""
        return bool(
            self.node_selector
            or self.required_node_affinity is not None
            or self.pod_affinity
            or self.pod_anti_affinity
            or any(c.when_unsatisfiable == DO_NOT_SCHEDULE for c in self.topology_spread)
            or self.host_ports
            or self.node_name
        )

    @property
    def dynamic(self) -> bool:
        """Whether the verdict on a node can depend on the pods placed so far (affinity, spread, host ports)."""
        return bool(
            self.pod_affinity
            or self.pod_anti_affinity
            or any(c.when_unsatisfiable == DO_NOT_SCHEDULE for c in self.topology_spread)
            or self.host_ports
        )


NO_POD_SPEC = PodSpec()
"""A pod in the default namespace without labels or constraints."""


@dataclass(frozen=True, slots=True)
class NodeFacts:
    """What node predicates read of a node besides its resources."""

    name: str
    labels: Labels = ()
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False


@dataclass(frozen=True, slots=True)
class Namespace:
    """A namespace and its labels (namespaceSelector of pod affinity terms reads them)."""

    name: str
    labels: Labels = ()


@dataclass(frozen=True, slots=True)
class Failure:
    """A Filter plugin's verdict against a node: the plugin and kube-scheduler's reason text."""

    plugin: str
    reason: str
    """Exactly as kube-scheduler words it (kubectl describe pod), e.g. "node(s) didn't match Pod's node
    affinity/selector"."""
