"""PodTopologySpread (core/predicates/pod_plugins.py) against kube-scheduler's own tables:
pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go TestSingleConstraint (the minDomains and
nodeAffinityPolicy / nodeTaintsPolicy cases included) and TestMultipleConstraints, case names as in Go (a name Go
repeats is repeated here; pytest numbers them).

The Go tables give status codes: Success is no failure, Unschedulable the skew reason, UnschedulableAndUnresolvable
the missing-label reason. Every case runs with NodeInclusionPolicyInPodTopologySpread on (GA, locked on in 1.36).
Left out: "terminating Pods should be excluded" (a pod with a deletionTimestamp: the model has no terminating pods;
the caller does not place them).
"""

from __future__ import annotations

import pytest

from tests.core.predicates.predicates_tables import IGNORE, IN, NOT_IN, Placed, failures, node, pod, spread
from tests.core.predicates.predicates_tables import exists as label_exists
from yk_cli.core.predicates.model import (
    EXISTS,
    HONOR,
    NO_SCHEDULE,
    UNSCHEDULABLE_TAINT,
    Failure,
    NodeFacts,
    PodSpec,
    Taint,
    Toleration,
)
from yk_cli.core.predicates.pod_plugins import (
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ERR_REASON_NODE_LABEL_NOT_MATCH,
    POD_TOPOLOGY_SPREAD,
)

S = None
U = Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_CONSTRAINTS_NOT_MATCH)
UU = Failure(POD_TOPOLOGY_SPREAD, ERR_REASON_NODE_LABEL_NOT_MATCH)

FOO = label_exists("foo")
BAR = label_exists("bar")
TAINTS = (Taint(UNSCHEDULABLE_TAINT, "", NO_SCHEDULE),)


def std_nodes(extra: dict[str, dict[str, str]] | None = None, taint: str = "") -> list[NodeFacts]:
    """node-a, node-b in zone1 and node-x, node-y in zone2, each labelled node=<name> (plus `extra` labels)."""
    out = []
    for name, zone in (("node-a", "zone1"), ("node-b", "zone1"), ("node-x", "zone2"), ("node-y", "zone2")):
        labels = {"zone": zone, "node": name, **(extra or {}).get(name, {})}
        out.append(node(name, labels, TAINTS if name == taint else ()))
    return out


def foo_on(*nodes: str, labels: dict[str, str] | None = None, namespace: str = "") -> list[Placed]:
    """st.MakePod().Node(n).Label("foo", "") for each node given (repeat a node for several pods)."""
    return [(pod(namespace=namespace, labels=labels if labels is not None else {"foo": ""}), n) for n in nodes]


def foo_pod(*constraints: object, labels: dict[str, str] | None = None, **kw: object) -> PodSpec:
    return pod(labels=labels if labels is not None else {"foo": ""}, topology_spread=constraints, **kw)  # type: ignore[arg-type]


FOO_EVERYWHERE = {"node-a": {"foo": ""}, "node-b": {"foo": ""}, "node-x": {"foo": ""}}
"""The nodeAffinityPolicy cases' node labels: foo on node-a, node-b and node-x, not node-y."""
NODE_ONLY = [node(n, {"node": n, **FOO_EVERYWHERE.get(n, {})}) for n in ("node-a", "node-b", "node-x", "node-y")]
NODE_ONLY_TAINTED = [
    node(n, {"node": n, **FOO_EVERYWHERE.get(n, {})}, TAINTS if n == "node-y" else ())
    for n in ("node-a", "node-b", "node-x", "node-y")
]
ABC = [node(n, {"node": n}) for n in ("node-a", "node-b", "node-c")]
SELECT_FOO = {"node_selector": {"foo": ""}}

