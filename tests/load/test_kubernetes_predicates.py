"""Node predicates of a kubectl dump: what load/kubernetes.py (through load/pod_constraints.py) reads of nodes, pods,
namespaces and task groups, where it reports what the API server would refuse, what it names as not modelled, and
`yk simulate --cluster` placing pods where kube-scheduler's Filters let them go."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tests.conftest import SAMPLES, dedent
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.diagnostics import Problem
from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    EXISTS,
    NO_EXECUTE,
    NO_SCHEDULE,
    SCHEDULE_ANYWAY,
    HostPort,
    LabelSelector,
    Namespace,
    NodeSelectorTerm,
    PodAffinityTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from yk_cli.core.sim.run import simulate
from yk_cli.core.sim.unmodelled import unmodelled
from yk_cli.core.workload.model import Workload
from yk_cli.load.kubernetes import cluster_from_bytes, load_cluster
from yk_cli.load.pod_constraints import (
    Issue,
    located,
    namespace_constraints,
    node_constraints,
    pod_constraints,
    task_group_constraints,
    to_plain,
)
from yk_cli.load.source import parse_yaml
from yk_cli.report.trace_text import render

DUMP = SAMPLES / "cluster" / "dump.yaml"
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
CP_TAINT = {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def node(
    name: str,
    cpu: str = "4",
    labels: dict[str, str] | None = None,
    taints: list[dict[str, Any]] | None = None,
    extra: dict[str, str] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}}
    if taints:
        spec["taints"] = taints
    allocatable = {"cpu": cpu, "memory": "16Gi", "pods": "110", **(extra or {})}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": metadata,
        "spec": spec,
        "status": {"allocatable": allocatable},
    }


def pod(
    name: str,
    namespace: str = "web",
    cpu: str = "1",
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    scheduler: str = "yunikorn",
    created: str = "2024-06-01T11:00:00Z",
    phase: str = "Pending",
    containers: list[dict[str, Any]] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "creationTimestamp": created}
    if labels is not None:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    body = {
        "schedulerName": scheduler,
        "containers": containers or [{"name": "c", "image": "busybox", "resources": {"requests": {"cpu": cpu}}}],
        **spec,
    }
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": body, "status": {"phase": phase}}


def namespace(name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name}
    if labels is not None:
        metadata["labels"] = labels
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": metadata}


def as_json(*objects: dict[str, Any]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)}, indent=2)


def as_yaml(*objects: dict[str, Any]) -> str:
    """Multi-document YAML in kubectl's block style (each JSON object is a YAML document, kept flow-free)."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.default_flow_style = False
    import io

    out = io.StringIO()
    yaml.dump_all(list(objects), out)
    return out.getvalue()


def load_both(*objects: dict[str, Any]) -> Workload:
    """The objects as a YAML dump and as a JSON dump: both clean and giving the same workload."""
    from_yaml, _, yaml_problems = cluster_from_bytes(as_yaml(*objects).encode(), "dump.yaml")
    from_json, _, json_problems = cluster_from_bytes(as_json(*objects).encode(), "dump.json")
    assert yaml_problems == [] and json_problems == []
    assert from_yaml == from_json
    return from_yaml


def load_text(text: str) -> tuple[Workload, list[Problem]]:
    workload, _, problems = cluster_from_bytes(dedent(text).encode(), "dump.yaml")
    return workload, problems


def where(problems: list[Problem]) -> list[tuple[str, int, int]]:
    return [(p.rule, p.span.line if p.span else 0, p.span.column if p.span else 0) for p in problems]


def ask_pod(workload: Workload, name: str) -> PodSpec:
    found = next(a for a in workload.asks() if a.name == name)
    assert found.pod is not None
    return found.pod


# ------------------------------------------------------------------------------------------------------------ nodes


