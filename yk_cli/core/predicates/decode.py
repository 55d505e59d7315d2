"""Kubernetes JSON-shaped data (as parsed from YAML or JSON) -> the predicate model, validated as the API server does.

Whatever the API server would refuse is reported as a DecodeProblem; the value still decodes as well as it can (a
node selector term that does not parse is kept and matches nothing, as kube-scheduler treats it), and decoding never
raises. Defaults are the API server's and kube-scheduler's (Kubernetes 1.36):

* a toleration's operator "" is Equal;
* a topology spread constraint's nodeAffinityPolicy is Honor and nodeTaintsPolicy Ignore;
* matchLabelKeys / mismatchLabelKeys of pod (anti-)affinity terms and matchLabelKeys of topology spread constraints
  are merged into the label selector from the pod's own labels, as kube-apiserver does on pod creation
  (pkg/registry/core/pod/strategy.go applyMatchLabelKeysAndMismatchLabelKeys / applyMatchLabelKeys: for each key the
  pod carries, `key In (value)` (mismatch: `key NotIn (value)`) is appended to matchExpressions; a nil labelSelector
  is left nil, as it matches nothing anyway). The keys themselves are kept in the value;
* host ports: the ports of containers, and of init containers with restartPolicy Always (sidecars), that have a
  hostPort > 0 (pkg/scheduler/util GetHostPorts); with hostNetwork a port without hostPort gets its containerPort
  (core/v1 defaulting SetDefaults_PodSpec). Protocol defaults to TCP.

Messages follow the API server's field errors (k8s.io/apimachinery/pkg/util/validation/field), with paths relative
to the mapping given (no "spec." prefix).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from yk_cli.core.predicates.model import (
    DO_NOT_SCHEDULE,
    DOES_NOT_EXIST,
    EQUAL,
    EXISTS,
    GT,
    HONOR,
    IGNORE,
    IN,
    LT,
    NO_EXECUTE,
    NO_SCHEDULE,
    NOT_IN,
    PREFER_NO_SCHEDULE,
    SCHEDULE_ANYWAY,
    HostPort,
    Labels,
    LabelSelector,
    Namespace,
    NodeFacts,
    NodeSelectorTerm,
    PodAffinityTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)

__all__ = [
    "DecodeProblem",
    "decode_label_selector",
    "decode_labels",
    "decode_namespace",
    "decode_node",
    "decode_pod_spec",
    "format_path",
]

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class DecodeProblem:
    """Something the API server would refuse (or a wrong JSON type), at a path relative to the raw mapping."""

    path: Path
    message: str
    code: str
    """A short kebab-case id, e.g. "unsupported-operator"."""

    def __str__(self) -> str:
        return self.message


def format_path(path: Path) -> str:
    """("tolerations", 0, "operator") -> "tolerations[0].operator" (field.Path's spelling)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out:
            out += "." + part
        else:
            out = part
    return out


def _show(value: Any) -> str:
    """A value as field errors print it (strings quoted)."""
    try:
        return json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(value)


class _Problems:
    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[DecodeProblem] = []

    def add(self, path: Path, code: str, kind: str, detail: str = "", value: Any = None, show: bool = True) -> None:
        where = format_path(path) or "<root>"
        if kind == "Invalid value":
            text = f"{where}: Invalid value: {_show(value)}" if show else f"{where}: Invalid value"
            if detail:
                text += f": {detail}"
        elif kind == "Unsupported value":
            text = f"{where}: Unsupported value: {_show(value)}: supported values: {detail}"
        else:  # Required value, Forbidden, Duplicate value
            text = f"{where}: {kind}"
            if kind == "Duplicate value":
                text += f": {_show(value)}"
            if detail:
                text += f": {detail}"
        self.items.append(DecodeProblem(path, text, code))

    def wrong_type(self, path: Path, value: Any, expected: str) -> None:
        self.add(path, "wrong-type", "Invalid value", f"must be {expected}", value)


def _supported(*values: str) -> str:
    return ", ".join(f'"{v}"' for v in values)


# ---- apimachinery pkg/util/validation: names and label values --------------------------------------------------------

_QUALIFIED_NAME_RE = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_DNS1123_SUBDOMAIN_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_LABEL_VALUE_RE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
_DNS1123_LABEL_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")

_QUALIFIED_NAME_FMT = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
_DNS1123_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)


