"""A fast reader for the simple subset of YAML that big workloads are written in, straight to plain data.

The subset: block mappings and sequences, an entry a line, whose values are plain scalars, one-line quoted scalars,
or flow collections written on one line as generators write them (`{key: value, key: [a, '']}`). Everything else
is declined (None) and read by the YAML reader: comments after a value, anchors, tags, aliases, block and multi-line
scalars, escapes, documents after the first, explicit or quoted keys, a colon or `#` in a plain scalar, commas and
brackets in a block one, other spacing in flow collections, tabs.

How: one linear-time expression (RE2) checks every line's tokens; one pass over the lines turns the block structure
into the same flow collection; string replacements turn that into JSON, which the json module reads in C, resolving
the scalars of each mapping as it makes it. What this reader accepts, libyaml reads to the same plain data
(tests/load/test_yamlsubset.py holds the two together): scalars resolve by the YAML reader's rule (`resolve`), keys
keep their text, and a repeated key is declined, as the YAML reader declines it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_FIRST = r"""[^ \n\-?:,\[\]{}#&*!|>'"%@`\\]"""
"""What may begin a plain scalar here: no indicator (a `-` may, when a word character follows it)."""
_WORD = r"""[^ \n,\[\]{}:#'"\\]"""
"""What may follow in a plain scalar here (spaces only between words)."""
_PLAIN = rf"(?:{_FIRST}|-{_WORD}){_WORD}*(?: +{_WORD}+)*"
_QUOTED = r""""[^"\\\n]*"|'(?:[^'\n]|'')*'"""
_FLOW = rf"[{{\[](?:[{{}}\[\]]|, |: |{_PLAIN}|{_QUOTED})*"
"""A flow collection's tokens, spaced as generators write them (json then checks how they nest)."""
_VALUE = rf"(?:{_PLAIN}|{_QUOTED}|{_FLOW})"
_ENTRY = rf"(?:(?:- +)?(?:{_PLAIN}:(?: +{_VALUE})?|{_VALUE})|-)"
_LINE = rf" *(?:#[^\n]*|{_ENTRY} *)?"
"""A line of the subset: blank, a comment, or an entry (a key, a sequence's dash, or both) and its value."""

MAX_NESTING = 1_000
"""Deepest block nesting, and most brackets on a line, read here (the YAML reader holds yaml.v3's limit, 10,000)."""
MAX_KEY = 1_000
"""Longest key read here: libyaml refuses a simple key longer than 1,024 characters."""
CHUNK = 4_096
"""Pieces of the flow text joined at a time."""
BLOCK = 1 << 20
"""Characters of the text split into lines at a time."""

NULL = "#"
"""Stands for a null in the flow text (no plain scalar here holds a `#`); a quoted scalar stands as `#` and its
number."""


@functools.cache
def _subset() -> Any:
    """The expression every text of the subset matches (RE2: linear time, whatever the text)."""
    import re2

    return re2.compile(rf"{_LINE}(?:\n{_LINE})*")


class _Declined(Exception):
    """The text is outside the subset."""


def read_subset(text: str, resolve: Callable[[str], Any]) -> Any:
    """The only document of a text as plain data, or None when the text is outside the subset (an empty document is
    declined too); `resolve` gives a plain scalar's value from its text."""
    if _subset().fullmatch(text) is None:
        return None
    values: dict[str, Any] = {NULL: None}
    resolver = _Resolver(values, resolve)
    try:
        data = json.loads(_as_json(_as_flow(text, values)), object_pairs_hook=resolver.mapping)
        if data.__class__ is list:
            resolver.sequence(data)
    except (_Declined, ValueError, RecursionError):
        return None
    return data


def _as_flow(text: str, quoted: dict[str, Any]) -> list[str]:
    """The block structure of a text of the subset as one flow collection, in pieces; its quoted scalars go into
    `quoted`, and stand in the flow as NULL and their number."""
    chunks: list[str] = []
    out: list[str] = []
    emit = out.append
    opened = False
    frames: list[list[Any]] = []
    """Open block collections, innermost last: [indent, is a mapping, a sequence at its key's indent, entries]."""
    pending = -1
    """The indent of the entry whose value comes on the lines below (-1: none)."""
    pending_in_map = False
    started = False
    for line in _lines(text):
        if len(out) > CHUNK:
            chunks.append("".join(out))  # (a list of millions of short pieces would cost more than the text)
            out.clear()
        rest = line.lstrip(" ")
        if not rest or rest[0] == "#":
            continue
        indent = len(line) - len(rest)
        rest = rest.rstrip(" ")
        if len(rest) > MAX_KEY and (
            max(map(len, rest.split(":"))) > MAX_KEY or rest.count("[") + rest.count("{") > MAX_NESTING
        ):
            raise _Declined  # a key may be too long (it lies between two colons, or a colon and the line's start)
        if indent == 0 and (rest[:3] == "---" or rest[:3] == "...") and rest[3:4] in ("", " "):
            if started or rest != "---":
                raise _Declined  # another document, or a marker the YAML reader reads
            started = True
            continue
        started = True
        entry = rest[0] == "-" and (len(rest) == 1 or rest[1] == " ")
        if pending >= 0:
            if indent > pending or (indent == pending and entry and pending_in_map):
                emit("[" if entry else "{")
                frames.append([indent, not entry, indent == pending, 0])
                if len(frames) > MAX_NESTING:
                    raise _Declined
            else:
                emit(NULL)
            pending = -1
        while frames and frames[-1][0] > indent:
            emit("}" if frames.pop()[1] else "]")
        if frames and frames[-1][2] and frames[-1][0] == indent and not entry:
            frames.pop()
            emit("]")
        if not frames:
            if opened:
                raise _Declined  # less indented than the document's first line
            opened = True
            emit("[" if entry else "{")
            frames.append([indent, not entry, False, 0])
        frame = frames[-1]
        if frame[0] != indent or frame[1] == entry:
            raise _Declined  # not where an entry of this collection can be: the YAML reader says why
        if frame[3]:
            emit(", ")
        frame[3] += 1
        if entry:
            content = rest[1:].lstrip(" ")
            if not content:
                pending, pending_in_map = indent, False
                continue
            if content[0] == "-" and (len(content) == 1 or content[1] == " "):
                raise _Declined  # a sequence in a sequence's entry
            colon = _key_colon(content)
            if colon < 0:
                emit(_value(content, quoted))
                continue
            indent += len(rest) - len(content)
            emit("{")
            frames.append([indent, True, False, 1])
            if len(frames) > MAX_NESTING:
                raise _Declined
            rest = content
        else:
            colon = _key_colon(rest)
            if colon < 0:
                raise _Declined  # a scalar where a key belongs
        key = rest[:colon]
        emit(key)
        emit(": ")
        value = rest[colon + 1 :].lstrip(" ")
        if value:
            emit(_value(value, quoted))
        else:
            pending, pending_in_map = indent, True
    if pending >= 0:
        emit(NULL)
    if not frames:
        raise _Declined  # no document
    while frames:
        emit("}" if frames.pop()[1] else "]")
    chunks.append("".join(out))
    return chunks


def _key_colon(entry: str) -> int:
    """Where an entry's key ends (its colon), or -1 when the entry is a value: in a text of the subset, a plain
    scalar holds no colon, and a flow collection or a quoted scalar is never a key."""
    return -1 if entry[0] in "{['\"" else entry.find(":")


def _lines(text: str) -> Iterator[str]:
    """The lines of a text, split a block at a time (a list of every line of a big text would cost more than it)."""
    start, end = 0, len(text)
    while start <= end:
        stop = text.find("\n", start + BLOCK)
        if stop < 0:
            stop = end
        yield from text[start:stop].split("\n")
        start = stop + 1


def _value(text: str, quoted: dict[str, Any]) -> str:
    """A value written on its entry's line, as the flow text has it (quoted scalars are set aside)."""
    first = text[0]
    if first == "'" or first == '"':
        return _stand_in(text, quoted)
    if (first == "{" or first == "[") and ("'" in text or '"' in text):
        parts = _quoted_split().split(text)
        for i in range(1, len(parts), 2):
            if not (parts[i - 1].endswith((", ", ": ", "{", "[")) and parts[i + 1].startswith((",", "}", "]"))):
                raise _Declined  # a quoted key, or a quoted scalar run into another token
            parts[i] = _stand_in(parts[i], quoted)
        return "".join(parts)
    return text


def _stand_in(text: str, quoted: dict[str, Any]) -> str:
    """Set a quoted scalar aside: what stands for it in the flow text."""
    stand_in = f"{NULL}{len(quoted)}"
    quoted[stand_in] = text[1:-1].replace("''", "'") if text[0] == "'" else text[1:-1]
    return stand_in


@functools.cache
def _quoted_split() -> re.Pattern[str]:
    """Splits a flow collection around its quoted scalars (kept, at odd places)."""
    return re.compile(f"({_QUOTED})")


def _as_json(flow: list[str]) -> str:
    """JSON for a flow text of the subset (in pieces), every scalar a string: each separator closes the string before
    it and opens the one after, and the empty strings this leaves between two brackets (and at the ends) are
    deleted."""
    separated = [
        piece.replace(", ", '","')
        .replace(": ", '":"')
        .replace("{", '"{"')
        .replace("}", '"}"')
        .replace("[", '"["')
        .replace("]", '"]"')
        for piece in flow
    ]
    flow.clear()
    return "".join(['"', *separated, '"']).replace('""', "")


class _Resolver:
    """Resolves the scalars of the JSON text's strings as json reads it (each mapping as it is made, so that its
    strings live no longer), declining a repeated key (json keeps one), as the YAML reader declines it."""

    def __init__(self, values: dict[str, Any], resolve: Callable[[str], Any]) -> None:
        self.values = values
        """Each scalar's value by its text (the stand-ins already in)."""
        self.resolve = resolve

    def mapping(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """A mapping from json's pairs: keys keep their text, values are resolved."""
        values = self.values
        get = values.get
        made: dict[str, Any] = {}
        for key, value in pairs:
            kind = value.__class__
            if kind is str:
                found = get(value, values)
                if found is values:
                    found = values[value] = self.resolve(value)
                value = found
            elif kind is list:
                self.sequence(value)
            made[key] = value
        if len(made) != len(pairs):
            raise _Declined
        return made

    def sequence(self, items: list[Any]) -> None:
        """Resolve a sequence's scalars in place (its mappings are made already; its sequences are done here)."""
        values = self.values
        get = values.get
        for index, value in enumerate(items):
            kind = value.__class__
            if kind is str:
                found = get(value, values)
                if found is values:
                    found = values[value] = self.resolve(value)
                items[index] = found
            elif kind is list:
                self.sequence(value)
