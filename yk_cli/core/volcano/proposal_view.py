"""The 2023 design proposal's view of one session: its QueueScoreOrder and job-first order, beside Volcano's own.

    view = ProposalObserver(cluster)       # pass as simulate(..., observer=view); then view.result()

The proposal's inputs, read from the session at open (proposal.py has the formulas):

* queue priority: the value of the PriorityClass the Queue's `spec.priorityClassName` names (the proposal's API,
  which Volcano ignores), else `spec.priority` (what Volcano shipped instead);
* minimum and maximum priority (the document's "Minimum/Maximum PriorityClass", `ssn.PriorityClass["min"/"max"]` in
  its pseudo code): over every PriorityClass of the dump and the queues' priorities;
* drf share: Volcano's drf has a queue share only under enableHierarchy (HDRF). For flat queues yk defines it as the
  queue's dominant share of the cluster total (its allocated over the Ready nodes' allocatable, the largest over the
  dimensions), the share HDRF gives a direct child of root; drf weight 1;
* proportion share: the engine's (proportion's allocated / deserved; capacity's share when proportion is absent);
* weights: the conf's `QueueScoreOrder.<plugin>.weight` arguments (allocate's, else enqueue's, else reclaim's), else 1;
* job-first: every job with pending tasks, by its own priority when its PodGroup's class exists, else its queue's
  priority (the proposal's inheritance) when the queue has one (a class, or spec.priority above 0), else what
  Volcano gives it (the globalDefault class or 0).

Volcano's real order is recorded from the same run: QueueOrderFn at session open, and the order in which allocate
first visits each job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.conf import SchedulerConf
from yk_cli.core.volcano.framework import Framework
from yk_cli.core.volcano.heap import PriorityQueue
from yk_cli.core.volcano.model import Cluster
from yk_cli.core.volcano.observe import Observer
from yk_cli.core.volcano.proposal import (
    DEFAULT_WEIGHTS,
    JOB_FIRST_TIE_BREAK,
    PLUGINS,
    PROPOSAL_LABEL,
    JobFacts,
    JobRank,
    QueueFacts,
    QueueScore,
    job_first_order,
    queue_scores,
)
from yk_cli.core.volcano.session import PENDING, JobInfo, QueueInfo, Session

WEIGHT_ACTIONS = ("allocate", "enqueue", "reclaim")
DRF_SHARE_DEFINITION = (
    "drf share: Volcano's drf has a queue share only with enableHierarchy (HDRF); for flat queues yk takes the "
    "queue's dominant share of the cluster total (allocated / the Ready nodes' allocatable, the largest over the "
    "resources), the share HDRF gives a direct child of root, with drf weight 1"
)


@dataclass(frozen=True, slots=True)
class QueueProposal:
    """One queue's proposal row: its score and where its inputs came from."""

    score: QueueScore
    rank: int
    priority_source: str
    """`class <name>`, `spec.priority` or `spec.priority; class <name> undefined`."""
    drf_dominant: str
    proportion_dominant: str
    volcano_rank: int


@dataclass(frozen=True, slots=True)
class JobProposal:
    """One job in the job-first order, with Volcano's priority for it beside the proposal's."""

    rank: JobRank
    position: int
    source: str
    volcano_priority: int
    volcano_visit: int | None
    """1-based place in the order allocate first visited the jobs; None: never visited."""


@dataclass(slots=True)
class ProposalResult:
    """The proposal's orders for one session, next to Volcano's."""

    label: str
    weights: dict[str, float]
    weights_source: str
    minimum: float
    maximum: float
    range_source: str
    queues: list[QueueProposal]
    jobs: list[JobProposal]
    volcano_queue_order: list[str]
    volcano_job_visits: list[str]
    share_source: str
    notes: list[str] = field(default_factory=list)


def _weights(conf: SchedulerConf) -> tuple[dict[str, float], str, list[str]]:
    notes: list[str] = []
    for action in WEIGHT_ACTIONS:
        arguments = conf.action_arguments(action)
        found: dict[str, float] = {}
        for plugin in PLUGINS:
            key = f"QueueScoreOrder.{plugin}.weight"
            if key not in arguments:
                continue
            raw = arguments[key]
            value: float | None = None
            if isinstance(raw, int | float) and not isinstance(raw, bool):
                value = float(raw)
            elif isinstance(raw, str):
                try:
                    value = float(raw)
                except ValueError:
                    value = None
            if value is None:
                notes.append(f"{action} argument {key} = {raw!r} is not a number: weight 1 used")
            else:
                found[plugin] = value
        if found:
            weights = {plugin: found.get(plugin, 1.0) for plugin in PLUGINS}
            return weights, f"from the conf's {action} arguments QueueScoreOrder.<plugin>.weight, absent ones 1", notes
    return dict(DEFAULT_WEIGHTS), "1 each: the conf has no QueueScoreOrder.<plugin>.weight", notes


def _fmt(number: float) -> str:
    text = f"{number:.6g}"
    return text


