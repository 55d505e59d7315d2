"""`yk simulate --format json`: the trace as documented in schemas/trace.schema.json."""

from __future__ import annotations

import json
from typing import Any

from yk_cli.core.priority import MIN_PRIORITY
from yk_cli.core.trace import PendingAsk, Summary, Trace, TraceEvent
from yk_cli.report.trace_common import seconds


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
        "priorityChanges": [
            {"queuePath": c.queue_path, "from": _priority(c.old), "to": _priority(c.new)} for c in e.priority_changes
        ],
        "victims": [
            {"allocation": v.allocation, "application": v.application, "queuePath": v.queue_path, "node": v.node}
            for v in e.victims
        ],
        "reason": e.reason,
    }


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


def render(trace: Trace, source: str) -> str:
    """The whole JSON document, keys in a fixed order."""
    data = {
        "source": source,
        "partition": trace.partition,
        "events": [event_dict(e) for e in trace.events],
        "pending": [pending_dict(p) for p in trace.pending],
        "summary": summary_dict(trace.summary),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
