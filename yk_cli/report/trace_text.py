"""`yk simulate --format text`: the ordered steps as a table, a summary, and every pending ask with its reason."""

from __future__ import annotations

from yk_cli.core.trace import Arrival, Trace
from yk_cli.core.trace_view import NO_FILTER, TraceFilter, TraceView, view
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
    when,
)
from yk_cli.report.unmodelled import unmodelled_lines

HEADER = ("STEP", "TIME", "EVENT", "QUEUE", "PRIORITY", "ASK", "NODE", "QUEUE PRIORITY CHANGES")
PENDING_HEADER = ("APPLICATION/ASK", "QUEUE", "PRIORITY", "REASON")


def table(rows: list[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    """Columns padded to their widest cell (right-aligned where asked), two spaces apart, no trailing blanks."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    return out


def steps(shown: TraceView) -> list[str]:
    """The step table, arrivals between the steps (no step number); a row's extra priority changes go on
    continuation lines under the last column."""
    cells: list[tuple[str, ...]] = [HEADER]
    for e in rows(shown):
        lines = notes(e) or [""]
        if isinstance(e, Arrival):
            cells.append(("", when(e.time), "arrive", e.queue_path, priority(e.priority), e.ask, "", lines[0]))
        else:
            step = str(e.step)
            cells.append((step, when(e.time), e.type, e.queue_path, priority(e.priority), e.ask, e.node, lines[0]))
        cells.extend(("", "", "", "", "", "", "", line) for line in lines[1:])
    return table(cells, right=(0,))


def pending(shown: TraceView) -> list[str]:
    """Every pending ask with its reason."""
    if not shown.pending:
        return ["Pending asks: none"]
    cells: list[tuple[str, ...]] = [PENDING_HEADER]
    for p in shown.pending:
        cells.append((f"{p.application}/{p.ask}", p.queue_path or "-", priority(p.priority), p.reason))
    return [f"Pending asks ({len(shown.pending)}):", *table(cells)]


CANDIDATE_HEADER = ("CANDIDATE", "QUEUE", "NODE", "PRIORITY", "VERDICT", "WHY")


def attempts(shown: TraceView) -> list[str]:
    """--explain-preemption: every preemption try and every candidate it looked at, with the verdict."""
    if not shown.attempts:
        return ["Preemption attempts: none"]
    out = [f"Preemption attempts ({len(shown.attempts)}):"]
    for a in shown.attempts:
        out.append("- " + attempt_title(a))
        if not a.candidates:
            out.append("    no running allocation to consider")
            continue
        cells: list[tuple[str, ...]] = [CANDIDATE_HEADER]
        for c in a.candidates:
            cells.append(
                (f"{c.application}/{c.allocation}", c.queue_path, c.node, priority(c.priority), c.verdict, c.detail)
            )
        out.extend("    " + line for line in table(cells))
    return out


def render(trace: Trace, source: str, chosen: TraceFilter = NO_FILTER) -> str:
    """The whole text report, or the part the filter keeps."""
    shown = view(trace, chosen)
    out = [title(trace, source), ""]
    if chosen.active:
        out += [filter_line(chosen), ""]
    out += unmodelled_lines(trace.unmodelled)
    if trace.notes:
        out += [f"Note: {note}" for note in trace.notes] + [""]
    if shown.loops:
        out += [f"Warning: {loop.message}" for loop in shown.loops] + [""]
    history = not (chosen.pending_only or chosen.summary_only)
    if history:
        if shown.events or shown.arrivals:
            out.extend(steps(shown))
        else:
            out.append("No scheduling steps." if not trace.events else "No scheduling step matches the filter.")
        out.append("")
    out.append("Summary: " + summary_line(trace.summary))
    if chosen.selects and not chosen.summary_only:
        out.append("Shown: " + shown_line(shown))
    out.append("")
    if chosen.summary_only:
        out.extend(table([TOTALS_HEADER, *totals_rows(shown.totals)], right=(1, 2, 3, 4, 5)))
    else:
        out.extend(pending(shown))
    if trace.explained and history:
        out += ["", *attempts(shown)]
    return "\n".join(out) + "\n"
