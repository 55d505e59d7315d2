"""`yk diff --format github`: workflow-command annotations on the lines of NEW that caused a change, then the
summary line."""

from __future__ import annotations

from yk_cli.core.diagnostics import Span
from yk_cli.core.diff.model import Diff
from yk_cli.core.diff.verdict import FailOn
from yk_cli.report.diff_common import Note, change_notes, order_notes, summary_line, summary_note
from yk_cli.report.github import annotation, escape_data, escape_property
from yk_cli.report.locations import relative_path


def _command(level: str, file: str, base: str, span: Span | None, title: str, message: str) -> str:
    props = {"file": relative_path(file, base)[0]}
    if span is not None:
        props.update({"line": str(span.line), "col": str(span.column)})
    props["title"] = title
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
    return f"::{level} {joined}::{escape_data(message)}"


def _note(note: Note, file: str, base: str) -> str:
    return _command(note.level, file, base, note.span, note.title, note.message)


def render(diff: Diff, fail_on: list[FailOn], failing: list[FailOn], base: str) -> str:
    """Asks in another start order first, introduced problems at their level, changed settings and queues as
    notices, priority drops as warnings (one per line of NEW that caused them), then `yk diff: <summary>`."""
    new = diff.new
    out: list[str] = [_note(n, new, base) for n in order_notes(diff)]
    out += [annotation(p, base) for p in diff.config.problems.introduced]
    out += [_note(n, new, base) for n in change_notes(diff)]
    out.append(_note(summary_note(diff, [str(c) for c in failing]), new, base))
    out.append(f"yk diff: {summary_line(diff)}" + (f"; fails on {', '.join(map(str, failing))}" if failing else ""))
    return "\n".join(out) + "\n"
