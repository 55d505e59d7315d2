"""`yk simulate --format json`: the trace as documented in schemas/trace.schema.json."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from json.encoder import encode_basestring as _string  # what json.dumps(ensure_ascii=False) makes of a str
from typing import Any

from yk_cli.core.analysis.preemption_loops import PreemptionLoop
from yk_cli.core.analysis.trace_view import NO_FILTER, QueueTotals, TraceFilter, view
from yk_cli.core.ordering.priority import MIN_PRIORITY, PriorityChange
from yk_cli.core.sim.trace import Arrival, PendingAsk, PreemptionAttempt, Summary, Trace, TraceEvent, Victim
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
    _seen.clear()
    yield f"{{\n  {_dumps('source')}: {_dumps(source)},\n  {_dumps('partition')}: {_dumps(trace.partition)},\n"
    yield f"  {_dumps('filters')}: {nested(filters_dict(chosen), 2)},\n"
    yield f"  {_dumps('notes')}: {nested(list(trace.notes), 2)},\n"
    yield f"  {_dumps('notModelled')}: {nested(unmodelled_dicts(trace.unmodelled), 2)},\n"
    yield from _texts("events", map(event_text, shown.events))
    yield ",\n"
    yield from _texts("arrivals", map(arrival_text, shown.arrivals))
    yield ",\n"
    yield from _texts("pending", map(pending_text, shown.pending))
    yield ",\n"
    yield from _array("attempts", map(attempt_dict, shown.attempts))
    yield ",\n"
    yield from _array("loops", map(loop_dict, shown.loops))
    yield ",\n"
    yield from _array("queueTotals", map(totals_dict, shown.totals))
    yield f',\n  "summary": {nested(summary_dict(trace.summary), 2)}\n}}\n'
    _seen.clear()


BATCH = 1000
"""Array elements encoded in one call: fewer calls, and a bounded piece of the text in memory at once."""


def _array(key: str, elements: Iterator[dict[str, Any]]) -> Iterator[str]:
    separator = f"  {_dumps(key)}: [\n    "
    while batch := list(islice(elements, BATCH)):
        yield separator + items(batch, 4)
        separator = ",\n    "
    yield f"  {_dumps(key)}: []" if separator[0] == " " else "\n  ]"


def _texts(key: str, elements: Iterator[str]) -> Iterator[str]:
    """An array of elements written as text by the *_text functions, in pieces of BATCH elements."""
    separator = f"  {_dumps(key)}: [\n    "
    while batch := list(islice(elements, BATCH)):
        yield separator + ",\n    ".join(batch)
        separator = ",\n    "
    yield f"  {_dumps(key)}: []" if separator[0] == " " else "\n  ]"


# The three arrays that grow with the run (events, arrivals, pending) are written straight to text: the same bytes
# as their *_dict through `items` (the tests hold them to it), without a dict per element. Elements stand 4 spaces
# deep, their keys 6.


def event_text(e: TraceEvent) -> str:
    """event_dict(e) as an element of the events array."""
    priority, changes, victims = e.priority, e.priority_changes, e.victims
    return (
        f'{{\n      "step": {e.step},\n      "time": {_number(seconds(e.time))},\n      "type": {_string(e.type)},\n'
        f'      "queuePath": {_string(e.queue_path)},\n      "application": {_string(e.application)},\n'
        f'      "ask": {_string(e.ask)},\n      "priority": {"null" if priority is None else _number(priority)},\n'
        f'      "node": {_string(e.node)},\n      "resources": {_shared_resources(e.resources)},\n'
        f'      "priorityChanges": {_changes_text(changes) if changes else "[]"},\n'
        f'      "victims": {_victims_text(victims) if victims else "[]"},\n      "reason": {_string(e.reason)}\n    }}'
    )


def arrival_text(a: Arrival) -> str:
    """arrival_dict(a) as an element of the arrivals array."""
    return (
        f'{{\n      "time": {_number(seconds(a.time))},\n      "afterStep": {a.after_step},\n'
        f'      "application": {_string(a.application)},\n      "ask": {_string(a.ask)},\n'
        f'      "queuePath": {_string(a.queue_path)},\n      "priority": {_optional(a.priority)},\n'
        f'      "resources": {_resources(a.resources, 6)},\n'
        f'      "priorityChanges": {_changes_text(a.priority_changes)}\n    }}'
    )


def pending_text(p: PendingAsk) -> str:
    """pending_dict(p) as an element of the pending array."""
    text = (
        f'{{\n      "application": {_string(p.application)},\n      "ask": {_string(p.ask)},\n'
        f'      "queuePath": {_string(p.queue_path)},\n      "priority": {_optional(p.priority)},\n'
        f'      "resources": {_resources(p.resources, 6)},\n      "submitTime": {_number(seconds(p.submit_time))},\n'
        f'      "code": {_string(p.code)},\n      "reason": {_string(p.reason)}'
    )
    if not p.node_reasons:
        return text + "\n    }"
    reasons = ",\n".join(
        f'        {{\n          "reason": {_string(r)},\n          "nodes": {_number(n)}\n        }}'
        for r, n in p.node_reasons
    )
    return f'{text},\n      "nodeReasons": [\n{reasons}\n      ]\n    }}'


def _changes_text(changes: tuple[PriorityChange, ...]) -> str:
    """_changes as the value of a key 6 spaces deep."""
    if not changes:
        return "[]"
    inner = ",\n".join(
        f'        {{\n          "queuePath": {_string(c.queue_path)},\n'
        f'          "from": {_optional(_priority(c.old))},\n          "to": {_optional(_priority(c.new))}\n        }}'
        for c in changes
    )
    return f"[\n{inner}\n      ]"


def _victims_text(victims: tuple[Victim, ...]) -> str:
    """An event's victims as the value of a key 6 spaces deep."""
    inner = ",\n".join(
        f'        {{\n          "allocation": {_string(v.allocation)},\n'
        f'          "application": {_string(v.application)},\n'
        f'          "queuePath": {_string(v.queue_path)},\n          "node": {_string(v.node)},\n'
        f'          "priority": {_number(v.priority)},\n          "resources": {_resources(v.resources, 10)},\n'
        f'          "restartedAs": {_string(v.restarted_as)}\n        }}'
        for v in victims
    )
    return f"[\n{inner}\n      ]"