def qualified_name_errors(value: str) -> list[str]:
    """validation.IsQualifiedName: label keys, taint and toleration keys, topology keys."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errs.append("prefix part must be no more than 253 characters")
            if not _DNS1123_SUBDOMAIN_RE.fullmatch(prefix):
                errs.append("prefix part " + _DNS1123_SUBDOMAIN_MSG)
    else:
        return [
            "a qualified name "
            + _QUALIFIED_NAME_FMT
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if name and not _QUALIFIED_NAME_RE.fullmatch(name):
        errs.append("name part " + _QUALIFIED_NAME_FMT)
    return errs


def label_value_errors(value: str) -> list[str]:
    """validation.IsValidLabelValue."""
    errs: list[str] = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(_LABEL_VALUE_MSG)
    return errs


def _dns1123_subdomain_errors(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > 253:
        errs.append("must be no more than 253 characters")
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(_DNS1123_SUBDOMAIN_MSG)
    return errs


def _dns1123_label_errors(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _DNS1123_LABEL_RE.fullmatch(value):
        errs.append(_DNS1123_LABEL_MSG)
    return errs


# ---- JSON type checks: wrong types are problems, never exceptions ----------------------------------------------------


def _map(raw: Any, path: Path, probs: _Problems) -> Mapping[Any, Any] | None:
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return raw
    probs.wrong_type(path, raw, "an object")
    return None


def _list(raw: Any, path: Path, probs: _Problems) -> Sequence[Any]:
    if raw is None:
        return ()
    if isinstance(raw, list | tuple):
        return raw
    probs.wrong_type(path, raw, "a list")
    return ()


def _list_or_null(raw: Any) -> bool:
    return raw is None or isinstance(raw, list | tuple)


def _str(raw: Any, path: Path, probs: _Problems) -> str:
    if raw is None:
        return ""
    if isinstance(raw, str):
        return raw
    probs.wrong_type(path, raw, "a string")
    return str(raw)


def _int(raw: Any, path: Path, probs: _Problems) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    probs.wrong_type(path, raw, "an integer")
    return None


def _bool(raw: Any, path: Path, probs: _Problems) -> bool:
    if raw is None:
        return False
    if isinstance(raw, bool):
        return raw
    probs.wrong_type(path, raw, "a boolean")
    return False


def _key(key: str, path: Path, probs: _Problems) -> None:
    for msg in qualified_name_errors(key):
        probs.add(path, "invalid-label-key", "Invalid value", msg, key)


def _label_map(raw: Any, path: Path, probs: _Problems) -> dict[str, str] | None:
    """ValidateLabels: keys are qualified names, values label values. None when raw is null or not an object."""
    m = _map(raw, path, probs)
    if m is None:
        return None
    out: dict[str, str] = {}
    for k, v in m.items():
        if not isinstance(k, str):
            probs.wrong_type((*path, str(k)), k, "a string key")
            k = str(k)
        value = _str(v, (*path, k), probs)
        for msg in qualified_name_errors(k):
            probs.add(path, "invalid-label-key", "Invalid value", msg, k)
        for msg in label_value_errors(value):
            probs.add((*path, k), "invalid-label-value", "Invalid value", msg, value)
        out[k] = value
    return out


def _sorted_labels(m: Mapping[str, str] | None) -> Labels:
    return tuple(sorted(m.items())) if m else ()


def decode_labels(raw: Any, path: Path = ()) -> tuple[Labels, list[DecodeProblem]]:
    """A label map (metadata.labels, nodeSelector) as sorted pairs, validated as ValidateLabels does."""
    probs = _Problems()
    return _sorted_labels(_label_map(raw, path, probs)), probs.items


# ---- taints and tolerations (pkg/apis/core/validation validateNodeTaints / validateTolerations) ----------------------

_EFFECTS = (NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE)


def _effect(effect: str, allow_empty: bool, path: Path, probs: _Problems) -> None:
    """validateTaintEffect."""
    if not effect:
        if not allow_empty:
            probs.add(path, "invalid-taint-effect", "Required value")
        return
    if effect not in _EFFECTS:
        probs.add(path, "invalid-taint-effect", "Unsupported value", _supported(*_EFFECTS), effect)


def _taints(raw: Any, path: Path, probs: _Problems) -> tuple[Taint, ...]:
    out: list[Taint] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(_list(raw, path, probs)):
        p = (*path, i)
        t = _map(item, p, probs)
        if t is None:
            if item is None:
                probs.wrong_type(p, item, "an object")
            continue
        key = _str(t.get("key"), (*p, "key"), probs)
        value = _str(t.get("value"), (*p, "value"), probs)
        effect = _str(t.get("effect"), (*p, "effect"), probs)
        _key(key, (*p, "key"), probs)
        for msg in label_value_errors(value):
            probs.add((*p, "value"), "invalid-label-value", "Invalid value", msg, value)
        _effect(effect, False, (*p, "effect"), probs)
        if (key, effect) in seen:
            probs.add(
                p,
                "duplicate-taint",
                "Duplicate value",
                "taints must be unique by key and effect pair",
                {"effect": effect, "key": key},
            )
        seen.add((key, effect))
        out.append(Taint(key, value, effect))
    return tuple(out)


def _tolerations(raw: Any, path: Path, probs: _Problems) -> tuple[Toleration, ...]:
    out: list[Toleration] = []
    for i, item in enumerate(_list(raw, path, probs)):
        p = (*path, i)
        t = _map(item, p, probs)
        if t is None:
            if item is None:
                probs.wrong_type(p, item, "an object")
            continue
        key = _str(t.get("key"), (*p, "key"), probs)
        operator = _str(t.get("operator"), (*p, "operator"), probs)
        value = _str(t.get("value"), (*p, "value"), probs)
        effect = _str(t.get("effect"), (*p, "effect"), probs)
        seconds = _int(t.get("tolerationSeconds"), (*p, "tolerationSeconds"), probs)
        if key:
            _key(key, (*p, "key"), probs)
        if not key and operator != EXISTS:
            probs.add(
                (*p, "operator"),
                "toleration-empty-key-operator",
                "Invalid value",
                'operator must be Exists when `key` is empty, which means "match all values and all keys"',
                operator,
            )
        if t.get("tolerationSeconds") is not None and effect != NO_EXECUTE:
            probs.add(
                (*p, "effect"),
                "toleration-seconds-without-noexecute",
                "Invalid value",
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
                effect,
            )
        if operator in ("", EQUAL):
            for msg in label_value_errors(value):
                probs.add((*p, "operator"), "invalid-label-value", "Invalid value", msg, value)
        elif operator == EXISTS:
            if value:
                probs.add(
                    (*p, "operator"),
                    "toleration-exists-with-value",
                    "Invalid value",
                    "value must be empty when `operator` is 'Exists'",
                    dict(t),
                )
        else:
            # Lt and Gt need the alpha feature gate TaintTolerationComparisonOperators (default off in 1.36)
            probs.add(
                (*p, "operator"), "unsupported-operator", "Unsupported value", _supported(EQUAL, EXISTS), operator
            )
        _effect(effect, True, (*p, "effect"), probs)
        out.append(Toleration(key, operator or EQUAL, value, effect, seconds))
    return tuple(out)


# ---- node selectors (validateNodeSelector / validateNodeSelectorTerm) ------------------------------------------------


def _values(raw: Any, path: Path, probs: _Problems) -> tuple[str, ...]:
    return tuple(_str(v, (*path, j), probs) for j, v in enumerate(_list(raw, path, probs)))


def _node_selector_requirement(raw: Any, path: Path, probs: _Problems) -> Requirement | None:
    """validateNodeSelectorRequirement."""
    m = _map(raw, path, probs)
    if m is None:
        if raw is None:
            probs.wrong_type(path, raw, "an object")
        return None
    key = _str(m.get("key"), (*path, "key"), probs)
    op = _str(m.get("operator"), (*path, "operator"), probs)
    values = _values(m.get("values"), (*path, "values"), probs)
    if _list_or_null(m.get("values")):  # (else reported as a wrong type)
        _check_operator(op, values, path, probs, gt_lt=True)
    _key(key, (*path, "key"), probs)
    return Requirement(key, op, values)


def _check_operator(op: str, values: tuple[str, ...], path: Path, probs: _Problems, *, gt_lt: bool) -> None:
    """The values a selector requirement's operator needs: In/NotIn some, Exists/DoesNotExist none, Gt/Lt (node
    selectors only) exactly one; any other operator is refused."""
    vpath = (*path, "values")
    if op in (IN, NOT_IN):
        if not values:
            probs.add(
                vpath,
                "invalid-selector-values",
                "Required value",
                "must be specified when `operator` is 'In' or 'NotIn'",
            )
    elif op in (EXISTS, DOES_NOT_EXIST):
        if values:
            probs.add(
                vpath,
                "invalid-selector-values",
                "Forbidden",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )
    elif gt_lt and op in (GT, LT):
        if len(values) != 1:
            probs.add(
                vpath,
                "invalid-selector-values",
                "Required value",
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            )
    else:
        probs.add((*path, "operator"), "unsupported-operator", "Invalid value", "not a valid selector operator", op)


def _node_field_requirement(raw: Any, path: Path, probs: _Problems) -> Requirement | None:
    """validateNodeFieldSelectorRequirement: metadata.name In/NotIn, exactly one value (a node name)."""
    m = _map(raw, path, probs)
    if m is None:
        if raw is None:
            probs.wrong_type(path, raw, "an object")
        return None
    key = _str(m.get("key"), (*path, "key"), probs)
    op = _str(m.get("operator"), (*path, "operator"), probs)
    values = _values(m.get("values"), (*path, "values"), probs)
    if _list_or_null(m.get("values")):  # (else reported as a wrong type)
        if op not in (IN, NOT_IN):
            probs.add((*path, "operator"), "unsupported-operator", "Invalid value", "not a valid selector operator", op)
        elif len(values) != 1:
            probs.add(
                (*path, "values"),
                "invalid-selector-values",
                "Required value",
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )
    if key != "metadata.name":
        probs.add((*path, "key"), "invalid-match-field-key", "Invalid value", "not a valid field selector key", key)
    else:
        for j, v in enumerate(values):
            for msg in _dns1123_subdomain_errors(v):
                probs.add((*path, "values", j), "invalid-node-name", "Invalid value", msg, v)
    return Requirement(key, op, values)


def _node_selector_term(raw: Any, path: Path, probs: _Problems) -> NodeSelectorTerm:
    m = _map(raw, path, probs)
    if m is None:
        return NodeSelectorTerm()  # a null term matches nothing
    exprs: list[Requirement] = []
    for j, r in enumerate(_list(m.get("matchExpressions"), (*path, "matchExpressions"), probs)):
        req = _node_selector_requirement(r, (*path, "matchExpressions", j), probs)
        if req is not None:
            exprs.append(req)
        else:  # kept unparseable: the term then matches nothing
            exprs.append(Requirement("", ""))
    fields: list[Requirement] = []
    for j, r in enumerate(_list(m.get("matchFields"), (*path, "matchFields"), probs)):
        req = _node_field_requirement(r, (*path, "matchFields", j), probs)
        fields.append(req if req is not None else Requirement("", ""))
    return NodeSelectorTerm(tuple(exprs), tuple(fields))


def _node_selector(raw: Any, path: Path, probs: _Problems) -> tuple[NodeSelectorTerm, ...] | None:
    """ValidateNodeSelector: at least one term."""
    m = _map(raw, path, probs)
    if m is None:
        return None
    tpath = (*path, "nodeSelectorTerms")
    terms = tuple(
        _node_selector_term(t, (*tpath, i), probs)
        for i, t in enumerate(_list(m.get("nodeSelectorTerms"), tpath, probs))
    )
    if not terms and _list_or_null(m.get("nodeSelectorTerms")):
        probs.add(tpath, "no-node-selector-terms", "Required value", "must have at least one node selector term")
    return terms


def _weights(node_affinity: Mapping[str, Any]) -> list[int | None]:
    """The weights of the preferred node affinity terms, in order: an int in 1-100, else None (refused)."""
    raw = node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution")
    out: list[int | None] = []
    for item in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(item, Mapping):
            continue  # _weighted skips it too
        weight = item.get("weight")
        if isinstance(weight, float) and weight.is_integer():
            weight = int(weight)
        ok = isinstance(weight, int) and not isinstance(weight, bool) and 1 <= weight <= 100
        out.append(weight if ok else None)
    return out


def _weighted(raw: Any, path: Path, probs: _Problems, inner: str) -> list[tuple[Path, Any]]:
    """preferredDuringScheduling... lists: weight 1-100; returns (path, inner object) pairs."""
    out: list[tuple[Path, Any]] = []
    for i, item in enumerate(_list(raw, path, probs)):
        p = (*path, i)
        m = _map(item, p, probs)
        if m is None:
            continue
        weight = _int(m.get("weight"), (*p, "weight"), probs)
        if weight is None or not 1 <= weight <= 100:
            probs.add(
                (*p, "weight"), "invalid-weight", "Invalid value", "must be in the range 1-100", m.get("weight", 0)
            )
        out.append(((*p, inner), m.get(inner)))
    return out


# ---- label selectors (unversionedvalidation.ValidateLabelSelector) ---------------------------------------------------

_LABEL_SELECTOR_OPS = (IN, NOT_IN, EXISTS, DOES_NOT_EXIST)


def _label_selector(raw: Any, path: Path, probs: _Problems) -> LabelSelector | None:
    m = _map(raw, path, probs)
    if m is None:
        return None
    match_labels = _label_map(m.get("matchLabels"), (*path, "matchLabels"), probs)
    exprs: list[Requirement] = []
    epath = (*path, "matchExpressions")
    for j, r in enumerate(_list(m.get("matchExpressions"), epath, probs)):
        p = (*epath, j)
        rm = _map(r, p, probs)
        if rm is None:
            exprs.append(Requirement("", ""))
            continue
        key = _str(rm.get("key"), (*p, "key"), probs)
        op = _str(rm.get("operator"), (*p, "operator"), probs)
        values = _values(rm.get("values"), (*p, "values"), probs)
        if _list_or_null(rm.get("values")):  # (else reported as a wrong type)
            _check_operator(op, values, p, probs, gt_lt=False)
        _key(key, (*p, "key"), probs)
        for vi, v in enumerate(values):
            for msg in label_value_errors(v):
                probs.add((*p, "values", vi), "invalid-label-value", "Invalid value", msg, v)
        exprs.append(Requirement(key, op, values))
    return LabelSelector(_sorted_labels(match_labels), tuple(exprs))


def decode_label_selector(raw: Any, path: Path = ()) -> tuple[LabelSelector | None, list[DecodeProblem]]:
    """A metav1.LabelSelector (None for null: it matches nothing)."""
    probs = _Problems()
    return _label_selector(raw, path, probs), probs.items


def _merge_label_keys(
    selector: LabelSelector | None,
    match_keys: Sequence[str],
    mismatch_keys: Sequence[str],
    pod_labels: Mapping[str, str],
) -> LabelSelector | None:
    """kube-apiserver's applyLabelKeysToLabelSelector: `key In (v)` / `key NotIn (v)` for each key the pod carries."""
    if selector is None or not (match_keys or mismatch_keys):
        return selector
    added = [Requirement(k, IN, (pod_labels[k],)) for k in match_keys if k in pod_labels]
    added += [Requirement(k, NOT_IN, (pod_labels[k],)) for k in mismatch_keys if k in pod_labels]
    if not added:
        return selector
    return LabelSelector(selector.match_labels, selector.match_expressions + tuple(added))


