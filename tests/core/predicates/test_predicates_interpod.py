"""InterPodAffinity (core/predicates/pod_plugins.py) against kube-scheduler's own tables:
pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go TestRequiredAffinitySingleNode and
TestRequiredAffinityMultipleNodes, case names as in Go (a name Go repeats is repeated here; pytest numbers them).

A PreFilter "Skip" is the pod passing every node. Left out: the two cases whose label value does not parse
("PodAffinity fails PreFilter with an invalid affinity label syntax", "PodAntiAffinity fails PreFilter with an
invalid antiaffinity label syntax"): the API server refuses such a pod (decode.py reports it), so no PodSpec carries
one.
"""

from __future__ import annotations

import pytest

from tests.core.predicates.predicates_tables import (
    DOES_NOT_EXIST,
    EXISTS,
    IN,
    NOT_IN,
    Placed,
    affinity_term,
    failures,
    node,
    pod,
)
from tests.core.predicates.predicates_tables import selector as label_selector
from yk_cli.core.predicates.model import (
    Failure,
    LabelSelector,
    Namespace,
    NodeFacts,
    PodAffinityTerm,
    PodSpec,
    labels_of,
)
from yk_cli.core.predicates.pod_plugins import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    INTER_POD_AFFINITY,
)

AFFINITY = Failure(INTER_POD_AFFINITY, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
ANTI = Failure(INTER_POD_AFFINITY, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
EXISTING = Failure(INTER_POD_AFFINITY, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)


def aff_in(key: str, topology: str, values: list[str]) -> PodAffinityTerm:
    """st.PodAffinityIn / PodAntiAffinityIn."""
    return affinity_term(key, IN, values, topology)


def aff_not_in(key: str, topology: str, values: list[str]) -> PodAffinityTerm:
    return affinity_term(key, NOT_IN, values, topology)


def aff_exists(key: str, topology: str) -> PodAffinityTerm:
    return affinity_term(key, EXISTS, (), topology)


def term(
    expressions: list[tuple[str, str, list[str]]],
    topology: str = "",
    namespaces: tuple[str, ...] = (),
    namespace_selector: LabelSelector | None = None,
) -> PodAffinityTerm:
    """A v1.PodAffinityTerm written out (createPodWithAffinityTerms)."""
    return PodAffinityTerm(topology, label_selector(expressions=expressions), namespaces, namespace_selector)


# ---- TestRequiredAffinitySingleNode --------------------------------------------------------------------------------

POD_LABEL = {"service": "securityscan"}
POD_LABEL2 = {"security": "S1"}
NODE1 = node("node1", {"region": "r1", "zone": "z11"})
EXISTING_POD: Placed = (pod(labels=POD_LABEL), "node1")
TEAM1, TEAM2 = {"team": "team1"}, {"team": "team2"}
NAMESPACES = [
    Namespace("subteam1.team1", labels_of(TEAM1)),
    Namespace("subteam2.team1", labels_of(TEAM1)),
    Namespace("subteam1.team2", labels_of(TEAM2)),
    Namespace("subteam2.team2", labels_of(TEAM2)),
]
TEAM1_SELECTOR = label_selector(expressions=[("team", IN, ["team1"])])
SECURITYSCAN = [("service", IN, ["securityscan", "value2"])]

SINGLE_NODE: list[tuple[str, PodSpec, list[Placed], Failure | None]] = [
    (
        "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
        pod(),
        [],
        None,
    ),
    (
        "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches "
        "the existing pod",
        pod(labels=POD_LABEL2, pod_affinity=[aff_in("service", "region", ["securityscan", "value2"])]),
        [EXISTING_POD],
        None,
    ),
    (
        "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator "
        "in labelSelector that matches the existing pod",
        pod(labels=POD_LABEL2, pod_affinity=[aff_not_in("service", "region", ["securityscan3", "value3"])]),
        [EXISTING_POD],
        None,
    ),
    (
        "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
        pod(labels=POD_LABEL2, pod_affinity=[term(SECURITYSCAN, namespaces=("DiffNameSpace",))]),
        [(pod(namespace="ns", labels=POD_LABEL), "node1")],
        AFFINITY,
    ),
    (
        "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
        pod(labels=POD_LABEL, pod_affinity=[aff_in("service", "", ["antivirusscan", "value2"])]),
        [EXISTING_POD],
        AFFINITY,
    ),
    (
        "satisfies the PodAffinity with different label Operators in multiple "
        "RequiredDuringSchedulingIgnoredDuringExecution ",
        pod(
            labels=POD_LABEL2,
            pod_affinity=[
                term([("service", EXISTS, []), ("wrongkey", DOES_NOT_EXIST, [])], "region"),
                term([("service", IN, ["securityscan"]), ("service", NOT_IN, ["WrongValue"])], "region"),
            ],
        ),
        [EXISTING_POD],
        None,
    ),
    (
        "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node "
        "because one of the matchExpression item don't match.",
        pod(
            labels=POD_LABEL2,
            pod_affinity=[
                term([("service", EXISTS, []), ("wrongkey", DOES_NOT_EXIST, [])], "region"),
                term([("service", IN, ["securityscan2"]), ("service", NOT_IN, ["WrongValue"])], "region"),
            ],
        ),
        [EXISTING_POD],
        AFFINITY,
    ),
    (
        "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
        pod(
            labels=POD_LABEL2,
            pod_affinity=[aff_in("service", "region", ["securityscan", "value2"])],
            pod_anti_affinity=[aff_in("service", "node", ["antivirusscan", "value2"])],
        ),
        [EXISTING_POD],
        None,
    ),
    (
        "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
        pod(
            labels=POD_LABEL2,
            pod_affinity=[aff_in("service", "region", ["securityscan", "value2"])],
            pod_anti_affinity=[aff_in("service", "node", ["antivirusscan", "value2"])],
        ),
        [(pod(labels=POD_LABEL, pod_anti_affinity=[aff_in("service", "node", ["antivirusscan", "value2"])]), "node1")],
        None,
    ),
    (
        "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
        pod(
            labels=POD_LABEL2,
            pod_affinity=[aff_in("service", "region", ["securityscan", "value2"])],
            pod_anti_affinity=[aff_in("service", "zone", ["securityscan", "value2"])],
        ),
        [EXISTING_POD],
        ANTI,
    ),
    (
        "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing "
        "pod",
        pod(
            labels=POD_LABEL,
            pod_affinity=[aff_in("service", "region", ["securityscan", "value2"])],
            pod_anti_affinity=[aff_in("service", "node", ["antivirusscan", "value2"])],
        ),
        [(pod(labels=POD_LABEL, pod_anti_affinity=[aff_in("service", "zone", ["securityscan", "value2"])]), "node1")],
        EXISTING,
    ),
    (
        "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
        pod(labels=POD_LABEL, pod_affinity=[aff_not_in("service", "region", ["securityscan", "value2"])]),
        [(pod(labels={"service": "securityscan"}), "node2")],
        AFFINITY,
    ),
    (
        "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't "
        "satisfy PodAntiAffinity symmetry with the existing pod",
        pod(labels=POD_LABEL),
        [(pod(labels=POD_LABEL, pod_anti_affinity=[aff_in("service", "zone", ["securityscan", "value2"])]), "node1")],
        EXISTING,
    ),
    (
        "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy "
        "PodAntiAffinity symmetry with the existing pod",
        pod(labels=POD_LABEL),
        [
            (
                pod(labels=POD_LABEL, pod_anti_affinity=[aff_not_in("service", "zone", ["securityscan", "value2"])]),
                "node1",
            )
        ],
        None,
    ),
    (
        "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming "
        "pod",
        pod(labels=POD_LABEL, pod_anti_affinity=[aff_exists("service", "region"), aff_exists("security", "region")]),
        [(pod(labels=POD_LABEL2, pod_anti_affinity=[aff_exists("security", "zone")]), "node1")],
        ANTI,
    ),
    (
        "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
        pod(labels=POD_LABEL, pod_anti_affinity=[aff_exists("service", "zone"), aff_exists("security", "zone")]),
        [(pod(labels=POD_LABEL2, pod_anti_affinity=[aff_exists("security", "zone")]), "node1")],
        ANTI,
    ),
    (
        "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
        pod(labels=POD_LABEL2, pod_anti_affinity=[aff_exists("security", "zone")]),
        [
            (
                pod(
                    labels=POD_LABEL, pod_anti_affinity=[aff_exists("service", "zone"), aff_exists("security", "zone")]
                ),
                "node1",
            )
        ],
        EXISTING,
    ),
    (
        "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
        pod(labels={"abc": "", "xyz": ""}, pod_anti_affinity=[aff_exists("abc", "zone"), aff_exists("def", "zone")]),
        [
            (
                pod(
                    labels={"def": "", "xyz": ""},
                    pod_anti_affinity=[aff_exists("abc", "zone"), aff_exists("def", "zone")],
                ),
                "node1",
            )
        ],
        ANTI,
    ),
    (
        "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
        pod(labels={"def": "", "xyz": ""}, pod_anti_affinity=[aff_exists("abc", "zone"), aff_exists("def", "zone")]),
        [
            (
                pod(
                    labels={"abc": "", "xyz": ""},
                    pod_anti_affinity=[aff_exists("abc", "zone"), aff_exists("def", "zone")],
                ),
                "node1",
            )
        ],
        ANTI,
    ),
    (
        "affinity with NamespaceSelector",
        pod(labels=POD_LABEL2, pod_affinity=[term(SECURITYSCAN, "region", namespace_selector=TEAM1_SELECTOR)]),
        [(pod(namespace="subteam1.team1", labels=POD_LABEL), "node1")],
        None,
    ),
    (
        "affinity with non-matching NamespaceSelector",
        pod(labels=POD_LABEL2, pod_affinity=[term(SECURITYSCAN, "region", namespace_selector=TEAM1_SELECTOR)]),
        [(pod(namespace="subteam1.team2", labels=POD_LABEL), "node1")],
        AFFINITY,
    ),
    (
        "anti-affinity with matching NamespaceSelector",
        pod(
            namespace="subteam1.team1",
            labels=POD_LABEL2,
            pod_anti_affinity=[term(SECURITYSCAN, "zone", namespace_selector=TEAM1_SELECTOR)],
        ),
        [(pod(namespace="subteam2.team1", labels=POD_LABEL), "node1")],
        ANTI,
    ),
    (
        "anti-affinity with matching all NamespaceSelector",
        pod(
            namespace="subteam1.team1",
            labels=POD_LABEL2,
            pod_anti_affinity=[term(SECURITYSCAN, "zone", namespace_selector=label_selector())],
        ),
        [(pod(namespace="subteam2.team1", labels=POD_LABEL), "node1")],
        ANTI,
    ),
    (
        "anti-affinity with non-matching NamespaceSelector",
        pod(
            namespace="subteam1.team1",
            labels=POD_LABEL2,
            pod_anti_affinity=[term(SECURITYSCAN, "zone", namespace_selector=TEAM1_SELECTOR)],
        ),
        [(pod(namespace="subteam1.team2", labels=POD_LABEL), "node1")],
        None,
    ),
]


@pytest.mark.parametrize(
    ("incoming", "existing", "want"), [c[1:] for c in SINGLE_NODE], ids=[c[0] for c in SINGLE_NODE]
)
def test_required_affinity_single_node(incoming: PodSpec, existing: list[Placed], want: Failure | None) -> None:
    assert failures(incoming, [NODE1], existing, NAMESPACES) == [want]


# ---- TestRequiredAffinityMultipleNodes -----------------------------------------------------------------------------

RG_CHINA = {"region": "China"}
RG_CHINA_AZ1 = {"region": "China", "az": "az1"}
RG_INDIA = {"region": "India"}


def abc_nodes(*zones: str) -> list[NodeFacts]:
    """nodeA, nodeB, ... labelled region r1, the zones given, hostname = the node's name."""
    names = ["nodeA", "nodeB", "nodeC"]
    return [node(n, {"region": "r1", "zone": z, "hostname": n}) for n, z in zip(names, zones, strict=False)]


MULTIPLE_NODES: list[tuple[str, PodSpec, list[Placed], list[NodeFacts], list[Failure | None]]] = [
    (
        "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has "
        "an existing pod that matches the affinity rules",
        pod(pod_affinity=[aff_in("foo", "region", ["bar"])]),
        [(pod(labels={"foo": "bar"}), "node1")],
        [node("node1", RG_CHINA), node("node2", RG_CHINA_AZ1), node("node3", RG_INDIA)],
        [None, None, AFFINITY],
    ),
    (
        "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the "
        "collection should not be blocked from being scheduled onto any node, even there's no existing pod that "
        "matches the rule anywhere.",
        pod(
            labels={"foo": "bar", "service": "securityscan"},
            pod_affinity=[aff_in("foo", "zone", ["bar"]), aff_in("service", "zone", ["securityscan"])],
        ),
        [(pod(labels={"foo": "bar"}), "nodeA")],
        [node("nodeA", {"zone": "az1", "hostname": "h1"}), node("nodeB", {"zone": "az2", "hostname": "h2"})],
        [None, None],
    ),
    (
        "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
        pod(
            labels={"foo": "bar", "service": "securityscan"},
            pod_affinity=[aff_in("foo", "zone", ["bar"]), aff_in("service", "zone", ["securityscan"])],
        ),
        [(pod(labels={"foo": "bar"}), "nodeA")],
        [node("nodeA", {"zoneLabel": "az1", "hostname": "h1"}), node("nodeB", {"zoneLabel": "az2", "hostname": "h2"})],
        [AFFINITY, AFFINITY],
    ),
    (
        "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
        "affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
        pod(pod_anti_affinity=[aff_in("foo", "region", ["abc"])]),
        [(pod(labels={"foo": "abc"}), "nodeA")],
        [node("nodeA", {"region": "r1", "hostname": "nodeA"}), node("nodeB", {"region": "r1", "hostname": "nodeB"})],
        [ANTI, ANTI],
    ),
    (
        "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
        pod(pod_anti_affinity=[aff_in("foo", "region", ["abc"]), aff_in("service", "zone", ["securityscan"])]),
        [(pod(labels={"foo": "abc", "service": "securityscan"}), "nodeA")],
        abc_nodes("z1", "z2"),
        [ANTI, ANTI],
    ),
    (
        "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
        "affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
        pod(pod_anti_affinity=[aff_in("foo", "region", ["abc"])]),
        [(pod(labels={"foo": "abc"}), "nodeA")],
        [node("nodeA", RG_CHINA), node("nodeB", RG_CHINA_AZ1), node("nodeC", RG_INDIA)],
        [ANTI, ANTI, None],
    ),
    (
        "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
        "affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an "
        "existing pod that match the inter pod affinity rule but in different namespace)",
        pod(namespace="NS1", labels={"foo": "123"}, pod_anti_affinity=[aff_in("foo", "region", ["bar"])]),
        [
            (pod(namespace="NS1", labels={"foo": "bar"}), "nodeA"),
            (pod(namespace="NS2", pod_anti_affinity=[aff_in("foo", "region", ["123"])]), "nodeC"),
        ],
        [node("nodeA", RG_CHINA), node("nodeB", RG_CHINA_AZ1), node("nodeC", RG_INDIA)],
        [ANTI, ANTI, None],
    ),
    (
        "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of "
        "the term is firstly checked, and then topologyKey of the term is also checked",
        pod(labels={"foo": ""}),
        [(pod(pod_anti_affinity=[aff_exists("foo", "invalid-node-label")]), "nodeA")],
        abc_nodes("z1", "z1"),
        [None, None],
    ),
    (
        "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
        pod(pod_anti_affinity=[aff_exists("foo", "invalid-node-label")]),
        [(pod(labels={"foo": ""}), "nodeA")],
        abc_nodes("z1", "z1"),
        [None, None],
    ),
    (
        "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each "
        "existingPod's terms on all nodes",
        pod(labels={"foo": "", "bar": ""}),
        [
            (pod(pod_anti_affinity=[aff_exists("foo", "zone")]), "nodeA"),
            (pod(pod_anti_affinity=[aff_exists("bar", "region")]), "nodeA"),
        ],
        abc_nodes("z1", "z2"),
        [EXISTING, EXISTING],
    ),
    (
        "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one "
        "anti-affinity rule of existingPod",
        pod(pod_anti_affinity=[aff_exists("foo", "zone"), aff_exists("bar", "region")]),
        [(pod(labels={"foo": ""}), "nodeA"), (pod(labels={"bar": ""}), "nodeB")],
        abc_nodes("z1", "z2"),
        [ANTI, ANTI],
    ),
    (
        "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
        "single term match - case when one term has invalid topologyKey",
        pod(labels={"foo": "", "bar": ""}),
        [(pod(pod_anti_affinity=[aff_exists("foo", "invalid-node-label"), aff_exists("bar", "zone")]), "nodeA")],
        abc_nodes("z1", "z2"),
        [EXISTING, None],
    ),
    (
        "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
        "single term match - case when one term has invalid topologyKey",
        pod(pod_anti_affinity=[aff_exists("foo", "invalid-node-label"), aff_exists("bar", "zone")]),
        [(pod(labels={"foo": "", "bar": ""}), "nodeA")],
        abc_nodes("z1", "z2"),
        [ANTI, None],
    ),
    (
        "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
        "single term match - case when all terms have valid topologyKey",
        pod(labels={"foo": "", "bar": ""}),
        [(pod(pod_anti_affinity=[aff_exists("foo", "region"), aff_exists("bar", "zone")]), "nodeA")],
        abc_nodes("z1", "z2"),
        [EXISTING, EXISTING],
    ),
    (
        "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
        "single term match - case when all terms have valid topologyKey",
        pod(pod_anti_affinity=[aff_exists("foo", "region"), aff_exists("bar", "zone")]),
        [(pod(labels={"foo": "", "bar": ""}), "nodeA")],
        abc_nodes("z1", "z2"),
        [ANTI, ANTI],
    ),
    (
        "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches "
        "incoming pod, so incoming pod can only be scheduled to nodeC",
        pod(labels={"foo": "", "bar": ""}),
        [
            (pod(pod_anti_affinity=[aff_exists("foo", "zone"), aff_exists("labelA", "zone")]), "nodeA"),
            (pod(pod_anti_affinity=[aff_exists("bar", "zone"), aff_exists("labelB", "zone")]), "nodeB"),
        ],
        abc_nodes("z1", "z2", "z3"),
        [EXISTING, EXISTING, None],
    ),
    (
        "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
        "match",
        pod(pod_affinity=[aff_exists("foo", "region"), aff_exists("bar", "zone")]),
        [(pod(labels={"foo": "", "bar": ""}), "nodeA")],
        abc_nodes("z1", "z1"),
        [None, None],
    ),
    (
        "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
        "match, and the match logic should be satisfied on the same pod",
        pod(pod_affinity=[aff_exists("foo", "region"), aff_exists("bar", "zone")]),
        [(pod(labels={"foo": ""}), "nodeA"), (pod(labels={"bar": ""}), "nodeB")],
        abc_nodes("z1", "z2"),
        [AFFINITY, AFFINITY],
    ),
]


@pytest.mark.parametrize(
    ("incoming", "existing", "nodes", "want"), [c[1:] for c in MULTIPLE_NODES], ids=[c[0] for c in MULTIPLE_NODES]
)
def test_required_affinity_multiple_nodes(
    incoming: PodSpec, existing: list[Placed], nodes: list[NodeFacts], want: list[Failure | None]
) -> None:
    assert failures(incoming, nodes, existing, [Namespace("NS1")]) == want