def _resources(resources: dict[str, int], depth: int) -> str:
    """Resources sorted by name, as the value of a key `depth` spaces deep."""
    if not resources:
        return "{}"
    pad = " " * (depth + 2)
    inner = ",\n".join(f"{pad}{_string(name)}: {_number(resources[name])}" for name in sorted(resources))
    return f"{{\n{inner}\n{' ' * depth}}}"


def _shared_resources(resources: dict[str, int]) -> str:
    """_resources 6 deep, remembered for the map itself: a run shares one map per size among its events."""
    found = _seen.get(id(resources))
    if found is not None and found[0] is resources:
        return found[1]
    text = _resources(resources, 6)
    _seen[id(resources)] = (resources, text)
    return text


_seen: dict[int, tuple[dict[str, int], str]] = {}
"""Texts of resource maps by id (with the map, so that a reused id is never mistaken; chunks clears it)."""


def _optional(value: int | None) -> str:
    return "null" if value is None else _number(value)


def _number(value: int | float) -> str:
    """A number as the json module writes it (its float repr, NaN and Infinity included)."""
    if value.__class__ is int:
        return int.__repr__(value)
    if value.__class__ is float:
        return _float(value)
    return json.dumps(value)  # a bool or a subclass: rare, and exactly as json writes it


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (_INFINITY, -_INFINITY):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


_INFINITY = float("inf")


def _dumps(value: str) -> str:
    """A string as JSON writes it (the C encoder: ensure_ascii=False escapes only quotes, backslashes and controls)."""
    return _string(value)
