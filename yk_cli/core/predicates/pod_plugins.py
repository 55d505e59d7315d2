"""The Filter plugins that read the pods already placed: NodePorts, PodTopologySpread and InterPodAffinity.

Semantics as kube-scheduler 1.36 (pkg/scheduler/framework/plugins/{nodeports,podtopologyspread,interpodaffinity}),
with the feature gates at their 1.36 defaults (NodeInclusionPolicyInPodTopologySpread and MinDomains GA;
InterPodAffinityHostnameFastPath, 1.37 alpha, off: hostname-scoped terms are counted per topology pair like any
other). The three run in kube-scheduler's default Filter order (NodeResourcesFit and the volume plugins sit between
NodePorts and PodTopologySpread: the caller checks resources); the first failure is the verdict.

Use: `state = prepare(pod, placed)` once per pod (its PreFilter: a few dict lookups once the pod's constraints are
registered with the index), then `state.failure(node)` per candidate node (dict lookups per port, spread constraint
and affinity term). A state reads the index as it was when prepared: prepare again after add/remove.
`pod_failure(pod, node, placed)` is the one-node form.
"""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.predicates.model import Failure, NodeFacts, PodSpec
from yk_cli.core.predicates.placed import BIND_ALL, PlacedPods, PodInfo, PortKey, hit

NODE_PORTS = "NodePorts"
POD_TOPOLOGY_SPREAD = "PodTopologySpread"
INTER_POD_AFFINITY = "InterPodAffinity"
"""Plugin names (pkg/scheduler/framework/plugins/names/names.go)."""

ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports"
"""nodeports/node_ports.go ErrReason."""
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
"""podtopologyspread/plugin.go ErrReasonConstraintsNotMatch (a skew above maxSkew)."""
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"
"""podtopologyspread/plugin.go ErrReasonNodeLabelNotMatch (the node lacks a constraint's topology key)."""
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
"""interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch."""
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"
"""interpodaffinity/filtering.go ErrReasonAntiAffinityRulesNotMatch."""
ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
"""interpodaffinity/filtering.go ErrReasonExistingAntiAffinityRulesNotMatch."""

