"""The 2023 design proposal's view (`--proposal`) as text lines and as JSON-ready data, always under its label."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

from yk_cli.core.volcano.proposal_view import ProposalResult

WIDTH = 100


def num(value: float) -> str:
    """A score or share for people: up to 4 significant digits, no trailing noise (0.9, 1.9, -0.2)."""
    text = f"{value:.4g}"
    return "0" if text == "-0" else text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str) -> Iterator[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        yield indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() + "\n"


def _wrap(text: str, indent: str, first: str | None = None) -> Iterator[str]:
    lines = textwrap.wrap(text, WIDTH - len(indent), break_on_hyphens=False) or [""]
    for i, line in enumerate(lines):
        yield (first if first is not None and i == 0 else indent) + line + "\n"


def _weights(view: ProposalResult) -> str:
    return ", ".join(f"{name} {num(value)}" for name, value in view.weights.items())


def proposal_text(view: ProposalResult, indent: str = "  ") -> Iterator[str]:
    """The proposal section: its label, the queue score table, the job-first order, Volcano's orders beside them."""
    yield f"Proposal view: {view.label}\n"
    yield from _wrap(f"weights: {_weights(view)} ({view.weights_source})", indent)
    yield f"{indent}QueueScoreOrder (higher total first), at session open:\n"
    header = ["#", "queue", "priority (from)", "drf share", "proportion share", "priority score", "drf score",
              "proportion score", "total", "Volcano rank"]
    rows = []
    for row in view.queues:
        s = row.score
        drf = num(s.facts.drf_share) + (f" ({row.drf_dominant})" if row.drf_dominant else "")
        prop = num(s.facts.proportion_share) + (f" ({row.proportion_dominant})" if row.proportion_dominant else "")
        rows.append([str(row.rank), s.name, f"{num(s.facts.priority)} ({row.priority_source})", drf, prop,
                     num(s.priority_score), num(s.drf_score), num(s.proportion_score), num(s.total),
                     str(row.volcano_rank)])
    yield from _table(header, rows, indent + "  ")
    proposal = " > ".join(r.score.name for r in view.queues)
    yield from _wrap(f"QueueScoreOrder: {proposal or '-'}", indent)
    yield from _wrap(f"Volcano's QueueOrderFn at session open: {' > '.join(view.volcano_queue_order) or '-'}", indent)
    yield f"{indent}Job-first order (all queues at once, by job priority):\n"
    if not view.jobs:
        yield f"{indent}  (no job has pending tasks)\n"
    else:
        header = ["#", "job", "queue", "priority (from)", "Volcano's job priority", "place in Volcano's allocate order"]
        rows = []
        for job in view.jobs:
            visit = str(job.volcano_visit) if job.volcano_visit is not None else "never"
            rows.append([str(job.position), job.rank.job, job.rank.queue, f"{num(job.rank.priority)} ({job.source})",
                         str(job.volcano_priority), visit])
        yield from _table(header, rows, indent + "  ")
    visits = ", ".join(view.volcano_job_visits)
    yield from _wrap(f"Volcano's allocate visits the jobs in this order: {visits or '(none)'}", indent)
    yield f"{indent}How yk reads the proposal:\n"
    for note in view.notes:
        yield from _wrap(note, indent + "    ", indent + "  - ")


def proposal_json(view: ProposalResult) -> dict[str, Any]:
    """The proposal view as JSON-ready data (schemas: `proposal` of volcano-simulate and volcano-explain)."""
    return {
        "label": view.label,
        "weights": dict(view.weights),
        "weights_source": view.weights_source,
        "priority_range": {"minimum": view.minimum, "maximum": view.maximum, "over": view.range_source},
        "share_plugin": view.share_source,
        "queues": [
            {
                "rank": row.rank,
                "queue": row.score.name,
                "priority": row.score.facts.priority,
                "priority_source": row.priority_source,
                "drf_share": round(row.score.facts.drf_share, 6),
                "drf_dominant": row.drf_dominant,
                "proportion_share": round(row.score.facts.proportion_share, 6),
                "proportion_dominant": row.proportion_dominant,
                "priority_score": round(row.score.priority_score, 6),
                "drf_score": round(row.score.drf_score, 6),
                "proportion_score": round(row.score.proportion_score, 6),
                "total": round(row.score.total, 6),
                "volcano_rank": row.volcano_rank,
            }
            for row in view.queues
        ],
        "job_first": [
            {
                "position": job.position,
                "job": job.rank.job,
                "queue": job.rank.queue,
                "priority": job.rank.priority,
                "inherited": job.rank.inherited,
                "source": job.source,
                "volcano_priority": job.volcano_priority,
                "volcano_visit": job.volcano_visit,
            }
            for job in view.jobs
        ],
        "volcano_queue_order": list(view.volcano_queue_order),
        "volcano_job_visits": list(view.volcano_job_visits),
        "notes": list(view.notes),
    }
