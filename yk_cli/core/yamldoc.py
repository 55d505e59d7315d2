"""Parsed YAML documents as the core sees them: nodes with tags resolved like Go's yaml.v3, and their spans."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from yk_cli.core.diagnostics import Path, Span

NodeKind = Literal["map", "seq", "scalar"]

_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUES = {"true", "True", "TRUE"}
_FALSES = {"false", "False", "FALSE"}
_SPECIAL_FLOATS = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}
_YAML_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_TIMESTAMP = re.compile(r"^\d{4}-\d\d?-\d\d?([Tt ]|$)")
_GO_INT = re.compile(r"^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$")


def _go_parse_int(text: str) -> int | None:
    """strconv.ParseInt/ParseUint with base 0 (after yaml.v3 drops underscores), or None."""
    plain = text.replace("_", "")
    if not _GO_INT.match(plain):
        return None
    sign = -1 if plain.startswith("-") else 1
    digits = plain.lstrip("+-")
    lowered = digits.lower()
    if lowered.startswith("0x"):
        value = int(digits[2:], 16)
    elif lowered.startswith("0o"):
        value = int(digits[2:], 8)
    elif lowered.startswith("0b"):
        value = int(digits[2:], 2)
    elif len(digits) > 1 and digits.startswith("0"):
        value = int(digits[1:], 8)
    else:
        value = int(digits)
    value *= sign
    if -(2**63) <= value < 2**64:
        return value
    return None


_WHOLE = re.compile(r"[-+]?[0-9][0-9_]*")


def plain_number(tag: str, text: str, value: object) -> object:
    """A scalar's value for plain data: a whole number too large for int64, which YAML resolves to a float, stays
    the integer written, so that it prints as its digits (never as 1e+20)."""
    if tag == "float" and _WHOLE.fullmatch(text):
        return int(text.replace("_", ""))
    return value


def resolve_plain(text: str) -> tuple[str, object]:
    """Resolve an unquoted scalar the way yaml.v3 does: (short tag, value)."""
    if text in _NULLS:
        return "null", None
    if text in _TRUES:
        return "bool", True
    if text in _FALSES:
        return "bool", False
    if text in _SPECIAL_FLOATS:
        return "float", float(text.replace(".", "").lower().replace("+", ""))
    if text == "<<":
        return "merge", text
    if text[0] in "+-0123456789.":
        if text[0] in "0123456789" and _TIMESTAMP.match(text):
            return "timestamp", text
        as_int = _go_parse_int(text)
        if as_int is not None:
            return "int", as_int
        plain = text.replace("_", "")
        if _YAML_FLOAT.match(plain):
            try:
                return "float", float(plain)
            except ValueError:  # pragma: no cover - the regex only admits float syntax
                pass
    return "str", text


@dataclass(slots=True, eq=False)
class Node:
    """One YAML node: a mapping, a sequence or a scalar, with its span in the file it came from."""

    kind: NodeKind
    span: Span
    tag: str = "str"
    """Short yaml.v3 tag: map, seq, str, int, float, bool, null, timestamp, binary."""
    text: str = ""
    """Scalar source text (the value yaml.v3 calls n.Value)."""
    value: object = None
    """Resolved scalar value (int, float, bool, str or None)."""
    items: list[Node] = field(default_factory=list)
    pairs: list[tuple[Node, Node]] = field(default_factory=list)
    style: str = ""
    """'' for plain scalars, or the quote / block indicator."""

    def get(self, key: str) -> Node | None:
        """The value of the first mapping entry with this key, or None."""
        for k, v in self.pairs:
            if k.kind == "scalar" and k.text == key:
                return v
        return None

    def lookup(self, *keys: str) -> Node | None:
        """A nested mapping value (`obj.lookup("metadata", "name")`); None when a step is missing or not a mapping,
        and when the value is a YAML null (Kubernetes and Go decoders treat an explicit null as absent)."""
        node: Node | None = self
        for key in keys:
            if node is None or node.kind != "map":
                return None
            node = node.get(key)
        if node is not None and node.kind == "scalar" and node.tag == "null":
            return None
        return node

    def lookup_text(self, *keys: str) -> str:
        """The source text of the scalar at a nested key; "" when absent, null or not a scalar."""
        node = self.lookup(*keys)
        return node.text if node is not None and node.kind == "scalar" else ""

    def describe(self) -> str:
        """yaml.v3's way of naming a node in a type error: '!!str `fair`', '!!seq'."""
        if self.kind != "scalar":
            return f"!!{self.tag}"
        text = self.text if len(self.text) <= 10 else self.text[:7] + "..."
        return f"!!{self.tag} `{text}`"

    def in_words(self) -> str:
        """The node in words, for yk's own messages (describe() is for yaml.v3's): 'a string `fair`', 'a mapping',
        'a list', 'a whole number `3`', 'null'."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.tag == "null":
            return "an empty value" if self.text.strip() in ("", "~") else "null"
        text = self.text if len(self.text) <= 20 else self.text[:17] + "..."
        return f"{_TAG_WORDS.get(self.tag, 'a ' + self.tag)} `{text}`"


_TAG_WORDS = {
    "str": "a string",
    "int": "a whole number",
    "float": "a number",
    "bool": "a boolean",
    "timestamp": "a timestamp",
    "binary": "binary data",
    "merge": "a merge key",
}
"""A scalar's tag in words."""


@dataclass(slots=True)
class SourceMap:
    """Document path -> (key span, value span), built once from a document's root node."""

    keys: dict[Path, Span] = field(default_factory=dict)
    values: dict[Path, Span] = field(default_factory=dict)

    @classmethod
    def of(cls, root: Node | None) -> SourceMap:
        """Index every node under root by its document path (the first of duplicate keys wins)."""
        smap = cls()
        if root is None:
            return smap
        stack: list[tuple[Path, Node]] = [((), root)]
        while stack:
            path, node = stack.pop()
            if path not in smap.values:
                smap.values[path] = node.span
            if node.kind == "map":
                for k, v in node.pairs:
                    if k.kind != "scalar":
                        continue
                    child = (*path, k.text)
                    if child in smap.keys:
                        continue
                    smap.keys[child] = k.span
                    stack.append((child, v))
            elif node.kind == "seq":
                for i, item in enumerate(node.items):
                    stack.append(((*path, i), item))
        return smap

    def span(self, path: Path, anchor: str = "value") -> Span | None:
        """The span of the key or value at path, falling back to the nearest ancestor that exists."""
        probe = path
        while True:
            if anchor == "key" and probe in self.keys:
                return self.keys[probe]
            if probe in self.values:
                return self.values[probe]
            if not probe:
                return None
            if probe in self.keys:
                return self.keys[probe]
            probe = probe[:-1]
            anchor = "key"
