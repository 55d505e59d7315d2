"""What a finished dry run means to a capacity planner: waits, starts, work lost to preemption, guarantees met,
utilization over time.

Every ask of the workload that arrives within the run is a pod of the metrics (gang placeholders are not: they
count in queue and cluster usage only); a pod a preemption restarts (restartOnPreemption) is a new pod, submitted at
the preemption. Each pod ends the run started (it ran at some point), pending (it still waits, for a reason that
may pass) or failed (it never can start: a failed or rejected gang, an invalid ask, no queue). Waits are from its
submission to its first start; a pod still pending counts with its wait so far (a lower bound), as a planner must
not read a starved pod as a short wait. Percentiles are nearest-rank: the smallest wait with at least p % of the
waits at or below it, always a wait some pod had.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.config.queues import QueueTree
from yk_cli.core.resources import Resource, fits_in
from yk_cli.core.sim.trace import (
    ALLOCATE,
    COMPLETE,
    GANG_FAILED,
    GANG_REJECTED,
    INVALID_ASK,
    NOT_SUBMITTED,
    PLACEHOLDER,
    PREEMPT,
    QUEUE_MISSING,
    QUOTA_PREEMPT,
    REPLACE,
    UNPLACED,
    Trace,
    replaced_placeholder,
)
from yk_cli.core.workload.model import Workload

STARTED, PENDING, FAILED = "started", "pending", "failed"
"""A pod's outcome at the end of the run."""
FAILED_CODES = frozenset({GANG_FAILED, GANG_REJECTED, INVALID_ASK, UNPLACED, QUEUE_MISSING})
"""Pending reasons that never pass: the pod failed rather than waits."""
DIMENSIONS = ("queue", "user", "application", "priority")
"""What the pods are grouped by."""
PERCENTILES = (50, 90, 95, 99)
BUCKETS = 100
"""How many equal slices of the run the usage series have."""
NANOS = 1_000_000_000


@dataclass(slots=True)
class Pod:
    """One pod of the run: when it was submitted, started and ended, where, and how it ended the run.

    Treat it as immutable: not a frozen dataclass only because a run makes one per pod and a frozen one takes several
    times as long to build (as TraceEvent).
    """

    application: str
    ask: str
    queue_path: str
    """Its leaf queue ('' when its application has none)."""
    user: str
    priority: int
    resources: Resource
    submit: int
    """Nanoseconds from the start of the run (negative: it had already waited)."""
    outcome: str
    """STARTED, PENDING or FAILED."""
    start: int | None = None
    """Its first start (None: it never started)."""
    end: int | None = None
    """When its last run ended, completed or preempted (None: it never started, or still runs at the end)."""
    node: str = ""
    """The node of its last run."""
    preemptions: int = 0
    code: str = ""
    """Why it still waits at the end (a pending reason code), '' when it does not."""
    observed_start: int | None = None
    """When it started in the recorded trace it was imported from (None: not recorded)."""
    restart_of: str = ""
    """The pod whose preemption submitted it (restartOnPreemption), '' for a pod of the workload."""


@dataclass(frozen=True, slots=True)
class Loss:
    """One preempted run and the work it loses: per resource type, its amount (YuniKorn's units) times the seconds
    it had run."""

    application: str
    allocation: str
    queue_path: str
    user: str
    priority: int
    work: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class Waits:
    """Nearest-rank percentiles and the maximum of a group's waits (nanoseconds)."""

    count: int
    censored: int
    """Of them, pods still pending at the end, counted with their wait so far."""
    p50: int
    p90: int
    p95: int
    p99: int
    max: int


@dataclass(frozen=True, slots=True)
class Errors:
    """Predicted against observed wait of the pods that started in both (nanoseconds): the percentiles of the
    absolute error and the mean signed error (positive: yk predicts longer waits than were observed)."""

    count: int
    p50: int
    p90: int
    p99: int
    bias: float