def test_node_labels_taints_and_cordon() -> None:
    workload = load_both(
        node("cp-1", labels={"node-role.kubernetes.io/control-plane": ""}, taints=[CP_TAINT]),
        node("gpu-1", labels={"pool": "gpu"}, taints=[GPU_TAINT, {"key": "spot", "effect": "PreferNoSchedule"}]),
        node(
            "node-1", unschedulable=True, taints=[{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]
        ),
    )
    cp, gpu, cordoned = workload.nodes
    assert cp.labels == (("kubernetes.io/hostname", "cp-1"), ("node-role.kubernetes.io/control-plane", ""))
    assert cp.taints == (Taint("node-role.kubernetes.io/control-plane", "", NO_SCHEDULE),)
    assert cp.schedulable and gpu.schedulable and not cordoned.schedulable
    assert gpu.taints == (Taint("nvidia.com/gpu", "present", NO_SCHEDULE), Taint("spot", "", "PreferNoSchedule"))
    assert ("pool", "gpu") in gpu.labels
    assert cordoned.taints == (Taint("node.kubernetes.io/unschedulable", "", NO_SCHEDULE),)


def test_a_node_without_labels_or_taints_has_none() -> None:
    raw = node("n")
    del raw["metadata"]["labels"]
    (only,) = load_both(raw).nodes
    assert (only.labels, only.taints, only.foreign_pods) == ((), (), ())


# ------------------------------------------------------------------------------------------------------------- pods


def test_every_predicate_field_of_a_pending_pod() -> None:
    spec = {
        "nodeSelector": {"pool": "gpu"},
        "tolerations": [
            GPU_TOLERATION,
            {"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute", "tolerationSeconds": 60},
        ],
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a", "b"]}
                            ]
                        },
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["gpu-9"]}]},
                    ]
                },
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 1, "preference": {"matchExpressions": [{"key": "x", "operator": "Exists"}]}}
                ],
            },
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": {"app": "db"}},
                        "topologyKey": "topology.kubernetes.io/zone",
                        "namespaceSelector": {},
                    }
                ]
            },
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": {"app": "train"}},
                        "topologyKey": "kubernetes.io/hostname",
                        "namespaces": ["ml", "web"],
                    }
                ]
            },
        },
        "topologySpreadConstraints": [
            {
                "maxSkew": 1,
                "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": {"app": "train"}},
                "matchLabelKeys": ["rev"],
                "minDomains": 2,
            },
            {
                "maxSkew": 2,
                "topologyKey": "kubernetes.io/hostname",
                "whenUnsatisfiable": "ScheduleAnyway",
                "labelSelector": {"matchLabels": {"app": "train"}},
            },
        ],
        "initContainers": [
            {"name": "sidecar", "restartPolicy": "Always", "ports": [{"containerPort": 9090, "hostPort": 9090}]},
            {"name": "init", "ports": [{"containerPort": 7070, "hostPort": 7070}]},
        ],
    }
    containers = [
        {
            "name": "c",
            "resources": {"requests": {"cpu": "1"}},
            "ports": [
                {"containerPort": 8080},
                {"containerPort": 53, "hostPort": 53, "protocol": "UDP", "hostIP": "10.0.0.1"},
            ],
        },
    ]
    labels = {"app": "train", "rev": "7"}
    workload = load_both(node("n"), pod("t", namespace="ml", labels=labels, containers=containers, **spec))
    got = ask_pod(workload, "ml/t")
    assert got.namespace == "ml" and got.labels == (("app", "train"), ("rev", "7"))
    assert got.node_selector == (("pool", "gpu"),)
    assert got.tolerations == (
        Toleration("nvidia.com/gpu", EXISTS, "", NO_SCHEDULE),
        Toleration("k", "Equal", "v", NO_EXECUTE, 60),
    )
    assert got.required_node_affinity == (
        NodeSelectorTerm(match_expressions=(Requirement("topology.kubernetes.io/zone", "In", ("a", "b")),)),
        NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In", ("gpu-9",)),)),
    )
    assert got.pod_affinity == (
        PodAffinityTerm(
            "topology.kubernetes.io/zone", LabelSelector((("app", "db"),)), namespace_selector=LabelSelector()
        ),
    )
    assert got.pod_anti_affinity == (
        PodAffinityTerm("kubernetes.io/hostname", LabelSelector((("app", "train"),)), namespaces=("ml", "web")),
    )
    zone, host = got.topology_spread
    assert zone == TopologySpreadConstraint(
        1,
        "topology.kubernetes.io/zone",
        DO_NOT_SCHEDULE,
        LabelSelector((("app", "train"),), (Requirement("rev", "In", ("7",)),)),  # matchLabelKeys merged
        min_domains=2,
        match_label_keys=("rev",),
    )
    assert (host.when_unsatisfiable, host.max_skew) == (SCHEDULE_ANYWAY, 2)
    # the sidecar's and the container's host ports; a regular init container's port is free again when it ends
    assert sorted(got.host_ports, key=lambda p: p.port) == [HostPort(53, "UDP", "10.0.0.1"), HostPort(9090)]
    assert set(got.soft) == {"preferred node affinity", "topology spread ScheduleAnyway"}
    assert got.node_name == "" and got.unmodelled == ()


