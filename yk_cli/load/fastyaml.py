"""A fast composer for the plain block YAML of typical queue configs, giving exactly the nodes ruamel.yaml would.

ruamel.yaml's pure-Python scanner needs about 4 s per MB of queue config; this reads the common subset (block
mappings and sequences, one-line plain and quoted scalars, one-line flow collections, comments) line by line.
Anything else (anchors, tags, block scalars, multi-line scalars, several documents, escapes, tabs, syntax errors,
deep nesting) raises `Unsupported` and the caller uses ruamel.yaml, so results never depend on which path ran:
tests/test_fastyaml.py compares both node by node, spans included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from yk_cli.core.diagnostics import Span
from yk_cli.core.yamldoc import Node, resolve_plain

Mark = tuple[int, int]
"""A 0-based (line, column) of the parsed text."""
SpanOf = Callable[[Mark, Mark], Span]
"""Turns the start and end marks of a node into its span in the file shown to the user."""

_AWKWARD = re.compile("[\t\r\x85\u2028\u2029\ufeff]|[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters whose YAML treatment differs between parsers, or that ruamel.yaml refuses: left to ruamel."""
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_KEY_BAD = frozenset(",[]{}")
_FLOW_STOP = re.compile(r"[,\[\]{}#:]")
DEPTH_MARGIN = 2
"""Documents nested to within this many levels of the depth limit are left to ruamel (which reports the limit)."""


class Unsupported(Exception):
    """The text uses YAML this composer leaves to ruamel.yaml."""


def compose_document(text: str, span_of: SpanOf, max_depth: int, max_nodes: int) -> Node:
    """The only document of a text as Nodes; raises Unsupported when ruamel.yaml must read it."""
    return _Composer(text, span_of, max_depth, max_nodes).document()


