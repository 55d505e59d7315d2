"""A dry run on the virtual clock: when each allocation ran, on which node and queue, and where preemptions happened."""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.sim.trace import (
    ALLOCATE,
    COMPLETE,
    GANG_TIMEOUT,
    PLACEHOLDER,
    PLACEHOLDER_RELEASE,
    PREEMPT,
    QUOTA_PREEMPT,
    REPLACE,
    PendingAsk,
    Trace,
    TraceEvent,
    replaced_placeholder,
)

NANOS = 1_000_000_000
RUNNING = "running"
"""The allocation still runs when the run ends."""
COMPLETED = "completed"
"""Its duration ran out."""
PREEMPTED = "preempted"
"""It was a victim of preemption (or quota preemption)."""
RELEASED = "released"
"""A gang placeholder whose place a real pod took, or that was released unused (timeout, larger real pods)."""
OPENS = (ALLOCATE, PLACEHOLDER, REPLACE)
"""Steps that start a pod on a node."""
RELEASES = (PLACEHOLDER_RELEASE, GANG_TIMEOUT)
"""Steps whose `victims` are placeholders released, not pods preempted."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One allocation on the virtual clock: from its allocate step (or the start, for a pod already running) to its
    completion, its preemption or the end of the run."""

    application: str
    ask: str
    queue_path: str
    node: str
    start: int
    """Nanoseconds from the start of the run."""
    end: int
    ended: str
    """RUNNING, COMPLETED, PREEMPTED or RELEASED."""
    step: int = 0
    """The allocate step (0 for a pod that ran before the start)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A preemption (or quota preemption) step: when, who asked, and the victims' queues and nodes."""

    time: int
    step: int
    type: str
    application: str
    ask: str
    queue_path: str
    """The asking pod's queue (the queue brought under its max, for quota preemption)."""
    node: str
    victims: tuple[tuple[str, str, str], ...]
    """(application/allocation, queue path, node) of each victim."""


@dataclass(frozen=True, slots=True)
class Timeline:
    """The bars and marks of one run, in step order, with the end of the clock."""

    bars: tuple[Bar, ...]
    marks: tuple[Mark, ...]
    end: int
    """Nanoseconds: the end of the run (summary.end_time)."""


def timeline(trace: Trace, events: tuple[TraceEvent, ...] | None = None) -> Timeline:
    """The timeline of the events shown (all of the trace's by default). A pod that completes or is preempted without
    an allocate step before it ran from the start; one still running ends at the end of the run."""
    shown = trace.events if events is None else events
    end = trace.summary.end_time
    opened: dict[tuple[str, str], TraceEvent] = {}
    done: list[Bar] = []
    marks: list[Mark] = []

    def close(key: tuple[str, str], queue: str, node: str, time: int, how: str) -> None:
        event = opened.pop(key, None)
        start = event.time if event is not None else 0
        step = event.step if event is not None else 0
        done.append(Bar(key[0], key[1], queue, node, start, max(time, start), how, step))

    for e in shown:
        if e.type in OPENS:
            opened[(e.application, e.ask)] = e
        elif e.type == COMPLETE:
            close((e.application, e.ask), e.queue_path, e.node, e.time, COMPLETED)
        placeholder = replaced_placeholder(e)
        if placeholder:
            close((e.application, placeholder), e.queue_path, e.node, e.time, RELEASED)
        how = RELEASED if e.type in RELEASES else PREEMPTED
        for v in e.victims:
            close((v.application, v.allocation), v.queue_path, v.node, e.time, how)
        if e.type in (PREEMPT, QUOTA_PREEMPT):
            victims = tuple((f"{v.application}/{v.allocation}", v.queue_path, v.node) for v in e.victims)
            marks.append(Mark(e.time, e.step, e.type, e.application, e.ask, e.queue_path, e.node, victims))
    for (application, ask), e in opened.items():
        done.append(Bar(application, ask, e.queue_path, e.node, e.time, max(end, e.time), RUNNING, e.step))
    done.sort(key=lambda bar: (bar.start, bar.step))  # pods running from the start (step 0) first
    return Timeline(tuple(done), tuple(marks), end)


@dataclass(frozen=True, slots=True)
class Start:
    """One pod's predicted start, as `squeue --start` lists it: when and where it starts, or why it never does."""

    application: str
    ask: str
    queue_path: str
    priority: int
    submit: int | None
    """Nanoseconds: when it arrived (None when it never did)."""
    start: int | None
    """Nanoseconds: its first allocation (None when it is still pending at the end)."""
    node: str = ""
    step: int = 0
    code: str = ""
    """Why it never starts (a pending reason code), '' when it starts."""
    reason: str = ""


def starts(trace: Trace) -> list[Start]:
    """Every ask of the run: those placed in the order they start (virtual time, then step), then those still
    pending in workload order with their reason. Asks placed at the start arrived at 0 (or earlier)."""
    arrived = {(a.application, a.ask): a.time for a in trace.arrivals}
    out: list[Start] = []
    seen: set[tuple[str, str]] = set()
    for e in trace.events:
        key = (e.application, e.ask)
        if e.type != ALLOCATE or key in seen:
            continue
        seen.add(key)
        submit = arrived.get(key, 0)
        out.append(Start(e.application, e.ask, e.queue_path, e.priority or 0, submit, e.time, e.node, e.step))
    out.extend(_pending_start(p, arrived) for p in trace.pending)
    return out


def _pending_start(p: PendingAsk, arrived: dict[tuple[str, str], int]) -> Start:
    from yk_cli.core.sim.trace import NOT_SUBMITTED

    submit = None if p.code == NOT_SUBMITTED else arrived.get((p.application, p.ask), max(p.submit_time, 0))
    return Start(p.application, p.ask, p.queue_path, p.priority, submit, None, code=p.code, reason=p.reason)