def test_host_network_makes_every_container_port_a_host_port() -> None:
    containers = [{"name": "c", "resources": {"requests": {"cpu": "1"}}, "ports": [{"containerPort": 10250}]}]
    workload = load_both(node("n"), pod("p", containers=containers, hostNetwork=True))
    assert ask_pod(workload, "web/p").host_ports == (HostPort(10250),)


def test_a_pod_without_predicate_fields_has_only_namespace_and_labels() -> None:
    raw = pod("p", labels={"app": "x"})
    raw["metadata"].pop("namespace")
    workload = load_both(node("n"), raw)
    assert ask_pod(workload, "default/p") == PodSpec(namespace="default", labels=(("app", "x"),))
    assert not ask_pod(workload, "default/p").filters


def test_bound_pods_keep_their_constraints_but_not_their_node_name() -> None:
    bound = pod("b", labels={"app": "db"}, nodeName="n", nodeSelector={"disk": "ssd"}, phase="Running")
    workload = load_both(node("n", labels={"disk": "ssd"}), bound)
    (alloc,) = workload.applications[0].allocations
    assert alloc.node == "n"
    assert alloc.pod == PodSpec(namespace="web", labels=(("app", "db"),), node_selector=(("disk", "ssd"),))


def test_equal_constraints_share_one_pod_spec() -> None:
    workload = load_both(node("n"), pod("a", labels={"app": "w"}), pod("b", labels={"app": "w"}))
    first, second = workload.asks()
    assert first.pod is second.pod


def test_volumes_and_claims_are_named_not_modelled() -> None:
    volumes = [
        {"name": "data", "persistentVolumeClaim": {"claimName": "data-db-0"}},
        {"name": "config", "configMap": {"name": "db"}},
        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"]}}}},
    ]
    claims = [{"name": "gpu", "resourceClaimName": "a100"}]
    workload = load_both(
        node("n"),
        pod("db-0", volumes=volumes),
        pod("infer", resourceClaims=claims),
        pod("cache", volumes=[{"name": "tmp", "emptyDir": {}}]),
    )
    assert ask_pod(workload, "web/db-0").unmodelled == (
        "VolumeBinding/VolumeZone/NodeVolumeLimits (volume data)",
        "VolumeBinding/VolumeZone/NodeVolumeLimits (volume scratch)",
    )
    assert ask_pod(workload, "web/infer").unmodelled == ("DynamicResources (DRA claim gpu)",)
    assert ask_pod(workload, "web/cache").unmodelled == ()
    config, _ = decode_config(parse_yaml("partitions: [{name: default, queues: [{name: root}]}]").documents[0])
    part = config.partitions[0]
    gaps = unmodelled(part, build_queue_tree(part), workload)
    assert [(g.feature, g.message, g.pods) for g in gaps] == [
        (
            "volume-topology",
            "VolumeBinding/VolumeZone/NodeVolumeLimits (pod web/db-0 volume data, pod web/db-0 volume scratch): "
            "volume topology and attach limits are not modelled: yk places it as if every node could mount its "
            "volumes",
            ("web/db-0",),
        ),
        (
            "dynamic-resources",
            "DynamicResources (pod web/infer DRA claim gpu): DRA resource claims are not modelled: yk places it as "
            "if every node had the claimed devices",
            ("web/infer",),
        ),
    ]