def _label_keys(raw: Any, path: Path, has_selector: bool, probs: _Problems) -> tuple[str, ...]:
    keys = _values(raw, path, probs)
    if keys and not has_selector:
        probs.add(
            path,
            "match-label-keys-without-selector",
            "Forbidden",
            "must not be specified when labelSelector is not set",
        )
    for i, k in enumerate(keys):
        _key(k, (*path, i), probs)
    return keys


def _pod_affinity_term(raw: Any, path: Path, probs: _Problems, pod_labels: Mapping[str, str]) -> PodAffinityTerm | None:
    """validatePodAffinityTerm, and the API server's matchLabelKeys / mismatchLabelKeys merge."""
    m = _map(raw, path, probs)
    if m is None:
        if raw is None:
            probs.wrong_type(path, raw, "an object")
        return None
    topology_key = _str(m.get("topologyKey"), (*path, "topologyKey"), probs)
    if not topology_key:
        probs.add((*path, "topologyKey"), "missing-topology-key", "Required value", "can not be empty")
    else:
        _key(topology_key, (*path, "topologyKey"), probs)
    selector = _label_selector(m.get("labelSelector"), (*path, "labelSelector"), probs)
    namespaces = _values(m.get("namespaces"), (*path, "namespaces"), probs)
    for i, ns in enumerate(namespaces):
        for msg in _dns1123_label_errors(ns):
            probs.add((*path, "namespaces", i), "invalid-namespace", "Invalid value", msg, ns)
    ns_selector = _label_selector(m.get("namespaceSelector"), (*path, "namespaceSelector"), probs)
    match_keys = _label_keys(m.get("matchLabelKeys"), (*path, "matchLabelKeys"), selector is not None, probs)
    mismatch_keys = _label_keys(m.get("mismatchLabelKeys"), (*path, "mismatchLabelKeys"), selector is not None, probs)
    for i, k in enumerate(match_keys):
        if k in mismatch_keys:
            probs.add(
                (*path, "matchLabelKeys", i),
                "label-key-in-match-and-mismatch",
                "Invalid value",
                "exists in both matchLabelKeys and mismatchLabelKeys",
                k,
            )
    selector = _merge_label_keys(selector, match_keys, mismatch_keys, pod_labels)
    return PodAffinityTerm(topology_key, selector, namespaces, ns_selector, match_keys, mismatch_keys)


