"""`yk volcano simulate` and `yk volcano explain` with node predicates, end to end through the CLI.

Volcano's predicates plugin runs kube-scheduler's Filters (NodeUnschedulable, NodeAffinity, TaintToleration,
NodePorts, InterPodAffinity, PodTopologySpread) with its `predicate.*Enable` arguments; a task that finds no node
waits with Volcano's FitErrors message in kube-scheduler's words. samples/volcano/predicates.yaml is the worked
example; the small dumps here each show one behaviour.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.helpers.paths import ROOT
from yk_cli.load.volcano import load_volcano
from yk_cli.load.volcano_fast import load_volcano_fast

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

SAMPLE = "samples/volcano/predicates.yaml"
SIM_SCHEMA = json.loads((ROOT / "schemas" / "volcano-simulate.schema.json").read_text())
EXPLAIN_SCHEMA = json.loads((ROOT / "schemas" / "volcano-explain.schema.json").read_text())
UNSCHEDULABLE = "node(s) were unschedulable"
TAINT = "node(s) had untolerated taint(s)"
SELECTOR = "node(s) didn't match Pod's node affinity/selector"
ANTI = "node(s) didn't match pod anti-affinity rules"
SPREAD = "node(s) didn't match pod topology spread constraints"
PORTS = "node(s) didn't have free ports for the requested pod ports"
CONF = """actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
  - name: conformance
- plugins:
  - name: overcommit
  - name: drf
  - name: predicates{arguments}
  - name: proportion
  - name: nodeorder
