"""A fast path for large `kubectl get ... -o json` dumps: plain JSON to the same core values load_volcano builds.

    load_volcano_fast(names, conf=None) -> VolcanoInputs | None

yk's YAML composer keeps a position for every node, which a 50,000-pod dump cannot afford (minutes, and more
nodes than the YAML-bomb guard allows). JSON needs no positions when nothing is wrong with it: this reads every
input with json.loads and builds Queues, PodGroups, Pods, PriorityClasses, Nodes and Namespaces exactly as
load_volcano does (the node predicates' fields through load/pod_constraints, as there). It gives up (returns None)
at the first thing it does not handle identically (not JSON, not a regular file, a Volcano Job, a scheduler
ConfigMap whose conf has any loader problem, a value of an unexpected type, a bad quantity or timestamp, a
duplicate object, a pod without `pods` in a form it knows, a node-predicate field the API server would refuse, an
error of the lints of `yk volcano validate`, a `# yk: disable=` comment): the caller then runs load_volcano, which
reports every problem with its position. The lints' warnings (which `yk volcano simulate` only counts) are kept in
`problems`, without a position. tests/load/test_volcano_simulate_fast.py checks both give the same cluster.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import replace
from typing import Any

from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.predicates.decode import decode_labels
from yk_cli.core.predicates.model import NO_POD_SPEC, Namespace, NodeFacts, PodSpec
from yk_cli.core.resources import k8s_quantity
from yk_cli.core.volcano.conf import load_conf
from yk_cli.core.volcano.lint_conf import lint_conf
from yk_cli.core.volcano.lint_objects import lint_objects
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
from yk_cli.load.objects import GO_TRUE, rfc3339_seconds
from yk_cli.load.pod_constraints import POD_SPEC_KEYS, Read, namespace_constraints, node_constraints, pod_constraints
from yk_cli.load.source import parse_yaml, read_input
from yk_cli.load.volcano import (
    CONF_CONFIGMAP,
    CONF_KEY,
    GROUP_ANNOTATION,
    HIERARCHY_ANNOTATION,
    HIERARCHY_WEIGHTS_ANNOTATION,
    PREEMPTABLE_KEY,
    QUEUE_NAME_ANNOTATION,
    TASK_PRIORITY_ANNOTATION,
    TASK_SPEC_ANNOTATION,
    VOLCANO_GROUPS,
    VolcanoInputs,
    load_volcano,
    plain_spec,
)

SUPPRESSION = re.compile(r"#\s*yk:\s*disable=")
"""A `# yk: disable=` comment (load/suppress.py reads them, by line)."""


class _GiveUp(Exception):
    """Something the fast path does not handle exactly like load_volcano."""


def _map(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _GiveUp
    return value


def _get(obj: Any, *keys: str) -> Any:
    for key in keys:
        if obj is None:
            return None
        if type(obj) is not dict:
            raise _GiveUp
        obj = obj.get(key)
    return obj


def _text(obj: Any, *keys: str) -> str:
    value = _get(obj, *keys)
    if value is None:
        return ""
    if type(value) is str:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _GiveUp
    return json.dumps(value)


@functools.lru_cache(maxsize=4096)
def _milli(text: str) -> int | None:
    return k8s_quantity("cpu", text)


def _strings(value: Any) -> dict[str, str]:
    out = {}
    for key, item in _map(value).items():
        if item is None:
            continue
        if not isinstance(item, str):
            raise _GiveUp
        out[key] = item
    return out


def _int(value: Any, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise _GiveUp
    return value


def _quantities(value: Any) -> Quantities | None:
    if value is None:
        return None
    out: Quantities = {}
    for key, item in _map(value).items():
        if item is None:
            continue
        if isinstance(item, bool) or not isinstance(item, str | int):
            raise _GiveUp
        milli = _milli(item if type(item) is str else str(item))
        if milli is None:
            raise _GiveUp
        out[key] = milli
    return out


def _timestamp(obj: Any) -> float | None:
    text = _text(obj, "metadata", "creationTimestamp").strip()
    if not text:
        return None
    seconds = rfc3339_seconds(text)
    if seconds is None:
        raise _GiveUp
    return seconds


def _add(target: Quantities, other: Quantities) -> None:
    for key, value in other.items():
        target[key] = target.get(key, 0) + value


def _add_max(target: Quantities, other: Quantities) -> None:
    for key, value in other.items():
        if value > target.get(key, 0):
            target[key] = value


def _containers(value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _GiveUp
    return value


def _pod_request(spec: Any) -> tuple[Quantities, Quantities]:
    """load.volcano.pod_request on plain data."""
    if spec is None:
        spec = {}
    elif type(spec) is not dict:
        raise _GiveUp
    total: Quantities = {}
    for container in _containers(spec.get("containers")):
        requests = _quantities(_get(container, "resources", "requests"))
        if requests:
            for key, value in requests.items():
                total[key] = total.get(key, 0) + value
    init_floor: Quantities = {}
    if "initContainers" in spec:
        sidecars: Quantities = {}
        for container in _containers(spec.get("initContainers")):
            request = _quantities(_get(container, "resources", "requests")) or {}
            if _text(container, "restartPolicy") == "Always":
                _add(sidecars, request)
                _add_max(init_floor, sidecars)
            else:
                needed = dict(request)
                _add(needed, sidecars)
                _add_max(init_floor, needed)
        _add(total, sidecars)
        _add_max(total, init_floor)
    if "resources" in spec:
        pod_level = _quantities(_get(spec, "resources", "requests")) or {}
        for name in ("cpu", "memory"):
            if name in pod_level:
                total[name] = pod_level[name]
    init = dict(init_floor)
    if "overhead" in spec:
        overhead = _quantities(spec.get("overhead")) or {}
        _add(total, overhead)
        _add(init, overhead)
    total["pods"] = 1000
    init["pods"] = 1000
    return total, init


def _clean(read: Read[Any]) -> Any:
    """A pod_constraints value, or give up when the API server would refuse something (it needs a position)."""
    if read.issues:
        raise _GiveUp
    return read.value


def _pod(obj: Any, namespace: str, name: str) -> Pod:
    meta = _map(obj.get("metadata"))
    spec = _map(obj.get("spec"))
    annotations = _strings(meta.get("annotations"))
    labels = _strings(meta.get("labels")) if "labels" in meta else {}
    request, init = _pod_request(spec)
    task_priority = None
    if TASK_PRIORITY_ANNOTATION in annotations:
        try:
            task_priority = int(annotations[TASK_PRIORITY_ANNOTATION].strip())
        except ValueError:
            task_priority = None
    preemptable = True
    for source in (annotations, labels):
        if PREEMPTABLE_KEY in source:
            text = source[PREEMPTABLE_KEY].strip()
            preemptable = text in GO_TRUE
            break
    priority = spec.get("priority")
    return Pod(
        namespace=namespace,
        name=name,
        uid=_text(meta, "uid") or f"{namespace}-{name}",
        created=_timestamp(obj) if "creationTimestamp" in meta else None,
        group=annotations.get(GROUP_ANNOTATION, ""),
        task_spec=annotations.get(TASK_SPEC_ANNOTATION) or labels.get(TASK_SPEC_ANNOTATION) or "",
        request=request,
        init_request=init,
        priority=_int(priority, 0) if priority is not None else None,
        task_priority_annotation=task_priority,
        preemptable=preemptable,
        priority_class_name=_text(spec, "priorityClassName"),
        preemption_policy=_text(spec, "preemptionPolicy"),
        node_name=_text(spec, "nodeName"),
        phase=_text(obj, "status", "phase") or "Pending",
        scheduler_name=_text(spec, "schedulerName") or "default-scheduler",
        queue_annotation=annotations.get(QUEUE_NAME_ANNOTATION, ""),
        deleting=meta.get("deletionTimestamp") is not None,
        spec=_pod_spec(obj),
    )


_PREDICATE_KEYS = tuple(k for k in POD_SPEC_KEYS if k not in ("containers", "initContainers", "nodeName"))


def _pod_spec(obj: Any) -> PodSpec:
    """load.volcano.pod_spec on plain data. A pod whose spec has none of the fields node predicates read (no
    container ports either) is only its namespace and labels: that spec is built here, once per distinct pair,
    without the general reader (a 50,000-pod dump would spend seconds in it)."""
    spec = obj.get("spec")
    if type(spec) is dict and not any(spec.get(k) is not None for k in _PREDICATE_KEYS):
        containers = [*_containers(spec.get("containers")), *_containers(spec.get("initContainers"))]
        if all(type(c) is dict and c.get("ports") is None for c in containers):
            meta = obj.get("metadata")
            raw = meta.get("labels") if type(meta) is dict else None
            namespace = _text(obj, "metadata", "namespace") or "default"
            if raw is None:
                return NO_POD_SPEC
            if type(raw) is dict and all(type(v) is str for v in raw.values()):
                return _labels_only(namespace, tuple(raw.items()))
    found: PodSpec = _clean(pod_constraints(obj, bound=bool(_text(obj, "spec", "nodeName"))))
    return plain_spec(found)


@functools.lru_cache(maxsize=4096)
def _labels_only(namespace: str, labels: tuple[tuple[str, str], ...]) -> PodSpec:
    """A pod spec of namespace and labels alone (labels checked as pod_constraints checks them)."""
    _, problems = decode_labels(dict(labels), ("metadata", "labels"))
    if problems:
        raise _GiveUp
    return plain_spec(PodSpec(namespace=namespace, labels=tuple(sorted(labels))))


_NO_SPAN = Span(1, 1, 1, 1)


def _yaml(value: Any) -> YamlNode:
    """A JSON value as the YAML node the full loader would build for it (a JSON document is YAML), without
    positions: what the lints read. _GiveUp for an integer YAML would not resolve as one (beyond 64 bits)."""
    if isinstance(value, dict):
        pairs = [(_yaml(str(key)), _yaml(item)) for key, item in value.items()]
        return YamlNode("map", _NO_SPAN, tag="map", pairs=pairs)
    if isinstance(value, list):
        return YamlNode("seq", _NO_SPAN, tag="seq", items=[_yaml(item) for item in value])
    if isinstance(value, str):
        return YamlNode("scalar", _NO_SPAN, tag="str", text=value, value=value, style='"')
    if value is None:
        return YamlNode("scalar", _NO_SPAN, tag="null", text="null")
    if isinstance(value, bool):
        return YamlNode("scalar", _NO_SPAN, tag="bool", text="true" if value else "false", value=value)
    if isinstance(value, int):
        if not -(2**63) <= value < 2**64:
            raise _GiveUp
        return YamlNode("scalar", _NO_SPAN, tag="int", text=str(value), value=value)
    if isinstance(value, float):
        return YamlNode("scalar", _NO_SPAN, tag="float", text=repr(value), value=value)
    raise _GiveUp


def _queue(obj: Any, name: str) -> Queue:
    spec = _get(obj, "spec")
    annotations = _strings(_get(obj, "metadata", "annotations"))
    reclaimable = _get(spec, "reclaimable")
    if reclaimable is not None and not isinstance(reclaimable, bool):
        raise _GiveUp
    return Queue(
        name=name,
        created=_timestamp(obj),
        weight=_int(_get(spec, "weight"), 1),
        priority=_int(_get(spec, "priority"), 0),
        capability=_quantities(_get(spec, "capability")),
        deserved=_quantities(_get(spec, "deserved")),
        guarantee=_quantities(_get(spec, "guarantee", "resource")),
        reclaimable=reclaimable is not False,
        parent=_text(spec, "parent") or None,
        state=_text(obj, "status", "state") or QUEUE_OPEN,
        hierarchy=annotations.get(HIERARCHY_ANNOTATION),
        hierarchy_weights=annotations.get(HIERARCHY_WEIGHTS_ANNOTATION),
        priority_class_name=_text(spec, "priorityClassName"),
    )


def _pod_group(obj: Any, namespace: str, name: str) -> PodGroup:
    spec = _get(obj, "spec")
    min_task = {key: _int(value, 0) for key, value in _map(_get(spec, "minTaskMember")).items()}
    return PodGroup(
        namespace=namespace,
        name=name,
        created=_timestamp(obj),
        queue=_text(spec, "queue") or DEFAULT_QUEUE,
        priority_class_name=_text(spec, "priorityClassName"),
        min_member=_int(_get(spec, "minMember"), 0),
        min_task_member=min_task,
        min_resources=_quantities(_get(spec, "minResources")),
        phase=_text(obj, "status", "phase") or POD_GROUP_PENDING,
    )


def _node(obj: Any, name: str) -> Node:
    ready = False
    for condition in _containers(_get(obj, "status", "conditions")):
        if _text(condition, "type") == "Ready":
            ready = _text(condition, "status") == "True"
    unschedulable = _get(obj, "spec", "unschedulable")
    facts: NodeFacts = _clean(node_constraints(obj))
    return Node(
        name=name,
        allocatable=_quantities(_get(obj, "status", "allocatable")) or {},
        ready=ready,
        unschedulable=unschedulable is True,
        labels=_strings(_get(obj, "metadata", "labels")),
        taints=facts.taints,
    )


def _priority_class(obj: Any, name: str) -> PriorityClass:
    value = _get(obj, "value")
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise _GiveUp
    return PriorityClass(name=name, value=value, global_default=_get(obj, "globalDefault") is True)


def _collect(item: Any, found: dict[str, list[Any]], seen: set[tuple[str, str, str]], ignored: dict[str, int]) -> None:
    if not isinstance(item, dict):
        raise _GiveUp
    kind = _text(item, "kind")
    if not kind:
        raise _GiveUp
    if kind == "List" or (kind.endswith("List") and item.get("items") is not None):
        for child in _containers(item.get("items")):
            _collect(child, found, seen, ignored)
        return
    api = _text(item, "apiVersion")
    name = _text(item, "metadata", "name")
    if not name or kind == "Job":
        raise _GiveUp
    if kind == "ConfigMap":
        conf = item.get("data", {}).get(CONF_KEY) if isinstance(item.get("data"), dict) else None
        if name != CONF_CONFIGMAP or conf is None:
            ignored[kind] = ignored.get(kind, 0) + 1
            return
        if not isinstance(conf, str):
            raise _GiveUp
        found["confs"].append(conf)
        return
    namespaced = kind in ("PodGroup", "Pod")
    namespace = (_text(item, "metadata", "namespace") or "default") if namespaced else ""
    identity = (f"{api.split('/')[0]}/{kind}", namespace, name)
    if identity in seen:
        raise _GiveUp
    seen.add(identity)
    if kind == "Queue" and api.startswith(VOLCANO_GROUPS[0]):
        found["queues"].append(_queue(item, name))
        found["linted"].append(LoadedObject(kind, api, namespace, name, _yaml(item), ""))
    elif kind == "PodGroup" and any(api.startswith(g) for g in VOLCANO_GROUPS):
        found["groups"].append(_pod_group(item, namespace, name))
        spec = _map(item.get("spec"))  # the lints read a PodGroup's queue and class (its name: the LoadedObject's)
        read = {"spec": {key: spec[key] for key in ("queue", "priorityClassName") if key in spec}}
        found["linted"].append(LoadedObject(kind, api, namespace, name, _yaml(read), ""))
    elif kind == "Pod" and api == "v1":
        found["pods"].append(_pod(item, namespace, name))
    elif kind == "PriorityClass" and api.startswith("scheduling.k8s.io/"):
        found["classes"].append(_priority_class(item, name))
        found["linted"].append(LoadedObject(kind, api, namespace, name, _yaml(item), ""))
    elif kind == "Node" and api == "v1":
        found["nodes"].append(_node(item, name))
    elif kind == "Namespace" and api == "v1":
        namespace_value: Namespace = _clean(namespace_constraints(item))
        found["namespaces"].append(namespace_value)
    else:
        ignored[kind] = ignored.get(kind, 0) + 1


def load_volcano_fast(
    names: list[str], conf: str | None = None, scheduler_name: str = "volcano"
) -> VolcanoInputs | None:
    """The inputs when every dump is a JSON file the fast path reads exactly; None otherwise (see the docstring)."""
    if not names or any(name == "-" or not os.path.isfile(name) for name in names):
        return None  # only regular files: a pipe (<(kubectl ...)) read here could not be read again by load_volcano
    found: dict[str, list[Any]] = {
        "queues": [], "groups": [], "pods": [], "classes": [], "nodes": [], "namespaces": [], "confs": [],
        "linted": [],
    }
    seen: set[tuple[str, str, str]] = set()
    ignored: dict[str, int] = {}
    texts: dict[str, str] = {}
    try:
        for name in names:
            data = read_input(name)
            if data.lstrip()[:1] != b"{":
                return None
            text = data.decode("utf-8")
            if SUPPRESSION.search(text):
                return None  # `# yk: disable=` silences by line: the full loader's positions decide
            texts[name] = text
            first = len(found["linted"])
            _collect(json.loads(text), found, seen, ignored)
            found["linted"][first:] = [replace(o, file=name) for o in found["linted"][first:]]
    except (_GiveUp, UnicodeDecodeError, ValueError, RecursionError):
        return None
    base = load_volcano([], conf, scheduler_name)
    confs = found["confs"] if conf is None else []
    conf_problems = _dump_conf(confs[0], texts, base) if len(confs) == 1 else [] if not confs else None
    if conf_problems is None:
        return None
    problems = lint_objects(found["linted"], base.conf.effective) + conf_problems
    if any(p.level == Level.ERROR for p in problems):
        return None  # an error is printed in full, with its position: the full loader reports it
    base.problems += [replace(p, span=None) for p in problems]  # a warning is only counted (its file and rule)
    pods: list[Pod] = []
    groups: list[PodGroup] = list(found["groups"])
    existing = {(g.namespace, g.name) for g in groups}
    extra: list[PodGroup] = []
    for pod in found["pods"]:
        if pod.group or pod.scheduler_name != scheduler_name:
            pods.append(pod)
            continue
        group = f"podgroup-{pod.uid}"
        extra.append(PodGroup(
            namespace=pod.namespace, name=group, created=pod.created, queue=pod.queue_annotation or DEFAULT_QUEUE,
            priority_class_name=pod.priority_class_name, min_member=1, min_resources=dict(pod.request),
            phase=POD_GROUP_PENDING, derived_from=f"Pod {pod.namespace}/{pod.name} (Volcano's podgroup controller)",
        ))
        pods.append(replace(pod, group=group))
    groups += [g for g in extra if (g.namespace, g.name) not in existing]
    base.cluster = Cluster(
        queues=tuple(found["queues"]), pod_groups=tuple(groups), pods=tuple(pods),
        priority_classes=tuple(found["classes"]), nodes=tuple(found["nodes"]), namespaces=tuple(found["namespaces"]),
    )
    base.ignored_kinds = ignored
    base.texts.update(texts)
    base.files = [*names, *base.files]
    return base


def _dump_conf(text: str, texts: dict[str, str], base: VolcanoInputs) -> list[Problem] | None:
    """Take the dump's scheduler ConfigMap as the conf when it loads without any problem (a loader problem needs
    positions, which only the full loader gives): the conf's lint problems, or None to give up."""
    parsed = parse_yaml(text)
    root = parsed.documents[0] if parsed.documents else None
    file = next(name for name, content in texts.items() if f'"{CONF_CONFIGMAP}"' in content)
    origin = f'{file} (ConfigMap {CONF_CONFIGMAP}, data["{CONF_KEY}"])'
    loaded = load_conf(root, origin)
    if parsed.problems or len(parsed.documents) > 1 or loaded.problems or not loaded.loaded:
        return None
    base.conf, base.conf_source, base.conf_root, base.conf_file, base.conf_origin = loaded, origin, None, file, "input"
    return [p.located(p.span, file) for p in lint_conf(root)] if root is not None else []
