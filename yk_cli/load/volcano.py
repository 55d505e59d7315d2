"""load_volcano: kubectl dumps of a Volcano cluster and its scheduler configuration as core values, with positions.

    load_volcano(names, conf=None) -> VolcanoInputs

`names` are files, directories (their *.yaml/*.yml files) or `-` for standard input, each holding a `kind: List`,
several `---` documents or single objects: Queues, PodGroups, Pods, PriorityClasses, Nodes, Namespaces, Volcano Jobs
and the `volcano-scheduler-configmap` ConfigMap (key `volcano-scheduler.conf`). What node predicates read (node
labels, taints and unschedulable; pod nodeSelector, tolerations, affinity, topology spread constraints, host ports,
labels and namespace; Namespace labels) goes through load/pod_constraints. Objects of other kinds are counted and left
out. A file whose first document is a plain volcano-scheduler.conf (actions/tiers/configurations, no kind) counts as
a conf found in the input. The scheduler configuration is `conf` (a plain volcano-scheduler.conf, or a file holding
that ConfigMap), else the first conf of the input, else Volcano's built-in default; `VolcanoInputs.conf_source` and
`conf_origin` say which.

Raises InputError only when an input cannot be read at all; anything wrong inside becomes a located Problem.
Every loaded object keeps its YAML node (`VolcanoInputs.objects`) so that checks can point at its fields.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field, replace

from yk_cli.core.diagnostics import Problem
from yk_cli.core.lint.loader_rules import YAML_SYNTAX
from yk_cli.core.predicates.model import NO_POD_SPEC, Namespace, PodSpec
from yk_cli.core.resources import k8s_quantity
from yk_cli.core.volcano import rules as vr
from yk_cli.core.volcano.conf import ConfLoad, default_conf, load_conf
from yk_cli.core.volcano.model import (
    DEFAULT_QUEUE,
    POD_GROUP_PENDING,
    QUEUE_OPEN,
    Cluster,
    LoadedObject,
    Node,
    Pod,
    PodGroup,
    PriorityClass,
    Quantities,
    Queue,
)
from yk_cli.core.yamldoc import Node as YamlNode
from yk_cli.load.configmap import embedded_position
from yk_cli.load.objects import ObjectReader, SkipObject, go_bool, rfc3339_seconds
from yk_cli.load.pod_constraints import Issue, located, namespace_constraints, node_constraints, pod_constraints
from yk_cli.load.source import (
    MAX_WALK_ENTRIES,
    InputError,
    decode_text,
    parse_yaml,
    read_input,
    shown_name,
    yaml_files_below,
)

CONF_CONFIGMAP = "volcano-scheduler-configmap"
CONF_KEY = "volcano-scheduler.conf"
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
TASK_SPEC_ANNOTATION = "volcano.sh/task-spec"
TASK_PRIORITY_ANNOTATION = "volcano.sh/task-priority"
PREEMPTABLE_KEY = "volcano.sh/preemptable"
QUEUE_NAME_ANNOTATION = "scheduling.volcano.sh/queue-name"
HIERARCHY_ANNOTATION = "volcano.sh/hierarchy"
HIERARCHY_WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights"
VOLCANO_GROUPS = ("scheduling.volcano.sh/", "scheduling.incubator.k8s.io/")
BATCH_GROUP = "batch.volcano.sh/"


@dataclass(slots=True)
class VolcanoInputs:
    """Everything `yk volcano` reads: the cluster, the scheduler conf, the problems and the texts they point into."""

    cluster: Cluster
    conf: ConfLoad
    conf_source: str
    """Where the conf came from, as shown to the user."""
    conf_root: YamlNode | None = None
    conf_file: str = ""
    objects: list[LoadedObject] = field(default_factory=list)
    ignored_kinds: dict[str, int] = field(default_factory=dict)
    """Objects of kinds yk volcano does not read (Deployments, Services, ...): kind -> count."""
    problems: list[Problem] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    conf_origin: str = "default"
    """Which conf Volcano runs with: "option" (--conf), "input" (a ConfigMap or plain conf among the inputs) or
    "default" (none given: the built-in default)."""
    unreadable: list[str] = field(default_factory=list)
    """With keep_going: the inputs that could not be read, each as `name: why` (they are not in `files`)."""


def _get(node: YamlNode | None, *keys: str) -> YamlNode | None:
    return node.lookup(*keys) if node is not None else None


def _text(node: YamlNode | None, *keys: str) -> str:
    return node.lookup_text(*keys) if node is not None else ""


def quantities(reader: ObjectReader, node: YamlNode | None, what: str) -> Quantities | None:
    """A ResourceList as milli-values; None when absent; SkipObject when a quantity does not parse."""
    if node is None:
        return None
    if node.kind != "map":
        raise reader.fail(vr.INVALID_FIELD, f"{what} must be a mapping of quantities, found {node.describe()}", node)
    out: Quantities = {}
    for key, value in node.pairs:
        if key.kind != "scalar" or value.tag == "null":
            continue
        milli = k8s_quantity("cpu", value.text) if value.kind == "scalar" else None  # "cpu" = MilliValue for any name
        if milli is None:
            shown = value.text if value.kind == "scalar" else value.describe()
            raise reader.fail(
                vr.BAD_QUANTITY,
                f"{what}: {key.text} {shown} is not a Kubernetes quantity",
                value,
                "write a number with an optional suffix, e.g. 500m, 2, 1.5Gi.",
            )
        out[key.text] = milli
    return out


def _int(reader: ObjectReader, node: YamlNode | None, what: str, default: int) -> int:
    if node is None:
        return default
    if node.kind == "scalar" and node.tag == "int" and isinstance(node.value, int):
        return node.value
    raise reader.fail(vr.INVALID_FIELD, f"{what} must be an integer, found {node.describe()}", node)


def _timestamp(reader: ObjectReader, obj: YamlNode) -> float | None:
    node = _get(obj, "metadata", "creationTimestamp")
    if node is None or node.kind != "scalar":
        return None
    seconds = rfc3339_seconds(node.text)
    if seconds is None:
        reader.report(vr.BAD_TIMESTAMP, f"creationTimestamp {node.text.strip()!r} is not an RFC 3339 time", node)
    return seconds


def _queue(reader: ObjectReader, obj: YamlNode, name: str) -> Queue:
    spec = _get(obj, "spec")
    annotations = reader.string_map(_get(obj, "metadata", "annotations"), "metadata.annotations")
    reclaimable_node = _get(spec, "reclaimable")
    reclaimable = True
    if reclaimable_node is not None:
        if reclaimable_node.kind != "scalar" or reclaimable_node.tag != "bool":
            raise reader.fail(
                vr.INVALID_FIELD,
                f"Queue spec.reclaimable must be a boolean, found {reclaimable_node.describe()}",
                reclaimable_node,
            )
        reclaimable = reclaimable_node.value is True
    return Queue(
        name=name,
        created=_timestamp(reader, obj),
        weight=_int(reader, _get(spec, "weight"), "Queue spec.weight", 1),
        priority=_int(reader, _get(spec, "priority"), "Queue spec.priority", 0),
        capability=quantities(reader, _get(spec, "capability"), "spec.capability"),
        deserved=quantities(reader, _get(spec, "deserved"), "spec.deserved"),
        guarantee=quantities(reader, _get(spec, "guarantee", "resource"), "spec.guarantee.resource"),
        reclaimable=reclaimable,
        parent=_text(spec, "parent") or None,
        state=_text(obj, "status", "state") or QUEUE_OPEN,
        hierarchy=annotations.get(HIERARCHY_ANNOTATION),
        hierarchy_weights=annotations.get(HIERARCHY_WEIGHTS_ANNOTATION),
        priority_class_name=_text(spec, "priorityClassName"),
    )


def _pod_group(reader: ObjectReader, obj: YamlNode, namespace: str, name: str) -> PodGroup:
    spec = _get(obj, "spec")
    min_task: dict[str, int] = {}
    min_task_node = _get(spec, "minTaskMember")
    if min_task_node is not None:
        if min_task_node.kind != "map":
            raise reader.fail(
                vr.INVALID_FIELD,
                f"PodGroup spec.minTaskMember must be a mapping, found {min_task_node.describe()}",
                min_task_node,
            )
        for key, value in min_task_node.pairs:
            min_task[key.text] = _int(reader, value, f"minTaskMember {key.text}", 0)
    return PodGroup(
        namespace=namespace,
        name=name,
        created=_timestamp(reader, obj),
        queue=_text(spec, "queue") or DEFAULT_QUEUE,
        priority_class_name=_text(spec, "priorityClassName"),
        min_member=_int(reader, _get(spec, "minMember"), "PodGroup spec.minMember", 0),
        min_task_member=min_task,
        min_resources=quantities(reader, _get(spec, "minResources"), "spec.minResources"),
        phase=_text(obj, "status", "phase") or POD_GROUP_PENDING,
    )


def _add_max(target: Quantities, other: Quantities) -> None:
    for key, value in other.items():
        if value > target.get(key, 0):
            target[key] = value


def _add(target: Quantities, other: Quantities) -> None:
    for key, value in other.items():
        target[key] = target.get(key, 0) + value


def pod_request(reader: ObjectReader, spec: YamlNode | None) -> tuple[Quantities, Quantities]:
    """(request, init request) as Kubernetes' PodRequests computes them: containers and restartable (sidecar) init
    containers summed, the largest regular init container (with the sidecars started before it) as a floor, pod-level
    cpu/memory requests when set, overhead added; `pods: 1` (1000 milli) always."""
    total: Quantities = {}
    for i, container in enumerate(reader.items(_get(spec, "containers"), "spec.containers")):
        _add(total, quantities(reader, _get(container, "resources", "requests"), f"container {i} requests") or {})
    init_floor: Quantities = {}
    sidecars: Quantities = {}
    for i, container in enumerate(reader.items(_get(spec, "initContainers"), "spec.initContainers")):
        request = quantities(reader, _get(container, "resources", "requests"), f"init container {i} requests") or {}
        if _text(container, "restartPolicy") == "Always":
            _add(sidecars, request)
            _add_max(init_floor, sidecars)
        else:
            needed = dict(request)
            _add(needed, sidecars)
            _add_max(init_floor, needed)
    _add(total, sidecars)
    _add_max(total, init_floor)
    pod_level = quantities(reader, _get(spec, "resources", "requests"), "spec.resources.requests") or {}
    for name in ("cpu", "memory"):
        if name in pod_level:
            total[name] = pod_level[name]
    overhead = quantities(reader, _get(spec, "overhead"), "spec.overhead") or {}
    _add(total, overhead)
    total["pods"] = 1000
    init = dict(init_floor)
    _add(init, overhead)
    init["pods"] = 1000
    return total, init


def _refused(reader: ObjectReader, issues: tuple[Issue, ...], obj: YamlNode, subject: str) -> None:
    """What the API server would refuse in an object's node-predicate fields (pod_constraints' issues): a value of
    the wrong type and a refused value alike are volcano-invalid-field, placed at the field. The object stays in the
    session, read as kube-scheduler reads it (a selector term that does not parse matches no node)."""
    if issues:
        reader.problems.extend(
            located(issues, obj, reader.file, wrong_type=vr.INVALID_FIELD, refused=vr.INVALID_FIELD, subject=subject)
        )


def plain_spec(spec: PodSpec) -> PodSpec:
    """NO_POD_SPEC for a pod without labels or anything the predicates read (Pod.spec's default, read in the pod's
    own namespace), else the spec itself."""
    return NO_POD_SPEC if spec == PodSpec(namespace=spec.namespace) else spec


def pod_spec(reader: ObjectReader, obj: YamlNode, namespace: str, name: str) -> PodSpec:
    """The pod's namespace, labels and node constraints (load/pod_constraints); a pod with spec.nodeName is bound
    there already, so its nodeName is no constraint."""
    read = pod_constraints(obj, bound=bool(_text(obj, "spec", "nodeName")))
    _refused(reader, read.issues, obj, f"Pod {namespace}/{name}")
    return plain_spec(read.value)


def _pod(reader: ObjectReader, obj: YamlNode, namespace: str, name: str) -> Pod:
    meta = _get(obj, "metadata")
    spec = _get(obj, "spec")
    annotations = reader.string_map(_get(meta, "annotations"), "metadata.annotations")
    labels = reader.string_map(_get(meta, "labels"), "metadata.labels")
    request, init = pod_request(reader, spec)
    task_priority: int | None = None
    with contextlib.suppress(ValueError):
        if TASK_PRIORITY_ANNOTATION in annotations:
            task_priority = int(annotations[TASK_PRIORITY_ANNOTATION].strip())
    preemptable = True
    for source in (annotations, labels):  # the annotation wins over the label
        if PREEMPTABLE_KEY in source:
            preemptable = go_bool(source[PREEMPTABLE_KEY].strip()) is True
            break
    priority_node = _get(spec, "priority")
    return Pod(
        namespace=namespace,
        name=name,
        uid=_text(meta, "uid") or f"{namespace}-{name}",
        created=_timestamp(reader, obj),
        group=annotations.get(GROUP_ANNOTATION, ""),
        task_spec=annotations.get(TASK_SPEC_ANNOTATION) or labels.get(TASK_SPEC_ANNOTATION) or "",
        request=request,
        init_request=init,
        priority=_int(reader, priority_node, "Pod spec.priority", 0) if priority_node is not None else None,
        task_priority_annotation=task_priority,
        preemptable=preemptable,
        priority_class_name=_text(spec, "priorityClassName"),
        preemption_policy=_text(spec, "preemptionPolicy"),
        node_name=_text(spec, "nodeName"),
        phase=_text(obj, "status", "phase") or "Pending",
        scheduler_name=_text(spec, "schedulerName") or "default-scheduler",
        queue_annotation=annotations.get(QUEUE_NAME_ANNOTATION, ""),
        deleting=_get(meta, "deletionTimestamp") is not None,
        spec=pod_spec(reader, obj, namespace, name),
    )


def _priority_class(reader: ObjectReader, obj: YamlNode, name: str) -> PriorityClass:
    value = _int(reader, _get(obj, "value"), f"PriorityClass {name} value", 0) if _get(obj, "value") else None
    if value is None:
        raise reader.fail(vr.INVALID_FIELD, f"PriorityClass {name} needs an integer value", obj)
    global_default = _get(obj, "globalDefault")
    return PriorityClass(
        name=name,
        value=value,
        global_default=global_default is not None and global_default.kind == "scalar" and global_default.value is True,
    )


def _node(reader: ObjectReader, obj: YamlNode, name: str) -> Node:
    allocatable = quantities(reader, _get(obj, "status", "allocatable"), "status.allocatable") or {}
    ready = False
    for condition in reader.items(_get(obj, "status", "conditions"), "status.conditions"):
        if _text(condition, "type") == "Ready":
            ready = _text(condition, "status") == "True"
    unschedulable = _get(obj, "spec", "unschedulable")
    facts = node_constraints(obj)
    _refused(reader, facts.issues, obj, f"Node {name}")
    return Node(
        name=name,
        allocatable=allocatable,
        ready=ready,
        unschedulable=unschedulable is not None and unschedulable.kind == "scalar" and unschedulable.value is True,
        labels=reader.string_map(_get(obj, "metadata", "labels"), "metadata.labels"),
        taints=facts.value.taints,
    )


def _namespace(reader: ObjectReader, obj: YamlNode, name: str) -> Namespace:
    read = namespace_constraints(obj)
    _refused(reader, read.issues, obj, f"Namespace {name}")
    return read.value


def _job_pod_group(reader: ObjectReader, obj: YamlNode, namespace: str, name: str) -> PodGroup:
    """The PodGroup Volcano's job controller makes for a vcjob: its queue, class and minAvailable; minResources the
    requests of the first minAvailable pods of its tasks in order (calcPGMinResources, tasks taken in spec order)."""
    spec = _get(obj, "spec")
    tasks = reader.items(_get(spec, "tasks"), "spec.tasks")
    replicas_total = 0
    min_resources: Quantities = {}
    task_requests: list[tuple[int, Quantities]] = []
    min_task: dict[str, int] = {}
    for i, task in enumerate(tasks):
        replicas = _int(reader, _get(task, "replicas"), f"spec.tasks[{i}].replicas", 0)
        replicas_total += replicas
        request, _ = pod_request(reader, _get(task, "template", "spec"))
        task_requests.append((replicas, request))
        if _get(task, "minAvailable") is not None:
            min_task[_text(task, "name")] = _int(reader, _get(task, "minAvailable"), f"spec.tasks[{i}].minAvailable", 0)
    min_available = _int(reader, _get(spec, "minAvailable"), "Job spec.minAvailable", replicas_total)
    left = min_available
    for replicas, request in task_requests:
        for _ in range(min(replicas, left)):
            _add(min_resources, request)
        left -= min(replicas, left)
    return PodGroup(
        namespace=namespace,
        name=name,
        created=_timestamp(reader, obj),
        queue=_text(spec, "queue") or DEFAULT_QUEUE,
        priority_class_name=_text(spec, "priorityClassName"),
        min_member=min_available,
        min_task_member=min_task,
        min_resources=min_resources or None,
        phase=POD_GROUP_PENDING,
        derived_from=f"batch.volcano.sh Job {namespace}/{name}",
    )


def _is_volcano(api_version: str, group: str) -> bool:
    return api_version.startswith(group)


@dataclass(slots=True)
class _Collected:
    queues: list[Queue] = field(default_factory=list)
    pod_groups: list[PodGroup] = field(default_factory=list)
    jobs: list[PodGroup] = field(default_factory=list)
    pods: list[Pod] = field(default_factory=list)
    classes: list[PriorityClass] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    namespaces: list[Namespace] = field(default_factory=list)
    confs: list[tuple[YamlNode, str, str, bool]] = field(default_factory=list)
    """(the ConfigMap's volcano-scheduler.conf value node or a plain conf's root, its file, the file's text, whether
    it is a plain conf)."""
    seen: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """(API group/kind, namespace, name) -> where the first object with it is, as `file:line:column`."""


def _collect(reader: ObjectReader, document: YamlNode, text: str, out: VolcanoInputs, found: _Collected) -> None:
    if document.kind == "scalar" and document.tag == "null":
        return
    kind = _text(document, "kind")
    if document.kind != "map" or not kind:
        reader.report(
            vr.NOT_KUBERNETES,
            f"expected a Kubernetes object (a mapping with kind and metadata), found {document.describe()}",
            document,
            "dump the cluster with `kubectl get queues,podgroups,pods,priorityclasses,nodes -A -o yaml`.",
        )
        return
    if kind == "List" or (kind.endswith("List") and _get(document, "items") is not None):
        for item in reader.items(_get(document, "items"), f"{kind} items"):
            _collect(reader, item, text, out, found)
        return
    api = _text(document, "apiVersion")
    name = _text(document, "metadata", "name")
    if not name:
        reader.report(vr.INVALID_FIELD, f"{kind} without metadata.name is left out", document)
        return
    namespaced = kind in ("PodGroup", "Pod", "Job", "ConfigMap")
    namespace = (_text(document, "metadata", "namespace") or "default") if namespaced else ""
    identity = (f"{api.split('/')[0]}/{kind}", namespace, name)
    first = found.seen.get(identity)
    if first is not None:
        shown = f"{namespace}/{name}" if namespace else name
        message = f"{kind} {shown} appears again; the first one, at {first}, is used"
        reader.report(vr.DUPLICATE_OBJECT, message, document)
        return
    found.seen[identity] = f"{reader.file}:{document.span.line}:{document.span.column}"
    try:
        if kind == "Queue" and _is_volcano(api, VOLCANO_GROUPS[0]):
            found.queues.append(_queue(reader, document, name))
        elif kind == "PodGroup" and any(_is_volcano(api, g) for g in VOLCANO_GROUPS):
            found.pod_groups.append(_pod_group(reader, document, namespace, name))
        elif kind == "Job" and _is_volcano(api, BATCH_GROUP):
            found.jobs.append(_job_pod_group(reader, document, namespace, name))
        elif kind == "Pod" and api == "v1":
            found.pods.append(_pod(reader, document, namespace, name))
        elif kind == "PriorityClass" and api.startswith("scheduling.k8s.io/"):
            found.classes.append(_priority_class(reader, document, name))
        elif kind == "Node" and api == "v1":
            found.nodes.append(_node(reader, document, name))
        elif kind == "Namespace" and api == "v1":
            found.namespaces.append(_namespace(reader, document, name))
        elif kind == "ConfigMap" and name == CONF_CONFIGMAP:
            value = _get(document, "data", CONF_KEY)
            if value is None:
                out.ignored_kinds["ConfigMap"] = out.ignored_kinds.get("ConfigMap", 0) + 1
                return
            found.confs.append((value, reader.file, text, False))
        else:
            out.ignored_kinds[kind] = out.ignored_kinds.get(kind, 0) + 1
            return
    except SkipObject:
        return
    out.objects.append(LoadedObject(kind, api, namespace, name, document, reader.file))


def _read(name: str, out: VolcanoInputs, stdin: bytes | None = None) -> tuple[list[YamlNode], str, str]:
    """(documents, display name, text) of one input ('-': `stdin` when given); InputError when it cannot be read."""
    data = read_input(name, stdin)
    shown = shown_name(name)
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None
        out.problems.append(problem.located(problem.span, shown))
        return [], shown, ""
    parsed = parse_yaml(text)
    out.problems.extend(p.located(p.span, shown) for p in parsed.problems)
    return parsed.documents, shown, text


def _derive_pod_groups(found: _Collected) -> list[PodGroup]:
    """PodGroups as read, plus those Volcano's controllers would make: for a vcjob without one, and for a volcano pod
    without a group (pg controller: `podgroup-<pod uid>`, minMember 1, the pod's queue annotation and class)."""
    groups = list(found.pod_groups)
    names = {(g.namespace, g.name) for g in groups}
    for job in found.jobs:
        referenced = {p.group for p in found.pods if p.namespace == job.namespace and p.group}
        owned = sorted(g for g in referenced if g == job.name or g.startswith(job.name + "-"))
        target = owned[0] if owned else job.name
        if (job.namespace, target) not in names:
            groups.append(replace(job, name=target))
            names.add((job.namespace, target))
    return groups


def _bare_pods(pods: list[Pod], groups: list[PodGroup], scheduler_name: str) -> tuple[list[Pod], list[PodGroup]]:
    """Give every volcano pod without a group annotation the PodGroup the pg controller would create for it."""
    out_pods: list[Pod] = []
    extra: list[PodGroup] = []
    for pod in pods:
        if pod.group or pod.scheduler_name != scheduler_name:
            out_pods.append(pod)
            continue
        group = f"podgroup-{pod.uid}"
        extra.append(
            PodGroup(
                namespace=pod.namespace,
                name=group,
                created=pod.created,
                queue=pod.queue_annotation or DEFAULT_QUEUE,
                priority_class_name=pod.priority_class_name,
                min_member=1,
                min_resources=dict(pod.request),
                phase=POD_GROUP_PENDING,
                derived_from=f"Pod {pod.namespace}/{pod.name} (Volcano's podgroup controller)",
            )
        )
        out_pods.append(replace(pod, group=group))
    existing = {(g.namespace, g.name) for g in groups}
    return out_pods, groups + [g for g in extra if (g.namespace, g.name) not in existing]


def _conf_from(value: YamlNode, file: str, text: str, origin: str, out: VolcanoInputs) -> None:
    if value.kind != "scalar" or value.tag == "null":
        found = value.describe()
        problem = vr.CONF_TYPE.problem(f"{CONF_KEY} must be a string holding the configuration, found {found}")
        out.problems.append(problem.located(value.span, file))
        out.conf = ConfLoad(default_conf(), False, (), "not a string")
        return
    parsed = parse_yaml(value.text, embedded_position(value, text))
    out.problems.extend(p.located(p.span, file) for p in parsed.problems)
    root = parsed.documents[0] if parsed.documents else None
    out.conf_root = root
    out.conf_file = file
    out.conf_source = origin
    if parsed.problems:
        out.conf = ConfLoad(default_conf(), False, (), "yaml syntax")
        return
    loaded = load_conf(root, origin)
    out.conf = loaded
    out.problems.extend(p.located(p.span, file) for p in loaded.problems)


def _conf_file(name: str, out: VolcanoInputs, stdin: bytes | None = None) -> None:
    """--conf: a plain volcano-scheduler.conf, or a file holding the volcano-scheduler-configmap ConfigMap."""
    documents, shown, text = _read(name, out, stdin)
    out.texts[shown] = text
    out.files.append(shown)
    if any(p.file == shown and p.rule == YAML_SYNTAX.id for p in out.problems):
        out.conf = ConfLoad(default_conf(), False, (), "yaml syntax")
        out.conf_source = shown
        return
    root = documents[0] if documents else None
    data = _get(root, "data", CONF_KEY) if _text(root, "kind") == "ConfigMap" else None
    if data is not None:
        _conf_from(data, shown, text, f'{shown} (ConfigMap {_text(root, "metadata", "name")}, data["{CONF_KEY}"])', out)
        return
    out.conf_root = root
    out.conf_file = shown
    out.conf_source = shown
    loaded = load_conf(root, shown)
    out.conf = loaded
    out.problems.extend(p.located(p.span, shown) for p in loaded.problems)


def is_plain_conf(document: YamlNode) -> bool:
    """Whether a file's first document is a plain volcano-scheduler.conf: a mapping with actions, tiers or
    configurations and neither kind nor apiVersion."""
    if document.kind != "map" or document.get("kind") is not None or document.get("apiVersion") is not None:
        return False
    return any(document.get(key) is not None for key in ("actions", "tiers", "configurations"))


def dump_files(name: str, limit: int = MAX_WALK_ENTRIES) -> list[str]:
    """The files one input names: a file (or '-') itself; a directory's *.yaml and *.yml files below it
    (yaml_files_below: bounded, hidden folders pruned, links to folders not followed)."""
    if name == "-" or not os.path.isdir(name):
        if name != "-" and not os.path.exists(name):
            raise InputError(f"{name}: no such file")  # as read_input says it; a pipe (<(kubectl ...)) is read once
        return [name]
    return yaml_files_below(name, limit)


def expand_dumps(names: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """(every file the inputs name, the inputs that cannot be walked as (name, `name: why`)): dump_files of each."""
    files: list[str] = []
    unreadable: list[tuple[str, str]] = []
    for name in names:
        try:
            files.extend(dump_files(name))
        except InputError as err:
            unreadable.append((name, str(err)))
    return files, unreadable


def _inputs(names: list[str], out: VolcanoInputs, keep_going: bool) -> list[str]:
    """Every file the inputs name (dump_files); with keep_going, an input that cannot be walked is named in
    `out.unreadable` and left out, else InputError."""
    files: list[str] = []
    for name in names:
        try:
            files.extend(dump_files(name))
        except InputError as err:
            if not keep_going:
                raise
            out.unreadable.append(str(err))
    return files


def _plain_conf(root: YamlNode, file: str, out: VolcanoInputs) -> None:
    """A plain volcano-scheduler.conf given among the inputs."""
    out.conf_root = root
    out.conf_file = file
    out.conf_source = file
    loaded = load_conf(root, file)
    out.conf = loaded
    out.problems.extend(p.located(p.span, file) for p in loaded.problems)


def load_volcano(
    names: list[str],
    conf: str | None = None,
    scheduler_name: str = "volcano",
    keep_going: bool = False,
    stdin: bytes | None = None,
) -> VolcanoInputs:
    """Read the dumps and the scheduler configuration (see the module docstring). With keep_going, an input that
    cannot be read is named in `unreadable` and the others are still read (else InputError). `stdin`: what '-'
    reads, when standard input was read already."""
    out = VolcanoInputs(
        cluster=Cluster(),
        conf=ConfLoad(default_conf(), True),
        conf_source="Volcano's built-in default configuration (no --conf and no volcano-scheduler-configmap)",
    )
    found = _Collected()
    for name in _inputs(names, out, keep_going):
        try:
            documents, shown, text = _read(name, out, stdin)
        except InputError as err:
            if not keep_going:
                raise
            out.unreadable.append(str(err))
            continue
        out.texts[shown] = text
        out.files.append(shown)
        reader = ObjectReader(shown, out.problems, vr.INVALID_FIELD)
        for index, document in enumerate(documents):
            if index == 0 and is_plain_conf(document):
                found.confs.append((document, shown, text, True))
                continue
            _collect(reader, document, text, out, found)
    if conf is not None:
        out.conf_origin = "option"
        _conf_file(conf, out, stdin)
    elif found.confs:
        out.conf_origin = "input"
        value, file, text, plain = found.confs[0]
        if plain:
            _plain_conf(value, file, out)
        else:
            _conf_from(value, file, text, f'{file} (ConfigMap {CONF_CONFIGMAP}, data["{CONF_KEY}"])', out)
        for extra, extra_file, _, _ in found.confs[1:]:
            problem = vr.MULTIPLE_CONFS.problem(
                f"another {CONF_CONFIGMAP}: the first one ({file}) is used", hint="pass the one in use with --conf."
            )
            out.problems.append(problem.located(extra.span, extra_file))
    groups = _derive_pod_groups(found)
    pods, groups = _bare_pods(found.pods, groups, scheduler_name)
    out.cluster = Cluster(
        queues=tuple(found.queues),
        pod_groups=tuple(groups),
        pods=tuple(pods),
        priority_classes=tuple(found.classes),
        nodes=tuple(found.nodes),
        namespaces=tuple(found.namespaces),
    )
    out.problems.sort(key=Problem.sort_key)
    return out


__all__ = ["InputError", "LoadedObject", "VolcanoInputs", "load_volcano"]
