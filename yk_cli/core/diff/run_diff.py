"""What a config change does to one workload: where applications land, each ask's effective priority, and the two
dry runs compared ask by ask, queue by queue and preemption by preemption. Step kinds are compared generically, so
kinds a newer engine adds show up as counts and names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from yk_cli.core.config import PartitionConfig
from yk_cli.core.diagnostics import Span
from yk_cli.core.diff.config_diff import ConfigSide
from yk_cli.core.diff.model import (
    EARLIER,
    LATER,
    NO_LONGER_WAITS,
    NODE,
    NOW_WAITS,
    REASON,
    AskRun,
    AskRunChange,
    EventKindChange,
    OrderChange,
    Placement,
    PlacementChange,
    Preemption,
    PriorityChange,
    RunChanges,
    WorkloadChanges,
)
from yk_cli.core.placement import place_all
from yk_cli.core.priority import AskBreakdown, Step, explain_pending, pending_priorities
from yk_cli.core.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.trace import ALLOCATE, GANG_TYPES, PREEMPT, QUOTA_PREEMPT, Trace
from yk_cli.core.workload import Application, Workload

EXAMPLES = 10
"""How many `application/ask` names an EventKindChange lists per direction."""
WINDOW = 5
"""How many asks an OrderChange shows from the first difference on."""

Key = tuple[str, str]


def placements(
    partition: PartitionConfig, workload: Workload
) -> tuple[dict[str, Placement], list[tuple[Application, Queue]], QueueTree]:
    """Every application placed by the partition's rules (on a fresh tree): by id, the placed ones with their leaf,
    and the tree (with the dynamic queues placing created)."""
    tree = build_queue_tree(partition)
    found = place_all(partition, tree, workload.applications)
    out: dict[str, Placement] = {}
    placed: list[tuple[Application, Queue]] = []
    for app in workload.applications:
        p = found[app.id]
        leaf = tree.get(p.queue_path) if p.queue_path else None
        if leaf is None or not leaf.is_leaf:
            reason = p.reason or (f"queue {p.queue_path} is not a leaf" if leaf is not None else "no queue")
            out[app.id] = Placement(None, reason)
        else:
            out[app.id] = Placement(leaf.path)
            placed.append((app, leaf))
    return out, placed, tree


def diff_placements(old: Mapping[str, Placement], new: Mapping[str, Placement]) -> list[PlacementChange]:
    """Applications that land elsewhere, or are now (no longer) rejected, in NEW's order."""
    out = []
    for app, after in new.items():
        before = old.get(app)
        if before is not None and before.queue_path != after.queue_path:
            out.append(PlacementChange(app, before, after))
    return out


def _same(a: Step, b: Step) -> bool:
    return (a.queue_path, a.kind, a.value, a.detail) == (b.queue_path, b.kind, b.value, b.detail)


def diff_priorities(
    old: Iterable[AskBreakdown], new: Iterable[AskBreakdown], new_side: ConfigSide, new_tree: QueueTree
) -> list[PriorityChange]:
    """Asks whose effective priority differs, with the first step of the breakdown (from the ask up) that differs
    and the line in NEW behind it."""
    before = {(b.application, b.ask.name): b for b in old}
    out = []
    for b in new:
        a = before.get((b.application, b.ask.name))
        if a is None or a.effective == b.effective:
            continue
        index = next(
            (i for i, (x, y) in enumerate(zip(a.steps, b.steps, strict=False)) if not _same(x, y)),
            min(len(a.steps), len(b.steps)),
        )
        if a.queue_path != b.queue_path:
            step_queue, old_step, new_step, span = "", f"placed in {a.queue_path}", f"placed in {b.queue_path}", None
        elif index < len(b.steps):
            step = b.steps[index]
            old_step = a.steps[index].detail if index < len(a.steps) else ""
            step_queue, new_step = step.queue_path, step.detail
            paths = [c.config_path for c in step.causes if c.config_path]
            span = new_side.span(paths[0]) if paths else None
            if span is None and step.causes:
                span = _queue_line(new_side, new_tree, step.causes[0].queue_path)
        else:  # pragma: no cover - equal steps give equal priorities
            step_queue, old_step, new_step, span = "", "", "", None
        change = PriorityChange(
            b.application, b.ask.name, b.queue_path, a.effective, b.effective, step_queue, old_step, new_step, span
        )
        out.append(change)
    return out


def _queue_line(side: ConfigSide, tree: QueueTree, path: str) -> Span | None:
    queue = tree.get(path)
    if queue is None or queue.config is None or queue.config.inserted:
        return None
    return side.span((*queue.config.path, "name"))


def breakdowns(tree: QueueTree, placed: list[tuple[Application, Queue]]) -> list[AskBreakdown]:
    """sprio for every ask of the placed applications (as `yk priorities` computes it)."""
    return explain_pending(placed, pending_priorities(tree, placed))


# --- the dry runs ---------------------------------------------------------------------------------------------


def _runs(trace: Trace) -> tuple[dict[Key, AskRun], list[Key]]:
    """Each ask's first start (or pending reason), and the asks in the order they started."""
    out: dict[Key, AskRun] = {}
    order: list[Key] = []
    for e in trace.events:
        if e.type != ALLOCATE:
            continue
        key = (e.application, e.ask)
        if key not in out:
            out[key] = AskRun(e.queue_path, e.time, e.node, e.step)
            order.append(key)
    for p in trace.pending:
        key = (p.application, p.ask)
        if key not in out:
            out[key] = AskRun(p.queue_path, None, code=p.code, reason=p.reason)
    return out, order


