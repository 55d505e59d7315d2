"""What a config change does to one workload: where applications land, each ask's effective priority, and the two
dry runs compared ask by ask, queue by queue and preemption by preemption. Step kinds are compared generically, so
kinds a newer engine adds show up as counts and names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.placement import place_all
from yk_cli.core.config.properties import Setting
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Span
from yk_cli.core.diff.config_diff import ConfigSide, owner, removal_span
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
    Reorder,
    RunChanges,
    WorkloadChanges,
)
from yk_cli.core.ordering.priority import AskBreakdown, Step, explain_pending, pending_priorities, setting_config_path
from yk_cli.core.sim.trace import ALLOCATE, GANG_TYPES, PREEMPT, QUOTA_PREEMPT, Trace
from yk_cli.core.workload.model import Application, Workload

EXAMPLES = 10
"""How many `application/ask` names an EventKindChange lists per direction."""
WINDOW = 5
"""How many asks an OrderChange shows from the first difference on."""
PASSED = 5
"""How many asks a Reorder names per direction (it counts them all)."""

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
    old: Iterable[AskBreakdown],
    new: Iterable[AskBreakdown],
    new_side: ConfigSide,
    new_tree: QueueTree,
    old_tree: QueueTree | None = None,
) -> list[PriorityChange]:
    """Asks whose effective priority differs, with the first step of the breakdown (from the ask up) that differs,
    the property of that step's queue that changed, and the line in NEW behind it (where it was removed from, when
    it was)."""
    before = {(b.application, b.ask.name): b for b in old}
    causes: dict[tuple[str, str, str], tuple[str, bool, Span | None]] = {}
    out = []
    for b in new:
        a = before.get((b.application, b.ask.name))
        if a is None or a.effective == b.effective:
            continue
        index = next(
            (i for i, (x, y) in enumerate(zip(a.steps, b.steps, strict=False)) if not _same(x, y)),
            min(len(a.steps), len(b.steps)),
        )
        key, removed = "", False
        if a.queue_path != b.queue_path:
            step_queue, old_step, new_step, span = "", f"placed in {a.queue_path}", f"placed in {b.queue_path}", None
        elif index < len(b.steps):
            step = b.steps[index]
            was = a.steps[index] if index < len(a.steps) else None
            old_step = was.detail if was is not None else ""
            step_queue, new_step = step.queue_path, step.detail
            memo = (step.queue_path, old_step, new_step)
            if memo not in causes:
                causes[memo] = _step_cause(was, step, new_side, new_tree, old_tree)
            key, removed, span = causes[memo]
        else:  # pragma: no cover - equal steps give equal priorities
            step_queue, old_step, new_step, span = "", "", "", None
        change = PriorityChange(
            b.application,
            b.ask.name,
            b.queue_path,
            a.effective,
            b.effective,
            step_queue,
            old_step,
            new_step,
            span,
            key,
            removed,
        )
        out.append(change)
    return out


def _setting(tree: QueueTree | None, path: str, key: str) -> Setting | None:
    queue = tree.get(path) if tree is not None else None
    return queue.setting(key) if queue is not None else None


def _step_cause(
    was: Step | None, step: Step, new_side: ConfigSide, new_tree: QueueTree, old_tree: QueueTree | None
) -> tuple[str, bool, Span | None]:
    """The property behind a changed step (a policy before an offset, as the step lists them), whether it was
    removed, and its line in NEW: the text in effect, or the place it was removed from."""
    old_causes = was.causes if was is not None else ()
    olds = {(c.queue_path, c.setting.key): c.setting for c in old_causes}
    news = {(c.queue_path, c.setting.key): c.setting for c in step.causes}
    values: list[tuple[str, str]] = []
    texts: list[tuple[str, str]] = []
    for path, key in dict.fromkeys((c.queue_path, c.setting.key) for c in (*old_causes, *step.causes)):
        before = olds.get((path, key)) or _setting(old_tree, path, key)
        after = news.get((path, key)) or _setting(new_tree, path, key)
        if before is None or after is None or before.value != after.value:
            values.append((path, key))
        elif (before.source, before.origin, before.text) != (after.source, after.origin, after.text):
            texts.append((path, key))
    differing = values + texts  # a value that changed before text that moved
    for path, key in differing:
        new_queue = new_tree.get(path)
        after = new_queue.setting(key) if new_queue is not None else None
        config_path = setting_config_path(new_queue, after) if new_queue is not None and after is not None else ()
        if config_path:
            return key, False, new_side.span(config_path)
        old_queue = old_tree.get(path) if old_tree is not None else None
        before = old_queue.setting(key) if old_queue is not None else None
        old_path = setting_config_path(old_queue, before) if old_queue is not None and before is not None else ()
        if old_queue is not None and before is not None and old_path:
            new_owner = owner(new_queue, before.origin) if new_queue is not None else None
            span = removal_span(new_side, new_owner, owner(old_queue, before.origin), old_path)
            return key, True, span or _queue_line(new_side, new_tree, path)
        return key, False, _queue_line(new_side, new_tree, path)
    paths = [c.config_path for c in step.causes if c.config_path]
    span = new_side.span(paths[0]) if paths else None
    if span is None and step.causes:
        span = _queue_line(new_side, new_tree, step.causes[0].queue_path)
    return "", False, span


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


class _Ranks:
    """The positions 0..n-1 taken so far: how many below a position (a Fenwick tree), and the next taken ones from a
    position (a byte per position, searched in C)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.tree = [0] * (n + 1)
        self.taken = bytearray(n)

    def add(self, position: int) -> None:
        self.taken[position] = 1
        i = position + 1
        while i <= self.n:
            self.tree[i] += 1
            i += i & -i

    def below(self, position: int) -> int:
        """How many taken positions are smaller than position."""
        i, total = position, 0
        while i > 0:
            total += self.tree[i]
            i -= i & -i
        return total

    def after(self, start: int, count: int) -> list[int]:
        """The first count taken positions from start on (fewer when there are not as many)."""
        out: list[int] = []
        while len(out) < count:
            found = self.taken.find(1, start)
            if found < 0:
                break
            out.append(found)
            start = found + 1
        return out


