"""`yk validate --format json`: one object with every problem and a summary."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.diagnostics import Level, Problem, format_path
from yk_cli.report import jsonout


def problem_dict(p: Problem) -> dict[str, object]:
    """The JSON shape of one problem (positions 1-based; endColumn is the column after the last character)."""
    span = p.span
    out: dict[str, object] = {
        "file": p.file,
        "line": span.line if span else 1,
        "column": span.column if span else 1,
        "endLine": span.end_line if span else 1,
        "endColumn": span.end_column if span else 2,
        "level": p.level.value,
        "rule": p.rule,
        "message": p.message,
        "path": format_path(p.path),
    }
    if p.hint:
        out["hint"] = p.hint
    if p.span is None and "#/" in p.file:  # a state dump's problem: its file, and the JSON pointer into it
        out["file"], pointer = p.file.split("#", 1)
        out["pointer"] = pointer
    return out


def summary(problems: Sequence[Problem], files: int) -> dict[str, int]:
    """Counts shown under every report."""
    return {
        "files": files,
        "errors": sum(1 for p in problems if p.level == Level.ERROR),
        "warnings": sum(1 for p in problems if p.level == Level.WARNING),
    }


def render(problems: Sequence[Problem], files: int) -> str:
    """The whole JSON report, keys in a fixed order, problems in report order."""
    data = {"problems": [problem_dict(p) for p in problems], "summary": summary(problems, files)}
    return jsonout.document(data)
