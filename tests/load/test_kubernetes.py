"""Kubernetes dumps as workloads: pod sizes, ids, queues, priorities, preemption flags, nodes, config, bad input."""

from __future__ import annotations

import base64
import gzip
import io
import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SAMPLES, dedent
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.placement import TAG_CREATE_FORCE, TAG_QUOTA, place_all
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level, Problem, exit_code
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.workload.model import Application, Ask, Workload
from yk_cli.load.config import load_config
from yk_cli.load.kubernetes import (
    application_id,
    cluster_from_bytes,
    k8s_quantity,
    load_cluster,
    namespace_tags,
    queue_name,
)
from yk_cli.load.source import InputError, parse_yaml

DUMP = SAMPLES / "cluster" / "dump.yaml"
GI = 2**30
MI = 2**20


def node(name: str = "node-1", cpu: str = "8", memory: str = "32Gi", pods: str = "110", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "creationTimestamp": "2024-01-01T00:00:00Z"},
        "spec": spec,
        "status": {"allocatable": {"cpu": cpu, "memory": memory, "pods": pods}},
    }


def container(name: str = "c", restart: str | None = None, **requests: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "image": "busybox"}
    if requests:
        out["resources"] = {"requests": {k.replace("_", ".").replace(".gpu", "/gpu"): v for k, v in requests.items()}}
    if restart:
        out["restartPolicy"] = restart
    return out


def pod(
    name: str = "p",
    namespace: str = "ns",
    containers: list[dict[str, Any]] | None = None,
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    created: str = "2024-01-01T00:10:00Z",
    scheduler: str = "yunikorn",
    uid: str = "",
    status: dict[str, Any] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "creationTimestamp": created}
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    if uid:
        metadata["uid"] = uid
    body: dict[str, Any] = {"schedulerName": scheduler, "containers": containers or [container(cpu="1")], **spec}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": body, "status": status or {}}


def priority_class(name: str, value: int, default: bool = False, **extra: Any) -> dict[str, Any]:
    annotations = extra.pop("annotations", None)
    metadata: dict[str, Any] = {"name": name}
    if annotations:
        metadata["annotations"] = annotations
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": metadata, "value": value,
            "globalDefault": default, **extra}  # fmt: skip


def load(*objects: dict[str, Any], text: str | None = None) -> tuple[Workload, str | None, list[Problem]]:
    """Load objects as a multi-document dump (JSON is YAML)."""
    body = text if text is not None else "\n---\n".join(json.dumps(o, indent=1) for o in objects)
    return cluster_from_bytes(body.encode(), "dump.yaml")


def only_ask(workload: Workload) -> Ask:
    asks = workload.asks()
    assert len(asks) == 1, asks
    return asks[0]


def size(*containers: dict[str, Any], **spec: Any) -> dict[str, int]:
    """The ask resources of one pending pod with these containers and spec fields."""
    status = spec.pop("status", None)
    workload, _, problems = load(node(), pod(containers=list(containers), status=status, **spec))
    assert problems == []
    return only_ask(workload).resources


def app_of(workload: Workload, app_id: str) -> Application:
    return next(a for a in workload.applications if a.id == app_id)


def rules_of(problems: list[Problem]) -> list[str]:
    return [p.rule for p in problems]


# ------------------------------------------------------------------------------------------------------ quantities


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("cpu", "500m", 500),
        ("cpu", "2", 2000),
        ("cpu", "0.5", 500),
        ("cpu", ".25", 250),
        ("cpu", "1e-3", 1),
        ("cpu", "100u", 1),
        ("memory", "1Gi", GI),
        ("memory", "1.5Gi", 3 * GI // 2),
        ("memory", "31257888Ki", 31257888 * 1024),
        ("memory", "129M", 129_000_000),
        ("memory", "1e3", 1000),
        ("memory", "1m", 1),
        ("pods", "110", 110),
        ("memory", "5mi", None),
        ("memory", "1 Gi", None),
        ("memory", "Gi", None),
        ("memory", "1e400", None),
        ("memory", "16Ei", None),
    ],
)
def test_kubernetes_quantities(name: str, text: str, expected: int | None) -> None:
    assert k8s_quantity(name, text) == expected


