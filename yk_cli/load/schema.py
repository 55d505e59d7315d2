"""JSON Schema checks of plain YAML data: jsonschema errors as Problems at their document path, with a fast gate.

jsonschema is thorough but slow (about 100 µs per object); `compile_gate` turns the small keyword subset yk's
schemas use into closures that only answer "valid?" a hundred times faster. jsonschema runs only when the gate
says no, so a clean 100,000-ask workload never pays for it, and the problems still come from jsonschema.
"""

from __future__ import annotations

import difflib
import json
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from yk_cli.core.diagnostics import Path, Problem, Rule, format_path

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
    data = pkgutil.get_data("yk_cli", f"data/{name}")  # (importlib.resources would cost a start-up's 12 ms)
    if data is None:  # pragma: no cover - a loader without get_data
        raise FileNotFoundError(f"yk_cli/data/{name}")
    schema: dict[str, Any] = json.loads(data.decode("utf-8"))
    return schema


def compile_gate(schema: dict[str, Any]) -> Gate:
    """A fast validity test equivalent to jsonschema for the supported keywords (others raise ValueError).

    The schema becomes Python source: one function per definition and per object or array, each an inline chain
    of type and range tests, so checking 100,000 asks costs a few hundred milliseconds instead of seconds.
    """
    return _Codegen(schema).compile()


class _Codegen:
    """Writes the source of a gate: functions _d_<def> for definitions, _gN for objects and arrays."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.source: list[str] = []
        self.constants: dict[str, Any] = {}
        self.count = 0

    def compile(self) -> Gate:
        for name, node in self.defs.items():
            self.function(f"_d_{_ident(name)}", node)
        top = self.function("_top", {k: v for k, v in self.schema.items() if k != "$defs"})
        namespace: dict[str, Any] = dict(self.constants)
        exec("\n".join(self.source), namespace)  # the source comes from our own schema
        gate: Gate = namespace[top]
        return gate

    def function(self, name: str, node: dict[str, Any]) -> str:
        """Emit `def name(v): return <test of v>` and return the name."""
        self.source.append(f"def {name}(v):\n    return {self.expr(node, 'v')}")
        return name

    def constant(self, value: Any) -> str:
        self.count += 1
        name = f"_c{self.count}"
        self.constants[name] = value
        return name

    def expr(self, node: dict[str, Any], var: str) -> str:
        """A Python expression that is true when var satisfies node."""
        unknown = set(node) - _SUPPORTED
        if unknown:
            raise ValueError(f"compile_gate does not support {sorted(unknown)}")
        number = f"({var}.__class__ is int or {var}.__class__ is float)"
        tests: list[str] = []
        if "$ref" in node:
            target = node["$ref"]
            if not target.startswith("#/$defs/") or target.removeprefix("#/$defs/") not in self.defs:
                raise ValueError(f"unsupported $ref {target}")
            tests.append(f"_d_{_ident(target.removeprefix('#/$defs/'))}({var})")
        if "type" in node:
            kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
            tests.append("(" + " or ".join(_type_test(kind, var) for kind in kinds) + ")")
        if "enum" in node:
            allowed = self.constant(frozenset((type(a), a) for a in node["enum"]))
            classes = self.constant(frozenset(type(a) for a in node["enum"]))
            tests.append(f"({var}.__class__ in {classes} and ({var}.__class__, {var}) in {allowed})")
        if "minimum" in node:
            tests.append(f"(not {number} or {var} >= {node['minimum']!r})")
        if "maximum" in node:
            tests.append(f"(not {number} or {var} <= {node['maximum']!r})")
        if "minLength" in node:
            tests.append(f"({var}.__class__ is not str or len({var}) >= {node['minLength']!r})")
        if "items" in node:
            self.count += 1
            name = f"_g{self.count}"
            item = self.expr(node["items"], "x")
            loop = f"    for x in v:\n        if not ({item}):\n            return False\n    return True"
            self.source.append(f"def {name}(v):\n{loop}")
            tests.append(f"({var}.__class__ is not list or {name}({var}))")
        if "properties" in node or "additionalProperties" in node or "required" in node:
            tests.append(f"({var}.__class__ is not dict or {self.object_function(node)}({var}))")
        return " and ".join(tests) if tests else "True"

    def object_function(self, node: dict[str, Any]) -> str:
        """Emit the loop over a mapping's keys: required keys, known keys' tests, additionalProperties."""
        self.count += 1
        name = f"_g{self.count}"
        body = [f"def {name}(v):"]
        for key in node.get("required", ()):
            body.append(f"    if {key!r} not in v:\n        return False")
        body.append("    for k, x in v.items():")
        branch = "if"
        for key, sub in node.get("properties", {}).items():
            test = self.expr(sub, "x")
            body.append(f"        {branch} k == {key!r}:\n            if not ({test}):\n                return False")
            branch = "elif"
        extra = node.get("additionalProperties", True)
        if extra is False:
            rest = "return False"
        elif extra is True:
            rest = "pass"
        else:
            rest = f"if not ({self.expr(extra, 'x')}):\n                return False"
        body.append(f"        else:\n            {rest}" if branch == "elif" else f"        {rest}")
        body.append("    return True")
        self.source.append("\n".join(body))
        return name


def _ident(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def _type_test(kind: str, var: str) -> str:
    """The Python test of one JSON Schema type (booleans are not numbers; 1.0 is an integer)."""
    tests = {
        "object": f"{var}.__class__ is dict",
        "array": f"{var}.__class__ is list",
        "string": f"{var}.__class__ is str",
        "boolean": f"{var}.__class__ is bool",
        "null": f"{var} is None",
        "integer": f"{var}.__class__ is int or ({var}.__class__ is float and {var}.is_integer())",
        "number": f"{var}.__class__ is int or {var}.__class__ is float",
    }
    if kind not in tests:
        raise ValueError(f"unsupported type {kind}")
    return tests[kind]


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
        wanted = " or ".join(_TYPE_WORDS.get(k) or k for k in kinds if k != "null")
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