"""
NO_PREDICATES = CONF.replace("  - name: predicates{arguments}\n", "")


# -- building small dumps ------------------------------------------------------------------------------------------


def node(name: str, cpu: int, labels: dict[str, str] | None = None, taints: list[dict[str, str]] | None = None,
         unschedulable: bool = False) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
        "spec": spec,
        "status": {"allocatable": {"cpu": str(cpu), "memory": "64Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}]},
    }


def pod(name: str, second: int, cpu: str = "1", labels: dict[str, str] | None = None, group: str = "",
        node_name: str = "", priority_class: str = "", namespace: str = "ns", **spec: Any) -> dict[str, Any]:
    """A volcano pod (created at 10:00:<second>, which orders the jobs); `spec` holds its predicate fields."""
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "uid": name,
                            "creationTimestamp": f"2026-05-01T10:00:{second:02d}Z"}
    if labels:
        meta["labels"] = labels
    if group:
        meta["annotations"] = {"scheduling.k8s.io/group-name": group}
    body: dict[str, Any] = {"schedulerName": "volcano",
                            "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu, "memory": "1Gi"}}}],
                            **spec}
    if node_name:
        body["nodeName"] = node_name
    if priority_class:
        body["priorityClassName"] = priority_class
    phase = "Running" if node_name else "Pending"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": body, "status": {"phase": phase}}


def group(name: str, second: int, min_member: int = 1, priority_class: str = "", phase: str = "Inqueue",
          namespace: str = "ns") -> dict[str, Any]:
    spec: dict[str, Any] = {"queue": "default", "minMember": min_member}
    if priority_class:
        spec["priorityClassName"] = priority_class
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": namespace, "creationTimestamp": f"2026-05-01T10:00:{second:02d}Z"},
            "spec": spec, "status": {"phase": phase}}


QUEUE = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "default"},
         "spec": {"weight": 1}, "status": {"state": "Open"}}
CLASSES = [
    {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "low"}, "value": 10},
    {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000},
]
ANTI_APP_X = {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
    {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"app": "x"}}}]}}}


def write(tmp_path: Path, items: list[dict[str, Any]], name: str = "dump.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [QUEUE, *items]}, indent=1))
    return str(path)


def conf(tmp_path: Path, text: str) -> str:
    path = tmp_path / "volcano-scheduler.conf"
    path.write_text(text)
    return str(path)


def with_arguments(**arguments: object) -> str:
    lines = "".join(f"\n      {key}: {json.dumps(value)}" for key, value in arguments.items())
    return CONF.format(arguments="\n    arguments:" + lines if arguments else "")


def simulate(run_yk, *args: str) -> dict[str, Any]:
    result = run_yk("volcano", "simulate", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.validate(data, SIM_SCHEMA)
    return data


def events(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for action in data["actions"] for e in action["events"] if e["type"] == kind]


def binds(data: dict[str, Any]) -> dict[str, str]:
    return {e["task"]: e["node"] for e in events(data, "bind")}


def waiting(data: dict[str, Any]) -> dict[str, str]:
    return {e["task"]: e["reason"] for e in events(data, "no-node")}


# -- the sample ----------------------------------------------------------------------------------------------------


def test_sample_places_pods_where_kubernetes_would(run_yk) -> None:
    data = simulate(run_yk, SAMPLE)
    assert binds(data) == {
        "shop/web-0": "node-a",  # not node-c (cordoned), gpu-1 or cp-1 (tainted), though they have more idle cpu
        "shop/web-1": "node-b",  # zone a already has web-0: the spread constraint sends it to zone b
        "shop/db-0": "node-a",
        "shop/db-1": "node-b",  # anti-affinity: not beside db-0
        "ml/train-0": "gpu-1",  # selects pool=gpu and tolerates its taint
        "ml/batch-0": "node-c",  # tolerates node.kubernetes.io/unschedulable: the cordoned node takes it
    }
    assert waiting(data) == {
        "shop/web-2": f"0/5 nodes are unavailable: 1 {UNSCHEDULABLE}, 2 {SPREAD}, 2 {TAINT}.",
        "shop/db-2": f"0/5 nodes are unavailable: 1 {UNSCHEDULABLE}, 2 {ANTI}, 2 {TAINT}.",
        "ml/tpu-0": f"0/5 nodes are unavailable: 1 {UNSCHEDULABLE}, 4 {SELECTOR}.",
    }
    db2 = next(e for e in events(data, "no-node") if e["task"] == "shop/db-2")
    assert db2["reasons"] == {TAINT: 2, ANTI: 2, UNSCHEDULABLE: 1}


def test_sample_text_names_the_reasons(run_yk) -> None:
    result = run_yk("volcano", "simulate", SAMPLE)
    assert result.exit_code == 0
    assert (f"  no node    ml/tpu-0: 0/5 nodes are unavailable: 1 {UNSCHEDULABLE}, 4 {SELECTOR}. (job "
            "ml/podgroup-tpu-0, queue default)\n") in result.stdout


def test_without_the_predicates_plugin_nothing_filters(run_yk, tmp_path: Path) -> None:
    data = simulate(run_yk, SAMPLE, "--conf", conf(tmp_path, NO_PREDICATES))
    placed = binds(data)
    assert placed["shop/web-0"] == "node-c"  # the most idle cpu, cordoned or not
    assert placed["ml/tpu-0"] in ("node-c", "gpu-1", "cp-1")
    assert not waiting(data)


def test_the_sample_reads_the_same_from_json(tmp_path: Path) -> None:
    from tests.helpers.volcano import as_json

    fast = load_volcano_fast([str(as_json(ROOT / SAMPLE, tmp_path))])
    assert fast is not None
    full = load_volcano([str(ROOT / SAMPLE)])
    assert fast.cluster == full.cluster
    assert {n.name: len(n.taints) for n in full.cluster.nodes} == {
        "cp-1": 1, "gpu-1": 1, "node-a": 0, "node-b": 0, "node-c": 1
    }
    assert [ns.name for ns in full.cluster.namespaces] == ["shop", "ml"]


# -- taints, cordoned nodes, selectors -------------------------------------------------------------------------------


def test_taints_and_a_cordoned_node(run_yk, tmp_path: Path) -> None:
    items = [
        node("big-tainted", 16, taints=[{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]),
        node("cordoned", 32, unschedulable=True),
        node("small", 2),
        pod("plain-0", 1),
        pod("plain-1", 2),
        pod("plain-2", 3),
        pod("tolerant-0", 4, tolerations=[{"key": "dedicated", "operator": "Equal", "value": "infra",
                                           "effect": "NoSchedule"}]),
        pod("cordon-ok", 5, tolerations=[{"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}]),
        pod("executes", 6, tolerations=[{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}]),
    ]
    data = simulate(run_yk, write(tmp_path, items))
    assert binds(data) == {
        "ns/plain-0": "small", "ns/plain-1": "small", "ns/tolerant-0": "big-tainted", "ns/cordon-ok": "cordoned",
    }
    assert waiting(data) == {
        "ns/plain-2": f"0/3 nodes are unavailable: 1 Insufficient cpu, 1 {TAINT}, 1 {UNSCHEDULABLE}.",
        "ns/executes": f"0/3 nodes are unavailable: 1 Insufficient cpu, 1 {TAINT}, 1 {UNSCHEDULABLE}.",
    }


def test_prefer_no_schedule_taints_do_not_filter(run_yk, tmp_path: Path) -> None:
    """A PreferNoSchedule taint filters nothing (p fits only the tainted node and goes there); it only scores."""
    soft = node("soft", 8, taints=[{"key": "spot", "effect": "PreferNoSchedule"}])
    items = [soft, node("hard", 2), pod("p", 1, cpu="3")]
    assert binds(simulate(run_yk, write(tmp_path, items))) == {"ns/p": "soft"}


def test_prefer_no_schedule_taints_score(run_yk, tmp_path: Path) -> None:
    """nodeorder's TaintToleration (weight 3) gives the untainted node 300 and the tainted one 0: more than the
    tainted node's emptier resources weigh (LeastAllocated and BalancedAllocation, at most 100 each)."""
    items = [node("soft", 8, taints=[{"key": "spot", "effect": "PreferNoSchedule"}]), node("hard", 2), pod("p", 1)]
    assert binds(simulate(run_yk, write(tmp_path, items))) == {"ns/p": "hard"}
    tolerant = pod("p", 1, tolerations=[{"key": "spot", "operator": "Exists", "effect": "PreferNoSchedule"}])
    assert binds(simulate(run_yk, write(tmp_path, [*items[:2], tolerant]))) == {"ns/p": "soft"}


