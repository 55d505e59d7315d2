"""`yk simulate --metrics` as text: rich tables of waits per queue, user, priority (and application), queues against
their guarantees over time, and the cluster's utilization."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from io import StringIO
from typing import TYPE_CHECKING

from yk_cli.core.analysis.metrics import Errors, Group, Metrics, Waits
from yk_cli.core.config.properties import format_duration
from yk_cli.core.resources import Resource

if TYPE_CHECKING:
    from rich.table import Table

NANOS = 1_000_000_000
APPLICATION_ROWS = 30
"""Applications are tabled in text up to this many; JSON and CSV always have them all."""
SPARK = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 50


def span(nanos: int | None) -> str:
    """A wait or a length of time as a Go duration, to the second from 10 s up ('-' for none)."""
    if nanos is None:
        return "-"
    if abs(nanos) >= 10 * NANOS:
        nanos = round(nanos / NANOS) * NANOS
    return format_duration(nanos)


def lost_types(groups: Sequence[Group]) -> list[str]:
    """The resource types some group lost work in, vcore and memory first."""
    names = {k for g in groups for k, v in g.lost.items() if v}
    return sorted(names, key=lambda n: (n not in ("vcore", "memory"), n != "vcore", n))


def lost_header(name: str) -> str:
    """The column of work lost in one resource type: vcore in core·s, memory in GiB·s, others in units·s."""
    return {"vcore": "lost core·s", "memory": "lost GiB·s"}.get(name, f"lost {name}·s")


def lost_value(name: str, value: float) -> str:
    """Work lost in one type, in its column's unit, compact (12.3k for thousands)."""
    if not value:
        return "-"
    if name == "vcore":
        value /= 1000
    elif name == "memory":
        value /= 2**30
    if value >= 10_000:
        return f"{value / 1000:,.1f}k"
    return f"{value:,.1f}"


