"""The node predicates that read only the pod and the node, against Kubernetes' own unit-test tables.

Transcribed (case names as the Go tables name them) from Kubernetes, Copyright The Kubernetes Authors, Apache
License 2.0:

* pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go TestTaintTolerationFilter (the reason is
  1.35+'s "node(s) had untolerated taint(s)", kubernetes/kubernetes#134740; the table predates it and names the taint);
* pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go TestNodeAffinity (PreFilter and Filter);
* pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go TestNodeUnschedulable;
* pkg/scheduler/framework/plugins/nodename/node_name_test.go TestNodeName;
* staging/src/k8s.io/api/core/v1/toleration_test.go TestTolerationToleratesTaint;

and the reference harness's table (/work/shared/oracle/predicates_test.go TestPredicates, TestPreFilterConflict).
"""

from __future__ import annotations

from typing import Any

import pytest

from yk_cli.core.predicates.decode import decode_node, decode_pod_spec
from yk_cli.core.predicates.model import (
    NO_POD_SPEC,
    LabelSelector,
    NodeFacts,
    NodeSelectorTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
)
from yk_cli.core.predicates.node_plugins import (
    ERR_REASON_AFFINITY_CONFLICT,
    ERR_REASON_NODE_AFFINITY,
    ERR_REASON_NODE_NAME,
    ERR_REASON_PREFILTER_NODE_AFFINITY,
    ERR_REASON_UNSCHEDULABLE,
    ERR_REASON_UNTOLERATED_TAINT,
    affinity_node_names,
    label_selector_matches,
    matches_node_affinity,
    static_failure,
    tolerates,
    tolerations_tolerate_taint,
    untolerated_taint,
)


def pod(spec: dict[str, Any], *, valid: bool = True) -> PodSpec:
    decoded, problems = decode_pod_spec(spec, "default", {})
    if valid:
        assert problems == [], problems
    return decoded


def node(name: str = "", labels: dict[str, str] | None = None, taints: list[Any] | None = None, **kw: Any) -> NodeFacts:
    decoded, problems = decode_node(labels, taints, bool(kw.get("unschedulable", False)), name)
    assert problems == [], problems
    return decoded


def required(*terms: dict[str, Any], **spec: Any) -> dict[str, Any]:
    """A pod spec with requiredDuringSchedulingIgnoredDuringExecution terms (and other fields)."""
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": list(terms)}}}
    return {"affinity": affinity, **spec}


def expr(key: str, op: str, *values: str) -> dict[str, Any]:
    r: dict[str, Any] = {"key": key, "operator": op}
    if values:
        r["values"] = list(values)
    return r


def name_in(*names: str) -> dict[str, Any]:
    return {"key": "metadata.name", "operator": "In", "values": list(names)}


# ---- TaintToleration: TestTaintTolerationFilter --------------------------------------------------------------------

TAINT_TOLERATION_FILTER = [
    (
        "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
        [],
        [{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}],
        False,
    ),
    (
        "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
        [{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}],
        [{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}],
        True,
    ),
    (
        "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
        [{"key": "dedicated", "operator": "Equal", "value": "user2", "effect": "NoSchedule"}],
        [{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}],
        False,
    ),
    (
        "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the "
        "node",
        [{"key": "foo", "operator": "Exists", "effect": "NoSchedule"}],
        [{"key": "foo", "value": "bar", "effect": "NoSchedule"}],
        True,
    ),
    (
        "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled "
        "onto the node",
        [
            {"key": "dedicated", "operator": "Equal", "value": "user2", "effect": "NoSchedule"},
            {"key": "foo", "operator": "Exists", "effect": "NoSchedule"},
        ],
        [
            {"key": "dedicated", "value": "user2", "effect": "NoSchedule"},
            {"key": "foo", "value": "bar", "effect": "NoSchedule"},
        ],
        True,
    ),
    (
        "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't "
        "match, can't be scheduled onto the node",
        [{"key": "foo", "operator": "Equal", "value": "bar", "effect": "PreferNoSchedule"}],
        [{"key": "foo", "value": "bar", "effect": "NoSchedule"}],
        False,
    ),
    (
        "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is "
        "empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
        [{"key": "foo", "operator": "Equal", "value": "bar"}],
        [{"key": "foo", "value": "bar", "effect": "NoSchedule"}],
        True,
    ),
    (
        "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on "
        "node is PreferNoSchedule. Pod can be scheduled onto the node",
        [{"key": "dedicated", "operator": "Equal", "value": "user2", "effect": "NoSchedule"}],
        [{"key": "dedicated", "value": "user1", "effect": "PreferNoSchedule"}],
        True,
    ),
    (
        "The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto "
        "the node",
        [],
        [{"key": "dedicated", "value": "user1", "effect": "PreferNoSchedule"}],
        True,
    ),
]