def test_node_affinity_and_selector(run_yk, tmp_path: Path) -> None:
    required = {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n-hdd-2"]}]},
    ]}
    items = [
        node("n-ssd", 2, {"disk": "ssd", "zone": "a"}),
        node("n-hdd", 8, {"disk": "hdd", "zone": "a"}),
        node("n-hdd-2", 4, {"disk": "hdd", "zone": "b"}),
        pod("affine-0", 1, affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}),
        pod("affine-1", 2, affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}),
        pod("zone-b-ssd", 3, nodeSelector={"zone": "b", "disk": "ssd"}),
    ]
    data = simulate(run_yk, write(tmp_path, items))
    assert binds(data) == {"ns/affine-0": "n-hdd-2", "ns/affine-1": "n-hdd-2"}
    assert waiting(data) == {"ns/zone-b-ssd": f"0/3 nodes are unavailable: 3 {SELECTOR}."}


# -- the plugin's arguments ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argument", "value", "task", "node_name"),
    [
        ("predicate.TaintTolerationEnable", False, "shop/web-0", "gpu-1"),  # the most idle node not cordoned
        ("predicate.TaintTolerationEnable", "false", "shop/web-0", "gpu-1"),  # GetBool parses strings too
        ("predicate.TaintTolerationEnable", "no", "shop/web-0", "node-a"),  # ... as strconv.ParseBool: "no" is not one
        ("predicate.NodeAffinityEnable", False, "ml/tpu-0", "node-a"),  # no selector; the taints still count
        ("predicate.PodAffinityEnable", False, "shop/db-2", "node-a"),
        ("predicate.PodTopologySpreadEnable", False, "shop/web-2", "node-a"),
    ],
)
def test_predicate_arguments(run_yk, tmp_path: Path, argument: str, value: object, task: str, node_name: str) -> None:
    data = simulate(run_yk, SAMPLE, "--conf", conf(tmp_path, with_arguments(**{argument: value})))
    assert binds(data).get(task) == node_name