def test_not_modelled_reaches_simulate_output(run_yk, tmp_path) -> None:
    volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-db-0"}}]
    dump = tmp_path / "dump.json"
    dump.write_text(as_json(node("n"), pod("db-0", volumes=volumes), pod("db-1", volumes=volumes)))
    result = run_yk("simulate", "--cluster", str(dump), "-f", "json")
    assert result.exit_code == 0, result.stderr
    (gap,) = json.loads(result.stdout)["notModelled"]
    assert gap["feature"] == "volume-topology" and gap["pods"] == ["web/db-0", "web/db-1"]
    text = run_yk("simulate", "--cluster", str(dump)).stdout
    assert "Not modelled: VolumeBinding/VolumeZone/NodeVolumeLimits (pod web/db-0 volume data, pod web/db-1" in text
    assert "yk places them as if every node could mount their volumes" in text


# ------------------------------------------------------------------------------------------------- other schedulers


def test_running_pods_of_other_schedulers_are_foreign_pods_of_their_node() -> None:
    daemon = pod(
        "nvidia-device-plugin-abc",
        namespace="kube-system",
        labels={"name": "nvidia-device-plugin-ds"},
        scheduler="default-scheduler",
        phase="Running",
        nodeName="gpu-1",
        tolerations=[GPU_TOLERATION],
        hostNetwork=True,
        containers=[{"name": "c", "resources": {"requests": {"cpu": "50m"}}, "ports": [{"containerPort": 9400}]}],
    )
    anti = pod(
        "exporter",
        namespace="monitoring",
        labels={"app": "exporter"},
        scheduler="default-scheduler",
        phase="Running",
        nodeName="gpu-1",
        affinity={
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "exporter"}}, "topologyKey": "kubernetes.io/hostname"}
                ]
            }
        },
    )
    pending = pod("pending", namespace="kube-system", scheduler="default-scheduler")
    done = pod("done", scheduler="default-scheduler", phase="Succeeded", nodeName="gpu-1")
    workload = load_both(node("gpu-1", taints=[GPU_TAINT]), node("n"), daemon, anti, pending, done)
    gpu, plain = workload.nodes
    assert plain.foreign_pods == ()
    device, exporter = gpu.foreign_pods
    assert device == PodSpec(
        namespace="kube-system",
        labels=(("name", "nvidia-device-plugin-ds"),),
        tolerations=(Toleration("nvidia.com/gpu", EXISTS, "", NO_SCHEDULE),),
        host_ports=(HostPort(9400),),
    )
    assert exporter.namespace == "monitoring" and exporter.pod_anti_affinity[0].topology_key == "kubernetes.io/hostname"
    assert gpu.occupied == {"pods": 2, "vcore": 1050}
    assert workload.asks() == []


# ------------------------------------------------------------------------------------------------------- namespaces


def test_namespaces_with_their_labels() -> None:
    workload = load_both(
        node("n"),
        namespace("ml", {"kubernetes.io/metadata.name": "ml", "team": "ml"}),
        namespace("web"),  # a hand-written dump without the label the API server sets
    )
    assert workload.namespaces == (
        Namespace("ml", (("kubernetes.io/metadata.name", "ml"), ("team", "ml"))),
        Namespace("web", (("kubernetes.io/metadata.name", "web"),)),
    )


