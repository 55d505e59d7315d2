"""The actions of one session: enqueue, allocate, backfill, preempt and reclaim (pkg/scheduler/actions at HEAD).

Node choice follows Volcano's scores (core/volcano/scoring.py): allocate takes the best-scored node among those the
task fits in idle resources, else among those it fits once their releasing pods are gone (pipelined); preempt tries
nodes best score first. Where Volcano picks at random among equal best scores, yk takes the smallest node name and
records the tie. reclaim tries nodes in name order (Volcano: its predicate helper's order, which rotates).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.predicates.pod_plugins import INTER_POD_AFFINITY
from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.framework import Framework
from yk_cli.core.volcano.heap import PriorityQueue
from yk_cli.core.volcano.model import POD_GROUP_INQUEUE
from yk_cli.core.volcano.observe import Observer, VictimSelection
from yk_cli.core.volcano.predicates import argument_bool
from yk_cli.core.volcano.scoring import NodeScore, NodeScorer
from yk_cli.core.volcano.session import (
    ALLOCATED,
    BINDING,
    PENDING,
    PREEMPTABLE_STATUSES,
    RUNNING,
    JobInfo,
    NodeInfo,
    QueueInfo,
    Session,
    Statement,
    TaskInfo,
    event,
)

NodeVerdict = tuple[str, tuple[str, ...]]
"""A node and the reasons it fails a task (Insufficient <resource>, or the predicates' statuses)."""

NODE_RULE = (
    "Nodes are scored as Volcano scores them (the binpack and nodeorder plugins enabled in the conf, with their "
    "weights) among those that pass the enabled predicates and fit the task; the best total wins. Where Volcano "
    "picks at random among equal best totals, yk takes the smallest node name and says it was a tie. A node that "
    "fits the task only once its releasing pods are gone pipelines it. preempt tries nodes best score first, reclaim "
    "in name order."
)
TOPOLOGY_AWARE = "enableTopologyAwarePreemption"
"""The preempt argument that switches to Volcano's topology-aware path."""
BACKFILL_NO_PIPELINE = "only a node whose releasing pods are still running has room (backfill does not pipeline)"
TIE_SHOWN = 5
"""How many of the other nodes of a tie a decision lists."""


@dataclass(frozen=True, slots=True)
class Choice:
    """Why a node was chosen: its total score and the other nodes with the same best total (at most TIE_SHOWN;
    `more` when there are others still)."""

    score: float
    tie: tuple[str, ...] = ()
    more: bool = False


def _fits(request: res.Vec, node: NodeInfo) -> bool:
    """The task fits the node's idle resources (and its future idle: allocate's first gradient)."""
    idle = node.idle
    if request[0] > idle[0] + res.MIN_RESOURCE or request[1] > idle[1] + res.MIN_RESOURCE:
        return False  # the usual reason, checked first
    return res.less_equal(request, idle) and res.less_equal(request, node.future_idle())


class ScoreIndex:
    """For each request signature in use, the session's nodes by (best score, name); used when a task's scores
    depend on node resources only (NodeScorer.resource_only). A node change is logged, and each signature's heap
    takes in the nodes changed since its last use (once each) when it is used again."""

    LIVE = 16
    """Signatures kept at once; the least recently used one is dropped (and rebuilt if needed again)."""

    def __init__(self, ssn: Session, scorer: NodeScorer) -> None:
        self.ssn = ssn
        self.scorer = scorer
        self.heaps: dict[
            tuple[float, ...], tuple[Callable[[NodeInfo], float], list[tuple[float, str, int, NodeInfo]], list[int]]
        ] = {}
        """signature -> (its node total, its heap, [how much of the change log the heap has taken in])."""
        self.log: list[NodeInfo] = []
        ssn.node_listeners.append(self.log.append)

    def _heap(self, task: TaskInfo) -> list[tuple[float, str, int, NodeInfo]]:
        key = tuple(task.resreq)
        found = self.heaps.pop(key, None)
        if found is None:
            if len(self.heaps) >= self.LIVE:
                del self.heaps[next(iter(self.heaps))]
            total = self.scorer.total_of(task)
            heap = [(-total(n), n.name, n.version, n) for n in self.ssn.nodes]
            heapq.heapify(heap)
            found = (total, heap, [len(self.log)])
        else:
            total, heap, cursor = found
            log = self.log
            if cursor[0] < len(log):
                seen: set[str] = set()
                push = heapq.heappush
                for node in log[cursor[0]:]:
                    if node.name not in seen:
                        seen.add(node.name)
                        push(heap, (-total(node), node.name, node.version, node))
                cursor[0] = len(log)
                if len(heap) > 4 * len(self.ssn.nodes) + 64:
                    heap[:] = [e for e in heap if e[2] == e[3].version]
                    heapq.heapify(heap)
        self.heaps[key] = found
        return found[1]

    def best(self, task: TaskInfo, passes: Callable[[NodeInfo], bool]) -> tuple[NodeInfo | None, Choice | None]:
        """The best-scored node the task fits in idle resources and `passes` (the predicates), with the tie."""
        heap = self._heap(task)
        request = task.resreq
        kept: list[tuple[float, str, int, NodeInfo]] = []
        found: NodeInfo | None = None
        best = 0.0
        tie: list[str] = []
        more = False
        while heap:
            entry = heapq.heappop(heap)
            node = entry[3]
            if entry[2] != node.version:
                continue
            if found is not None and -entry[0] != best:
                kept.append(entry)
                break
            if not _fits(request, node):
                continue  # dropped until the node changes (a change pushes it again)
            kept.append(entry)
            if not passes(node):
                continue
            if found is None:
                found, best = node, -entry[0]
            elif len(tie) < TIE_SHOWN:
                tie.append(node.name)
            else:
                more = True
                break
        for entry in kept:
            heapq.heappush(heap, entry)
        return found, (Choice(best, tuple(tie), more) if found is not None else None)


def choice_of(scores: Sequence[NodeScore]) -> Choice:
    """The choice among scored candidates (best first): the first, tied with the others of the same total."""
    best = scores[0].total
    tied = [s.node.name for s in scores[1:] if s.total == best]
    return Choice(best, tuple(tied[:TIE_SHOWN]), len(tied) > TIE_SHOWN)


class Actions:
    """Runs the configured actions on a session and records their events."""

    def __init__(self, ssn: Session, fw: Framework, observer: Observer | None = None) -> None:
        self.ssn = ssn
        self.fw = fw
        pending = [t for job in ssn.jobs.values() for t in job.tasks if t.status == PENDING]
        self.scorer = NodeScorer(fw.conf, ssn.dims, ssn.nodes, pending)
        self.index = ScoreIndex(ssn, self.scorer)
        self.observer = observer
        self.step = 0
        """allocate's pops so far (an Overused drop counts as one), for the observer."""
        self._fit_errors: dict[tuple[int, int, str, tuple[float, ...]], tuple[str, dict[str, int], list[NodeVerdict]]]
        self._fit_errors = {}

    # -- node choice -----------------------------------------------------------------------------------------------
    def choose_node(self, task: TaskInfo, action: str = "allocate") -> tuple[NodeInfo | None, bool, str]:
        """(node, pipelined, why none): the best-scored node the task fits in idle resources, else the best one it
        fits once releasing pods are gone (pipelined; not for backfill); why none is Volcano's FitErrors message
        (see fit_errors). The choice's score and tie go to the session (Session.node_choices) for the events."""
        fw, scorer = self.fw, self.scorer
        request = task.resreq

        def passes(node: NodeInfo) -> bool:
            return fw.predicate(task, node) is None

        nodes: Sequence[NodeInfo] = self.ssn.nodes
        static = fw.static_nodes(task)
        if static is not None and 2 * len(static) < len(nodes):
            nodes = static  # few nodes can pass: score those only
        node: NodeInfo | None = None
        choice: Choice | None = None
        if nodes is self.ssn.nodes and scorer.resource_only(task):
            node, choice = self.index.best(task, passes)
        else:
            node, choice = self._best(task, [n for n in nodes if _fits(request, n) and passes(n)])
        if node is not None:
            self._chosen(task, action, choice, nodes, False)
            return node, False, ""
        later = [
            n for n in nodes
            if any(r > 0 for r in n.releasing) and res.less_equal(request, n.future_idle()) and passes(n)
        ]
        if later and action == "backfill":
            return None, False, BACKFILL_NO_PIPELINE
        node, choice = self._best(task, later)
        if node is not None:
            self._chosen(task, action, choice, later, True)
            return node, True, ""
        message, _, verdicts = self.fit_errors(task)
        if self.observer is not None:
            self.observer.no_node(action, task, verdicts)
        return None, False, message

    def _best(self, task: TaskInfo, candidates: list[NodeInfo]) -> tuple[NodeInfo | None, Choice | None]:
        """The best of a gradient's candidates: one is taken unscored (as allocate does), several are scored."""
        if not candidates:
            return None, None
        if len(candidates) == 1:
            return candidates[0], Choice(self.scorer.scores(task, candidates)[0].total)
        scores = self.scorer.scores(task, candidates)
        return scores[0].node, choice_of(scores)

    def _chosen(
        self, task: TaskInfo, action: str, choice: Choice | None, nodes: Sequence[NodeInfo], pipelined: bool
    ) -> None:
        if choice is None:
            return
        self.ssn.node_choices[task.uid] = (choice.score, choice.tie, choice.more)
        observer = self.observer
        if observer is not None and observer.watching(task):
            if pipelined:
                candidates = list(nodes)
            else:
                fw = self.fw
                candidates = [n for n in nodes if _fits(task.resreq, n) and fw.predicate(task, n) is None]
            observer.node_chosen(action, task, pipelined, self.scorer.scores(task, candidates))

    def fit_errors(self, task: TaskInfo) -> tuple[str, dict[str, int], list[NodeVerdict]]:
        """Why no node takes the task, as Volcano's allocate records it (api.FitErrors): per node, "Insufficient
        <resource>" (the first short one, cpu and memory first) when its future idle cannot hold the request, else
        the predicates' statuses; the message "0/N nodes are unavailable: <count> <reason>, ...." with the counts
        sorted as strings (a node with two statuses counts in both). Returns (message, counts, per-node verdicts)."""
        ssn, fw = self.ssn, self.fw
        key = (ssn.changes, id(task.pod.spec), task.namespace, tuple(task.resreq))
        hit = self._fit_errors.get(key)
        if hit is not None:
            return hit
        counts: dict[str, int] = {}
        verdicts: list[NodeVerdict] = []
        for node in ssn.nodes:
            future = node.future_idle()
            if res.less_equal(task.resreq, future):
                reasons = tuple(f.reason for f in fw.predicate_failures(task, node))
            else:
                reasons = ("Insufficient " + res.less_equal_names(task.resreq, future, ssn.dims)[0],)
            verdicts.append((node.name, reasons))
            for reason in reasons:
                counts[reason] = counts.get(reason, 0) + 1
        message = f"0/{len(ssn.nodes)} nodes are unavailable"
        if counts:
            message += ": " + ", ".join(sorted(f"{n} {reason}" for reason, n in counts.items())) + "."
        if len(self._fit_errors) > 4096:
            self._fit_errors.clear()
        found = self._fit_errors[key] = (message, counts, verdicts)
        return found

    # -- enqueue ---------------------------------------------------------------------------------------------------
    def enqueue(self) -> None:
        ssn, fw = self.ssn, self.fw
        queues: PriorityQueue[QueueInfo] = PriorityQueue(fw.queue_less)
        seen: set[str] = set()
        jobs_map: dict[str, PriorityQueue[JobInfo]] = {}
        for job in ssn.jobs.values():
            queue = ssn.queues[job.queue]
            if queue.name not in seen:
                seen.add(queue.name)
                queues.push(queue)
            if job.is_pending():
                jobs_map.setdefault(job.queue, PriorityQueue(fw.job_less)).push(job)
        while not queues.empty():
            queue = queues.pop()
            jobs = jobs_map.get(queue.name)
            if jobs is None or jobs.empty():
                continue
            job = jobs.pop()
            admitted, by = (True, "") if job.min_resources is None else fw.job_enqueueable(job)
            if admitted:
                fw.job_enqueued(job)
                job.phase = POD_GROUP_INQUEUE
                ssn.emit(event("enqueue", job=job.uid, queue=queue.name))
            else:
                ssn.emit(event("enqueue-rejected", job=job.uid, queue=queue.name, by=by))
            queues.push(queue)

    # -- allocate --------------------------------------------------------------------------------------------------
    def allocate(self) -> None:
        ssn, fw = self.ssn, self.fw
        queues: PriorityQueue[QueueInfo] = PriorityQueue(fw.queue_less)
        jobs_map: dict[str, PriorityQueue[JobInfo]] = {}
        for job in ssn.jobs.values():
            if job.is_pending():
                if ssn.enqueue_configured:
                    continue
                job.phase = POD_GROUP_INQUEUE
            invalid = fw.job_valid(job)
            if invalid is not None:
                if any(t.status == PENDING for t in job.tasks):
                    ssn.emit(event("job-invalid", job=job.uid, queue=job.queue, reason=invalid))
                continue
            if job.queue not in jobs_map:
                jobs_map[job.queue] = PriorityQueue(fw.job_less)
                queues.push(ssn.queues[job.queue])
            jobs_map[job.queue].push(job)
        pending: dict[int, PriorityQueue[TaskInfo]] = {}
        observer = self.observer
        while not queues.empty():
            queue = queues.pop()
            if fw.overused(queue):
                ssn.emit(event("skip-queue-overused", queue=queue.name))
                if observer is not None:
                    self.step += 1
                    observer.allocate_dropped(self.step, queue, queues)
                continue
            jobs = jobs_map.get(queue.name)
            if jobs is None or jobs.empty():
                continue
            job = jobs.pop()
            if observer is not None:
                self.step += 1
                observer.allocate_popped(self.step, queue, job, queues, jobs)
            tasks = pending.get(id(job))
            if tasks is None:
                tasks = PriorityQueue(fw.task_less)
                for task in job.tasks:
                    if task.status == PENDING and not task.best_effort:
                        tasks.push(task)
                pending[id(job)] = tasks
            if tasks.empty():
                queues.push(queue)
                continue
            self._allocate_job(queue, job, jobs, tasks)
            queues.push(queue)

    def _allocate_job(
        self, queue: QueueInfo, job: JobInfo, jobs: PriorityQueue[JobInfo], tasks: PriorityQueue[TaskInfo]
    ) -> None:
        ssn, fw = self.ssn, self.fw
        stmt = Statement(ssn, "allocate")
        while not tasks.empty():
            task = tasks.pop()
            if self.observer is not None:
                self.observer.allocate_task(self.step, job, task)
            refused = fw.allocatable(queue, task)
            if refused is not None:
                ssn.emit(event("not-allocatable", task=task.key, job=job.uid, queue=queue.name, by=refused))
                continue
            if task.spec_key and task.spec_key in job.fit_failed:
                continue
            node, pipelined, why = self.choose_node(task)
            if node is None:
                job.fit_failed.add(task.spec_key)  # FitFailedRoles: every role, "" included
                ssn.emit(event("no-node", task=task.key, job=job.uid, queue=queue.name, reason=why,
                               reasons=self._counts(task, why)))
                if job.need_continue_allocating():
                    continue
                break
            if pipelined:
                stmt.pipeline(task, node)
            else:
                stmt.allocate(task, node)
            if fw.job_ready(job) and not tasks.empty():
                jobs.push(job)
                break
        if fw.job_ready(job):
            stmt.commit()
        elif not fw.job_pipelined(job):
            if stmt.ops:
                names = [op.task.key for op in stmt.ops]
                ssn.emit(event("gang-discarded", job=job.uid, queue=queue.name, tasks=names))
            stmt.discard()
        elif stmt.ops:
            names = [op.task.key for op in stmt.ops]
            ssn.emit(event("gang-kept", job=job.uid, queue=queue.name, tasks=names))

    # -- backfill --------------------------------------------------------------------------------------------------
    def backfill(self) -> None:
        ssn, fw = self.ssn, self.fw
        queues: PriorityQueue[QueueInfo] = PriorityQueue(fw.queue_less)
        jobs_map: dict[str, PriorityQueue[JobInfo]] = {}
        task_map: dict[int, PriorityQueue[TaskInfo]] = {}
        for job in ssn.jobs.values():
            if job.is_pending() or fw.job_valid(job) is not None:
                continue
            best_effort = [t for t in job.tasks if t.status == PENDING and t.best_effort]
            if not best_effort:
                continue
            heap: PriorityQueue[TaskInfo] = PriorityQueue(fw.task_less)
            for task in best_effort:
                heap.push(task)
            task_map[id(job)] = heap
            if job.queue not in jobs_map:
                jobs_map[job.queue] = PriorityQueue(fw.job_less)
                queues.push(ssn.queues[job.queue])
            jobs_map[job.queue].push(job)
        ordered: list[TaskInfo] = []
        while not queues.empty():
            queue = queues.pop()
            jobs = jobs_map[queue.name]
            while not jobs.empty():
                job = jobs.pop()
                heap = task_map[id(job)]
                while not heap.empty():
                    ordered.append(heap.pop())
        for task in ordered:
            node, _, why = self.choose_node(task, "backfill")
            owner = task.job
            assert owner is not None
            if node is None:
                ssn.emit(event("no-node", task=task.key, job=owner.uid, queue=owner.queue, reason=why,
                               reasons=self._counts(task, why)))
                continue
            ssn.set_status(task, ALLOCATED)
            ssn.node_add(node, task)
            ssn.allocated(task)
            if fw.job_ready(owner):
                for other in owner.tasks:
                    if other.status == ALLOCATED:
                        ssn.set_status(other, BINDING)
                        ssn.emit(event("bind", task=other.key, node=other.node, job=owner.uid, queue=owner.queue,
                                       **ssn.choice_fields(other)))

    # -- preempt and reclaim ---------------------------------------------------------------------------------------
    def _preemptors(
        self,
    ) -> tuple[list[QueueInfo], dict[str, PriorityQueue[JobInfo]], dict[int, PriorityQueue[TaskInfo]], list[JobInfo]]:
        ssn, fw = self.ssn, self.fw
        queues: list[QueueInfo] = []
        seen: set[str] = set()
        preemptors: dict[str, PriorityQueue[JobInfo]] = {}
        tasks: dict[int, PriorityQueue[TaskInfo]] = {}
        starving: list[JobInfo] = []
        for job in ssn.jobs.values():
            if job.is_pending() or fw.job_valid(job) is not None:
                continue
            queue = ssn.queues[job.queue]
            if queue.name not in seen:
                seen.add(queue.name)
                queues.append(queue)
            if fw.job_starving(job):
                preemptors.setdefault(job.queue, PriorityQueue(fw.job_less)).push(job)
                starving.append(job)
                heap: PriorityQueue[TaskInfo] = PriorityQueue(fw.task_less)
                for task in job.tasks:
                    if task.status == PENDING:
                        heap.push(task)
                tasks[id(job)] = heap
        return queues, preemptors, tasks, starving

    def _counts(self, task: TaskInfo, why: str) -> dict[str, int]:
        """The reason counts behind the message fit_errors just gave."""
        hit = self._fit_errors.get((self.ssn.changes, id(task.pod.spec), task.namespace, tuple(task.resreq)))
        return dict(hit[1]) if hit is not None and hit[0] == why else {}

    def _victim_nodes(self, task: TaskInfo) -> list[NodeInfo]:
        """PredicateForPreemptAction: every node but those an UnschedulableAndUnresolvable status rules out."""
        return [n for n in self.ssn.nodes if self.fw.preempt_candidate(task, n)]

    def reclaim(self) -> None:
        """Queue by queue (QueueOrderFn), each starving job (JobOrderFn) reclaims for its pending tasks (TaskOrderFn)
        while it starves, in one statement: committed when the job is pipelined, else discarded."""
        ssn, fw = self.ssn, self.fw
        found, preemptors, tasks, _ = self._preemptors()
        queues: PriorityQueue[QueueInfo] = PriorityQueue(fw.queue_less)
        for queue in found:
            queues.push(queue)
        failed: set[tuple[int, str, tuple[float, ...]]] = set()
        while not queues.empty():
            queue = queues.pop()
            if fw.overused(queue):
                ssn.emit(event("skip-queue-overused", queue=queue.name))
                continue
            jobs = preemptors.get(queue.name)
            while jobs is not None and not jobs.empty():
                job = jobs.pop()
                stmt = Statement(ssn, "reclaim")
                heap = tasks[id(job)]
                while fw.job_starving(job) and not heap.empty():
                    task = heap.pop()
                    if task.pod.preemption_policy == "Never":
                        ssn.emit(event("no-reclaim", task=task.key, job=job.uid, queue=queue.name,
                                       reason="preemptionPolicy: Never"))
                        continue
                    refused = fw.preemptive(queue, task)
                    if refused is not None:
                        ssn.emit(event("no-reclaim", task=task.key, job=job.uid, queue=queue.name,
                                       reason=f"queue may not reclaim for it ({refused} Preemptive)"))
                        continue
                    key = (ssn.changes, queue.name, tuple(task.resreq))
                    if key in failed or not self._reclaim_for(stmt, task, job):
                        failed.add((ssn.changes, queue.name, tuple(task.resreq)))
                if fw.job_pipelined(job):
                    stmt.commit()
                else:
                    if stmt.ops:
                        ssn.emit(event("gang-discarded", job=job.uid, queue=queue.name,
                                       tasks=[op.task.key for op in stmt.ops]))
                    stmt.discard()

    def _reclaim_for(self, stmt: Statement, task: TaskInfo, job: JobInfo) -> bool:
        """reclaimForTask: on the first node (in name order) whose reclaimable victims make room, evict them in victim
        order until the task fits, and pipeline it there; the operations go into the job's statement."""
        ssn, fw, observer = self.ssn, self.fw, self.observer
        for node in self._victim_nodes(task):
            reclaimees = []
            seen = VictimSelection("reclaim", task, node.name) if observer is not None else None
            for other in node.tasks.values():
                if other.status != RUNNING or not other.preemptable or other.job is None or (
                    other.job.queue == job.queue or not ssn.queues[other.job.queue].queue.reclaimable
                ):
                    if seen is not None:
                        seen.excluded.append((other, _reclaim_exclusion(ssn, other, job)))
                    continue
                reclaimees.append(other)
            if seen is not None:
                seen.candidates = list(reclaimees)
            if not reclaimees:
                if seen is not None and observer is not None:
                    seen.outcome = "no candidates"
                    observer.victims(seen)
                continue
            victims = fw.victims("reclaimable", task, reclaimees, seen.trail if seen is not None else None)
            if not victims or not self._valid_victims(task, node, victims):
                if seen is not None and observer is not None:
                    seen.victims = victims
                    seen.outcome = "no victims" if not victims else "the victims cannot free enough room"
                    observer.victims(seen)
                continue
            order = fw.victims_queue(victims, task)
            if seen is not None:
                seen.victims = victims
                seen.order = _drain(fw.victims_queue(victims, task))
            while not order.empty():
                victim = order.pop()
                stmt.evict(victim, "reclaim", task.key)
                if seen is not None:
                    seen.evicted.append(victim)
                if res.less_equal(task.resreq, node.future_idle()):
                    break
            if res.less_equal(task.resreq, node.future_idle()):
                stmt.pipeline(task, node)
                if seen is not None and observer is not None:
                    seen.outcome = "pipelined"
                    observer.victims(seen)
                return True
            if seen is not None and observer is not None:
                seen.outcome = "evicted, but the task still does not fit"
                observer.victims(seen)
            return False
        return False

    @staticmethod
    def _valid_victims(task: TaskInfo, node: NodeInfo, victims: list[TaskInfo]) -> bool:
        """util.ValidateVictims: the victims free enough room on the node."""
        room = node.future_idle()
        for victim in victims:
            res.iadd(room, victim.resreq)
        return res.less_equal(task.resreq, room)

    def preempt(self) -> None:
        ssn, fw = self.ssn, self.fw
        found, preemptors, tasks, starving = self._preemptors()
        for queue in fw.queue_chain.sorted(found):
            jobs = preemptors.get(queue.name)
            while jobs is not None and not jobs.empty():
                job = jobs.pop()
                stmt = Statement(ssn, "preempt")
                assigned = False
                while True:
                    if not fw.job_starving(job):
                        break
                    heap = tasks[id(job)]
                    if heap.empty():
                        break
                    preemptor = heap.pop()
                    if preemptor.pod.preemption_policy == "Never":
                        continue

                    def other_jobs(candidate: TaskInfo, preemptor: TaskInfo = preemptor, job: JobInfo = job) -> str:
                        if candidate.status not in PREEMPTABLE_STATUSES:
                            return f"status {candidate.status}"
                        if preemptor.best_effort and not candidate.best_effort:
                            return "a best-effort preemptor evicts only best-effort tasks"
                        if not candidate.preemptable:
                            return "volcano.sh/preemptable is false"
                        if candidate.job is None:
                            return candidate.outside or "not in a job"
                        if candidate.job.queue != job.queue:
                            return f"in queue {candidate.job.queue}: preempt never crosses queues"
                        if candidate.job is job:
                            return "the preemptor's own job (the intra-job pass decides)"
                        return ""

                    if self._preempt_for(stmt, queue, preemptor, other_jobs):
                        assigned = True
                if fw.job_pipelined(job):
                    stmt.commit()
                else:
                    stmt.discard()
                    continue
                if assigned:
                    jobs.push(job)
        for job in starving:
            heap = PriorityQueue(fw.task_less)
            for task in job.tasks:
                if task.status == PENDING:
                    heap.push(task)
            queue = ssn.queues[job.queue]
            while not heap.empty():
                preemptor = heap.pop()

                def same_job(candidate: TaskInfo, preemptor: TaskInfo = preemptor) -> str:
                    if candidate.status not in PREEMPTABLE_STATUSES:
                        return f"status {candidate.status}"
                    if preemptor.best_effort and not candidate.best_effort:
                        return "a best-effort preemptor evicts only best-effort tasks"
                    if candidate.job is not preemptor.job:
                        return "another job (the intra-job pass takes only the preemptor's own job)"
                    return ""

                stmt = Statement(ssn, "preempt")
                assigned = self._preempt_for(stmt, queue, preemptor, same_job)
                stmt.commit()
                if not assigned:
                    break

    def _preempt_victims(
        self, preemptor: TaskInfo, node: NodeInfo, exclusion: Callable[[TaskInfo], str], seen: VictimSelection | None
    ) -> list[TaskInfo] | None:
        """ssn.Preemptable on the node's candidates (the tasks `exclusion` lets through), recorded in `seen`."""
        preemptees = []
        for other in node.tasks.values():
            why = exclusion(other)
            if not why:
                preemptees.append(other)
            elif seen is not None:
                seen.excluded.append((other, why))
        victims = self.fw.victims("preemptable", preemptor, preemptees, seen.trail if seen is not None else None)
        if seen is not None:
            seen.candidates = list(preemptees)
            seen.victims = victims
        return victims

    def _preempt_for(
        self, stmt: Statement, queue: QueueInfo, preemptor: TaskInfo, exclusion: Callable[[TaskInfo], str]
    ) -> bool:
        """Evict for `preemptor` on the first node (best score first, then name) where its victims make room;
        `exclusion` says why a task on the node is not a candidate ("" when it is one). With the action's
        `enableTopologyAwarePreemption`, Volcano's topology-aware path instead (_preempt_topology_aware)."""
        fw, observer = self.fw, self.observer
        candidates = self._victim_nodes(preemptor)
        arguments = fw.conf.action_arguments("preempt")
        if argument_bool(arguments, TOPOLOGY_AWARE, False):
            return self._preempt_topology_aware(stmt, queue, preemptor, exclusion, candidates, arguments)
        if self.scorer.active and len(candidates) > 1:
            candidates = [s.node for s in self.scorer.scores(preemptor, candidates)]  # util.SortNodes: best first
        for node in candidates:
            seen = VictimSelection("preempt", preemptor, node.name) if observer is not None else None
            victims = self._preempt_victims(preemptor, node, exclusion, seen)
            if not victims or not self._valid_victims(preemptor, node, victims):
                if seen is not None and observer is not None:
                    seen.outcome = "no victims" if not victims else "the victims cannot free enough room"
                    observer.victims(seen)
                continue
            order = fw.victims_queue(victims, preemptor)
            if seen is not None:
                seen.order = _drain(fw.victims_queue(victims, preemptor))
            # One statement per node: evictions on a node where the preemptor still does not fit are undone, and
            # those of the node where it does are merged into the job's statement (normalPreempt's nodeStmt).
            on_node = Statement(self.ssn, "preempt")
            while not order.empty():
                if fw.allocatable(queue, preemptor) is None and res.less_equal(preemptor.resreq, node.future_idle()):
                    break
                victim = order.pop()
                on_node.evict(victim, "preempt", preemptor.key)
                if seen is not None:
                    seen.evicted.append(victim)
            if fw.allocatable(queue, preemptor) is None and res.less_equal(preemptor.resreq, node.future_idle()):
                on_node.pipeline(preemptor, node)
                stmt.ops.extend(on_node.ops)
                if seen is not None and observer is not None:
                    seen.outcome = "pipelined"
                    observer.victims(seen)
                return True
            on_node.discard()
            if seen is not None and observer is not None:
                seen.outcome = "evictions undone: the task still does not fit or its queue is at its limit"
                observer.victims(seen)
        return False

    def _preempt_topology_aware(
        self,
        stmt: Statement,
        queue: QueueInfo,
        preemptor: TaskInfo,
        exclusion: Callable[[TaskInfo], str],
        nodes: list[NodeInfo],
        arguments: Mapping[str, object],
    ) -> bool:
        """topologyAwarePreempt: a dry run on the candidate nodes (SelectVictimsOnNode) until enough of them have a
        victim set (calculateNumCandidates), the best of those (pickOneNodeForPreemption), its victims evicted and
        the preemptor pipelined there. Volcano starts the dry run at a random node; yk at the first by name."""
        wanted = len(nodes) * _int_argument(arguments, "minCandidateNodesPercentage", 10) // 100
        wanted = max(wanted, _int_argument(arguments, "minCandidateNodesAbsolute", 1))
        wanted = min(wanted, _int_argument(arguments, "maxCandidateNodesAbsolute", 100), len(nodes))
        found: list[tuple[NodeInfo, list[TaskInfo], VictimSelection | None]] = []
        for node in nodes:
            if len(found) >= wanted:
                break
            seen = VictimSelection("preempt", preemptor, node.name) if self.observer is not None else None
            victims = self._select_victims_on_node(queue, preemptor, node, exclusion, seen)
            if victims:
                found.append((node, victims, seen))
            elif seen is not None and self.observer is not None:
                self.observer.victims(seen)
        if not found:
            return False
        best = _pick_one_node(found)
        on_node = Statement(self.ssn, "preempt")
        node, victims, seen = found[best]
        for victim in victims:
            on_node.evict(victim, "preempt", preemptor.key)
        on_node.pipeline(preemptor, node)
        stmt.ops.extend(on_node.ops)
        if self.observer is not None:
            for index, (_, _, other_seen) in enumerate(found):
                if other_seen is None:
                    continue
                if index == best:
                    other_seen.evicted = list(victims)
                    other_seen.outcome = "pipelined"
                else:
                    other_seen.outcome = f"a candidate, but node {node.name} was picked (pickOneNodeForPreemption)"
                self.observer.victims(other_seen)
        return True

    def _select_victims_on_node(
        self,
        queue: QueueInfo,
        preemptor: TaskInfo,
        node: NodeInfo,
        exclusion: Callable[[TaskInfo], str],
        seen: VictimSelection | None,
    ) -> list[TaskInfo]:
        """SelectVictimsOnNode, simulated with evictions that are undone: take the victims off in victim order until
        the queue is allocatable, the preemptor fits the node's future idle resources and its InterPodAffinity
        filter passes (SimulatePredicateFn runs that plugin only); then put each back, in that order, and keep as a
        victim only one without which the preemptor stops fitting. [] when the node is no candidate."""
        fw = self.fw
        found = self._preempt_victims(preemptor, node, exclusion, seen)
        if not found or not self._valid_victims(preemptor, node, found):
            if seen is not None:
                seen.outcome = "no victims" if not found else "the victims cannot free enough room"
            return []
        order = fw.victims_queue(found, preemptor)
        if seen is not None:
            seen.order = _drain(fw.victims_queue(found, preemptor))

        def fits() -> bool:
            return fw.allocatable(queue, preemptor) is None and res.less_equal(preemptor.resreq, node.future_idle())

        def affinity_passes() -> bool:
            return not any(f.plugin == INTER_POD_AFFINITY for f in fw.predicate_failures(preemptor, node))

        removed: dict[int, Statement] = {}
        potential: list[TaskInfo] = []
        while not order.empty():
            task = order.pop()
            potential.append(task)
            removed[id(task)] = Statement(self.ssn, "preempt")
            removed[id(task)].evict(task, "preempt", preemptor.key)
            if fits() and affinity_passes():
                break
        victims: list[TaskInfo] = []
        if affinity_passes():
            for task in potential:
                removed.pop(id(task)).discard()  # reprievePod: put it back
                if not (fits() and affinity_passes()):
                    removed[id(task)] = Statement(self.ssn, "preempt")
                    removed[id(task)].evict(task, "preempt", preemptor.key)
                    victims.append(task)
        elif seen is not None:
            seen.outcome = "its pod (anti-)affinity still fails with every victim gone"
        for task in reversed(potential):
            undo = removed.pop(id(task), None)
            if undo is not None:
                undo.discard()
        return victims


def _drain(queue: PriorityQueue[TaskInfo]) -> list[TaskInfo]:
    out = []
    while not queue.empty():
        out.append(queue.pop())
    return out


def _reclaim_exclusion(ssn: Session, other: TaskInfo, job: JobInfo) -> str:
    """Why reclaim does not consider `other` (on the node) for a task of `job`; "" when it is a candidate."""
    if other.status != RUNNING:
        return f"status {other.status}"
    if not other.preemptable:
        return "volcano.sh/preemptable is false"
    if other.job is None:
        return other.outside or "not in a job"
    if other.job.queue == job.queue:
        return "in the reclaiming queue itself (reclaim takes only from other queues)"
    if not ssn.queues[other.job.queue].queue.reclaimable:
        return f"queue {other.job.queue} has reclaimable: false"
    return ""


def _int_argument(arguments: Mapping[str, object], key: str, default: int) -> int:
    """framework.Arguments.GetInt: an integer value, else the default."""
    raw = arguments.get(key)
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not float(raw).is_integer():
        return default
    return int(raw)


def _pick_one_node(found: Sequence[tuple[NodeInfo, list[TaskInfo], object]]) -> int:
    """pickOneNodeForPreemption without PDBs: the lowest priority of the first victim (Volcano takes the first as
    the highest), then the lowest sum of victim priorities, then the fewest victims; start times are not read (every
    pod counts as started now), and a tie goes to the first candidate (Volcano: a map's order)."""

    def key(index: int) -> tuple[int, int, int]:
        victims = found[index][1]
        priorities = [v.pod.priority or 0 for v in victims]
        return priorities[0], sum(p + 2**31 for p in priorities), len(victims)

    return min(range(len(found)), key=key)