_PORTS_FAILURE = Failure(NODE_PORTS, ERR_REASON_NODE_PORTS)
_SPREAD_FAILURE = Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_CONSTRAINTS_NOT_MATCH)
_SPREAD_LABEL_FAILURE = Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_NODE_LABEL_NOT_MATCH)
_AFFINITY_FAILURE = Failure(INTER_POD_AFFINITY, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
_ANTI_AFFINITY_FAILURE = Failure(INTER_POD_AFFINITY, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
_EXISTING_ANTI_AFFINITY_FAILURE = Failure(INTER_POD_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)

_NO_DELTA: dict[str, int] = {}
_NO_PAIRS: dict[tuple[str, str], int] = {}
_NOTHING_GONE: list[tuple[PodInfo, str]] = []
"""Shared empty values (never written to)."""

_Spread = tuple[str, int, int, int, dict[str, int], dict[str, int]]
"""(topology key, maxSkew, self match, global minimum, live counts per domain, removed pods' delta)."""
_Domains = tuple[str, dict[str, int], dict[str, int]]
"""(topology key, live counts per domain, removed pods' delta)."""


class PodState:
    """One pod's PreFilter result against a PlacedPods: its Filter verdict on any node via failure()."""

    __slots__ = (
        "_affinity",
        "_affinity_counts",
        "_affinity_delta",
        "_anti",
        "_existing",
        "_first_of_group",
        "_placed",
        "_ports",
        "_removed_any_ip",
        "_removed_ports",
        "_spread",
        "pod",
    )

    def __init__(self, pod: PodSpec, placed: PlacedPods, removed: Sequence[tuple[PodSpec, str]]) -> None:
        self.pod = pod
        self._placed = placed
        info = placed.info(pod)
        own = info.incoming
        if own is None:
            own = placed.incoming(info)
        counts = info.registered
        if counts is None:
            counts = placed.registered(info)
        gone = [(placed.info(p), node) for p, node in removed] if removed else _NOTHING_GONE
        labels_of = placed.node_labels

        # NodePorts
        self._ports = own.ports
        self._removed_ports = _NO_REMOVED_PORTS
        self._removed_any_ip = _NO_REMOVED_ANY_IP
        if own.ports and gone:
            self._removed_ports, self._removed_any_ip = {}, {}
            for r, node in gone:
                for key in r.ports:
                    exact = self._removed_ports.setdefault(node, {})
                    exact[key] = exact.get(key, 0) + 1
                    any_ip = self._removed_any_ip.setdefault(node, {})
                    any_ip[key[1:]] = any_ip.get(key[1:], 0) + 1

        # PodTopologySpread
        self._spread: tuple[_Spread, ...] = ()
        if own.spread:
            spread: list[_Spread] = []
            for ask, entry in zip(own.spread, counts.spread, strict=True):
                delta: dict[str, int] = {}
                for r, node in gone:
                    value = entry.node_value.get(node)
                    if value is not None and hit(r, entry.id, entry):
                        delta[value] = delta.get(value, 0) - 1
                minimum = entry.minimum
                for value, d in delta.items():
                    minimum = min(minimum, entry.counts[value] + d)
                if len(entry.counts) < ask.min_domains:
                    minimum = 0  # fewer eligible domains than minDomains: the global minimum is 0
                spread.append(
                    (ask.key.topology_key, ask.max_skew, ask.self_match, minimum, entry.counts, delta or _NO_DELTA)
                )
            self._spread = tuple(spread)

        # InterPodAffinity: the pod's required affinity
        self._affinity = tuple(t.topology_key for t in own.affinity) if own.affinity else ()
        self._affinity_counts = _NO_PAIRS
        self._affinity_delta = _NO_PAIRS
        self._first_of_group = False
        aff = counts.affinity
        if aff is not None:
            self._affinity_counts = aff.counts
            affinity_delta: dict[tuple[str, str], int] = {}
            for r, node in gone:
                if hit(r, aff.id, aff):
                    aff.update(labels_of[node], -1, affinity_delta)
            if affinity_delta:
                self._affinity_delta = affinity_delta
            positive = len(aff.counts) - sum(
                1 for pair, d in affinity_delta.items() if aff.counts.get(pair, 0) + d <= 0
            )
            # No pod anywhere matches all the terms, and the pod matches them itself: the first of its group.
            self._first_of_group = positive == 0 and own.self_affinity

        # InterPodAffinity: the pod's required anti-affinity
        self._anti: tuple[_Domains, ...] = ()
        if own.anti_affinity:
            anti: list[_Domains] = []
            for term, entry_a in zip(own.anti_affinity, counts.anti, strict=True):
                delta = {}
                for r, node in gone:
                    value = labels_of[node].get(term.topology_key)
                    if value is not None and hit(r, entry_a.id, entry_a):
                        delta[value] = delta.get(value, 0) - 1
                anti.append((term.topology_key, entry_a.counts, delta or _NO_DELTA))
            self._anti = tuple(anti)

        # InterPodAffinity: the placed pods' required anti-affinity against this pod (symmetry)
        self._existing: tuple[_Domains, ...] = ()
        matching = placed.existing_matching(info, own.namespace_labels)
        if matching:
            existing: list[_Domains] = []
            for term in matching:
                delta = {}
                for r, node in gone:
                    if term in r.anti_terms:
                        value = labels_of[node].get(term.topology_key)
                        if value is not None:
                            delta[value] = delta.get(value, 0) - r.anti_terms.count(term)
                existing.append((term.topology_key, placed.existing_anti[term], delta or _NO_DELTA))
            self._existing = tuple(existing)

    def failure(self, node: NodeFacts) -> Failure | None:
        """The first of NodePorts, PodTopologySpread and InterPodAffinity that rejects the node, or None."""
        name = node.name
        labels = self._placed.node_labels.get(name)
        if labels is None:
            labels = dict(node.labels)

        if self._ports:
            exact = self._placed.ports.get(name, _NO_PORTS)
            any_ip = self._placed.ports_any_ip.get(name, _NO_ANY_IP)
            gone_exact = self._removed_ports.get(name, _NO_PORTS)
            gone_any = self._removed_any_ip.get(name, _NO_ANY_IP)
            for ip, protocol, port in self._ports:
                if ip == BIND_ALL:
                    pp = (protocol, port)
                    if any_ip.get(pp, 0) - gone_any.get(pp, 0) > 0:
                        return _PORTS_FAILURE
                else:
                    key = (ip, protocol, port)
                    wild = (BIND_ALL, protocol, port)
                    if (
                        exact.get(key, 0) - gone_exact.get(key, 0) > 0
                        or exact.get(wild, 0) - gone_exact.get(wild, 0) > 0
                    ):
                        return _PORTS_FAILURE

        for topology_key, max_skew, self_match, minimum, counts, delta in self._spread:
            value = labels.get(topology_key)
            if value is None:
                return _SPREAD_LABEL_FAILURE
            matching = counts.get(value, 0) + delta.get(value, 0)
            if matching + self_match - minimum > max_skew:
                return _SPREAD_FAILURE

        if self._affinity:
            pods_exist = True
            for topology_key in self._affinity:
                value = labels.get(topology_key)
                if value is None:
                    return _AFFINITY_FAILURE  # every topology key must be on the node, the first pod's too
                pair = (topology_key, value)
                if self._affinity_counts.get(pair, 0) + self._affinity_delta.get(pair, 0) <= 0:
                    pods_exist = False
            if not pods_exist and not self._first_of_group:
                return _AFFINITY_FAILURE

        for topology_key, counts, delta in self._anti:
            value = labels.get(topology_key)
            if value is not None and counts.get(value, 0) + delta.get(value, 0) > 0:
                return _ANTI_AFFINITY_FAILURE

        for topology_key, counts, delta in self._existing:
            value = labels.get(topology_key)
            if value is not None and counts.get(value, 0) + delta.get(value, 0) > 0:
                return _EXISTING_ANTI_AFFINITY_FAILURE
        return None


_NO_PORTS: dict[PortKey, int] = {}
_NO_ANY_IP: dict[tuple[str, int], int] = {}
_NO_REMOVED_PORTS: dict[str, dict[PortKey, int]] = {}
_NO_REMOVED_ANY_IP: dict[str, dict[tuple[str, int], int]] = {}


def prepare(pod: PodSpec, placed: PlacedPods, removed: Sequence[tuple[PodSpec, str]] = ()) -> PodState:
    """The pod's PreFilter against the placed pods, `removed` (pod, node) pairs treated as gone (preemption victims:
    cost O(len(removed)) on top); then state.failure(node) per node."""
    return PodState(pod, placed, removed)


def pod_failure(
    pod: PodSpec, node: NodeFacts, placed: PlacedPods, *, removed: Sequence[tuple[PodSpec, str]] = ()
) -> Failure | None:
    """NodePorts, PodTopologySpread, then InterPodAffinity on one node: the first failure, or None."""
    return PodState(pod, placed, removed).failure(node)