# ------------------------------------------------------------------------------------------------- pod resources


def test_containers_are_summed_with_one_pod() -> None:
    assert size(container(cpu="1", memory="1Gi"), container("d", cpu="500m", memory="512Mi")) == {
        "pods": 1,
        "vcore": 1500,
        "memory": GI + 512 * MI,
    }


def test_pod_without_requests_counts_one_pod() -> None:
    assert size(container()) == {"pods": 1}


def test_extended_resources_by_value() -> None:
    assert size(container(cpu="1", nvidia_com_gpu="2")) == {"pods": 1, "vcore": 1000, "nvidia.com/gpu": 2}


def test_status_allocated_resources_count_when_larger() -> None:
    status = {
        "containerStatuses": [
            {"name": "c", "allocatedResources": {"cpu": "2", "memory": "1Mi"}, "resources": {"requests": {"cpu": "3"}}}
        ]
    }
    assert size(container(cpu="1", memory="1Gi"), status=status) == {"pods": 1, "vcore": 3000, "memory": GI}


def test_infeasible_resize_uses_the_status_requests() -> None:
    status = {"resize": "Infeasible", "containerStatuses": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}
    assert size(container(cpu="4"), status=status) == {"pods": 1, "vcore": 1000}


def test_init_container_larger_than_the_containers() -> None:
    init = [container("init", cpu="2", memory="512Mi")]
    assert size(container(cpu="1", memory="1Gi"), initContainers=init) == {"pods": 1, "vcore": 2000, "memory": GI}


def test_sidecars_add_and_count_for_later_init_containers() -> None:
    init = [
        container("proxy", restart="Always", cpu="100m", memory="128Mi"),
        container("migrate", cpu="500m", memory="64Mi"),
    ]
    assert size(container(cpu="250m", memory="256Mi"), initContainers=init) == {
        "pods": 1,
        "vcore": 600,
        "memory": 384 * MI,
    }


def test_init_container_before_the_sidecar_does_not_count_it() -> None:
    init = [container("migrate", cpu="500m"), container("proxy", restart="Always", cpu="100m")]
    assert size(container(cpu="250m"), initContainers=init) == {"pods": 1, "vcore": 500}


def test_a_sidecar_counts_itself_twice_in_its_own_check() -> None:
    # the shim adds the sidecar to the running total and then compares 2x the sidecar against it
    init = [container("proxy", restart="Always", cpu="1")]
    assert size(container(cpu="100m"), initContainers=init) == {"pods": 1, "vcore": 2000}


def test_pod_level_requests_override_cpu_and_memory_only() -> None:
    got = size(
        container(cpu="500m", memory="1Gi", nvidia_com_gpu="1"),
        container("d", cpu="500m"),
        resources={"requests": {"cpu": "2", "memory": "3Gi"}},
    )
    assert got == {"pods": 1, "vcore": 2000, "memory": 3 * GI, "nvidia.com/gpu": 1}


def test_overhead_is_added() -> None:
    got = size(container(cpu="1", memory="1Gi"), overhead={"cpu": "250m", "memory": "120Mi"})
    assert got == {"pods": 1, "vcore": 1250, "memory": GI + 120 * MI}


# ---------------------------------------------------------------------------------------- application id, queue


@pytest.mark.parametrize(
    ("labels", "annotations", "expected"),
    [
        (
            {"yunikorn.apache.org/app-id": "l", "applicationId": "x", "spark-app-selector": "s"},
            {"yunikorn.apache.org/app-id": "a"},
            "l",
        ),
        ({"applicationId": "x", "spark-app-selector": "s"}, {"yunikorn.apache.org/app-id": "a"}, "a"),
        ({"applicationId": "x", "spark-app-selector": "s"}, {}, "x"),
        ({"spark-app-selector": "s", "app": "ignored"}, {}, "s"),
        ({"app": "ignored"}, {}, "yunikorn-ns-autogen"),
        ({"applicationId": "job-uniqueautogen"}, {}, "job-uid-1"),
    ],
)
def test_application_id_precedence(labels: dict[str, str], annotations: dict[str, str], expected: str) -> None:
    assert application_id(labels, annotations, "ns", "uid-1", unique=False) == expected


