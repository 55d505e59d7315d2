"""PlacedPods is incremental: random add/remove sequences (checks interleaved, so counts register at different
moments), and preemption's `removed`, give the verdicts of a from-scratch rebuild and of a brute-force transcription
of kube-scheduler's PreFilter + Filter (nodeports, podtopologyspread and interpodaffinity, every pod scanned)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    DOES_NOT_EXIST,
    EXISTS,
    HONOR,
    IGNORE,
    IN,
    NO_SCHEDULE,
    NOT_IN,
    SCHEDULE_ANYWAY,
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
from yk_cli.core.predicates.node_plugins import label_selector_matches, matches_node_affinity, untolerated_taint
from yk_cli.core.predicates.placed import MAX_INT32, PlacedPods
from yk_cli.core.predicates.pod_plugins import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_NODE_LABEL_NOT_MATCH,
    ERR_REASON_NODE_PORTS,
    INTER_POD_AFFINITY,
    NODE_PORTS,
    POD_TOPOLOGY_SPREAD,
    prepare,
)

NODES = [
    NodeFacts("n1", labels_of({"zone": "z1", "host": "n1", "disk": "ssd"})),
    NodeFacts("n2", labels_of({"zone": "z1", "host": "n2"}), (Taint("dedicated", "gpu", NO_SCHEDULE),)),
    NodeFacts("n3", labels_of({"zone": "z2", "host": "n3", "disk": "ssd"})),
    NodeFacts("n4", labels_of({"zone": "z2", "host": "n4"})),
    NodeFacts("n5", labels_of({"host": "n5", "disk": "hdd"})),
]
NAMESPACES = [Namespace("a", labels_of({"team": "x"})), Namespace("b", labels_of({"team": "y"}))]
KEYS, TOPOLOGY = ("app", "tier", "role"), ("zone", "host", "disk")
VALUES = tuple(str(i) for i in range(1, 9))
"""Many distinct label values (every Deployment its own `app`), so that most selectors match few of the pods."""

values = st.sampled_from(VALUES)
label_maps = st.dictionaries(st.sampled_from(KEYS), values, max_size=3)
namespace_selectors = st.one_of(
    st.none(),
    st.just(LabelSelector()),
    st.just(LabelSelector(labels_of({"team": "x"}))),
    st.just(LabelSelector((), (Requirement("team", NOT_IN, ("x",)),))),
    st.just(LabelSelector((), (Requirement("team", IN, ("x", "y")),))),
)
host_ports = st.builds(
    HostPort, st.sampled_from((80, 443)), st.sampled_from(("TCP", "UDP")), st.sampled_from(("", "10.0.0.1"))
)


def selectors_over(pairs: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[LabelSelector | None]:
    """Nil, empty, matchLabels, matchExpressions (In and NotIn with one or several values, duplicates included,
    Exists, DoesNotExist, an In without values that does not parse) and both, naming the pairs drawn."""
    requirements = st.one_of(
        st.builds(
            lambda pair, more, op: Requirement(pair[0], op, (pair[1], *more)),
            pairs,
            st.lists(pairs.map(lambda pair: pair[1]) | values, max_size=2),
            st.sampled_from((IN, IN, NOT_IN)),
        ),
        st.builds(Requirement, st.sampled_from(KEYS), st.sampled_from((EXISTS, DOES_NOT_EXIST)), st.just(())),
        st.builds(Requirement, st.sampled_from(KEYS), st.just(IN), st.just(())),
    )
    match_labels = st.lists(pairs, max_size=2).map(lambda ps: labels_of(dict(ps)))
    return st.one_of(
        st.none(),
        st.just(LabelSelector()),
        st.builds(LabelSelector, match_labels),
        st.builds(LabelSelector, st.just(()), st.lists(requirements, min_size=1, max_size=2).map(tuple)),
        st.builds(LabelSelector, match_labels, st.lists(requirements, max_size=2).map(tuple)),
    )


def pod_specs(labels: dict[str, str], selectors: st.SearchStrategy[LabelSelector | None]) -> st.SearchStrategy[PodSpec]:
    terms = st.builds(
        PodAffinityTerm,
        st.sampled_from(TOPOLOGY),
        selectors,
        st.sampled_from(((), ("a",), ("b", "c"), ("a", "b"))),
        namespace_selectors,
    )
    constraints = st.builds(
        TopologySpreadConstraint,
        st.integers(1, 2),
        st.sampled_from(TOPOLOGY),
        st.sampled_from((DO_NOT_SCHEDULE, DO_NOT_SCHEDULE, SCHEDULE_ANYWAY)),
        selectors,
        st.sampled_from((None, 1, 3)),
        st.sampled_from((HONOR, IGNORE)),
        st.sampled_from((HONOR, IGNORE)),
    )
    return st.builds(
        PodSpec,
        namespace=st.sampled_from(("a", "b", "c")),
        labels=st.just(labels_of(labels)),
        node_selector=st.sampled_from(((), labels_of({"disk": "ssd"}))),
        required_node_affinity=st.sampled_from((None, (NodeSelectorTerm((Requirement("zone", IN, ("z2",)),)),))),
        tolerations=st.sampled_from(((), (Toleration("dedicated", EXISTS),))),
        pod_affinity=st.lists(terms, max_size=2).map(tuple),
        pod_anti_affinity=st.lists(terms, max_size=2).map(tuple),
        topology_spread=st.lists(constraints, max_size=2).map(tuple),
        host_ports=st.lists(host_ports, max_size=2).map(tuple),
    )


@st.composite
def pools(draw: st.DrawFn) -> list[PodSpec]:
    """1-8 pod specs whose selectors name, half the time, a label pair some pod of the pool carries (else any key
    and value), so that matches stay frequent among many distinct values."""
    label_sets = draw(st.lists(label_maps, min_size=1, max_size=8))
    carried = sorted({pair for labels in label_sets for pair in labels.items()})
    pairs = st.tuples(st.sampled_from(KEYS), values)
    if carried:
        pairs = st.sampled_from(carried) | pairs
    selectors = selectors_over(pairs)
    return [draw(pod_specs(labels, selectors)) for labels in label_sets]


# ---- the brute-force reference -------------------------------------------------------------------------------------


def _ports(p: PodSpec) -> set[tuple[str, str, int]]:
    return {(h.host_ip or "0.0.0.0", h.protocol or "TCP", h.port) for h in p.host_ports if h.port > 0}


def _ns_labels(namespace: str) -> tuple[tuple[str, str], ...]:
    return next((ns.labels for ns in NAMESPACES if ns.name == namespace), ())


def _term_matches(t: PodAffinityTerm, owner_namespace: str, target: PodSpec, incoming: bool) -> bool:
    """fwk.AffinityTerm.Matches; an incoming pod's non-empty namespaceSelector merged into its namespaces first."""
    names = set(t.namespaces) if t.namespaces or t.namespace_selector is not None else {owner_namespace}
    ns_sel = t.namespace_selector
    if incoming and ns_sel is not None and (ns_sel.match_labels or ns_sel.match_expressions):
        names |= {ns.name for ns in NAMESPACES if label_selector_matches(ns_sel, ns.labels)}
        ns_sel = None
    in_ns = target.namespace in names or label_selector_matches(ns_sel, _ns_labels(target.namespace))
    return in_ns and label_selector_matches(t.label_selector, target.labels)


