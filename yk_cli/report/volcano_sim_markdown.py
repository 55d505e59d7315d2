"""`yk volcano simulate --format markdown`: the session as the text report has it, in GitHub-flavoured Markdown (a PR
comment, a job summary): the conf, the node rule and notes, the queue and job tables, then each action's events."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from yk_cli.core.volcano.proposal_view import ProposalResult
from yk_cli.core.volcano.simulate import SimulationResult
from yk_cli.report.volcano_proposal import proposal_text
from yk_cli.report.volcano_sim_text import _queue_rows, event_text

_VERB = 11
"""event_text starts with the event's word padded to this width (`bind       `, `no reclaim `)."""


def _cell(text: str) -> str:
    """Text for a table cell: pipes escaped, runs of spaces (the text report's alignment) made one."""
    return re.sub(r" {2,}", " ", text).replace("|", "\\|")


def _table(header: Sequence[str], align: str, rows: Sequence[Sequence[str]]) -> Iterator[str]:
    yield "| " + " | ".join(header) + " |\n"
    yield "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|\n"
    for row in rows:
        yield "| " + " | ".join(_cell(cell) for cell in row) + " |\n"


def render_markdown(
    result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None
) -> Iterator[str]:
    """The report, line by line."""
    conf = result.conf
    yield "## yk volcano simulate: one Volcano scheduling session (dry run)\n\n"
    yield f"- **conf:** {_cell(conf_source)}\n"
    yield f"- **actions:** {', '.join(conf.actions) or '-'}\n"
    tiers = " \\| ".join(f"{i}: {', '.join(p.name for p in t.plugins) or '-'}" for i, t in enumerate(conf.tiers, 1))
    yield f"- **tiers:** {tiers or '-'}\n"
    yield f"- **nodes:** {result.node_rule}\n"
    if result.notes:
        yield "- **notes:**\n"
        for note in result.notes:
            yield f"  - {note}\n"
    plugin = next((r.share_plugin for r in result.queues if r.share_plugin), "")
    yield f"\n### Queues at session open (share and deserved: {plugin or 'no proportion or capacity plugin'})\n\n"
    header = ["Rank", "Queue", "Priority", "Weight", "Deserved", "Allocated", "Share (dominant)", "Overused"]
    yield from _table(header, "rlrrllll", _queue_rows(result.queues))
    whys = [r for r in result.queues if r.decided_by]
    if whys:
        yield "\nQueue order:\n\n"
        for row in whys:
            yield f"- {row.decided_by}\n"
    yield "\n### Jobs at session open (job order within each queue)\n\n"
    rows = []
    for job in result.jobs:
        drf = "-" if job.drf_share is None else f"{job.drf_share:.4g}"
        ready = f"{job.ready_tasks}/{job.min_available}" + (" ready" if job.ready else "")
        rows.append([
            job.queue, str(job.rank), job.uid, f"{job.priority} ({job.priority_source})", ready,
            str(job.pending_tasks), job.phase, drf,
        ])
    if rows:
        rows.sort(key=lambda r: (r[0], int(r[1])))
        header = ["Queue", "#", "Job", "Priority (from)", "Ready/min", "Pending", "Phase", "drf share"]
        yield from _table(header, "lrlllrll", rows)
        decided = sorted((j for j in result.jobs if j.decided_by), key=lambda j: (j.queue, j.rank))
        if decided:
            yield "\nJob order:\n\n"
            for job in decided:
                yield f"- {job.decided_by}\n"
    else:
        yield "(no jobs)\n"
    binds = evictions = pipelined = 0
    for name, events in result.actions:
        yield f"\n### {name}\n\n"
        if not events:
            yield "(nothing)\n"
            continue
        lines = []
        for item in events:
            binds += item.type == "bind"
            evictions += item.type == "evict"
            pipelined += item.type == "pipeline"
            text = event_text(item)
            lines.append([text[:_VERB].strip(), text[_VERB:]])
        yield from _table(["Event", "What"], "ll", lines)
    counts = f"{binds} bind{'s' * (binds != 1)}, {evictions} eviction{'s' * (evictions != 1)}, {pipelined} pipelined"
    yield f"\n**{counts}**\n"
    if proposal is not None:
        yield "\n### Proposal view\n\n```text\n"
        yield from proposal_text(proposal)
        yield "```\n"


def render(result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None) -> str:
    return "".join(render_markdown(result, conf_source, proposal))
