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

The constraints are registered lazily, the first time a pod that asks for one is checked. Both the registered
counts and the placed pods' anti-affinity terms sit in an inverted index (_Index) by a label pair every pod they
match must carry -- a matchLabels pair, or a key and the values of an `In` expression -- and the namespace(s) it
must be in (or any namespace, for a namespaceSelector); those whose selectors require no pair (empty, only NotIn /
Exists / DoesNotExist) are checked for every pod of their namespace(s). A pod spec, once placed, keeps the list of
registered counts it matches (its labels looked up in the index, then the exact selector test); add and remove
update just those, O(counts the pod matches). A new count visits only the placed pod specs that carry its pair (the
live specs per label pair are kept), or every live spec when it has none.

matchLabelKeys / mismatchLabelKeys are read as merged into the label selectors already (decode.py does it as
kube-apiserver does at pod creation); the keys themselves are not read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    HONOR,
    IN,
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
_T = TypeVar("_T")

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


# --- The inverted index ----------------------------------------------------------------------------------------------

ANY_NAMESPACE = None
"""The namespace part of an index key whose entries match pods of any namespace (a namespaceSelector)."""

_Pair = tuple[str, tuple[str, ...]]
"""A label key and values one of which every matching pod carries under that key."""


@dataclass(frozen=True, slots=True)
class Needs:
    """What a pod must have to match an entry, as the index files it: a namespace in `namespaces` (ANY_NAMESPACE:
    any), and the label `pair` (None: no label pair is required, the entry is checked for every pod of those
    namespaces). No namespaces: the entry matches no pod."""

    namespaces: tuple[str | None, ...]
    pair: _Pair | None


NEVER = Needs((), None)
"""An entry no pod matches (a nil selector, an empty namespace list)."""


def _pairs(selector: LabelSelector | None) -> list[_Pair] | None:
    """The label pairs a selector requires of every pod it matches, each a candidate index key: its matchLabels and
    its `In` expressions (their values de-duplicated). None: the selector matches nothing."""
    if selector is None:
        return None
    out: list[_Pair] = [(k, (v,)) for k, v in selector.match_labels]
    for r in selector.match_expressions:
        if r.operator == IN and r.values:
            out.append((r.key, tuple(dict.fromkeys(r.values))))
    return out


def _term_namespaces(term: Term) -> tuple[str | None, ...]:
    if term.namespace_selector is not None:
        return (ANY_NAMESPACE,)
    return tuple(sorted(term.namespaces))


class _Index(Generic[_T]):
    """Entries by (namespace or ANY_NAMESPACE, label key, label value), and the entries that require no label pair
    by namespace. An entry sits under one key only per (namespace, value): a pod, with one namespace and one value
    per label key, reaches each entry at most once."""

    __slots__ = ("always", "by_pair")

    def __init__(self) -> None:
        self.by_pair: dict[tuple[str | None, str, str], list[_T]] = {}
        self.always: dict[str | None, list[_T]] = {}

    def add(self, entry: _T, needs: Needs) -> None:
        pair = needs.pair
        for namespace in needs.namespaces:
            if pair is None:
                self.always.setdefault(namespace, []).append(entry)
            else:
                key, values = pair
                for value in values:
                    self.by_pair.setdefault((namespace, key, value), []).append(entry)

    def candidates(self, namespace: str, labels: Iterable[tuple[str, str]]) -> list[_T]:
        """The entries a pod of the namespace with these labels (one value per key) may match: a superset."""
        out: list[_T] = []
        by_pair = self.by_pair
        if by_pair:
            for k, v in labels:
                found = by_pair.get((namespace, k, v))
                if found:
                    out.extend(found)
                found = by_pair.get((ANY_NAMESPACE, k, v))
                if found:
                    out.extend(found)
        always = self.always
        if always:
            found = always.get(namespace)
            if found:
                out.extend(found)
            found = always.get(ANY_NAMESPACE)
            if found:
                out.extend(found)
        return out


