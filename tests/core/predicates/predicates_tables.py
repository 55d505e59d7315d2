"""Builders that read like kube-scheduler's test tables (st.MakePod(), st.MakeNode()), for the pod-dependent Filter
plugin tests (test_predicates_ports/interpod/spread): PodSpec and NodeFacts from keyword arguments, and a runner that
places the existing pods and asks pod_failure per node, the way the Go tests run PreFilter then Filter on a snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    DOES_NOT_EXIST,
    EXISTS,
    HONOR,
    IGNORE,
    IN,
    NO_SCHEDULE,
    NOT_IN,
    UNSCHEDULABLE_TAINT,
    Failure,
    HostPort,
    LabelSelector,
    Namespace,
    NodeFacts,
    NodeSelectorTerm,
    PodAffinityTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    labels_of,
)
from yk_cli.core.predicates.placed import PlacedPods
from yk_cli.core.predicates.pod_plugins import pod_failure, prepare

__all__ = [
    "DOES_NOT_EXIST",
    "DO_NOT_SCHEDULE",
    "EXISTS",
    "HONOR",
    "IGNORE",
    "IN",
    "NOT_IN",
    "Placed",
    "affinity_term",
    "exists",
    "failures",
    "index",
    "node",
    "pod",
    "ports",
    "selector",
    "spread",
]

Placed = tuple[PodSpec, str]
"""An existing pod and the node it runs on (st.MakePod()...Node(name))."""

UNSCHEDULABLE_TAINTS = (Taint(UNSCHEDULABLE_TAINT, "", NO_SCHEDULE),)
"""filtering_test.go's `taints`: the node.kubernetes.io/unschedulable NoSchedule taint."""


def selector(
    labels: Mapping[str, str] | None = None, expressions: Iterable[tuple[str, str, Sequence[str]]] = ()
) -> LabelSelector:
    """metav1.LabelSelector from matchLabels and (key, operator, values) matchExpressions."""
    return LabelSelector(labels_of(dict(labels or {})), tuple(Requirement(k, op, tuple(v)) for k, op, v in expressions))


def exists(key: str) -> LabelSelector:
    """st.MakeLabelSelector().Exists(key)."""
    return selector(expressions=[(key, EXISTS, ())])


def affinity_term(
    key: str,
    op: str,
    values: Sequence[str],
    topology_key: str,
    namespaces: Sequence[str] = (),
    namespace_selector: LabelSelector | None = None,
) -> PodAffinityTerm:
    """st's PodAffinityIn/NotIn/Exists term: labelSelector {key op values} on topologyKey."""
    return PodAffinityTerm(
        topology_key, selector(expressions=[(key, op, values)]), tuple(namespaces), namespace_selector
    )


def spread(
    max_skew: int,
    topology_key: str,
    when: str = DO_NOT_SCHEDULE,
    label_selector: LabelSelector | None = None,
    min_domains: int | None = None,
    node_affinity_policy: str | None = None,
    node_taints_policy: str | None = None,
) -> TopologySpreadConstraint:
    """st.MakePod().SpreadConstraint(maxSkew, tpKey, mode, selector, minDomains, nodeAffinityPolicy,
    nodeTaintsPolicy, matchLabelKeys) (matchLabelKeys are merged by the decoder, not here)."""
    return TopologySpreadConstraint(
        max_skew,
        topology_key,
        when,
        label_selector,
        min_domains,
        node_affinity_policy or HONOR,
        node_taints_policy or IGNORE,
    )


def ports(*specs: str) -> tuple[HostPort, ...]:
    """node_ports_test.go newPod's "PROTOCOL/HOSTIP/HOSTPORT" strings."""
    out = []
    for s in specs:
        protocol, host_ip, port = s.split("/")
        out.append(HostPort(int(port), protocol, host_ip))
    return tuple(out)


def pod(
    *,
    namespace: str = "",
    labels: Mapping[str, str] | None = None,
    node_selector: Mapping[str, str] | None = None,
    node_affinity: Iterable[tuple[str, str, Sequence[str]]] | None = None,
    tolerations: Sequence[Toleration] = (),
    pod_affinity: Sequence[PodAffinityTerm] = (),
    pod_anti_affinity: Sequence[PodAffinityTerm] = (),
    topology_spread: Sequence[TopologySpreadConstraint] = (),
    host_ports: Sequence[HostPort] = (),
) -> PodSpec:
    """st.MakePod(): namespace "" as there; node_affinity is one required term's matchExpressions
    (NodeAffinityIn / NodeAffinityNotIn)."""
    terms = None
    if node_affinity is not None:
        terms = (NodeSelectorTerm(tuple(Requirement(k, op, tuple(v)) for k, op, v in node_affinity)),)
    return PodSpec(
        namespace=namespace,
        labels=labels_of(dict(labels or {})),
        node_selector=labels_of(dict(node_selector or {})),
        required_node_affinity=terms,
        tolerations=tuple(tolerations),
        pod_affinity=tuple(pod_affinity),
        pod_anti_affinity=tuple(pod_anti_affinity),
        topology_spread=tuple(topology_spread),
        host_ports=tuple(host_ports),
    )


def node(name: str, labels: Mapping[str, str] | None = None, taints: Sequence[Taint] = ()) -> NodeFacts:
    """st.MakeNode().Name(name).Label(...).Taints(...)."""
    return NodeFacts(name, labels_of(dict(labels or {})), tuple(taints))


def index(nodes: Sequence[NodeFacts], existing: Sequence[Placed], namespaces: Sequence[Namespace] = ()) -> PlacedPods:
    """cache.NewSnapshot(pods, nodes): a pod on a node that is not in `nodes` (or on no node) is not in the
    snapshot's node list, so no plugin counts it."""
    placed = PlacedPods(nodes, namespaces)
    names = {n.name for n in nodes}
    for p, on in existing:
        if on in names:
            placed.add(p, on)
    return placed


def failures(
    incoming: PodSpec,
    nodes: Sequence[NodeFacts],
    existing: Sequence[Placed] = (),
    namespaces: Sequence[Namespace] = (),
) -> list[Failure | None]:
    """Filter verdict per node (one PreFilter for the pod, then Filter on each node), checked against the one-node
    form pod_failure."""
    placed = index(nodes, existing, namespaces)
    state = prepare(incoming, placed)
    got = [state.failure(n) for n in nodes]
    assert got == [pod_failure(incoming, n, placed) for n in nodes]
    return got
