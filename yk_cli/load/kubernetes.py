"""load_cluster: a Kubernetes dump (`kubectl get nodes,pods,priorityclasses -A -o yaml`) as a dry-run workload.

    load_cluster(path_or_dash: str) -> tuple[Workload, str | None, list[Problem]]

`path_or_dash` is a file, or `-` for standard input. Raises `InputError` (from yk_cli.load.source) only when the
input cannot be read at all (missing, a directory, too large); anything wrong inside it becomes a located Problem
(rules `cluster-*` in yk_cli.core.workload.cluster_rules, plus `yaml-syntax`) and never an exception. Returns:

* the Workload: nodes (status.allocatable as capacity, `spec.unschedulable` -> not schedulable, labels and taints,
  resources of running pods of other schedulers as `occupied` and their node constraints as `foreign_pods`),
  priority classes (the dump's plus the two built-in ones), the Namespaces with their labels, and one Application per
  YuniKorn application id with pending pods as Asks and bound pods as Allocations, each with its PodSpec (namespace,
  labels, node constraints; task groups with their placeholders'). Node constraints are read by
  yk_cli.load.pod_constraints, the loaders' one reader of them;
* the queues.yaml text of the `yunikorn-configs` ConfigMap (merged key by key over `yunikorn-defaults`, key
  `<service.policyGroup>.yaml`), or None when the dump has none (YuniKorn then uses its built-in default config);
* the problems, sorted by position.

The mapping follows yunikorn-k8shim; docs/cluster.md describes it rule by rule.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from yk_cli.core.config.placement import TAG_CREATE_FORCE, TAG_GUARANTEED, TAG_MAX_APPS, TAG_QUOTA
from yk_cli.core.diagnostics import Problem, Rule, Span
from yk_cli.core.lint.resource_names import lint_workload_resource_names
from yk_cli.core.predicates.model import Namespace, PodSpec
from yk_cli.core.resources import Resource, add_into, k8s_quantity
from yk_cli.core.workload import cluster_rules as cr
from yk_cli.core.workload.model import (
    BUILTIN_PRIORITY_CLASSES,
    HARD,
    NANOS,
    SOFT,
    Allocation,
    Application,
    Ask,
    NodeSpec,
    PriorityClass,
    TaskGroup,
    Workload,
)
from yk_cli.core.yamldoc import Node, resolve_plain
from yk_cli.load.configmap import configmap_entries
from yk_cli.load.objects import rfc3339_seconds
from yk_cli.load.pod_constraints import (
    Issue,
    located,
    namespace_constraints,
    node_constraints,
    pod_constraints,
    task_group_constraints,
)
from yk_cli.load.source import decode_text, parse_yaml, read_input, shown_name
from yk_cli.load.yamlreader import has_surrogate_escape, loads_like_go

SCHEDULER_NAME = "yunikorn"
DOMAIN = "yunikorn.apache.org/"
LABEL_APP_ID = DOMAIN + "app-id"
ANNOTATION_APP_ID = DOMAIN + "app-id"
LABEL_APPLICATION_ID = "applicationId"
LABEL_SPARK_APP_ID = "spark-app-selector"
LABEL_QUEUE = DOMAIN + "queue"
ANNOTATION_QUEUE = DOMAIN + "queue"
LABEL_QUEUE_LEGACY = "queue"
ANNOTATION_USER_INFO = DOMAIN + "user.info"
LABEL_USER = DOMAIN + "username"
ANNOTATION_ALLOW_PREEMPTION = DOMAIN + "allow-preemption"
ANNOTATION_PARENT_QUEUE = DOMAIN + "parentqueue"
ANNOTATION_NS_QUOTA = DOMAIN + "namespace.quota"
ANNOTATION_NS_MAX_CPU = DOMAIN + "namespace.max.cpu"
ANNOTATION_NS_MAX_MEMORY = DOMAIN + "namespace.max.memory"
ANNOTATION_NS_GUARANTEED = DOMAIN + "namespace.guaranteed"
ANNOTATION_NS_MAX_APPS = DOMAIN + "namespace.maxApps"
ANNOTATION_TASK_GROUPS = DOMAIN + "task-groups"
ANNOTATION_TASK_GROUP_NAME = DOMAIN + "task-group-name"
ANNOTATION_POLICY_PARAMETERS = DOMAIN + "schedulingPolicyParameters"
"""Gang scheduling (k8shim gang_utils.go): task groups, a pod's task group, `placeholderTimeoutInSeconds=N
gangSchedulingStyle=Hard` (space-separated)."""
PLACEHOLDER_ANNOTATIONS = ("internal.yunikorn.apache.org/placeholder", DOMAIN + "placeholder")
TAG_NAMESPACE = "namespace"
TAG_PARENT_QUEUE = "namespace.parentqueue"
UNIQUE_AUTOGEN_SUFFIX = "-uniqueautogen"
DEFAULT_NAMESPACE = "default"
DEFAULT_USER = "nobody"
CONFIGMAPS = ("yunikorn-defaults", "yunikorn-configs")
"""Flattened in this order: yunikorn-configs wins key by key."""
POD_LEVEL_RESOURCES = ("cpu", "memory")
FINISHED_PHASES = ("Succeeded", "Failed")
RESTARTING_CONTROLLERS = ("ReplicaSet", "StatefulSet", "Job", "ReplicationController")
"""Controllers that recreate a deleted (preempted) pod; a Deployment's pods are owned by its ReplicaSet. DaemonSet pods
are recreated too, but they are required-node pods, preempted for, not restarted in the restartOnPreemption sense."""
_GO_TRUE = {"1", "t", "T", "TRUE", "true", "True"}


class _Skip(Exception):
    """The object cannot be used; its problem has been recorded."""


@dataclass(slots=True)
class _Reader:
    """Problem collection with the file name every problem is located in."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def report(self, rule: Rule, message: str, node: Node | None, hint: str = "") -> None:
        problem = rule.problem(message, hint=hint)
        self.problems.append(problem.located(node.span if node is not None else None, self.file))

    def fail(self, rule: Rule, message: str, node: Node | None, hint: str = "") -> _Skip:
        self.report(rule, message, node, hint)
        return _Skip(message)

    def refused(self, issues: Sequence[Issue], obj: Node, subject: str) -> None:
        """What the API server would refuse in an object's node constraints (pod_constraints' issues)."""
        if issues:
            self.problems.extend(
                located(issues, obj, self.file, wrong_type=cr.INVALID_FIELD, refused=cr.BAD_POD_SPEC, subject=subject)
            )


def _get(node: Node | None, *keys: str) -> Node | None:
    """A nested mapping value, or None when any step is missing or not a mapping (null counts as missing)."""
    for key in keys:
        if node is None or node.kind != "map":
            return None
        node = node.get(key)
    if node is not None and node.kind == "scalar" and node.tag == "null":
        return None
    return node


def _text(node: Node | None, *keys: str) -> str:
    value = _get(node, *keys)
    return value.text if value is not None and value.kind == "scalar" else ""


def _string_map(reader: _Reader, node: Node | None, what: str) -> dict[str, str]:
    """Labels, annotations and the like: a mapping of strings (anything else is reported and ignored)."""
    if node is None:
        return {}
    if node.kind != "map":
        reader.report(cr.INVALID_FIELD, f"{what} must be a mapping, found {node.in_words()}", node)
        return {}
    return {k.text: v.text for k, v in node.pairs if k.kind == "scalar" and v.kind == "scalar" and v.tag != "null"}


def _list(reader: _Reader, node: Node | None, what: str) -> list[Node]:
    if node is None:
        return []
    if node.kind != "seq":
        reader.report(cr.INVALID_FIELD, f"{what} must be a list, found {node.in_words()}", node)
        return []
    return node.items


def resource_list(reader: _Reader, node: Node | None, what: str) -> Resource:
    """A Kubernetes ResourceList in YuniKorn units (cpu -> vcore millicores, the rest by value); bad -> _Skip."""
    if node is None:
        return {}
    if node.kind != "map":
        raise reader.fail(cr.INVALID_FIELD, f"{what} must be a mapping of quantities, found {node.in_words()}", node)
    out: Resource = {}
    for key, value in node.pairs:
        if key.kind != "scalar" or value.tag == "null":
            continue
        amount = k8s_quantity(key.text, value.text) if value.kind == "scalar" else None
        if amount is None:
            raise reader.fail(
                cr.BAD_QUANTITY,
                f"{what}: {key.text} {value.text if value.kind == 'scalar' else value.in_words()!s} "
                "is not a Kubernetes quantity",
                value,
                "write a number with an optional suffix, e.g. 500m, 2, 1.5Gi.",
            )
        out["vcore" if key.text == "cpu" else key.text] = amount
    return out


def _update_max(target: Resource, other: Resource) -> None:
    for key, value in other.items():
        if key not in target or value > target[key]:
            target[key] = value


def _resize_infeasible(status: Node | None) -> bool:
    if _text(status, "resize") == "Infeasible":
        return True
    conditions = _get(status, "conditions")
    for condition in conditions.items if conditions is not None and conditions.kind == "seq" else []:
        if _text(condition, "type") == "PodResizePending" and _text(condition, "reason") == "Infeasible":
            return True
    return False


def _container_resource(
    reader: _Reader, container: Node, statuses: dict[str, Node], infeasible: bool, what: str
) -> Resource:
    """computeContainerResource: max of the spec request, status allocatedResources and status resources."""
    combined = resource_list(reader, _get(container, "resources", "requests"), f"{what} requests")
    status = statuses.get(_text(container, "name"))
    if status is None:
        return combined
    reported = _get(status, "resources", "requests")
    if infeasible and _get(status, "resources") is not None:
        return resource_list(reader, reported, f"{what} status resources")
    _update_max(combined, resource_list(reader, _get(status, "allocatedResources"), f"{what} allocatedResources"))
    _update_max(combined, resource_list(reader, reported, f"{what} status resources"))
    return combined


def pod_resource(reader: _Reader, pod: Node) -> Resource:
    """GetPodResource: `pods: 1` + containers + sidecars, the init-container maximum, pod-level requests, overhead."""
    spec = _get(pod, "spec")
    status = _get(pod, "status")
    statuses: dict[str, Node] = {}
    for key in ("containerStatuses", "initContainerStatuses"):
        for item in _list(reader, _get(status, key), f"status.{key}"):
            name = _text(item, "name")
            if name:
                statuses[name] = item
    infeasible = _resize_infeasible(status)
    total: Resource = {"pods": 1}
    for i, container in enumerate(_list(reader, _get(spec, "containers"), "spec.containers")):
        add_into(total, _container_resource(reader, container, statuses, infeasible, f"container {i}"))
    inits = _list(reader, _get(spec, "initContainers"), "spec.initContainers")
    if inits:
        sized = [
            (_text(c, "restartPolicy") == "Always", _container_resource(reader, c, statuses, infeasible, f"init {i}"))
            for i, c in enumerate(inits)
        ]
        for sidecar, resource in sized:
            if sidecar:
                add_into(total, resource)
        sidecars: Resource = {}
        for sidecar, resource in sized:
            if sidecar:
                add_into(sidecars, resource)
            needed = dict(resource)
            add_into(needed, sidecars)  # a sidecar counts itself twice here, exactly like the shim
            _update_max(total, needed)
    pod_level = resource_list(reader, _get(spec, "resources", "requests"), "spec.resources.requests")
    for name in POD_LEVEL_RESOURCES:
        key = "vcore" if name == "cpu" else name
        if key in pod_level:
            total[key] = pod_level[key]
    add_into(total, resource_list(reader, _get(spec, "overhead"), "spec.overhead"))
    return total


def _timestamp(reader: _Reader, obj: Node) -> int | None:
    """metadata.creationTimestamp in Unix seconds, or None when absent or unreadable (reported)."""
    node = _get(obj, "metadata", "creationTimestamp")
    if node is None or node.kind != "scalar":
        return None
    seconds = rfc3339_seconds(node.text)
    if seconds is None:
        reader.report(cr.BAD_TIMESTAMP, f"creationTimestamp {node.text.strip()!r} is not an RFC 3339 time", node)
        return None
    return int(seconds // 1)


def _go_bool(text: str) -> bool | None:
    if text in _GO_TRUE:
        return True
    if text in {"0", "f", "F", "FALSE", "false", "False"}:
        return False
    return None


@dataclass(slots=True)
class _Object:
    kind: str
    node: Node
    name: str
    namespace: str
    created: int | None


@dataclass(slots=True)
class _Pod:
    """A YuniKorn pod, resolved far enough to group it into its application."""

    index: int
    node: Node
    name: str
    namespace: str
    uid: str
    created: int | None
    app_id: str
    queue: str | None
    user: str
    groups: tuple[str, ...]
    node_name: str
    resources: Resource
    priority: int
    priority_source: str
    priority_class: str
    preempt_other: bool
    allow_preemption: bool
    placeholder: bool
    """A gang placeholder pod the shim created (already in the dump): treated as an ordinary pod."""
    task_group: str
    """yunikorn.apache.org/task-group-name."""
    gang: tuple[tuple[TaskGroup, ...], str, int | None]
    """The task groups, style and timeout its annotations give (an application takes its first pod's)."""
    daemonset_node: str
    daemonset: bool
    restarts: bool
    """Its controller recreates it when it is preempted (restart_on_preemption)."""
    spec: PodSpec
    """Namespace, labels and node constraints (pod_constraints)."""


def _collect(reader: _Reader, documents: list[Node]) -> list[_Object]:
    """Every Kubernetes object of the documents, Lists flattened, in file order."""
    out: list[_Object] = []

    def walk(node: Node) -> None:
        if node.kind == "scalar" and node.tag == "null":
            return
        kind = _text(node, "kind")
        if node.kind != "map" or not kind:
            reader.report(
                cr.NOT_KUBERNETES,
                f"expected a Kubernetes object (a mapping with kind and metadata), found {node.in_words()}",
                node,
                "dump the cluster with `kubectl get nodes,pods,priorityclasses -A -o yaml`.",
            )
            return
        if kind == "List" or (kind.endswith("List") and _get(node, "items") is not None):
            for item in _list(reader, _get(node, "items"), f"{kind} items"):
                walk(item)
            return
        name = _text(node, "metadata", "name")
        if not name:
            reader.report(cr.INVALID_FIELD, f"{kind} without metadata.name is ignored", node)
            return
        namespace = _text(node, "metadata", "namespace")
        out.append(_Object(kind, node, name, namespace, _timestamp(reader, node)))

    for document in documents:
        walk(document)
    return out


def _priority_class(reader: _Reader, obj: _Object) -> PriorityClass | None:
    value = _get(obj.node, "value")
    if value is None or value.kind != "scalar" or value.tag != "int" or not isinstance(value.value, int):
        reader.report(
            cr.INVALID_FIELD,
            f"PriorityClass {obj.name} needs an integer value, found {value.in_words() if value else 'none'}",
            value or obj.node,
        )
        return None
    annotations = _string_map(reader, _get(obj.node, "metadata", "annotations"), "metadata.annotations")
    global_default = _get(obj.node, "globalDefault")
    return PriorityClass(
        name=obj.name,
        value=int(value.value),
        preemption_policy=_text(obj.node, "preemptionPolicy") or "PreemptLowerPriority",
        allow_preemption=annotations.get(ANNOTATION_ALLOW_PREEMPTION) != "false",
        global_default=global_default is not None and global_default.value is True,
    )


def _valid_quantities(node: Node | None) -> Resource:
    """The entries of a ResourceList that parse, in YuniKorn units (the others were reported already)."""
    out: Resource = {}
    for key, value in node.pairs if node is not None and node.kind == "map" else []:
        amount = k8s_quantity(key.text, value.text) if key.kind == "scalar" and value.kind == "scalar" else None
        if amount is not None:
            out["vcore" if key.text == "cpu" else key.text] = amount
    return out


def _node_spec(reader: _Reader, obj: _Object) -> NodeSpec | None:
    allocatable = _get(obj.node, "status", "allocatable")
    if allocatable is None:
        allocatable = _get(obj.node, "status", "capacity")
    if allocatable is None:
        reader.report(cr.INVALID_FIELD, f"node {obj.name} has no status.allocatable: it gets no capacity", obj.node)
    try:
        capacity = resource_list(reader, allocatable, f"node {obj.name} allocatable")
    except _Skip:
        capacity = _valid_quantities(allocatable)  # the bad entry is reported; keep the node and its pods
    unschedulable = _get(obj.node, "spec", "unschedulable")
    _string_map(reader, _get(obj.node, "metadata", "labels"), "metadata.labels")
    facts = node_constraints(obj.node)
    reader.refused(facts.issues, obj.node, f"node {obj.name}")
    return NodeSpec(
        name=obj.name,
        capacity=capacity,
        schedulable=not (unschedulable is not None and unschedulable.value is True),
        labels=facts.value.labels,
        taints=facts.value.taints,
    )


def _generated_app_id(namespace: str, uid: str, unique: bool) -> str:
    generated = f"{namespace[:26]}-{uid}" if unique and uid else f"yunikorn-{namespace}-autogen"
    return generated[:63]


def application_id(labels: dict[str, str], annotations: dict[str, str], namespace: str, uid: str, unique: bool) -> str:
    """GetApplicationIDFromPod: app-id label, app-id annotation, applicationId, spark-app-selector, else generated."""
    app_id = (
        labels.get(LABEL_APP_ID)
        or annotations.get(ANNOTATION_APP_ID)
        or labels.get(LABEL_APPLICATION_ID)
        or labels.get(LABEL_SPARK_APP_ID)
        or ""
    )
    if app_id.endswith(UNIQUE_AUTOGEN_SUFFIX):
        app_id = f"{app_id.removesuffix(UNIQUE_AUTOGEN_SUFFIX)}-{uid}"
    return app_id or _generated_app_id(namespace, uid, unique)


def queue_name(labels: dict[str, str], annotations: dict[str, str]) -> str | None:
    """GetQueueNameFromPod: queue label, queue annotation, legacy `queue` label; None leaves it to the rules."""
    return labels.get(LABEL_QUEUE) or annotations.get(ANNOTATION_QUEUE) or labels.get(LABEL_QUEUE_LEGACY) or None


def _user(
    reader: _Reader, pod: Node, labels: dict[str, str], annotations: dict[str, str]
) -> tuple[str, tuple[str, ...]]:
    """GetUserFromPod: the user.info annotation (JSON), else the username label, else nobody."""
    info = annotations.get(ANNOTATION_USER_INFO, "")
    if info:
        try:
            raw = loads_like_go(info)
            if not isinstance(raw, dict):
                raise ValueError("not an object")
            fields = {str(k).lower(): v for k, v in raw.items()}
            user = fields.get("user") or ""
            groups = fields.get("groups") or []
            if not isinstance(user, str) or not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
                raise ValueError("wrong types")
        except ValueError as err:
            node = _get(pod, "metadata", "annotations", ANNOTATION_USER_INFO)
            reader.report(cr.USER_INFO, f"{ANNOTATION_USER_INFO} is not valid user info ({err}): user is nobody", node)
            return DEFAULT_USER, ()
        return user or DEFAULT_USER, tuple(groups)
    return labels.get(LABEL_USER) or DEFAULT_USER, ()


_NO_GANG: tuple[tuple[TaskGroup, ...], str, int | None] = ((), SOFT, None)


class _Refused(ValueError):
    """A task group whose placeholder pods the API server refuses (the message says so)."""


def _gang(
    reader: _Reader, pod: Node, annotations: dict[str, str], namespace: str, app_id: str, queue: str | None
) -> tuple[tuple[TaskGroup, ...], str, int | None]:
    """GetTaskGroupsFromAnnotation and GetSchedulingPolicyParam: the task groups (minResource in YuniKorn units,
    plus the `pods: 1` every pod of the group adds; the node constraints, namespace and labels of the placeholder
    pods the shim makes for them), the style and the timeout in nanoseconds."""
    text = annotations.get(ANNOTATION_TASK_GROUPS, "")
    if not text.strip():
        return _NO_GANG
    # newPlaceholder: the group's labels, then the application id and queue labels over them
    placeholder_labels = {LABEL_APP_ID: app_id, LABEL_QUEUE: queue or ""}
    try:
        raw = loads_like_go(text)
        if not isinstance(raw, list):
            raise ValueError("not a JSON list")
        groups = []
        for item in raw:
            if not isinstance(item, dict):
                raise ValueError("a task group is not a JSON object")
            name, members, minimum = item.get("name"), item.get("minMember"), item.get("minResource")
            if not isinstance(name, str) or not name:
                raise ValueError("a task group has no name")
            if not isinstance(members, int) or isinstance(members, bool) or members < 1:
                raise ValueError(f"task group {name} has no minMember of at least 1")
            if not isinstance(minimum, dict):
                raise ValueError(f"task group {name} has no minResource")
            resources: Resource = {"pods": 1}
            for key, value in minimum.items():
                amount = k8s_quantity(str(key), str(value))
                if amount is None:
                    raise ValueError(f"task group {name}: {key} {value!r} is not a Kubernetes quantity")
                resources["vcore" if key == "cpu" else str(key)] = amount
            placeholders = task_group_constraints(item, namespace, placeholder_labels)
            issues = placeholders.issues
            if issues:
                more = f" and {len(issues) - 1} more" if len(issues) > 1 else ""
                if any(issue.wrong_type for issue in issues):
                    first = next(issue for issue in issues if issue.wrong_type)
                    raise ValueError(f"task group {name}: {first.message}{more}")
                raise _Refused(
                    f"{ANNOTATION_TASK_GROUPS}: the API server refuses the placeholder pods of task group {name} "
                    f"({issues[0].message}{more}): the shim falls back to scheduling without gang scheduling"
                )
            groups.append(TaskGroup(name, members, resources, pod=placeholders.value))
    except _Refused as err:
        reader.report(cr.TASK_GROUPS, str(err), _get(pod, "metadata", "annotations", ANNOTATION_TASK_GROUPS))
        return _NO_GANG
    except ValueError as err:
        node = _get(pod, "metadata", "annotations", ANNOTATION_TASK_GROUPS)
        reader.report(cr.TASK_GROUPS, f"{ANNOTATION_TASK_GROUPS} cannot be read ({err}): no gang scheduling", node)
        return _NO_GANG
    style, timeout = SOFT, None
    for param in annotations.get(ANNOTATION_POLICY_PARAMETERS, "").split(" "):
        key, _, value = param.partition("=")
        if key == "placeholderTimeoutInSeconds" and value.lstrip("-").isdigit():
            seconds = int(value)
            timeout = seconds * NANOS if seconds > 0 else None
        elif key == "gangSchedulingStyle":
            style = HARD if value == HARD else SOFT
    return tuple(groups), style, timeout


def _restarted_by_controller(pod: Node) -> bool:
    """An owner reference with `controller: true` of a kind that recreates deleted pods (RESTARTING_CONTROLLERS)."""
    owners = _get(pod, "metadata", "ownerReferences")
    for owner in owners.items if owners is not None and owners.kind == "seq" else []:
        controller = _get(owner, "controller")
        if controller is not None and controller.value is True and _text(owner, "kind") in RESTARTING_CONTROLLERS:
            return True
    return False


def _daemonset_node(pod: Node) -> tuple[bool, str]:
    """A DaemonSet pod and the node its affinity pins it to (matchFields metadata.name In [node])."""
    owners = _get(pod, "metadata", "ownerReferences")
    is_daemonset = any(
        _text(o, "kind") == "DaemonSet" for o in (owners.items if owners is not None and owners.kind == "seq" else [])
    )
    if not is_daemonset:
        return False, ""
    terms = _get(
        pod, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"
    )
    for term in terms.items if terms is not None and terms.kind == "seq" else []:
        fields = _get(term, "matchFields")
        for match in fields.items if fields is not None and fields.kind == "seq" else []:
            values = _get(match, "values")
            if _text(match, "key") == "metadata.name" and values is not None and values.kind == "seq" and values.items:
                return True, values.items[0].text
    return True, ""


@dataclass(slots=True)
class _Classes:
    by_name: dict[str, PriorityClass]
    default: PriorityClass | None

    @classmethod
    def of(cls, classes: list[PriorityClass]) -> _Classes:
        defaults = sorted((c for c in classes if c.global_default), key=lambda c: (c.value, c.name))
        return cls({c.name: c for c in classes}, defaults[0] if defaults else None)


def _pod(reader: _Reader, obj: _Object, index: int, classes: _Classes, unique_ids: bool) -> _Pod | None:
    """A YuniKorn pod's scheduling facts; None (reported) when it cannot be used."""
    pod = obj.node
    labels = _string_map(reader, _get(pod, "metadata", "labels"), "metadata.labels")
    annotations = _string_map(reader, _get(pod, "metadata", "annotations"), "metadata.annotations")
    namespace = obj.namespace or DEFAULT_NAMESPACE
    uid = _text(pod, "metadata", "uid")
    try:
        resources = pod_resource(reader, pod)
    except _Skip:
        return None
    class_name = _text(pod, "spec", "priorityClassName")
    pclass = classes.by_name.get(class_name) if class_name else classes.default
    priority_node = _get(pod, "spec", "priority")
    if priority_node is not None and priority_node.tag == "int" and isinstance(priority_node.value, int):
        priority, source = int(priority_node.value), "priority"
    else:
        if priority_node is not None:
            reader.report(
                cr.INVALID_FIELD, f"spec.priority must be an integer, found {priority_node.in_words()}", priority_node
            )
        if class_name and pclass is None:
            reader.report(
                cr.UNKNOWN_PRIORITY_CLASS,
                f"pod {namespace}/{obj.name} names PriorityClass {class_name!r}, which is not in the dump: priority 0",
                _get(pod, "spec", "priorityClassName"),
            )
        priority = pclass.value if pclass is not None else 0
        source = "" if pclass is None else "priorityClass" if class_name else "globalDefault"
    policy = _text(pod, "spec", "preemptionPolicy") or (pclass.preemption_policy if pclass else "")
    allow_text = annotations.get(ANNOTATION_ALLOW_PREEMPTION)
    allow = allow_text == "true" if allow_text in ("true", "false") else (pclass.allow_preemption if pclass else True)
    placeholder = any(_go_bool(annotations.get(key, "")) for key in PLACEHOLDER_ANNOTATIONS)
    user, groups = _user(reader, pod, labels, annotations)
    daemonset, daemonset_node = _daemonset_node(pod)
    app_id = application_id(labels, annotations, namespace, uid, unique_ids)
    queue = queue_name(labels, annotations)
    node_name = _text(pod, "spec", "nodeName")
    gang = (
        _gang(reader, pod, annotations, namespace, app_id, queue) if ANNOTATION_TASK_GROUPS in annotations else _NO_GANG
    )
    constraints = pod_constraints(pod, bound=bool(node_name))
    reader.refused(constraints.issues, pod, f"pod {namespace}/{obj.name}")
    return _Pod(
        index=index,
        node=pod,
        name=obj.name,
        namespace=namespace,
        uid=uid,
        created=obj.created,
        app_id=app_id,
        queue=queue,
        user=user,
        groups=groups,
        node_name=node_name,
        resources=resources,
        priority=priority,
        priority_source=source,
        priority_class=class_name or (pclass.name if pclass else ""),
        preempt_other=policy != "Never",
        allow_preemption=allow,
        placeholder=placeholder,
        task_group=annotations.get(ANNOTATION_TASK_GROUP_NAME, ""),
        gang=gang,
        daemonset_node=daemonset_node,
        daemonset=daemonset,
        restarts=_restarted_by_controller(pod),
        spec=constraints.value,
    )


def _si_json(resource: Resource) -> str:
    """A resource marshalled like the shim marshals an si.Resource into an application tag."""
    return json.dumps({"resources": {k: {"value": resource[k]} for k in sorted(resource)}}, separators=(",", ":"))


def _quantity_map(text: str) -> Resource | None:
    """common.GetResource on a JSON map of Kubernetes quantities; None when anything is unreadable."""
    try:
        raw = loads_like_go(text)
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    out: Resource = {}
    for key, value in raw.items():
        amount = k8s_quantity(str(key), str(value))
        if amount is None:
            return None
        out["vcore" if key == "cpu" else str(key)] = amount
    return out


def namespace_tags(annotations: dict[str, str]) -> dict[str, str]:
    """The application tags a namespace's YuniKorn annotations add: parent queue, quota, guarantee, max apps."""
    tags: dict[str, str] = {}
    quota: Resource | None = None
    if annotations.get(ANNOTATION_NS_QUOTA):
        quota = _quantity_map(annotations[ANNOTATION_NS_QUOTA])
    elif annotations.get(ANNOTATION_NS_MAX_CPU) or annotations.get(ANNOTATION_NS_MAX_MEMORY):
        quota = {}
        for key, name in ((ANNOTATION_NS_MAX_CPU, "cpu"), (ANNOTATION_NS_MAX_MEMORY, "memory")):
            if annotations.get(key):
                amount = k8s_quantity(name, annotations[key])
                if amount is None:
                    quota = None
                    break
                quota["vcore" if name == "cpu" else name] = amount
    if quota and any(quota.values()):
        tags[TAG_QUOTA] = _si_json(quota)
    guaranteed = (
        _quantity_map(annotations[ANNOTATION_NS_GUARANTEED]) if annotations.get(ANNOTATION_NS_GUARANTEED) else None
    )
    if guaranteed and any(guaranteed.values()):
        tags[TAG_GUARANTEED] = _si_json(guaranteed)
    max_apps = annotations.get(ANNOTATION_NS_MAX_APPS, "")
    if max_apps.isdigit():
        tags[TAG_MAX_APPS] = max_apps
    if annotations.get(ANNOTATION_PARENT_QUEUE):
        tags[TAG_PARENT_QUEUE] = annotations[ANNOTATION_PARENT_QUEUE]
    return tags


def _config(reader: _Reader, objects: list[_Object]) -> dict[str, str]:
    """The flattened entries of the yunikorn-defaults and yunikorn-configs ConfigMaps (the latter wins)."""
    seen: dict[str, _Object] = {}
    for obj in objects:
        if obj.kind != "ConfigMap" or obj.name not in CONFIGMAPS:
            continue
        if obj.name in seen:
            reader.report(cr.MULTIPLE_CONFIGS, f"a second ConfigMap {obj.name} is ignored", obj.node)
            continue
        seen[obj.name] = obj
    merged: dict[str, str] = {}
    for name in CONFIGMAPS:
        if name in seen:
            entries, problems = configmap_entries(seen[name].node)
            reader.problems.extend(p.located(None, reader.file) for p in problems)
            merged.update(entries)
    return merged


def load_cluster(path_or_dash: str) -> tuple[Workload, str | None, list[Problem]]:
    """Read a `kubectl get nodes,pods,priorityclasses -A -o yaml` dump into a workload, queues.yaml and problems."""
    data = read_input(path_or_dash)
    display = shown_name(path_or_dash)
    return cluster_from_bytes(data, display)


def cluster_from_bytes(data: bytes, display: str) -> tuple[Workload, str | None, list[Problem]]:
    """load_cluster on bytes already read (display is the file name problems carry).

    JSON (`kubectl get -o json`) is read with the json module, many times faster than composing YAML with
    positions; only when that finds problems is the text parsed again as YAML, to locate them.
    """
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None
        return Workload(), None, [problem.located(None, display)]
    fast = _json_documents(text)
    if fast is not None:
        reader = _Reader(display)
        workload, queues_yaml = _load(reader, fast)
        if not reader.problems:
            return workload, queues_yaml, _names_linted(workload, [], display)
    reader = _Reader(display)
    parsed = parse_yaml(text)
    reader.problems.extend(p.located(None, display) for p in parsed.problems)
    workload, queues_yaml = _load(reader, parsed.documents, syntax_problems=bool(parsed.problems))
    return workload, queues_yaml, _names_linted(workload, reader.problems, display)


def _names_linted(workload: Workload, problems: list[Problem], display: str) -> list[Problem]:
    """The problems with the dump's misspelt resource names added (named by pod and node: no line), sorted."""
    found = [*problems, *(p.located(None, display) for p in lint_workload_resource_names(workload))]
    return sorted(found, key=Problem.sort_key)


_NO_SPAN = Span(1, 1, 1, 2)


class _JsonNumber(str):
    """A JSON number kept as its source text."""


def _json_documents(text: str) -> list[Node] | None:
    """The text as one JSON document of Nodes without positions, or None when it is not (plain) JSON."""
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")) or has_surrogate_escape(text):
        return None  # not JSON, or a surrogate escape the YAML reader refuses with its position
    try:
        raw = json.loads(text, parse_int=_JsonNumber, parse_float=_JsonNumber, parse_constant=_JsonNumber)
        return [_json_node(raw)]
    except (ValueError, RecursionError):
        return None


def _json_node(raw: object) -> Node:
    if isinstance(raw, dict):
        return Node("map", _NO_SPAN, tag="map", pairs=[(_json_node(str(k)), _json_node(v)) for k, v in raw.items()])
    if isinstance(raw, list):
        return Node("seq", _NO_SPAN, tag="seq", items=[_json_node(v) for v in raw])
    if isinstance(raw, _JsonNumber):
        tag, value = resolve_plain(str(raw))
        return Node("scalar", _NO_SPAN, tag=tag, text=str(raw), value=value)
    if isinstance(raw, str):
        return Node("scalar", _NO_SPAN, tag="str", text=raw, value=raw, style='"')
    if raw is None:
        return Node("scalar", _NO_SPAN, tag="null", text="null", value=None)
    return Node("scalar", _NO_SPAN, tag="bool", text="true" if raw else "false", value=bool(raw))


def _load(reader: _Reader, documents: list[Node], syntax_problems: bool = False) -> tuple[Workload, str | None]:
    """Documents -> workload and queues.yaml, problems recorded in the reader."""
    objects = _collect(reader, documents)
    if not objects and not syntax_problems and not reader.problems:
        reader.report(
            cr.NOT_KUBERNETES,
            "the file holds no Kubernetes objects",
            None,
            "dump the cluster with `kubectl get nodes,pods,priorityclasses -A -o yaml`.",
        )
    return _build(reader, _unique(reader, objects))


def _unique(reader: _Reader, objects: list[_Object]) -> list[_Object]:
    seen: set[tuple[str, str, str]] = set()
    out: list[_Object] = []
    for obj in objects:
        key = (obj.kind, obj.namespace or (DEFAULT_NAMESPACE if obj.kind == "Pod" else ""), obj.name)
        if key in seen and obj.kind != "ConfigMap":
            where = f"{key[1]}/" if key[1] else ""
            reader.report(cr.DUPLICATE_OBJECT, f"{obj.kind} {where}{obj.name} appears again and is ignored", obj.node)
            continue
        seen.add(key)
        out.append(obj)
    return out


def _build(reader: _Reader, objects: list[_Object]) -> tuple[Workload, str | None]:
    config = _config(reader, objects)
    key = f"{config.get('service.policyGroup') or 'queues'}.yaml"
    queues_yaml = config.get(key)
    if queues_yaml is not None and not queues_yaml.strip():
        queues_yaml = None
    unique_ids = _go_bool(config.get("admissionController.filtering.generateUniqueAppId", "")) is True

    stamps = [o.created for o in objects if o.created is not None]
    now = max(stamps) if stamps else 0

    dumped = [pc for o in objects if o.kind == "PriorityClass" for pc in [_priority_class(reader, o)] if pc]
    dumped_names = {pc.name for pc in dumped}
    classes = [*(pc for pc in BUILTIN_PRIORITY_CLASSES if pc.name not in dumped_names), *dumped]
    lookup = _Classes.of(classes)

    nodes: dict[str, NodeSpec] = {}
    occupied: dict[str, Resource] = {}
    for obj in objects:
        if obj.kind == "Node":
            spec = _node_spec(reader, obj)
            if spec is not None:
                nodes[spec.name] = spec
                occupied[spec.name] = {}

    namespace_tag_map: dict[str, dict[str, str]] = {}
    namespaces: list[Namespace] = []
    for obj in objects:
        if obj.kind == "Namespace":
            annotations = _string_map(reader, _get(obj.node, "metadata", "annotations"), "metadata.annotations")
            namespace_tag_map[obj.name] = namespace_tags(annotations)
            _string_map(reader, _get(obj.node, "metadata", "labels"), "metadata.labels")
            found = namespace_constraints(obj.node)
            reader.refused(found.issues, obj.node, f"namespace {obj.name}")
            namespaces.append(found.value)

    foreign: dict[str, list[PodSpec]] = {name: [] for name in nodes}
    """Running pods of other schedulers by node: other pods' affinity and spread count them."""
    pods: list[_Pod] = []
    pod_objects = [o for o in objects if o.kind == "Pod"]
    for index, obj in enumerate(pod_objects):
        if _text(obj.node, "status", "phase") in FINISHED_PHASES:
            continue
        node_name = _text(obj.node, "spec", "nodeName")
        namespace = obj.namespace or DEFAULT_NAMESPACE
        if node_name and node_name not in nodes:
            reader.report(
                cr.UNKNOWN_NODE,
                f"pod {namespace}/{obj.name} runs on node {node_name}, which is not in the dump: left out",
                _get(obj.node, "spec", "nodeName"),
            )
            continue
        if _text(obj.node, "spec", "schedulerName") != SCHEDULER_NAME:
            if node_name:
                with contextlib.suppress(_Skip):
                    add_into(occupied[node_name], pod_resource(reader, obj.node))
                    foreign[node_name].append(_foreign_pod(reader, obj, namespace))
            continue
        pod = _pod(reader, obj, index, lookup, unique_ids)
        if pod is not None:
            pods.append(pod)

    if pods and not nodes:
        reader.report(cr.NO_NODES, "the dump has pods but no nodes: nothing can be scheduled", pod_objects[0].node)

    node_specs = tuple(
        replace(n, occupied=occupied[n.name], foreign_pods=tuple(foreign[n.name])) for n in nodes.values()
    )
    applications = _applications(reader, pods, now, namespace_tag_map)
    gang = tuple(f"{p.namespace}/{p.name}" for p in pods if p.placeholder)
    workload = Workload(
        priority_classes=tuple(classes),
        nodes=node_specs,
        applications=applications,
        gang_pods=gang,
        namespaces=tuple(namespaces),
    )
    return workload, queues_yaml


def _foreign_pod(reader: _Reader, obj: _Object, namespace: str) -> PodSpec:
    """A running pod of another scheduler: its namespace, labels and constraints (its node is given)."""
    _string_map(reader, _get(obj.node, "metadata", "labels"), "metadata.labels")
    found = pod_constraints(obj.node, bound=True)
    reader.refused(found.issues, obj.node, f"pod {namespace}/{obj.name}")
    return found.value


def _queue_source(pod: Node) -> Node | None:
    """The label or annotation a pod's queue came from (YuniKorn's precedence), or None."""
    for where, key in (("labels", LABEL_QUEUE), ("annotations", ANNOTATION_QUEUE), ("labels", LABEL_QUEUE_LEGACY)):
        found = _get(pod, "metadata", where, key)
        if found is not None:
            return found
    return None


def _seconds(created: int | None, now: int) -> int:
    return ((created if created is not None else now) - now) * NANOS


def _applications(
    reader: _Reader, pods: list[_Pod], now: int, namespace_tag_map: dict[str, dict[str, str]]
) -> tuple[Application, ...]:
    by_app: dict[str, list[_Pod]] = {}
    for pod in pods:
        by_app.setdefault(pod.app_id, []).append(pod)
    built: list[tuple[tuple[int, int], Application]] = []
    for app_id, members in by_app.items():
        members.sort(key=lambda p: (p.created if p.created is not None else now, p.index))
        first = members[0]
        other = next((p for p in members[1:] if p.queue != first.queue), None)
        if other is not None:
            reader.report(
                cr.APP_MISMATCH,
                f"pod {other.namespace}/{other.name} asks for queue {other.queue or '(none)'} but its application "
                f"{app_id} takes the queue of its first pod {first.namespace}/{first.name}: {first.queue or '(none)'}",
                _queue_source(other.node) or _get(other.node, "metadata") or other.node,
            )
        tags = {TAG_NAMESPACE: first.namespace}
        tags.update(namespace_tag_map.get(first.namespace, {}))
        tags[TAG_CREATE_FORCE] = "true" if first.node_name else "false"
        originator = first if not first.placeholder else None
        asks: list[Ask] = []
        allocations: list[Allocation] = []
        for pod in members:
            name = f"{pod.namespace}/{pod.name}"
            when = _seconds(pod.created, now)
            if pod.node_name:
                allocations.append(
                    Allocation(
                        name=name,
                        application=app_id,
                        node=pod.node_name,
                        priority=pod.priority,
                        resources=pod.resources,
                        start_time=when,
                        seq=pod.index,
                        allow_preemption=pod.allow_preemption,
                        originator=pod is originator,
                        required_node=pod.daemonset,
                        priority_class=pod.priority_class,
                        restart_on_preemption=pod.restarts,
                        pod=pod.spec,
                    )
                )
            else:
                asks.append(
                    Ask(
                        name=name,
                        application=app_id,
                        priority=pod.priority,
                        resources=pod.resources,
                        submit_time=when,
                        seq=pod.index,
                        allow_preemption=pod.allow_preemption,
                        preempt_other=pod.preempt_other,
                        required_node=pod.daemonset_node,
                        originator=pod is originator,
                        priority_class=pod.priority_class,
                        priority_source=pod.priority_source,
                        restart_on_preemption=pod.restarts,
                        task_group=pod.task_group,
                        pod=pod.spec,
                    )
                )
        submit = _seconds(first.created, now)
        groups, style, timeout = first.gang
        app = Application(
            id=app_id,
            queue=first.queue,
            submit_time=submit,
            seq=0,
            user=first.user,
            groups=first.groups,
            tags=tags,
            asks=tuple(asks),
            allocations=tuple(allocations),
            task_groups=groups,
            gang_style=style,
            placeholder_timeout=timeout,
        )
        built.append(((submit, first.index), app))
    built.sort(key=lambda item: item[0])
    return tuple(_with_seq(app, seq) for seq, (_, app) in enumerate(built))


def _with_seq(app: Application, seq: int) -> Application:
    return replace(app, seq=seq)