# --- Per pod spec --------------------------------------------------------------------------------------------------


class PodInfo:
    """What the index reads of one pod spec, computed once per distinct spec."""

    __slots__ = (
        "anti_terms",
        "existing",
        "existing_version",
        "hit_affinity",
        "hit_anti",
        "hit_spread",
        "incoming",
        "labels",
        "live",
        "matched",
        "namespace",
        "nodes",
        "ports",
        "registered",
        "spec",
    )

    def __init__(self, spec: PodSpec) -> None:
        self.spec = spec
        self.namespace = spec.namespace
        self.labels: tuple[tuple[str, str], ...] = tuple(dict(spec.labels).items())
        """Its labels, one value per key (the last, as label_selector_matches reads them)."""
        self.anti_terms: tuple[Term, ...] = tuple(_term(t, spec.namespace) for t in spec.pod_anti_affinity)
        """Its required anti-affinity terms as a placed pod (namespaceSelector kept)."""
        self.ports: tuple[PortKey, ...] = tuple(_sanitized(p) for p in spec.host_ports if p.port > 0)
        self.matched: dict[int, bool] = {}
        """Whether the pod matches each registered count it was tested against (by the count's id)."""
        self.nodes: dict[str, int] = {}
        """How many pods of this spec are placed on each node (no zeros)."""
        self.live = False
        """Whether pods of it are placed: then hit_* hold the registered counts it matches."""
        self.hit_affinity: list[AffinityCounts] = []
        self.hit_anti: list[TermCounts] = []
        self.hit_spread: list[SpreadCounts] = []
        self.incoming: Incoming | None = None
        """Its own constraints resolved against the namespaces (set by PlacedPods.incoming)."""
        self.registered: Registered | None = None
        """The counts its own constraints read (set by PlacedPods.registered)."""
        self.existing: tuple[Term, ...] = ()
        self.existing_version = -1
        """The placed pods' anti-affinity terms it matches, as of PlacedPods' existing_version."""


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

    def needs(self, carriers: Mapping[tuple[str, str], Mapping[PodInfo, None]]) -> Needs:
        """Every term must match: the narrowest namespace set and the rarest label pair of any term."""
        namespaces: tuple[str | None, ...] = (ANY_NAMESPACE,)
        pairs: list[_Pair] = []
        for t in self.terms:
            found = _pairs(t.selector)
            if found is None:
                return NEVER
            pairs.extend(found)
            if t.namespace_selector is None:
                if not t.namespaces:
                    return NEVER
                if namespaces == (ANY_NAMESPACE,) or len(t.namespaces) < len(namespaces):
                    namespaces = tuple(sorted(t.namespaces))
        return Needs(namespaces, _rarest(pairs, carriers))

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

    def needs(self, carriers: Mapping[tuple[str, str], Mapping[PodInfo, None]]) -> Needs:
        return _term_needs(self.term, carriers)


class SpreadCounts:
    """TpValueToMatchNum of one spread key: every eligible domain (zeros kept), with how many domains hold each
    count, so the global minimum stays exact under +-1 updates."""

    __slots__ = ("at", "counts", "id", "key", "minimum", "node_value")

    def __init__(self, ident: int, key: SpreadKey, node_value: dict[str, str], domains: Iterable[str]) -> None:
        self.id = ident
        self.key = key
        self.node_value = node_value
        """Eligible node -> its domain value (shared by the keys with the same eligible nodes: never changed)."""
        self.counts: dict[str, int] = dict.fromkeys(domains, 0)
        self.at: dict[int, int] = {0: len(self.counts)} if self.counts else {}
        self.minimum = 0 if self.counts else MAX_INT32

    def matches(self, info: PodInfo) -> bool:
        return info.namespace == self.key.namespace and label_selector_matches(self.key.selector, info.spec.labels)

    def needs(self, carriers: Mapping[tuple[str, str], Mapping[PodInfo, None]]) -> Needs:
        pairs = _pairs(self.key.selector)
        if pairs is None:
            return NEVER
        return Needs((self.key.namespace,), _rarest(pairs, carriers))

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


