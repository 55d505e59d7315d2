"""Why Volcano serves one job or task before another (`explain_pair`), and what reclaim and preempt did to one pod
(`pod_story`), read from one simulated session.

The rule for a pair: run the session once with an observer (observe.py) that, at the moment allocate first pops
each of the two jobs, reads the live comparator chains (framework.OrderChain.trail) against the other job or its
queue. Shares move as the loop goes, so the values shown are the ones Volcano compared then, not those at session
open. Who goes first is the job allocate visits first (for two tasks of one job: the task it pops first); a job
allocate never visits is "never served" and its reasons come from the session's events (enqueue refused, Overused
queue dropped, Allocatable refused, gang not ready, no node).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.conf import SchedulerConf
from yk_cli.core.volcano.framework import Decision, Framework, VictimStep
from yk_cli.core.volcano.heap import PriorityQueue
from yk_cli.core.volcano.model import Cluster
from yk_cli.core.volcano.observe import Observer, VictimSelection
from yk_cli.core.volcano.proportion import ProportionPlugin
from yk_cli.core.volcano.proposal_view import ProposalObserver, ProposalResult
from yk_cli.core.volcano.scoring import NodeScore
from yk_cli.core.volcano.session import PENDING, JobInfo, QueueInfo, Session, TaskInfo, task_status
from yk_cli.core.volcano.simulate import SimulationResult, simulate

ISSUE_3559 = (
    "Job priority is NOT compared across queues: every Volcano action picks a queue first (QueueOrderFn) and then "
    "the best job inside that queue (JobOrderFn), so a job's PriorityClass only orders it against the jobs of its "
    "own queue (volcano-sh/volcano#3559)."
)
VICTIM_ORDER_RULE = (
    "victim order (BuildVictimsPriorityQueue): tasks of one job: lowest task priority first; tasks of different "
    "queues: lowest queue priority first, then the highest share, then the newer queue, then the larger name "
    "(the reversed QueueOrderFn); different jobs of one queue: the reversed JobOrderFn (lowest job priority "
    "first), then the reversed task order"
)
QUIRK = "volcano-sh/volcano#2147"


class UnknownName(ValueError):
    """A job or pod name that is not in the dump (a usage error), with close matches."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


@dataclass(frozen=True, slots=True)
class Subject:
    """One of the names asked about, resolved."""

    given: str
    kind: str
    """"job" (a PodGroup) or "task" (a pod)."""
    name: str
    """The job ID `<ns>/<podgroup>` or the task `<ns>/<pod>`."""
    job: str
    """The job the subject is or belongs to ("" for a pod in no job)."""
    queue: str


def resolve(cluster: Cluster, name: str) -> Subject:
    """A PodGroup or pod of the dump by `<ns>/<name>`, or by `<name>` alone when only one object has it (a name
    that is both a PodGroup and a pod means the PodGroup)."""
    groups = {g.uid: g for g in cluster.pod_groups}
    pods = {p.key: p for p in cluster.pods}

    def job_subject(uid: str) -> Subject:
        return Subject(name, "job", uid, uid, groups[uid].queue)

    def task_subject(key: str) -> Subject:
        pod = pods[key]
        uid = f"{pod.namespace}/{pod.group}" if pod.group else ""
        queue = groups[uid].queue if uid in groups else ""
        return Subject(name, "task", key, uid if uid in groups else "", queue)

    if "/" in name:
        if name in groups:
            return job_subject(name)
        if name in pods:
            return task_subject(name)
    else:
        jobs = [uid for uid, g in groups.items() if g.name == name]
        tasks = [key for key, p in pods.items() if p.name == name]
        if len(jobs) == 1:
            return job_subject(jobs[0])
        if not jobs and len(tasks) == 1:
            return task_subject(tasks[0])
        if len(jobs) + len(tasks) > 1:
            listed = sorted(jobs) or sorted(tasks)
            raise UnknownName(f"{name!r} is ambiguous: give the namespace, one of {', '.join(listed)}")
    known = sorted(set(groups) | set(pods) | {g.name for g in groups.values()} | {p.name for p in pods.values()})
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    return_message = f"no PodGroup or pod named {name!r} in the dump"
    raise UnknownName(return_message, close)