def test_a_dump_without_namespaces_has_none() -> None:
    assert load_both(node("n"), pod("p")).namespaces == ()


# ------------------------------------------------------------------------------------------------------ task groups

TASK_GROUPS = [
    {
        "name": "workers",
        "minMember": 2,
        "minResource": {"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "1"},
        "labels": {"role": "worker"},
        "nodeSelector": {"pool": "gpu"},
        "tolerations": [GPU_TOLERATION],
        "affinity": {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"role": "worker"}}, "topologyKey": "kubernetes.io/hostname"}
                ]
            }
        },
        "topologySpreadConstraints": [
            {
                "maxSkew": 1,
                "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": {"role": "worker"}},
            }
        ],
    },
    {"name": "driver", "minMember": 1, "minResource": {"cpu": "1"}},
]


def gang_pod(groups: Any, **extra: Any) -> dict[str, Any]:
    return pod(
        "driver",
        namespace="ml",
        labels={"yunikorn.apache.org/app-id": "job-1", "yunikorn.apache.org/queue": "root.ml"},
        annotations={
            "yunikorn.apache.org/task-groups": groups if isinstance(groups, str) else json.dumps(groups),
            "yunikorn.apache.org/task-group-name": "driver",
        },
        **extra,
    )


def test_task_groups_carry_their_placeholders_predicates() -> None:
    workload = load_both(node("gpu-1", taints=[GPU_TAINT], labels={"pool": "gpu"}), gang_pod(TASK_GROUPS))
    workers, driver = workload.applications[0].task_groups
    assert workers.pod is not None and driver.pod is not None
    assert workers.pod.namespace == "ml"
    # newPlaceholder: the group's labels, the application id and queue labels over them
    assert workers.pod.labels == (
        ("role", "worker"),
        ("yunikorn.apache.org/app-id", "job-1"),
        ("yunikorn.apache.org/queue", "root.ml"),
    )
    assert workers.pod.node_selector == (("pool", "gpu"),)
    assert workers.pod.tolerations == (Toleration("nvidia.com/gpu", EXISTS, "", NO_SCHEDULE),)
    assert workers.pod.pod_anti_affinity[0].label_selector == LabelSelector((("role", "worker"),))
    assert workers.pod.topology_spread[0].topology_key == "topology.kubernetes.io/zone"
    assert driver.pod == PodSpec(
        namespace="ml", labels=(("yunikorn.apache.org/app-id", "job-1"), ("yunikorn.apache.org/queue", "root.ml"))
    )
    assert workers.min_resource == {"pods": 1, "vcore": 1000, "memory": 2**30, "nvidia.com/gpu": 1}


def test_a_task_group_the_api_server_would_refuse_means_no_gang() -> None:
    groups = [{**TASK_GROUPS[1], "tolerations": [{"key": "x", "operator": "Equals"}]}]
    text = as_yaml(node("n"), gang_pod(groups))
    workload, _, problems = cluster_from_bytes(text.encode(), "dump.yaml")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "yunikorn.apache.org/task-groups:" in s)
    assert [(p.rule, p.span.line if p.span else 0) for p in problems] == [("cluster-task-groups", line)]
    assert problems[0].message == (
        "yunikorn.apache.org/task-groups: the API server refuses the placeholder pods of task group driver "
        '(tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists"): the shim '
        "falls back to scheduling without gang scheduling"
    )
    assert workload.applications[0].task_groups == ()


def test_a_task_group_field_of_the_wrong_type_cannot_be_read() -> None:
    groups = [{**TASK_GROUPS[1], "nodeSelector": ["pool=gpu"]}]
    workload, _, problems = cluster_from_bytes(as_yaml(node("n"), gang_pod(groups)).encode(), "dump.yaml")
    assert [p.rule for p in problems] == ["cluster-task-groups"]
    assert problems[0].message.startswith(
        "yunikorn.apache.org/task-groups cannot be read (task group driver: nodeSelector: Invalid value: "
    )
    assert problems[0].message.endswith("): no gang scheduling")
    assert workload.applications[0].task_groups == ()