def reference(pod: PodSpec, node: NodeFacts, placed: Sequence[tuple[PodSpec, str]]) -> Failure | None:
    labels = {n.name: dict(n.labels) for n in NODES}
    here = labels[node.name]
    used = set().union(*(_ports(p) for p, on in placed if on == node.name))
    for ip, proto, port in _ports(pod):
        if (ip == "0.0.0.0" and any(u[1:] == (proto, port) for u in used)) or (
            ip != "0.0.0.0" and ((ip, proto, port) in used or ("0.0.0.0", proto, port) in used)
        ):
            return Failure(NODE_PORTS, ERR_REASON_NODE_PORTS)

    hard = [c for c in pod.topology_spread if c.when_unsatisfiable == DO_NOT_SCHEDULE]
    keys = {c.topology_key for c in hard}
    per_constraint = []
    for c in hard:
        counts: dict[str, int] = {}
        for n in NODES:
            nl = labels[n.name]
            if not keys <= nl.keys():
                continue
            if c.node_affinity_policy == HONOR and not matches_node_affinity(pod, n):
                continue
            if c.node_taints_policy == HONOR and untolerated_taint(pod.tolerations, n.taints) is not None:
                continue
            matching = sum(
                1
                for p, on in placed
                if on == n.name and p.namespace == pod.namespace and label_selector_matches(c.label_selector, p.labels)
            )
            counts[nl[c.topology_key]] = counts.get(nl[c.topology_key], 0) + matching
        per_constraint.append(counts)
    for c, counts in zip(hard, per_constraint, strict=True):
        if c.topology_key not in here:
            return Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_NODE_LABEL_NOT_MATCH)
        minimum = min(counts.values()) if counts else 2**31 - 1
        if len(counts) < (c.min_domains or 1):
            minimum = 0
        self_match = int(label_selector_matches(c.label_selector, pod.labels))
        if counts.get(here[c.topology_key], 0) + self_match - minimum > c.max_skew:
            return Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_CONSTRAINTS_NOT_MATCH)

    affinity: Counter[tuple[str, str]] = Counter()
    anti: Counter[tuple[str, str]] = Counter()
    existing: Counter[tuple[str, str]] = Counter()
    for p, on in placed:
        nl = labels[on]
        if pod.pod_affinity and all(_term_matches(t, pod.namespace, p, True) for t in pod.pod_affinity):
            for t in pod.pod_affinity:
                if t.topology_key in nl:
                    affinity[(t.topology_key, nl[t.topology_key])] += 1
        for t in pod.pod_anti_affinity:
            if _term_matches(t, pod.namespace, p, True) and t.topology_key in nl:
                anti[(t.topology_key, nl[t.topology_key])] += 1
        for t in p.pod_anti_affinity:
            if _term_matches(t, p.namespace, pod, False) and t.topology_key in nl:
                existing[(t.topology_key, nl[t.topology_key])] += 1
    if pod.pod_affinity:
        exist = True
        for t in pod.pod_affinity:
            if t.topology_key not in here:
                return Failure(INTER_POD_AFFINITY, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
            if affinity[(t.topology_key, here[t.topology_key])] <= 0:
                exist = False
        own = all(_term_matches(t, pod.namespace, pod, True) for t in pod.pod_affinity)
        if not exist and not (not affinity and own):
            return Failure(INTER_POD_AFFINITY, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
    for t in pod.pod_anti_affinity:
        if t.topology_key in here and anti[(t.topology_key, here[t.topology_key])] > 0:
            return Failure(INTER_POD_AFFINITY, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
    if any(existing[(k, v)] > 0 for k, v in here.items()):
        return Failure(INTER_POD_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
    return None


# ---- the index's own counts, recounted ----------------------------------------------------------------------------


def assert_counts_exact(placed: PlacedPods, current: Sequence[tuple[PodSpec, str]]) -> None:
    """Every registered count, and the placed pods' anti-affinity domains, as a recount over the pods placed gives
    them (whether or not a verdict reads them), and the terms each pod spec matches."""
    node_labels = {n.name: dict(n.labels) for n in NODES}
    for spread in placed._spread.values():
        assert all(node_labels[name][spread.key.topology_key] == v for name, v in spread.node_value.items())
        want_spread = dict.fromkeys(spread.node_value.values(), 0)
        for p, on in current:
            if on in spread.node_value and spread.matches(placed.info(p)):
                want_spread[spread.node_value[on]] += 1
        assert spread.counts == want_spread
        assert spread.minimum == (min(want_spread.values()) if want_spread else MAX_INT32)
    for anti in placed._anti.values():
        want: Counter[str] = Counter()
        for p, on in current:
            value = node_labels[on].get(anti.term.topology_key)
            if value is not None and anti.matches(placed.info(p)):
                want[value] += 1
        assert anti.counts == dict(want)
    for aff in placed._affinity.values():
        want_pairs: dict[tuple[str, str], int] = {}
        for p, on in current:
            if aff.matches(placed.info(p)):
                aff.update(node_labels[on], 1, want_pairs)
        assert aff.counts == want_pairs
    for term, domains in placed.existing_anti.items():
        want = Counter()
        for p, on in current:
            value = node_labels[on].get(term.topology_key)
            if value is not None:
                want[value] += placed.info(p).anti_terms.count(term)
        assert domains == {v: n for v, n in want.items() if n}
    for p, _ in current:
        info = placed.info(p)
        ns_labels = _ns_labels(p.namespace)
        got = placed.existing_matching(info, ns_labels)
        assert sorted(map(repr, got)) == sorted(
            repr(t) for t in placed.existing_anti if t.matches(p.namespace, p.labels, ns_labels)
        )


# ---- the property --------------------------------------------------------------------------------------------------

operations = st.lists(
    st.tuples(
        st.sampled_from(("add", "add", "add", "remove", "evict", "check", "check")),
        st.integers(0, 7),
        st.sampled_from(NODES),
    ),
    max_size=40,
)


@settings(max_examples=300)
@given(pool=pools(), ops=operations, data=st.data())
def test_incremental_matches_rebuild_and_reference(
    pool: list[PodSpec], ops: list[tuple[str, int, NodeFacts]], data: st.DataObject
) -> None:
    placed = PlacedPods(NODES, NAMESPACES)
    current: list[tuple[PodSpec, str]] = []
    for op, i, n in ops:
        p = pool[i % len(pool)]
        if op == "add":
            placed.add(p, n.name)
            current.append((p, n.name))
        elif op == "remove" and current:
            gone = current.pop(i % len(current))
            placed.remove(*gone)
        elif op == "evict":  # every pod of the spec: the index forgets the spec until it is placed again
            for q, on in [pn for pn in current if pn[0] == p]:
                placed.remove(q, on)
            current = [pn for pn in current if pn[0] != p]
        else:
            state = prepare(p, placed)
            assert [state.failure(m) for m in NODES] == [reference(p, m, current) for m in NODES]
            assert_counts_exact(placed, current)

    incoming = data.draw(st.sampled_from(pool), label="incoming")
    rebuilt = PlacedPods(NODES, NAMESPACES)
    for p, on in current:
        rebuilt.add(p, on)
    want = [reference(incoming, m, current) for m in NODES]
    assert [prepare(incoming, placed).failure(m) for m in NODES] == want
    assert [prepare(incoming, rebuilt).failure(m) for m in NODES] == want
    assert_counts_exact(placed, current)
    assert_counts_exact(rebuilt, current)

    # preemption: pods treated as gone give the verdicts of the index without them
    if current:
        picks = data.draw(st.lists(st.integers(0, len(current) - 1), max_size=3, unique=True), label="removed")
        removed = [current[k] for k in picks]
        rest = [pn for k, pn in enumerate(current) if k not in picks]
        want = [reference(incoming, m, rest) for m in NODES]
        assert [prepare(incoming, placed, removed).failure(m) for m in NODES] == want
        assert [prepare(incoming, rebuilt, removed).failure(m) for m in NODES] == want


def test_a_new_anti_affinity_term_reaches_a_pod_checked_before() -> None:
    """The placed pods' terms an incoming pod matches are cached per (namespace, labels): a term first seen later
    must still reach it."""
    placed = PlacedPods(NODES, NAMESPACES)
    x = PodSpec(namespace="a", labels=labels_of({"app": "1"}))
    assert prepare(x, placed).failure(NODES[0]) is None
    hater = PodSpec(namespace="a", pod_anti_affinity=(PodAffinityTerm("zone", LabelSelector(labels_of({"app": "1"}))),))
    placed.add(hater, "n2")
    state = prepare(x, placed)
    assert [state.failure(n) for n in NODES] == [reference(x, n, [(hater, "n2")]) for n in NODES]
    assert state.failure(NODES[0]) == Failure(INTER_POD_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)


def test_spread_minimum_when_registered_over_several_pods_per_node() -> None:
    """A spread count registered after the pods are placed: 3 matching pods on n1, 5 on n3 (one spec each node), the
    global minimum is 3."""
    placed = PlacedPods(NODES, NAMESPACES)
    member = PodSpec(namespace="a", labels=labels_of({"app": "1"}))
    current = [(member, "n1")] * 3 + [(member, "n3")] * 5
    for p, on in current:
        placed.add(p, on)
    incoming = PodSpec(
        namespace="a",
        labels=member.labels,
        node_selector=labels_of({"disk": "ssd"}),
        topology_spread=(TopologySpreadConstraint(1, "host", label_selector=LabelSelector(member.labels)),),
    )
    state = prepare(incoming, placed)
    assert [state.failure(n) for n in NODES] == [reference(incoming, n, current) for n in NODES]
    assert state.failure(NODES[2]) == Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_CONSTRAINTS_NOT_MATCH)
    assert state.failure(NODES[0]) is None


def test_a_multi_value_in_count_registered_late_counts_every_value() -> None:
    """A count filed under an `In` expression's values (one index key per value) visits the pods placed before it
    registered under each value, and a pod of either value placed afterwards, once each."""
    placed = PlacedPods(NODES, NAMESPACES)
    one, two = (PodSpec(namespace="a", labels=labels_of({"app": v, "tier": "web"})) for v in ("1", "2"))
    current = [(one, "n1"), (two, "n3"), (two, "n4")]
    for p, on in current:
        placed.add(p, on)
    selector = LabelSelector((), (Requirement("app", IN, ("1", "2", "2")),))
    incoming = PodSpec(
        namespace="a", labels=labels_of({"app": "3"}), pod_anti_affinity=(PodAffinityTerm("host", selector),)
    )
    spread = PodSpec(
        namespace="a",
        labels=labels_of({"app": "1"}),
        topology_spread=(TopologySpreadConstraint(1, "zone", label_selector=selector),),
    )
    for p in (incoming, spread):
        assert [prepare(p, placed).failure(n) for n in NODES] == [reference(p, n, current) for n in NODES]
    assert_counts_exact(placed, current)
    placed.add(one, "n2")
    current.append((one, "n2"))
    for p in (incoming, spread):
        assert [prepare(p, placed).failure(n) for n in NODES] == [reference(p, n, current) for n in NODES]
    assert_counts_exact(placed, current)


def test_a_spec_placed_again_after_all_its_pods_left() -> None:
    """The index forgets a spec whose last pod leaves (its matched counts too) and looks them up again, with the
    counts registered meanwhile, when it is placed again: each counted once."""
    placed = PlacedPods(NODES, NAMESPACES)
    member = PodSpec(namespace="b", labels=labels_of({"app": "1"}))
    own = LabelSelector(labels_of({"app": "1"}))
    zone_spread = PodSpec(
        namespace="b", labels=member.labels, topology_spread=(TopologySpreadConstraint(1, "zone", label_selector=own),)
    )
    host_spread = PodSpec(
        namespace="b", labels=member.labels, topology_spread=(TopologySpreadConstraint(1, "host", label_selector=own),)
    )
    placed.add(member, "n1")
    prepare(zone_spread, placed)
    placed.remove(member, "n1")
    prepare(host_spread, placed)
    current = [(member, "n1"), (member, "n3"), (member, "n1")]
    for p, on in current:
        placed.add(p, on)
    assert_counts_exact(placed, current)
    for p in (zone_spread, host_spread):
        assert [prepare(p, placed).failure(n) for n in NODES] == [reference(p, n, current) for n in NODES]


def test_placed_terms_without_a_label_pair_reach_every_namespace() -> None:
    """Placed pods' anti-affinity terms whose selectors require no label pair (empty, NotIn, Exists), with a
    namespaceSelector or an explicit namespace list, checked against pods of other namespaces."""
    placed = PlacedPods(NODES, NAMESPACES)
    haters = [
        PodSpec(namespace="a", pod_anti_affinity=(PodAffinityTerm("zone", LabelSelector(), (), LabelSelector()),)),
        PodSpec(
            namespace="a",
            pod_anti_affinity=(
                PodAffinityTerm(
                    "host",
                    LabelSelector((), (Requirement("tier", NOT_IN, ("1",)),)),
                    (),
                    LabelSelector(labels_of({"team": "y"})),
                ),
            ),
        ),
        PodSpec(
            namespace="a",
            pod_anti_affinity=(PodAffinityTerm("disk", LabelSelector((), (Requirement("app", EXISTS),)), ("b", "c")),),
        ),
    ]
    current = [(haters[0], "n1"), (haters[1], "n4"), (haters[2], "n5")]
    for p, on in current:
        placed.add(p, on)
    for namespace in ("a", "b", "c"):
        for labels in ({}, {"app": "1"}, {"tier": "1"}, {"tier": "2", "app": "2"}):
            p = PodSpec(namespace=namespace, labels=labels_of(labels))
            assert [prepare(p, placed).failure(n) for n in NODES] == [reference(p, n, current) for n in NODES]
    assert_counts_exact(placed, current)