def share_text(fw: Framework, queue: QueueInfo) -> str:
    """A queue as the queue order sees it: spec.priority and the share plugin's share with its numbers."""
    proportion = fw.plugins.get("proportion")
    parts = [f"priority {queue.priority}"]
    if isinstance(proportion, ProportionPlugin) and queue.name in proportion.attrs:
        attr = proportion.attrs[queue.name]
        dims = fw.ssn.dims
        dominant = f" ({dims[attr.dominant]})" if attr.dominant >= 0 else ""
        allocated = res.fmt_vec(attr.allocated, dims)
        parts.append(
            f"share {attr.share:.4g}{dominant}: allocated {'nothing' if allocated == '-' else allocated} of deserved "
            f"{res.fmt_vec(attr.deserved, dims)}"
        )
    else:
        capacity = fw.plugins.get("capacity")
        attrs = getattr(capacity, "attrs", {}) if capacity is not None else {}
        if queue.name in attrs:
            parts.append(f"capacity share {attrs[queue.name].share:.4g}")
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Moment:
    """What allocate saw when it first popped one of the two jobs (pop number `step`)."""

    step: int
    job: str
    queue: str
    queues: dict[str, str]
    """Both queues at that moment: name -> share_text, or why the queue was not in the loop."""
    trail: tuple[Decision, ...]
    """The comparisons against the other job (same queue) or the other queue (different queues), in chain order;
    empty when the other was not in the heap."""
    other_state: str
    """"in the heap", "dropped as Overused at pop N", "popped now" (same queue), or "not in the loop"."""


@dataclass(slots=True)
class VictimRecord:
    """One victim selection that looked at the pod being explained, in words computed when it happened."""

    action: str
    preemptor: str
    preemptor_job: str
    preemptor_queue: str
    node: str
    outcome: str
    role: str
    """What this selection did to the pod."""
    status: str
    """"excluded", "filtered", "evicted", "not needed", "undone"."""
    decided_by: str
    """The plugin and tier that kept or chose the pod ("" when excluded before the plugins)."""
    steps: list[tuple[int, str, str, bool | None]] = field(default_factory=list)
    """(tier, plugin, what it answered, whether its set held the pod; None: it abstained)."""
    quirk: str = ""
    order: list[tuple[str, str]] = field(default_factory=list)
    """The victim order: (task, its order key), first evicted first."""
    evicted: list[str] = field(default_factory=list)