def test_generated_unique_application_id() -> None:
    assert application_id({}, {}, "n" * 40, "uid-1", unique=True) == "n" * 26 + "-uid-1"
    assert len(application_id({}, {}, "n" * 80, "", unique=False)) == 63


def test_unique_ids_follow_the_admission_controller_setting() -> None:
    configmap = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "yunikorn-configs", "namespace": "yunikorn"},
        "data": {"admissionController.filtering.generateUniqueAppId": "true"},
    }
    workload, queues, _ = load(node(), pod(uid="u-1"), pod("q", uid="u-2"), configmap)
    assert sorted(a.id for a in workload.applications) == ["ns-u-1", "ns-u-2"]
    assert queues is None


@pytest.mark.parametrize(
    ("labels", "annotations", "expected"),
    [
        ({"yunikorn.apache.org/queue": "root.l", "queue": "root.x"}, {"yunikorn.apache.org/queue": "root.a"}, "root.l"),
        ({"queue": "root.x"}, {"yunikorn.apache.org/queue": "root.a"}, "root.a"),
        ({"queue": "root.x"}, {}, "root.x"),
        ({}, {}, None),
    ],
)
def test_queue_precedence(labels: dict[str, str], annotations: dict[str, str], expected: str | None) -> None:
    assert queue_name(labels, annotations) == expected


def test_application_takes_queue_user_and_tags_from_its_first_pod() -> None:
    info = {"yunikorn.apache.org/user.info": '{"user": "amy", "groups": ["g1"]}'}
    labels = {"applicationId": "j", "queue": "root.one"}
    first = pod("a", labels=labels, created="2024-01-01T00:00:00Z", annotations=info, nodeName="node-1")
    second = pod("b", labels={"applicationId": "j", "queue": "root.two"}, created="2024-01-01T00:05:00Z")
    workload, _, problems = load(node(), second, first)
    application = app_of(workload, "j")
    assert (application.queue, application.user, application.groups) == ("root.one", "amy", ("g1",))
    assert application.tags == {"namespace": "ns", TAG_CREATE_FORCE: "true"}
    assert application.submit_time == -300 * 10**9
    assert rules_of(problems) == ["cluster-app-mismatch"]
    assert application.allocations[0].originator and not application.asks[0].originator


def test_placeholder_is_never_the_originator() -> None:
    holder = pod("ph", labels={"applicationId": "g"}, created="2024-01-01T00:00:00Z",
                 annotations={"yunikorn.apache.org/placeholder": "true"})  # fmt: skip
    real = pod("real", labels={"applicationId": "g"}, created="2024-01-01T00:01:00Z")
    workload, _, _ = load(node(), holder, real)
    assert [a.originator for a in app_of(workload, "g").asks] == [False, False]


# -------------------------------------------------------------------------------------------------------- users


def test_user_from_user_info_then_username_label_then_nobody() -> None:
    info = pod("a", labels={"applicationId": "a"}, annotations={"yunikorn.apache.org/user.info": '{"User":"ann"}'})
    label = pod("b", labels={"applicationId": "b", "yunikorn.apache.org/username": "ben"})
    plain = pod("c", labels={"applicationId": "c"})
    workload, _, problems = load(node(), info, label, plain)
    assert problems == []
    assert [app_of(workload, i).user for i in "abc"] == ["ann", "ben", "nobody"]


def test_bad_user_info_is_nobody_with_a_warning() -> None:
    bad = pod(annotations={"yunikorn.apache.org/user.info": "{not json"})
    workload, _, problems = load(node(), bad)
    assert workload.applications[0].user == "nobody"
    assert rules_of(problems) == ["cluster-user-info"]
    assert problems[0].span is not None and problems[0].level == Level.WARNING


# ----------------------------------------------------------------------------------- priorities and preemption

CLASSES = (
    priority_class("high", 1000),
    priority_class("default-a", 5, default=True),
    priority_class("default-b", 3, default=True),
    priority_class("never", 50, preemptionPolicy="Never"),
    priority_class("keep", 700, annotations={"yunikorn.apache.org/allow-preemption": "false"}),
    priority_class("keep-upper", 700, annotations={"yunikorn.apache.org/allow-preemption": "False"}),
)