_Count = AffinityCounts | TermCounts | SpreadCounts


def _rarest(pairs: list[_Pair], carriers: Mapping[tuple[str, str], Mapping[PodInfo, None]]) -> _Pair | None:
    """The pair carried by the fewest live pod specs now (any would do: each is required), None if there is none."""
    best: _Pair | None = None
    fewest = 0
    for pair in pairs:
        key, values = pair
        n = sum(len(carriers.get((key, v), ())) for v in values)
        if best is None or n < fewest:
            best, fewest = pair, n
    return best


def _term_needs(term: Term, carriers: Mapping[tuple[str, str], Mapping[PodInfo, None]]) -> Needs:
    pairs = _pairs(term.selector)
    namespaces = _term_namespaces(term)
    if pairs is None or not namespaces:
        return NEVER
    return Needs(namespaces, _rarest(pairs, carriers))


@dataclass(frozen=True, slots=True)
class Registered:
    """The counts an incoming pod's own constraints read (in the order of Incoming's spread and anti_affinity)."""

    spread: tuple[SpreadCounts, ...]
    affinity: AffinityCounts | None
    anti: tuple[TermCounts, ...]


# --- The index -----------------------------------------------------------------------------------------------------


class PlacedPods:
    """The pods placed on nodes so far, with the counts the pod-dependent Filter plugins read.

    add/remove cost O(the registered counts the pod matches + its ports and anti-affinity terms); a count is
    registered the first time a pod that needs it is checked (a visit of the live pod specs carrying its label pair).
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
        self._existing_index: _Index[Term] = _Index()
        self._existing_version = 0
        self._affinity: dict[tuple[Term, ...], AffinityCounts] = {}
        self._anti: dict[Term, TermCounts] = {}
        self._spread: dict[SpreadKey, SpreadCounts] = {}
        self._eligible: dict[tuple[tuple[object, ...], str], tuple[dict[str, str], tuple[str, ...]]] = {}
        self._counts: _Index[_Count] = _Index()
        self._live: dict[PodInfo, None] = {}
        """The pod specs with pods placed."""
        self._carriers: dict[tuple[str, str], dict[PodInfo, None]] = {}
        """The live pod specs by each of their labels."""
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
        if not info.live:
            self._enliven(info)
        where = info.nodes
        where[node] = where.get(node, 0) + 1
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
        where = info.nodes
        left = where[node] - 1
        if left:
            where[node] = left
        else:
            del where[node]
            if not where:
                self._retire(info)

    def _enliven(self, info: PodInfo) -> None:
        """A spec's first pod placed: look up the registered counts it matches, file it by its labels."""
        info.live = True
        self._live[info] = None
        for pair in info.labels:
            self._carriers.setdefault(pair, {})[info] = None
        aff, anti, spread = info.hit_affinity, info.hit_anti, info.hit_spread
        for entry in self._counts.candidates(info.namespace, info.labels):
            if hit(info, entry.id, entry):
                if type(entry) is SpreadCounts:
                    spread.append(entry)
                elif type(entry) is TermCounts:
                    anti.append(entry)
                elif type(entry) is AffinityCounts:
                    aff.append(entry)

    def _retire(self, info: PodInfo) -> None:
        """A spec's last pod gone."""
        info.live = False
        del self._live[info]
        for pair in info.labels:
            carrying = self._carriers[pair]
            del carrying[info]
            if not carrying:
                del self._carriers[pair]
        info.hit_affinity, info.hit_anti, info.hit_spread = [], [], []

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
                self._existing_index.add(term, _term_needs(term, self._carriers))
                self._existing_version += 1
            _bump(domains, value, delta)
        for aff in info.hit_affinity:
            aff.update(labels, delta, aff.counts)
        for anti in info.hit_anti:
            value = labels.get(anti.term.topology_key)
            if value is not None:
                _bump(anti.counts, value, delta)
        for spread in info.hit_spread:
            value = spread.node_value.get(node)
            if value is not None:
                spread.bump(value, delta)

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    # -- registered counts (lazily) --

    def _register(self, entry: _Count) -> Iterator[PodInfo]:
        """File a new count in the index; the live pod specs it matches (each added to the spec's hit list)."""
        needs = entry.needs(self._carriers)
        if not needs.namespaces:
            return
        pair = needs.pair
        candidates: Iterable[PodInfo]
        if pair is None:
            candidates = list(self._live)
        else:
            key, values = pair
            candidates = [info for v in values for info in self._carriers.get((key, v), ())]
        self._counts.add(entry, needs)
        for info in candidates:
            if hit(info, entry.id, entry):
                if type(entry) is SpreadCounts:
                    info.hit_spread.append(entry)
                elif type(entry) is TermCounts:
                    info.hit_anti.append(entry)
                elif type(entry) is AffinityCounts:
                    info.hit_affinity.append(entry)
                yield info

    def affinity_counts(self, terms: tuple[Term, ...]) -> AffinityCounts:
        entry = self._affinity.get(terms)
        if entry is None:
            entry = AffinityCounts(self._next_id(), terms)
            node_labels = self.node_labels
            for info in self._register(entry):
                for node, n in info.nodes.items():
                    entry.update(node_labels[node], n, entry.counts)
            self._affinity[terms] = entry
        return entry

    def anti_counts(self, term: Term) -> TermCounts:
        entry = self._anti.get(term)
        if entry is None:
            entry = TermCounts(self._next_id(), term)
            node_labels = self.node_labels
            for info in self._register(entry):
                for node, n in info.nodes.items():
                    value = node_labels[node].get(term.topology_key)
                    if value is not None:
                        _bump(entry.counts, value, n)
            self._anti[term] = entry
        return entry

    def spread_counts(self, key: SpreadKey, pod: PodSpec, keys: tuple[str, ...]) -> SpreadCounts:
        entry = self._spread.get(key)
        if entry is None:
            node_value, domains = self._eligible_nodes(key, pod, keys)
            entry = SpreadCounts(self._next_id(), key, node_value, domains)
            for info in self._register(entry):
                for node, n in info.nodes.items():
                    value = node_value.get(node)
                    if value is not None:
                        entry.bump(value, n)
            self._spread[key] = entry
        return entry

    def _eligible_nodes(
        self, key: SpreadKey, pod: PodSpec, keys: tuple[str, ...]
    ) -> tuple[dict[str, str], tuple[str, ...]]:
        """The eligible nodes' domain values and the distinct domains, shared by the spread keys that differ only in
        namespace and selector (the nodes depend on the pod's node affinity and tolerations as `eligible` has them)."""
        cache_key = (key.eligible, key.topology_key)
        found = self._eligible.get(cache_key)
        if found is None:
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
            found = self._eligible[cache_key] = (node_value, tuple(dict.fromkeys(node_value.values())))
        return found

    def existing_matching(self, info: PodInfo, namespace_labels: Labels) -> tuple[Term, ...]:
        """The placed pods' anti-affinity terms that the pod matches (whatever their domains' counts)."""
        if info.existing_version != self._existing_version:
            info.existing = tuple(
                t
                for t in self._existing_index.candidates(info.namespace, info.labels)
                if t.matches(info.namespace, info.spec.labels, namespace_labels)
            )
            info.existing_version = self._existing_version
        return info.existing

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

    def registered(self, info: PodInfo) -> Registered:
        """The counts the pod's own constraints read, registering them the first time (once per pod spec)."""
        found = info.registered
        if found is None:
            own = self.incoming(info)
            found = info.registered = Registered(
                tuple(self.spread_counts(ask.key, info.spec, ask.keys) for ask in own.spread),
                self.affinity_counts(own.affinity) if own.affinity else None,
                tuple(self.anti_counts(term) for term in own.anti_affinity),
            )
        return found

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