# (name, incoming pod, nodes, existing pods, want per node)
SINGLE: list[tuple[str, PodSpec, list[NodeFacts], list[Placed], list[Failure | None]]] = [
    ("no existing pods", foo_pod(spread(1, "zone", label_selector=FOO)), std_nodes(), [], [S, S, S, S]),
    (
        "no existing pods, incoming pod doesn't match itself",
        foo_pod(spread(1, "zone", label_selector=BAR)),
        std_nodes(),
        [],
        [S, S, S, S],
    ),
    (
        "existing pods in a different namespace do not count",
        foo_pod(spread(1, "zone", label_selector=FOO)),
        std_nodes(),
        foo_on("node-a", namespace="ns1") + foo_on("node-a", namespace="ns2") + foo_on("node-x", "node-y"),
        [S, S, U, U],
    ),
    (
        "existing pods do not match null selector",
        foo_pod(spread(1, "zone")),
        std_nodes(),
        foo_on("node-x", "node-y"),
        [S, S, S, S],
    ),
    (
        "pods spread across zones as 3/3, all nodes fit",
        foo_pod(spread(1, "zone", label_selector=FOO)),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [S, S, S, S],
    ),
    (
        "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
        foo_pod(spread(1, "zone", label_selector=FOO)),
        [
            node("node-a", {"zone": "zone1", "node": "node-a"}),
            node("node-b", {"zon": "zone1", "node": "node-b"}),
            node("node-x", {"zone": "zone2", "node": "node-x"}),
            node("node-y", {"zone": "zone2", "node": "node-y"}),
        ],
        foo_on("node-a", "node-b", "node-x", "node-y"),
        [S, UU, U, U],
    ),
    (
        "pod cannot be scheduled as all nodes don't have label 'rack'",
        foo_pod(spread(1, "rack", label_selector=FOO)),
        [node("node-a", {"zone": "zone1", "node": "node-a"}), node("node-x", {"zone": "zone2", "node": "node-x"})],
        [],
        [UU, UU],
    ),
    (
        "pods spread across nodes as 2/1/0/3, only node-x fits",
        foo_pod(spread(1, "node", label_selector=FOO)),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [U, U, S, U],
    ),
    (
        "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
        foo_pod(spread(2, "node", label_selector=FOO)),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [U, S, S, U],
    ),
    (
        "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
        foo_pod(spread(1, "node", label_selector=FOO), labels={"bar": ""}),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [U, S, S, U],
    ),
    (
        "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
        foo_pod(spread(1, "node", label_selector=FOO), node_affinity=[("node", IN, ["node-a", "node-y"])]),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [S, S, S, U],  # node-b and node-x: NodeAffinity would reject them, it does not run here
    ),
    (
        "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
        foo_pod(spread(1, "zone", label_selector=FOO), node_affinity=[("node", NOT_IN, ["node-b"])]),
        std_nodes(),
        foo_on("node-b", "node-b", "node-y"),
        [S, S, U, U],
    ),
    (
        "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third "
        "node fits",
        foo_pod(spread(2, "node", label_selector=FOO, min_domains=4)),
        ABC,
        foo_on("node-a", "node-a", "node-b", "node-b", "node-c"),
        [U, U, S],
    ),
    (
        "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all "
        "nodes fit",
        foo_pod(spread(2, "node", label_selector=FOO, min_domains=2)),
        ABC,
        foo_on("node-a", "node-a", "node-b", "node-b", "node-c"),
        [S, S, S],
    ),
    (
        "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and "
        "fourth nodes fit",
        foo_pod(spread(2, "zone", label_selector=FOO, min_domains=3)),
        std_nodes(),
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, S],
    ),
    (
        "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
        foo_pod(spread(2, "zone", label_selector=FOO, min_domains=1)),
        std_nodes(),
        foo_on("node-a", "node-b", "node-y"),
        [S, S, S, S],
    ),
    (
        "NodeAffinityPolicy honored with labelSelectors",
        foo_pod(spread(1, "node", label_selector=FOO), **SELECT_FOO),
        NODE_ONLY,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, S],
    ),
    (
        "NodeAffinityPolicy ignored with labelSelectors",
        foo_pod(spread(1, "node", label_selector=FOO, node_affinity_policy=IGNORE), **SELECT_FOO),
        NODE_ONLY,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
    (
        "NodeAffinityPolicy honored with nodeAffinity",
        foo_pod(spread(1, "node", label_selector=FOO), node_affinity=[("foo", IN, [""])]),
        NODE_ONLY,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, S],
    ),
    (
        "NodeAffinityPolicy ignored with labelSelectors",
        foo_pod(spread(1, "node", label_selector=FOO, node_affinity_policy=IGNORE), node_affinity=[("foo", IN, [""])]),
        NODE_ONLY,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
    (
        "NodeTaintsPolicy honored",
        foo_pod(spread(1, "node", label_selector=FOO, node_taints_policy=HONOR)),
        NODE_ONLY_TAINTED,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, S],  # node-y: TaintToleration would reject it, it does not run here
    ),
    (
        "NodeTaintsPolicy ignored",
        foo_pod(spread(1, "node", label_selector=FOO)),
        NODE_ONLY_TAINTED,
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
]


@pytest.mark.parametrize(("incoming", "nodes", "existing", "want"), [c[1:] for c in SINGLE], ids=[c[0] for c in SINGLE])
def test_single_constraint(
    incoming: PodSpec, nodes: list[NodeFacts], existing: list[Placed], want: list[Failure | None]
) -> None:
    assert failures(incoming, nodes, existing) == want


FOO_BAR = {"foo": "", "bar": ""}
ZONE_NODE_FOO = spread(1, "zone", label_selector=FOO), spread(1, "node", label_selector=FOO)
ZONE_FOO_NODE_BAR = spread(1, "zone", label_selector=FOO), spread(1, "node", label_selector=BAR)
FOO_NODES = {"node-a": {"foo": ""}, "node-b": {"foo": ""}, "node-x": {"foo": ""}}
FOO_NOT_B = {"node-a": {"foo": ""}, "node-x": {"foo": ""}, "node-y": {"foo": ""}}