def one(**kwargs: Any) -> tuple[Ask, list[Problem]]:
    workload, _, problems = load(node(), *CLASSES, pod(**kwargs))
    return only_ask(workload), problems


def test_priority_from_spec_priority_first() -> None:
    ask, _ = one(priority=42, priorityClassName="high")
    assert (ask.priority, ask.priority_class, ask.priority_source) == (42, "high", "priority")


def test_priority_from_the_class() -> None:
    ask, _ = one(priorityClassName="high")
    assert (ask.priority, ask.priority_source) == (1000, "priorityClass")


def test_priority_from_the_smallest_global_default() -> None:
    ask, _ = one()
    assert (ask.priority, ask.priority_class, ask.priority_source) == (3, "default-b", "globalDefault")


def test_unknown_class_gives_zero_and_a_warning() -> None:
    ask, problems = one(priorityClassName="missing")
    assert (ask.priority, ask.priority_source) == (0, "")
    assert rules_of(problems) == ["cluster-unknown-priority-class"]


def test_no_classes_gives_zero() -> None:
    workload, _, _ = load(node(), pod())
    assert only_ask(workload).priority == 0


def test_builtin_classes_are_known() -> None:
    workload, _, problems = load(node(), pod(priorityClassName="system-node-critical"))
    assert only_ask(workload).priority == 2_000_001_000 and problems == []


@pytest.mark.parametrize(
    ("class_name", "annotation", "expected"),
    [
        ("keep", None, False),
        ("keep", "true", True),
        ("keep", "yes", False),
        ("high", "false", False),
        ("high", None, True),
        ("keep-upper", None, True),
        ("missing", None, True),
    ],
)
def test_allow_preemption_precedence(class_name: str, annotation: str | None, expected: bool) -> None:
    annotations = {"yunikorn.apache.org/allow-preemption": annotation} if annotation else None
    assert one(priorityClassName=class_name, annotations=annotations)[0].allow_preemption is expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"preemptionPolicy": "Never"}, False),
        ({"preemptionPolicy": "PreemptLowerPriority", "priorityClassName": "never"}, True),
        ({"priorityClassName": "never"}, False),
        ({}, True),
    ],
)
def test_preemption_policy(spec: dict[str, str], expected: bool) -> None:
    assert one(**spec)[0].preempt_other is expected


# -------------------------------------------------------------------------------------- nodes, pods, lifecycle


def test_nodes_capacity_and_unschedulable() -> None:
    workload, _, problems = load(node("a", cpu="3920m", memory="15Gi", pods="58"), node("b", unschedulable=True))
    assert problems == []
    first, second = workload.nodes
    assert first.capacity == {"vcore": 3920, "memory": 15 * GI, "pods": 58}
    assert first.schedulable and not second.schedulable


def test_foreign_pods_occupy_their_node() -> None:
    foreign = pod("dns", namespace="kube-system", scheduler="default-scheduler", nodeName="node-1",
                  containers=[container(cpu="100m", memory="70Mi")])  # fmt: skip
    pending_foreign = pod("waiting", scheduler="default-scheduler")
    done_foreign = pod("done", scheduler="default-scheduler", nodeName="node-1", status={"phase": "Succeeded"})
    workload, _, problems = load(node(), foreign, pending_foreign, done_foreign)
    assert problems == []
    assert workload.nodes[0].occupied == {"pods": 1, "vcore": 100, "memory": 70 * MI}
    assert workload.applications == ()


def test_bound_pods_are_allocations_and_finished_pods_are_ignored() -> None:
    running = pod("run", labels={"applicationId": "j"}, nodeName="node-1", created="2024-01-01T00:00:00Z",
                  status={"phase": "Running"})  # fmt: skip
    bound = pod("bound", labels={"applicationId": "j"}, nodeName="node-1", status={"phase": "Pending"})
    done = pod("done", labels={"applicationId": "j"}, nodeName="node-1", status={"phase": "Failed"})
    waiting = pod("wait", labels={"applicationId": "j"}, created="2024-01-01T00:20:00Z")
    workload, _, _ = load(node(), running, bound, done, waiting)
    application = app_of(workload, "j")
    assert [a.name for a in application.allocations] == ["ns/run", "ns/bound"]
    assert [(a.node, a.start_time) for a in application.allocations] == [
        ("node-1", -1200 * 10**9),
        ("node-1", -600 * 10**9),
    ]
    assert [(a.name, a.submit_time) for a in application.asks] == [("ns/wait", 0)]


