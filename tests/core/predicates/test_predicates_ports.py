"""NodePorts (core/predicates/pod_plugins.py) against kube-scheduler's own table:
pkg/scheduler/framework/plugins/nodeports/node_ports_test.go TestNodePorts (Kubernetes 1.36, init container cases
included), case names as in Go.

newPod(host, "PROTOCOL/HOSTIP/PORT"...) is a pod whose containers ask those host ports; framework.NewNodeInfo(pods...)
is a node running those pods. A "skip filter" PreFilter result (no host ports) is the pod passing every node.
"""

from __future__ import annotations

import pytest

from tests.core.predicates.predicates_tables import failures, node, pod, ports
from yk_cli.core.predicates.model import Failure, HostPort, PodSpec
from yk_cli.core.predicates.placed import PlacedPods
from yk_cli.core.predicates.pod_plugins import ERR_REASON_NODE_PORTS, NODE_PORTS, pod_failure, prepare

CONFLICT = Failure(NODE_PORTS, ERR_REASON_NODE_PORTS)


def new_pod(*specs: str) -> PodSpec:
    return pod(host_ports=ports(*specs))


# st.MakePod().InitContainerPort(sidecar, ports): a sidecar's (restartPolicy Always) host ports are the pod's, a plain
# init container's are not (pkg/scheduler/util GetHostPorts; decode.py keeps the same rule).
SIDECAR_8001 = pod(host_ports=(HostPort(8001, "TCP"),))
INIT_8001 = pod()

# (name, incoming pod, pods on the node, want)
NODE_PORTS_CASES: list[tuple[str, PodSpec, list[PodSpec], Failure | None]] = [
    ("skip filter", PodSpec(namespace=""), [], None),
    ("other port", new_pod("UDP/127.0.0.1/8080"), [new_pod("UDP/127.0.0.1/9090")], None),
    ("same udp port", new_pod("UDP/127.0.0.1/8080"), [new_pod("UDP/127.0.0.1/8080")], CONFLICT),
    ("same tcp port", new_pod("TCP/127.0.0.1/8080"), [new_pod("TCP/127.0.0.1/8080")], CONFLICT),
    ("different host ip", new_pod("TCP/127.0.0.1/8080"), [new_pod("TCP/127.0.0.2/8080")], None),
    ("different protocol", new_pod("UDP/127.0.0.1/8080"), [new_pod("TCP/127.0.0.1/8080")], None),
    (
        "second udp port conflict",
        new_pod("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
        [new_pod("UDP/127.0.0.1/8080")],
        CONFLICT,
    ),
    (
        "first tcp port conflict",
        new_pod("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
        [new_pod("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")],
        CONFLICT,
    ),
    (
        "first tcp port conflict due to 0.0.0.0 hostIP",
        new_pod("TCP/0.0.0.0/8001"),
        [new_pod("TCP/127.0.0.1/8001")],
        CONFLICT,
    ),
    (
        "TCP hostPort conflict due to 0.0.0.0 hostIP",
        new_pod("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
        [new_pod("TCP/127.0.0.1/8001")],
        CONFLICT,
    ),
    (
        "second tcp port conflict to 0.0.0.0 hostIP",
        new_pod("TCP/127.0.0.1/8001"),
        [new_pod("TCP/0.0.0.0/8001")],
        CONFLICT,
    ),
    ("second different protocol", new_pod("UDP/127.0.0.1/8001"), [new_pod("TCP/0.0.0.0/8001")], None),
    (
        "UDP hostPort conflict due to 0.0.0.0 hostIP",
        new_pod("UDP/127.0.0.1/8001"),
        [new_pod("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001")],
        CONFLICT,
    ),
    ("non-sidecar initContainer using hostPort", INIT_8001, [new_pod("TCP/0.0.0.0/8001")], None),
    ("TCP hostPort conflict from sidecar initContainer", SIDECAR_8001, [new_pod("TCP/0.0.0.0/8001")], CONFLICT),
]


@pytest.mark.parametrize(
    ("incoming", "on_node", "want"), [c[1:] for c in NODE_PORTS_CASES], ids=[c[0] for c in NODE_PORTS_CASES]
)
def test_node_ports(incoming: PodSpec, on_node: list[PodSpec], want: Failure | None) -> None:
    m1 = node("m1")
    assert failures(incoming, [m1], [(p, "m1") for p in on_node]) == [want]


def test_empty_host_ip_and_protocol_are_bind_all_and_tcp() -> None:
    """HostPortInfo's sanitize: hostIP "" is 0.0.0.0, protocol "" is TCP."""
    m1 = node("m1")
    assert failures(pod(host_ports=(HostPort(80, "", ""),)), [m1], [(new_pod("TCP/10.0.0.1/80"), "m1")]) == [CONFLICT]
    assert failures(new_pod("TCP/10.0.0.1/80"), [m1], [(pod(host_ports=(HostPort(80, "", ""),)), "m1")]) == [CONFLICT]
    assert failures(new_pod("UDP/10.0.0.1/80"), [m1], [(pod(host_ports=(HostPort(80, "", ""),)), "m1")]) == [None]


def test_ports_are_per_node_and_freed_by_remove_and_by_removed() -> None:
    a, b = node("a"), node("b")
    placed = PlacedPods([a, b])
    user = new_pod("TCP/0.0.0.0/8080")
    placed.add(user, "a")
    incoming = new_pod("TCP/127.0.0.1/8080")
    state = prepare(incoming, placed)
    assert (state.failure(a), state.failure(b)) == (CONFLICT, None)
    assert pod_failure(incoming, a, placed, removed=[(user, "a")]) is None
    assert pod_failure(incoming, a, placed, removed=[(user, "b")]) == CONFLICT  # removed from another node
    placed.add(user, "a")
    assert pod_failure(incoming, a, placed, removed=[(user, "a")]) == CONFLICT  # a second pod still holds it
    placed.remove(user, "a")
    placed.remove(user, "a")
    assert pod_failure(incoming, a, placed) is None