class ProposalObserver(Observer):
    """Computes the proposal at session open and records allocate's job visits (Volcano's real order)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.visits: list[str] = []
        self._visited: set[str] = set()
        self._result: ProposalResult | None = None

    def opened(self, ssn: Session, fw: Framework) -> None:
        self._result = proposal_at_open(self.cluster, ssn, fw)

    def allocate_popped(
        self, step: int, queue: QueueInfo, job: JobInfo, queues: PriorityQueue[QueueInfo], jobs: PriorityQueue[JobInfo]
    ) -> None:
        if job.uid not in self._visited:
            self._visited.add(job.uid)
            self.visits.append(job.uid)

    def result(self) -> ProposalResult:
        assert self._result is not None, "run simulate with this observer first"
        result = self._result
        place = {uid: i for i, uid in enumerate(self.visits, start=1)}
        result.volcano_job_visits = list(self.visits)
        result.jobs = [
            JobProposal(j.rank, j.position, j.source, j.volcano_priority, place.get(j.rank.job)) for j in result.jobs
        ]
        return result


def queue_priority(queue: QueueInfo, classes: dict[str, int]) -> tuple[int, str, bool]:
    """(the proposal's priority of a queue, where it came from, whether the queue has one to pass on to its jobs)."""
    name = queue.queue.priority_class_name
    if name and name in classes:
        return classes[name], f"class {name}", True
    source = "spec.priority" + (f"; class {name} undefined" if name else "")
    return queue.priority, source, queue.priority > 0


def proposal_at_open(cluster: Cluster, ssn: Session, fw: Framework) -> ProposalResult:
    """The proposal's queue scores and job-first order for the session as it is now (call before any action)."""
    classes = {c.name: c.value for c in cluster.priority_classes}
    weights, weights_source, notes = _weights(fw.conf)
    names = sorted({job.queue for job in ssn.jobs.values()})
    infos = [ssn.queues[n] for n in names]
    priorities = {q.name: queue_priority(q, classes) for q in infos}
    values = [float(p[0]) for p in priorities.values()] + [float(v) for v in classes.values()]
    minimum = min(values) if values else 0.0
    maximum = max(values) if values else 0.0
    range_source = "every PriorityClass of the dump and the queues' priorities"
    share_plugin = fw.plugins.get("proportion") or fw.plugins.get("capacity")
    attrs = getattr(share_plugin, "attrs", {}) if share_plugin is not None else {}
    share_source = share_plugin.name if share_plugin is not None else ""
    if share_plugin is None:
        notes.append("neither proportion nor capacity is configured: every proportion share is 0")
    elif share_plugin.name == "capacity":
        notes.append("proportion is not configured: the proportion score uses capacity's share")
    allocated: dict[str, res.Vec] = {n: res.zero(len(ssn.dims)) for n in names}
    for job in ssn.jobs.values():
        res.iadd(allocated[job.queue], job.allocated)
    facts = []
    dominants: dict[str, tuple[str, str]] = {}
    for queue in infos:
        drf_share, drf_dim = res.share(allocated[queue.name], ssn.total)
        attr = attrs.get(queue.name)
        share = float(attr.share) if attr is not None else 0.0
        dim = int(attr.dominant) if attr is not None else -1
        dominants[queue.name] = (ssn.dims[drf_dim] if drf_dim >= 0 else "", ssn.dims[dim] if dim >= 0 else "")
        facts.append(QueueFacts(queue.name, float(priorities[queue.name][0]), drf_share, share, 1.0, queue.created))
    scores = queue_scores(facts, minimum, maximum, weights)
    volcano_order = [q.name for q in fw.queue_chain.sorted(infos)]
    volcano_rank = {name: i for i, name in enumerate(volcano_order, start=1)}
    rows = [
        QueueProposal(score, i, priorities[score.name][1], *dominants[score.name], volcano_rank[score.name])
        for i, score in enumerate(scores, start=1)
    ]
    jobs: list[JobFacts] = []
    sources: dict[str, str] = {}
    volcano_priority: dict[str, int] = {}
    for job in sorted(ssn.jobs.values(), key=lambda j: j.uid):
        if not any(t.status == PENDING for t in job.tasks):
            continue
        own = job.pod_group.priority_class_name
        volcano_priority[job.uid] = job.priority
        if own and own in classes:
            jobs.append(JobFacts(job.uid, job.queue, float(classes[own]), job.created))
            sources[job.uid] = f"PodGroup class {own}"
        elif priorities[job.queue][2]:
            jobs.append(JobFacts(job.uid, job.queue, None, job.created))
            sources[job.uid] = f"inherited: queue {job.queue} {priorities[job.queue][1]}"
        else:
            jobs.append(JobFacts(job.uid, job.queue, float(job.priority), job.created))
            sources[job.uid] = f"Volcano's: {job.priority_source}; the queue has none to pass on"
    queue_values = {name: float(p[0]) for name, p in priorities.items()}
    ranked = job_first_order(jobs, queue_values, [s.name for s in scores])
    job_rows = [
        JobProposal(rank, i, sources[rank.job], volcano_priority[rank.job], None)
        for i, rank in enumerate(ranked, start=1)
    ]
    notes = [
        f"priority score: (queue priority - {_fmt(minimum)}) / ({_fmt(maximum)} - {_fmt(minimum)}), the minimum and "
        f"maximum over {range_source}" + ("; all equal, so every priority score is 0" if maximum == minimum else ""),
        DRF_SHARE_DEFINITION,
        f"job-first order: the jobs with pending tasks; {JOB_FIRST_TIE_BREAK}",
        *notes,
    ]
    return ProposalResult(
        label=PROPOSAL_LABEL,
        weights=weights,
        weights_source=weights_source,
        minimum=minimum,
        maximum=maximum,
        range_source=range_source,
        queues=rows,
        jobs=job_rows,
        volcano_queue_order=volcano_order,
        volcano_job_visits=[],
        share_source=share_source,
        notes=notes,
    )
