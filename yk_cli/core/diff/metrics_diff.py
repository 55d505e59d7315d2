"""`yk diff --metrics`: the two dry runs' metrics side by side, and the --fail-on conditions on them (a wait
percentile that grows, utilization that falls, a fairness gap that grows)."""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.analysis.metrics import PENDING, Group, Metrics, QueueUsage, Waits, waits_of

ALL_PODS = "(all pods)"
"""The key of the row of every pod of the run."""
NOISE = 1_000_000_000
"""A wait or a gap must grow by at least this much (1 s) to count, whatever the percentage."""
WAITS = ("p50", "p90", "p95", "p99", "max")


@dataclass(frozen=True, slots=True)
class WaitRow:
    """One queue's (or every pod's) waits and counts under OLD and NEW (None: no pod there)."""

    key: str
    old: Waits | None
    new: Waits | None
    old_pending: int
    new_pending: int


@dataclass(frozen=True, slots=True)
class MetricsChanges:
    """Both runs' metrics, and the rows a report shows: every pod, then each queue of either run."""

    old: Metrics
    new: Metrics
    rows: tuple[WaitRow, ...]
    gaps: tuple[tuple[str, int | None, int | None], ...]
    """(queue, OLD gap, NEW gap) of each queue with a guarantee on either side, in path order (None on a side
    where it has none)."""


def compare_metrics(old: Metrics, new: Metrics) -> MetricsChanges:
    """The side-by-side view of two runs' metrics."""
    rows = [WaitRow(ALL_PODS, waits_of(old.pods, old.end), waits_of(new.pods, new.end), _pending(old), _pending(new))]
    before = {g.key: g for g in old.groups["queue"]}
    after = {g.key: g for g in new.groups["queue"]}
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key), after.get(key)
        rows.append(WaitRow(key, b.waits if b else None, a.waits if a else None, _group_pending(b), _group_pending(a)))
    old_q = {q.path: q for q in old.queues}
    new_q = {q.path: q for q in new.queues}
    gaps = []
    for path in sorted(set(old_q) | set(new_q)):
        o, n = old_q.get(path), new_q.get(path)
        if _guaranteed(o) or _guaranteed(n):
            gaps.append((path, o.gap if o and _guaranteed(o) else None, n.gap if n and _guaranteed(n) else None))
    return MetricsChanges(old, new, tuple(rows), tuple(gaps))


def _pending(metrics: Metrics) -> int:
    return sum(1 for p in metrics.pods if p.outcome == PENDING)


def _group_pending(group: Group | None) -> int:
    return group.pending if group is not None else 0


def _guaranteed(queue: QueueUsage | None) -> bool:
    return queue is not None and bool(queue.guaranteed)


def wait_value(waits: Waits | None, which: str) -> int:
    """One of WAITS of a row's waits (0 when the row has no pod)."""
    return int(getattr(waits, which)) if waits is not None else 0


def grown(old: int, new: int, share: float) -> bool:
    """Whether `new` is more than `share` above `old` (and at least NOISE more)."""
    return new - old >= NOISE and new > old * (1 + share)


def waits_grown(changes: MetricsChanges, which: str, share: float) -> list[str]:
    """The rows (every pod, or a queue) whose `which` wait grew by more than `share`."""
    return [
        r.key for r in changes.rows if grown(wait_value(r.old, which), wait_value(r.new, which), share)
    ]


def utilization_fallen(changes: MetricsChanges, share: float) -> list[str]:
    """The resource types whose mean utilization fell by more than `share` of its OLD value."""
    old, new = changes.old.cluster, changes.new.cluster
    before, after = old.utilization(old.mean), new.utilization(new.mean)
    return [k for k, u in before.items() if u > 0 and after.get(k, 0.0) < u * (1 - share)]


def gaps_grown(changes: MetricsChanges, share: float) -> list[str]:
    """The queues guaranteed on both sides whose fairness gap grew by more than `share`."""
    return [path for path, o, n in changes.gaps if o is not None and n is not None and grown(o, n, share)]
