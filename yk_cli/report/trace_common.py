"""Shared pieces of the `yk simulate` reports: times, priorities, priority changes and the summary line."""

from __future__ import annotations

from yk_cli.core.priority import PriorityChange, show
from yk_cli.core.properties import format_duration
from yk_cli.core.resources import format_resource
from yk_cli.core.trace import PreemptionAttempt, Summary, Trace, TraceEvent

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


def notes(event: TraceEvent) -> list[str]:
    """The priority changes of a step, then its note and victims, one per line."""
    out = [change(c) for c in event.priority_changes]
    if event.reason:
        out.append(f"({event.reason})")
    for v in event.victims:
        line = f"preempted {v.application}/{v.allocation} ({v.queue_path}, P{v.priority}"
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
        f"{when(a.time)} after step {a.after_step}: {a.application}/{a.ask} ({a.queue_path}, {priority(a.priority)}) "
        f"{BRANCHES.get(a.branch, a.branch)}{where}: {outcome}"
    )


def loop_lines(trace: Trace) -> list[str]:
    """Every preemption loop of the run, one line each."""
    from yk_cli.core.preemption_loops import find_loops

    return [loop.message for loop in find_loops(trace)]