def _ask_changes(old: AskRun, new: AskRun) -> tuple[str, ...]:
    changes: list[str] = []
    if old.start is not None and new.start is not None:
        if new.start > old.start:
            changes.append(LATER)
        elif new.start < old.start:
            changes.append(EARLIER)
        if old.node != new.node:
            changes.append(NODE)
    elif old.start is not None:
        changes.append(NOW_WAITS)
    elif new.start is not None:
        changes.append(NO_LONGER_WAITS)
    elif old.code != new.code:
        changes.append(REASON)
    return tuple(changes)


def _orders(
    old: dict[Key, AskRun], old_order: list[Key], new: dict[Key, AskRun], new_order: list[Key], queues: Iterable[str]
) -> list[OrderChange]:
    """Per leaf queue, the asks that start there in both runs: their start order in each."""

    def common(key: Key) -> bool:
        a, b = old.get(key), new.get(key)
        if a is None or b is None or a.start is None or b.start is None:
            return False
        return a.queue_path == b.queue_path

    by_queue_old: dict[str, list[Key]] = {}
    by_queue_new: dict[str, list[Key]] = {}
    for key in old_order:
        if common(key):
            by_queue_old.setdefault(old[key].queue_path, []).append(key)
    for key in new_order:
        if common(key):
            by_queue_new.setdefault(new[key].queue_path, []).append(key)
    rank = {q: i for i, q in enumerate(queues)}
    out = []
    for queue in sorted(by_queue_new, key=lambda q: (rank.get(q, len(rank)), q)):
        a, b = by_queue_old.get(queue, []), by_queue_new[queue]
        if a == b:
            continue
        moved = sum(1 for x, y in zip(a, b, strict=True) if x != y)
        first = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        names_a = tuple(f"{k[0]}/{k[1]}" for k in a[first : first + WINDOW])
        names_b = tuple(f"{k[0]}/{k[1]}" for k in b[first : first + WINDOW])
        out.append(OrderChange(queue, len(b), moved, first, names_a, names_b))
    return out


def _preemptions(trace: Trace) -> dict[tuple[str, ...], Preemption]:
    out: dict[tuple[str, ...], Preemption] = {}
    for e in trace.events:
        if e.type in GANG_TYPES:  # placeholders released (timeout, larger real pods) are not preemptions
            continue
        for v in e.victims:
            key = (e.type, e.application, e.ask, e.queue_path, v.application, v.allocation)
            if key not in out:
                out[key] = Preemption(
                    e.type,
                    e.time,
                    e.application,
                    e.ask,
                    e.queue_path,
                    v.application,
                    v.allocation,
                    v.queue_path,
                    v.node,
                )
    return out


def _event_kinds(old: Trace, new: Trace) -> list[EventKindChange]:
    """Steps of every kind but allocations and preemptions (compared on their own), counted per ask."""
    skip = {ALLOCATE, PREEMPT, QUOTA_PREEMPT}
    counts: dict[str, tuple[Counter[str], Counter[str]]] = {}
    for side, trace in enumerate((old, new)):
        for e in trace.events:
            if e.type in skip:
                continue
            pair = counts.setdefault(e.type, (Counter(), Counter()))
            pair[side][f"{e.application}/{e.ask}" if e.application else e.queue_path] += 1
    out = []
    for kind, (a, b) in counts.items():
        if a == b:
            continue
        added = list((b - a).elements())
        removed = list((a - b).elements())
        out.append(
            EventKindChange(
                kind, a.total(), b.total(), tuple(added[:EXAMPLES]), tuple(removed[:EXAMPLES]), len(added), len(removed)
            )
        )
    return sorted(out, key=lambda c: c.type)


def diff_runs(old: Trace, new: Trace) -> RunChanges:
    """The two dry runs compared: each ask present in both, start orders per queue, preemptions, other step kinds."""
    old_runs, old_order = _runs(old)
    new_runs, new_order = _runs(new)
    asks = []
    for key, after in new_runs.items():
        before = old_runs.get(key)
        if before is None:
            continue
        changes = _ask_changes(before, after)
        if changes:
            asks.append(AskRunChange(key[0], key[1], before, after, changes))
    asks.sort(key=_ask_rank)
    old_p, new_p = _preemptions(old), _preemptions(new)
    return RunChanges(
        old.summary,
        new.summary,
        tuple(asks),
        tuple(_orders(old_runs, old_order, new_runs, new_order, new.queues or old.queues)),
        tuple(p for k, p in new_p.items() if k not in old_p),
        tuple(p for k, p in old_p.items() if k not in new_p),
        tuple(_event_kinds(old, new)),
        sum(1 for k in old_runs if k not in new_runs),
        sum(1 for k in new_runs if k not in old_runs),
    )


def _ask_rank(change: AskRunChange) -> tuple[int, int]:
    """Asks that start in NEW by their step, then the others by their OLD step."""
    if change.new.start is not None:
        return (0, change.new.step)
    return (1, change.old.step if change.old.start is not None else 1 << 62)


def diff_workload(
    old_side: ConfigSide,
    old_partition: PartitionConfig,
    new_side: ConfigSide,
    new_partition: PartitionConfig,
    workload: Workload,
    traces: tuple[Trace, Trace] | None,
) -> WorkloadChanges:
    """Placements and effective priorities of the workload under each config, and the dry runs (when both ran)."""
    old_places, old_placed, old_tree = placements(old_partition, workload)
    new_places, new_placed, new_tree = placements(new_partition, workload)
    priorities = diff_priorities(breakdowns(old_tree, old_placed), breakdowns(new_tree, new_placed), new_side, new_tree)
    run = diff_runs(*traces) if traces is not None else None
    return WorkloadChanges(tuple(diff_placements(old_places, new_places)), tuple(priorities), run)