@dataclass(frozen=True, slots=True)
class Group:
    """The pods of one queue, user, application or priority."""

    dimension: str
    key: str
    submitted: int
    started: int
    pending: int
    failed: int
    preemptions: int
    """Runs of the group preempted (allocations running at the start included)."""
    waits: Waits | None
    lost: Mapping[str, float]
    """Work lost to preemption: the sum of its preempted runs' Loss.work."""
    first_start: int | None
    """From the group's first submission to its first start (None: nothing started)."""
    errors: Errors | None = None


@dataclass(frozen=True, slots=True)
class QueueUsage:
    """One queue over the run: its usage (its pods and those of the queues below it) against its guarantee and max."""

    path: str
    guaranteed: Resource | None
    max: Resource | None
    peak: Resource
    mean: Mapping[str, float]
    """Time-weighted mean usage over the run, per resource type."""
    gap: int
    """The fairness gap (nanoseconds): how long the queue was below its guarantee in some guaranteed type while a
    pod of it that fits a node of the cluster waited. 0 without a guarantee."""
    series: tuple[Mapping[str, float], ...]
    """Mean usage in each of the BUCKETS equal slices of the run (empty for a run of no length)."""


@dataclass(frozen=True, slots=True)
class ClusterUsage:
    """The whole cluster over the run: what runs on it (foreign pods' occupied resources included) against the
    nodes' capacity."""

    capacity: Resource
    peak: Resource
    mean: Mapping[str, float]
    series: tuple[Mapping[str, float], ...]
    """Mean usage per slice, as for queues."""

    def utilization(self, usage: Mapping[str, float]) -> dict[str, float]:
        """Usage as a fraction of capacity, per resource type the cluster has."""
        return {k: usage.get(k, 0.0) / v for k, v in sorted(self.capacity.items()) if v > 0}


@dataclass(frozen=True, slots=True)
class Metrics:
    """Every number of a dry run's metrics."""

    pods: tuple[Pod, ...]
    losses: tuple[Loss, ...]
    groups: Mapping[str, tuple[Group, ...]]
    """By dimension (DIMENSIONS), each group sorted by key."""
    queues: tuple[QueueUsage, ...]
    cluster: ClusterUsage
    end: int
    """The run's end (nanoseconds): the horizon of the means and series."""
    makespan: int | None
    """From the start to the end of the last pod, when every pod submitted started and finished; else None."""
    bucket: float
    """The length of one slice of the series (nanoseconds)."""
    running_at_end: int
    """Pods still running when the run ends (asks without a duration run forever)."""
    not_submitted: int
    """Asks that arrive after the end of the run: not counted anywhere."""
    notes: tuple[str, ...] = ()


def percentile(ordered: Sequence[int], p: int) -> int:
    """The nearest-rank p-th percentile of a sorted, non-empty sequence."""
    rank = max(1, math.ceil(p * len(ordered) / 100))
    return ordered[rank - 1]


def _ancestors(path: str) -> list[str]:
    """root, root.a, root.a.b for root.a.b."""
    parts = path.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


Vec = tuple[tuple[int, int], ...]
"""A resource as (resource type index, amount) pairs."""