class _Composer:
    """Recursive descent over the content lines (neither blank nor comment-only) of one document."""

    def __init__(self, text: str, span_of: SpanOf, max_depth: int, max_nodes: int) -> None:
        if _AWKWARD.search(text):
            raise Unsupported("awkward character")
        self.lines = text.split("\n")
        self.span_of = span_of
        self.max_depth = max_depth - DEPTH_MARGIN
        self.budget = max_nodes
        self.end: Mark = (len(self.lines) - 1, len(self.lines[-1]))
        content: list[tuple[int, int]] = []
        for number, line in enumerate(self.lines):
            stripped = line.lstrip(" ")
            if stripped and stripped[0] != "#":
                content.append((number, len(line) - len(stripped)))
        self.content = content
        self.indents = [indent for _, indent in content] + [-1]
        """Indentation of each content line, and -1 for the end of the text."""
        self.resolved: dict[str, tuple[str, object]] = {}
        """resolve_plain results by text: keys and values repeat a lot."""

    def mark(self, k: int) -> Mark:
        """Where the token of content line k starts, or the end of the text."""
        return self.content[k] if k < len(self.content) else self.end

    def indent(self, k: int) -> int:
        """The indentation of content line k, or -1 past the end."""
        return self.indents[k]

    def is_entry_line(self, k: int, col: int) -> bool:
        """Whether content line k holds a sequence entry at col."""
        return k < len(self.content) and _is_entry(self.lines[self.content[k][0]], col)

    def collection(
        self, kind: Literal["map", "seq"], start: Mark, end: Mark, items: list[Node], pairs: list[tuple[Node, Node]]
    ) -> Node:
        """A new mapping or sequence node, counted against the budget (ruamel's path refuses huge documents)."""
        self.budget -= 1
        if self.budget < 0:
            raise Unsupported("too many nodes")
        return Node(kind, self.span_of(start, end), kind, "", None, items, pairs, "")

    def scalar(self, text: str, style: str, start: Mark, end: Mark) -> Node:
        """A scalar node, its tag resolved the way yaml.v3 resolves it."""
        self.budget -= 1
        if self.budget < 0:
            raise Unsupported("too many nodes")
        if style:
            return Node("scalar", self.span_of(start, end), "str", text, text, [], [], style)
        resolved = self.resolved.get(text)
        if resolved is None:
            resolved = self.resolved[text] = resolve_plain(text)
        return Node("scalar", self.span_of(start, end), resolved[0], text, resolved[1], [], [], "")

    def document(self) -> Node:
        """The whole text as one document."""
        k = 0
        if self.content:
            number, indent = self.content[0]
            line = self.lines[number]
            if indent == 0 and _is_marker(line, "---"):
                rest = line[3:].lstrip(" ")
                if rest and rest[0] != "#":
                    raise Unsupported("content after ---")
                k = 1
        for number, indent in self.content[k:]:
            line = self.lines[number]
            if indent == 0 and (_is_marker(line, "---") or _is_marker(line, "...") or line.startswith("%")):
                raise Unsupported("several documents or directives")
        if k >= len(self.content):
            raise Unsupported("empty document")
        node, k = self.block(k, 0)
        if k != len(self.content):
            raise Unsupported("trailing content")  # pragma: no cover - block() consumes every line or raises
        return node

    def block(self, k: int, depth: int) -> tuple[Node, int]:
        """The block collection that starts at the first token of content line k."""
        if depth > self.max_depth:
            raise Unsupported("deep nesting")
        number, col = self.content[k]
        line = self.lines[number]
        if _is_entry(line, col):
            return self.sequence(k, col, False, depth)
        if _key(line, col) is not None:
            return self.mapping(k, col, depth)
        raise Unsupported("scalar on a line of its own")

    def mapping(self, k: int, col: int, depth: int) -> tuple[Node, int]:
        """A block mapping whose keys sit at column col, the first one on content line k."""
        if depth > self.max_depth:
            raise Unsupported("deep nesting")
        pairs: list[tuple[Node, Node]] = []
        start = (self.content[k][0], col)
        while True:
            number = self.content[k][0]
            line = self.lines[number]
            found = _key(line, col)
            if found is None:
                raise Unsupported("not a key")
            text, key_end, after = found
            key = self.scalar(text, "", (number, col), (number, key_end))
            q = _skip_spaces(line, after)
            if q >= len(line) or line[q] == "#":
                k += 1
                inner = self.indent(k)
                if inner > col:
                    value, k = self.block(k, depth + 1)
                elif inner == col and self.is_entry_line(k, col):
                    value, k = self.sequence(k, col, True, depth + 1)
                else:
                    here = self.mark(k)
                    value = self.scalar("", "", here, here)
            else:
                value = self.inline(line, number, q, depth + 1)
                k += 1
                if self.indent(k) > col:
                    raise Unsupported("continued scalar")
            pairs.append((key, value))
            inner = self.indent(k)
            if inner < col:
                return self.collection("map", start, self.mark(k), [], pairs), k
            if inner > col or self.is_entry_line(k, col):
                raise Unsupported("unexpected indentation")

    def sequence(self, k: int, col: int, indentless: bool, depth: int) -> tuple[Node, int]:
        """A block sequence whose dashes sit at column col, starting on content line k."""
        if depth > self.max_depth:
            raise Unsupported("deep nesting")
        items: list[Node] = []
        start = (self.content[k][0], col)
        while True:
            number = self.content[k][0]
            line = self.lines[number]
            q = _skip_spaces(line, col + 1)
            if q >= len(line) or line[q] == "#":
                k += 1
                if self.indent(k) > col:
                    item, k = self.block(k, depth + 1)
                else:  # ruamel puts an empty entry right after its dash
                    item = self.scalar("", "", (number, col + 1), (number, col + 1))
            elif _is_entry(line, q):
                raise Unsupported("nested sequence on one line")
            elif _key(line, q) is not None:
                item, k = self.mapping(k, q, depth + 1)
            else:
                item = self.inline(line, number, q, depth + 1)
                k += 1
                if self.indent(k) > col:
                    raise Unsupported("continued scalar")
            items.append(item)
            inner = self.indent(k)
            if inner < col:
                return self.collection("seq", start, self.mark(k), items, []), k
            if inner > col:
                raise Unsupported("unexpected indentation")
            if not self.is_entry_line(k, col):
                if indentless:
                    return self.collection("seq", start, self.mark(k), items, []), k
                raise Unsupported("key after a sequence")

    def inline(self, line: str, number: int, q: int, depth: int) -> Node:
        """A value that starts at column q and ends on this line: a plain or quoted scalar or a flow collection."""
        first = line[q]
        if first == '"' or first == "'":
            value, end = self.quoted(line, number, q)
        elif first == "{" or first == "[":
            value, end = self.flow(line, number, q, depth)
        elif first in _INDICATORS and not (first == "-" and q + 1 < len(line) and line[q + 1] not in " -"):
            raise Unsupported("indicator")
        else:
            cut = line.find(" #", q)
            text = (line[q:] if cut == -1 else line[q:cut]).rstrip(" ")
            if ": " in text or text.endswith(":") or text.startswith(("---", "...")):
                raise Unsupported("ambiguous plain scalar")
            return self.scalar(text, "", (number, q), (number, q + len(text)))
        rest = line[end:]
        stripped = rest.lstrip(" ")
        if stripped and not (stripped[0] == "#" and len(rest) > len(stripped)):
            raise Unsupported("text after a value")
        return value

    def quoted(self, line: str, number: int, q: int) -> tuple[Node, int]:
        """A one-line single- or double-quoted scalar at q (double-quoted without escapes), and the column after."""
        if line[q] == '"':
            close = line.find('"', q + 1)
            if close == -1 or "\\" in line[q + 1 : close]:
                raise Unsupported("escapes or a multi-line string")
            return self.scalar(line[q + 1 : close], '"', (number, q), (number, close + 1)), close + 1
        parts: list[str] = []
        pos = q + 1
        while True:
            close = line.find("'", pos)
            if close == -1:
                raise Unsupported("multi-line string")
            parts.append(line[pos:close])
            if close + 1 < len(line) and line[close + 1] == "'":
                parts.append("'")
                pos = close + 2
                continue
            return self.scalar("".join(parts), "'", (number, q), (number, close + 1)), close + 1

    def flow(self, line: str, number: int, q: int, depth: int) -> tuple[Node, int]:
        """A one-line flow mapping or sequence at q of simple scalars and flow collections, and the column after."""
        if depth > self.max_depth:
            raise Unsupported("deep nesting")
        is_map = line[q] == "{"
        close = "}" if is_map else "]"
        pairs: list[tuple[Node, Node]] = []
        items: list[Node] = []
        pos = _skip_spaces(line, q + 1)
        if pos >= len(line) or line[pos] != close:
            while True:
                item, pos = self.flow_item(line, number, pos, depth + 1)
                pos = _skip_spaces(line, pos)
                if is_map:
                    if pos + 1 >= len(line) or line[pos] != ":" or line[pos + 1] != " ":
                        raise Unsupported("flow mapping entry without ': '")
                    value, pos = self.flow_item(line, number, _skip_spaces(line, pos + 1), depth + 1)
                    pairs.append((item, value))
                    pos = _skip_spaces(line, pos)
                else:
                    items.append(item)
                if pos >= len(line):
                    raise Unsupported("multi-line flow collection")
                if line[pos] == close:
                    break
                if line[pos] != ",":
                    raise Unsupported("unexpected flow character")
                pos = _skip_spaces(line, pos + 1)
                if pos >= len(line) or line[pos] in ",]}":
                    raise Unsupported("empty flow entry")
        end = (number, pos + 1)
        if is_map:
            return self.collection("map", (number, q), end, [], pairs), pos + 1
        return self.collection("seq", (number, q), end, items, []), pos + 1

    def flow_item(self, line: str, number: int, pos: int, depth: int) -> tuple[Node, int]:
        """One scalar or nested collection inside a flow collection, and the column after it."""
        if pos >= len(line):
            raise Unsupported("multi-line flow collection")
        first = line[pos]
        if first == '"' or first == "'":
            return self.quoted(line, number, pos)
        if first == "{" or first == "[":
            return self.flow(line, number, pos, depth)
        if first in _INDICATORS and not (first == "-" and pos + 1 < len(line) and line[pos + 1] not in " -,]}:#"):
            raise Unsupported("indicator in a flow collection")
        match = _FLOW_STOP.search(line, pos)
        stop = match.start() if match else len(line)
        if match and match.group() == "#":
            raise Unsupported("'#' in a flow scalar")
        if match and match.group() == ":" and not (stop + 1 < len(line) and line[stop + 1] == " "):
            raise Unsupported("':' in a flow scalar")
        text = line[pos:stop].rstrip(" ")
        if not text:
            raise Unsupported("empty flow scalar")
        return self.scalar(text, "", (number, pos), (number, pos + len(text))), pos + len(text)


