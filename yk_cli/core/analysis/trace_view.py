"""What a `yk simulate` report shows of a trace: all of it, or the part its filters select, with totals per queue.

Filters choose rows, never decisions: the trace is always the run of the whole partition.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from yk_cli.core.analysis.preemption_loops import PreemptionLoop, find_loops
from yk_cli.core.sim.trace import (
    ALLOCATE,
    COMPLETE,
    PREEMPT,
    QUOTA_PREEMPT,
    REPLACE,
    Arrival,
    PendingAsk,
    PreemptionAttempt,
    Trace,
    TraceEvent,
    Victim,
)


@dataclass(frozen=True, slots=True)
class TraceFilter:
    """The rows a report keeps. Kinds combine (a row must pass each one given); names of one kind add up."""

    queues: tuple[str, ...] = ()
    """Queue paths: rows of these queues and every queue below them (lower case, as queue paths are)."""
    applications: tuple[str, ...] = ()
    """Application ids."""
    pending_only: bool = False
    """Only the asks still pending at the end (no steps, arrivals or preemption tries)."""
    summary_only: bool = False
    """Only the summary and the totals per queue."""

    @property
    def active(self) -> bool:
        """Whether anything is left out."""
        return bool(self.queues or self.applications or self.pending_only or self.summary_only)

    @property
    def selects(self) -> bool:
        """Whether queues or applications are chosen (rows of the others are left out)."""
        return bool(self.queues or self.applications)


NO_FILTER = TraceFilter()


@dataclass(frozen=True, slots=True)
class QueueTotals:
    """What the whole run did in one leaf queue (filters never change these counts)."""

    queue_path: str
    """The leaf queue ('' for pending asks of applications with no queue)."""
    allocated: int = 0
    """Allocate steps."""
    pending: int = 0
    """Asks still pending at the end."""
    preempted: int = 0
    """Allocations preempted (victims of preempt and quota-preempt steps)."""
    completed: int = 0
    """Complete steps."""
    arrived: int = 0
    """Asks that arrived after the start."""


@dataclass(frozen=True, slots=True)
class TraceView:
    """The rows a report shows; trace is the whole run (its summary counts everything)."""

    trace: Trace
    filter: TraceFilter
    events: tuple[TraceEvent, ...]
    arrivals: tuple[Arrival, ...]
    pending: tuple[PendingAsk, ...]
    attempts: tuple[PreemptionAttempt, ...]
    loops: tuple[PreemptionLoop, ...]
    totals: tuple[QueueTotals, ...]
    """The whole run's counts per leaf queue, in the partition's queue order: every queue with something to count, or
    with --queue those of the chosen subtrees. No filter changes a count: filters choose rows, totals are the run's."""


def in_subtree(path: str, queues: tuple[str, ...]) -> bool:
    """Whether the queue path is one of the queues or below one of them (no queues: everything is)."""
    if not queues:
        return True
    return any(path == q or path.startswith(q + ".") for q in queues)


class _Match:
    """The filter's queue and application tests on single rows."""

    def __init__(self, chosen: TraceFilter) -> None:
        self.queues = chosen.queues
        self.apps = frozenset(chosen.applications)

    def row(self, queue_path: str, application: str) -> bool:
        """A row of this queue and application."""
        if self.apps and application not in self.apps:
            return False
        return in_subtree(queue_path, self.queues) if self.queues else True

    def victim(self, v: Victim) -> bool:
        return self.row(v.queue_path, v.application)

    def event(self, e: TraceEvent) -> bool:
        """The step's own ask or allocation matches, or one of its victims does (a quota-preempt step has no ask of
        its own: it matches by its queue with --queue alone)."""
        if (e.application or not self.apps) and self.row(e.queue_path, e.application):
            return True
        return any(self.victim(v) for v in e.victims)

    def attempt(self, a: PreemptionAttempt) -> bool:
        """The asking pod matches, or a running pod the try considered does (listed with --explain-preemption)."""
        return self.row(a.queue_path, a.application) or any(self.row(c.queue_path, c.application) for c in a.candidates)


