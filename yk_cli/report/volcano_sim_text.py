"""`yk volcano simulate` as text: the conf, the node rule, the queue and job tables, then each action's events."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.proposal_view import ProposalResult
from yk_cli.core.volcano.session import Event
from yk_cli.core.volcano.simulate import QueueRow, SimulationResult
from yk_cli.report.volcano_proposal import proposal_text

WIDTH = 100


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> Iterator[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        yield indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() + "\n"


def _vec(values: dict[str, float | str]) -> str:
    if not values:
        return "-"
    parts = []
    for name, value in values.items():
        parts.append(f"{name} {value}" if isinstance(value, str) else f"{name} {res.fmt_value(name, value)}")
    return ", ".join(parts)


def _wrap(text: str, indent: str) -> Iterator[str]:
    for line in textwrap.wrap(text, WIDTH - len(indent), break_on_hyphens=False):
        yield indent + line + "\n"


def _queue_rows(rows: Sequence[QueueRow]) -> list[list[str]]:
    out = []
    for row in rows:
        share = "-" if row.share is None else f"{row.share:.4g}" + (f" ({row.dominant})" if row.dominant else "")
        overused = "-" if row.overused is None else ("yes" if row.overused else "no")
        out.append([
            str(row.rank) if row.rank is not None else "-", row.name, str(row.priority), str(row.weight),
            _vec(row.deserved), _vec(row.allocated), share, overused,
        ])
    return out


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


def event_text(item: Event) -> str:
    """One event as a line."""
    f = dict(item.fields)
    where = f"job {f.get('job')}, queue {f.get('queue')}" if f.get("job") else f"queue {f.get('queue')}"
    if "tie" in f:
        where += f"; a tie with {', '.join(str(n) for n in _list(f['tie']))}{' and more' if f.get('tie_more') else ''}"
    if item.type == "bind":
        return f"bind       {f['task']} -> {f['node']}   ({where})"
    if item.type == "evict":
        return f"evict      {f['task']} on {f['node']} for {f['for']} ({f['reason']}; {where})"
    if item.type == "pipeline":
        return f"pipeline   {f['task']} -> {f['node']}   (waits for the node's releasing pods; {where})"
    if item.type == "enqueue":
        return f"enqueue    job {f['job']} (queue {f['queue']}): Inqueue"
    if item.type == "enqueue-rejected":
        return f"stays      job {f['job']} (queue {f['queue']}): Pending, {f['by']} JobEnqueueable rejects it"
    if item.type == "skip-queue-overused":
        return f"overused   queue {f['queue']}: dropped for the rest of the action"
    if item.type == "not-allocatable":
        return f"refused    {f['task']}: the queue is at its limit ({f['by']} Allocatable; {where})"
    if item.type == "no-node":
        return f"no node    {f['task']}: {f['reason']} ({where})"
    if item.type == "gang-discarded":
        tasks = ", ".join(str(t) for t in _list(f["tasks"]))
        return f"discarded  job {f['job']}: not ready after {tasks} (gang); allocations undone"
    if item.type == "gang-kept":
        tasks = ", ".join(str(t) for t in _list(f["tasks"]))
        return f"kept       job {f['job']}: {tasks} allocated but not bound (job pipelined, not ready)"
    if item.type == "job-invalid":
        return f"invalid    job {f['job']} (queue {f['queue']}): {f['reason']}"
    if item.type == "no-reclaim":
        return f"no reclaim {f['task']}: {f['reason']} ({where})"
    return f"{item.type} " + ", ".join(f"{k} {v}" for k, v in item.fields)


def render_text(result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None) -> Iterator[str]:
    """The report, line by line."""
    conf = result.conf
    yield "Volcano scheduling session (one cycle), dry run\n"
    yield f"conf:    {conf_source}\n"
    yield f"actions: {', '.join(conf.actions) or '-'}\n"
    tiers = " | ".join(f"{i}: {', '.join(p.name for p in t.plugins) or '-'}" for i, t in enumerate(conf.tiers, 1))
    yield f"tiers:   {tiers or '-'}\n"
    yield "nodes:\n"
    yield from _wrap(result.node_rule, "  ")
    if result.notes:
        yield "notes:\n"
        for note in result.notes:
            lines = list(_wrap(note, "    "))
            yield "  - " + lines[0].lstrip()
            yield from lines[1:]
    plugin = next((r.share_plugin for r in result.queues if r.share_plugin), "")
    yield "\n"
    yield f"Queues at session open (share and deserved: {plugin or 'no proportion or capacity plugin'})\n"
    header = ["rank", "queue", "priority", "weight", "deserved", "allocated", "share (dominant)", "overused"]
    yield from _table(header, _queue_rows(result.queues))
    whys = [r for r in result.queues if r.decided_by]
    if whys:
        yield "  queue order:\n"
        for row in whys:
            yield from _wrap(row.decided_by, "    ")
    yield "\n"
    yield "Jobs at session open (job order within each queue)\n"
    by_queue: dict[str, list[list[str]]] = {}
    notes: dict[str, list[str]] = {}
    for job in result.jobs:
        drf = "-" if job.drf_share is None else f"{job.drf_share:.4g}"
        ready = f"{job.ready_tasks}/{job.min_available}" + (" ready" if job.ready else "")
        by_queue.setdefault(job.queue, []).append([
            str(job.rank), job.uid, f"{job.priority} ({job.priority_source})", ready, str(job.pending_tasks),
            job.phase, job.phase_after or "-", drf,
        ])
        if job.decided_by:
            notes.setdefault(job.queue, []).append(job.decided_by)
    if not by_queue:
        yield "  (no jobs)\n"
    for queue in sorted(by_queue):
        yield f"  queue {queue}\n"
        header = ["#", "job", "priority (from)", "ready/min", "pending", "phase", "phase at close", "drf share"]
        yield from _table(header, by_queue[queue], "    ")
        for line in notes.get(queue, []):
            yield from _wrap(line, "      ")
    binds = evictions = pipelined = 0
    for name, events in result.actions:
        yield "\n"
        yield f"{name}\n"
        if not events:
            yield "  (nothing)\n"
        for item in events:
            binds += item.type == "bind"
            evictions += item.type == "evict"
            pipelined += item.type == "pipeline"
            yield f"  {event_text(item)}\n"
    yield "\n"
    yield f"{binds} bind{'s' * (binds != 1)}, {evictions} eviction{'s' * (evictions != 1)}, {pipelined} pipelined\n"
    if proposal is not None:
        yield "\n"
        yield from proposal_text(proposal)


def render(result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None) -> str:
    return "".join(render_text(result, conf_source, proposal))