def _pod_affinity(
    raw: Any, path: Path, probs: _Problems, pod_labels: Mapping[str, str], soft: list[str], soft_name: str
) -> tuple[PodAffinityTerm, ...]:
    m = _map(raw, path, probs)
    if m is None:
        return ()
    rpath = (*path, "requiredDuringSchedulingIgnoredDuringExecution")
    terms: list[PodAffinityTerm] = []
    for i, t in enumerate(_list(m.get("requiredDuringSchedulingIgnoredDuringExecution"), rpath, probs)):
        term = _pod_affinity_term(t, (*rpath, i), probs, pod_labels)
        if term is not None:
            terms.append(term)
    ppath = (*path, "preferredDuringSchedulingIgnoredDuringExecution")
    preferred = _weighted(m.get("preferredDuringSchedulingIgnoredDuringExecution"), ppath, probs, "podAffinityTerm")
    for p, inner in preferred:
        _pod_affinity_term(inner, p, probs, pod_labels)
    if preferred:
        soft.append(soft_name)
    return tuple(terms)


# ---- topology spread (validateTopologySpreadConstraints) -------------------------------------------------------------


def _spread(
    raw: Any, path: Path, probs: _Problems, pod_labels: Mapping[str, str], soft: list[str]
) -> tuple[TopologySpreadConstraint, ...]:
    out: list[TopologySpreadConstraint] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(_list(raw, path, probs)):
        p = (*path, i)
        m = _map(item, p, probs)
        if m is None:
            if item is None:
                probs.wrong_type(p, item, "an object")
            continue
        max_skew = _int(m.get("maxSkew"), (*p, "maxSkew"), probs)
        if max_skew is None or max_skew <= 0:
            probs.add(
                (*p, "maxSkew"), "invalid-max-skew", "Invalid value", "must be greater than zero", m.get("maxSkew", 0)
            )
        topology_key = _str(m.get("topologyKey"), (*p, "topologyKey"), probs)
        if not topology_key:
            probs.add((*p, "topologyKey"), "missing-topology-key", "Required value", "can not be empty")
        else:
            _key(topology_key, (*p, "topologyKey"), probs)
        when = _str(m.get("whenUnsatisfiable"), (*p, "whenUnsatisfiable"), probs)
        if when not in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY):
            probs.add(
                (*p, "whenUnsatisfiable"),
                "unsupported-when-unsatisfiable",
                "Unsupported value",
                _supported(DO_NOT_SCHEDULE, SCHEDULE_ANYWAY),
                when,
            )
        if (topology_key, when) in seen:
            probs.add(p, "duplicate-spread-constraint", "Duplicate value", value=f"{{{topology_key}, {when}}}")
        seen.add((topology_key, when))
        min_domains = _int(m.get("minDomains"), (*p, "minDomains"), probs)
        if m.get("minDomains") is not None:
            if min_domains is None or min_domains <= 0:
                probs.add(
                    (*p, "minDomains"),
                    "invalid-min-domains",
                    "Invalid value",
                    "must be greater than zero",
                    m.get("minDomains"),
                )
            if when != DO_NOT_SCHEDULE:
                probs.add(
                    (*p, "minDomains"),
                    "min-domains-with-schedule-anyway",
                    "Invalid value",
                    f"can only use minDomains if whenUnsatisfiable={DO_NOT_SCHEDULE}, not {when}",
                    m.get("minDomains"),
                )
        policies: list[str] = []
        for name in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            v = _str(m.get(name), (*p, name), probs)
            if m.get(name) is not None and v not in (HONOR, IGNORE):
                probs.add((*p, name), "unsupported-policy", "Unsupported value", _supported(HONOR, IGNORE), v)
            policies.append(v)
        selector = _label_selector(m.get("labelSelector"), (*p, "labelSelector"), probs)
        match_keys = _label_keys(m.get("matchLabelKeys"), (*p, "matchLabelKeys"), selector is not None, probs)
        if selector is not None:
            for j, k in enumerate(match_keys):
                if any(k == lk for lk, _ in selector.match_labels) or any(
                    k == r.key for r in selector.match_expressions
                ):
                    probs.add(
                        (*p, "matchLabelKeys", j),
                        "label-key-in-selector",
                        "Invalid value",
                        "exists in both matchLabelKeys and labelSelector",
                        k,
                    )
        selector = _merge_label_keys(selector, match_keys, (), pod_labels)
        out.append(
            TopologySpreadConstraint(
                max_skew=max_skew if max_skew is not None else 0,
                topology_key=topology_key,
                when_unsatisfiable=when,
                label_selector=selector,
                min_domains=min_domains,
                node_affinity_policy=policies[0] or HONOR,
                node_taints_policy=policies[1] or IGNORE,
                match_label_keys=match_keys,
            )
        )
    if any(c.when_unsatisfiable == SCHEDULE_ANYWAY for c in out):
        soft.append("topology spread ScheduleAnyway")
    return tuple(out)


