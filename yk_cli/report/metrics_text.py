"""`yk simulate --metrics` as text: rich tables of waits per queue, user, priority (and application), queues against
their guarantees over time, and the cluster's utilization."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.analysis.metrics import Errors, Group, Metrics, Waits
from yk_cli.core.config.properties import format_duration
from yk_cli.core.resources import Resource

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


BOLD, UNDERLINE, RESET = "\x1b[1m", "\x1b[4m", "\x1b[0m"


class _Table:
    """A plain table: a title, then columns two spaces apart, each as wide as its widest cell (left or right
    aligned), never wrapped; on a terminal the title is bold and the header underlined."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.headers: list[str] = []
        self.right: list[bool] = []
        self.rows: list[tuple[str, ...]] = []

    def add_column(self, header: str, right: bool = False) -> None:
        self.headers.append(header)
        self.right.append(right)

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def lines(self, color: bool) -> list[str]:
        widths = [len(h) for h in self.headers]
        for row in self.rows:
            for k, cell in enumerate(row):
                if len(cell) > widths[k]:
                    widths[k] = len(cell)

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                cell.rjust(widths[k]) if self.right[k] else cell.ljust(widths[k]) for k, cell in enumerate(cells)
            ).rstrip()

        header = line(self.headers)
        out = [f"{BOLD}{self.title}{RESET}" if color else self.title]
        out.append(f"{BOLD}{UNDERLINE}{header}{RESET}" if color else header)
        out.extend(line(row) for row in self.rows)
        return out


def _group_table(title: str, groups: Sequence[Group]) -> _Table:
    table = _Table(title)
    table.add_column("group")
    types = lost_types(groups)
    failed = any(g.failed for g in groups)
    for header in (
        "pods", "started", "pending", *(("failed",) if failed else ()), "preempted", "p50", "p90", "p95", "p99",
        "max",
        "1st start", *(lost_header(t) for t in types),
    ):
        table.add_column(header, right=True)
    for g in groups:
        w: Waits | None = g.waits
        table.add_row(
            g.key, str(g.submitted), str(g.started), str(g.pending), *((str(g.failed),) if failed else ()),
            str(g.preemptions), *(
                (span(w.p50), span(w.p90), span(w.p95), span(w.p99), span(w.max)) if w else ("-",) * 5
            ),
            span(g.first_start), *(lost_value(t, g.lost.get(t, 0.0)) for t in types),
        )
    return table


def _error_table(groups: Sequence[Group]) -> _Table | None:
    """Predicted against observed starts per queue, when the workload recorded them."""
    rows = [(g.key, g.errors) for g in groups if g.errors is not None]
    if not rows:
        return None
    table = _Table("Predicted against observed start, by queue (the recorded trace came from another scheduler)")
    for header in ("queue", "pods", "|error| p50", "p90", "p99", "mean error"):
        table.add_column(header, right=header != "queue")
    for key, e in rows:
        assert isinstance(e, Errors)
        table.add_row(key, str(e.count), span(e.p50), span(e.p90), span(e.p99), span(round(e.bias)))
    return table


def _queue_table(metrics: Metrics) -> _Table:
    table = _Table("Queues over the run")
    table.add_column("queue")
    for header in ("guaranteed", "max", "mean usage", "peak", "fairness gap"):
        table.add_column(header)
    end = metrics.end
    for q in metrics.queues:
        gap = "-" if not q.guaranteed else span(q.gap) + (f" ({percent(q.gap / end)})" if end else "")
        table.add_row(q.path, resources(q.guaranteed), resources(q.max), resources(q.mean), resources(q.peak), gap)
    return table


def _cluster_table(metrics: Metrics) -> _Table:
    cluster = metrics.cluster
    table = _Table("Cluster utilization")
    for header in ("resource", "capacity", "mean", "peak", "over the run (0 to end)"):
        table.add_column(header, right=header not in ("resource", "over the run (0 to end)"))
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
    """The whole metrics report as text (ANSI-styled when color); notes wrap at `width`, tables never do."""
    import textwrap

    pods = metrics.pods
    started = sum(1 for p in pods if p.start is not None)
    makespan = span(metrics.makespan) if metrics.makespan is not None else (
        f"- ({_pods(metrics.running_at_end)} still running at the end)" if metrics.running_at_end
        else "- (not every pod started)"
    )
    out = [
        f"yk simulate --metrics: {source}",
        f"{len(pods)} pods: {started} started, {sum(1 for p in pods if p.outcome == 'pending')} pending, "
        f"{sum(1 for p in pods if p.outcome == 'failed')} failed; run end {span(metrics.end)}, makespan {makespan}",
        "",
    ]
    tables = [
        _group_table(f"{title} (waits p50 to max)", metrics.groups[dimension])
        for dimension, title in (("queue", "Pods by queue"), ("user", "Pods by user"), ("priority", "Pods by priority"))
    ]
    apps = metrics.groups["application"]
    if len(apps) <= APPLICATION_ROWS:
        tables.append(_group_table("Pods by application", apps))
    errors = _error_table(metrics.groups["queue"])
    for table in tables:
        out += [*table.lines(color), ""]
    if len(apps) > APPLICATION_ROWS:
        out += [f"{len(apps)} applications: --format json or csv lists every one.", ""]
    for table in (*((errors,) if errors is not None else ()), _queue_table(metrics), _cluster_table(metrics)):
        out += [*table.lines(color), ""]
    for note in notes(metrics):
        out += textwrap.wrap(note, width) or [""]
    return "\n".join(out) + "\n"


def _pods(count: int) -> str:
    return f"{count} pod" if count == 1 else f"{count} pods"


def notes(metrics: Metrics) -> list[str]:
    """How to read the numbers, and what is left out."""
    out = [
        "Waits run from submission to first start; pods still pending count with their wait so far (a lower bound). "
        "Percentiles are nearest-rank.",
        "Work lost: what each preempted run had used, resources × the seconds it ran (vcore in core·s, memory in "
        "GiB·s), allocations running at the start included.",
        "Fairness gap: the time a queue used less than its guarantee in some guaranteed type "
        "while a pod of it that fits a node waited.",
    ]
    if metrics.running_at_end:
        out.append(f"{_pods(metrics.running_at_end)} still running at the end (asks without a duration run forever).")
    if metrics.not_submitted:
        out.append(f"{metrics.not_submitted} asks arrive after the end of the run: left out.")
    return out
