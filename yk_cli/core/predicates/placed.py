"""An incremental index of the pods placed so far, kept for the Filter plugins that read other pods.

kube-scheduler's NodePorts, PodTopologySpread and InterPodAffinity compute, in PreFilter, counts over every pod of
the snapshot. A dry run places pods one by one, so PlacedPods keeps those counts current instead:

- host ports in use per node (NodePorts);
- for every spread constraint checked so far (namespace, selector, topology key and which nodes are eligible
  domains), the matching pods per domain and the global minimum (PodTopologySpread);
- for every set of required affinity terms checked so far, the pods that match all of them per topology pair, and
  for every required anti-affinity term checked so far, the matching pods per domain (InterPodAffinity, the
  incoming pod's own terms);
- the required anti-affinity terms of the placed pods, each with the domains where pods carrying it run
  (InterPodAffinity, symmetry).

The constraints are registered lazily: the first pod that asks for one pays a scan over the distinct pod specs per
node; add and remove then update every registered count, O(registered keys) each, independent of the number of
pods placed.

matchLabelKeys / mismatchLabelKeys are read as merged into the label selectors already (decode.py does it as
kube-apiserver does at pod creation); the keys themselves are not read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    HONOR,
    HostPort,
    Labels,
    LabelSelector,
    Namespace,
    NodeFacts,
    PodAffinityTerm,
    PodSpec,
)
from yk_cli.core.predicates.node_plugins import label_selector_matches, matches_node_affinity, untolerated_taint

BIND_ALL = "0.0.0.0"
"""The host IP that conflicts with every address (an empty hostIP means it too)."""
MAX_INT32 = 2**31 - 1
"""kube-scheduler's global minimum of a spread constraint without any eligible domain (math.MaxInt32)."""

_K = TypeVar("_K")

PortKey = tuple[str, str, int]
"""(host IP, protocol, port), sanitized as HostPortInfo does: "" -> 0.0.0.0, "" -> TCP."""


def _selector_empty(selector: LabelSelector | None) -> bool:
    return selector is not None and not selector.match_labels and not selector.match_expressions


