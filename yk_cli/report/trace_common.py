"""Shared pieces of the `yk simulate` reports: times, priorities, priority changes and the summary line."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.analysis.trace_view import QueueTotals, TraceFilter, TraceView
from yk_cli.core.config.properties import format_duration
from yk_cli.core.ordering.priority import PriorityChange, show
from yk_cli.core.resources import format_resource
from yk_cli.core.sim.trace import GANG_TYPES, Arrival, PreemptionAttempt, Summary, Trace, TraceEvent

FORMATS = ("text", "json", "markdown")
STOPPED = {
    "idle": "nothing left to do",
    "until": "--until reached",
    "max-steps": "--max-steps reached",
    "halt": "halted",
}


def seconds(nanos: int) -> int | float:
    """Nanoseconds as seconds: an int when whole, else a float."""
    return nanos // 1_000_000_000 if nanos % 1_000_000_000 == 0 else nanos / 1e9


def when(nanos: int) -> str:
    """A virtual time as a Go duration from the start: 0s, 2.1s, 1m30s."""
    return format_duration(nanos)


def priority(value: int | None) -> str:
    """`P8` for an ask priority, '' when there is none."""
    return "" if value is None else f"P{value}"


def change(item: PriorityChange) -> str:
    """`system-high: 1001 -> n/a`, as the document's table writes a queue priority change."""
    return f"{item.queue_path.rsplit('.', 1)[-1]}: {show(item.old)} -> {show(item.new)}"


def notes(event: TraceEvent | Arrival) -> list[str]:
    """The priority changes of a step (or arrival), then its note and victims, one per line."""
    out = [change(c) for c in event.priority_changes]
    if isinstance(event, Arrival):
        return out
    if event.reason:
        out.append(f"({event.reason})")
    verb = "released" if event.type in GANG_TYPES else "preempted"
    for v in event.victims:
        line = f"{verb} {v.application}/{v.allocation} ({v.queue_path}, P{v.priority}"
        line += f", {format_resource(v.resources)})" if v.resources else ")"
        if v.restarted_as:
            line += f", restarted as {v.restarted_as}"
        out.append(line)
    return out


def title(trace: Trace, source: str) -> str:
    """The first line of a report."""
    s = trace.summary
    return (
        f"yk simulate: {source}; partition {trace.partition}: {_count(s.nodes, 'node')}, "
        f"{_count(s.applications, 'application')}, {_count(s.asks, 'ask')}"
    )


def summary_line(summary: Summary) -> str:
    """`11 allocations, 0 completions, 0 reservations, 0 pending; 11 steps in 0s (nothing left to do)`."""
    parts = [
        _count(summary.allocations, "allocation"),
        _count(summary.completions, "completion"),
        _count(summary.reservations, "reservation"),
    ]
    if summary.preemptions:
        parts.append(_count(summary.preemptions, "preemption"))
    parts.append(f"{summary.pending} pending")
    stopped = STOPPED.get(summary.stopped_by, summary.stopped_by)
    return f"{', '.join(parts)}; {_count(summary.steps, 'step')} in {when(summary.end_time)} ({stopped})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


BRANCHES = {
    "headroom": "did not fit a queue's headroom",
    "node": "no node had room",
    "required-node": "DaemonSet pod on its required node",
}


def attempt_title(a: PreemptionAttempt) -> str:
    """One preemption try in a line: when, who, why it tried, where it looked, and what came of it."""
    where = f", victims searched below {a.fence}" if a.fence else ""
    outcome = f"preempted on {a.node}" if a.outcome == "preempted" else a.outcome
    return (
        f"{moment(a.time, a.after_step)}: {a.application}/{a.ask} ({a.queue_path}, {priority(a.priority)}) "
        f"{BRANCHES.get(a.branch, a.branch)}{where}: {outcome}"
    )


def moment(time: int, after_step: int) -> str:
    """`at 30s, after step 2`, or `at 0s, before any step`: when something happened between the steps."""
    return f"at {when(time)}, " + (f"after step {after_step}" if after_step else "before any step")


def rows(shown: TraceView) -> Iterator[TraceEvent | Arrival]:
    """The shown steps with the shown arrivals between them, in the order they happened."""
    arrivals = shown.arrivals
    i = 0
    for event in shown.events:
        while i < len(arrivals) and arrivals[i].after_step < event.step:
            yield arrivals[i]
            i += 1
        yield event
    yield from arrivals[i:]


def filter_words(chosen: TraceFilter) -> str:
    """`queue root.tenants and below; pending asks only`: what a filtered report keeps."""
    parts = []
    if chosen.queues:
        parts.append(f"{'queue' if len(chosen.queues) == 1 else 'queues'} {', '.join(chosen.queues)} and below")
    if chosen.applications:
        noun = "application" if len(chosen.applications) == 1 else "applications"
        parts.append(f"{noun} {', '.join(chosen.applications)}")
    if chosen.pending_only:
        parts.append("pending asks only")
    if chosen.summary_only:
        parts.append("summary only")
    return "; ".join(parts)


def filter_line(chosen: TraceFilter) -> str:
    """The header line of a filtered report: what it keeps, and that the run itself was not filtered."""
    return f"Filtered: {filter_words(chosen)} (the dry run ran the whole partition; the summary line counts all of it)"


def shown_line(shown: TraceView) -> str:
    """`6 of 11 steps, 1 of 2 arrivals, 0 of 3 pending asks` (what a queue or application filter kept)."""
    trace, chosen = shown.trace, shown.filter
    parts = []
    if not chosen.pending_only:
        parts.append(f"{len(shown.events)} of {_count(len(trace.events), 'step')}")
        if trace.arrivals:
            parts.append(f"{len(shown.arrivals)} of {_count(len(trace.arrivals), 'arrival')}")
    parts.append(f"{len(shown.pending)} of {_count(len(trace.pending), 'pending ask')}")
    return ", ".join(parts)


TOTALS_HEADER = ("QUEUE", "ALLOCATED", "PENDING", "PREEMPTED", "COMPLETED", "ARRIVED")


def totals_rows(totals: tuple[QueueTotals, ...], chosen: TraceFilter) -> list[tuple[str, ...]]:
    """One row per queue, then a `total` row (queue paths start with root, so no queue is called that); with --queue
    the total is that of the queues listed, and says so."""
    out: list[tuple[str, ...]] = []
    sums = [0, 0, 0, 0, 0]
    for t in totals:
        values = (t.allocated, t.pending, t.preempted, t.completed, t.arrived)
        sums = [a + b for a, b in zip(sums, values, strict=True)]
        out.append((t.queue_path or "(no queue)", *map(str, values)))
    out.append(("total of these queues" if chosen.queues else "total", *map(str, sums)))
    return out


def totals_title(chosen: TraceFilter) -> str:
    """The line above the totals when a filter leaves rows out: they count the whole run ('' for --summary alone)."""
    if not (chosen.selects or chosen.pending_only):
        return ""
    listed = f", for {filter_words(TraceFilter(chosen.queues))}" if chosen.queues else ""
    return f"Totals per queue over the whole run{listed} (filters choose what is shown, never what is counted):"