# ---- host ports ------------------------------------------------------------------------------------------------------

_PROTOCOLS = ("TCP", "UDP", "SCTP")


def _port(
    port: int | None, protocol: str, host_ip: str, path: Path, port_key: str, probs: _Problems
) -> HostPort | None:
    proto = protocol or "TCP"
    if proto not in _PROTOCOLS:
        probs.add((*path, "protocol"), "unsupported-protocol", "Unsupported value", _supported(*_PROTOCOLS), protocol)
    if port is None:
        return None
    if not 1 <= port <= 65535:
        probs.add(
            (*path, port_key), "invalid-host-port", "Invalid value", "must be between 1 and 65535, inclusive", port
        )
        return None
    return HostPort(port, proto, host_ip)


def _container_ports(raw: Any, path: Path, probs: _Problems, host_network: bool, init: bool) -> list[HostPort]:
    out: list[HostPort] = []
    for ci, c in enumerate(_list(raw, path, probs)):
        cp = (*path, ci)
        cm = _map(c, cp, probs)
        if cm is None:
            continue
        counts = not init or cm.get("restartPolicy") == "Always"
        for pi, port in enumerate(_list(cm.get("ports"), (*cp, "ports"), probs)):
            pp = (*cp, "ports", pi)
            pm = _map(port, pp, probs)
            if pm is None:
                continue
            host_port = _int(pm.get("hostPort"), (*pp, "hostPort"), probs)
            if not host_port and host_network:
                host_port = _int(pm.get("containerPort"), (*pp, "containerPort"), probs)
            protocol = _str(pm.get("protocol"), (*pp, "protocol"), probs)
            host_ip = _str(pm.get("hostIP"), (*pp, "hostIP"), probs)
            if not host_port:  # 0 or absent: no host port
                _port(None, protocol, host_ip, pp, "hostPort", probs)
                continue
            hp = _port(host_port, protocol, host_ip, pp, "hostPort", probs)
            if hp is not None and counts:
                out.append(hp)
    return out