# --- Terms ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """A required (anti-)affinity term resolved in its owner's namespace (fwk.AffinityTerm).

    A pod matches when its namespace is in `namespaces` or its namespace's labels match `namespace_selector`, and its
    labels match `selector`. The incoming pod's terms have a non-empty namespaceSelector already resolved into
    `namespaces` (kube-scheduler's mergeAffinityTermNamespacesIfNotEmpty); placed pods' terms keep theirs, read
    against the incoming pod's namespace labels.
    """

    topology_key: str
    selector: LabelSelector | None
    namespaces: frozenset[str]
    namespace_selector: LabelSelector | None

    def matches(self, namespace: str, labels: Labels, namespace_labels: Labels) -> bool:
        """fwk.AffinityTerm.Matches."""
        if namespace not in self.namespaces and not label_selector_matches(self.namespace_selector, namespace_labels):
            return False
        return label_selector_matches(self.selector, labels)


def _term(term: PodAffinityTerm, namespace: str) -> Term:
    selector = term.label_selector
    if not term.namespaces and term.namespace_selector is None:
        names = frozenset((namespace,))
    else:
        names = frozenset(term.namespaces)
    return Term(term.topology_key, selector, names, term.namespace_selector)


def _sanitized(port: HostPort) -> PortKey:
    return (port.host_ip or BIND_ALL, port.protocol or "TCP", port.port)


# --- Per pod spec --------------------------------------------------------------------------------------------------


class PodInfo:
    """What the index reads of one pod spec, computed once per distinct spec."""

    __slots__ = ("anti_terms", "incoming", "matched", "namespace", "ports", "spec")

    def __init__(self, spec: PodSpec) -> None:
        self.spec = spec
        self.namespace = spec.namespace
        self.anti_terms: tuple[Term, ...] = tuple(_term(t, spec.namespace) for t in spec.pod_anti_affinity)
        """Its required anti-affinity terms as a placed pod (namespaceSelector kept)."""
        self.ports: tuple[PortKey, ...] = tuple(_sanitized(p) for p in spec.host_ports if p.port > 0)
        self.matched: dict[int, bool] = {}
        """Whether the pod matches each registered count (by its id)."""
        self.incoming: Incoming | None = None
        """Its own constraints resolved against the namespaces (set by PlacedPods.incoming)."""


@dataclass(frozen=True, slots=True)
class SpreadKey:
    """What a spread constraint counts: pods of `namespace` matching `selector`, per value of `topology_key`, over
    the nodes `eligible` names (by the keys every DoNotSchedule constraint of the pod needs, and the inclusion
    policies)."""

    namespace: str
    selector: LabelSelector | None
    topology_key: str
    eligible: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class SpreadAsk:
    """One DoNotSchedule constraint of the incoming pod."""

    key: SpreadKey
    keys: tuple[str, ...]
    """The topology keys of all the pod's DoNotSchedule constraints (an eligible node has every one)."""
    max_skew: int
    min_domains: int
    self_match: int


@dataclass(frozen=True, slots=True)
class Incoming:
    """An incoming pod's own Filter inputs, resolved once per pod spec."""

    ports: tuple[PortKey, ...]
    spread: tuple[SpreadAsk, ...]
    affinity: tuple[Term, ...]
    self_affinity: bool
    """Whether the pod matches all of its own affinity terms (the first pod of a group)."""
    anti_affinity: tuple[Term, ...]
    namespace_labels: Labels
    """Its namespace's labels (none when the namespace is not known), read by placed pods' namespaceSelectors."""


# --- Registered counts ---------------------------------------------------------------------------------------------


def hit(info: PodInfo, ident: int, entry: AffinityCounts | TermCounts | SpreadCounts) -> bool:
    """Whether the pod counts for the entry, computed once per (pod spec, entry)."""
    ok = info.matched.get(ident)
    if ok is None:
        ok = info.matched[ident] = entry.matches(info)
    return ok


class AffinityCounts:
    """topologyToMatchedTermCount of a set of required affinity terms: per (topology key, value), how many placed
    pods match every term, counted once per term whose key the pod's node has. Zero entries are removed."""

    __slots__ = ("counts", "id", "terms")

    def __init__(self, ident: int, terms: tuple[Term, ...]) -> None:
        self.id = ident
        self.terms = terms
        self.counts: dict[tuple[str, str], int] = {}

    def matches(self, info: PodInfo) -> bool:
        return all(t.matches(info.namespace, info.spec.labels, ()) for t in self.terms)

    def update(self, labels: Mapping[str, str], delta: int, counts: dict[tuple[str, str], int]) -> None:
        for t in self.terms:
            value = labels.get(t.topology_key)
            if value is not None:
                pair = (t.topology_key, value)
                n = counts.get(pair, 0) + delta
                if n:
                    counts[pair] = n
                else:
                    counts.pop(pair, None)


class TermCounts:
    """Per domain value of the term's topology key, how many placed pods match the term (zero entries removed)."""

    __slots__ = ("counts", "id", "term")

    def __init__(self, ident: int, term: Term) -> None:
        self.id = ident
        self.term = term
        self.counts: dict[str, int] = {}

    def matches(self, info: PodInfo) -> bool:
        return self.term.matches(info.namespace, info.spec.labels, ())


class SpreadCounts:
    """TpValueToMatchNum of one spread key: every eligible domain (zeros kept), with how many domains hold each
    count, so the global minimum stays exact under +-1 updates."""

    __slots__ = ("at", "counts", "id", "key", "minimum", "node_value")

    def __init__(self, ident: int, key: SpreadKey, node_value: dict[str, str]) -> None:
        self.id = ident
        self.key = key
        self.node_value = node_value
        """Eligible node -> its domain value."""
        self.counts: dict[str, int] = dict.fromkeys(node_value.values(), 0)
        self.at: dict[int, int] = {0: len(self.counts)} if self.counts else {}
        self.minimum = 0 if self.counts else MAX_INT32

    def matches(self, info: PodInfo) -> bool:
        return info.namespace == self.key.namespace and label_selector_matches(self.key.selector, info.spec.labels)

    def bump(self, value: str, delta: int) -> None:
        old = self.counts[value]
        cur = old + delta
        self.counts[value] = cur
        at = self.at
        left = at[old] - 1
        if left:
            at[old] = left
        else:
            del at[old]
        at[cur] = at.get(cur, 0) + 1
        if cur < self.minimum:
            self.minimum = cur
        elif old == self.minimum and not left:
            self.minimum = min(at)


# --- The index -----------------------------------------------------------------------------------------------------


class PlacedPods:
    """The pods placed on nodes so far, with the counts the pod-dependent Filter plugins read.

    add/remove cost O(registered counts + the pod's ports and anti-affinity terms); a count is registered the first
    time a pod that needs it is checked (one scan over the distinct pod specs of every node).
    """

    def __init__(self, nodes: Sequence[NodeFacts], namespaces: Sequence[Namespace] = ()) -> None:
        self.nodes: dict[str, NodeFacts] = {n.name: n for n in nodes}
        self.node_labels: dict[str, dict[str, str]] = {n.name: dict(n.labels) for n in nodes}
        self.namespace_labels: dict[str, Labels] = {ns.name: ns.labels for ns in namespaces}
        self._pods: dict[str, dict[PodInfo, int]] = {n.name: {} for n in nodes}
        self.ports: dict[str, dict[PortKey, int]] = {n.name: {} for n in nodes}
        """Host ports in use per node, by (IP, protocol, port)."""
        self.ports_any_ip: dict[str, dict[tuple[str, int], int]] = {n.name: {} for n in nodes}
        """Host ports in use per node, by (protocol, port) whatever the IP."""
        self.existing_anti: dict[Term, dict[str, int]] = {}
        """Placed pods' required anti-affinity terms: per term, the domains (its topology key's values on the nodes
        of the pods carrying it) with how many such pods."""
        self._existing_matching: dict[tuple[str, Labels], tuple[Term, ...]] = {}
        self._affinity: dict[tuple[Term, ...], AffinityCounts] = {}
        self._anti: dict[Term, TermCounts] = {}
        self._spread: dict[SpreadKey, SpreadCounts] = {}
        self._by_id: dict[int, tuple[PodSpec, PodInfo]] = {}
        self._by_spec: dict[PodSpec, PodInfo] = {}
        self._ids = 0

    # -- pods --

    def info(self, spec: PodSpec) -> PodInfo:
        """The per-spec facts (one PodInfo per distinct spec value)."""
        hit = self._by_id.get(id(spec))
        if hit is not None and hit[0] is spec:
            return hit[1]
        info = self._by_spec.get(spec)
        if info is None:
            info = self._by_spec[spec] = PodInfo(spec)
        self._by_id[id(spec)] = (spec, info)
        return info

    def pods_on(self, node: str) -> Iterator[tuple[PodSpec, int]]:
        """The distinct pod specs placed on a node, with how many pods of each."""
        for info, n in self._pods[node].items():
            yield info.spec, n

    def __len__(self) -> int:
        return sum(sum(p.values()) for p in self._pods.values())

    def add(self, pod: PodSpec, node: str) -> None:
        """Place one pod on a node (a node given to the constructor)."""
        if node not in self._pods:
            raise KeyError(f"unknown node {node!r}")
        info = self.info(pod)
        on = self._pods[node]
        on[info] = on.get(info, 0) + 1
        self._update(info, node, 1)

    def remove(self, pod: PodSpec, node: str) -> None:
        """Take one pod placed by add off its node."""
        info = self.info(pod)
        on = self._pods.get(node)
        n = on.get(info, 0) if on is not None else 0
        if on is None or not n:
            raise KeyError(f"no such pod placed on {node!r}")
        if n == 1:
            del on[info]
        else:
            on[info] = n - 1
        self._update(info, node, -1)

    def _update(self, info: PodInfo, node: str, delta: int) -> None:
        if info.ports:
            used, any_ip = self.ports[node], self.ports_any_ip[node]
            for key in info.ports:
                _bump(used, key, delta)
                _bump(any_ip, key[1:], delta)
        labels = self.node_labels[node]
        for term in info.anti_terms:
            value = labels.get(term.topology_key)
            if value is None:
                continue
            domains = self.existing_anti.get(term)
            if domains is None:
                domains = self.existing_anti[term] = {}
                self._existing_matching.clear()
            _bump(domains, value, delta)
        for aff in self._affinity.values():
            if hit(info, aff.id, aff):
                aff.update(labels, delta, aff.counts)
        for anti in self._anti.values():
            if hit(info, anti.id, anti):
                value = labels.get(anti.term.topology_key)
                if value is not None:
                    _bump(anti.counts, value, delta)
        for spread in self._spread.values():
            value = spread.node_value.get(node)
            if value is None:
                continue
            if hit(info, spread.id, spread):
                spread.bump(value, delta)

    def _placed(self) -> Iterator[tuple[str, PodInfo, int]]:
        for node, on in self._pods.items():
            for info, n in on.items():
                yield node, info, n

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    # -- registered counts (lazily) --

    def affinity_counts(self, terms: tuple[Term, ...]) -> AffinityCounts:
        entry = self._affinity.get(terms)
        if entry is None:
            entry = AffinityCounts(self._next_id(), terms)
            for node, info, n in self._placed():
                if hit(info, entry.id, entry):
                    entry.update(self.node_labels[node], n, entry.counts)
            self._affinity[terms] = entry
        return entry

    def anti_counts(self, term: Term) -> TermCounts:
        entry = self._anti.get(term)
        if entry is None:
            entry = TermCounts(self._next_id(), term)
            for node, info, n in self._placed():
                value = self.node_labels[node].get(term.topology_key)
                if value is not None and hit(info, entry.id, entry):
                    _bump(entry.counts, value, n)
            self._anti[term] = entry
        return entry

    def spread_counts(self, key: SpreadKey, pod: PodSpec, keys: tuple[str, ...]) -> SpreadCounts:
        entry = self._spread.get(key)
        if entry is None:
            node_value: dict[str, str] = {}
            honor_affinity, honor_taints = key.eligible[1] is not None, key.eligible[2] is not None
            for name, facts in self.nodes.items():
                labels = self.node_labels[name]
                if any(k not in labels for k in keys):
                    continue
                if honor_affinity and not matches_node_affinity(pod, facts):
                    continue
                if honor_taints and untolerated_taint(pod.tolerations, facts.taints) is not None:
                    continue
                node_value[name] = labels[key.topology_key]
            entry = SpreadCounts(self._next_id(), key, node_value)
            for node, info, n in self._placed():
                value = node_value.get(node)
                if value is not None and hit(info, entry.id, entry):
                    entry.bump(value, n)
            self._spread[key] = entry
        return entry

    def existing_matching(self, info: PodInfo, namespace_labels: Labels) -> tuple[Term, ...]:
        """The placed pods' anti-affinity terms that the pod matches (whatever their domains' counts)."""
        cache_key = (info.namespace, info.spec.labels)
        hit = self._existing_matching.get(cache_key)
        if hit is None:
            hit = self._existing_matching[cache_key] = tuple(
                t for t in self.existing_anti if t.matches(info.namespace, info.spec.labels, namespace_labels)
            )
        return hit

    # -- the incoming pod --

    def incoming(self, info: PodInfo) -> Incoming:
        """The pod's own constraints, resolved once (its namespaceSelectors against the namespaces given)."""
        if info.incoming is not None:
            return info.incoming
        spec = info.spec
        ns_labels = self.namespace_labels.get(spec.namespace, ())
        hard = tuple(c for c in spec.topology_spread if c.when_unsatisfiable == DO_NOT_SCHEDULE)
        keys = tuple(sorted({c.topology_key for c in hard}))
        asks = []
        for c in hard:
            affinity_part = (
                (spec.node_selector, spec.required_node_affinity) if c.node_affinity_policy == HONOR else None
            )
            taints_part = spec.tolerations if c.node_taints_policy == HONOR else None
            selector = c.label_selector
            key = SpreadKey(spec.namespace, selector, c.topology_key, (keys, affinity_part, taints_part))
            min_domains = c.min_domains if c.min_domains is not None else 1
            asks.append(
                SpreadAsk(key, keys, c.max_skew, min_domains, int(label_selector_matches(selector, info.spec.labels)))
            )
        affinity = tuple(self._resolved(_term(t, spec.namespace)) for t in spec.pod_affinity)
        self_affinity = bool(affinity) and all(t.matches(info.namespace, info.spec.labels, ()) for t in affinity)
        anti = tuple(self._resolved(_term(t, spec.namespace)) for t in spec.pod_anti_affinity)
        info.incoming = Incoming(info.ports, tuple(asks), affinity, self_affinity, anti, ns_labels)
        return info.incoming

    def _resolved(self, term: Term) -> Term:
        """A non-empty namespaceSelector of the incoming pod's term turned into namespace names."""
        sel = term.namespace_selector
        if sel is None or _selector_empty(sel):
            return term
        names = {name for name, labels in self.namespace_labels.items() if label_selector_matches(sel, labels)}
        return Term(term.topology_key, term.selector, term.namespaces | names, None)


def _bump(counts: dict[_K, int], key: _K, delta: int) -> None:
    n = counts.get(key, 0) + delta
    if n:
        counts[key] = n
    else:
        counts.pop(key, None)
