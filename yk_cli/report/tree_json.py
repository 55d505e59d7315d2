"""`yk tree --format json`: the queue tree with YuniKorn's REST field names, plus where every setting came from."""

from __future__ import annotations

from yk_cli.core.config import properties as props
from yk_cli.core.config.properties import format_duration
from yk_cli.core.config.queues import Queue
from yk_cli.report import jsonout
from yk_cli.report.tree_common import (
    TreeView,
    absent_dict,
    at_dict,
    priority_json,
    provenance_dict,
    queue_location,
    unknown_location,
    unknown_properties,
    written_limits,
)


def queue_dict(view: TreeView, queue: Queue) -> dict[str, object]:
    """One queue as /ws/v1/partition/{partition}/queues shows it (children nested), with a `provenance` object."""
    current = view.priority(queue)
    out: dict[str, object] = {
        "queuename": queue.path,
        "partition": view.partition,
        "parent": queue.parent.path if queue.parent is not None else None,
        "isLeaf": queue.is_leaf,
        "isManaged": not queue.dynamic,
        "maxResource": dict(sorted(queue.max.items())) if queue.max else None,
        "guaranteedResource": dict(sorted(queue.guaranteed.items())) if queue.guaranteed else None,
        "maxRunningApps": queue.maxapplications,
        "currentPriority": priority_json(current) if current is not None else None,
        "priorityOffset": queue.priority_offset,
        "isPriorityFence": queue.priority_fence,
        "prioritySorting": queue.sort_priority,
        "sortingPolicy": queue.sort_policy,
        "preemptionPolicy": queue.preemption_policy,
        "isPreemptionFence": queue.preemption_policy == "fence",
        "preemptionDelay": format_duration(queue.preemption_delay),
        "properties": {key: text for key, (text, _, _) in sorted(queue.properties.entries.items())},
    }
    if view.usage is not None:
        usage = view.usage.get(queue.path)
        out["allocatedResource"] = dict(sorted(usage.allocated_resource.items())) if usage else {}
        out["pendingResource"] = dict(sorted(usage.pending_resource.items())) if usage else {}
        out["applications"] = usage.applications if usage else 0
        out["pendingAsks"] = usage.pending if usage else 0
        out["allocations"] = usage.allocations if usage else 0
    guarantee = view.guarantee(queue)
    if guarantee is not None:
        out["guaranteeState"] = guarantee.state
        out["guaranteeTypes"] = dict(guarantee.types)
        out["remainingGuaranteedResource"] = guarantee.remaining
        out["remainingGuaranteedFrom"] = guarantee.remaining_from if guarantee.remaining is not None else None
        out["overMax"] = bool(guarantee.over_max)
        out["overMaxTypes"] = list(guarantee.over_max)
        out["victimSource"] = guarantee.victim_source
    out["provenance"] = set_provenance(view, queue) if view.set_only else full_provenance(view, queue)
    if view.set_only:
        out["location"] = queue_location(queue, view.locate) or None
    if queue.parent is None and view.usage is not None:  # the document's own facts, on its root queue
        out["at"] = at_dict(view.at, view.steps)
        out["notPending"] = [absent_dict(item) for item in view.absent]
    out["children"] = [queue_dict(view, child) for child in queue.children]
    return out


def full_provenance(view: TreeView, queue: Queue) -> dict[str, object]:
    """Where every property of the queue comes from, the ignored keys included, by key."""
    provenance: dict[str, object] = {}
    for key in props.DEFINITIONS:
        provenance[key] = provenance_dict(queue, queue.setting(key), view.locate)
    if not queue.is_leaf:
        provenance[props.SORT_POLICY] = {"value": "fair", "source": "parent", "note": "parents always sort fair"}
    for key, text, source, origin in unknown_properties(queue):
        entry: dict[str, object] = {"value": text, "source": source.value, "origin": origin, "ignored": True}
        where = unknown_location(queue, key, source, origin, view.locate)
        if where:
            entry["location"] = where
        provenance[key] = entry
    return dict(sorted(provenance.items()))


def set_provenance(view: TreeView, queue: Queue) -> dict[str, object]:
    """`--set-only`: only what the file sets on this queue (properties, ignored keys, limits as written), by key."""
    provenance = {key: value for key, value in full_provenance(view, queue).items() if _set_here(value)}
    for written in written_limits(queue, view.locate):
        entry: dict[str, object] = {"value": written.value, "source": "set", "text": written.text}
        if written.where:
            entry["location"] = written.where
        provenance[written.key] = entry
    return dict(sorted(provenance.items()))


def _set_here(entry: object) -> bool:
    return isinstance(entry, dict) and entry.get("source") == "set"


def render(view: TreeView) -> str:
    """The root queue object, children nested, as indented JSON."""
    return jsonout.document(queue_dict(view, view.tree.root))