def _shorthand_ports(raw: Any, path: Path, probs: _Problems) -> list[HostPort]:
    """yk's workload shorthand: `hostPorts: [8080, {port: 9090, protocol: UDP, hostIP: ...}]`."""
    out: list[HostPort] = []
    for i, item in enumerate(_list(raw, path, probs)):
        p = (*path, i)
        if isinstance(item, Mapping):
            key = "hostPort" if "hostPort" in item else "port"
            port = _int(item.get(key), (*p, key), probs)
            if port is None:
                probs.add((*p, "hostPort"), "invalid-host-port", "Required value", "a port between 1 and 65535")
                continue
            hp = _port(
                port,
                _str(item.get("protocol"), (*p, "protocol"), probs),
                _str(item.get("hostIP"), (*p, "hostIP"), probs),
                p,
                key,
                probs,
            )
        else:
            port = _int(item, p, probs)
            if port is None:
                continue
            hp = None
            if not 1 <= port <= 65535:
                probs.add(p, "invalid-host-port", "Invalid value", "must be between 1 and 65535, inclusive", port)
            else:
                hp = HostPort(port)
        if hp is not None:
            out.append(hp)
    return out


def _unmodelled(raw_volumes: Any, raw_claims: Any, probs: _Problems) -> tuple[str, ...]:
    out: list[str] = []
    for i, v in enumerate(_list(raw_volumes, ("volumes",), probs)):
        vm = _map(v, ("volumes", i), probs)
        if vm is None:
            continue
        if vm.get("persistentVolumeClaim") is not None or vm.get("ephemeral") is not None:
            out.append(f"VolumeBinding/VolumeZone/NodeVolumeLimits (volume {vm.get('name', i)})")
    for i, c in enumerate(_list(raw_claims, ("resourceClaims",), probs)):
        cm = _map(c, ("resourceClaims", i), probs)
        if cm is not None:
            out.append(f"DynamicResources (DRA claim {cm.get('name', i)})")
    return tuple(out)


