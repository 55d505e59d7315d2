"""`yk simulate --format markdown`: the step table and pending asks as GitHub-flavoured Markdown."""

from __future__ import annotations

from yk_cli.core.analysis.timeline import timeline
from yk_cli.core.analysis.trace_view import NO_FILTER, TraceFilter, TraceView, view
from yk_cli.core.sim.trace import Arrival, Trace
from yk_cli.report.timeline_mermaid import markdown as gantt
from yk_cli.report.trace_common import (
    TOTALS_HEADER,
    attempt_title,
    filter_line,
    notes,
    priority,
    rows,
    shown_line,
    summary_line,
    title,
    totals_rows,
    totals_title,
    when,
)
from yk_cli.report.unmodelled import unmodelled_label


def _cell(text: str) -> str:
    return text.replace("|", "\\|") if text else " "


def _row(cells: list[str], last: str | None = None) -> str:
    """A table row; last is an already escaped final cell (it may hold <br> line breaks)."""
    escaped = [_cell(c) for c in cells]
    if last is not None:
        escaped.append(last or " ")
    return "| " + " | ".join(escaped) + " |"


def _steps(shown: TraceView) -> list[str]:
    """The step table, arrivals between the steps (no step number)."""
    if not (shown.events or shown.arrivals):
        return ["No scheduling steps." if not shown.trace.events else "No scheduling step matches the filter."]
    out = [_row(["Step", "Time", "Event", "Queue", "Priority", "Ask", "Node", "Queue priority changes"])]
    out.append("|---:|---|---|---|---|---|---|---|")
    for e in rows(shown):
        changes = "<br>".join(n.replace("|", "\\|") for n in notes(e))
        if isinstance(e, Arrival):
            cells = ["", when(e.time), "arrive", f"`{e.queue_path}`", priority(e.priority), e.ask, ""]
        else:
            cells = [str(e.step), when(e.time), e.type, f"`{e.queue_path}`", priority(e.priority), e.ask, e.node]
        out.append(_row(cells, changes))
    return out


def render(trace: Trace, source: str, chosen: TraceFilter = NO_FILTER, by: str = "queue") -> str:
    """The whole Markdown report, or the part the filter keeps, with the timeline of the shown steps (a Mermaid
    gantt, one section per queue or per node)."""
    shown = view(trace, chosen)
    out = [f"## {title(trace, source)}", ""]
    if chosen.active:
        out += [f"> **{_cell(filter_line(chosen)).replace(': ', ':** ', 1)}", ""]
    if trace.unmodelled:
        out += [f"> **{unmodelled_label(u)}:** {_cell(u.message)}" for u in trace.unmodelled] + [""]
    if trace.notes:
        out += [f"> **Note:** {_cell(note)}" for note in trace.notes] + [""]
    history = not (chosen.pending_only or chosen.summary_only)
    if history:
        out += [*_steps(shown), ""]
        if shown.events:
            out += [f"### Timeline (by {by})", "", *gantt(timeline(trace, shown.events), by), ""]
    out.append(f"**Summary:** {summary_line(trace.summary)}")
    if chosen.selects and not chosen.summary_only:
        out += ["", f"**Shown:** {shown_line(shown)}"]
    if chosen.summary_only:
        header = [word.capitalize() for word in TOTALS_HEADER]
        out += ["", "### By queue", ""]
        if totals_title(chosen):
            out += [f"_{_cell(totals_title(chosen)).rstrip(':')}._", ""]
        out += [_row(header), "|---|---:|---:|---:|---:|---:|"]
        rows = totals_rows(shown.totals, chosen)
        out += [_row([f"`{r[0]}`" if r[0].startswith("root") else r[0], *r[1:]]) for r in rows]
    else:
        out += ["", "### Pending asks", ""]
        if not shown.pending:
            out.append("None.")
        else:
            out.append(_row(["Application", "Ask", "Queue", "Priority", "Reason"]))
            out.append("|---|---|---|---|---|")
            for p in shown.pending:
                queue = f"`{p.queue_path}`" if p.queue_path else "-"
                out.append(_row([p.application, p.ask, queue, priority(p.priority), p.reason]))
    if shown.loops:
        out += ["", "### Preemption loops", ""] + [f"- ⚠ {_cell(loop.message)}" for loop in shown.loops]
    if trace.explained and history:
        out += ["", "### Preemption attempts", ""]
        if not shown.attempts:
            out.append("None.")
        for a in shown.attempts:
            out += [f"**{_cell(attempt_title(a))}**", ""]
            if not a.candidates:
                out += ["No running allocation to consider.", ""]
                continue
            out.append(_row(["Candidate", "Queue", "Node", "Priority", "Verdict", "Why"]))
            out.append("|---|---|---|---|---|---|")
            for c in a.candidates:
                cells = [f"{c.application}/{c.allocation}", f"`{c.queue_path}`", c.node, priority(c.priority)]
                out.append(_row([*cells, f"`{c.verdict}`", c.detail]))
            out.append("")
    return "\n".join(out) + "\n"
