"""A fast reader for the plain YAML of large workload files: text -> plain data (no positions), or Unsupported.

A generated 100,000-ask workload is 15 MB of block YAML with one flow mapping per ask; ruamel.yaml's pure-Python
composer needs about a minute for it, this reader about a second. It reads a strict subset: block mappings and
sequences, `- key: value` entries, one-line plain and quoted scalars, one-line flow collections, comments.
Anything else (anchors, aliases, tags, block scalars, multi-line scalars or flow collections, escapes, tabs,
several documents, repeated keys, deep nesting, oddities of plain scalars) raises Unsupported and the caller
uses the full parser. Scalars resolve with the same function as the full parser (core.yamldoc.resolve_plain)
and keys keep their text, so the data is exactly what the full parser gives (tests/test_workload.py compares
both on every sample and on generated documents). Positions are not kept: the caller re-reads a text with the
full parser to locate problems, which a clean file never has.
"""

from __future__ import annotations

import re
from typing import Any

from yk_cli.core.yamldoc import plain_number, resolve_plain

MAX_DEPTH = 100
"""Deeper documents are left to the full parser (which enforces its own limit)."""

_AWKWARD = re.compile(
    "[\t\r\\\\&*!|>%@`\x85\u2028\u2029\ufeff]|[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
"""Characters this reader never interprets (tabs, escapes, anchors, aliases, tags, block scalars, ...)."""
_TOKEN = re.compile(
    r" *(?:"
    r"([\[\]{},])"  # 1: flow indicator
    r"|(:)(?=[ ,\[\]{}]|$)"  # 2: value indicator
    r"|\"([^\"]*)\""  # 3: double-quoted (no escapes: backslashes are awkward)
    r"|'((?:[^']|'')*)'"  # 4: single-quoted
    r"|([^ ,\[\]{}:#\"'?\-][^,\[\]{}:#]*?|-[^ ,\[\]{}:#][^,\[\]{}:#]*?)(?= *(?:[,\[\]{}]|:[ ,\[\]{}]|:$|$))"  # 5
    r")"
)
"""One token of a flow collection; a plain scalar (5) ends before a flow indicator, `: ` or the end."""
_PLAIN = re.compile(r"[^ #'\"\[\]{},:?\-][^#]*?|-[^ #][^#]*?")
"""A block plain scalar's text, up to a comment or the end (checked for `: ` separately)."""
_KEY = re.compile(r"([^ #'\"\[\]{},:?\-&*!|>%@`][^#]*?|-[^ #][^#]*?) *:(?: |$)")
"""A block mapping key and its `:`."""

_P = r"""(?:[^ ,\[\]{}:#"'?\-]|-[^ ,\[\]{}:#"'])(?:[^,\[\]{}:#"']*[^ ,\[\]{}:#"'])?"""
_INNER = rf" +(?:\{{ *(?:{_P} *: +{_P} *(?:, *{_P} *: +{_P} *)*)?\}}|\[ *(?:{_P} *(?:, *{_P} *)*)?\]|{_P}) *"
_SIMPLE_TEXT = rf"\{{ *(?:{_P} *:{_INNER}(?:, *{_P} *:{_INNER})*)?\}}"
_SIMPLE = re.compile(_SIMPLE_TEXT)
"""A flow mapping of plain scalars, one level of nesting at most, no quotes: the shape of a workload's asks.
Such lines are turned into JSON text with plain string replacements and parsed in one batch by the json module."""

_CANONICAL_INT = re.compile(r'"(-?(?:0|[1-9][0-9]{0,17}))"(?=[,}\]])')
"""A quoted decimal integer value that YAML and JSON read alike: unquoted before json.loads."""
_WORD = re.compile(r'"(true|True|TRUE|false|False|FALSE|null|Null|NULL|~)"(?=[,}\]])')
_JSON_WORDS = {"true": "true", "True": "true", "TRUE": "true", "false": "false", "False": "false", "FALSE": "false"}
_RISKY = re.compile(r'"(?:[-+.0-9][-+0-9._xXoObBa-fA-FeE:]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|<<)"(?=[,}\]])')
"""A quoted value that might resolve to a number (or a merge key) some other way: resolve every scalar then."""
_ASCII_AWKWARD = re.compile("[\t\r\\\\&*!|>%@`]")

_RESOLVED: dict[str, Any] = {}


class Unsupported(Exception):
    """The text uses YAML this reader leaves to the full parser."""


class _Pending:
    """A simple flow mapping whose value the batch conversion fills in."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class _Scalars(dict[str, Any]):
    """Plain scalar text -> value, filled on first use."""

    def __missing__(self, text: str) -> Any:
        value = self[text] = scalar(text)
        return value


def read(text: str) -> Any:
    """The only document of a text as plain data (dict, list, str, int, float, bool, None); raises Unsupported."""
    lines: list[tuple[int, str]] = []
    for raw in text.split("\n"):
        stripped = raw.lstrip(" ")
        if not stripped or stripped[0] == "#":
            continue
        if stripped.startswith(("---", "...")) and len(raw) == len(stripped):
            raise Unsupported("document marker")
        lines.append((len(raw) - len(stripped), stripped.rstrip(" ")))
    if not lines:
        return None
    content = "\n".join(text for _, text in lines)
    if (_ASCII_AWKWARD if content.isascii() else _AWKWARD).search(content):
        raise Unsupported("awkward character")
    reader = _Reader(lines, careful=False)
    value, k = reader.block(0, lines[0][0], 0)
    if reader.pending and not all(map(_SIMPLE.fullmatch, reader.pending)):
        reader = _Reader(lines, careful=True)  # some `- {` line is not simple: check them one by one
        value, k = reader.block(0, lines[0][0], 0)
    if k != len(lines):
        raise Unsupported("trailing content")
    if reader.pending:
        values = _convert(reader.pending)
        for container, key, index in reader.fixups:
            container[key] = values[index]
        for items, start, first, count in reader.runs:
            items[start : start + count] = values[first : first + count]
        if value.__class__ is _Pending:
            value = values[value.index]
    return value


def _convert(texts: list[str]) -> list[Any]:
    """Simple flow mappings (see _SIMPLE) -> values: quote every scalar with string replacements, parse as JSON."""
    import json

    joined = "[" + ",".join(texts) + "]"
    while True:  # no spaces next to indicators (the scalars themselves keep theirs)
        for spaced, tight in ((", ", ","), (" ,", ","), (": ", ":"), (" :", ":"), ("{ ", "{"), (" }", "}")):
            joined = joined.replace(spaced, tight)
        for spaced, tight in (("[ ", "["), (" ]", "]")):
            joined = joined.replace(spaced, tight)
        if "  " not in joined:  # single spaces next to indicators are all gone now
            break
    for indicator, quoted in (("{", '{"'), ("[", '["'), ("}", '"}'), ("]", '"]'), (",", '","'), (":", '":"')):
        joined = joined.replace(indicator, quoted)
    for wrong, right in (('"{', "{"), ('"[', "["), ('}"', "}"), (']"', "]"), ('{""}', "{}"), ('[""]', "[]")):
        joined = joined.replace(wrong, right)
    joined = "".join(_CANONICAL_INT.split(joined))  # split keeps the captured digits: a fast sub(r"\1")
    parts = _WORD.split(joined)
    parts[1::2] = [_JSON_WORDS.get(word, "null") for word in parts[1::2]]
    joined = "".join(parts)
    if not _RISKY.search(joined):  # every value is what YAML makes of it: let the json module build it all
        try:
            values: list[Any] = json.loads(joined)
        except ValueError as err:  # pragma: no cover - _SIMPLE admits only what converts
            raise Unsupported(f"flow mapping: {err}") from None
        keys = sum(map(len, values)) + sum(len(v) for d in values for v in d.values() if v.__class__ is dict)
        if keys != joined.count('":'):
            raise Unsupported("repeated key")
        return values
    scalars = _Scalars()

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = {
            k: scalars[v]
            if v.__class__ is str
            else [scalars[x] if x.__class__ is str else x for x in v]
            if v.__class__ is list
            else v
            for k, v in items
        }
        if len(out) != len(items):
            raise Unsupported("repeated key")
        return out

    try:
        values = json.loads(joined, object_pairs_hook=pairs)
    except ValueError as err:  # pragma: no cover - _SIMPLE admits only what converts
        raise Unsupported(f"flow mapping: {err}") from None
    return values


def scalar(text: str) -> Any:
    """A plain scalar's value as the full parser's plain data has it (cached: workloads repeat their values)."""
    value = _RESOLVED.get(text, _RESOLVED)
    if value is _RESOLVED:
        tag, resolved = resolve_plain(text)
        if tag == "merge":
            raise Unsupported("merge key")
        value = plain_number(tag, text, resolved) if tag in ("int", "float", "bool", "null") else text
        if len(_RESOLVED) < 100_000:
            _RESOLVED[text] = value
    return value


class _Reader:
    """Recursive descent over the content lines: (indentation, text without leading or trailing spaces)."""

    def __init__(self, lines: list[tuple[int, str]], careful: bool) -> None:
        self.lines = lines
        self.careful = careful
        """Check each `- {` line on its own (else they are checked in one batch afterwards)."""
        self.pending: list[str] = []
        """The texts of simple flow mappings, converted in one batch at the end."""
        self.fixups: list[tuple[Any, Any, int]] = []
        """(container, key or index, pending index) of each placeholder."""
        self.runs: list[tuple[list[Any], int, int, int]] = []
        """(list, first index, first pending index, count) of consecutive placeholders in a sequence."""

    def block(self, k: int, indent: int, depth: int) -> tuple[Any, int]:
        """The block node whose first line is content line k, at this indentation."""
        if depth > MAX_DEPTH:
            raise Unsupported("deep")
        text = self.lines[k][1]
        if text == "-" or text.startswith("- "):
            return self.sequence(k, indent, depth)
        if _KEY.match(text):
            return self.mapping(k, indent, text, depth)
        value = self.inline(text)
        return value, self.after_inline(k + 1, indent)

    def after_inline(self, k: int, indent: int) -> int:
        """A one-line value ends its node: a more indented line after it would continue it (unsupported)."""
        if k < len(self.lines) and self.lines[k][0] > indent:
            raise Unsupported("continuation line")
        return k

    def sequence(self, k: int, indent: int, depth: int) -> tuple[list[Any], int]:
        """A block sequence: entries `- ...` at this indentation."""
        items: list[Any] = []
        lines = self.lines
        size = len(lines)
        pending = self.pending
        careful = self.careful
        simple = _SIMPLE.fullmatch
        while k < size and lines[k][0] == indent:
            text = lines[k][1]
            if text[:3] == "- {" and (not careful or simple(text, 2)):  # one ask per line, converted in a batch
                start, first = len(items), len(pending)
                while True:
                    pending.append(text[2:])
                    items.append(None)
                    k += 1
                    if k >= size or lines[k][0] != indent:
                        break
                    text = lines[k][1]
                    if text[:3] != "- {" or (careful and not simple(text, 2)):
                        break
                self.runs.append((items, start, first, len(items) - start))
                if k < size and lines[k][0] > indent:
                    raise Unsupported("continuation line")
                continue
            if text == "-" or not text.startswith("- "):
                if text == "-":
                    raise Unsupported("entry on the next line")
                break
            rest = text[2:].lstrip(" ")
            col = indent + len(text) - len(rest)
            if rest.startswith("- ") or rest == "-":
                raise Unsupported("nested inline sequence")
            if _KEY.match(rest):
                value, k = self.mapping(k, col, rest, depth + 1)
            else:
                value = self.inline(rest)
                k = self.after_inline(k + 1, indent)
                if value.__class__ is _Pending:
                    self.fixups.append((items, len(items), value.index))
            items.append(value)
        return items, k

    def mapping(self, k: int, indent: int, first: str, depth: int) -> tuple[dict[str, Any], int]:
        """A block mapping whose first entry is `first` (on content line k) and whose keys start at `indent`."""
        out: dict[str, Any] = {}
        lines = self.lines
        text = first
        while True:
            match = _KEY.match(text)
            if match is None:
                raise Unsupported("not a key")
            key = match.group(1)
            if key in out:
                raise Unsupported("repeated key")
            rest = text[match.end() :].lstrip(" ")
            k += 1
            if not rest or rest[0] == "#":
                if k < len(lines) and lines[k][0] > indent:
                    out[key], k = self.block(k, lines[k][0], depth + 1)
                elif k < len(lines) and lines[k][0] == indent and (lines[k][1] == "-" or lines[k][1][:2] == "- "):
                    out[key], k = self.sequence(k, indent, depth + 1)
                else:
                    out[key] = None
            else:
                value = out[key] = self.inline(rest)
                k = self.after_inline(k, indent)
                if value.__class__ is _Pending:
                    self.fixups.append((out, key, value.index))
            if k >= len(lines) or lines[k][0] != indent:
                if k < len(lines) and lines[k][0] > indent:
                    raise Unsupported("bad indentation")
                return out, k
            text = lines[k][1]
            if text == "-" or text.startswith("- "):
                return out, k

    def inline(self, text: str) -> Any:
        """A one-line value: a flow collection, a quoted scalar or a plain scalar (with an optional comment)."""
        first = text[0]
        if first == "{" and _SIMPLE.fullmatch(text):
            self.pending.append(text)
            return _Pending(len(self.pending) - 1)
        if first in "[{":
            value, end = self.flow(text, 0, 0)
            _comment_only(text, end)
            return value
        if first in "'\"":
            match = _TOKEN.match(text)
            if match is None or (match.group(3) is None and match.group(4) is None):
                raise Unsupported("quoted scalar")
            _comment_only(text, match.end())
            return match.group(3) if match.group(3) is not None else match.group(4).replace("''", "'")
        match = _PLAIN.fullmatch(text.split(" #", 1)[0].rstrip(" "))
        if match is None or ": " in match.group(0) or match.group(0).endswith(":"):
            raise Unsupported("plain scalar")
        return scalar(match.group(0))

    def flow(self, text: str, pos: int, depth: int) -> tuple[Any, int]:
        """A flow collection starting at text[pos] (`[` or `{`): its value and the position after it."""
        if depth > MAX_DEPTH:
            raise Unsupported("deep")
        token = _TOKEN.match
        is_map = text[pos] == "{"
        close = "}" if is_map else "]"
        pos += 1
        items: list[Any] = []
        out: dict[str, Any] = {}
        while True:
            match = token(text, pos)
            if match is None:
                raise Unsupported("flow token")
            if match.group(1) == close and not (items or out):
                return (out if is_map else items), match.end()
            # an entry: a value (sequence) or `key: value` (mapping)
            value, pos = self.flow_node(text, match, depth)
            if is_map:
                if not isinstance(value, str) or value in out:
                    raise Unsupported("flow key")
                match = token(text, pos)
                if match is None or match.group(2) is None:
                    raise Unsupported("flow mapping without ':'")
                match = token(text, match.end())
                if match is None:
                    raise Unsupported("flow token")
                if match.group(1) in (",", "}"):
                    out[value] = None
                    pos = match.start(1)
                else:
                    out[value], pos = self.flow_node(text, match, depth)
            else:
                items.append(value)
            match = token(text, pos)
            if match is None or match.group(1) not in (",", close):
                raise Unsupported("flow separator")
            pos = match.end()
            if match.group(1) == close:
                return (out if is_map else items), pos
            following = token(text, pos)
            if following is not None and following.group(1) == close:
                return (out if is_map else items), following.end()  # a trailing comma

    def flow_node(self, text: str, match: re.Match[str], depth: int) -> tuple[Any, int]:
        """The node a flow token starts: a nested collection, a quoted or a plain scalar."""
        bracket = match.group(1)
        if bracket in ("[", "{"):
            return self.flow(text, match.start(1), depth + 1)
        if match.group(3) is not None:
            return match.group(3), match.end()
        if match.group(4) is not None:
            return match.group(4).replace("''", "'"), match.end()
        if match.group(5) is not None:
            return scalar(match.group(5)), match.end()
        raise Unsupported("flow token")


def _comment_only(text: str, pos: int) -> None:
    """What follows a closed value on its line must be nothing or a comment."""
    rest = text[pos:]
    if rest and not (rest.lstrip(" ").startswith("#") and rest[0] == " "):
        raise Unsupported("text after a value")