def amount(name: str, value: float) -> str:
    """One resource amount readably: vcore in cores, memory in binary units, one decimal where not whole."""
    if name == "vcore":
        value /= 1000
        suffix = ""
    elif name == "memory":
        suffix = ""
        for unit, size in (("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
            if abs(value) >= size:
                value /= size
                suffix = unit
                break
    else:
        suffix = ""
    text = f"{value:,.0f}" if abs(value - round(value)) < 0.05 else f"{value:,.1f}"
    return text + suffix


def resources(values: Mapping[str, float] | None) -> str:
    """A resource (or a mean usage) as `vcore 4, memory 16Gi`, vcore and memory first; '-' for none."""
    if not values:
        return "-"
    names = sorted(values, key=lambda n: (n not in ("vcore", "memory"), n != "vcore", n))
    return ", ".join(f"{n} {amount(n, float(values[n]))}" for n in names)


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def sparkline(series: Sequence[Mapping[str, float]], capacity: Resource, name: str) -> str:
    """One resource type's utilization over the run as block characters (SPARK_WIDTH slices at most)."""
    total = capacity.get(name, 0)
    if not series or total <= 0:
        return ""
    step = max(1, -(-len(series) // SPARK_WIDTH))
    out = []
    for i in range(0, len(series), step):
        chunk = series[i : i + step]
        mean = sum(s.get(name, 0.0) for s in chunk) / len(chunk) / total
        out.append(SPARK[min(len(SPARK) - 1, max(0, int(mean * len(SPARK))))] if mean > 0 else " ")
    return "".join(out)


def _console(width: int, color: bool) -> object:
    from rich.console import Console

    return Console(
        file=StringIO(),
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width,
        highlight=False,
        emoji=False,
        markup=False,
        legacy_windows=False,
    )


def _table(title: str) -> Table:
    """A table in the report's style: a bold title on the left, no lines (a terminal underlines the header)."""
    from rich.table import Table

    return Table(title=title, title_justify="left", title_style="bold", header_style="bold underline", box=None,
                 pad_edge=False)


def _group_table(title: str, groups: Sequence[Group]) -> object:

    table = _table(title)
    table.add_column("group", no_wrap=True)
    types = lost_types(groups)
    failed = any(g.failed for g in groups)
    for header in (
        "pods", "started", "pending", *(("failed",) if failed else ()), "preempted", "p50", "p90", "p99", "max",
        "1st start", *(lost_header(t) for t in types),
    ):
        table.add_column(header, justify="right", no_wrap=True)
    for g in groups:
        w: Waits | None = g.waits
        table.add_row(
            g.key, str(g.submitted), str(g.started), str(g.pending), *((str(g.failed),) if failed else ()),
            str(g.preemptions), *((span(w.p50), span(w.p90), span(w.p99), span(w.max)) if w else ("-",) * 4),
            span(g.first_start), *(lost_value(t, g.lost.get(t, 0.0)) for t in types),
        )
    return table


def _error_table(groups: Sequence[Group]) -> object | None:
    """Predicted against observed starts per queue, when the workload recorded them."""
    rows = [(g.key, g.errors) for g in groups if g.errors is not None]
    if not rows:
        return None
    table = _table("Predicted against observed start, by queue (the recorded trace came from another scheduler)")
    for header in ("queue", "pods", "|error| p50", "p90", "p99", "mean error"):
        table.add_column(header, justify="left" if header == "queue" else "right")
    for key, e in rows:
        assert isinstance(e, Errors)
        table.add_row(key, str(e.count), span(e.p50), span(e.p90), span(e.p99), span(round(e.bias)))
    return table


def _queue_table(metrics: Metrics) -> object:
    table = _table("Queues over the run")
    table.add_column("queue", no_wrap=True)
    for header in ("guaranteed", "max", "mean usage", "peak", "below guarantee, pods waiting"):
        table.add_column(header)
    end = metrics.end
    for q in metrics.queues:
        gap = "-" if not q.guaranteed else span(q.gap) + (f" ({percent(q.gap / end)})" if end else "")
        table.add_row(q.path, resources(q.guaranteed), resources(q.max), resources(q.mean), resources(q.peak), gap)
    return table


def _cluster_table(metrics: Metrics) -> object:

    cluster = metrics.cluster
    table = _table("Cluster utilization")
    for header in ("resource", "capacity", "mean", "peak", "over the run (0 to end)"):
        table.add_column(header, justify="left" if header in ("resource", "over the run (0 to end)") else "right")
    mean = cluster.utilization(cluster.mean)
    peak = cluster.utilization({k: float(v) for k, v in cluster.peak.items()})
    for name, total in sorted(cluster.capacity.items()):
        if total <= 0:
            continue
        table.add_row(
            name, amount(name, total), percent(mean.get(name, 0.0)), percent(peak.get(name, 0.0)),
            sparkline(cluster.series, cluster.capacity, name),
        )
    return table


def render(metrics: Metrics, source: str, width: int = 120, color: bool = False) -> str:
    """The whole metrics report as text (ANSI-styled when color)."""
    console = _console(width, color)
    print_ = console.print  # type: ignore[attr-defined]
    pods = metrics.pods
    started = sum(1 for p in pods if p.start is not None)
    makespan = span(metrics.makespan) if metrics.makespan is not None else (
        f"- ({_pods(metrics.running_at_end)} still running at the end)" if metrics.running_at_end
        else "- (not every pod started)"
    )
    print_(f"yk simulate --metrics: {source}")
    print_(
        f"{len(pods)} pods: {started} started, {sum(1 for p in pods if p.outcome == 'pending')} pending, "
        f"{sum(1 for p in pods if p.outcome == 'failed')} failed; run end {span(metrics.end)}, makespan {makespan}"
    )
    print_("")
    for dimension, title in (("queue", "Pods by queue"), ("user", "Pods by user"), ("priority", "Pods by priority")):
        print_(_group_table(f"{title} (waits p50 to max)", metrics.groups[dimension]))
        print_("")
    apps = metrics.groups["application"]
    if len(apps) <= APPLICATION_ROWS:
        print_(_group_table("Pods by application", apps))
    else:
        print_(f"{len(apps)} applications: --format json or csv lists every one.")
    print_("")
    errors = _error_table(metrics.groups["queue"])
    if errors is not None:
        print_(errors)
        print_("")
    print_(_queue_table(metrics))
    print_("")
    print_(_cluster_table(metrics))
    print_("")
    for line in notes(metrics):
        print_(line)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.split("\n"))


def _pods(count: int) -> str:
    return f"{count} pod" if count == 1 else f"{count} pods"


def notes(metrics: Metrics) -> list[str]:
    """How to read the numbers, and what is left out."""
    out = [
        "Waits run from submission to first start; pods still pending count with their wait so far (a lower bound). "
        "Percentiles are nearest-rank.",
        "Work lost: what each preempted run had used, resources × the seconds it ran (vcore in core·s, memory in "
        "GiB·s), allocations running at the start included.",
        "Below guarantee with pods waiting: the time a queue used less than its guarantee in some guaranteed type "
        "while a pod of it that fits a node waited (the fairness gap).",
    ]
    if metrics.running_at_end:
        out.append(f"{_pods(metrics.running_at_end)} still running at the end (asks without a duration run forever).")
    if metrics.not_submitted:
        out.append(f"{metrics.not_submitted} asks arrive after the end of the run: left out.")
    return out