def test_daemonset_pods_require_their_node() -> None:
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-2"]}]}]}}}  # fmt: skip
    daemon = pod(affinity=affinity)
    daemon["metadata"]["ownerReferences"] = [{"kind": "DaemonSet", "name": "agent", "uid": "x"}]
    workload, _, _ = load(node(), node("node-2"), daemon)
    assert only_ask(workload).required_node == "node-2"


def owned(kind: str, controller: bool | None = True, **kwargs: Any) -> dict[str, Any]:
    """A pod with one owner reference of this kind (controller left out when None)."""
    reference: dict[str, Any] = {"apiVersion": "apps/v1", "kind": kind, "name": "owner", "uid": "owner-uid"}
    if controller is not None:
        reference["controller"] = controller
    made = pod(**kwargs)
    made["metadata"]["ownerReferences"] = [reference]
    return made


@pytest.mark.parametrize(
    ("kind", "controller", "expected"),
    [
        ("ReplicaSet", True, True),
        ("StatefulSet", True, True),
        ("Job", True, True),
        ("ReplicationController", True, True),
        ("ReplicaSet", False, False),
        ("ReplicaSet", None, False),
        ("DaemonSet", True, False),
        ("Deployment", True, False),
        ("", None, False),
    ],
)
def test_restart_on_preemption_follows_the_controller_owner(kind: str, controller: bool | None, expected: bool) -> None:
    waiting = owned(kind, controller, name="wait") if kind else pod("wait")
    running = owned(kind, controller, name="run", nodeName="node-1") if kind else pod("run", nodeName="node-1")
    workload, _, problems = load(node(), waiting, running)
    assert problems == []
    (application,) = workload.applications
    assert [a.restart_on_preemption for a in (*application.asks, *application.allocations)] == [expected, expected]


def test_restart_on_preemption_from_a_yaml_dump() -> None:
    text = dedent(
        """
        apiVersion: v1
        kind: List
        items:
          - {apiVersion: v1, kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: "8", pods: "110"}}}
          - apiVersion: v1
            kind: Pod
            metadata:
              name: web-5d9c-abcde
              namespace: ns
              ownerReferences:
                - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d9c, uid: u1, controller: true}
            spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
          - apiVersion: v1
            kind: Pod
            metadata: {name: bare, namespace: ns}
            spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
        """
    )
    workload, _, problems = load(text=text)
    assert problems == []
    assert {a.name: a.restart_on_preemption for a in workload.asks()} == {"ns/web-5d9c-abcde": True, "ns/bare": False}


def test_namespace_annotations_become_tags() -> None:
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns", "annotations": {
        "yunikorn.apache.org/parentqueue": "root.tenants",
        "yunikorn.apache.org/namespace.quota": '{"cpu": "2", "memory": "1Gi"}'}}}  # fmt: skip
    workload, _, _ = load(node(), namespace, pod())
    tags = workload.applications[0].tags
    assert tags["namespace.parentqueue"] == "root.tenants"
    assert json.loads(tags[TAG_QUOTA]) == {"resources": {"memory": {"value": GI}, "vcore": {"value": 2000}}}


def test_namespace_tags_legacy_and_bad_annotations() -> None:
    legacy = namespace_tags(
        {"yunikorn.apache.org/namespace.max.cpu": "500m", "yunikorn.apache.org/namespace.maxApps": "4"}
    )
    assert json.loads(legacy[TAG_QUOTA]) == {"resources": {"vcore": {"value": 500}}}
    assert legacy["namespace.resourcemaxapps"] == "4"
    assert namespace_tags({"yunikorn.apache.org/namespace.quota": "{bad"}) == {}


# --------------------------------------------------------------------------------------------------- the config


