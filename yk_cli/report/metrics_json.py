"""`yk simulate --metrics --format json`: the metrics as one JSON document (schemas/metrics.schema.json); times in
seconds from the start of the run, resources in YuniKorn's units (vcore millicores, memory bytes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yk_cli.core.analysis.metrics import FAILED, PENDING, Errors, Group, Metrics, QueueUsage, Waits
from yk_cli.report.jsonout import document

NANOS = 1_000_000_000


def seconds(nanos: int | float | None) -> float | int | None:
    """Nanoseconds as seconds: an integer when whole, else a float rounded to the microsecond."""
    if nanos is None:
        return None
    if isinstance(nanos, int) and nanos % NANOS == 0:
        return nanos // NANOS
    return round(nanos / NANOS, 6)


def _numbers(values: Mapping[str, float]) -> dict[str, float | int]:
    """Per resource type, rounded to 3 decimals (an integer when whole)."""
    out: dict[str, float | int] = {}
    for k, v in sorted(values.items()):
        r = round(v, 3)
        out[k] = int(r) if r == int(r) else r
    return out


def waits_dict(w: Waits | None) -> dict[str, Any] | None:
    """A group's waits in seconds (None: no pod waited)."""
    if w is None:
        return None
    return {"count": w.count, "censored": w.censored, "p50": seconds(w.p50), "p90": seconds(w.p90),
            "p95": seconds(w.p95), "p99": seconds(w.p99), "max": seconds(w.max)}


def errors_dict(e: Errors | None) -> dict[str, Any] | None:
    """Predicted against observed starts in seconds (None: nothing observed)."""
    if e is None:
        return None
    return {"count": e.count, "p50": seconds(e.p50), "p90": seconds(e.p90), "p99": seconds(e.p99),
            "bias": seconds(e.bias)}


def group(g: Group) -> dict[str, Any]:
    """One group's numbers."""
    return {
        "key": g.key,
        "pods": g.submitted,
        "started": g.started,
        "pending": g.pending,
        "failed": g.failed,
        "preemptions": g.preemptions,
        "wait": waits_dict(g.waits),
        "firstStart": seconds(g.first_start),
        "lost": _numbers(g.lost),
        "error": errors_dict(g.errors),
    }


def queue(q: QueueUsage, end: int) -> dict[str, Any]:
    """One queue over the run."""
    return {
        "path": q.path,
        "guaranteed": dict(sorted(q.guaranteed.items())) if q.guaranteed else None,
        "max": dict(sorted(q.max.items())) if q.max else None,
        "peak": dict(sorted(q.peak.items())),
        "mean": _numbers(q.mean),
        "gap": seconds(q.gap) if q.guaranteed else None,
        "gapShare": round(q.gap / end, 6) if q.guaranteed and end else None,
        "series": [_numbers(s) for s in q.series],
    }


def as_dict(metrics: Metrics, source: str) -> dict[str, Any]:
    """The document as plain data (also what the HTML report and yk diff embed)."""
    pods = metrics.pods
    cluster = metrics.cluster
    return {
        "source": source,
        "end": seconds(metrics.end),
        "makespan": seconds(metrics.makespan),
        "bucket": seconds(metrics.bucket),
        "summary": {
            "pods": len(pods),
            "started": sum(1 for p in pods if p.start is not None),
            "pending": sum(1 for p in pods if p.outcome == PENDING),
            "failed": sum(1 for p in pods if p.outcome == FAILED),
            "preemptions": len(metrics.losses),
            "runningAtEnd": metrics.running_at_end,
            "notSubmitted": metrics.not_submitted,
        },
        "groups": {dimension: [group(g) for g in groups] for dimension, groups in metrics.groups.items()},
        "queues": [queue(q, metrics.end) for q in metrics.queues],
        "cluster": {
            "capacity": dict(sorted(cluster.capacity.items())),
            "peak": dict(sorted(cluster.peak.items())),
            "mean": _numbers(cluster.mean),
            "utilization": {k: round(v, 6) for k, v in cluster.utilization(cluster.mean).items()},
            "series": [_numbers(s) for s in cluster.series],
        },
    }


def render(metrics: Metrics, source: str) -> str:
    """The JSON text."""
    return document(as_dict(metrics, source))
