"""Strict decoding of YAML nodes into Go-like typed values, reporting what yaml.v3 with KnownFields(true) rejects."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from yk_cli.core.diagnostics import Level, Path, Problem
from yk_cli.core.yamldoc import Node


@dataclass(frozen=True, slots=True)
class Scalar:
    """A Go scalar type: string, bool, uint64, int64 or float64."""

    go: str


@dataclass(frozen=True, slots=True)
class ListOf:
    """A Go slice."""

    item: Spec

    @property
    def go(self) -> str:
        return f"[]{self.item.go}"


@dataclass(frozen=True, slots=True)
class MapOf:
    """A Go map with string keys."""

    value: Spec

    @property
    def go(self) -> str:
        return f"map[string]{self.value.go}"


@dataclass(slots=True)
class Struct:
    """A Go struct: lower-cased field names (as yaml.v3 derives them) -> field types."""

    go: str
    fields: dict[str, Spec] = field(default_factory=dict)


Spec = Scalar | ListOf | MapOf | Struct

STRING = Scalar("string")
BOOL = Scalar("bool")
UINT64 = Scalar("uint64")
FLOAT64 = Scalar("float64")

_BOOL_WORDS = {
    "y": True,
    "Y": True,
    "yes": True,
    "Yes": True,
    "YES": True,
    "on": True,
    "On": True,
    "ON": True,
    "n": False,
    "N": False,
    "no": False,
    "No": False,
    "NO": False,
    "off": False,
    "Off": False,
    "OFF": False,
}


@dataclass(slots=True)
class Decoder:
    """Decodes nodes against a spec and collects every problem instead of stopping at the first."""

    problems: list[Problem] = field(default_factory=list)

    def decode(self, node: Node | None, spec: Spec, path: Path = ()) -> Any:
        """The Python value of node decoded as spec: dict for structs and maps, list, or a scalar; None for null."""
        if node is None:
            return None
        if node.kind == "scalar" and node.tag == "null":
            return None
        if isinstance(spec, Struct):
            return self._struct(node, spec, path)
        if isinstance(spec, ListOf):
            if node.kind != "seq":
                self._type_error(node, spec, path)
                return None
            out = []
            for i, item in enumerate(node.items):
                value = self.decode(item, spec.item, (*path, i))
                if value is not None or not isinstance(spec.item, Scalar):
                    out.append(value)
                else:
                    out.append(_zero(spec.item))
            return out
        if isinstance(spec, MapOf):
            if node.kind != "map":
                self._type_error(node, spec, path)
                return None
            self._check_duplicates(node, path)
            out_map: dict[str, Any] = {}
            for key, value in node.pairs:
                if key.kind != "scalar":
                    self._type_error(key, STRING, path, anchor="key")
                    continue
                decoded = self.decode(value, spec.value, (*path, key.text))
                out_map[key.text] = decoded if decoded is not None else _zero(spec.value)
            return out_map
        return self._scalar(node, spec, path)

    def _struct(self, node: Node, spec: Struct, path: Path) -> dict[str, Any] | None:
        if node.kind != "map":
            self._type_error(node, spec, path)
            return None
        self._check_duplicates(node, path)
        out: dict[str, Any] = {}
        for key, value in node.pairs:
            if key.kind != "scalar":
                self._type_error(key, STRING, path, anchor="key")
                continue
            name = key.text
            child = (*path, name)
            if name not in spec.fields:
                self.problems.append(_unknown_field(name, spec, child))
                continue
            if name in out:
                continue  # the duplicate was reported above
            out[name] = self.decode(value, spec.fields[name], child)
        return out

    def _scalar(self, node: Node, spec: Scalar, path: Path) -> Any:
        if node.kind != "scalar":
            self._type_error(node, spec, path)
            return None
        tag, value = node.tag, node.value
        if spec.go == "string":
            return node.text
        if spec.go == "bool":
            if tag == "bool":
                return value
            if tag == "str" and node.text in _BOOL_WORDS:
                return _BOOL_WORDS[node.text]
        elif spec.go in ("uint64", "int64"):
            low, high = (0, 2**64 - 1) if spec.go == "uint64" else (-(2**63), 2**63 - 1)
            if tag == "int" and isinstance(value, int) and low <= value <= high:
                return value
            if tag == "float" and isinstance(value, float) and value == value and low <= value <= high:
                return int(value)
        elif spec.go == "float64" and tag in ("int", "float"):
            return float(value)  # type: ignore[arg-type]
        self._type_error(node, spec, path)
        return None

    def _check_duplicates(self, node: Node, path: Path) -> None:
        seen: dict[str, Node] = {}
        for key, _ in node.pairs:
            if key.kind != "scalar":
                continue
            first = seen.get(key.text)
            if first is None:
                seen[key.text] = key
                continue
            self.problems.append(
                Problem(
                    rule="duplicate-key",
                    level=Level.ERROR,
                    message=f'mapping key "{key.text}" already defined at line {first.span.line}',
                    path=(*path, key.text),
                    hint="YuniKorn refuses a mapping with a repeated key; merge the two entries.",
                    anchor="key",
                    span=key.span,
                )
            )

    def _type_error(self, node: Node, spec: Spec, path: Path, anchor: str = "value") -> None:
        self.problems.append(
            Problem(
                rule="wrong-type",
                level=Level.ERROR,
                message=f"cannot unmarshal {node.describe()} into {spec.go}",
                path=path,
                hint=_type_hint(node, spec),
                anchor="key" if anchor == "key" else "value",
                span=node.span,
            )
        )


def _zero(spec: Spec) -> Any:
    if isinstance(spec, Scalar):
        return {"string": "", "bool": False, "uint64": 0, "int64": 0, "float64": 0.0}[spec.go]
    return None


_KUBERNETES_KEYS = ("apiVersion", "kind", "metadata")


def _unknown_field(name: str, spec: Struct, path: Path) -> Problem:
    known = sorted(spec.fields)
    hint = f"known keys of {spec.go}: {', '.join(known)}."
    lowered = {k.lower(): k for k in known}
    if name.lower() in lowered:
        hint = f"did you mean `{lowered[name.lower()]}`? YuniKorn's keys are all lower case and case-sensitive."
    else:
        close = difflib.get_close_matches(name.lower().replace("_", "").replace("-", ""), known, n=1, cutoff=0.75)
        if close:
            hint = f"did you mean `{close[0]}`? " + hint
    if spec.go == "configs.SchedulerConfig" and name in _KUBERNETES_KEYS:
        hint = (
            "queues.yaml is not a Kubernetes object: remove apiVersion, kind and metadata, or put the config "
            "in a ConfigMap under `data: queues.yaml: |`."
        )
    return Problem(
        rule="unknown-field",
        level=Level.ERROR,
        message=f"field {name} not found in type {spec.go}",
        path=path,
        hint=hint,
        anchor="key",
    )


def _type_hint(node: Node, spec: Spec) -> str:
    want = {
        "string": "a string",
        "bool": "true or false (unquoted)",
        "uint64": "a whole number >= 0, unquoted",
        "int64": "a whole number, unquoted",
        "float64": "a number",
    }
    if isinstance(spec, Scalar):
        if spec.go == "bool" and node.kind == "scalar" and node.style and node.text in ("true", "false"):
            return f"write {node.text} without quotes: yaml.v3 will not read a quoted string into a bool."
        if spec.go == "uint64" and node.kind == "scalar" and node.style:
            return "write the number without quotes."
        return f"expected {want.get(spec.go, spec.go)}."
    if isinstance(spec, ListOf):
        return "expected a list (YAML sequence, items start with '- ')."
    if isinstance(spec, (MapOf, Struct)):
        return "expected a mapping (key: value pairs)."
    return ""  # pragma: no cover