def configmap(name: str, data: dict[str, str] | None = None, binary: dict[str, str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "yk"}}
    if data is not None:
        body["data"] = data
    if binary is not None:
        body["binaryData"] = binary
    return body


def test_queues_yaml_from_yunikorn_configs_over_defaults() -> None:
    defaults = configmap("yunikorn-defaults", {"queues.yaml": "partitions: []\n", "log.level": "0"})
    configs = configmap("yunikorn-configs", {"queues.yaml": "partitions:\n  - name: default\n"})
    assert load(defaults, configs)[1] == "partitions:\n  - name: default\n"
    assert load(defaults, configmap("yunikorn-configs", {"log.level": "1"}))[1] == "partitions: []\n"


def test_queues_yaml_from_gzipped_binary_data() -> None:
    packed = base64.b64encode(gzip.compress(b"partitions: []\n")).decode()
    assert load(configmap("yunikorn-configs", binary={"queues.yaml.gz": packed}))[1] == "partitions: []\n"
    _, queues, problems = load(configmap("yunikorn-configs", binary={"queues.yaml.gz": "!!!"}))
    assert queues is None and rules_of(problems) == ["yaml-syntax"]


def test_policy_group_selects_the_key() -> None:
    data = {"service.policyGroup": "batch", "batch.yaml": "partitions: []\n", "queues.yaml": "x: 1\n"}
    assert load(configmap("yunikorn-configs", data))[1] == "partitions: []\n"


def test_no_configmap_or_empty_queues_yaml_means_the_default_config() -> None:
    assert load(node())[1] is None
    assert load(configmap("yunikorn-configs", {"queues.yaml": "  \n"}))[1] is None
    assert load(configmap("other", {"queues.yaml": "partitions: []\n"}))[1] is None


def test_second_configmap_is_ignored() -> None:
    first = configmap("yunikorn-configs", {"queues.yaml": "a: 1\n"})
    second = configmap("yunikorn-configs", {"queues.yaml": "b: 2\n"})
    _, queues, problems = load(first, second)
    assert queues == "a: 1\n" and rules_of(problems) == ["cluster-multiple-configs"]


# ---------------------------------------------------------------------------------------------- the sample dump


def test_sample_dump_loads_cleanly() -> None:
    workload, queues, problems = load_cluster(str(DUMP))
    assert problems == []
    assert queues is not None and queues.startswith("partitions:")
    assert [(n.name, n.schedulable) for n in workload.nodes] == [
        ("node-1", True),
        ("node-2", True),
        ("node-3", False),
        ("node-4", True),
        ("cp-1", True),
        ("gpu-1", True),
        ("gpu-2", True),
    ]
    assert workload.nodes[0].capacity == {
        "vcore": 7910,
        "ephemeral-storage": 96625420948,
        "hugepages-1Gi": 0,
        "hugepages-2Mi": 0,
        "memory": 31257888 * 1024,
        "pods": 110,
    }
    assert workload.nodes[0].occupied == {"pods": 1, "vcore": 100, "memory": 70 * MI}
    assert workload.nodes[2].occupied == {"pods": 1, "vcore": 100}
    assert [a.id for a in workload.applications] == [
        "yunikorn-team-a-autogen",
        "train-7",
        "yunikorn-data-science-autogen",
        "etl-42",
        "resnet-50",
        "spark-0001",
        "yunikorn-team-b-autogen",
        "llm-finetune",
        "report-1",
    ]
    assert len(workload.asks()) == 12
    assert sum(len(a.allocations) for a in workload.applications) == 7


