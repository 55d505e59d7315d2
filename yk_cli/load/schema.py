"""JSON Schema checks of plain YAML data: jsonschema errors as Problems at their document path, with a fast gate.

jsonschema is thorough but slow (about 100 µs per object); `compile_gate` turns the small keyword subset yk's
schemas use into closures that only answer "valid?" a hundred times faster. jsonschema runs only when the gate
says no, so a clean 100,000-ask workload never pays for it, and the problems still come from jsonschema.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from yk_cli.core.diagnostics import Path, Problem, format_path
from yk_cli.core.rules import Rule

Gate = Callable[[Any], bool]

_SUPPORTED = {
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "properties",
    "additionalProperties",
    "required",
    "items",
    "minimum",
    "maximum",
    "minLength",
    "enum",
}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}
_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "boolean": "true or false",
    "null": "empty",
    "integer": "a whole number",
    "number": "a number",
}


@dataclass(frozen=True, slots=True)
class SchemaRules:
    """Which rule reports which kind of schema error."""

    unknown_key: Rule
    missing_key: Rule
    wrong_type: Rule


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema shipped in yk_cli/data by file name (read once; the canonical copies live in schemas/)."""
    text = resources.files("yk_cli").joinpath("data", name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def compile_gate(schema: dict[str, Any]) -> Gate:
    """A fast validity test equivalent to jsonschema for the supported keywords (others raise ValueError)."""
    defs = schema.get("$defs", {})
    compiled: dict[str, Gate] = {}

    def ref(name: str) -> Gate:
        def check(value: Any) -> bool:
            return compiled[name](value)

        return check

    def build(node: dict[str, Any]) -> Gate:
        unknown = set(node) - _SUPPORTED
        if unknown:
            raise ValueError(f"compile_gate does not support {sorted(unknown)}")
        tests: list[Gate] = []
        if "$ref" in node:
            target = node["$ref"]
            if not target.startswith("#/$defs/"):
                raise ValueError(f"unsupported $ref {target}")
            tests.append(ref(target.removeprefix("#/$defs/")))
        if "type" in node:
            kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
            checks = [_TYPES[k] for k in kinds]
            tests.append(lambda v: any(c(v) for c in checks))
        if "enum" in node:
            allowed = node["enum"]
            tests.append(lambda v: any(v == a and type(v) is type(a) for a in allowed))
        number = _TYPES["number"]
        if "minimum" in node:
            low = node["minimum"]
            tests.append(lambda v: not number(v) or v >= low)
        if "maximum" in node:
            high = node["maximum"]
            tests.append(lambda v: not number(v) or v <= high)
        if "minLength" in node:
            length = node["minLength"]
            tests.append(lambda v: not isinstance(v, str) or len(v) >= length)
        if "items" in node:
            item = build(node["items"])
            tests.append(lambda v: not isinstance(v, list) or all(item(i) for i in v))
        if "properties" in node or "additionalProperties" in node or "required" in node:
            tests.append(_object_gate(node, build))
        if not tests:
            return lambda v: True
        if len(tests) == 1:
            return tests[0]
        return lambda v: all(t(v) for t in tests)

    for name, node in defs.items():
        compiled[name] = build(node)
    return build({k: v for k, v in schema.items() if k != "$defs"})


def _object_gate(node: dict[str, Any], build: Callable[[dict[str, Any]], Gate]) -> Gate:
    props = {k: build(v) for k, v in node.get("properties", {}).items()}
    extra = node.get("additionalProperties", True)
    extra_gate: Gate | None = None if isinstance(extra, bool) else build(extra)
    forbid = extra is False
    required = tuple(node.get("required", ()))

    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return True
        for key in required:
            if key not in value:
                return False
        for key, item in value.items():
            test = props.get(key)
            if test is not None:
                if not test(item):
                    return False
            elif forbid or (extra_gate is not None and not extra_gate(item)):
                return False
        return True

    return check


def schema_problems(data: Any, schema: dict[str, Any], rules: SchemaRules) -> list[Problem]:
    """Every schema violation in data as a Problem at its document path (the best match of each anyOf group)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    validator = Draft202012Validator(schema)
    problems: list[Problem] = []
    seen: set[tuple[str, Path, str]] = set()
    for err in validator.iter_errors(data):
        best = best_match([err]) if err.context else err
        for problem in _problems(best, rules):
            key = (problem.rule, problem.path, problem.message)
            if key not in seen:
                seen.add(key)
                problems.append(problem)
    return problems


def _problems(err: Any, rules: SchemaRules) -> Iterator[Problem]:
    path: Path = tuple(err.absolute_path)
    kind = err.validator
    where = _describe_path(path)
    if kind == "additionalProperties" and isinstance(err.instance, dict):
        known = sorted(err.schema.get("properties", {}))
        for key in err.instance:
            if key in known:
                continue
            yield rules.unknown_key.problem(
                f"unknown key `{key}` in {where}", (*path, key), hint=_did_you_mean(str(key), known), anchor="key"
            )
        return
    if kind == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        for key in missing:
            yield rules.missing_key.problem(f"{where} needs `{key}`", path, hint=_describe(err.schema, key))
        return
    yield rules.wrong_type.problem(_message(err, where), path, hint=_type_hint(err))


def _message(err: Any, where: str) -> str:
    value = err.instance
    shown = _show(value)
    kind = err.validator
    if kind == "type":
        kinds = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        wanted = " or ".join(_TYPE_WORDS.get(k, k) for k in kinds if k != "null")
        return f"{where} must be {wanted}, not {shown}"
    if kind == "enum":
        return f"{where} must be one of {', '.join(map(str, err.validator_value))}, not {shown}"
    if kind == "minimum":
        return f"{where} must be at least {err.validator_value}, not {shown}"
    if kind == "maximum":
        return f"{where} must be at most {err.validator_value}, not {shown}"
    if kind == "minLength":
        return f"{where} must not be empty"
    return f"{where}: {err.message}"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    text = str(value)
    return f"the string {text!r}" if len(text) <= 40 else f"the string {text[:37]!r}..."


def _describe_path(path: Path) -> str:
    """`applications[0].asks[2].priority` -> `priority` with its context: the last key, or `the document`."""
    if not path:
        return "the document"
    return f"`{format_path(path)}`"


def _describe(schema: dict[str, Any], key: str) -> str:
    prop = schema.get("properties", {}).get(key, {})
    return str(prop.get("description", ""))


def _type_hint(err: Any) -> str:
    """The schema's description of the value, or a note on quotes when a quoted scalar was meant as a number."""
    value = err.instance
    kinds = err.validator_value if err.validator == "type" else []
    kinds = kinds if isinstance(kinds, list) else [kinds]
    numeric = isinstance(value, str) and (value.lstrip("+-").isdigit() or value in ("true", "false"))
    if numeric and any(k in ("integer", "number", "boolean") for k in kinds):
        return "write it without quotes: a quoted value is a string."
    return str(err.schema.get("description", ""))


def _did_you_mean(key: str, known: list[str]) -> str:
    lowered = {k.lower(): k for k in known}
    if key.lower() in lowered:
        return f"did you mean `{lowered[key.lower()]}`? Keys are case-sensitive."
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    prefix = f"did you mean `{close[0]}`? " if close else ""
    return f"{prefix}known keys here: {', '.join(known)}."
