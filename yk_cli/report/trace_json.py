"""`yk simulate --format json`: the trace as documented in schemas/trace.schema.json."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from json.encoder import encode_basestring as _string  # what json.dumps(ensure_ascii=False) makes of a str
from typing import Any

from yk_cli.core.analysis.preemption_loops import PreemptionLoop
from yk_cli.core.analysis.trace_view import NO_FILTER, QueueTotals, TraceFilter, view
from yk_cli.core.ordering.priority import MIN_PRIORITY, PriorityChange
from yk_cli.core.sim.trace import Arrival, PendingAsk, PreemptionAttempt, Summary, Trace, TraceEvent
from yk_cli.report.jsonout import items, nested
from yk_cli.report.trace_common import seconds
from yk_cli.report.unmodelled import unmodelled_dicts


def _priority(value: int) -> int | None:
    return None if value == MIN_PRIORITY else value


def event_dict(e: TraceEvent) -> dict[str, Any]:
    """One event; time in seconds from the start, resources in YuniKorn's units (vcore millicores, bytes)."""
    return {
        "step": e.step,
        "time": seconds(e.time),
        "type": e.type,
        "queuePath": e.queue_path,
        "application": e.application,
        "ask": e.ask,
        "priority": e.priority,
        "node": e.node,
        "resources": dict(sorted(e.resources.items())),
        "priorityChanges": _changes(e.priority_changes),
        "victims": [
            {
                "allocation": v.allocation,
                "application": v.application,
                "queuePath": v.queue_path,
                "node": v.node,
                "priority": v.priority,
                "resources": dict(sorted(v.resources.items())),
                "restartedAs": v.restarted_as,
            }
            for v in e.victims
        ],
        "reason": e.reason,
    }


def _changes(changes: tuple[PriorityChange, ...]) -> list[dict[str, Any]]:
    return [{"queuePath": c.queue_path, "from": _priority(c.old), "to": _priority(c.new)} for c in changes]


def arrival_dict(a: Arrival) -> dict[str, Any]:
    """One ask arriving after the start, placed among the steps by afterStep."""
    return {
        "time": seconds(a.time),
        "afterStep": a.after_step,
        "application": a.application,
        "ask": a.ask,
        "queuePath": a.queue_path,
        "priority": a.priority,
        "resources": dict(sorted(a.resources.items())),
        "priorityChanges": _changes(a.priority_changes),
    }


def filters_dict(chosen: TraceFilter) -> dict[str, Any]:
    """Which filters chose the rows (all empty: the full trace)."""
    return {
        "active": chosen.active,
        "queues": list(chosen.queues),
        "applications": list(chosen.applications),
        "pendingOnly": chosen.pending_only,
        "summaryOnly": chosen.summary_only,
    }


def totals_dict(t: QueueTotals) -> dict[str, Any]:
    """What the shown rows say about one leaf queue."""
    return {
        "queuePath": t.queue_path,
        "allocated": t.allocated,
        "pending": t.pending,
        "preempted": t.preempted,
        "completed": t.completed,
        "arrived": t.arrived,
    }


def attempt_dict(a: PreemptionAttempt) -> dict[str, Any]:
    """One preemption try; candidates only with --explain-preemption."""
    return {
        "time": seconds(a.time),
        "afterStep": a.after_step,
        "application": a.application,
        "ask": a.ask,
        "queuePath": a.queue_path,
        "priority": a.priority,
        "branch": a.branch,
        "fence": a.fence,
        "outcome": a.outcome,
        "node": a.node,
        "candidates": [
            {
                "allocation": c.allocation,
                "application": c.application,
                "queuePath": c.queue_path,
                "node": c.node,
                "priority": c.priority,
                "verdict": c.verdict,
                "detail": c.detail,
            }
            for c in a.candidates
        ],
    }


def loop_dict(loop: PreemptionLoop) -> dict[str, Any]:
    """One preemption loop: the pods (lineages) around it and the preempt steps on it."""
    return {"pods": list(loop.lineages), "steps": list(loop.steps), "message": loop.message}


def pending_dict(p: PendingAsk) -> dict[str, Any]:
    """One pending ask with its reason code and text."""
    return {
        "application": p.application,
        "ask": p.ask,
        "queuePath": p.queue_path,
        "priority": p.priority,
        "resources": dict(sorted(p.resources.items())),
        "submitTime": seconds(p.submit_time),
        "code": p.code,
        "reason": p.reason,
        **({"nodeReasons": [{"reason": r, "nodes": n} for r, n in p.node_reasons]} if p.node_reasons else {}),
    }


def summary_dict(s: Summary) -> dict[str, Any]:
    """Counts over the run."""
    return {
        "allocations": s.allocations,
        "completions": s.completions,
        "reservations": s.reservations,
        "preemptions": s.preemptions,
        "pending": s.pending,
        "steps": s.steps,
        "endTime": seconds(s.end_time),
        "nodes": s.nodes,
        "applications": s.applications,
        "asks": s.asks,
        "stoppedBy": s.stopped_by,
    }


def render(trace: Trace, source: str, chosen: TraceFilter = NO_FILTER) -> str:
    """The whole JSON document, keys in a fixed order."""
    return "".join(chunks(trace, source, chosen))


def chunks(trace: Trace, source: str, chosen: TraceFilter = NO_FILTER) -> Iterator[str]:
    """The document in pieces of up to BATCH events: the text `json.dumps(document, indent=2)` gives, without holding
    the whole document (or its text) in memory at once."""
    shown = view(trace, chosen)
    yield f"{{\n  {_dumps('source')}: {_dumps(source)},\n  {_dumps('partition')}: {_dumps(trace.partition)},\n"
    yield f"  {_dumps('filters')}: {nested(filters_dict(chosen), 2)},\n"
    yield f"  {_dumps('notes')}: {nested(list(trace.notes), 2)},\n"
    yield f"  {_dumps('notModelled')}: {nested(unmodelled_dicts(trace.unmodelled), 2)},\n"
    yield from _array("events", map(event_dict, shown.events))
    yield ",\n"
    yield from _array("arrivals", map(arrival_dict, shown.arrivals))
    yield ",\n"
    yield from _array("pending", map(pending_dict, shown.pending))
    yield ",\n"
    yield from _array("attempts", map(attempt_dict, shown.attempts))
    yield ",\n"
    yield from _array("loops", map(loop_dict, shown.loops))
    yield ",\n"
    yield from _array("queueTotals", map(totals_dict, shown.totals))
    yield f',\n  "summary": {nested(summary_dict(trace.summary), 2)}\n}}\n'


BATCH = 1000
"""Array elements encoded in one call: fewer calls, and a bounded piece of the text in memory at once."""


def _array(key: str, elements: Iterator[dict[str, Any]]) -> Iterator[str]:
    separator = f"  {_dumps(key)}: [\n    "
    while batch := list(islice(elements, BATCH)):
        yield separator + items(batch, 4)
        separator = ",\n    "
    yield f"  {_dumps(key)}: []" if separator[0] == " " else "\n  ]"


def _dumps(value: str) -> str:
    """A string as JSON writes it (the C encoder: ensure_ascii=False escapes only quotes, backslashes and controls)."""
    return _string(value)