def test_sample_dump_details() -> None:
    workload, _, _ = load_cluster(str(DUMP))
    web = app_of(workload, "yunikorn-team-a-autogen").allocations[0]
    assert (web.node, web.priority, web.resources) == ("node-2", 10, {"pods": 1, "vcore": 600, "memory": 384 * MI})
    spark = app_of(workload, "spark-0001")
    assert (spark.queue, spark.user, spark.groups) == ("root.tenants.team-a", "alice", ("team-a", "spark-users"))
    driver = spark.allocations[0]
    assert driver.name == "team-a/spark-pi-driver" and driver.originator and not driver.allow_preemption
    assert driver.resources == {"pods": 1, "vcore": 1000, "memory": 2432 * MI}
    etl = app_of(workload, "etl-42")
    assert [(a.priority, a.preempt_other, a.submit_time) for a in etl.asks] == [
        (100, False, -1200 * 10**9),
        (100, False, -1195 * 10**9),
    ]
    worker = app_of(workload, "train-7").asks[0]
    assert (worker.priority, worker.allow_preemption) == (1000, True)
    assert worker.resources == {"pods": 1, "vcore": 3250, "memory": 6 * GI + 120 * MI}
    notebook = app_of(workload, "yunikorn-data-science-autogen")
    assert notebook.tags == {
        "namespace": "data-science",
        "namespace.parentqueue": "root.analytics",
        TAG_CREATE_FORCE: "true",
    }
    assert notebook.asks[0].resources == {"pods": 1, "vcore": 1000, "memory": 2 * GI}
    agent = app_of(workload, "yunikorn-team-b-autogen").asks[0]
    assert (agent.required_node, agent.priority, agent.priority_class) == ("node-2", 10, "default-priority")


def test_sample_dump_config_is_valid_and_places_every_application() -> None:
    assert load_config(str(DUMP)).problems == []
    workload, queues, _ = load_cluster(str(DUMP))
    assert queues is not None
    config, problems = decode_config(parse_yaml(queues).documents[0])
    assert problems == []
    part = config.partitions[0]
    tree = build_queue_tree(part)
    placements = place_all(part, tree, workload.applications)
    assert {k: v.queue_path for k, v in placements.items()} == {
        "yunikorn-team-a-autogen": "root.tenants.team-a",
        "train-7": "root.tenants.team-b",
        "yunikorn-data-science-autogen": "root.analytics.data-science",
        "etl-42": "root.tenants.team-b",
        "resnet-50": "root.tenants.ml",
        "spark-0001": "root.tenants.team-a",
        "yunikorn-team-b-autogen": "root.tenants.team-b",
        "llm-finetune": "root.tenants.ml",
        "report-1": "root.analytics.data-science",
    }
    dynamic = tree.get("root.analytics.data-science")
    assert dynamic is not None and dynamic.maxapplications == 3 and dynamic.sort_policy == "fair"


def test_loading_is_deterministic() -> None:
    assert load_cluster(str(DUMP)) == load_cluster(str(DUMP))


# --------------------------------------------------------------------------------------------------- bad input


def test_yaml_syntax_error_is_a_problem() -> None:
    workload, queues, problems = load(text="items: [\n  - a: b\n")
    assert (workload.nodes, workload.applications, queues) == ((), (), None)
    assert rules_of(problems) == ["yaml-syntax"]
    assert exit_code(problems) == EXIT_PROBLEMS


def test_not_kubernetes() -> None:
    _, _, problems = load(text="just a string\n")
    assert rules_of(problems) == ["cluster-not-kubernetes"]
    _, _, problems = load(text="")
    assert [(p.rule, p.message) for p in problems] == [
        ("cluster-not-kubernetes", "the file holds no Kubernetes objects")
    ]


def test_invalid_utf8() -> None:
    _, _, problems = cluster_from_bytes(b"kind: Pod\nmetadata: {name: \xff}\n", "dump.yaml")
    assert rules_of(problems) == ["yaml-syntax"]


def test_bad_quantity_is_located_and_skips_the_pod() -> None:
    text = "kind: List\nitems:\n- kind: Pod\n  metadata: {name: p}\n  spec:\n    schedulerName: yunikorn\n" \
        "    containers:\n    - name: c\n      resources: {requests: {cpu: lots}}\n"  # fmt: skip
    workload, _, problems = load(text=text)
    assert workload.applications == ()
    assert [(p.rule, p.span.line, p.span.column) for p in problems if p.span] == [("cluster-bad-quantity", 9, 35)]
    assert problems[0].file == "dump.yaml" and problems[0].level == Level.ERROR


def test_bad_node_quantity_drops_only_that_resource() -> None:
    workload, _, problems = load(node(memory="a lot"))
    assert rules_of(problems) == ["cluster-bad-quantity"]
    assert len(workload.nodes) == 1 and "memory" not in workload.nodes[0].capacity