def _is_marker(line: str, marker: str) -> bool:
    """Whether the line starts with a document marker (`---` or `...`) standing alone."""
    return line.startswith(marker) and (len(line) == 3 or line[3] == " ")


def _is_entry(line: str, col: int) -> bool:
    """Whether a block sequence entry (`-` then a space or the line end) starts at col."""
    return line.startswith("-", col) and (len(line) == col + 1 or line[col + 1] == " ")


def _skip_spaces(line: str, pos: int) -> int:
    """The first column at or after pos that is not a space."""
    length = len(line)
    while pos < length and line[pos] == " ":
        pos += 1
    return pos


def _key(line: str, col: int) -> tuple[str, int, int] | None:
    """(key text, column after the key, column after the colon) of a plain `key:` at col, else None."""
    if col >= len(line) or line[col] in _INDICATORS:
        return None
    colon = line.find(":", col)
    while colon != -1 and colon + 1 < len(line) and line[colon + 1] != " ":
        colon = line.find(":", colon + 1)
    if colon == -1:
        return None
    text = line[col:colon]
    if " #" in text:
        return None
    stripped = text.rstrip(" ")
    if not _KEY_BAD.isdisjoint(text) or stripped == "<<":
        raise Unsupported("unusual key")
    return stripped, col + len(stripped), colon + 1