# ---- the pod -------------------------------------------------------------------------------------------------------

_POD_KEYS = (
    "nodeSelector",
    "tolerations",
    "affinity",
    "topologySpreadConstraints",
    "nodeName",
    "containers",
    "initContainers",
    "hostPorts",
    "hostNetwork",
    "volumes",
    "resourceClaims",
)


def _decode_pod_spec(raw: Any, namespace: str, labels: Mapping[str, str]) -> tuple[PodSpec, list[DecodeProblem]]:
    probs = _Problems()
    pod_labels = {str(k): str(v) for k, v in labels.items()}
    spec = _map(raw, (), probs)
    if spec is None:
        return PodSpec(namespace=namespace, labels=_sorted_labels(pod_labels)), probs.items
    soft: list[str] = []
    node_selector = _label_map(spec.get("nodeSelector"), ("nodeSelector",), probs)
    tolerations = _tolerations(spec.get("tolerations"), ("tolerations",), probs)
    required: tuple[NodeSelectorTerm, ...] | None = None
    preferred_terms: list[tuple[int, NodeSelectorTerm]] = []
    pod_affinity: tuple[PodAffinityTerm, ...] = ()
    pod_anti_affinity: tuple[PodAffinityTerm, ...] = ()
    affinity = _map(spec.get("affinity"), ("affinity",), probs)
    if affinity is not None:
        na_path: Path = ("affinity", "nodeAffinity")
        node_affinity = _map(affinity.get("nodeAffinity"), na_path, probs)
        if node_affinity is not None:
            required = _node_selector(
                node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution"),
                (*na_path, "requiredDuringSchedulingIgnoredDuringExecution"),
                probs,
            )
            preferred = _weighted(
                node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution"),
                (*na_path, "preferredDuringSchedulingIgnoredDuringExecution"),
                probs,
                "preference",
            )
            for (p, inner), weight in zip(preferred, _weights(node_affinity), strict=True):
                term = _node_selector_term(inner, p, probs)
                if weight is not None:
                    preferred_terms.append((weight, term))
            if preferred:
                soft.append("preferred node affinity")
        pod_affinity = _pod_affinity(
            affinity.get("podAffinity"), ("affinity", "podAffinity"), probs, pod_labels, soft, "preferred pod affinity"
        )
        pod_anti_affinity = _pod_affinity(
            affinity.get("podAntiAffinity"),
            ("affinity", "podAntiAffinity"),
            probs,
            pod_labels,
            soft,
            "preferred pod anti-affinity",
        )
    spread = _spread(spec.get("topologySpreadConstraints"), ("topologySpreadConstraints",), probs, pod_labels, soft)
    host_network = _bool(spec.get("hostNetwork"), ("hostNetwork",), probs)
    ports = _container_ports(spec.get("initContainers"), ("initContainers",), probs, host_network, True)
    ports += _container_ports(spec.get("containers"), ("containers",), probs, host_network, False)
    ports += _shorthand_ports(spec.get("hostPorts"), ("hostPorts",), probs)
    node_name = _str(spec.get("nodeName"), ("nodeName",), probs)
    if node_name:
        for msg in _dns1123_subdomain_errors(node_name):
            probs.add(("nodeName",), "invalid-node-name", "Invalid value", msg, node_name)
    pod = PodSpec(
        namespace=namespace,
        labels=_sorted_labels(pod_labels),
        node_selector=_sorted_labels(node_selector),
        required_node_affinity=required,
        tolerations=tolerations,
        preferred_node_affinity=tuple(preferred_terms),
        pod_affinity=pod_affinity,
        pod_anti_affinity=pod_anti_affinity,
        topology_spread=spread,
        host_ports=tuple(ports),
        node_name=node_name,
        soft=tuple(soft),
        unmodelled=_unmodelled(spec.get("volumes"), spec.get("resourceClaims"), probs),
    )
    return pod, probs.items


