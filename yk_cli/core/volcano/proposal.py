"""The 2023 Volcano queue-priority design proposal (seed 004): QueueScoreOrder and its job-first order.

Not in any Volcano release (reference section 1): Volcano shipped an integer `spec.priority` compared first by the
proportion and capacity queue orders instead. yk computes the proposal only to show it beside Volcano's real order,
always labelled PROPOSAL_LABEL. The formulas are the document's:

* priority score   = (queue priority - minimum priority) / (maximum priority - minimum priority) x priority weight
* drf score        = (1 - drf share / drf weight) x drf weight of the plugin
* proportion score = (1 - proportion share) x proportion weight
* total = the sum; the higher total goes first, then the older queue, then the smaller name (the document's
  QueueScoreOrderFn fallback).

Job-first: every job of every queue in one order by job priority, a job without its own priority inheriting its
queue's ("Job's Priority inherits Queue's Priority"); the document gives no tie-break, yk uses the queue's place in
the score order, then the job's creation time, then its ID, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PROPOSAL_LABEL = "design proposal (Volcano queue-priority design, 2023), not in any Volcano release"
PLUGINS = ("priority", "drf", "proportion")
DEFAULT_WEIGHTS: Mapping[str, float] = {"priority": 1.0, "drf": 1.0, "proportion": 1.0}
JOB_FIRST_TIE_BREAK = "equal priorities: the queue's place in the score order, then the older job, then the job ID"


@dataclass(frozen=True, slots=True)
class QueueFacts:
    """What the proposal reads of one queue."""

    name: str
    priority: float
    drf_share: float
    proportion_share: float
    drf_weight: float = 1.0
    created: float | None = None


@dataclass(frozen=True, slots=True)
class QueueScore:
    """One queue's proposal scores (already multiplied by the plugin weights) and its total."""

    name: str
    priority_score: float
    drf_score: float
    proportion_score: float
    total: float
    facts: QueueFacts


@dataclass(frozen=True, slots=True)
class JobFacts:
    """What the job-first order reads of one job."""

    job: str
    queue: str
    priority: float | None
    """The job's own priority (its PodGroup's PriorityClass), or None to inherit the queue's."""
    created: float | None = None


@dataclass(frozen=True, slots=True)
class JobRank:
    """One job in the job-first order, with the priority it was ranked by and where that came from."""

    job: str
    queue: str
    priority: float
    inherited: bool


def _created_key(created: float | None) -> tuple[int, float]:
    """Creation time as a sort key: a missing time sorts like the zero time (before any real one), as Go's zero Time."""
    return (0, 0.0) if created is None else (1, created)


def queue_scores(
    queues: Sequence[QueueFacts],
    minimum: float,
    maximum: float,
    weights: Mapping[str, float] = DEFAULT_WEIGHTS,
) -> list[QueueScore]:
    """Every queue's QueueScoreOrder scores, best first. With maximum == minimum the priority score is 0."""
    span = maximum - minimum
    out: list[QueueScore] = []
    for queue in queues:
        priority = (queue.priority - minimum) / span * weights.get("priority", 0.0) if span else 0.0
        drf = (1 - queue.drf_share / queue.drf_weight) * weights.get("drf", 0.0) if queue.drf_weight else 0.0
        proportion = (1 - queue.proportion_share) * weights.get("proportion", 0.0)
        out.append(QueueScore(queue.name, priority, drf, proportion, priority + drf + proportion, queue))
    out.sort(key=lambda s: (-round(s.total, 9), _created_key(s.facts.created), s.name))
    return out


def job_first_order(
    jobs: Sequence[JobFacts], queue_priority: Mapping[str, float], queue_rank: Sequence[str]
) -> list[JobRank]:
    """All jobs in the proposal's job-first order (see the module docstring for the tie-break)."""
    place = {name: i for i, name in enumerate(queue_rank)}
    ranked: list[tuple[tuple[float, int, tuple[int, float], str], JobRank]] = []
    for job in jobs:
        inherited = job.priority is None
        value = queue_priority.get(job.queue, 0.0) if job.priority is None else job.priority
        rank = JobRank(job.job, job.queue, value, inherited)
        ranked.append(((-value, place.get(job.queue, len(place)), _created_key(job.created), job.job), rank))
    ranked.sort(key=lambda pair: pair[0])
    return [rank for _, rank in ranked]