# --------------------------------------------------------------------------------------------------------- problems


def test_what_the_api_server_refuses_is_located() -> None:
    workload, problems = load_text(
        """
        kind: Node
        metadata:
          name: n
          labels:
            pool: gpu
            bad key: x
        spec:
          taints:
            - key: nvidia.com/gpu
              effect: NoShedule
        status:
          allocatable: {cpu: "4", pods: "110"}
        ---
        kind: Pod
        metadata:
          name: p
          namespace: web
        spec:
          schedulerName: yunikorn
          containers:
            - name: c
              resources: {requests: {cpu: "1"}}
              ports:
                - containerPort: 80
                  hostPort: 70000
          tolerations:
            - key: nvidia.com/gpu
              operator: Equals
          topologySpreadConstraints:
            - maxSkew: 0
              whenUnsatisfiable: DoNotSchedule
              labelSelector: {matchLabels: {app: web}}
        ---
        kind: Namespace
        metadata:
          name: web
          labels:
            team: "-web"
        """
    )
    assert where(problems) == [
        ("cluster-bad-pod-spec", 6, 5),  # the key itself
        ("cluster-bad-pod-spec", 10, 15),
        ("cluster-bad-pod-spec", 25, 21),
        ("cluster-bad-pod-spec", 28, 17),
        ("cluster-bad-pod-spec", 30, 7),  # topologyKey missing: at its constraint
        ("cluster-bad-pod-spec", 30, 16),
        ("cluster-bad-pod-spec", 38, 11),
    ]
    messages = [p.message for p in problems]
    assert messages[1] == (
        'node n: spec.taints[0].effect: Unsupported value: "NoShedule": supported values: "NoSchedule", '
        '"PreferNoSchedule", "NoExecute"'
    )
    assert messages[3] == (
        'pod web/p: spec.tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists"'
    )
    assert messages[0].startswith('node n: metadata.labels: Invalid value: "bad key": ')
    assert messages[6].startswith('namespace web: metadata.labels.team: Invalid value: "-web": ')
    assert all(p.level == "error" for p in problems)
    # what could be read is kept
    assert workload.nodes[0].labels == (("bad key", "x"), ("pool", "gpu"))


def test_a_value_of_the_wrong_type_is_an_invalid_field() -> None:
    _, problems = load_text(
        """
        kind: Pod
        metadata: {name: p, namespace: web}
        spec:
          schedulerName: yunikorn
          containers: [{name: c}]
          nodeSelector: [pool]
          tolerations: {key: x}
        ---
        kind: Node
        metadata: {name: n}
        status: {allocatable: {cpu: "1"}}
        """
    )
    assert where(problems) == [("cluster-invalid-field", 6, 17), ("cluster-invalid-field", 7, 16)]
    assert problems[0].message == 'pod web/p: spec.nodeSelector: Invalid value: ["pool"]: must be an object'


def test_json_dump_problems_are_located_like_yaml_ones() -> None:
    bad = pod("p", tolerations=[{"key": "", "operator": "Equal"}])
    text = as_json(node("n"), bad)
    _, _, problems = cluster_from_bytes(text.encode(), "dump.json")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if '"operator": "Equal"' in s)
    assert [(p.rule, p.span.line if p.span else 0) for p in problems] == [("cluster-bad-pod-spec", line)]


def test_shapes_the_loader_reports_are_not_reported_twice() -> None:
    _, problems = load_text(
        """
        kind: Pod
        metadata: {name: p, namespace: web, labels: [app]}
        spec:
          schedulerName: yunikorn
          containers: {name: c}
        ---
        kind: Node
        metadata: {name: n, labels: nope}
        status: {allocatable: {cpu: "1"}}
        """
    )
    assert [p.message for p in problems] == [
        "metadata.labels must be a mapping, found a list",
        "spec.containers must be a list, found a mapping",
        "metadata.labels must be a mapping, found a string `nope`",
    ]


