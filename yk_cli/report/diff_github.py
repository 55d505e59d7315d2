"""`yk diff --format github`: workflow-command annotations on the lines of NEW that caused a change, then the
summary line."""

from __future__ import annotations

from yk_cli.core.diagnostics import Span
from yk_cli.core.diff.model import Diff
from yk_cli.core.diff.verdict import FailOn
from yk_cli.report.diff_common import count, placement, provenance, summary_line
from yk_cli.report.github import annotation, escape_data, escape_property
from yk_cli.report.locations import relative_path


def _command(level: str, file: str, base: str, span: Span | None, title: str, message: str) -> str:
    props = {"file": relative_path(file, base)[0]}
    if span is not None:
        props.update({"line": str(span.line), "col": str(span.column)})
    props["title"] = title
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
    return f"::{level} {joined}::{escape_data(message)}"


def render(diff: Diff, fail_on: list[FailOn], failing: list[FailOn], base: str) -> str:
    """Introduced problems at their level, changed settings and queues as notices, priority drops as warnings (one
    per line of NEW that caused them), then `yk diff: <summary>`."""
    out: list[str] = [annotation(p, base) for p in diff.config.problems.introduced]
    new = diff.new
    for s in diff.config.settings:
        where = s.queue_path or f"partition {s.partition}"
        message = f"{where}: {s.key} {s.old} -> {s.new} (was {provenance(s.old_from)}; now {provenance(s.new_from)})"
        out.append(_command("notice", new, base, s.span, f"yk diff: {s.key}", message))
    for q in diff.config.queues:
        path = f"{q.old_path} -> {q.queue_path}" if q.kind == "moved" else q.queue_path
        below = f" with {count(q.below, 'queue')} below it" if q.below else ""
        out.append(_command("notice", new, base, q.span, f"yk diff: queue {q.kind}", f"queue {q.kind}: {path}{below}"))
    workload = diff.workload
    if workload is not None:
        grouped: dict[tuple[int, int], list[str]] = {}
        spans: dict[tuple[int, int], Span | None] = {}
        for c in workload.priorities:
            key = (c.span.line, c.span.column) if c.span is not None else (0, 0)
            spans[key] = c.span
            arrow = "drops" if c.new < c.old else "rises"
            grouped.setdefault(key, []).append(f"{c.application}/{c.ask} {arrow} {c.old} -> {c.new}")
        for key, items in grouped.items():
            level = "warning" if any(" drops " in i for i in items) else "notice"
            shown = "; ".join(items[:10]) + (f"; ... ({len(items)} in all)" if len(items) > 10 else "")
            message = f"effective priority of {count(len(items), 'ask')}: {shown}"
            out.append(_command(level, new, base, spans[key], "yk diff: effective priority", message))
        for moved in workload.placements:
            message = f"application {moved.application}: {placement(moved.old)} -> {placement(moved.new)}"
            out.append(_command("warning", new, base, None, "yk diff: placement", message))
    summary = summary_line(diff)
    level = "error" if failing else "notice"
    gate = f" (fails: {', '.join(map(str, failing))})" if failing else ""
    out.append(_command(level, new, base, None, "yk diff", summary + gate))
    out.append(f"yk diff: {summary}" + (f"; fails on {', '.join(map(str, failing))}" if failing else ""))
    return "\n".join(out) + "\n"
