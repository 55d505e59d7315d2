"""Kubernetes objects' node-predicate fields as core values: the one place loaders read them.

kubectl dumps (load/kubernetes.py), Volcano dumps (load/volcano.py, load/volcano_fast.py) and manifests read what
node predicates need of pods, nodes, namespaces and YuniKorn task groups through this module. It wraps
yk_cli.core.predicates.decode, which parses and validates as the API server does (never re-implemented here), and
adds what a loader needs: where a Kubernetes object keeps each field, the API server's own additions to an object,
problems with their place in the object, and the "not modelled" channel (PodSpec.unmodelled).

Every reader takes a whole Kubernetes object in either form a loader holds: the positioned YAML tree
(yk_cli.core.yamldoc.Node, as load/kubernetes.py and load/volcano.py compose it) or plain JSON data (dicts, lists,
str, int, float, bool, None, as json.loads gives it: load/volcano_fast.py). None raises. Each returns a `Read`:
the value, and the `Issue`s, everything the API server would refuse (or a value of the wrong JSON type), each with
its path from the object's root and a message worded as the API server words it:

    Issue(path=("spec", "tolerations", 0, "operator"), code="unsupported-operator",
          message='spec.tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists"')

The readers:

    pod_constraints(pod, *, bound=False) -> Read[PodSpec]
        metadata.namespace ("default" when absent) and metadata.labels; from spec: nodeSelector, tolerations,
        affinity (required node affinity and required pod (anti-)affinity; preferred terms are named in
        PodSpec.soft), topologySpreadConstraints, the host ports of containers and of sidecar init containers
        (with hostNetwork every container port is one), nodeName; and in PodSpec.unmodelled what yk does not
        evaluate: persistentVolumeClaim and ephemeral volumes ("VolumeBinding/VolumeZone/NodeVolumeLimits (volume
        data)") and DRA resourceClaims ("DynamicResources (DRA claim gpu)"). bound=True: the pod already runs on
        spec.nodeName (an allocation, another scheduler's pod), so nodeName is no constraint of it: a copy its
        controller makes after a preemption has none.
    node_constraints(node) -> Read[NodeFacts]
        metadata.name, metadata.labels, spec.taints, spec.unschedulable.
    namespace_constraints(namespace) -> Read[Namespace]
        metadata.name and metadata.labels, plus `kubernetes.io/metadata.name: <name>`, which the API server sets
        on every namespace (a hand-written dump may lack it).
    task_group_constraints(group, namespace, labels) -> Read[PodSpec]
        One entry of the yunikorn.apache.org/task-groups annotation (plain JSON: the annotation is a JSON string
        in either form of dump) as the shim's placeholder pods carry it (k8shim pkg/cache/placeholder.go
        newPlaceholder): the group's nodeSelector, tolerations, affinity and topologySpreadConstraints, in
        `namespace` (the application's), with the group's `labels` plus `labels` (the shim adds the application
        id and queue labels, which win). Issue paths start at the group (("tolerations", 0, "operator")).

What a loader does with the issues:

    located(issues, root, file, *, wrong_type, refused, subject="") -> list[Problem]
        Problems of the loader's rules: a wrong JSON type gets `wrong_type` (cluster-invalid-field, ...), the
        rest `refused` (cluster-bad-pod-spec, ...). With root a YAML tree each is placed at the deepest node on its
        path (a label key the API server refuses: at that key); root None (plain JSON) leaves them unplaced.
        `subject` prefixes every message ("pod team-a/web-1").
    Issue.wrong_type: whether the issue is a value of the wrong JSON type (a Go decoder refuses the whole object).

and to_plain(node) -> Any turns a YAML tree into plain JSON data (scalars as yaml.v3 resolves them; the first of
repeated keys wins, as Node.get reads them).

Shapes a loader already checks with its own rules are not reported again: metadata.labels that is not a mapping
and containers, initContainers or volumes that are not a list are left out here. A pod's resources, priority and
everything else a scheduler reads besides node predicates stay with the loaders.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from yk_cli.core.diagnostics import Problem, Rule
from yk_cli.core.predicates.decode import (
    DecodeProblem,
    decode_labels,
    decode_namespace,
    decode_node,
    decode_pod_spec,
    format_path,
)
from yk_cli.core.predicates.model import Namespace, NodeFacts, PodSpec, labels_of
from yk_cli.core.yamldoc import Node, plain_number

__all__ = [
    "METADATA_NAME_LABEL",
    "POD_SPEC_KEYS",
    "TASK_GROUP_KEYS",
    "Issue",
    "Read",
    "located",
    "namespace_constraints",
    "node_at",
    "node_constraints",
    "pod_constraints",
    "task_group_constraints",
    "to_plain",
]

T = TypeVar("T")
Path = tuple[str | int, ...]
Obj = Node | Mapping[str, Any]
"""A Kubernetes object: its YAML tree, or plain JSON data."""

DEFAULT_NAMESPACE = "default"
METADATA_NAME_LABEL = "kubernetes.io/metadata.name"
"""The label the API server puts on every namespace (its name)."""
POD_SPEC_KEYS = (
    "nodeSelector",
    "tolerations",
    "affinity",
    "topologySpreadConstraints",
    "nodeName",
    "hostNetwork",
    "containers",
    "initContainers",
    "volumes",
    "resourceClaims",
)
"""The keys of a pod's spec that node predicates read (decode_pod_spec's, without yk's `hostPorts` shorthand)."""
TASK_GROUP_KEYS = ("nodeSelector", "tolerations", "affinity", "topologySpreadConstraints")
"""What a task group gives its placeholder pods besides labels (k8shim TaskGroup, placeholder.go)."""
_SPEC_KEYS = frozenset(POD_SPEC_KEYS)
_BOUND_SPEC_KEYS = _SPEC_KEYS - {"nodeName"}
_CONTAINER_KEYS = frozenset({"ports", "restartPolicy"})
_VOLUME_KEYS = frozenset({"name", "persistentVolumeClaim", "ephemeral"})
_CLAIM_KEYS = frozenset({"name"})
_SHALLOW = {"volumes": _VOLUME_KEYS, "resourceClaims": _CLAIM_KEYS}
"""Entries of which only the presence of these keys matters (their content is replaced by {})."""
_INVALID_VALUE = re.compile(r'Invalid value: ("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True, slots=True)
class Issue:
    """Something the API server would refuse, at its path from the object's root, in the API server's words."""

    path: Path
    message: str
    code: str
    """decode's short id ("unsupported-operator", "wrong-type", ...)."""

    @property
    def wrong_type(self) -> bool:
        """A value of the wrong JSON type (an object where a list belongs, a string for an integer, ...)."""
        return self.code == "wrong-type"


@dataclass(frozen=True, slots=True)
class Read(Generic[T]):
    """A value read from a Kubernetes object and the issues found on the way (empty: the API server accepts it)."""

    value: T
    issues: tuple[Issue, ...] = field(default=())


def _issue(problem: DecodeProblem, prefix: Path) -> Issue:
    """A decode problem at a path relative to `prefix`, re-worded with its path from the object's root."""
    relative = format_path(problem.path) or "<root>"
    full = (*prefix, *problem.path)
    message = problem.message
    if message.startswith(relative):
        message = (format_path(full) or "<root>") + message[len(relative) :]
    return Issue(full, message, problem.code)


def _issues(problems: Sequence[DecodeProblem], prefixes: Mapping[str, Path], default: Path = ()) -> list[Issue]:
    """Decode problems, each under the prefix of its first path element (else `default`)."""
    out: list[Issue] = []
    for problem in problems:
        head = problem.path[0] if problem.path else None
        prefix = prefixes.get(head, default) if isinstance(head, str) else default
        out.append(_issue(problem, prefix))
    return out


# ---- plain data from either form -----------------------------------------------------------------------------------


def to_plain(node: Node) -> Any:
    """A YAML tree as plain JSON data. Iterative: a document may nest as deep as yaml.v3 allows."""
    out: list[Any] = [None]
    work: list[tuple[Node, Any, Any]] = [(node, out, 0)]
    while work:
        item, container, slot = work.pop()
        if item.kind == "scalar":
            container[slot] = _scalar(item)
        elif item.kind == "seq":
            values: list[Any] = [None] * len(item.items)
            container[slot] = values
            work.extend((child, values, i) for i, child in enumerate(item.items))
        else:
            mapping: dict[str, Any] = {}
            container[slot] = mapping
            for key, value in item.pairs:
                if key.kind == "scalar" and key.text not in mapping:
                    mapping[key.text] = None
                    work.append((value, mapping, key.text))
    return out[0]


def _scalar(node: Node) -> Any:
    if node.tag in ("int", "float", "bool", "null"):
        return plain_number(node.tag, node.text, node.value)
    return node.text


def _child(obj: Any, key: str) -> Any:
    """obj[key] of either form (None when obj is no mapping or lacks it; a YAML null is None too)."""
    if isinstance(obj, Node):
        if obj.kind != "map":
            return None
        found = obj.get(key)
        if found is None or (found.kind == "scalar" and found.tag == "null"):
            return None
        return found
    if isinstance(obj, Mapping):
        return obj.get(key)
    return None


def _at(obj: Any, *keys: str) -> Any:
    for key in keys:
        obj = _child(obj, key)
    return obj


def _plain(value: Any) -> Any:
    return to_plain(value) if isinstance(value, Node) else value


def _is_map(value: Any) -> bool:
    return value.kind == "map" if isinstance(value, Node) else isinstance(value, Mapping)


def _entries(value: Any) -> list[Any] | None:
    """A list's items in either form; None when the value is not a list."""
    if isinstance(value, Node):
        return value.items if value.kind == "seq" else None
    return list(value) if isinstance(value, list | tuple) else None


def _text(value: Any) -> str:
    if isinstance(value, Node):
        return value.text if value.kind == "scalar" and value.tag != "null" else ""
    return value if isinstance(value, str) else ""


def _fields(obj: Any, keys: frozenset[str]) -> dict[str, Any]:
    """The values of these keys of a mapping in either form (nulls left out; of repeated keys the first), in one
    pass over a YAML mapping."""
    if isinstance(obj, Node):
        if obj.kind != "map":
            return {}
        found: dict[str, Node] = {}
        for key, value in obj.pairs:
            if key.kind == "scalar" and key.text in keys and key.text not in found:
                found[key.text] = value
        return {k: v for k, v in found.items() if not (v.kind == "scalar" and v.tag == "null")}
    if isinstance(obj, Mapping):
        return {k: obj[k] for k in keys if obj.get(k) is not None}
    return {}


def _slim(entry: Any, keys: frozenset[str], shallow: bool) -> Any:
    """A container / volume / claim with only the keys decode reads (non-mappings kept: decode reports them)."""
    if not _is_map(entry):
        return _plain(entry)
    return {key: {} if shallow and key != "name" else _plain(value) for key, value in _fields(entry, keys).items()}


def _spec_subset(spec: Any, bound: bool) -> dict[str, Any]:
    """The part of a pod spec decode_pod_spec reads, as plain data (containers and volumes slimmed to what counts)."""
    out: dict[str, Any] = {}
    fields = _fields(spec, _BOUND_SPEC_KEYS if bound else _SPEC_KEYS)
    for key in POD_SPEC_KEYS:
        value = fields.get(key)
        if value is None:
            continue
        if key in ("containers", "initContainers", "volumes", "resourceClaims"):
            items = _entries(value)
            if items is None:
                continue  # not a list: the loaders report it with their own rules
            keys = _SHALLOW.get(key, _CONTAINER_KEYS)
            out[key] = [_slim(item, keys, key in _SHALLOW) for item in items]
        else:
            out[key] = _plain(value)
    return out


def _label_source(obj: Any) -> Any:
    """metadata.labels when it is a mapping (else None: the loaders report a non-mapping)."""
    labels = _at(obj, "metadata", "labels")
    return _plain(labels) if labels is not None and _is_map(labels) else None


def _string_labels(raw: Any) -> dict[str, str]:
    return {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(raw, dict) else {}


# ---- the readers ---------------------------------------------------------------------------------------------------


_LABEL_ISSUES: dict[tuple[tuple[Any, type, Any], ...], tuple[Issue, ...]] = {}
"""metadata.labels -> what the API server refuses in them (most pods share their labels with others)."""
_LABEL_CACHE_SIZE = 4096


def _metadata_label_issues(raw: dict[str, Any]) -> tuple[Issue, ...]:
    try:
        key = tuple((k, type(v), v) for k, v in raw.items())  # the type too: True == 1
        found = _LABEL_ISSUES.get(key)
    except TypeError:  # a value that is a list or a mapping: no cache
        key, found = (), None
    if found is None:
        _, problems = decode_labels(raw, ("metadata", "labels"))
        found = tuple(_issue(p, ()) for p in problems)
        if key:
            if len(_LABEL_ISSUES) >= _LABEL_CACHE_SIZE:
                _LABEL_ISSUES.clear()
            _LABEL_ISSUES[key] = found
    return found


def pod_constraints(pod: Obj, *, bound: bool = False) -> Read[PodSpec]:
    """A Pod's namespace, labels and node constraints (see the module docstring)."""
    namespace = _text(_at(pod, "metadata", "namespace")) or DEFAULT_NAMESPACE
    raw_labels = _label_source(pod)
    issues: list[Issue] = []
    if raw_labels is not None:
        issues += _metadata_label_issues(raw_labels)
    spec, problems = decode_pod_spec(_spec_subset(_at(pod, "spec"), bound), namespace, _string_labels(raw_labels))
    issues += [_issue(p, ("spec",)) for p in problems]
    return Read(spec, tuple(issues))


def node_constraints(node: Obj) -> Read[NodeFacts]:
    """A Node's name, labels, taints and spec.unschedulable."""
    name = _text(_at(node, "metadata", "name"))
    unschedulable = _plain(_at(node, "spec", "unschedulable"))
    taints = _at(node, "spec", "taints")
    facts, problems = decode_node(
        _label_source(node),
        _plain(taints),
        False if unschedulable is None else unschedulable,
        name,
    )
    prefixes = {"labels": ("metadata",), "taints": ("spec",), "unschedulable": ("spec",)}
    return Read(facts, tuple(_issues(problems, prefixes)))


def namespace_constraints(namespace: Obj) -> Read[Namespace]:
    """A Namespace's name and labels, with the kubernetes.io/metadata.name label the API server adds."""
    name = _text(_at(namespace, "metadata", "name"))
    found, problems = decode_namespace(name, _label_source(namespace))
    labels = dict(found.labels)
    labels[METADATA_NAME_LABEL] = name
    value = Namespace(found.name, labels_of(labels))
    return Read(value, tuple(_issues(problems, {"labels": ("metadata",), "name": ("metadata",)})))


def task_group_constraints(group: Mapping[str, Any], namespace: str, labels: Mapping[str, str]) -> Read[PodSpec]:
    """The placeholder pods of one task group (plain JSON from the annotation; see the module docstring)."""
    issues: list[Issue] = []
    own: dict[str, str] = {}
    if "labels" in group and group["labels"] is not None:
        _, label_problems = decode_labels(group["labels"], ("labels",))
        issues += [_issue(p, ()) for p in label_problems]
        own = _string_labels(group["labels"])
    merged = {**own, **labels}
    subset = {key: group[key] for key in TASK_GROUP_KEYS if group.get(key) is not None}
    spec, problems = decode_pod_spec(subset, namespace, merged)
    issues += [_issue(p, ()) for p in problems]
    return Read(spec, tuple(issues))


# ---- problems ------------------------------------------------------------------------------------------------------


def node_at(root: Node, path: Path) -> Node:
    """The deepest node of the tree on the path (the root when its first step is missing)."""
    node = root
    for step in path:
        if isinstance(step, int):
            if node.kind != "seq" or not 0 <= step < len(node.items):
                break
            node = node.items[step]
        else:
            found = node.get(step) if node.kind == "map" else None
            if found is None:
                break
            node = found
    return node


def _key_node(node: Node, issue: Issue) -> Node:
    """For a label key the API server refuses, reported at its map: that key."""
    if node.kind != "map" or issue.code != "invalid-label-key":
        return node
    match = _INVALID_VALUE.search(issue.message)
    if match is None:
        return node
    try:
        key = json.loads(match.group(1))
    except ValueError:
        return node
    for k, _ in node.pairs:
        if k.kind == "scalar" and k.text == key:
            return k
    return node


def located(
    issues: Sequence[Issue],
    root: Node | None,
    file: str,
    *,
    wrong_type: Rule,
    refused: Rule,
    subject: str = "",
) -> list[Problem]:
    """The issues as located problems of the loader's rules (see the module docstring)."""
    out: list[Problem] = []
    for issue in issues:
        rule = wrong_type if issue.wrong_type else refused
        message = f"{subject}: {issue.message}" if subject else issue.message
        span = _key_node(node_at(root, issue.path), issue).span if root is not None else None
        out.append(rule.problem(message).located(span, file))
    return out
