"""`yk diff --format markdown`: a pull-request comment — the summary, tables of what changed, and the timeline."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.analysis.timeline import Timeline
from yk_cli.core.diff.model import Diff
from yk_cli.core.diff.verdict import FailOn
from yk_cli.report.diff_common import (
    change_words,
    count,
    passed_words,
    placement,
    preemption_words,
    priority_text,
    provenance,
    removed_words,
    reorder_queues,
    reorder_step,
    reorder_time,
    reorders_heading,
    run_words,
    summary_line,
    title,
)
from yk_cli.report.diff_metrics import HEADER, cluster_lines, gap_rows, wait_rows
from yk_cli.report.problems_text import headline
from yk_cli.report.timeline_mermaid import markdown as gantt
from yk_cli.report.trace_common import summary_line as run_summary
from yk_cli.report.trace_common import when

MAX_ROWS = 50
"""Rows per table: a comment must stay readable (and under GitHub's 65,536 characters); JSON has them all."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") if text else " "


def _table(header: Sequence[str], rows: list[list[str]], what: str) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        out += ["", f"_… and {len(rows) - MAX_ROWS} more {what} (`--format json` lists them all)._"]
    return out


def _code(text: str) -> str:
    return f"`{text}`" if text else " "


def render(
    diff: Diff,
    fail_on: list[FailOn],
    failing: list[FailOn],
    timelines: tuple[Timeline, Timeline] | None = None,
    by: str = "queue",
) -> str:
    """The whole comment; timelines are the OLD and NEW dry runs (NEW's drawn open, OLD's folded)."""
    out = [f"## {_cell(title(diff))}", "", f"**Summary:** {_cell(summary_line(diff))}", ""]
    if failing:
        out += [f"> **Fails:** {', '.join(map(str, failing))} (`--fail-on {','.join(map(str, fail_on))}`)", ""]
    if diff.empty:
        return "\n".join([*out, "No changes."]) + "\n"
    run = diff.workload.run if diff.workload is not None else None
    if run is not None and run.reorders:
        rows = [
            [
                f"{r.application}/{r.ask}",
                _code(r.new.queue_path),
                reorder_time(r),
                reorder_step(r).replace(" -> ", " → "),
                passed_words(r.ahead, r.ahead_total),
                passed_words(r.behind, r.behind_total),
            ]
            for r in run.reorders
        ]
        header: tuple[str, ...] = (
            "Ask",
            "Queue",
            "Time",
            "Step",
            "Now ahead of (used to follow)",
            "Now behind (used to lead)",
        )
        out += [f"### {reorders_heading(run.reorders)}", ""]
        queues = reorder_queues(run.reorders)
        if len(run.reorders) > MAX_ROWS and len(queues) > 1:  # too many to list: the queues first
            totals = [[_code(q), str(asks), str(ahead), str(behind)] for q, asks, ahead, behind in queues]
            out += [*_table(("Queue", "Asks", "Now ahead of some", "Now behind some"), totals, "queues"), ""]
        out += [*_table(header, rows, "asks"), ""]
    config = diff.config
    for label, names in (("added", config.partitions_added), ("removed", config.partitions_removed)):
        if names:
            out += [f"**Partitions {label}:** {', '.join(names)}", ""]
    if config.problems.introduced:
        out += [f"### Problems introduced ({len(config.problems.introduced)})", ""]
        out += [f"- `{_cell(headline(p))}`" for p in config.problems.introduced] + [""]
    if config.problems.fixed:
        out += [f"### Problems fixed ({len(config.problems.fixed)})", ""]
        out += [f"- ~~`{_cell(headline(p))}`~~" for p in config.problems.fixed] + [""]
    if config.queues:
        rows = []
        for q in config.queues:
            path = f"`{q.old_path}` → `{q.queue_path}`" if q.kind == "moved" else _code(q.queue_path)
            what = ("leaf" if q.is_leaf else "parent") + (f", {count(q.below, 'queue')} below it" if q.below else "")
            rows.append([q.kind, path, what, f"{diff.new}:{q.span.line}" if q.span else ""])
        out += [f"### Queues ({len(config.queues)})", "", *_table(("Change", "Queue", "", "Line"), rows, "queues"), ""]
    if config.settings:
        rows = [
            [
                _code(s.queue_path or f"partition {s.partition}"),
                _code(s.key),
                _code(s.old),
                _code(s.new),
                provenance(s.old_from),
                provenance(s.new_from),
                (f"{diff.new}:{s.span.line}" if s.span else "") + (f" ({removed_words(s)})" if s.removed else ""),
            ]
            for s in config.settings
        ]
        header = ("Queue", "Setting", "Before", "After", "Was", "Now", "Line in NEW")
        out += [f"### Settings changed ({len(config.settings)})", "", *_table(header, rows, "settings"), ""]
    workload = diff.workload
    if workload is not None:
        if workload.skipped:
            out += [f"> **Dry runs not compared:** {_cell(workload.skipped)}", ""]
        if workload.placements:
            rows = [[c.application, placement(c.old), placement(c.new)] for c in workload.placements]
            out += [f"### Placements ({len(workload.placements)})", ""]
            out += [*_table(("Application", "Before", "After"), rows, "placements"), ""]
        if workload.priorities:
            rows = []
            for c in workload.priorities:
                at = f"{c.step_queue}: " if c.step_queue else ""
                line = f" ({diff.new}:{c.span.line})" if c.span else ""
                if c.removed:
                    line = f" ({removed_words(c)}{', ' + diff.new + ':' + str(c.span.line) if c.span else ''})"
                rows.append(
                    [
                        f"{c.application}/{c.ask}",
                        _code(c.queue_path),
                        priority_text(c.old),
                        priority_text(c.new),
                        f"{at}{c.old_step} → {c.new_step}{line}",
                    ]
                )
            out += [f"### Effective priorities ({count(len(workload.priorities), 'ask')})", ""]
            out += [*_table(("Ask", "Queue", "Before", "After", "Changed at"), rows, "asks"), ""]
        run = workload.run
        if run is not None:
            before, after = run_summary(run.old_summary), run_summary(run.new_summary)
            if before == after:
                out += ["### Dry run", "", f"- before and after: {before}", ""]
            else:
                out += ["### Dry run", "", f"- before: {before}", f"- after: {after}", ""]
            if run.asks:
                rows = [
                    [
                        f"{c.application}/{c.ask}",
                        _code(c.new.queue_path or c.old.queue_path),
                        run_words(c.old),
                        run_words(c.new),
                        change_words(c),
                    ]
                    for c in run.asks
                ]
                out += [*_table(("Ask", "Queue", "Before", "After", "Change"), rows, "asks"), ""]
            if run.orders:
                out += ["**Start order within queues:**", ""]
                out += [
                    f"- `{o.queue_path}`: {o.moved} of {count(o.asks, 'ask')} start at another position; from "
                    f"position {o.first + 1}: before {', '.join(o.old)}; after {', '.join(o.new)}"
                    for o in run.orders
                ] + [""]
            for label, items in (("added", run.preemptions_added), ("removed", run.preemptions_removed)):
                if not items:
                    continue
                rows = [
                    [
                        when(p.time),
                        p.type,
                        f"{p.preemptor_application}/{p.preemptor_ask}" if p.preemptor_application else "-",
                        _code(p.preemptor_queue),
                        f"{p.victim_application}/{p.victim_allocation}",
                        _code(p.victim_queue),
                        p.node,
                    ]
                    for p in items
                ]
                out += [f"**Preemptions {label}** ({preemption_words(items)}):", ""]
                header = ("Time", "Type", "Preemptor", "Queue", "Victim", "Victim queue", "Node")
                out += [*_table(header, rows, "victims"), ""]
            if run.events:
                out += [
                    "**Other steps:** " + "; ".join(f"{e.type} {e.old_count} → {e.new_count}" for e in run.events),
                    "",
                ]
        if workload.metrics is not None:
            changes = workload.metrics
            out += ["### Metrics", "", "Waits from submission to first start ([docs/metrics.md](docs/metrics.md)).", ""]
            rows = [list(r) for r in wait_rows(changes)]
            out += [*_table(tuple(h.capitalize() if h == "QUEUE" else h.lower() for h in HEADER), rows, "queues"), ""]
            gaps = [[_code(path), pair] for path, pair in gap_rows(changes)]
            if gaps:
                out += [*_table(("Queue", "Fairness gap"), gaps, "queues"), ""]
            out += [f"- {line}" for line in cluster_lines(changes)] + [""]
    if timelines is not None:
        old, new = timelines
        out += [f"### Timeline after (by {by})", "", *gantt(new, by, "After (NEW)"), ""]
        out += [
            "<details><summary>Timeline before</summary>",
            "",
            *gantt(old, by, "Before (OLD)"),
            "",
            "</details>",
            "",
        ]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