def test_an_unquoted_yaml_boolean_argument(run_yk, tmp_path: Path) -> None:
    """yaml.v2 reads an unquoted `no` as false into the arguments map; quoted, it is a string GetBool refuses."""
    text = CONF.format(arguments="\n    arguments:\n      predicate.TaintTolerationEnable: no")
    assert binds(simulate(run_yk, SAMPLE, "--conf", conf(tmp_path, text)))["shop/web-0"] == "gpu-1"


def test_node_unschedulable_has_no_argument(run_yk, tmp_path: Path) -> None:
    everything_off = {key: False for key in ("predicate.NodeAffinityEnable", "predicate.TaintTolerationEnable",
                                             "predicate.PodAffinityEnable", "predicate.PodTopologySpreadEnable",
                                             "predicate.NodePortsEnable")}
    data = simulate(run_yk, SAMPLE, "--conf", conf(tmp_path, with_arguments(**everything_off)))
    assert "node-c" not in {n for t, n in binds(data).items() if t != "ml/batch-0"}
    assert not any(UNSCHEDULABLE not in reason for reason in waiting(data).values())


def test_enable_predicate_false_turns_the_plugin_off(run_yk, tmp_path: Path) -> None:
    text = CONF.format(arguments="\n    enablePredicate: false")
    data = simulate(run_yk, SAMPLE, "--conf", conf(tmp_path, text))
    assert binds(data)["shop/web-0"] == "node-c"


# -- pods that depend on other pods ------------------------------------------------------------------------------------


def test_host_ports(run_yk, tmp_path: Path) -> None:
    port = {"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 8080}],
                            "resources": {"requests": {"cpu": "1"}}}]}
    items = [node("n1", 8), pod("agent-0", 1, **port), pod("agent-1", 2, **port),
             pod("other-port", 3, containers=[{"name": "c", "ports": [{"containerPort": 80, "hostPort": 8081}]}])]
    data = simulate(run_yk, write(tmp_path, items))
    assert binds(data) == {"ns/agent-0": "n1", "ns/other-port": "n1"}
    assert waiting(data) == {"ns/agent-1": f"0/1 nodes are unavailable: 1 {PORTS}."}


def test_running_pods_anti_affinity_keeps_others_away(run_yk, tmp_path: Path) -> None:
    """The symmetry rule: a running pod's required anti-affinity rejects a new pod it matches, on its node."""
    items = [
        node("n1", 8), node("n2", 2),
        group("guard", 0, phase="Running"),
        pod("guard-0", 0, labels={"app": "guard"}, group="guard", node_name="n1", **ANTI_APP_X),
        pod("x-0", 1, labels={"app": "x"}),
        pod("y-0", 2, labels={"app": "y"}),
    ]
    assert binds(simulate(run_yk, write(tmp_path, items))) == {"ns/x-0": "n2", "ns/y-0": "n1"}


def test_pod_affinity_first_of_its_group_and_followers(run_yk, tmp_path: Path) -> None:
    affinity = {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "cache"}}}]}}}
    items = [
        node("a-1", 4, {"zone": "a"}), node("b-1", 8, {"zone": "b"}), node("b-2", 8, {"zone": "b"}),
        pod("cache-0", 1, labels={"app": "cache"}, **affinity),  # the first of its group: matches itself
        pod("app-0", 2, labels={"app": "app"}, **affinity),
        pod("app-1", 3, labels={"app": "app"}, **affinity),
    ]
    placed = binds(simulate(run_yk, write(tmp_path, items)))
    assert placed["ns/cache-0"] == "b-1"
    assert {placed["ns/app-0"], placed["ns/app-1"]} <= {"b-1", "b-2"}


def test_a_discarded_gang_leaves_no_pod_behind(run_yk, tmp_path: Path) -> None:
    """gang undoes a job that did not become ready: its placements leave the predicates' view of the node too."""
    items = [
        node("n1", 8),
        group("pair", 1, min_member=2),
        pod("pair-0", 1, labels={"app": "x"}, group="pair", **ANTI_APP_X),
        pod("pair-1", 2, labels={"app": "x"}, group="pair", **ANTI_APP_X),
        pod("after", 3, labels={"app": "x"}, **ANTI_APP_X),
    ]
    data = simulate(run_yk, write(tmp_path, items))
    assert [e["job"] for e in events(data, "gang-discarded")] == ["ns/pair"]
    assert binds(data) == {"ns/after": "n1"}
    assert waiting(data)["ns/pair-1"] == f"0/1 nodes are unavailable: 1 {ANTI}."