@pytest.mark.parametrize(
    ("tolerations", "taints", "fits"),
    [c[1:] for c in TAINT_TOLERATION_FILTER],
    ids=[c[0] for c in TAINT_TOLERATION_FILTER],
)
def test_taint_toleration_filter(tolerations: list[Any], taints: list[Any], fits: bool) -> None:
    p = pod({"tolerations": tolerations})
    n = node("nodeA", taints=taints)
    failure = static_failure(p, n)
    if fits:
        assert failure is None
        assert untolerated_taint(p.tolerations, n.taints) is None
    else:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("TaintToleration", ERR_REASON_UNTOLERATED_TAINT)
        assert failure.reason == "node(s) had untolerated taint(s)"
        assert untolerated_taint(p.tolerations, n.taints) == n.taints[0]


# ---- NodeAffinity: TestNodeAffinity ---------------------------------------------------------------------------------

CONFLICT = "conflict"

# (name, pod spec, node labels, node name, Filter passes, PreFilter result: None = all nodes, a set, or CONFLICT)
NODE_AFFINITY: list[Any] = [
    ("missing labels", {"nodeSelector": {"foo": "bar"}}, None, "", False, None),
    ("same labels", {"nodeSelector": {"foo": "bar"}}, {"foo": "bar"}, "", True, None),
    ("node labels are superset", {"nodeSelector": {"foo": "bar"}}, {"foo": "bar", "baz": "blah"}, "", True, None),
    ("node labels are subset", {"nodeSelector": {"foo": "bar", "baz": "blah"}}, {"foo": "bar"}, "", False, None),
    (
        "Pod with matchExpressions using In operator that matches the existing node",
        required({"matchExpressions": [expr("foo", "In", "bar", "value2")]}),
        {"foo": "bar"},
        "",
        True,
        None,
    ),
    (
        "Pod with matchExpressions using Gt operator that matches the existing node",
        required({"matchExpressions": [expr("kernel-version", "Gt", "0204")]}),
        {"kernel-version": "0206"},
        "",
        True,
        None,
    ),
    (
        "Pod with matchExpressions using NotIn operator that matches the existing node",
        required({"matchExpressions": [expr("mem-type", "NotIn", "DDR", "DDR2")]}),
        {"mem-type": "DDR3"},
        "",
        True,
        None,
    ),
    (
        "Pod with matchExpressions using Exists operator that matches the existing node",
        required({"matchExpressions": [expr("GPU", "Exists")]}),
        {"GPU": "NVIDIA-GRID-K1"},
        "",
        True,
        None,
    ),
    (
        "Pod with affinity that don't match node's labels won't schedule onto the node",
        required({"matchExpressions": [expr("foo", "In", "value1", "value2")]}),
        {"foo": "bar"},
        "",
        False,
        None,
    ),
    (
        "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
        required({"matchExpressions": []}),
        {"foo": "bar"},
        "",
        False,
        None,
    ),
    ("Pod with no Affinity will schedule onto a node", {}, {"foo": "bar"}, "", True, None),
    (
        "Pod with Affinity but nil NodeSelector will schedule onto a node",
        {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": None}}},
        {"foo": "bar"},
        "",
        True,
        None,
    ),
    (
        "Pod with multiple matchExpressions ANDed that matches the existing node",
        required({"matchExpressions": [expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")]}),
        {"GPU": "NVIDIA-GRID-K1"},
        "",
        True,
        None,
    ),
    (
        "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
        required({"matchExpressions": [expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER")]}),
        {"GPU": "NVIDIA-GRID-K1"},
        "",
        False,
        None,
    ),
    (
        "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the "
        "node",
        required(
            {"matchExpressions": [expr("foo", "In", "bar", "value2")]},
            {"matchExpressions": [expr("diffkey", "In", "wrong", "value2")]},
        ),
        {"foo": "bar"},
        "",
        True,
        None,
    ),
    (
        "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, "
        "will schedule onto the node",
        required({"matchExpressions": [expr("foo", "Exists")]}, nodeSelector={"foo": "bar"}),
        {"foo": "bar"},
        "",
        True,
        None,
    ),
    (
        "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
        "deprecating) is not satisfied, won't schedule onto the node",
        required({"matchExpressions": [expr("foo", "Exists")]}, nodeSelector={"foo": "bar"}),
        {"foo": "barrrrrr"},
        "",
        False,
        None,
    ),
    (
        "Pod with an invalid value in Affinity term won't be scheduled onto the node",
        required({"matchExpressions": [expr("foo", "NotIn", "invalid value: ___@#$%^")]}),
        {"foo": "bar"},
        "",
        False,
        None,
    ),
    (
        "Pod with matchFields using In operator that matches the existing node",
        required({"matchFields": [name_in("node1")]}),
        None,
        "node1",
        True,
        {"node1"},
    ),
    (
        "Pod with matchFields using In operator that does not match the existing node",
        required({"matchFields": [name_in("node1")]}),
        None,
        "node2",
        False,
        {"node1"},
    ),
    (
        "Pod with two terms: matchFields does not match, but matchExpressions matches",
        required(
            {"matchFields": [name_in("node1"), name_in("node2")]}, {"matchExpressions": [expr("foo", "In", "bar")]}
        ),
        {"foo": "bar"},
        "node2",
        True,
        None,
    ),
    (
        "Pod with one term: matchFields does not match, but matchExpressions matches",
        required({"matchFields": [name_in("node1")], "matchExpressions": [expr("foo", "In", "bar")]}),
        {"foo": "bar"},
        "node2",
        False,
        {"node1"},
    ),
    (
        "Pod with one term: both matchFields and matchExpressions match",
        required({"matchFields": [name_in("node1")], "matchExpressions": [expr("foo", "In", "bar")]}),
        {"foo": "bar"},
        "node1",
        True,
        {"node1"},
    ),
    (
        "Pod with two terms: both matchFields and matchExpressions do not match",
        required({"matchFields": [name_in("node1")]}, {"matchExpressions": [expr("foo", "In", "not-match-to-bar")]}),
        {"foo": "bar"},
        "node2",
        False,
        None,
    ),
    (
        "Pod with two terms of node.Name affinity",
        required({"matchFields": [name_in("node1")]}, {"matchFields": [name_in("node2")]}),
        None,
        "node2",
        True,
        {"node1", "node2"},
    ),
    (
        "Pod with two conflicting mach field requirements",
        required({"matchFields": [name_in("node1"), name_in("node2")]}),
        {"foo": "bar"},
        "node2",
        False,
        CONFLICT,
    ),
    # The next three cases add scheduler-enforced node affinity (NodeAffinityArgs.addedAffinity, plugin
    # configuration yk does not model); only the pod's own part is checked here.
    (
        "Matches added affinity and Pod's node affinity",
        required({"matchExpressions": [expr("zone", "In", "foo")]}),
        {"zone": "foo"},
        "node2",
        True,
        None,
    ),
    (
        "Matches added affinity but not Pod's node affinity",
        required({"matchExpressions": [expr("zone", "In", "bar")]}),
        {"zone": "foo"},
        "node2",
        False,
        None,
    ),
    pytest.param(
        "Doesn't match added affinity",
        {},
        {"zone": "foo"},
        "node2",
        False,
        None,
        marks=pytest.mark.skip(reason="scheduler-enforced addedAffinity (plugin configuration) is not modelled"),
    ),
    (
        "Matches node selector correctly even if PreFilter is not called",
        {"nodeSelector": {"foo": "bar"}},
        {"foo": "bar", "baz": "blah"},
        "",
        True,
        None,
    ),
    (
        "Matches node affinity correctly even if PreFilter is not called",
        required({"matchExpressions": [expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")]}),
        {"GPU": "NVIDIA-GRID-K1"},
        "",
        True,
        None,
    ),
]


def _case_id(case: Any) -> str:
    return str(case.values[0] if hasattr(case, "values") else case[0])


@pytest.mark.parametrize(
    ("name", "spec", "labels", "node_name", "fits", "prefilter"),
    NODE_AFFINITY,
    ids=[_case_id(c) for c in NODE_AFFINITY],
)
def test_node_affinity(
    name: str, spec: dict[str, Any], labels: dict[str, str] | None, node_name: str, fits: bool, prefilter: Any
) -> None:
    p = pod(spec)
    n = node(node_name, labels)
    # Filter
    assert matches_node_affinity(p, n) is fits
    # PreFilter
    names = affinity_node_names(p)
    if prefilter is None:
        assert names is None
    elif prefilter == CONFLICT:
        assert names == frozenset()
    else:
        assert names == frozenset(prefilter)
    # The plugins in order: a PreFilter verdict comes first, as kube-scheduler reports it
    failure = static_failure(p, n)
    if prefilter == CONFLICT:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("NodeAffinity", ERR_REASON_AFFINITY_CONFLICT)
    elif isinstance(prefilter, set) and node_name not in prefilter:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("NodeAffinity", ERR_REASON_PREFILTER_NODE_AFFINITY)
    elif fits:
        assert failure is None
    else:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("NodeAffinity", "node(s) didn't match Pod's node affinity/selector")


# ---- NodeUnschedulable: TestNodeUnschedulable ----------------------------------------------------------------------

NODE_UNSCHEDULABLE = [
    ("Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)", {}, True, False),
    ("Schedule pod to normal node", {}, False, True),
    (
        "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
        {"tolerations": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]},
        True,
        True,
    ),
]


@pytest.mark.parametrize(
    ("spec", "unschedulable", "fits"), [c[1:] for c in NODE_UNSCHEDULABLE], ids=[c[0] for c in NODE_UNSCHEDULABLE]
)
def test_node_unschedulable(spec: dict[str, Any], unschedulable: bool, fits: bool) -> None:
    failure = static_failure(pod(spec), node(unschedulable=unschedulable))
    if fits:
        assert failure is None
    else:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("NodeUnschedulable", "node(s) were unschedulable")
        assert failure.reason == ERR_REASON_UNSCHEDULABLE


# ---- NodeName: TestNodeName ----------------------------------------------------------------------------------------

NODE_NAME = [
    ("no host specified", "", "", True),
    ("host matches", "foo", "foo", True),
    ("host doesn't match", "bar", "foo", False),
]


@pytest.mark.parametrize(("pod_node", "node_name", "fits"), [c[1:] for c in NODE_NAME], ids=[c[0] for c in NODE_NAME])
def test_node_name(pod_node: str, node_name: str, fits: bool) -> None:
    spec = {"nodeName": pod_node} if pod_node else {}
    failure = static_failure(pod(spec), node(node_name))
    if fits:
        assert failure is None
    else:
        assert failure is not None
        assert (failure.plugin, failure.reason) == ("NodeName", "node(s) didn't match the requested node name")
        assert failure.reason == ERR_REASON_NODE_NAME


# ---- v1 Toleration.ToleratesTaint: TestTolerationToleratesTaint ----------------------------------------------------

SLA = "node.kubernetes.io/sla"
# The Gt/Lt cases: their Go expectation assumes the comparison operators on; they are behind the alpha feature gate
# TaintTolerationComparisonOperators (default off in 1.36: the API server refuses them and they tolerate nothing),
# so every one of them is "not tolerated" here, and the Go expectation is kept in the last column for the record.
TOLERATES_TAINT = [
    (
        "toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect "
        "tolerated",
        Toleration("foo", "Exists", "", "NoSchedule"),
        Taint("foo", "", "NoSchedule"),
        True,
        True,
    ),
    (
        "toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect "
        "tolerated",
        Toleration("foo", "Exists", "", "NoSchedule"),
        Taint("foo", "bar", "NoSchedule"),
        True,
        True,
    ),
    (
        "toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all "
        "taints, expect tolerated",
        Toleration("", "Exists", "", "NoSchedule"),
        Taint("foo", "bar", "NoSchedule"),
        True,
        True,
    ),
    (
        "toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated",
        Toleration("foo", "Equal", "bar", "NoSchedule"),
        Taint("foo", "bar", "NoSchedule"),
        True,
        True,
    ),
    (
        "toleration and taint have the same key and effect, but different values, and operator is Equal, expect not "
        "tolerated",
        Toleration("foo", "Equal", "value1", "NoSchedule"),
        Taint("foo", "value2", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration and taint have the same key and value, but different effects, and operator is Equal, expect not "
        "tolerated",
        Toleration("foo", "Equal", "bar", "NoSchedule"),
        Taint("foo", "bar", "NoExecute"),
        False,
        False,
    ),
    (
        "toleration with Gt operator - taint value less than toleration value, expect not tolerated",
        Toleration(SLA, "Gt", "950", "NoSchedule"),
        Taint(SLA, "800", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration with Gt operator - taint value greater than toleration value, expect tolerated",
        Toleration(SLA, "Gt", "750", "NoSchedule"),
        Taint(SLA, "950", "NoSchedule"),
        False,
        True,
    ),
    (
        "toleration with Lt operator - taint value greater than toleration value, expect not tolerated",
        Toleration(SLA, "Lt", "800", "NoSchedule"),
        Taint(SLA, "950", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration with Lt operator - taint value less than toleration value, expect tolerated",
        Toleration(SLA, "Lt", "950", "NoSchedule"),
        Taint(SLA, "800", "NoSchedule"),
        False,
        True,
    ),
    (
        "toleration with Gt operator and taint with equal numeric value, expect not tolerated",
        Toleration(SLA, "Gt", "950", "NoSchedule"),
        Taint(SLA, "950", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration with Gt operator and taint with non-numeric value, expect not tolerated",
        Toleration(SLA, "Gt", "950", "NoSchedule"),
        Taint(SLA, "high", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration with Gt operator and negative numeric values - taint value less than threshold, expect not "
        "tolerated",
        Toleration("test-key", "Gt", "-100", "NoSchedule"),
        Taint("test-key", "-200", "NoSchedule"),
        False,
        False,
    ),
    (
        "toleration with Gt operator and large int64 values - taint value less than threshold, expect not tolerated",
        Toleration("test-key", "Gt", "9223372036854775806", "NoSchedule"),
        Taint("test-key", "100", "NoSchedule"),
        False,
        False,
    ),
]


@pytest.mark.parametrize(
    ("toleration", "taint", "tolerated", "with_gate_on"),
    [c[1:] for c in TOLERATES_TAINT],
    ids=[c[0] for c in TOLERATES_TAINT],
)
def test_tolerates_taint(toleration: Toleration, taint: Taint, tolerated: bool, with_gate_on: bool) -> None:
    assert tolerates(toleration, taint) is tolerated
    assert tolerations_tolerate_taint([toleration], taint) is tolerated
    if toleration.operator not in ("Gt", "Lt"):
        assert tolerated is with_gate_on


def test_empty_operator_means_equal() -> None:
    assert tolerates(Toleration("foo", "", "bar"), Taint("foo", "bar", "NoExecute"))
    assert not tolerates(Toleration("foo", "", "bar"), Taint("foo", "baz", "NoExecute"))


# ---- the reference harness's table (/work/shared/oracle/predicates_test.go) -----------------------------------------

ORACLE_NODES: dict[str, tuple[dict[str, str] | None, list[Any], bool]] = {
    "plain": (None, [], False),
    "noSched": (None, [{"key": "dedicated", "value": "team-x", "effect": "NoSchedule"}], False),
    "noExec": (None, [{"key": "gpu", "value": "true", "effect": "NoExecute"}], False),
    "prefer": (None, [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}], False),
    "bare": (None, [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}], False),
    "cordoned": (None, [], True),
    "gpuA3": ({"pool": "gpu", "zone": "a", "rack": "3"}, [], False),
    "cpuB1": ({"pool": "cpu", "zone": "b", "rack": "1"}, [], False),
    "cpuNoRack": ({"pool": "cpu", "zone": "a"}, [], False),
    "rackString": ({"rack": "x1"}, [], False),
}

CP = "node-role.kubernetes.io/control-plane"
UNSCHED = "node.kubernetes.io/unschedulable"

ORACLE_CASES: list[tuple[str, dict[str, Any], str, bool]] = [
    ("no constraints, plain", {}, "plain", True),
    ("PreferNoSchedule is ignored", {}, "prefer", True),
    ("NoSchedule not tolerated", {}, "noSched", False),
    ("NoExecute not tolerated", {}, "noExec", False),
    (
        "Equal, same value and effect",
        {"tolerations": [{"key": "dedicated", "operator": "Equal", "value": "team-x", "effect": "NoSchedule"}]},
        "noSched",
        True,
    ),
    ("empty operator means Equal", {"tolerations": [{"key": "dedicated", "value": "team-x"}]}, "noSched", True),
    (
        "Equal, other value",
        {"tolerations": [{"key": "dedicated", "value": "team-y", "effect": "NoSchedule"}]},
        "noSched",
        False,
    ),
    (
        "other effect",
        {"tolerations": [{"key": "dedicated", "value": "team-x", "effect": "NoExecute"}]},
        "noSched",
        False,
    ),
    ("Exists ignores the value", {"tolerations": [{"key": "gpu", "operator": "Exists"}]}, "noExec", True),
    ("empty effect matches NoExecute", {"tolerations": [{"key": "gpu", "value": "true"}]}, "noExec", True),
    ("empty key with Exists tolerates all", {"tolerations": [{"operator": "Exists"}]}, "noSched", True),
    (
        "empty key with Exists and an effect",
        {"tolerations": [{"operator": "Exists", "effect": "NoExecute"}]},
        "noSched",
        False,
    ),
    (
        "taint without value, Exists",
        {"tolerations": [{"key": CP, "operator": "Exists", "effect": "NoSchedule"}]},
        "bare",
        True,
    ),
    ("taint without value, Equal empty", {"tolerations": [{"key": CP, "effect": "NoSchedule"}]}, "bare", True),
    ("cordoned", {}, "cordoned", False),
    (
        "cordoned, unschedulable toleration",
        {"tolerations": [{"key": UNSCHED, "operator": "Exists", "effect": "NoSchedule"}]},
        "cordoned",
        True,
    ),
    (
        "cordoned, toleration for NoExecute only",
        {"tolerations": [{"key": UNSCHED, "operator": "Exists", "effect": "NoExecute"}]},
        "cordoned",
        False,
    ),
    ("cordoned, tolerate everything", {"tolerations": [{"operator": "Exists"}]}, "cordoned", True),
    ("nodeName other", {"nodeName": "x"}, "plain", False),
    ("nodeName same", {"nodeName": "plain"}, "plain", True),
    ("nodeSelector match", {"nodeSelector": {"pool": "gpu", "zone": "a"}}, "gpuA3", True),
    ("nodeSelector one key differs", {"nodeSelector": {"pool": "gpu", "zone": "b"}}, "gpuA3", False),
    ("nodeSelector missing label", {"nodeSelector": {"pool": "gpu"}}, "plain", False),
    ("empty nodeSelector", {"nodeSelector": {}}, "plain", True),
    ("In", required({"matchExpressions": [expr("zone", "In", "a", "c")]}), "gpuA3", True),
    ("In, missing label", required({"matchExpressions": [expr("zone", "In", "a")]}), "plain", False),
    ("NotIn, missing label matches", required({"matchExpressions": [expr("zone", "NotIn", "a")]}), "plain", True),
    ("NotIn", required({"matchExpressions": [expr("zone", "NotIn", "a")]}), "gpuA3", False),
    ("Exists", required({"matchExpressions": [expr("rack", "Exists")]}), "cpuNoRack", False),
    ("DoesNotExist", required({"matchExpressions": [expr("rack", "DoesNotExist")]}), "cpuNoRack", True),
    ("Gt", required({"matchExpressions": [expr("rack", "Gt", "2")]}), "gpuA3", True),
    ("Gt, equal is not greater", required({"matchExpressions": [expr("rack", "Gt", "3")]}), "gpuA3", False),
    ("Lt", required({"matchExpressions": [expr("rack", "Lt", "2")]}), "cpuB1", True),
    ("Lt, missing label", required({"matchExpressions": [expr("rack", "Lt", "9")]}), "cpuNoRack", False),
    ("Lt, label not an integer", required({"matchExpressions": [expr("rack", "Lt", "9")]}), "rackString", False),
    (
        "expressions ANDed",
        required({"matchExpressions": [expr("pool", "In", "gpu"), expr("rack", "Lt", "3")]}),
        "gpuA3",
        False,
    ),
    (
        "terms ORed",
        required({"matchExpressions": [expr("pool", "In", "tpu")]}, {"matchExpressions": [expr("zone", "In", "b")]}),
        "cpuB1",
        True,
    ),
    ("empty term matches nothing", required({}), "plain", False),
    (
        "empty term ORed with a matching one",
        required({}, {"matchExpressions": [expr("zone", "Exists")]}),
        "gpuA3",
        True,
    ),
    (
        "term that does not parse (Gt not an integer) matches nothing",
        required({"matchExpressions": [expr("rack", "Gt", "two")]}),
        "gpuA3",
        False,
    ),
    (
        "... ORed with a matching one",
        required({"matchExpressions": [expr("rack", "Gt", "two")]}, {"matchExpressions": [expr("pool", "In", "gpu")]}),
        "gpuA3",
        True,
    ),
    (
        "nodeSelector AND affinity",
        required({"matchExpressions": [expr("zone", "In", "a")]}, nodeSelector={"pool": "cpu"}),
        "gpuA3",
        False,
    ),
    ("matchFields In", required({"matchFields": [name_in("gpuA3")]}), "gpuA3", True),
    ("matchFields In, other node (PreFilter)", required({"matchFields": [name_in("cpuB1")]}), "gpuA3", False),
    (
        "matchFields NotIn",
        required({"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["gpuA3"]}]}),
        "gpuA3",
        False,
    ),
    (
        "matchFields and expressions in one term",
        required({"matchFields": [name_in("gpuA3")], "matchExpressions": [expr("pool", "In", "cpu")]}),
        "gpuA3",
        False,
    ),
    (
        "preferred affinity is ignored",
        {
            "affinity": {
                "nodeAffinity": {
                    "preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": 1, "preference": {"matchExpressions": [expr("pool", "In", "tpu")]}}
                    ]
                }
            }
        },
        "plain",
        True,
    ),
]


@pytest.mark.parametrize(("spec", "node_name", "fits"), [c[1:] for c in ORACLE_CASES], ids=[c[0] for c in ORACLE_CASES])
def test_oracle_predicates(spec: dict[str, Any], node_name: str, fits: bool) -> None:
    labels, taints, unschedulable = ORACLE_NODES[node_name]
    n = node(node_name, labels, taints, unschedulable=unschedulable)
    p, problems = decode_pod_spec(spec, "default", {})
    # the harness's node IDs (gpuA3) are no DNS subdomains, as the API server wants node names to be
    assert [x for x in problems if x.code != "invalid-node-name"] == []
    assert (static_failure(p, n) is None) is fits


def test_oracle_prefilter_conflict() -> None:
    p = pod(required({"matchFields": [name_in("a"), name_in("b")]}))
    assert affinity_node_names(p) == frozenset()
    failure = static_failure(p, node("a"))
    assert failure is not None
    assert failure.plugin == "NodeAffinity"


# ---- the plugins together ------------------------------------------------------------------------------------------


def test_filter_order_is_the_default_profiles() -> None:
    """NodeUnschedulable, NodeName, TaintToleration, NodeAffinity: the first failing one is reported."""
    spec = {"nodeName": "other", "nodeSelector": {"pool": "gpu"}}
    taint = [{"key": "k", "value": "v", "effect": "NoSchedule"}]
    cordoned = node("n", {"pool": "cpu"}, taint, unschedulable=True)
    failure = static_failure(pod(spec), cordoned)
    assert failure is not None and failure.plugin == "NodeUnschedulable"
    failure = static_failure(pod(spec), node("n", {"pool": "cpu"}, taint))
    assert failure is not None and failure.plugin == "NodeName"
    failure = static_failure(pod({"nodeSelector": {"pool": "gpu"}}), node("n", {"pool": "cpu"}, taint))
    assert failure is not None and failure.plugin == "TaintToleration"
    failure = static_failure(pod({"nodeSelector": {"pool": "gpu"}}), node("n", {"pool": "cpu"}))
    assert failure is not None and (failure.plugin, failure.reason) == ("NodeAffinity", ERR_REASON_NODE_AFFINITY)


def test_prefilter_comes_before_the_filters() -> None:
    p = pod(required({"matchFields": [name_in("a")]}))
    failure = static_failure(p, node("b", unschedulable=True))
    assert failure is not None
    assert (failure.plugin, failure.reason) == ("NodeAffinity", "node(s) didn't satisfy plugin(s) [NodeAffinity]")
    assert static_failure(p, node("a")) is None


def test_fast_path_pod_without_constraints() -> None:
    assert static_failure(NO_POD_SPEC, NodeFacts("n", (("a", "b"),))) is None
    assert static_failure(NO_POD_SPEC, NodeFacts("n", taints=(Taint("x", "y", "PreferNoSchedule"),))) is None
    assert matches_node_affinity(NO_POD_SPEC, NodeFacts("n")) is True
    assert affinity_node_names(NO_POD_SPEC) is None


def test_untolerated_taint_is_the_first_one() -> None:
    taints = (Taint("a", "1", "PreferNoSchedule"), Taint("b", "2", "NoExecute"), Taint("c", "3", "NoSchedule"))
    assert untolerated_taint((), taints) == taints[1]
    assert untolerated_taint((Toleration("b", "Exists"),), taints) == taints[2]
    assert untolerated_taint((Toleration("", "Exists"),), taints) is None


@pytest.mark.parametrize(
    ("values", "label", "op", "matches"),
    [
        (("5",), "6", "Gt", True),
        (("5",), "+6", "Gt", True),  # strconv.ParseInt accepts a sign
        (("5",), "05", "Gt", False),
        (("5",), "-6", "Lt", True),
        (("-5",), "-6", "Lt", False),  # "-5" is no label value: the requirement does not parse
        (("5",), " 6", "Gt", False),  # no spaces
        (("5",), "6_0", "Gt", False),  # no underscores (Python's int() would take them)
        (("5",), "9223372036854775808", "Gt", False),  # out of int64 range
        (("9223372036854775807",), "9223372036854775807", "Lt", False),
        (("x",), "6", "Gt", False),  # the requirement does not parse: the term matches nothing
        (("1", "2"), "6", "Gt", False),
    ],
)
def test_gt_lt_parse_as_go_int64(values: tuple[str, ...], label: str, op: str, matches: bool) -> None:
    p = PodSpec(required_node_affinity=(NodeSelectorTerm((Requirement("k", op, values),)),))
    assert matches_node_affinity(p, NodeFacts("n", (("k", label),))) is matches


@pytest.mark.parametrize(
    "requirement",
    [
        Requirement("k", "NotIn", ()),  # NotIn needs values
        Requirement("k", "DoesNotExist", ("x",)),  # DoesNotExist takes none
        Requirement("bad key!", "DoesNotExist"),  # an invalid key
        Requirement("k", "NotIn", ("bad value!",)),  # a value that is no label value
        Requirement("k", "Foo", ("x",)),  # an unknown operator
    ],
)
def test_unparseable_requirement_makes_the_term_match_nothing(requirement: Requirement) -> None:
    p = PodSpec(required_node_affinity=(NodeSelectorTerm((requirement,)),))
    assert matches_node_affinity(p, NodeFacts("n")) is False
    ok = PodSpec(
        required_node_affinity=(NodeSelectorTerm((requirement,)), NodeSelectorTerm((Requirement("z", "Exists"),)))
    )
    assert matches_node_affinity(ok, NodeFacts("n", (("z", ""),))) is True


def test_match_fields_need_one_value_and_in_or_not_in() -> None:
    bad = PodSpec(required_node_affinity=(NodeSelectorTerm((), (Requirement("metadata.name", "In", ("a", "b")),)),))
    assert matches_node_affinity(bad, NodeFacts("a")) is False
    other_key = PodSpec(required_node_affinity=(NodeSelectorTerm((), (Requirement("spec.x", "NotIn", ("a",)),)),))
    assert matches_node_affinity(other_key, NodeFacts("a")) is True  # the field is "" there, not "a"


def test_zero_terms_match_nothing() -> None:
    assert matches_node_affinity(PodSpec(required_node_affinity=()), NodeFacts("n")) is False
    assert affinity_node_names(PodSpec(required_node_affinity=())) is None


# ---- label selectors (for pod affinity and topology spread) --------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "labels", "matches"),
    [
        (None, (("a", "1"),), False),  # nil selector: nothing
        (LabelSelector(), (), True),  # empty selector: everything
        (LabelSelector((("a", "1"),)), (("a", "1"), ("b", "2")), True),
        (LabelSelector((("a", "1"),)), (("a", "2"),), False),
        (LabelSelector((("a", "1"),)), (), False),
        (LabelSelector((), (Requirement("a", "In", ("1", "2")),)), (("a", "2"),), True),
        (LabelSelector((), (Requirement("a", "NotIn", ("1",)),)), (), True),
        (LabelSelector((), (Requirement("a", "NotIn", ("1",)),)), (("a", "1"),), False),
        (LabelSelector((), (Requirement("a", "Exists"),)), (("a", ""),), True),
        (LabelSelector((), (Requirement("a", "DoesNotExist"),)), (("a", ""),), False),
        (LabelSelector((("b", "2"),), (Requirement("a", "Exists"),)), (("a", "1"),), False),  # ANDed
        (LabelSelector((), (Requirement("a", "Gt", ("1",)),)), (("a", "5"),), False),  # no Gt in LabelSelector
        (LabelSelector((), (Requirement("a", "In", ()),)), (("a", "5"),), False),  # does not parse
        (LabelSelector((("bad key!", "1"),)), (("bad key!", "1"),), False),
    ],
)
def test_label_selector_matches(
    selector: LabelSelector | None, labels: tuple[tuple[str, str], ...], matches: bool
) -> None:
    assert label_selector_matches(selector, labels) is matches
