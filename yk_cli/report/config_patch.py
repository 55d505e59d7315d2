"""A queue config's text with settings changed in place: each value replaced where it is written, or added under
the nearest mapping that is (block or flow style, JSON quoting kept); where each edit is, and a unified diff."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from yk_cli.core.diagnostics import Path, Span
from yk_cli.core.yamldoc import SourceMap

SET, ADD = "set", "add"


@dataclass(frozen=True, slots=True)
class Edit:
    """One setting's edit: set where written, or added under the mapping at `line`:`column`; `reason` when the
    text cannot be edited in place (then the edit is only described)."""

    document_path: Path
    value: str
    action: str
    line: int
    column: int
    keys: tuple[str, ...] = ()
    """The keys added (ADD), outermost first."""
    reason: str = ""


@dataclass(slots=True)
class Patched:
    """The edited text (None when some edit could not be made) and every edit in the order given."""

    text: str | None
    edits: list[Edit]


def patch(text: str, source_map: SourceMap, settings: Sequence[tuple[Path, str]]) -> Patched:
    """The text with each (document path, value) set; edits are made from the end of the text back so that the
    spans of the earlier ones stay true."""
    lines = text.splitlines(keepends=True)
    edits = [_edit(lines, source_map, path, value) for path, value in settings]
    if any(e.reason for e in edits):
        return Patched(None, edits)
    def place(pair: tuple[Edit, tuple[Path, str]]) -> tuple[int, int]:
        """Where an edit goes; at one line, an outer mapping's addition first so an inner one's ends up above it."""
        edit, (path, _) = pair
        if edit.action == SET:
            return (edit.line, edit.column)
        span = source_map.values[path[: len(path) - len(edit.keys)]]
        if _char(lines, span.line, span.column) == "{":
            return (span.end_line, span.end_column)
        return (_last_line(lines, span), -span.column)

    for edit, (path, value) in sorted(zip(edits, settings, strict=True), key=place, reverse=True):
        _apply(lines, source_map, edit, path, value)
    return Patched("".join(lines), edits)


def unified_diff(old: str, new: str, name: str) -> str:
    """`diff -u` of two texts of one file, its relative name a/ and b/ prefixed as git shows it (`git apply`,
    `patch -p1`)."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/{name}", f"b/{name}"))


def _edit(lines: list[str], source_map: SourceMap, path: Path, value: str) -> Edit:
    span = source_map.values.get(path)
    if span is not None:
        if span.end_line != span.line:
            return Edit(path, value, SET, span.line, span.column, reason="the value spans several lines")
        return Edit(path, value, SET, span.line, span.column)
    depth = len(path) - 1
    while depth > 0 and path[:depth] not in source_map.values:
        depth -= 1
    owner = path[:depth]
    keys = tuple(str(k) for k in path[depth:])
    span = source_map.values.get(owner)
    if span is None:
        return Edit(path, value, ADD, 1, 1, keys, "no mapping of the config holds it")
    start = _char(lines, span.line, span.column)
    if start == "{":
        return Edit(path, value, ADD, span.line, span.column, keys)
    if not _children(source_map, owner):
        return Edit(path, value, ADD, span.line, span.column, keys, f"{owner[-1]} holds no mapping to add to")
    return Edit(path, value, ADD, span.line, span.column, keys)


def _children(source_map: SourceMap, owner: Path) -> list[Span]:
    return [span for key, span in source_map.keys.items() if len(key) == len(owner) + 1 and key[:-1] == owner]


def _char(lines: list[str], line: int, column: int) -> str:
    return lines[line - 1][column - 1] if 0 < line <= len(lines) and 0 < column <= len(lines[line - 1]) else ""


def _apply(lines: list[str], source_map: SourceMap, edit: Edit, path: Path, value: str) -> None:
    if edit.action == SET:
        span = source_map.values[path]
        row = lines[edit.line - 1]
        old = row[span.column - 1 : span.end_column - 1]
        quote = old[0] if old[:1] in ("'", '"') else ""
        new = json.dumps(value) if quote == '"' else f"{quote}{value}{quote}"
        lines[edit.line - 1] = row[: span.column - 1] + new + row[span.end_column - 1 :]
        return
    owner = path[: len(path) - len(edit.keys)]
    span = source_map.values[owner]
    if _char(lines, span.line, span.column) == "{":
        _add_flow(lines, source_map, owner, span, edit.keys, value)
    else:
        _add_block(lines, span, edit.keys, value)


def _add_flow(
    lines: list[str], source_map: SourceMap, owner: Path, span: Span, keys: tuple[str, ...], value: str
) -> None:
    """Add `k1: {k2: value}` before the flow mapping's closing brace (JSON-quoted when its keys are)."""
    children = sorted(_children(source_map, owner), key=lambda s: (s.line, s.column))
    quoted = bool(children) and _char(lines, children[0].line, children[0].column) == '"'
    fragment = json.dumps(value) if quoted else value
    for key in reversed(keys):
        name = json.dumps(key) if quoted else key
        fragment = f"{name}: {fragment}" if key == keys[-1] else f"{name}: {{{fragment}}}"
    row = lines[span.end_line - 1]
    close = span.end_column - 2
    while close > 0 and row[close] != "}":
        close -= 1
    separator = ", " if children else ""
    lines[span.end_line - 1] = row[:close].rstrip() + separator + fragment + row[close:]


def _last_line(lines: list[str], span: Span) -> int:
    """The last line with text of a block mapping (its span runs to where the next item starts)."""
    last = span.end_line
    if last > len(lines) or not lines[last - 1][: span.end_column - 1].strip():
        last -= 1
    while last > span.line and not lines[last - 1].strip():
        last -= 1
    return last


def _add_block(lines: list[str], span: Span, keys: tuple[str, ...], value: str) -> None:
    """Add the keys, nested two spaces a level, after the block mapping's last line, at its keys' indentation."""
    last = _last_line(lines, span)
    indent = " " * (span.column - 1)
    added = [f"{indent}{'  ' * depth}{key}:{' ' + value if depth == len(keys) - 1 else ''}\n"
             for depth, key in enumerate(keys)]
    if last >= 1 and not lines[last - 1].endswith("\n"):
        lines[last - 1] += "\n"
    lines[last:last] = added