# --------------------------------------------------------------------------------------------------------- the API


def test_pod_constraints_reads_yaml_trees_and_plain_json_alike() -> None:
    raw = pod("p", labels={"app": "x"}, nodeSelector={"pool": "gpu"}, tolerations=[{"key": "k", "operator": "Bogus"}])
    tree = parse_yaml(as_yaml(raw)).documents[0]
    assert to_plain(tree) == raw
    from_tree, from_plain = pod_constraints(tree), pod_constraints(raw)
    assert from_tree == from_plain
    assert from_plain.issues == (
        Issue(
            ("spec", "tolerations", 0, "operator"),
            'spec.tolerations[0].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists"',
            "unsupported-operator",
        ),
    )
    (problem,) = located(from_plain.issues, tree, "f.yaml", wrong_type=_rule("w"), refused=_rule("r"), subject="x")
    assert problem.rule == "r" and problem.message.startswith("x: spec.tolerations[0].operator:")
    assert problem.span is not None and problem.file == "f.yaml"
    (unplaced,) = located(from_plain.issues, None, "f.json", wrong_type=_rule("w"), refused=_rule("r"))
    assert unplaced.span is None


def _rule(rule_id: str):  # type: ignore[no-untyped-def]
    from yk_cli.core.diagnostics import error

    return error(rule_id, "s.", "d.")


def test_node_namespace_and_task_group_readers() -> None:
    raw = node("n", labels={"pool": "gpu"}, taints=[GPU_TAINT], unschedulable=True)
    facts = node_constraints(raw).value
    assert (facts.name, facts.unschedulable, facts.taints) == ("n", True, (Taint("nvidia.com/gpu", "present"),))
    assert node_constraints(parse_yaml(as_yaml(raw)).documents[0]).value == facts
    bad = node_constraints(node("n", unschedulable="yes"))
    assert [i.path for i in bad.issues] == [("spec", "unschedulable")] and bad.issues[0].wrong_type
    assert namespace_constraints(namespace("x")).value == Namespace("x", (("kubernetes.io/metadata.name", "x"),))
    group = task_group_constraints({"nodeSelector": {"a": "b"}, "labels": {"l": "1"}}, "ns", {"l": "2"})
    assert group.value == PodSpec(namespace="ns", labels=(("l", "2"),), node_selector=(("a", "b"),))
    assert task_group_constraints({"labels": {"l": 1}}, "ns", {}).issues[0].path == ("labels", "l")


# ---------------------------------------------------------------------------------------- byte-identical and the run


def test_without_predicate_fields_the_run_is_the_run_without_pod_specs() -> None:
    """Pods that carry only a namespace and labels, on nodes without taints: the trace is the one of the same
    workload with no pod specs at all (what a dump gave before yk read node predicates)."""
    objects = [
        node("n1", cpu="3"),
        node("n2", cpu="2"),
        *(pod(f"p{i}", labels={"app": f"a{i % 2}"}, created=f"2024-06-01T11:0{i}:00Z") for i in range(6)),
        pod("r", labels={"app": "r"}, nodeName="n1", phase="Running"),
    ]
    workload, queues, problems = cluster_from_bytes(as_json(*objects).encode(), "d.json")
    assert problems == [] and queues is None
    bare = replace(
        workload,
        applications=tuple(
            replace(
                app,
                asks=tuple(replace(a, pod=None) for a in app.asks),
                allocations=tuple(replace(a, pod=None) for a in app.allocations),
            )
            for app in workload.applications
        ),
        nodes=tuple(replace(n, labels=()) for n in workload.nodes),
    )
    assert all(a.pod is not None and not a.pod.filters for a in workload.asks())
    from yk_cli.core.config.placement import default_partition

    part = default_partition()
    traces = [render(simulate(part, build_queue_tree(part), w), "s") for w in (workload, bare)]
    assert traces[0] == traces[1]