def test_unknown_node_missing_name_and_duplicates() -> None:
    stray = pod("stray", nodeName="elsewhere")
    nameless = {"kind": "Pod", "metadata": {"namespace": "ns"}, "spec": {}}
    classless = {"kind": "PriorityClass", "metadata": {"name": "x"}, "value": "high"}
    workload, _, problems = load(node(), stray, nameless, classless, pod("dup"), pod("dup"))
    assert sorted(rules_of(problems)) == [
        "cluster-duplicate-object",
        "cluster-invalid-field",
        "cluster-invalid-field",
        "cluster-unknown-node",
    ]
    assert [a.name for a in workload.asks()] == ["ns/dup"]
    assert all(p.span is not None for p in problems)


def test_pods_without_nodes() -> None:
    _, _, problems = load(pod())
    assert rules_of(problems) == ["cluster-no-nodes"]


def test_wrong_types_are_reported_not_raised() -> None:
    odd = pod(labels=None)
    odd["metadata"]["labels"] = ["not", "a", "map"]
    odd["spec"]["containers"] = {"name": "c"}
    odd["spec"]["priority"] = "high"
    workload, _, problems = load(node(), odd)
    assert sorted(rules_of(problems)) == ["cluster-invalid-field"] * 3
    assert only_ask(workload).resources == {"pods": 1}


def test_bad_timestamp_is_a_warning() -> None:
    workload, _, problems = load(node(), pod(created="yesterday"))
    assert rules_of(problems) == ["cluster-bad-timestamp"] and only_ask(workload).submit_time == 0


def test_missing_file_is_an_input_error() -> None:
    with pytest.raises(InputError):
        load_cluster("/nonexistent/dump.yaml")


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps(node()).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    workload, _, problems = load_cluster("-")
    assert [n.name for n in workload.nodes] == ["node-1"] and problems == []


def test_every_cluster_rule_is_registered() -> None:
    from yk_cli.core.workload.cluster_rules import CLUSTER_RULES

    rules = all_rules()
    assert all(rules[r.id] is r and r.id.startswith("cluster-") for r in CLUSTER_RULES)


VOCABULARY = st.sampled_from(
    ["kind", "Pod", "Node", "List", "items", "metadata", "name", "spec", "status", "containers", "resources",
     "requests", "cpu", "memory", "nodeName", "schedulerName", "yunikorn", "allocatable", "initContainers",
     "restartPolicy", "Always", "priority", "priorityClassName", "value", "PriorityClass", "labels", "overhead",
     "ConfigMap", "yunikorn-configs", "data", "binaryData", "queues.yaml", "creationTimestamp", "1Gi", "500m"]
)  # fmt: skip
SCALARS = st.one_of(VOCABULARY, st.integers(-5, 5), st.booleans(), st.none(), st.text(max_size=6))
TREES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(VOCABULARY, inner, max_size=5)),
    max_leaves=30,
)


@settings(max_examples=150)
@given(TREES)
def test_arbitrary_structures_never_raise(tree: Any) -> None:
    workload, _, problems = load(text=json.dumps(tree))
    assert isinstance(workload, Workload)
    assert all(isinstance(p, Problem) and p.rule in all_rules() for p in problems)


@settings(max_examples=100)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    workload, _, problems = cluster_from_bytes(data, "x")
    assert isinstance(workload, Workload) and isinstance(problems, list)


def test_json_dumps_load_like_yaml() -> None:
    from ruamel.yaml import YAML

    raw = YAML(typ="safe", pure=True).load(DUMP.read_text())
    from_json = cluster_from_bytes(json.dumps(raw, indent=2).encode(), "dump.json")
    assert from_json == load_cluster(str(DUMP))


def test_json_problems_are_located_too() -> None:
    text = json.dumps({"kind": "List", "items": [node(memory="lots")]}, indent=2)
    _, _, problems = cluster_from_bytes(text.encode(), "dump.json")
    assert [(p.rule, p.span.line if p.span else 0) for p in problems] == [("cluster-bad-quantity", 15)]