_CACHE_SIZE = 4096
_cache: OrderedDict[tuple[str, str, Labels], tuple[PodSpec, tuple[DecodeProblem, ...]]] = OrderedDict()
_interned: dict[PodSpec, PodSpec] = {}


def _intern(pod: PodSpec) -> PodSpec:
    if len(_interned) >= 4 * _CACHE_SIZE:
        _interned.clear()
    return _interned.setdefault(pod, pod)


def decode_pod_spec(
    raw: Mapping[str, Any], namespace: str, labels: Mapping[str, str]
) -> tuple[PodSpec, list[DecodeProblem]]:
    """A pod spec-like mapping -> (PodSpec, problems). Never raises.

    Memoised: equal inputs (the relevant keys of raw, the namespace and the labels) return the identical PodSpec
    object, and equal PodSpec values decoded from different inputs are interned to one object too.
    """
    try:
        relevant = {k: raw[k] for k in _POD_KEYS if k in raw} if isinstance(raw, Mapping) else raw
        key = (json.dumps(relevant, sort_keys=True), namespace, tuple(sorted(labels.items())))
    except (TypeError, ValueError):  # not plain JSON (e.g. non-string keys): decode without the cache
        pod, problems = _decode_pod_spec(raw, namespace, labels)
        return _intern(pod), problems
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit[0], list(hit[1])
    pod, problems = _decode_pod_spec(raw, namespace, labels)
    pod = _intern(pod)
    _cache[key] = (pod, tuple(problems))
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return pod, problems


# ---- nodes and namespaces ------------------------------------------------------------------------------------------


def decode_node(
    raw_labels: Mapping[str, Any] | None, raw_taints: Any, unschedulable: bool, name: str
) -> tuple[NodeFacts, list[DecodeProblem]]:
    """A node's metadata.labels and spec.taints / spec.unschedulable -> NodeFacts.

    Problem paths start with "labels" or "taints" (e.g. ("taints", 1, "effect")).
    """
    probs = _Problems()
    node_labels = _label_map(raw_labels, ("labels",), probs)
    taints = _taints(raw_taints, ("taints",), probs)
    if not isinstance(unschedulable, bool):
        probs.wrong_type(("unschedulable",), unschedulable, "a boolean")
        unschedulable = bool(unschedulable)
    return NodeFacts(name, _sorted_labels(node_labels), taints, unschedulable), probs.items


def decode_namespace(name: str, raw_labels: Mapping[str, Any] | None) -> tuple[Namespace, list[DecodeProblem]]:
    """A namespace's name and metadata.labels -> Namespace (problem paths start with "labels")."""
    probs = _Problems()
    ns_labels = _label_map(raw_labels, ("labels",), probs)
    for msg in _dns1123_label_errors(name):
        probs.add(("name",), "invalid-namespace", "Invalid value", msg, name)
    return Namespace(name, _sorted_labels(ns_labels)), probs.items
