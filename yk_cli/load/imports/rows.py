"""What every importer shares: reading the file, counting progress, collecting bad rows with their file:line:col."""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from yk_cli.core.diagnostics import Level, Problem, Rule, Span
from yk_cli.core.workload.imports import RecordedJob
from yk_cli.load.source import InputError, decode_text, shown_name

MAX_IMPORT_BYTES = 4 * 1024**3
"""Largest trace read (a month of a busy cluster's jobs fits many times over)."""
SHOWN_PROBLEMS = 50
"""Most bad rows reported in full; the rest are counted."""


class TraceError(ValueError):
    """A trace not in the format read (a column a flag names or the format needs is missing, no pod in a pods
    history): a usage error, the message says which."""


@dataclass(slots=True)
class Tick:
    """Progress of a reader, read by the progress bar from another thread: rows done of about `total`."""

    done: int = 0
    total: int = 0


@dataclass(slots=True)
class Imported:
    """A trace read: its jobs in file order, the problems (bad rows), and what was left out and why."""

    file: str
    text: str
    jobs: list[RecordedJob] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    hidden: int = 0
    """Bad rows found beyond the SHOWN_PROBLEMS reported."""
    rows: int = 0
    """Records read (data rows, pods)."""
    notes: list[str] = field(default_factory=list)
    """What was left out or changed, one sentence each (`12 jobs that never started are left out`)."""
    absolute: bool = True
    """Whether the trace's times are timestamps (Unix time), not a clock of its own."""
    node_names: list[str] = field(default_factory=list)
    """Nodes the trace names (a pod's spec.nodeName), in order of first appearance."""


def read_text(name: str) -> tuple[str, str]:
    """The display name and UTF-8 text of a trace ('-' for standard input); InputError when it cannot be read."""
    display = shown_name(name)
    if name == "-":
        data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
    else:
        path = Path(name)
        if not path.exists():
            raise InputError(f"{name}: no such file")
        if path.is_dir():
            raise InputError(f"{name}: is a directory, not a file")
        try:
            data = path.read_bytes()
        except OSError as err:
            raise InputError(f"{name}: cannot read: {err.strerror or err}") from err
    if len(data) > MAX_IMPORT_BYTES:
        raise InputError(f"{display}: more than {MAX_IMPORT_BYTES} bytes is too large")
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None
        where = f":{problem.span.line}:{problem.span.column}" if problem.span else ""
        message = problem.message.replace("queue configs", "traces").replace("not YAML text", "not a text trace")
        raise InputError(f"{display}{where}: {message}")
    return display, text


def header_of(text: str, display: str, delimiter: str) -> tuple[list[str], Any, int]:
    """The header row (names stripped), the reader positioned after it, and its line; TraceError when empty."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        if row and any(cell.strip() for cell in row):
            return [cell.strip() for cell in row], reader, reader.line_num
    raise TraceError(f"{display} has no header row: the first line must name the columns")


def column(header: list[str], name: str, display: str, what: str, flag: str) -> int:
    """The index of a column named by a flag (or by the format); TraceError with the columns there are."""
    if name in header:
        return header.index(name)
    folded = [h.lower() for h in header]
    if name.lower() in folded:
        return folded.index(name.lower())
    import difflib

    close = difflib.get_close_matches(name, header, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise TraceError(
        f"{display} has no column {name!r} for {what}{hint}; name it with {flag} COLUMN. Its columns: "
        + ", ".join(header)
    )


def optional_column(header: list[str], name: str) -> int | None:
    """The index of a default column when the header has it (any case), else None."""
    folded = [h.lower() for h in header]
    return folded.index(name.lower()) if name.lower() in folded else None


def records(reader: Any, bad: BadRows) -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) of each row after the header; a row the csv module cannot read (an overlong field) is a
    bad row, and reading goes on."""
    previous = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            bad.add(previous + 1, -1, f"the row cannot be read as CSV: {err}")
            previous = reader.line_num
            continue
        line, previous = previous + 1, reader.line_num
        yield line, row


def width_problem(found: int, header: int) -> str:
    """The message of a row with another number of fields than the header."""
    return f"the row has {found} field{'s' if found != 1 else ''}, the header {header}"


@dataclass(slots=True)
class BadRows:
    """Bad rows of one file, reported at their line and the column they are about; warnings when skipped."""

    file: str
    rule: Rule
    skip: bool
    found: list[tuple[int, int, str, str]] = field(default_factory=list)
    """(line, field index or -1, message, hint) of the first SHOWN_PROBLEMS bad rows."""
    count: int = 0
    spans: dict[int, Span] = field(default_factory=dict)
    """Spans given with add_at, by position in `found`."""

    def add(self, line: int, index: int, message: str, hint: str = "") -> None:
        """A bad row at a line, about the field at `index` (-1: the whole row)."""
        self.count += 1
        if len(self.found) < SHOWN_PROBLEMS:
            self.found.append((line, index, message, hint))

    def add_at(self, span: Span, message: str, hint: str = "") -> None:
        """A bad record at a YAML node's span (a pod's field)."""
        self.count += 1
        if len(self.found) < SHOWN_PROBLEMS:
            self.spans[len(self.found)] = span
            self.found.append((span.line, -1, message, hint))

    def problems(self, text: str, delimiter: str = ",") -> list[Problem]:
        """The bad rows as located problems (errors, or warnings when skipped): the field's columns when the line
        splits plainly on the delimiter, else the whole line."""
        if not self.found:
            return []
        wanted = {line for line, *_ in self.found if line}
        lines: dict[int, str] = {}
        for number, source in enumerate(io.StringIO(text), 1):
            if number in wanted:
                lines[number] = source.rstrip("\r\n")
                if len(lines) == len(wanted):
                    break
        out = []
        for k, (line, index, message, hint) in enumerate(self.found):
            source = lines.get(line, "")
            span = self.spans.get(k) or Span(line, 1, line, max(len(source), 1) + 1)
            parts = source.split(delimiter)
            if 0 <= index < len(parts) and '"' not in source:
                start = sum(len(part) + 1 for part in parts[:index]) + 1
                span = Span(line, start, line, start + max(len(parts[index]), 1))
            problem = self.rule.problem(message, hint=hint).located(span, self.file)
            out.append(replace(problem, level=Level.WARNING) if self.skip else problem)
        return out

    def hidden(self) -> int:
        """Bad rows found beyond those reported."""
        return self.count - len(self.found)