MULTIPLE: list[tuple[str, PodSpec, list[NodeFacts], list[Placed], list[Failure | None]]] = [
    (
        "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
        foo_pod(*ZONE_NODE_FOO),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y"),
        [U, U, S, U],
    ),
    (
        "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
        foo_pod(*ZONE_NODE_FOO),
        std_nodes(),
        foo_on("node-a", "node-a", "node-b", "node-y", "node-y", "node-y", "node-y"),
        [U, U, U, U],
    ),
    (
        "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
        foo_pod(*ZONE_FOO_NODE_BAR, labels=FOO_BAR),
        std_nodes(),
        foo_on("node-a") + foo_on("node-y", labels={"bar": ""}),
        [U, U, S, U],
    ),
    (
        "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
        foo_pod(*ZONE_FOO_NODE_BAR, labels=FOO_BAR),
        std_nodes(),
        foo_on("node-a") + foo_on("node-x", "node-y", labels={"bar": ""}),
        [U, U, U, U],
    ),
    (
        "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
        foo_pod(*ZONE_FOO_NODE_BAR, labels=FOO_BAR),
        std_nodes(),
        foo_on("node-a")
        + foo_on("node-a", labels=FOO_BAR)
        + foo_on("node-y")
        + foo_on("node-y", labels=FOO_BAR)
        + foo_on("node-y"),
        [U, S, U, U],
    ),
    (
        "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
        foo_pod(*ZONE_FOO_NODE_BAR, labels={"bar": ""}),
        std_nodes(),
        foo_on("node-a") + foo_on("node-x", "node-y", labels={"bar": ""}),
        [S, S, U, U],
    ),
    (
        "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
        foo_pod(*ZONE_NODE_FOO),
        [
            node("node-a", {"zone": "zone1", "node": "node-a"}),
            node("node-b", {"zone": "zone1", "node": "node-b"}),
            node("node-x", {"zone": "zone2"}),
            node("node-y", {"zone": "zone2", "node": "node-y"}),
        ],
        foo_on("node-a", "node-y"),
        [U, S, UU, U],
    ),
    (
        "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        foo_pod(
            spread(1, "zone", label_selector=FOO),
            spread(1, "node", label_selector=FOO, node_affinity_policy=IGNORE),
            **SELECT_FOO,
        ),
        std_nodes(FOO_NODES),
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
    (
        "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        foo_pod(spread(1, "zone", label_selector=FOO, node_taints_policy=HONOR), spread(1, "node", label_selector=FOO)),
        std_nodes(FOO_NODES, taint="node-y"),
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
    (
        "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        foo_pod(*ZONE_NODE_FOO, **SELECT_FOO),
        std_nodes(FOO_NOT_B, taint="node-y"),
        foo_on("node-a", "node-b", "node-y"),
        [U, S, S, U],
    ),
    (
        "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
        foo_pod(
            spread(1, "zone", label_selector=FOO, node_taints_policy=HONOR),
            spread(1, "node", label_selector=FOO, node_affinity_policy=IGNORE),
            **SELECT_FOO,
        ),
        std_nodes(FOO_NOT_B, taint="node-y"),
        foo_on("node-a", "node-b", "node-y"),
        [U, U, S, U],
    ),
]


@pytest.mark.parametrize(
    ("incoming", "nodes", "existing", "want"), [c[1:] for c in MULTIPLE], ids=[c[0] for c in MULTIPLE]
)
def test_multiple_constraints(
    incoming: PodSpec, nodes: list[NodeFacts], existing: list[Placed], want: list[Failure | None]
) -> None:
    assert failures(incoming, nodes, existing) == want


def test_tolerated_taint_keeps_the_domain_under_honor() -> None:
    """nodeTaintsPolicy Honor counts a tainted node the pod tolerates (st.MakePod().Toleration(key): Exists)."""
    tolerant = foo_pod(
        spread(1, "node", label_selector=FOO, node_taints_policy=HONOR),
        tolerations=[Toleration(UNSCHEDULABLE_TAINT, EXISTS, effect=NO_SCHEDULE)],
    )
    assert failures(tolerant, NODE_ONLY_TAINTED, foo_on("node-a", "node-b", "node-y")) == [U, U, S, U]


def test_min_domains_with_no_eligible_domain_is_zero() -> None:
    """No eligible domain at all: MinMatchNum stays MaxInt32, but fewer domains than minDomains (1) makes it 0, and
    pods on ineligible nodes do not count: every node passes the spread (NodeAffinity rejects them, elsewhere)."""
    incoming = foo_pod(spread(1, "zone", label_selector=FOO), node_affinity=[("zone", IN, ["nowhere"])])
    assert failures(incoming, std_nodes(), foo_on("node-a", "node-a")) == [S, S, S, S]
