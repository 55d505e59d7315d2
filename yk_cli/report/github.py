"""`yk validate --format github`: GitHub Actions workflow commands, one group per file, then a summary line."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.diagnostics import Level, Problem
from yk_cli.report.locations import relative_path, span_of
from yk_cli.report.problems_text import summary_line

ANNOTATION_LIMIT = 10
"""GitHub shows at most this many error (and as many warning) annotations of one step."""


def escape_data(text: str) -> str:
    """Escape a workflow command's message: `%`, CR and LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command property value: `%`, CR, LF, `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(p: Problem, base: str) -> str:
    """One `::error file=..,line=..::message` command (the hint on a second line of the message)."""
    span = span_of(p)
    file, _ = relative_path(p.file, base)
    props = {
        "file": file,
        "line": str(span.line),
        "col": str(span.column),
        "endLine": str(span.end_line),
        "endColumn": str(span.end_column),
        "title": p.rule,
    }
    command = "error" if p.level == Level.ERROR else "warning"
    message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
    return f"::{command} {joined}::{escape_data(message)}"


def render(problems: Sequence[Problem], files: int, base: str) -> str:
    """Annotations grouped per file (in report order), then a plain summary line."""
    by_file: dict[str, list[Problem]] = {}
    for p in problems:
        by_file.setdefault(p.file, []).append(p)
    out: list[str] = []
    for file, found in by_file.items():
        out.append(f"::group::{escape_data(relative_path(file, base)[0])}")
        out.extend(annotation(p, base) for p in found)
        out.append("::endgroup::")
    summary = summary_line(problems, files)
    errors = sum(1 for p in problems if p.level == Level.ERROR)
    warnings = len(problems) - errors
    if errors > ANNOTATION_LIMIT or warnings > ANNOTATION_LIMIT:
        summary += (
            f" (GitHub shows only {ANNOTATION_LIMIT} annotations of each level per step: every problem is in this log)"
        )
    out.append(f"yk: {summary}")
    return "\n".join(out) + "\n"
