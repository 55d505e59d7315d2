"""The two dry runs' metrics side by side, for `yk diff --metrics`: rows shared by the text and Markdown reports,
and the JSON value."""

from __future__ import annotations

from typing import Any

from yk_cli.core.analysis.metrics import Metrics
from yk_cli.core.diff.metrics_diff import WAITS, MetricsChanges, wait_value
from yk_cli.report.metrics_json import as_dict
from yk_cli.report.metrics_text import percent, span

HEADER = ("QUEUE", "P50", "P95", "P99", "MAX", "PENDING")


def _pair(old: str, new: str) -> str:
    return old if old == new else f"{old} -> {new}"


def wait_rows(changes: MetricsChanges) -> list[tuple[str, ...]]:
    """Every pod's and each queue's waits (p50, p95, p99, max) and pending pods, OLD -> NEW where they differ."""
    rows = []
    for r in changes.rows:
        cells = [r.key]
        for which in ("p50", "p95", "p99", "max"):
            old = span(wait_value(r.old, which)) if r.old is not None else "-"
            new = span(wait_value(r.new, which)) if r.new is not None else "-"
            cells.append(_pair(old, new))
        cells.append(_pair(str(r.old_pending), str(r.new_pending)))
        rows.append(tuple(cells))
    return rows


def gap_rows(changes: MetricsChanges) -> list[tuple[str, str]]:
    """Each guaranteed queue's fairness gap, OLD -> NEW ("no guarantee" on a side where it has none)."""
    return [(path, _pair(_gap(old), _gap(new))) for path, old, new in changes.gaps]


def _gap(gap: int | None) -> str:
    return span(gap) if gap is not None else "no guarantee"


def cluster_lines(changes: MetricsChanges) -> list[str]:
    """Mean utilization per resource type, the makespan, and the work lost, OLD -> NEW."""
    old, new = changes.old, changes.new
    before, after = old.cluster.utilization(old.cluster.mean), new.cluster.utilization(new.cluster.mean)
    names = sorted(set(before) | set(after))
    used = ", ".join(f"{k} {_pair(percent(before.get(k, 0.0)), percent(after.get(k, 0.0)))}" for k in names)
    return [
        f"cluster utilization (mean): {used or '-'}",
        f"makespan: {_pair(_makespan(old), _makespan(new))}; preempted runs: "
        f"{_pair(str(len(old.losses)), str(len(new.losses)))}",
    ]


def _makespan(metrics: Metrics) -> str:
    return span(metrics.makespan) if metrics.makespan is not None else "-"


def metrics_dict(changes: MetricsChanges, source: str) -> dict[str, Any]:
    """Both runs' metrics documents (as `yk simulate --metrics --format json` writes them)."""
    return {"old": as_dict(changes.old, source), "new": as_dict(changes.new, source), "waits": list(WAITS)}
