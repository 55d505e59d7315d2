"""Problems found in inputs, their levels and positions, and the exit-code policy."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

PathPart = str | int
Path = tuple[PathPart, ...]

EXIT_OK = 0
"""No failing problems."""
EXIT_PROBLEMS = 1
"""Errors were found, or warnings under --strict."""
EXIT_USAGE = 2
"""Bad command line or unreadable input."""


class Level(StrEnum):
    """How serious a problem is."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A region of a file: 1-based line and column; end_column is the column after the last character."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, addressed by its document path and, once located, its span."""

    rule: str
    level: Level
    message: str
    path: Path = ()
    hint: str = ""
    anchor: Literal["key", "value"] = "value"
    """Whether the problem is about the key at `path` or its value."""
    span: Span | None = None
    file: str = ""

    def located(self, span: Span | None, file: str) -> Problem:
        """The same problem with its position filled in."""
        return replace(self, span=span if span is not None else self.span, file=file)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Order of problems in every report: file, line, column, rule, message."""
        span = self.span or Span(0, 0, 0, 0)
        return (self.file, span.line, span.column, self.rule, self.message)


@dataclass(frozen=True, slots=True)
class Rule:
    """A kind of problem: id, default level, one-line summary and the full documentation."""

    id: str
    level: Level
    summary: str
    doc: str

    def problem(self, message: str, path: Path = (), hint: str = "", anchor: str = "value") -> Problem:
        """A problem of this rule at a document path."""
        return Problem(
            rule=self.id,
            level=self.level,
            message=message,
            path=path,
            hint=hint,
            anchor="key" if anchor == "key" else "value",
        )


def error(rule_id: str, summary: str, doc: str) -> Rule:
    """Declare an error rule (YuniKorn refuses the config)."""
    return Rule(rule_id, Level.ERROR, summary, doc)


def warning(rule_id: str, summary: str, doc: str) -> Rule:
    """Declare a warning rule (YuniKorn accepts the config but does not do what it says)."""
    return Rule(rule_id, Level.WARNING, summary, doc)


def format_path(path: Path) -> str:
    """Render a document path as `partitions[0].queues[1].properties.priority.offset`."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        else:
            out.append(f".{part}" if out else part)
    return "".join(out)


def exit_code(problems: list[Problem], strict: bool = False) -> int:
    """The process exit status for a set of problems: the one place that decides it."""
    failing = {Level.ERROR, Level.WARNING} if strict else {Level.ERROR}
    return EXIT_PROBLEMS if any(p.level in failing for p in problems) else EXIT_OK
