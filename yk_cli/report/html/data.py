"""The JSON documents the HTML reports' pages read: plain, sorted data built from a dry run or a diff (no HTML)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from yk_cli.core.analysis.metrics import FAILED, PENDING, STARTED, Metrics
from yk_cli.core.analysis.timeline import COMPLETED, PREEMPTED, RELEASED, RUNNING, timeline
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.resources import format_resource
from yk_cli.core.sim.trace import PREEMPT, QUOTA_PREEMPT, Trace
from yk_cli.report.metrics_json import errors_dict, waits_dict

NANOS = 1_000_000_000
ENDED = (COMPLETED, RUNNING, PREEMPTED, RELEASED)
"""How a timeline bar ended: its index in this tuple is what the document stores."""
OUTCOMES = (STARTED, PENDING, FAILED)
DIMENSIONS = ("queue", "user", "priority", "application")
"""The groups' dimensions, in the order the page offers them."""
Document = dict[str, Any]


def seconds(nanos: int | float | None) -> float | None:
    """Nanoseconds as seconds to the millisecond (None stays None)."""
    return None if nanos is None else round(nanos / NANOS, 3)


def number(value: float) -> float | int:
    """A measured amount with six significant digits (an int when whole): short, stable JSON."""
    rounded = float(f"{value:.6g}")
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 else rounded


class Index:
    """Strings numbered in the order first seen: columns store the number, the document the list."""

    __slots__ = ("numbers", "values")

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values: list[str] = []
        self.numbers: dict[str, int] = {}
        for value in values:
            self.of(value)

    def of(self, value: str) -> int:
        """The number of a string (added when new)."""
        found = self.numbers.get(value)
        if found is None:
            found = self.numbers[value] = len(self.values)
            self.values.append(value)
        return found


def _resource(values: Mapping[str, int] | None) -> str:
    return format_resource(values) if values else ""


def _raw(values: Mapping[str, int | float] | None) -> dict[str, float | int]:
    return {k: number(v) for k, v in sorted((values or {}).items())}


def _series(slices: Sequence[Mapping[str, float]], types: Sequence[str]) -> dict[str, list[float | int]]:
    """Per-slice usage as one list per resource type (the types given, and any other the slices hold)."""
    names = sorted(set(types).union(*(s.keys() for s in slices))) if slices else sorted(types)
    return {k: [number(s.get(k, 0.0)) for s in slices] for k in names}


def _settings(queue: Queue | None) -> Document:
    """A queue's effective settings (empty values for a queue the tree does not have)."""
    if queue is None:
        return {"inTree": False, "leaf": True, "dynamic": True, "guaranteed": "", "max": "", "maxApplications": 0,
                "sortPolicy": "", "sortPriority": False, "priorityOffset": 0, "priorityFence": False,
                "preemptionPolicy": "", "preemptionDelay": None}
    return {
        "inTree": True,
        "leaf": queue.is_leaf,
        "dynamic": queue.dynamic,
        "guaranteed": _resource(queue.guaranteed),
        "max": _resource(queue.max),
        "maxApplications": queue.maxapplications,
        "sortPolicy": queue.sort_policy,
        "sortPriority": queue.sort_priority,
        "priorityOffset": queue.priority_offset,
        "priorityFence": queue.priority_fence,
        "preemptionPolicy": queue.preemption_policy,
        "preemptionDelay": seconds(queue.preemption_delay),
    }


def groups_document(metrics: Metrics) -> Document:
    """Each dimension's groups: counts, wait percentiles (seconds), work lost and time to first start."""
    out: Document = {}
    for dimension in DIMENSIONS:
        rows = []
        for g in metrics.groups.get(dimension, ()):
            rows.append({
                "key": g.key,
                "submitted": g.submitted,
                "started": g.started,
                "pending": g.pending,
                "failed": g.failed,
                "preemptions": g.preemptions,
                "waits": waits_dict(g.waits),
                "lost": _raw(g.lost),
                "firstStart": seconds(g.first_start),
                "errors": errors_dict(g.errors),
            })
        out[dimension] = rows
    return out


def usage_document(metrics: Metrics) -> Document:
    """The cluster's and every queue's usage over the run, with the totals of the run."""
    cluster = metrics.cluster
    types = sorted(cluster.capacity)
    counts = Counter(p.outcome for p in metrics.pods)
    return {
        "end": seconds(metrics.end),
        "bucket": seconds(metrics.bucket),
        "makespan": seconds(metrics.makespan),
        "types": types,
        "pods": {"submitted": len(metrics.pods), **{o: counts.get(o, 0) for o in OUTCOMES},
                 "preemptions": len(metrics.losses), "runningAtEnd": metrics.running_at_end,
                 "notSubmitted": metrics.not_submitted},
        "cluster": {
            "capacity": _raw(cluster.capacity),
            "peak": _raw(cluster.peak),
            "mean": _raw(cluster.mean),
            "utilization": _raw(cluster.utilization(cluster.mean)),
            "series": _series(cluster.series, types),
        },
        "queues": {
            u.path: {
                "guaranteed": _raw(u.guaranteed),
                "max": _raw(u.max),
                "peak": _raw(u.peak),
                "mean": _raw(u.mean),
                "gap": seconds(u.gap),
                "series": _series(u.series, ()),
            }
            for u in metrics.queues
        },
        "lost": _raw(_lost_total(metrics)),
        "groups": groups_document(metrics),
        "notes": list(metrics.notes),
    }


