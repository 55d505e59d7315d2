"""The Filter plugins that read only the pod and the node, as kube-scheduler 1.36 runs them.

Ports (Kubernetes v1.36, Copyright The Kubernetes Authors, Apache License 2.0) of:

* pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go (Filter, ErrReasonUnschedulable);
* pkg/scheduler/framework/plugins/nodename/node_name.go (Filter, ErrReason);
* pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (Filter): since kubernetes/kubernetes#134740
  (1.35, back-ported to 1.34) the reason no longer names the taint: "node(s) had untolerated taint(s)" (it was
  "node(s) had untolerated taint {key: value}" up to 1.33);
* pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (PreFilter, Filter; ErrReasonPod,
  errReasonConflict), with k8s.io/component-helpers/scheduling/corev1/nodeaffinity (GetRequiredNodeAffinity,
  LazyErrorNodeSelector: terms ORed, a term's parts ANDed, an empty term matches nothing, a term that does not parse
  matches nothing) and k8s.io/apimachinery/pkg/labels (NewRequirement's checks, Requirement.Matches);
* k8s.io/api/core/v1 toleration.go Toleration.ToleratesTaint (the Lt/Gt comparison operators are behind the alpha
  feature gate TaintTolerationComparisonOperators, off by default: they tolerate nothing) and
  k8s.io/component-helpers/scheduling/corev1 helpers.go (TolerationsTolerateTaint, FindMatchingUntoleratedTaint);
* pkg/scheduler/schedule_one.go: a node left out by a PreFilter's node set gets
  "node(s) didn't satisfy plugin(s) [NodeAffinity]".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from yk_cli.core.predicates.model import (
    DOES_NOT_EXIST,
    EQUAL,
    EXISTS,
    GT,
    IN,
    LT,
    NO_EXECUTE,
    NO_SCHEDULE,
    NOT_IN,
    UNSCHEDULABLE_TAINT,
    Failure,
    Labels,
    LabelSelector,
    NodeFacts,
    NodeSelectorTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
)

__all__ = [
    "ERR_REASON_AFFINITY_CONFLICT",
    "ERR_REASON_NODE_AFFINITY",
    "ERR_REASON_NODE_NAME",
    "ERR_REASON_PREFILTER_NODE_AFFINITY",
    "ERR_REASON_UNSCHEDULABLE",
    "ERR_REASON_UNTOLERATED_TAINT",
    "NODE_AFFINITY",
    "NODE_NAME",
    "NODE_UNSCHEDULABLE",
    "TAINT_TOLERATION",
    "affinity_node_names",
    "label_selector_matches",
    "matches_node_affinity",
    "node_affinity_term_matches",
    "static_failure",
    "tolerates",
    "tolerations_tolerate_taint",
    "untolerated_taint",
]

# Plugin names (pkg/scheduler/framework/plugins/names/names.go).
NODE_UNSCHEDULABLE = "NodeUnschedulable"
NODE_NAME = "NodeName"
TAINT_TOLERATION = "TaintToleration"
NODE_AFFINITY = "NodeAffinity"

# Reasons, as kubectl describe pod shows them after "0/5 nodes are available: 3 ".
ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"
"""nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable."""
ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name"
"""nodename/node_name.go ErrReason."""
ERR_REASON_UNTOLERATED_TAINT = "node(s) had untolerated taint(s)"
"""tainttoleration/taint_toleration.go Filter (1.35+, kubernetes/kubernetes#134740)."""
ERR_REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
"""nodeaffinity/node_affinity.go ErrReasonPod."""
ERR_REASON_AFFINITY_CONFLICT = "pod affinity terms conflict"
"""nodeaffinity/node_affinity.go errReasonConflict (PreFilter: every term names nodes, none in common)."""
ERR_REASON_PREFILTER_NODE_AFFINITY = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
"""schedule_one.go: a node outside the NodeAffinity PreFilter's node set."""

_UNSCHEDULABLE = Failure(NODE_UNSCHEDULABLE, ERR_REASON_UNSCHEDULABLE)
_NODE_NAME = Failure(NODE_NAME, ERR_REASON_NODE_NAME)
_UNTOLERATED = Failure(TAINT_TOLERATION, ERR_REASON_UNTOLERATED_TAINT)
_AFFINITY = Failure(NODE_AFFINITY, ERR_REASON_NODE_AFFINITY)
_CONFLICT = Failure(NODE_AFFINITY, ERR_REASON_AFFINITY_CONFLICT)
_PREFILTER = Failure(NODE_AFFINITY, ERR_REASON_PREFILTER_NODE_AFFINITY)

_UNSCHEDULABLE_TAINT = Taint(UNSCHEDULABLE_TAINT, "", NO_SCHEDULE)
_OBJECT_NAME_FIELD = "metadata.name"


# ---- taints and tolerations ----------------------------------------------------------------------------------------


def tolerates(toleration: Toleration, taint: Taint) -> bool:
    """v1.Toleration.ToleratesTaint (comparison operators off).

    An empty effect matches every effect, an empty key every key (with Exists: every taint); operator "" or Equal
    compares values, Exists ignores them; any other operator tolerates nothing.
    """
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    op = toleration.operator
    if op == EQUAL or not op:
        return toleration.value == taint.value
    return op == EXISTS


def tolerations_tolerate_taint(tolerations: Iterable[Toleration], taint: Taint) -> bool:
    """corev1 helpers TolerationsTolerateTaint: some toleration tolerates the taint."""
    return any(tolerates(t, taint) for t in tolerations)


def untolerated_taint(tolerations: Sequence[Toleration], taints: Iterable[Taint]) -> Taint | None:
    """FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc: the first NoSchedule or NoExecute taint no
    toleration tolerates (PreferNoSchedule taints only score, and YuniKorn runs no Score plugin)."""
    for taint in taints:
        effect = taint.effect
        if effect != NO_SCHEDULE and effect != NO_EXECUTE:
            continue
        for t in tolerations:
            # tolerates(t, taint), inlined: this runs for every (pod, tainted node)
            if t.effect and t.effect != effect:
                continue
            if t.key and t.key != taint.key:
                continue
            op = t.operator
            if op == EXISTS or ((op == EQUAL or not op) and t.value == taint.value):
                break
        else:
            return taint
    return None


# ---- label requirements (k8s.io/apimachinery/pkg/labels) -----------------------------------------------------------

_QUALIFIED_NAME_RE = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_DNS1123_SUBDOMAIN_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_LABEL_VALUE_RE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
_INT_RE = re.compile(r"[+-]?[0-9]+")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _valid_key(key: str) -> bool:
    """validation.IsQualifiedName."""
    prefix, sep, name = key.rpartition("/")
    if sep and (not prefix or "/" in prefix or len(prefix) > 253 or not _DNS1123_SUBDOMAIN_RE.fullmatch(prefix)):
        return False
    return 0 < len(name) <= 63 and _QUALIFIED_NAME_RE.fullmatch(name) is not None


def _valid_value(value: str) -> bool:
    """validation.IsValidLabelValue."""
    return len(value) <= 63 and _LABEL_VALUE_RE.fullmatch(value) is not None


def _parse_int64(s: str) -> int | None:
    """strconv.ParseInt(s, 10, 64): an optional sign and ASCII digits, in int64 range."""
    if not _INT_RE.fullmatch(s):
        return None
    v = int(s)
    return v if _INT64_MIN <= v <= _INT64_MAX else None


@lru_cache(maxsize=8192)
def _requirement_parses(req: Requirement, gt_lt: bool) -> bool:
    """labels.NewRequirement's checks (gt_lt: node selector requirements, which also allow Gt and Lt)."""
    if not _valid_key(req.key):
        return False
    op, values = req.operator, req.values
    if op in (IN, NOT_IN):
        ok = len(values) > 0
    elif op in (EXISTS, DOES_NOT_EXIST):
        ok = len(values) == 0
    elif gt_lt and (op in (GT, LT)):
        ok = len(values) == 1 and all(_parse_int64(v) is not None for v in values)
    else:
        ok = False
    return ok and all(_valid_value(v) for v in values)


def _requirement_matches(req: Requirement, labels: Mapping[str, str]) -> bool:
    """labels.Requirement.Matches (for a requirement that parsed)."""
    op = req.operator
    if op == IN:
        v = labels.get(req.key)
        return v is not None and v in req.values
    if op == NOT_IN:
        v = labels.get(req.key)
        return v is None or v not in req.values
    if op == EXISTS:
        return req.key in labels
    if op == DOES_NOT_EXIST:
        return req.key not in labels
    if op in (GT, LT):
        v = labels.get(req.key)
        if v is None:
            return False
        have = _parse_int64(v)
        if have is None or len(req.values) != 1:
            return False
        want = _parse_int64(req.values[0])
        if want is None:
            return False
        return have > want if op == GT else have < want
    return False


@lru_cache(maxsize=4096)
def _selector_parses(selector: LabelSelector) -> bool:
    """metav1.LabelSelectorAsSelector succeeds (matchLabels are valid, operators In/NotIn/Exists/DoesNotExist)."""
    if not all(_valid_key(k) and _valid_value(v) for k, v in selector.match_labels):
        return False
    return all(_requirement_parses(r, False) for r in selector.match_expressions)


def label_selector_matches(selector: LabelSelector | None, labels: Labels) -> bool:
    """metav1.LabelSelector semantics: None matches nothing, LabelSelector() everything, matchLabels and
    matchExpressions ANDed; a selector that does not parse (LabelSelectorAsSelector fails) matches nothing."""
    if selector is None:
        return False
    if not selector.match_labels and not selector.match_expressions:
        return True
    if not _selector_parses(selector):
        return False
    have = dict(labels)
    for k, v in selector.match_labels:
        if have.get(k) != v:
            return False
    return all(_requirement_matches(r, have) for r in selector.match_expressions)


# ---- node affinity -------------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _term_parses(term: NodeSelectorTerm) -> bool:
    """nodeaffinity.newNodeSelectorTerm succeeds: every matchExpressions entry is a valid label requirement
    (Gt/Lt with one integer value), every matchFields entry In/NotIn with exactly one value."""
    if not all(_requirement_parses(r, True) for r in term.match_expressions):
        return False
    return all((f.operator == IN or f.operator == NOT_IN) and len(f.values) == 1 for f in term.match_fields)


def node_affinity_term_matches(term: NodeSelectorTerm, labels: Mapping[str, str], node_name: str) -> bool:
    """nodeaffinity nodeSelectorTerm.match: an empty term or one that does not parse matches nothing; node fields
    are {metadata.name: the node's name} (matchFields are not checked for a node without a name)."""
    if not term.match_expressions and not term.match_fields:
        return False
    if not _term_parses(term):
        return False
    for r in term.match_expressions:
        if not _requirement_matches(r, labels):
            return False
    if node_name:
        for f in term.match_fields:
            got = node_name if f.key == _OBJECT_NAME_FIELD else ""
            if (f.operator == IN) != (got == f.values[0]):
                return False
    return True


def matches_node_affinity(pod: PodSpec, node: NodeFacts) -> bool:
    """RequiredNodeAffinity.Match (GetRequiredNodeAffinity): every nodeSelector pair is a node label, AND some
    required term matches (no required affinity: true; zero terms: false)."""
    selector, terms = pod.node_selector, pod.required_node_affinity
    if not selector and terms is None:
        return True
    labels = dict(node.labels)
    for k, v in selector:
        if labels.get(k) != v:
            return False
    if terms is None:
        return True
    name = node.name
    return any(node_affinity_term_matches(t, labels, name) for t in terms)


@lru_cache(maxsize=4096)
def _node_names(terms: tuple[NodeSelectorTerm, ...]) -> frozenset[str] | None:
    names: set[str] = set()
    for term in terms:
        term_names: set[str] | None = None
        for f in term.match_fields:
            if f.key == _OBJECT_NAME_FIELD and f.operator == IN:
                s = set(f.values)
                term_names = s if term_names is None else term_names & s
        if term_names is None:
            return None  # this term does not name nodes: every node is eligible (terms are ORed)
        names |= term_names
    return frozenset(names)


def affinity_node_names(pod: PodSpec) -> frozenset[str] | None:
    """The NodeAffinity PreFilter's node set: when every required term names nodes by `metadata.name In`, only those
    nodes are eligible (names intersected within a term, united over the terms). None: every node is eligible. An
    empty set: the terms conflict ("pod affinity terms conflict"), no node is."""
    terms = pod.required_node_affinity
    if not terms:
        return None
    return _node_names(terms)


# ---- the plugins in the default profile's order --------------------------------------------------------------------


def static_failure(pod: PodSpec, node: NodeFacts) -> Failure | None:
    """The first of the NodeAffinity PreFilter and the Filters NodeUnschedulable, NodeName, TaintToleration and
    NodeAffinity (the default profile's order) that rejects the node, with kube-scheduler's reason; None if all pass.

    A node outside the PreFilter's node set fails with "node(s) didn't satisfy plugin(s) [NodeAffinity]" (as
    kube-scheduler reports it, before any Filter), and every node with "pod affinity terms conflict" when the
    pod's terms name no common node.
    """
    terms = pod.required_node_affinity
    if terms:
        names = _node_names(terms)
        if names is not None:
            if not names:
                return _CONFLICT
            if node.name not in names:
                return _PREFILTER
    if node.unschedulable and not tolerations_tolerate_taint(pod.tolerations, _UNSCHEDULABLE_TAINT):
        return _UNSCHEDULABLE
    if pod.node_name and pod.node_name != node.name:
        return _NODE_NAME
    if node.taints and untolerated_taint(pod.tolerations, node.taints) is not None:
        return _UNTOLERATED
    if (pod.node_selector or terms is not None) and not matches_node_affinity(pod, node):
        return _AFFINITY
    return None