class _Usage:
    """A usage over the run (a queue's with the queues below it, or the cluster's): its value and peak as the walk
    goes; its time integral and per-slice integrals, from the runs that made it (spread)."""

    __slots__ = ("dims", "full", "integral", "peak", "slices", "value")

    def __init__(self, dims: int, buckets: int) -> None:
        self.dims = dims
        self.value = [0] * dims
        self.peak = [0] * dims
        self.integral = [0.0] * dims
        self.slices = [0.0] * (dims * buckets)
        """Slice k's integral of type i at k × dims + i."""
        self.full = [0.0] * (dims * (buckets + 1))
        """The amount of the runs that cover slice k whole, as differences: added at the first slice they cover,
        taken off after the last."""

    def add(self, vec: Vec, sign: int) -> None:
        value, peak = self.value, self.peak
        for i, v in vec:
            now = value[i] + sign * v
            value[i] = now
            if now > peak[i]:
                peak[i] = now

    def spread(self, start: int, end: int, vec: Vec, horizon: int, width: float) -> None:
        """A run of vec over [start, end), clipped to the run's [0, horizon), into the integrals."""
        start = max(start, 0)
        end = min(end, horizon)
        if end <= start:
            return
        integral = self.integral
        for i, v in vec:
            integral[i] += v * (end - start)
        if width <= 0:
            return
        dims, slices = self.dims, self.slices
        last = len(slices) // dims - 1
        first_slice, last_slice = min(int(start / width), last), min(int(end / width), last)
        head, tail = first_slice * dims, last_slice * dims
        if first_slice == last_slice:
            for i, v in vec:
                slices[head + i] += v * (end - start)
            return
        head_part, tail_part = (first_slice + 1) * width - start, end - last_slice * width
        for i, v in vec:
            slices[head + i] += v * head_part
            slices[tail + i] += v * tail_part
        if last_slice > first_slice + 1:
            full, opens, closes = self.full, head + dims, tail
            for i, v in vec:
                full[opens + i] += v
                full[closes + i] -= v

    def take(self, other: _Usage) -> None:
        """Add another usage's integrals to this one's (a child queue's to its parent's)."""
        for mine, theirs in ((self.integral, other.integral), (self.slices, other.slices), (self.full, other.full)):
            for i, v in enumerate(theirs):
                if v:
                    mine[i] += v

    def means(self, names: Sequence[str], horizon: int, width: float) -> tuple[dict[str, float], tuple[
            dict[str, float], ...]]:
        """The mean over the run and per slice, by resource type name (types never used left out)."""
        used = [i for i in range(len(names)) if self.peak[i] or self.integral[i]]
        if horizon > 0:
            mean = {names[i]: self.integral[i] / horizon for i in used}
        else:
            mean = {names[i]: float(self.value[i]) for i in used if self.value[i]}
        if width <= 0:
            return dict(sorted(mean.items())), ()
        dims, slices, full = self.dims, self.slices, self.full
        ordered = sorted(used, key=lambda i: names[i])
        series = []
        covering = [0.0] * dims
        for k in range(len(slices) // dims):
            at = k * dims
            for i in used:
                covering[i] += full[at + i]
            series.append({names[i]: (slices[at + i] + covering[i] * width) / width for i in ordered})
        return dict(sorted(mean.items())), tuple(series)


class _Queue(_Usage):
    """A queue's usage, its waiting pods that fit a node, and its fairness gap so far."""

    __slots__ = ("gap", "gap_on", "guaranteed", "path", "since", "waiting")

    def __init__(self, path: str, dims: int, buckets: int, guaranteed: Vec) -> None:
        super().__init__(dims, buckets)
        self.path = path
        self.guaranteed = guaranteed
        self.waiting = 0
        self.gap = 0
        self.gap_on = False
        self.since = 0

    def settle(self, time: int) -> None:
        """Close the gap's interval at `time` (before its usage or waiting pods change)."""
        if self.gap_on:
            self.gap += time - self.since
        self.since = time

    def reopen(self) -> None:
        """Whether the gap runs from now on: below the guarantee in some guaranteed type, a pod that fits waiting."""
        on = False
        if self.waiting > 0:
            value = self.value
            for i, g in self.guaranteed:
                if value[i] < g:
                    on = True
                    break
        self.gap_on = on


class _PodState:
    """A pod while the walk goes on (Pod once it ends)."""

    __slots__ = (
        "application",
        "ask",
        "end",
        "node",
        "observed_start",
        "preemptions",
        "priority",
        "queue_path",
        "resources",
        "restart_of",
        "start",
        "submit",
        "user",
    )

    def __init__(self, application: str, ask: str, queue_path: str, user: str, priority: int, resources: Resource,
                 submit: int, observed_start: int | None, restart_of: str) -> None:
        self.application = application
        self.ask = ask
        self.queue_path = queue_path
        self.user = user
        self.priority = priority
        self.resources = resources
        self.submit = submit
        self.observed_start = observed_start
        self.restart_of = restart_of
        self.start: int | None = None
        self.end: int | None = None
        self.node = ""
        self.preemptions = 0

    def done(self, code: str) -> Pod:
        """The pod at the end of the run, `code` its pending reason if it never started."""
        outcome = STARTED if self.start is not None else FAILED if code in FAILED_CODES else PENDING
        return Pod(self.application, self.ask, self.queue_path, self.user, self.priority, self.resources,
                   self.submit, outcome, self.start, self.end, self.node, self.preemptions,
                   "" if outcome == STARTED else code, self.observed_start, self.restart_of)


class _Chain:
    """A leaf and its ancestors, root first."""

    __slots__ = ("leaf", "queues")

    def __init__(self, queues: tuple[_Queue, ...]) -> None:
        self.leaf = queues[-1] if queues else None
        self.queues = queues

    def change(self, time: int, vec: Vec, sign: int, waiting: int) -> None:
        """Usage (vec × sign) and waiting pods of every queue of the chain change at `time`. A guaranteed queue's
        gap can start or stop only while it has pods waiting (or as the last one leaves)."""
        for q in self.queues:
            q.add(vec, sign)
            q.waiting += waiting
            if q.guaranteed and (q.gap_on or q.waiting > 0):  # the flag still says how it was until now
                q.settle(time)
                q.reopen()


class _Running:
    """A run on the cluster: its queues, amount, start and resources."""

    __slots__ = ("chain", "resources", "start", "vec")

    def __init__(self, chain: _Chain, vec: Vec, start: int, resources: Mapping[str, int]) -> None:
        self.chain = chain
        self.vec = vec
        self.start = start
        self.resources = resources


class _Run:
    """The walk over the trace that builds the metrics."""

    def __init__(self, trace: Trace, workload: Workload, tree: QueueTree, names: Sequence[str]) -> None:
        self.trace = trace
        self.end = trace.summary.end_time
        self.buckets = BUCKETS if self.end > 0 else 0
        self.width = self.end / BUCKETS if self.end > 0 else 0.0
        self.tree = tree
        self.names = tuple(names)
        self.index = {name: i for i, name in enumerate(names)}
        self.vecs: dict[tuple[tuple[str, int], ...], Vec] = {}
        self.queues: dict[str, _Queue] = {}
        self.chains: dict[str, _Chain] = {"": _Chain(())}
        self.cluster = _Usage(len(names), self.buckets)
        self.unqueued = _Usage(len(names), self.buckets)
        """The integrals of runs of applications without a queue."""
        self.capacity: dict[str, int] = {}
        self.node_room: list[Resource] = []
        for node in workload.nodes:
            for k, v in node.capacity.items():
                self.capacity[k] = self.capacity.get(k, 0) + v
            if node.schedulable:
                self.node_room.append(node.capacity)
            if node.occupied:
                occupied = self.vec(node.occupied)
                self.cluster.add(occupied, 1)
                self.cluster.spread(0, self.end, occupied, self.end, self.width)
        self.fit_cache: dict[tuple[tuple[str, int], ...], bool] = {}
        self.users = {a.id: a.user for a in workload.applications}
        self.running: dict[tuple[str, str], _Running] = {}
        self.pods: dict[tuple[str, str], _PodState] = {}
        self.lost: list[Loss] = []
        """Every preempted run (pods of the workload and allocations running at the start alike)."""
        self.waiting: set[tuple[str, str]] = set()
        """Pods submitted and not started yet that fit a node (they count in their queues' waiting)."""

    def vec(self, resources: Mapping[str, int]) -> Vec:
        key = tuple(resources.items())
        found = self.vecs.get(key)
        if found is None:
            index = self.index
            found = self.vecs[key] = tuple((index[k], v) for k, v in key if v)
        return found

    def chain(self, leaf: str) -> _Chain:
        """The queues from root to the leaf."""
        found = self.chains.get(leaf)
        if found is None:
            found = self.chains[leaf] = _Chain(tuple(self.queue(path) for path in _ancestors(leaf)))
        return found

    def queue(self, path: str) -> _Queue:
        found = self.queues.get(path)
        if found is None:
            queue = self.tree.get(path)
            guaranteed = {k: v for k, v in ((queue.guaranteed or {}) if queue is not None else {}).items() if v > 0}
            found = self.queues[path] = _Queue(path, len(self.names), self.buckets, self.vec(guaranteed))
        return found

    def _fits_a_node(self, resources: Resource) -> bool:
        key = tuple(sorted(resources.items()))
        found = self.fit_cache.get(key)
        if found is None:
            found = self.fit_cache[key] = any(fits_in(resources, room) for room in self.node_room)
        return found

    # -- pods and runs ---------------------------------------------------------------------------------------------
    def submit(self, time: int, application: str, ask: str, queue: str, priority: int, resources: Resource,
               submit: int, observed: int | None = None, restart_of: str = "") -> None:
        key = (application, ask)
        self.pods[key] = _PodState(application, ask, queue, self.users.get(application, ""), priority, resources,
                                   submit, observed, restart_of)
        if queue and self._fits_a_node(resources):
            self.waiting.add(key)
            self.chain(queue).change(time, (), 1, 1)

    def begin(self, time: int, application: str, name: str, queue: str, resources: Mapping[str, int]) -> None:
        """A run starts (a pod, a placeholder or an allocation running at the start, time 0)."""
        key = (application, name)
        vec = self.vec(resources)
        chain = self.chain(queue)
        self.running[key] = _Running(chain, vec, time, resources)
        self.cluster.add(vec, 1)
        waited = -1 if key in self.waiting else 0
        self.waiting.discard(key)
        chain.change(max(time, 0), vec, 1, waited)

    def start(self, time: int, application: str, name: str, queue: str, node: str, resources: Resource) -> None:
        self.begin(time, application, name, queue, resources)
        pod = self.pods.get((application, name))
        if pod is not None:
            if pod.start is None:
                pod.start = time
            if not pod.queue_path:
                pod.queue_path = queue
            pod.node = node
            pod.end = None

    def stop(self, time: int, application: str, name: str, preempted: bool, priority: int = 0) -> None:
        key = (application, name)
        run = self.running.pop(key, None)
        if run is None:
            return
        self._close(run, time)
        self.cluster.add(run.vec, -1)
        run.chain.change(time, run.vec, -1, 0)
        pod = self.pods.get(key)
        if pod is not None:
            pod.end = time
        if preempted:
            if pod is not None:
                pod.preemptions += 1
            seconds = (time - run.start) / NANOS
            work = {k: v * seconds for k, v in sorted(run.resources.items()) if v}
            queue = run.chain.leaf.path if run.chain.leaf is not None else ""
            self.lost.append(Loss(application, name, queue, self.users.get(application, ""), priority, work))

    def _close(self, run: _Running, time: int) -> None:
        """Spread a finished run (or one still running at the end) into its leaf's integrals (or the cluster's, for
        a run of no queue): the queues above and the cluster add their leaves' up at the end."""
        target = run.chain.leaf if run.chain.leaf is not None else self.unqueued
        target.spread(run.start, time, run.vec, self.end, self.width)

    def finish(self) -> None:
        """The end of the run: open runs and gaps close; each queue's integrals take in its children's (deepest
        first), the cluster's its root's and those of runs of no queue."""
        for run in self.running.values():
            self._close(run, self.end)
        for q in self.queues.values():
            q.settle(self.end)
        by_depth = sorted(self.queues.values(), key=lambda q: -q.path.count("."))
        for q in by_depth:
            parent = self.queues.get(q.path.rpartition(".")[0]) if "." in q.path else None
            for target in (parent,) if parent is not None else (self.cluster,):
                target.take(q)
        self.cluster.take(self.unqueued)


def leaves(trace: Trace) -> dict[str, str]:
    """Each application's leaf queue as the run shows it (its steps, its preempted runs or its pending asks)."""
    out: dict[str, str] = {}
    for e in trace.events:
        if e.queue_path and e.type in (ALLOCATE, REPLACE, PLACEHOLDER):
            out.setdefault(e.application, e.queue_path)
        for v in e.victims:
            if v.queue_path:
                out.setdefault(v.application, v.queue_path)
    for p in trace.pending:
        if p.queue_path:
            out.setdefault(p.application, p.queue_path)
    return out


def _resource_names(trace: Trace, workload: Workload, tree: QueueTree) -> list[str]:
    """Every resource type the run uses or a queue guarantees, sorted."""
    names: set[str] = set()
    for queue in tree.queues.values():
        names.update(queue.guaranteed or {})
    for node in workload.nodes:
        names.update(node.capacity)
        names.update(node.occupied)
    for app in workload.applications:
        for ask in app.asks:
            names.update(ask.resources)
        for alloc in app.allocations:
            names.update(alloc.resources)
    for e in trace.events:
        names.update(e.resources)
        for v in e.victims:
            names.update(v.resources)
    return sorted(names)


def run_metrics(
    trace: Trace, workload: Workload, tree: QueueTree, queue_of: Mapping[str, str] | None = None
) -> Metrics:
    """The metrics of a finished dry run of `workload` on `tree`; queue_of: each placed application's leaf, for
    applications the run itself does not place (those with allocations running at the start only)."""
    placed = leaves(trace)
    for application, leaf in (queue_of or {}).items():
        placed.setdefault(application, leaf)
    run = _Run(trace, workload, tree, _resource_names(trace, workload, tree))
    pending = {(p.application, p.ask): p for p in trace.pending}
    not_submitted = sum(1 for p in trace.pending if p.code == NOT_SUBMITTED)
    arrivals: list[tuple[int, int, str, str, str, int, Resource, int | None]] = []
    for app in workload.applications:
        queue = placed.get(app.id, "")
        for ask in app.asks:
            if ask.placeholder:
                continue
            p = pending.get((app.id, ask.name))
            if p is not None and p.code == NOT_SUBMITTED:
                continue
            leaf = queue or (p.queue_path if p is not None else "")
            arrivals.append((max(ask.submit_time, 0), ask.submit_time, app.id, ask.name, leaf, ask.priority,
                             ask.resources, ask.observed_start))
        for alloc in app.allocations:
            run.begin(alloc.start_time, app.id, alloc.name, queue, alloc.resources)
    arrivals.sort(key=lambda a: a[0])
    next_arrival, arriving = 0, len(arrivals)

    def arrive_until(time: int) -> None:
        nonlocal next_arrival
        while next_arrival < arriving and arrivals[next_arrival][0] <= time:
            at, submit, app_id, name, leaf, priority, resources, observed = arrivals[next_arrival]
            run.submit(at, app_id, name, leaf, priority, resources, submit, observed)
            next_arrival += 1

    for e in trace.events:
        if next_arrival < arriving and arrivals[next_arrival][0] <= e.time:
            arrive_until(e.time)
        if e.type in (ALLOCATE, REPLACE, PLACEHOLDER):
            if e.type == REPLACE:
                placeholder = replaced_placeholder(e)
                if placeholder:
                    run.stop(e.time, e.application, placeholder, False)
            if e.type == PLACEHOLDER:
                run.begin(e.time, e.application, e.ask, e.queue_path, e.resources)
            else:
                run.start(e.time, e.application, e.ask, e.queue_path, e.node, e.resources)
        elif e.type == COMPLETE:
            run.stop(e.time, e.application, e.ask, False)
        preempted = e.type in (PREEMPT, QUOTA_PREEMPT)
        for v in e.victims:
            run.stop(e.time, v.application, v.allocation, preempted, v.priority)
            if v.restarted_as:
                run.submit(e.time, v.application, v.restarted_as, v.queue_path, v.priority, v.resources, e.time,
                           restart_of=v.allocation)
    arrive_until(run.end)
    run.finish()
    end = run.end
    pods = tuple(state.done(pending[key].code if key in pending else "") for key, state in run.pods.items())
    return Metrics(
        pods=pods,
        losses=tuple(run.lost),
        groups={d: _groups(d, pods, run.lost, end) for d in DIMENSIONS},
        queues=_queues(run, end),
        cluster=_cluster(run, end),
        end=end,
        makespan=_makespan(pods),
        bucket=run.width,
        running_at_end=sum(1 for p in pods if p.outcome == STARTED and p.end is None),
        not_submitted=not_submitted,
    )


def waits_of(pods: Sequence[Pod], end: int) -> Waits | None:
    """The waits of the pods that started or still wait (failed pods aside); `end` is the run's."""
    waits: list[int] = []
    censored = 0
    for p in pods:
        if p.start is not None:
            waits.append(p.start - p.submit)
        elif p.outcome == PENDING:
            waits.append(end - p.submit)
            censored += 1
    if not waits:
        return None
    waits.sort()
    p50, p90, p95, p99 = (percentile(waits, q) for q in PERCENTILES)
    return Waits(len(waits), censored, p50, p90, p95, p99, waits[-1])


def _errors(pods: Sequence[Pod]) -> Errors | None:
    """Predicted against observed starts (the same submission, so the wait error is the start error)."""
    signed = [p.start - p.observed_start for p in pods if p.start is not None and p.observed_start is not None]
    if not signed:
        return None
    absolute = sorted(abs(e) for e in signed)
    p50, p90, p99 = (percentile(absolute, q) for q in (50, 90, 99))
    return Errors(len(signed), p50, p90, p99, sum(signed) / len(signed))


def _key(of: Pod | Loss, dimension: str) -> str:
    """The group of a pod or a preempted run in one dimension."""
    if dimension == "queue":
        return of.queue_path or "(no queue)"
    if dimension == "user":
        return of.user or "(no user)"
    if dimension == "application":
        return of.application
    return str(of.priority)


def _groups(dimension: str, pods: Sequence[Pod], lost: Sequence[Loss], end: int) -> tuple[Group, ...]:
    """The pods grouped by one dimension (and the preempted runs, for the loss); priorities sorted as numbers."""
    members: dict[str, list[Pod]] = {}
    for p in pods:
        members.setdefault(_key(p, dimension), []).append(p)
    losses: dict[str, list[Loss]] = {}
    for loss in lost:
        losses.setdefault(_key(loss, dimension), []).append(loss)
    keys = set(members) | set(losses)
    ordered = sorted(keys, key=lambda k: (int(k), "")) if dimension == "priority" else sorted(keys)
    out = []
    for key in ordered:
        group = members.get(key, [])
        lost_sum: dict[str, float] = {}
        for loss in losses.get(key, ()):
            for k, v in loss.work.items():
                lost_sum[k] = lost_sum.get(k, 0.0) + v
        starts = [p.start for p in group if p.start is not None]
        first = min(starts) - min(p.submit for p in group) if starts else None
        out.append(Group(
            dimension=dimension,
            key=key,
            submitted=len(group),
            started=sum(1 for p in group if p.outcome == STARTED),
            pending=sum(1 for p in group if p.outcome == PENDING),
            failed=sum(1 for p in group if p.outcome == FAILED),
            preemptions=len(losses.get(key, ())),
            waits=waits_of(group, end),
            lost=dict(sorted(lost_sum.items())),
            first_start=first,
            errors=_errors(group),
        ))
    return tuple(out)


def _queues(run: _Run, end: int) -> tuple[QueueUsage, ...]:
    """Every queue of the tree and of the run, in path order (root first)."""
    paths = set(run.queues) | set(run.tree.queues) | set(run.trace.queues)
    out = []
    for path in sorted(paths):
        state = run.queue(path)
        queue = run.tree.get(path)
        mean, series = state.means(run.names, end, run.width)
        out.append(QueueUsage(
            path=path,
            guaranteed=queue.guaranteed if queue is not None else None,
            max=queue.max if queue is not None else None,
            peak={run.names[i]: v for i, v in enumerate(state.peak) if v},
            mean=mean,
            gap=state.gap if state.guaranteed else 0,
            series=series,
        ))
    return tuple(out)


def _cluster(run: _Run, end: int) -> ClusterUsage:
    mean, series = run.cluster.means(run.names, end, run.width)
    peak = {run.names[i]: v for i, v in enumerate(run.cluster.peak) if v}
    return ClusterUsage(dict(sorted(run.capacity.items())), dict(sorted(peak.items())), mean, series)


def _makespan(pods: Iterable[Pod]) -> int | None:
    """The end of the last pod, when every pod started and finished."""
    last = 0
    for p in pods:
        if p.start is None or p.end is None:
            return None
        last = max(last, p.end)
    return last