class ExplainObserver(Observer):
    """Records the moments and victim selections an explanation needs (see the module docstring)."""

    def __init__(self, jobs: Sequence[str], tasks: Sequence[str], pod: str = "") -> None:
        self.jobs = tuple(j for j in jobs if j)
        self.tasks = tuple(tasks)
        self.pod = pod
        self.moments: dict[str, Moment] = {}
        self.dropped: dict[str, tuple[int, str]] = {}
        self.task_seq: dict[str, int] = {}
        self._seq = 0
        self.records: list[VictimRecord] = []
        self.visits: list[str] = []
        self._visited: set[str] = set()
        self.ssn: Session | None = None
        self.fw: Framework | None = None
        self.queues_of: dict[str, str] = {}
        self.no_nodes: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
        """(action, task) -> every node with why it failed the task, for the tasks asked about and their jobs."""
        self.placements: list[Placement] = []
        """The node choices for the pod asked about."""

    def watching(self, task: TaskInfo) -> bool:
        return bool(self.pod) and task.key == self.pod

    def node_chosen(self, action: str, task: TaskInfo, pipelined: bool, scores: Sequence[NodeScore]) -> None:
        rows = tuple((s.node.name, s.total, s.parts) for s in scores)
        self.placements.append(Placement(action, pipelined, rows))

    def opened(self, ssn: Session, fw: Framework) -> None:
        self.ssn, self.fw = ssn, fw
        self.queues_of = {uid: ssn.jobs[uid].queue for uid in self.jobs if uid in ssn.jobs}

    def allocate_dropped(self, step: int, queue: QueueInfo, queues: PriorityQueue[QueueInfo]) -> None:
        if queue.name in self.queues_of.values() and queue.name not in self.dropped:
            assert self.fw is not None
            self.dropped[queue.name] = (step, share_text(self.fw, queue))

    def allocate_popped(
        self, step: int, queue: QueueInfo, job: JobInfo, queues: PriorityQueue[QueueInfo], jobs: PriorityQueue[JobInfo]
    ) -> None:
        if job.uid not in self._visited:
            self._visited.add(job.uid)
            self.visits.append(job.uid)
        if job.uid not in self.queues_of or job.uid in self.moments:
            return
        ssn, fw = self.ssn, self.fw
        assert ssn is not None and fw is not None
        other = next((uid for uid in self.queues_of if uid != job.uid), None)
        shown = {queue.name: share_text(fw, queue)}
        trail: tuple[Decision, ...] = ()
        state = "not in the loop"
        if other is not None:
            other_job = ssn.jobs[other]
            other_queue = ssn.queues[other_job.queue]
            if other_queue is queue:
                if any(j is other_job for j in jobs.items()):
                    state = "in the heap"
                    trail = tuple(fw.job_chain.trail(job, other_job))
                else:
                    state = "popped now" if other_job is job else "not in the loop"
            else:
                if any(q is other_queue for q in queues.items()):
                    state = "in the heap"
                    trail = tuple(fw.queue_chain.trail(queue, other_queue))
                    shown[other_queue.name] = share_text(fw, other_queue)
                elif other_queue.name in self.dropped:
                    at, text = self.dropped[other_queue.name]
                    state = f"dropped as Overused at pop {at}"
                    shown[other_queue.name] = f"dropped as Overused at pop {at} ({text})"
                else:
                    now = share_text(fw, other_queue)
                    shown[other_queue.name] = f"no longer in the loop: no job of it left to serve ({now})"
        self.moments[job.uid] = Moment(step, job.uid, queue.name, shown, trail, state)

    def allocate_task(self, step: int, job: JobInfo, task: TaskInfo) -> None:
        self._seq += 1
        if task.key in self.tasks and task.key not in self.task_seq:
            self.task_seq[task.key] = self._seq

    def no_node(self, action: str, task: TaskInfo, verdicts: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        job = task.job
        if task.key in self.tasks or task.key == self.pod or (job is not None and job.uid in self.jobs):
            self.no_nodes[(action, task.key)] = list(verdicts)

    def victims(self, selection: VictimSelection) -> None:
        if not self.pod:
            return
        involved = (
            any(t.key == self.pod for t in selection.candidates)
            or any(t.key == self.pod for t, _ in selection.excluded)
        )
        if involved:
            assert self.fw is not None
            self.records.append(_record(self.fw, selection, self.pod))


def _victim_key(fw: Framework, task: TaskInfo) -> str:
    job = task.job
    if job is None:
        return f"no job; task priority {task.priority}"
    queue = fw.ssn.queues[job.queue]
    share = ""
    proportion = fw.plugins.get("proportion")
    if isinstance(proportion, ProportionPlugin) and queue.name in proportion.attrs:
        share = f", share {proportion.attrs[queue.name].share:.4g}"
    return (
        f"queue {queue.name} (priority {queue.priority}{share}), job {job.uid} (priority {job.priority}), task "
        f"priority {task.priority}"
    )


def _answer(step: VictimStep) -> str:
    if step.vote == 0:
        return "abstains"
    if not step.candidates:
        return "no victims: the selection is reset and the walk goes on"
    size = len(step.candidates)
    kept = "reset (empty intersection)" if step.running is None else f"{len(step.running)} left"
    return f"{size} victim{'s' * (size != 1)} ({kept})"


def _record(fw: Framework, sel: VictimSelection, pod: str) -> VictimRecord:
    job = sel.preemptor.job
    record = VictimRecord(
        action=sel.action,
        preemptor=sel.preemptor.key,
        preemptor_job=job.uid if job is not None else "",
        preemptor_queue=job.queue if job is not None else "",
        node=sel.node,
        outcome=sel.outcome,
        role="",
        status="",
        decided_by="",
    )
    for step in sel.trail:
        holds = None if step.vote == 0 else pod in step.candidates
        record.steps.append((step.tier, step.plugin, _answer(step), holds))
    record.order = [(t.key, _victim_key(fw, t)) for t in sel.order]
    record.evicted = [t.key for t in sel.evicted]
    excluded = next((why for t, why in sel.excluded if t.key == pod), None)
    deciding = next((s.tier for s in reversed(sel.trail) if s.running is not None), None) if sel.victims else None
    resets = [s for s in sel.trail if s.vote != 0 and not s.candidates]
    if deciding is not None and any(s.tier < deciding for s in resets):
        first = next(s for s in resets if s.tier < deciding)
        record.quirk = (
            f"tier {first.tier} {first.plugin} returned no victims, which resets the selection instead of vetoing "
            f"it: Volcano walks on to tier {deciding}, which chose the victims (the empty-set quirk, {QUIRK})"
        )
    if excluded is not None:
        record.status, record.role = "excluded", f"never a candidate: {excluded}"
        return record
    victim_keys = [t.key for t in sel.victims] if sel.victims else []
    if pod in record.evicted:
        position = [k for k, _ in record.order].index(pod) + 1
        record.status = "evicted"
        record.role = f"chosen: victim {position} of {len(record.order)} in the victim order, evicted"
        record.decided_by = _chooser(sel.trail, deciding)
        return record
    if pod in victim_keys:
        record.decided_by = _chooser(sel.trail, deciding)
        ordered = [k for k, _ in record.order]
        if pod not in ordered:  # the victims could not free enough room: no victim order was built
            record.status = "not needed"
            record.role = f"in the victim set, but the {len(victim_keys)} victims could not free enough room on the " \
                          "node: nothing was evicted there"
            return record
        position = ordered.index(pod) + 1
        if sel.evicted:
            record.status = "not needed"
            record.role = (
                f"in the victim set (victim {position} of {len(record.order)}) but not needed: the first "
                f"{len(sel.evicted)} made room"
            )
        else:
            record.status = "not needed"
            record.role = f"in the victim set (victim {position} of {len(record.order)}) but nothing was evicted"
        return record
    record.status = "filtered"
    if deciding is None:
        record.role = "kept: no tier produced victims (" + (sel.outcome or "no victims") + ")"
        last = next((s for s in reversed(sel.trail) if s.vote != 0 and pod not in s.candidates), None)
        record.decided_by = f"{last.plugin} (tier {last.tier})" if last is not None else ""
        return record
    dropper = next(
        (s for s in sel.trail if s.tier == deciding and s.vote != 0 and pod not in s.candidates), None
    )
    if dropper is not None:
        record.decided_by = f"{dropper.plugin} (tier {dropper.tier})"
        record.role = f"kept: {dropper.plugin} (tier {dropper.tier}) did not choose it, and tier {deciding} decides"
    else:
        record.role = f"kept: not in the victims of tier {deciding}"
    return record


def _chooser(trail: Sequence[VictimStep], tier: int | None) -> str:
    names = [s.plugin for s in trail if s.tier == tier and s.vote != 0 and s.candidates]
    return f"{' and '.join(names)} (tier {tier})" if names else ""


# -- the pair ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideFacts:
    """What happened to one of the two over the whole session."""

    subject: Subject
    job_priority: int | None
    job_priority_source: str
    task_priority: int | None
    visit: int | None
    """The allocate pop that first visited its job (None: never)."""
    moment: Moment | None
    bound: tuple[str, ...]
    """`<task> (<action>)` for every bind and pipeline of its tasks (its own only, for a task)."""
    reasons: tuple[str, ...]
    """Why it was not served (empty when it was)."""


@dataclass(slots=True)
class PairExplanation:
    """Why `first` is served before `second` (the report turns this into words)."""

    asked: tuple[str, str]
    first: SideFacts
    second: SideFacts
    swapped: bool
    """True when the second name asked about is served first."""
    level: str
    """"tasks" (one job), "jobs" (one queue), "queues" (different queues) or "never" (neither is served)."""
    when: str
    """Where the comparison was read: "allocate pop N" or "session open"."""
    trail: tuple[Decision, ...]
    decided: Decision | None
    statements: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    one_queue_trail: tuple[Decision, ...] = ()
    """Different queues: how JobOrderFn would order the two jobs if they were in one queue."""
    conf_source: str = ""
    notes: list[str] = field(default_factory=list)
    proposal: ProposalResult | None = None
    proposal_verdict: str = ""


class _Both(Observer):
    """Runs an explanation observer and, for --proposal, the proposal observer on the same session."""

    def __init__(self, *observers: Observer) -> None:
        self.observers = observers

    def opened(self, ssn: Session, fw: Framework) -> None:
        for o in self.observers:
            o.opened(ssn, fw)

    def allocate_dropped(self, step: int, queue: QueueInfo, queues: PriorityQueue[QueueInfo]) -> None:
        for o in self.observers:
            o.allocate_dropped(step, queue, queues)

    def allocate_popped(
        self, step: int, queue: QueueInfo, job: JobInfo, queues: PriorityQueue[QueueInfo], jobs: PriorityQueue[JobInfo]
    ) -> None:
        for o in self.observers:
            o.allocate_popped(step, queue, job, queues, jobs)

    def allocate_task(self, step: int, job: JobInfo, task: TaskInfo) -> None:
        for o in self.observers:
            o.allocate_task(step, job, task)

    def victims(self, selection: VictimSelection) -> None:
        for o in self.observers:
            o.victims(selection)


def run(
    cluster: Cluster, conf: SchedulerConf, watch: ExplainObserver, proposal: bool
) -> tuple[SimulationResult, ProposalResult | None]:
    """The session with the explanation observer (and the proposal's, when asked)."""
    if not proposal:
        return simulate(cluster, conf, observer=watch), None
    view = ProposalObserver(cluster)
    result = simulate(cluster, conf, observer=_Both(watch, view))
    return result, view.result()


def _served(result: SimulationResult, subject: Subject) -> tuple[str, ...]:
    out = []
    for action, events in result.actions:
        for item in events:
            if item.type not in ("bind", "pipeline"):
                continue
            if subject.kind == "task" and item.get("task") != subject.name:
                continue
            if subject.kind == "job" and item.get("job") != subject.job:
                continue
            out.append(f"{item.get('task')} ({action}{', pipelined' if item.type == 'pipeline' else ''})")
    return tuple(out)


def job_reasons(result: SimulationResult, watch: ExplainObserver, subject: Subject) -> tuple[str, ...]:
    """Why a job (or a task's job) got nothing in the session, from its events, in session order."""
    ssn = result.session
    uid = subject.job
    if not uid:
        return ("the pod belongs to no PodGroup Volcano schedules (another scheduler, or no group)",)
    job = ssn.jobs.get(uid)
    if job is None:
        return (f"its queue {subject.queue!r} does not exist: Volcano ignores the job",)
    out: list[str] = []
    detailed = False
    proportion = result.framework.plugins.get("proportion")
    for action, events in result.actions:
        for item in events:
            if item.get("job") != uid:
                continue
            task = item.get("task")
            if subject.kind == "task" and task is not None and task != subject.name:
                continue
            if item.type == "enqueue-rejected":
                out.append(f"{action}: the PodGroup stays Pending: {item.get('by')} JobEnqueueable rejects it"
                           + _enqueue_detail(result, job, str(item.get("by"))))
            elif item.type == "job-invalid":
                out.append(f"{action}: the job is not valid: {item.get('reason')}")
            elif item.type == "not-allocatable":
                detail = ""
                if isinstance(proportion, ProportionPlugin) and job.queue in proportion.attrs:
                    attr = proportion.attrs[job.queue]
                    detail = (f": the queue's allocated + the task's request would pass its deserved "
                              f"{res.fmt_vec(attr.deserved, ssn.dims)}")
                out.append(f"{action}: {task} refused by {item.get('by')} Allocatable{detail}")
            elif item.type == "no-node":
                out.append(f"{action}: {task}: {item.get('reason')}")
                verdicts = watch.no_nodes.get((action, str(task)))
                if verdicts and (subject.kind == "task" or not detailed):
                    detailed = True
                    out.extend(f"{action}: {task}: {line}" for line in node_lines(verdicts))
            elif item.type == "gang-discarded":
                out.append(f"{action}: placed {', '.join(str(t) for t in _as_list(item.get('tasks')))} but the job "
                           f"stayed below minAvailable {job.min_available} (gang): undone")
            elif item.type == "gang-kept":
                out.append(f"{action}: {', '.join(str(t) for t in _as_list(item.get('tasks')))} allocated but not "
                           "bound: the job is pipelined, not ready (gang)")
            elif item.type == "no-reclaim":
                out.append(f"{action}: {task}: {item.get('reason')}")
    if uid not in watch.moments and job.queue in watch.dropped:
        at, text = watch.dropped[job.queue]
        out.append(f"allocate: queue {job.queue} was Overused at pop {at} ({text}): dropped for the rest of the "
                   "action before this job's turn")
    pod = next((t.pod for t in job.tasks if t.key == subject.name), None) if subject.kind == "task" else None
    if not out and pod is not None and task_status(pod) != PENDING:
        where = f" on node {pod.node_name}" if pod.node_name else ""
        out.append(f"nothing to place: it is already {task_status(pod)}{where}")
    pending = sum(1 for t in job.tasks if task_status(t.pod) == PENDING)
    if not out and pending == 0 and not _served(result, subject):
        out.append(f"nothing to place: none of its {len(job.tasks)} tasks was pending at session open")
    if not out and job.is_pending() and "enqueue" in result.conf.actions:
        out.append("its PodGroup is Pending and enqueue did not admit it")
    if not out and "allocate" not in result.conf.actions:
        out.append("the conf has no allocate action")
    return tuple(out)


def _as_list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


MAX_NODES_NAMED = 8


def node_lines(verdicts: Sequence[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The nodes that failed a task, grouped by their reasons (in node name order): `nodes a, b: <reasons>`."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for node, reasons in verdicts:
        groups.setdefault(reasons, []).append(node)
    out = []
    for reasons, nodes in groups.items():
        shown = ", ".join(nodes[:MAX_NODES_NAMED])
        if len(nodes) > MAX_NODES_NAMED:
            shown += f" and {len(nodes) - MAX_NODES_NAMED} more"
        out.append(f"{'node' if len(nodes) == 1 else 'nodes'} {shown}: {', '.join(reasons) or 'passes'}")
    return out


def _enqueue_detail(result: SimulationResult, job: JobInfo, by: str) -> str:
    dims = result.session.dims
    need = res.fmt_vec(job.min_resources, dims) if job.min_resources is not None else "-"
    if by == "proportion":
        proportion = result.framework.plugins.get("proportion")
        if isinstance(proportion, ProportionPlugin) and job.queue in proportion.attrs:
            cap = res.fmt_vec(proportion.attrs[job.queue].real_capability, dims)
            return (f" (its minResources {need}, added to what queue {job.queue} holds and has admitted, pass the "
                    f"queue's realCapability {cap})")
    if by == "overcommit":
        return f" (its minResources {need} do not fit the cluster total x overcommit-factor, minus what is used and " \
               "already admitted)"
    if by == "capacity":
        return f" (its minResources {need} pass the queue's capability or realCapability)"
    return ""


def _side(result: SimulationResult, watch: ExplainObserver, subject: Subject) -> SideFacts:
    ssn = result.session
    job = ssn.jobs.get(subject.job)
    task_priority = None
    if subject.kind == "task" and job is not None:
        task = next((t for t in job.tasks if t.key == subject.name), None)
        task_priority = task.priority if task is not None else None
    served = _served(result, subject)
    moment = watch.moments.get(subject.job)
    visit = moment.step if moment is not None else None
    reasons = () if served else job_reasons(result, watch, subject)
    return SideFacts(
        subject=subject,
        job_priority=job.priority if job is not None else None,
        job_priority_source=job.priority_source if job is not None else "",
        task_priority=task_priority,
        visit=visit,
        moment=moment,
        bound=served,
        reasons=reasons,
    )


def explain_pair(
    cluster: Cluster, conf: SchedulerConf, x_name: str, y_name: str, proposal: bool = False
) -> PairExplanation:
    """Why X is served before Y, or Y before X (see the module docstring). Raises UnknownName."""
    x, y = resolve(cluster, x_name), resolve(cluster, y_name)
    if x.name == y.name:
        raise UnknownName(f"{x_name!r} and {y_name!r} name the same {'PodGroup' if x.kind == 'job' else 'pod'}")
    if x.kind != y.kind and x.job and x.job == y.job:
        raise UnknownName(f"{x.name if x.kind == 'task' else y.name} is a task of {x.job}: nothing to order")
    tasks = [s.name for s in (x, y) if s.kind == "task"]
    watch = ExplainObserver([x.job, y.job] if x.job != y.job else [x.job], tasks)
    result, view = run(cluster, conf, watch, proposal)
    ssn, fw = result.session, result.framework
    sx, sy = _side(result, watch, x), _side(result, watch, y)
    notes = list(result.notes)
    if x.job and x.job == y.job:
        return _tasks_of_one_job(result, watch, sx, sy, (x_name, y_name), notes, view)
    vx, vy = sx.visit, sy.visit
    if vx is None and vy is None:
        first, second, swapped, level = sx, sy, False, "never"
    elif vy is None or (vx is not None and vx < vy):
        first, second, swapped = sx, sy, False
        level = "jobs" if x.queue == y.queue else "queues"
    else:
        first, second, swapped = sy, sx, True
        level = "jobs" if x.queue == y.queue else "queues"
    explanation = PairExplanation((x_name, y_name), first, second, swapped, level, "", (), None, notes=notes,
                                  proposal=view)
    job_a, job_b = ssn.jobs.get(first.subject.job), ssn.jobs.get(second.subject.job)
    if level == "never":
        explanation.when = "session open"
        if job_a is not None and job_b is not None:
            explanation.trail = _open_trail(result, job_a, job_b)
    else:
        assert first.moment is not None
        explanation.when = f"allocate pop {first.moment.step}"
        explanation.trail = first.moment.trail
    explanation.decided = next((d for d in explanation.trail if d.result), None)
    if job_a is not None and job_b is not None and job_a.queue != job_b.queue:
        explanation.statements.append(ISSUE_3559)
        explanation.one_queue_trail = tuple(fw.job_chain.trail(job_a, job_b))
        explanation.changes = _cross_queue_changes(fw, job_a, job_b, explanation)
    elif job_a is not None and job_b is not None:
        explanation.changes = _same_queue_changes(job_a, job_b, explanation.decided)
    if view is not None:
        explanation.proposal_verdict = _proposal_verdict(view, first.subject, second.subject)
    return explanation


def _open_trail(result: SimulationResult, a: JobInfo, b: JobInfo) -> tuple[Decision, ...]:
    """The comparison as it stands at the end of the session, for two jobs allocate never visited."""
    fw, ssn = result.framework, result.session
    if a.queue == b.queue:
        return tuple(fw.job_chain.trail(a, b))
    return tuple(fw.queue_chain.trail(ssn.queues[a.queue], ssn.queues[b.queue]))


def _tasks_of_one_job(
    result: SimulationResult,
    watch: ExplainObserver,
    sx: SideFacts,
    sy: SideFacts,
    asked: tuple[str, str],
    notes: list[str],
    view: ProposalResult | None,
) -> PairExplanation:
    job = result.session.jobs.get(sx.subject.job)
    fw = result.framework
    kx, ky = watch.task_seq.get(sx.subject.name), watch.task_seq.get(sy.subject.name)
    tx = next((t for t in job.tasks if t.key == sx.subject.name), None) if job is not None else None
    ty = next((t for t in job.tasks if t.key == sy.subject.name), None) if job is not None else None
    trail: tuple[Decision, ...] = ()
    if tx is not None and ty is not None:
        trail = tuple(fw.task_chain.trail(tx, ty))
    decided = next((d for d in trail if d.result), None)
    if kx is not None and ky is not None:
        swapped = ky < kx
    elif kx is None and ky is None:
        swapped = decided is not None and decided.result > 0
    else:
        swapped = kx is None
    first, second = (sy, sx) if swapped else (sx, sy)
    if swapped and trail and tx is not None and ty is not None:
        trail = tuple(fw.task_chain.trail(ty, tx))
        decided = next((d for d in trail if d.result), None)
    when = "allocate (task order)" if kx is not None or ky is not None else "session open (task order)"
    changes = []
    if decided is not None and decided.plugin == "priority":
        changes.append(
            f"give {second.subject.name} a higher task priority (pod spec.priority through its priorityClassName, or "
            "the volcano.sh/task-priority annotation) than " + first.subject.name
        )
    elif decided is not None:
        changes.append(
            "task priorities are equal, so helpers.CompareTask decides: the pod-name index, then the older pod, then "
            "the smaller UID; a higher task priority (volcano.sh/task-priority) would put a task first"
        )
    return PairExplanation(asked, first, second, swapped, "tasks", when, trail, decided, changes=changes, notes=notes,
                           proposal=view)


def _same_queue_changes(a: JobInfo, b: JobInfo, decided: Decision | None) -> list[str]:
    if decided is None:
        return []
    if decided.plugin == "priority":
        return [f"give {b.uid} a PodGroup priorityClassName whose value is above {a.priority} (it has {b.priority}, "
                f"{b.priority_source})"]
    if decided.plugin == "gang":
        return ["gang puts a job that is not ready (fewer ready tasks than minAvailable) before a ready one; with "
                f"equal priorities {b.uid} goes first only once {a.uid} is ready or {b.uid} is not; a higher "
                f"PodGroup priority for {b.uid} decides before gang"]
    if decided.plugin == "drf":
        return [f"drf puts the job with the lower dominant share first; a higher PodGroup priority for {b.uid} "
                "decides before drf"]
    return [f"the plugins tie, so the older PodGroup (then the smaller ID) goes first; a higher PodGroup priority for "
            f"{b.uid} would decide instead"]


def _cross_queue_changes(fw: Framework, a: JobInfo, b: JobInfo, explanation: PairExplanation) -> list[str]:
    qa, qb = fw.ssn.queues[a.queue], fw.ssn.queues[b.queue]
    out = []
    decided = explanation.decided
    if qa.priority >= qb.priority:
        out.append(
            f"raise queue {qb.name}'s spec.priority above {qa.priority} (queue {qa.name}'s; it has {qb.priority}): "
            "proportion and capacity compare spec.priority before any share"
        )
    if decided is not None and decided.plugin in ("proportion", "capacity") and qa.priority == qb.priority:
        out.append(
            f"with equal queue priorities the lower share goes first: queue {qb.name} is served first while its "
            f"share is below queue {qa.name}'s (more weight or fewer running pods for {qb.name} lower its share)"
        )
    one = explanation.one_queue_trail
    verdict = next((d for d in one if d.result), None)
    if verdict is not None:
        where = f"{verdict.plugin} (tier {verdict.tier})" if verdict.tier else verdict.plugin
        out.append(
            f"put both jobs in one queue: JobOrderFn then decides, and {verdict.first} goes first ({where}: "
            f"{verdict.left} vs {verdict.right})"
        )
    if b.priority > a.priority:
        out.append(
            f"{b.uid}'s higher job priority ({b.priority} > {a.priority}) counts only against jobs of its own queue "
            f"{qb.name}"
        )
    return out


def _proposal_verdict(view: ProposalResult, first: Subject, second: Subject) -> str:
    positions = {j.rank.job: j for j in view.jobs}
    a, b = positions.get(first.job), positions.get(second.job)
    if a is None or b is None:
        missing = [s.job for s, p in ((first, a), (second, b)) if p is None]
        return f"job-first order: {', '.join(missing)} has no pending task, so the proposal does not rank it"
    leader, other = (a, b) if a.position < b.position else (b, a)
    return (
        f"job-first order: {leader.rank.job} ({_num(leader.rank.priority)}, {leader.source}) at {leader.position} "
        f"before {other.rank.job} ({_num(other.rank.priority)}, {other.source}) at {other.position}"
    )


def _num(value: float) -> str:
    return f"{value:.6g}"


# -- one pod -----------------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class PodStory:
    """What reclaim and preempt did to one pod."""

    subject: Subject
    status: str
    """The pod's task status at session open ("" when Volcano does not schedule it)."""
    node: str
    verdict: str
    """"evicted", "spared" (looked at, kept) or "not considered"."""
    eviction: tuple[str, str, str] | None
    """(action, preemptor, node) of the eviction."""
    records: list[VictimRecord]
    reasons: list[str]
    conf_source: str = ""
    notes: list[str] = field(default_factory=list)
    rule: str = VICTIM_ORDER_RULE
    waiting: list[Waiting] = field(default_factory=list)
    """Every time allocate or backfill found no node for the pod, with each node's reasons."""
    placements: list[Placement] = field(default_factory=list)
    """Every node choice for the pod, with each candidate's scores."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One node choice for the pod (allocate, backfill, preempt or reclaim): every candidate of the gradient it was
    chosen from with its total and its parts by plugin, best first (the chosen node first)."""

    action: str
    pipelined: bool
    scores: tuple[tuple[str, float, tuple[tuple[str, float], ...]], ...]
    """(node, total, ((plugin or plugin/scorer, weighted score), ...)) per candidate."""

    @property
    def node(self) -> str:
        return self.scores[0][0]

    @property
    def tie(self) -> tuple[str, ...]:
        """The other candidates with the chosen node's total (Volcano picks among them at random)."""
        best = self.scores[0][1]
        return tuple(name for name, total, _ in self.scores[1:] if total == best)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One try that found no node for the pod: Volcano's FitErrors message, its counts and every node's reasons."""

    action: str
    reason: str
    counts: dict[str, int]
    nodes: list[tuple[str, tuple[str, ...]]]


def pod_story(cluster: Cluster, conf: SchedulerConf, name: str) -> PodStory:
    """The pod's story (raises UnknownName; a PodGroup name is refused: give one of its pods)."""
    subject = resolve(cluster, name)
    if subject.kind != "task":
        pods = sorted(p.key for p in cluster.pods if f"{p.namespace}/{p.group}" == subject.name)
        raise UnknownName(f"{subject.name} is a PodGroup: name one of its pods", pods[:3])
    watch = ExplainObserver([subject.job] if subject.job else [], [subject.name], pod=subject.name)
    result, _ = run(cluster, conf, watch, False)
    ssn = result.session
    task = None
    job = ssn.jobs.get(subject.job)
    if job is not None:
        task = next((t for t in job.tasks if t.key == subject.name), None)
    eviction = None
    for action, events in result.actions:
        for item in events:
            if item.type == "evict" and item.get("task") == subject.name:
                eviction = (action, str(item.get("for")), str(item.get("node")))
    records = watch.records
    if eviction is not None:
        for record in records:
            if record.status == "evicted" and (record.action, record.preemptor) != eviction[:2]:
                record.status = "undone"
                record.role += "; that try was undone (its statement was discarded)"
    else:
        for record in records:
            if record.status == "evicted":
                record.status = "undone"
                record.role += ", then undone: its statement was discarded (the preemptor did not fit on that " \
                               "node, or its job did not become pipelined)"
    verdict = "evicted" if eviction is not None else ("spared" if records else "not considered")
    reasons: list[str] = []
    if verdict == "not considered":
        reasons = _not_considered(result, task)
    pod = next(p for p in cluster.pods if p.key == subject.name)
    status = task_status(pod) if task is not None else ""
    waiting = []
    for action, events in result.actions:
        for item in events:
            if item.type == "no-node" and item.get("task") == subject.name:
                found = item.get("reasons")
                counts = dict(found) if isinstance(found, dict) else {}
                nodes = watch.no_nodes.get((action, subject.name), [])
                waiting.append(Waiting(action, str(item.get("reason")), counts, nodes))
    return PodStory(subject, status, pod.node_name, verdict, eviction, records, reasons, notes=list(result.notes),
                    waiting=waiting, placements=list(watch.placements))


def _not_considered(result: SimulationResult, task: TaskInfo | None) -> list[str]:
    actions = [a for a in result.conf.actions if a in ("reclaim", "preempt")]
    if task is None:
        return ["Volcano does not schedule this pod (another scheduler, no PodGroup, or a queue that does not exist)"]
    out = []
    if not actions:
        out.append("the conf runs neither reclaim nor preempt: nothing is ever evicted")
    if task.status == PENDING:
        out.append("it is pending: only running (reclaim) or bound/running (preempt) pods can be victims")
    elif not task.pod.node_name:
        out.append(f"it is {task.status} on no node")
    else:
        out.append(
            f"no {' or '.join(actions) or 'eviction'} looked for victims on node {task.pod.node_name}: preempt tries "
            "nodes best score first, reclaim in name order, and each stops at the first node where the victims make "
            "room, and only for a starving job (reclaim: of another queue that may reclaim; preempt: of its own queue)"
        )
    if not task.preemptable:
        out.append("it is marked volcano.sh/preemptable: false, so it would never be a candidate")
    return out