def _lost_total(metrics: Metrics) -> dict[str, float]:
    total: dict[str, float] = {}
    for loss in metrics.losses:
        for k, v in loss.work.items():
            total[k] = total.get(k, 0.0) + v
    return total


def _queues(trace: Trace, tree: QueueTree, metrics: Metrics) -> list[Document]:
    """Every queue of the tree, the run and the metrics, in path order, with its settings and pod counts."""
    paths = set(tree.queues) | set(trace.queues) | {u.path for u in metrics.queues}
    paths |= {p.queue_path for p in metrics.pods if p.queue_path}
    counts = {g.key: g for g in metrics.groups.get("queue", ())}
    out = []
    for path in sorted(paths):
        parent = path.rsplit(".", 1)[0] if "." in path else ""
        group = counts.get(path)
        out.append({
            "path": path,
            "parent": parent,
            "depth": path.count("."),
            **_settings(tree.get(path)),
            "pods": {"submitted": group.submitted, "started": group.started, "pending": group.pending,
                     "failed": group.failed} if group is not None else None,
        })
    return out


def _graph(trace: Trace) -> Document:
    """Who preempted whom: queue -> queue and application -> application edges, weighted by victims."""
    queues: Counter[tuple[str, str]] = Counter()
    apps: Counter[tuple[str, str]] = Counter()
    for e in trace.events:
        if e.type not in (PREEMPT, QUOTA_PREEMPT):
            continue
        for v in e.victims:
            queues[(e.queue_path, v.queue_path)] += 1
            apps[(e.application, v.application)] += 1
    return {
        "queue": [[a, b, n] for (a, b), n in sorted(queues.items())],
        "application": [[a, b, n] for (a, b), n in sorted(apps.items())],
    }


def _timeline(trace: Trace, apps: Index, queues: Index, nodes: Index) -> Document:
    """Every allocation as a bar (columns), and every victim of a preemption as a mark."""
    line = timeline(trace)
    ended = {name: i for i, name in enumerate(ENDED)}
    bars: dict[str, list[Any]] = {k: [] for k in ("app", "ask", "queue", "node", "start", "end", "ended")}
    for b in line.bars:
        bars["app"].append(apps.of(b.application))
        bars["ask"].append(b.ask)
        bars["queue"].append(queues.of(b.queue_path))
        bars["node"].append(nodes.of(b.node))
        bars["start"].append(seconds(b.start))
        bars["end"].append(seconds(b.end))
        bars["ended"].append(ended.get(b.ended, 0))
    marks: dict[str, list[Any]] = {k: [] for k in ("time", "quota", "by", "victim", "queue", "node")}
    for m in line.marks:
        for victim, queue, node in m.victims:
            marks["time"].append(seconds(m.time))
            marks["quota"].append(1 if m.type == QUOTA_PREEMPT else 0)
            marks["by"].append(f"{m.application}/{m.ask}" if m.ask else m.queue_path)
            marks["victim"].append(victim)
            marks["queue"].append(queues.of(queue))
            marks["node"].append(nodes.of(node))
    return {"bars": bars, "marks": marks, "end": seconds(line.end), "ended": list(ENDED)}


def _pending(trace: Trace, metrics: Metrics) -> Document:
    """The asks still pending at the end, as columns; reasons numbered (many repeat)."""
    reasons = Index()
    columns: dict[str, list[Any]] = {
        k: [] for k in ("app", "ask", "queue", "priority", "resources", "code", "reason", "waited")
    }
    for p in trace.pending:
        columns["app"].append(p.application)
        columns["ask"].append(p.ask)
        columns["queue"].append(p.queue_path)
        columns["priority"].append(p.priority)
        columns["resources"].append(_resource(p.resources))
        columns["code"].append(p.code)
        columns["reason"].append(reasons.of(p.reason))
        columns["waited"].append(seconds(max(metrics.end - p.submit_time, 0)))
    return {"rows": columns, "reasons": reasons.values,
            "codes": [[code, n] for code, n in sorted(Counter(p.code for p in trace.pending).items())]}


def simulation_document(trace: Trace, tree: QueueTree, metrics: Metrics, source: str) -> Document:
    """Everything the simulation report shows, as plain data."""
    queue_rows = _queues(trace, tree, metrics)
    queues = Index(q["path"] for q in queue_rows)
    apps = Index()
    nodes = Index()
    line = _timeline(trace, apps, queues, nodes)
    s = trace.summary
    attempts = Counter(a.outcome for a in trace.attempts)
    return {
        "kind": "simulation",
        "source": source,
        "partition": trace.partition,
        "summary": {"steps": s.steps, "allocations": s.allocations, "completions": s.completions,
                    "reservations": s.reservations, "preemptions": s.preemptions, "pending": s.pending,
                    "end": seconds(s.end_time), "nodes": s.nodes, "applications": s.applications, "asks": s.asks,
                    "stoppedBy": s.stopped_by},
        "notes": list(trace.notes),
        "queues": queue_rows,
        "queueNames": queues.values,
        "apps": apps.values,
        "nodes": nodes.values,
        "timeline": line,
        "pending": _pending(trace, metrics),
        "graph": _graph(trace),
        "attempts": [[outcome, n] for outcome, n in sorted(attempts.items())],
        "metrics": usage_document(metrics),
    }