def _reorders(
    old: dict[Key, AskRun], old_order: list[Key], new: dict[Key, AskRun], new_order: list[Key]
) -> list[Reorder]:
    """Every ask that starts in both runs and now starts ahead of asks it used to follow, or behind asks it used to
    lead, among the asks that start at the same virtual time as it in OLD and at the same virtual time as it in NEW.
    Counted per ask with a Fenwick tree over NEW's order (O(n log n), never pair by pair), naming the first PASSED of
    each direction in NEW's order; the asks that moved most first."""
    old_rank = {key: i for i, key in enumerate(old_order)}
    groups: dict[tuple[int, int], list[Key]] = {}
    for key in new_order:
        before, after = old.get(key), new[key]
        if before is None or before.start is None or after.start is None:
            continue
        groups.setdefault((before.start, after.start), []).append(key)  # in NEW's order
    found: list[tuple[int, int, Reorder]] = []
    new_rank = {key: i for i, key in enumerate(new_order)}
    for members in groups.values():
        if len(members) < 2:
            continue
        by_old = sorted(members, key=old_rank.__getitem__)
        if by_old == members:
            continue
        position = {key: i for i, key in enumerate(members)}
        labels = [f"{application}/{ask}" for application, ask in members]
        n = len(members)

        ahead: dict[Key, tuple[int, tuple[str, ...]]] = {}
        ranks = _Ranks(n)
        for seen, key in enumerate(by_old):  # OLD's order: the asks it followed are those seen before it
            p = position[key]
            lower = ranks.below(p)
            total = seen - lower  # followed before, now behind it in NEW
            if total:
                ahead[key] = (total, tuple(labels[i] for i in ranks.after(p + 1, min(total, PASSED))))
            ranks.add(p)
        behind: dict[Key, tuple[int, tuple[str, ...]]] = {}
        ranks = _Ranks(n)
        for key in reversed(by_old):  # the asks it led are those after it in OLD's order
            p = position[key]
            total = ranks.below(p)  # led before, now ahead of it in NEW
            if total:
                behind[key] = (total, tuple(labels[i] for i in ranks.after(0, min(total, PASSED))))
            ranks.add(p)
        for key in members:
            a_total, a_names = ahead.get(key, (0, ()))
            b_total, b_names = behind.get(key, (0, ()))
            if a_total or b_total:
                change = Reorder(key[0], key[1], old[key], new[key], a_names, a_total, b_names, b_total)
                found.append((-(a_total + b_total), new_rank[key], change))
    found.sort(key=lambda item: (item[0], item[1]))
    return [item[2] for item in found]


def diff_runs(old: Trace, new: Trace) -> RunChanges:
    """The two dry runs compared: each ask present in both, start orders (at the same virtual time, and per queue),
    preemptions, other step kinds."""
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
        tuple(_reorders(old_runs, old_order, new_runs, new_order)),
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
    priorities = diff_priorities(
        breakdowns(old_tree, old_placed), breakdowns(new_tree, new_placed), new_side, new_tree, old_tree
    )
    run = diff_runs(*traces) if traces is not None else None
    return WorkloadChanges(tuple(diff_placements(old_places, new_places)), tuple(priorities), run)