def view(trace: Trace, chosen: TraceFilter = NO_FILTER) -> TraceView:
    """The rows of the trace the filter keeps, and the totals per queue of those rows."""
    match = _Match(chosen)
    events, arrivals, pending, attempts = trace.events, trace.arrivals, trace.pending, trace.attempts
    loops = tuple(find_loops(trace))
    if chosen.selects:
        events = tuple(e for e in events if match.event(e))
        arrivals = tuple(a for a in arrivals if match.row(a.queue_path, a.application))
        pending = tuple(p for p in pending if match.row(p.queue_path, p.application))
        attempts = tuple(a for a in attempts if match.attempt(a))
        shown_steps = {e.step for e in events}
        loops = tuple(loop for loop in loops if shown_steps.intersection(loop.steps))
    if chosen.pending_only:
        events, arrivals, attempts = (), (), ()
    totals = tuple(t for t in run_totals(trace) if in_subtree(t.queue_path, chosen.queues))
    if chosen.summary_only:
        events, arrivals, pending, attempts = (), (), (), ()
    return TraceView(trace, chosen, events, arrivals, pending, attempts, loops, totals)


def run_totals(trace: Trace) -> tuple[QueueTotals, ...]:
    """Counts per leaf queue over the whole run (a victim counts for its own queue), whatever a report shows."""
    counts: dict[str, list[int]] = {}

    def add(queue: str, column: int) -> None:
        row = counts.get(queue)
        if row is None:
            row = counts[queue] = [0, 0, 0, 0, 0]
        row[column] += 1

    for e in trace.events:
        if e.type in (ALLOCATE, REPLACE):
            add(e.queue_path, 0)
        elif e.type == COMPLETE:
            add(e.queue_path, 3)
        if e.type not in (PREEMPT, QUOTA_PREEMPT):
            continue  # gang steps name the placeholders they released: not preempted pods
        for v in e.victims:
            add(v.queue_path, 2)
    for a in trace.arrivals:
        add(a.queue_path, 4)
    for p in trace.pending:
        add(p.queue_path, 1)
    order = {path: i for i, path in enumerate(trace.queues)}
    paths = sorted(counts, key=lambda path: (order.get(path, len(order)), path))
    return tuple(QueueTotals(path, *counts[path]) for path in paths)


def unknown_names(chosen: TraceFilter, queues: Iterable[str], applications: Iterable[str]) -> list[str]:
    """Why each queue or application of the filter is not in the run (with a did-you-mean), in the order given."""
    known_queues = list(queues)
    known_apps = list(dict.fromkeys(applications))
    problems = []
    queue_set = set(known_queues)
    for path in chosen.queues:
        if path not in queue_set:
            problems.append(f"--queue {path}: no such queue in the partition{_hint(path, known_queues, True)}")
    app_set = set(known_apps)
    for app in chosen.applications:
        if app not in app_set:
            problems.append(f"--app {app}: no such application in the workload{_hint(app, known_apps, False)}")
    return problems


def _hint(name: str, known: list[str], queue: bool) -> str:
    """`(did you mean X?)`, or the known names when there are few."""
    close: list[str] = []
    if queue and f"root.{name}" in known:
        close = [f"root.{name}"]
    if not close and not queue:
        close = [k for k in known if k.lower() == name.lower()][:1]
    if not close:
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]}?)"
    if not known:
        return ""
    listed = ", ".join(known[:8]) + (f", ... ({len(known)} in all)" if len(known) > 8 else "")
    return f" (it has: {listed})"


def located(trace: Trace, locate: Callable[[tuple[str | int, ...]], str] | None) -> Trace:
    """The trace with `(file:line)` of the limit entry after each pending reason that names a user or group limit."""
    if locate is None or not any(p.where for p in trace.pending):
        return trace
    pending = []
    for ask in trace.pending:
        where = locate(ask.where) if ask.where else ""
        pending.append(replace(ask, reason=f"{ask.reason} ({where})") if where else ask)
    return replace(trace, pending=tuple(pending))