# -- preemption --------------------------------------------------------------------------------------------------------


PREEMPT = NO_PREDICATES.replace("enqueue, allocate, backfill", "enqueue, allocate, preempt").replace(
    "  - name: drf\n", "  - name: drf\n  - name: predicates\n"
)


def _full_nodes(preemptor_spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        *CLASSES,
        node("n1", 2, {"pool": "a"}), node("n2", 2, {"pool": "b"}),
        group("low", 0, priority_class="low", phase="Running"),
        pod("low-0", 0, cpu="2", group="low", node_name="n1", priority_class="low"),
        pod("low-1", 0, cpu="2", group="low", node_name="n2", priority_class="low"),
        group("high", 1, priority_class="high"),
        pod("high-0", 1, cpu="2", group="high", priority_class="high", **preemptor_spec),
    ]


def test_preempt_tries_only_nodes_the_predicates_leave(run_yk, tmp_path: Path) -> None:
    conf_path = conf(tmp_path, PREEMPT)
    plain = simulate(run_yk, write(tmp_path, _full_nodes({}), "plain.json"), "--conf", conf_path)
    assert [(e["task"], e["node"]) for e in events(plain, "evict")] == [("ns/low-0", "n1")]
    selected = simulate(run_yk, write(tmp_path, _full_nodes({"nodeSelector": {"pool": "b"}}), "b.json"), "--conf",
                        conf_path)
    assert [(e["task"], e["node"]) for e in events(selected, "evict")] == [("ns/low-1", "n2")]
    assert [(e["task"], e["node"]) for e in events(selected, "pipeline")] == [("ns/high-0", "n2")]


def test_preempt_never_targets_a_node_failing_inter_pod_affinity(run_yk, tmp_path: Path) -> None:
    """Volcano turns an InterPodAffinity failure into UnschedulableAndUnresolvable (volcano-sh/volcano#3845):
    evicting the pod the preemptor's anti-affinity points at is never tried."""
    items = _full_nodes({"labels": {}, **ANTI_APP_X})
    for item in items:
        if item["kind"] == "Pod" and item["metadata"]["name"].startswith("low"):
            item["metadata"]["labels"] = {"app": "x"}
    data = simulate(run_yk, write(tmp_path, items), "--conf", conf(tmp_path, PREEMPT))
    assert events(data, "evict") == []


# -- explain -----------------------------------------------------------------------------------------------------------


def test_explain_a_waiting_pod_names_every_node(run_yk) -> None:
    result = run_yk("volcano", "explain", SAMPLE, "shop/db-2")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "Answer: Waiting: no node takes it (why below); no victim selection looked at it.\n" in text
    assert "Why it waits (no node takes it):\n  - allocate: 0/5 nodes are unavailable: 1 node(s) were" in text
    assert f"    - nodes cp-1, gpu-1: {TAINT}\n" in text
    assert f"    - nodes node-a, node-b: {ANTI}\n" in text
    assert f"    - node node-c: {UNSCHEDULABLE}\n" in text
    data = json.loads(run_yk("volcano", "explain", SAMPLE, "shop/db-2", "-f", "json").stdout)
    jsonschema.validate(data, EXPLAIN_SCHEMA)
    (wait,) = data["waiting"]
    assert wait["action"] == "allocate"
    assert wait["reasons"] == {TAINT: 2, ANTI: 2, UNSCHEDULABLE: 1}
    assert {n["node"]: n["reasons"] for n in wait["nodes"]} == {
        "cp-1": [TAINT], "gpu-1": [TAINT], "node-a": [ANTI], "node-b": [ANTI], "node-c": [UNSCHEDULABLE]
    }


