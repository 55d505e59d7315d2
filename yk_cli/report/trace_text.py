"""`yk simulate --format text`: the ordered steps as a table, a summary, and every pending ask with its reason."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from yk_cli.core.analysis.trace_view import NO_FILTER, TraceFilter, TraceView, view
from yk_cli.core.sim.trace import Arrival, Trace
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
from yk_cli.report.unmodelled import unmodelled_lines

HEADER = ("STEP", "TIME", "EVENT", "QUEUE", "PRIORITY", "ASK", "NODE", "QUEUE PRIORITY CHANGES")
PENDING_HEADER = ("APPLICATION/ASK", "QUEUE", "PRIORITY", "REASON")


def table(rows: list[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    """Columns padded to their widest cell (right-aligned where asked), two spaces apart, no trailing blanks."""
    return list(table_lines(lambda: rows, right))


def table_lines(rows: Callable[[], Iterable[tuple[str, ...]]], right: tuple[int, ...] = ()) -> Iterator[str]:
    """table() over rows made twice, once for the widths and once for the lines: no row is held in between."""
    widths: list[int] = []
    for row in rows():
        widths = list(map(max, widths, map(len, row))) if widths else list(map(len, row))
    # str.format's `<` and `>` pad a str exactly as ljust and rjust do
    line = "  ".join(f"{{:{'>' if i in right else '<'}{width}}}" for i, width in enumerate(widths)).format
    for row in rows():
        yield line(*row).rstrip()


def step_lines(shown: TraceView) -> Iterator[str]:
    """The step table, arrivals between the steps (no step number); a row's extra priority changes go on
    continuation lines under the last column."""
    return table_lines(lambda: _step_cells(shown), right=(0,))


def _step_cells(shown: TraceView) -> Iterator[tuple[str, ...]]:
    yield HEADER
    times: dict[int, str] = {}
    priorities: dict[int | None, str] = {}
    for e in rows(shown):
        lines = notes(e) if e.priority_changes or (not isinstance(e, Arrival) and (e.reason or e.victims)) else None
        shown_time = times.get(e.time)
        if shown_time is None:
            shown_time = times[e.time] = when(e.time)
        shown_priority = priorities.get(e.priority)
        if shown_priority is None:
            shown_priority = priorities[e.priority] = priority(e.priority)
        first = lines[0] if lines else ""
        if isinstance(e, Arrival):
            yield ("", shown_time, "arrive", e.queue_path, shown_priority, e.ask, "", first)
        else:
            yield (str(e.step), shown_time, e.type, e.queue_path, shown_priority, e.ask, e.node, first)
        if lines:
            for line in lines[1:]:
                yield ("", "", "", "", "", "", "", line)


def pending_lines(shown: TraceView) -> Iterator[str]:
    """Every pending ask with its reason."""
    if not shown.pending:
        yield "Pending asks: none"
        return
    yield f"Pending asks ({len(shown.pending)}):"
    yield from table_lines(lambda: _pending_cells(shown))


def _pending_cells(shown: TraceView) -> Iterator[tuple[str, ...]]:
    yield PENDING_HEADER
    for p in shown.pending:
        yield (f"{p.application}/{p.ask}", p.queue_path or "-", priority(p.priority), p.reason)


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
    return "".join(chunks(trace, source, chosen))


BATCH = 1000
"""Lines joined into one piece of the report: few writes, and a bounded part of the text in memory at once."""


def chunks(trace: Trace, source: str, chosen: TraceFilter = NO_FILTER) -> Iterator[str]:
    """render() in pieces of up to BATCH lines, made as they are printed (a large run's report is never whole)."""
    lines = _lines(trace, source, chosen)
    while batch := list(islice(lines, BATCH)):
        yield "\n".join(batch) + "\n"


def _lines(trace: Trace, source: str, chosen: TraceFilter) -> Iterator[str]:
    shown = view(trace, chosen)
    yield title(trace, source)
    yield ""
    if chosen.active:
        yield from (filter_line(chosen), "")
    yield from unmodelled_lines(trace.unmodelled)
    if trace.notes:
        yield from [f"Note: {note}" for note in trace.notes] + [""]
    if shown.loops:
        yield from [f"Warning: {loop.message}" for loop in shown.loops] + [""]
    history = not (chosen.pending_only or chosen.summary_only)
    if history:
        if shown.events or shown.arrivals:
            yield from step_lines(shown)
        else:
            yield "No scheduling steps." if not trace.events else "No scheduling step matches the filter."
        yield ""
    yield "Summary: " + summary_line(trace.summary)
    if chosen.selects and not chosen.summary_only:
        yield "Shown: " + shown_line(shown)
    yield ""
    if chosen.summary_only:
        if totals_title(chosen):
            yield totals_title(chosen)
        yield from table([TOTALS_HEADER, *totals_rows(shown.totals, chosen)], right=(1, 2, 3, 4, 5))
    else:
        yield from pending_lines(shown)
    if trace.explained and history:
        yield ""
        yield from attempts(shown)