def test_sample_dump_predicates() -> None:
    workload, _, problems = load_cluster(str(DUMP))
    assert problems == []
    nodes = {n.name: n for n in workload.nodes}
    assert nodes["cp-1"].taints == (Taint("node-role.kubernetes.io/control-plane"),)
    assert [n for n in nodes if ("pool", "gpu") in nodes[n].labels] == ["gpu-1", "gpu-2"]
    assert nodes["gpu-1"].capacity["nvidia.com/gpu"] == 4
    assert [p.labels for p in nodes["cp-1"].foreign_pods] == [
        (("component", "kube-apiserver"), ("tier", "control-plane"))
    ]
    assert nodes["cp-1"].foreign_pods[0].host_ports == (HostPort(6443),)
    train = ask_pod(workload, "ml/resnet-50-1-w2m9d")
    assert train.node_selector == (("pool", "gpu"),) and train.tolerations[0].key == "nvidia.com/gpu"
    web = ask_pod(workload, "team-a/web-5d8f7c9b4-7hx4m")
    assert web.topology_spread[0].topology_key == "topology.kubernetes.io/zone"
    assert ask_pod(workload, "team-a/redis-1").pod_anti_affinity[0].topology_key == "kubernetes.io/hostname"
    assert {ns.name for ns in workload.namespaces} == {"team-a", "team-b", "data-science", "ml", "kube-system"}
    forgot = ask_pod(workload, "ml/llm-finetune-0-x4v8j")
    assert forgot.node_selector == (("pool", "gpu"),) and forgot.tolerations == ()


# ------------------------------------------------------------------------------------------------------ end to end

SMALL = [
    node("cp-1", cpu="8", labels={"node-role.kubernetes.io/control-plane": ""}, taints=[CP_TAINT]),
    node("gpu-1", cpu="8", labels={"pool": "gpu"}, taints=[GPU_TAINT], extra={"nvidia.com/gpu": "1"}),
    node("node-1", cpu="3"),
    *(pod(f"web-{i}", labels={"app": "web"}, created=f"2024-06-01T11:0{i}:00Z") for i in range(1, 4)),
    pod("report", cpu="4", created="2024-06-01T11:10:00Z"),  # larger than any node it tolerates
    pod(
        "train-0",
        namespace="ml",
        labels={"yunikorn.apache.org/app-id": "train"},
        created="2024-06-01T11:30:00Z",
        nodeSelector={"pool": "gpu"},
        tolerations=[GPU_TOLERATION],
        containers=[{"name": "c", "resources": {"requests": {"cpu": "2", "nvidia.com/gpu": "1"}}}],
    ),
]


@pytest.mark.parametrize("form", ["yaml", "json"])
def test_simulate_cluster_places_pods_where_kubernetes_would(run_yk, tmp_path, form: str) -> None:
    dump = tmp_path / f"dump.{form}"
    dump.write_text(as_yaml(*SMALL) if form == "yaml" else as_json(*SMALL))
    result = run_yk("simulate", "--cluster", str(dump), "-f", "json")
    assert result.exit_code == 0, result.stderr
    trace = json.loads(result.stdout)
    placed = {e["ask"]: e["node"] for e in trace["events"] if e["type"] == "allocate"}
    assert placed == {"web/web-1": "node-1", "web/web-2": "node-1", "web/web-3": "node-1", "ml/train-0": "gpu-1"}
    (waiting,) = trace["pending"]
    assert waiting["ask"] == "web/report"
    assert waiting["reason"] == "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s)."
    assert trace["notModelled"] == []
    text = run_yk("simulate", "--cluster", str(dump)).stdout
    assert "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s)." in text