def test_explain_a_pair_says_why_the_job_gets_nothing(run_yk) -> None:
    result = run_yk("volcano", "explain", SAMPLE, "shop/podgroup-web-0", "ml/podgroup-tpu-0")
    assert result.exit_code == 0, result.stderr
    assert "Why ml/podgroup-tpu-0 gets nothing:\n" in result.stdout
    assert (
        "  - allocate: ml/tpu-0: nodes cp-1, gpu-1, node-a, node-b: node(s) didn't match Pod's node\n"
        "    affinity/selector\n"
    ) in result.stdout
    assert f"  - allocate: ml/tpu-0: node node-c: {UNSCHEDULABLE}\n" in result.stdout


# -- inputs ------------------------------------------------------------------------------------------------------------


def test_validate_places_what_the_api_server_refuses(run_yk, tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n  schedulerName: volcano\n"
        "  tolerations:\n  - key: dedicated\n    operator: Equals\n    value: infra\n"
        "  containers: [{name: c}]\n"
        "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n  - key: k\n    effect: Sometimes\n"
    )
    result = run_yk("volcano", "validate", str(dump), "-f", "json")
    found = [(p["rule"], p["line"], p["message"]) for p in json.loads(result.stdout)["problems"]]
    assert found == [
        ("volcano-invalid-field", 8, 'Pod ns/p: spec.tolerations[0].operator: Unsupported value: "Equals": supported '
                                     'values: "Equal", "Exists"'),
        ("volcano-invalid-field", 18, 'Node n1: spec.taints[0].effect: Unsupported value: "Sometimes": supported '
                                      'values: "NoSchedule", "PreferNoSchedule", "NoExecute"'),
    ]


def test_fast_path_gives_the_same_specs(tmp_path: Path) -> None:
    items = [
        node("n1", 4, taints=[{"key": "k", "value": "v", "effect": "NoSchedule"}]),
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns", "labels": {"team": "a"}}},
        pod("bare", 1), pod("labelled", 2, labels={"app": "web", "tier": "front"}),
        pod("empty-labels", 3, labels={}),
        pod("selected", 4, nodeSelector={"disk": "ssd"}, tolerations=[{"operator": "Exists"}]),
        pod("ported", 5, containers=[{"name": "c", "ports": [{"containerPort": 80}]}]),
        pod("bound", 6, node_name="n1", labels={"app": "web"}),
    ]
    path = write(tmp_path, items)
    fast = load_volcano_fast([path])
    assert fast is not None
    assert fast.cluster == load_volcano([path]).cluster
    specs = {p.name: p.spec for p in fast.cluster.pods}
    assert specs["bare"] == specs["empty-labels"] == specs["ported"]
    assert specs["labelled"].labels == (("app", "web"), ("tier", "front"))
    assert specs["bound"].node_name == ""


def test_fast_path_gives_up_on_a_refused_field(tmp_path: Path) -> None:
    items = [node("n1", 4), pod("p", 1, labels={"bad key!": "x"})]
    assert load_volcano_fast([write(tmp_path, items)]) is None


IMAGES = "nodeorder imagelocality.weight 1: node images are not read (ImageLocality adds 0 to every node)"


def test_volumes_and_claims_are_named_as_not_modelled(run_yk, tmp_path: Path) -> None:
    items = [
        node("n1", 8),
        pod("with-pvc", 1, volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]),
        pod("with-claim", 2, resourceClaims=[{"name": "gpu", "resourceClaimName": "gpu"}]),
    ]
    path = write(tmp_path, items)
    notes = simulate(run_yk, path)["notes"]
    assert notes == [
        "predicates: VolumeBinding/VolumeZone/NodeVolumeLimits is not modelled: yk places ns/with-pvc as if every "
        "node passed it",
        IMAGES,
    ]
    dra = simulate(run_yk, path, "--conf", conf(tmp_path, with_arguments(**{
        "predicate.DynamicResourceAllocationEnable": True, "predicate.VolumeBindingEnable": False,
        "predicate.VolumeZoneEnable": False, "predicate.NodeVolumeLimitsEnable": False,
    })))
    assert dra["notes"] == [
        "predicates: DynamicResources is not modelled: yk places ns/with-claim as if every node passed it", IMAGES,
    ]
    assert binds(dra) == {"ns/with-pvc": "n1", "ns/with-claim": "n1"}
