"""How the session combines its plugins (pkg/scheduler/framework/session_plugins.go at HEAD), with explanations.

Ordering (QueueOrderFn, JobOrderFn, TaskOrderFn): tiers in order, plugins in order, only those whose enable flag for
the function is on and that registered it; the first non-zero answer decides; then the fallbacks (creation time,
then ID; for tasks helpers.CompareTask). `OrderChain.decide(l, r)` says which plugin in which tier decided and on what
values, so that every order the simulation follows can be explained after the fact (the API `yk volcano explain`
builds on); `OrderChain.less` is the fast path the heaps use and always agrees with `decide`.

Victims (Preemptable, Reclaimable): within a tier the candidate sets of the enabled plugins are intersected; a plugin
that abstains is skipped; an empty set from a plugin (or an empty intersection) resets the result, so the walk goes
on (the next plugin of the tier starts again from its own set; at the end of the tier, the next tier); the first tier
left with a set decides. `Framework.victims` returns the set and a trail of what each plugin answered.

Admission: Overused (any enabled plugin says yes), Allocatable and Preemptive (all must agree), JobReady (all),
JobValid (all, no flag), JobStarving (the first tier with such a function decides, all in it must agree),
JobEnqueueable and JobPipelined (a reject ends it; the first tier with a permit vote decides; default permit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf
from yk_cli.core.volcano.heap import PriorityQueue
from yk_cli.core.volcano.session import JobInfo, NodeInfo, QueueInfo, Session, TaskInfo

T = TypeVar("T")

PERMIT, ABSTAIN, REJECT = 1, 0, -1

FLAG_OF = {
    "queue_order": "enableQueueOrder",
    "job_order": "enableJobOrder",
    "task_order": "enableTaskOrder",
    "preemptable": "enablePreemptable",
    "reclaimable": "enableReclaimable",
    "overused": "enabledOverused",
    "allocatable": "enabledAllocatable",
    "preemptive": "enablePreemptive",
    "job_enqueueable": "enableJobEnqueued",
    "job_enqueued": "enableJobEnqueued",
    "job_ready": "enableJobReady",
    "job_pipelined": "enableJobPipelined",
    "job_starving": "enableJobStarving",
    "predicate": "enablePredicate",
}
"""The enable flag that gates each session function; JobValid and VictimQueueOrderFn have none."""


@dataclass(frozen=True, slots=True)
class PredicateFailure:
    """One status of a PredicateFn's FitError on one node: the plugin, its reason (kube-scheduler's words, e.g.
    "node(s) had untolerated taint(s)") and whether it is UnschedulableAndUnresolvable (preempt and reclaim leave
    such a node out: evicting pods cannot fix it) or merely Unschedulable (NodePorts, a topology spread skew)."""

    plugin: str
    reason: str
    unresolvable: bool = True


class Plugin:
    """A plugin as the session sees it: the functions it registers (None when it does not) and its event handlers.

    Subclasses set the attributes they register in `open`; `describe_*` give the value a comparison used, for
    explanations (e.g. "priority 10")."""

    name = ""

    def __init__(self, option: PluginOption) -> None:
        self.option = option
        self.queue_order: Callable[[QueueInfo, QueueInfo], int] | None = None
        self.job_order: Callable[[JobInfo, JobInfo], int] | None = None
        self.task_order: Callable[[TaskInfo, TaskInfo], int] | None = None
        self.preemptable: Callable[[TaskInfo, list[TaskInfo]], tuple[list[TaskInfo], int]] | None = None
        self.reclaimable: Callable[[TaskInfo, list[TaskInfo]], tuple[list[TaskInfo], int]] | None = None
        self.overused: Callable[[QueueInfo], bool] | None = None
        self.allocatable: Callable[[QueueInfo, TaskInfo], bool] | None = None
        self.preemptive: Callable[[QueueInfo, TaskInfo], bool] | None = None
        self.job_enqueueable: Callable[[JobInfo], int] | None = None
        self.job_enqueued: Callable[[JobInfo], None] | None = None
        self.job_ready: Callable[[JobInfo], bool] | None = None
        self.job_pipelined: Callable[[JobInfo], int] | None = None
        self.job_starving: Callable[[JobInfo], bool] | None = None
        self.job_valid: Callable[[JobInfo], str | None] | None = None
        self.predicate: Callable[[TaskInfo, NodeInfo], str | None] | None = None
        self.predicate_failures: Callable[[TaskInfo, NodeInfo], tuple[PredicateFailure, ...]] | None = None
        """The statuses behind `predicate` (registered with it; empty when the node passes)."""
        self.static_nodes: Callable[[TaskInfo], Sequence[NodeInfo] | None] | None = None
        """The only nodes `predicate` can pass for the task whatever the session does (None: any node may)."""
        self.victim_queue_order: Callable[[QueueInfo, QueueInfo, QueueInfo], int] | None = None

    def open(self, ssn: Session) -> None:
        """OnSessionOpen: read the snapshot, register functions."""

    def on_allocate(self, task: TaskInfo) -> None:
        """The AllocateFunc event handler (allocate, pipeline, undo of an eviction)."""

    def on_deallocate(self, task: TaskInfo) -> None:
        """The DeallocateFunc event handler (eviction, undo of an allocate or pipeline)."""

    def close(self, ssn: Session) -> None:
        """OnSessionClose: what the plugin writes back when the session ends (before the job updates)."""

    def describe_queue(self, queue: QueueInfo) -> str:
        return ""

    def describe_job(self, job: JobInfo) -> str:
        return ""

    def describe_task(self, task: TaskInfo) -> str:
        return ""


@dataclass(frozen=True, slots=True)
class Decision:
    """Why one element of an order comes before another: `first` goes first because `plugin` (in `tier`, 1-based;
    0 for the built-in fallbacks) compared `left` and `right` (the values it read) and returned `result`."""

    first: str
    second: str
    plugin: str
    tier: int
    left: str
    right: str
    result: int

    def text(self) -> str:
        where = f"{self.plugin} (tier {self.tier})" if self.tier else self.plugin
        return f"{self.first} before {self.second}: {where}: {self.left} vs {self.right}"


@dataclass(frozen=True, slots=True)
class ChainEntry(Generic[T]):
    tier: int
    plugin: str
    compare: Callable[[T, T], int]
    describe: Callable[[T], str]


class OrderChain(Generic[T]):
    """A comparator chain: plugin comparisons in tier order, then fallbacks that end in a total order."""

    def __init__(
        self,
        entries: Sequence[ChainEntry[T]],
        fallbacks: Sequence[tuple[str, Callable[[T, T], int], Callable[[T], str]]],
        name: Callable[[T], str],
    ) -> None:
        self.entries = tuple(entries)
        self.fallbacks = tuple(fallbacks)
        self.name = name
        self._compares = tuple(e.compare for e in self.entries) + tuple(f[1] for f in self.fallbacks)

    def compare(self, left: T, right: T) -> int:
        """-1 when left goes first, 1 when right does, 0 only for the same element."""
        for fn in self._compares:
            result = fn(left, right)
            if result:
                return result
        return 0

    def less(self, left: T, right: T) -> bool:
        for fn in self._compares:
            result = fn(left, right)
            if result:
                return result < 0
        return False

    def plugin_compare(self, left: T, right: T) -> int:
        """The plugins' verdict alone (Volcano's *CompareFns), 0 when every plugin ties."""
        for entry in self.entries:
            result = entry.compare(left, right)
            if result:
                return result
        return 0

    def decide(self, left: T, right: T) -> Decision:
        """Which comparison decided between left and right, with the values it compared."""
        for entry in self.entries:
            result = entry.compare(left, right)
            if result:
                return self._decision(left, right, entry.plugin, entry.tier, entry.describe, result)
        for label, fn, describe in self.fallbacks:
            result = fn(left, right)
            if result:
                return self._decision(left, right, label, 0, describe, result)
        return Decision(self.name(left), self.name(right), "same element", 0, "", "", 0)

    def _decision(
        self, left: T, right: T, plugin: str, tier: int, describe: Callable[[T], str], result: int
    ) -> Decision:
        first, second = (left, right) if result <= 0 else (right, left)
        return Decision(self.name(first), self.name(second), plugin, tier, describe(first), describe(second), result)

    def trail(self, left: T, right: T) -> list[Decision]:
        """Every comparison of the chain in order, up to and including the one that decided (ties have result 0;
        `first` is then left)."""
        out = []
        for entry in self.entries:
            result = entry.compare(left, right)
            out.append(self._decision(left, right, entry.plugin, entry.tier, entry.describe, result))
            if result:
                return out
        for label, fn, describe in self.fallbacks:
            result = fn(left, right)
            out.append(self._decision(left, right, label, 0, describe, result))
            if result:
                return out
        return out

    def sorted(self, items: Sequence[T]) -> list[T]:
        from functools import cmp_to_key

        return sorted(items, key=cmp_to_key(self.compare))


def _created_cmp(left: float | None, right: float | None) -> int:
    """Go's time comparison of creation timestamps; an absent one is the zero time, before every real one."""
    a = float("-inf") if left is None else left
    b = float("-inf") if right is None else right
    return -1 if a < b else (1 if a > b else 0)


def _str_cmp(left: str, right: str) -> int:
    return -1 if left < right else (1 if left > right else 0)


def _ts(value: float | None) -> str:
    if value is None:
        return "no creationTimestamp"
    import datetime

    return datetime.datetime.fromtimestamp(value, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def compare_task_fallback(left: TaskInfo, right: TaskInfo) -> int:
    """helpers.CompareTask: pod-name index (when both names have one and they differ), creation time, UID."""
    if left.index is not None and right.index is not None and left.index != right.index:
        return -1 if left.index < right.index else 1
    return _created_cmp(left.pod.created, right.pod.created) or _str_cmp(left.uid, right.uid)


@dataclass(slots=True)
class VictimStep:
    """What one plugin answered in a victim selection (for explanations)."""

    tier: int
    plugin: str
    vote: int
    candidates: list[str]
    running: list[str] | None
    """The intersection after this plugin (None: reset)."""


@dataclass(slots=True)
class _Slot:
    tier: int
    plugin: Plugin
    option: PluginOption


@dataclass
class Framework:
    """The plugins of a session, in tier order, and the combined session functions."""

    ssn: Session
    conf: SchedulerConf
    plugins: dict[str, Plugin] = field(default_factory=dict)
    slots: list[_Slot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def enabled(self, function: str) -> list[tuple[int, Plugin]]:
        """(tier, plugin) of every slot whose plugin registered `function` and whose flag for it is on."""
        flag = FLAG_OF.get(function)
        out = []
        for slot in self.slots:
            if getattr(slot.plugin, function) is None:
                continue
            if flag is not None and not slot.option.enabled(flag):
                continue
            out.append((slot.tier, slot.plugin))
        return out

    def build(self) -> None:
        """Bind the chains and the combined functions once the plugins are open."""
        self.queue_chain: OrderChain[QueueInfo] = OrderChain(
            [
                ChainEntry(t, p.name, p.queue_order, p.describe_queue)
                for t, p in self._fns("queue_order")
                if p.queue_order
            ],
            [
                ("fallback: creationTimestamp", lambda a, b: _created_cmp(a.created, b.created),
                 lambda q: _ts(q.created)),
                ("fallback: queue name", lambda a, b: _str_cmp(a.name, b.name), lambda q: q.name),
            ],
            lambda q: q.name,
        )
        self.job_chain: OrderChain[JobInfo] = OrderChain(
            [
                ChainEntry(t, p.name, p.job_order, p.describe_job)
                for t, p in self._fns("job_order")
                if p.job_order
            ],
            [
                ("fallback: creationTimestamp", lambda a, b: _created_cmp(a.created, b.created),
                 lambda j: _ts(j.created)),
                ("fallback: job ID", lambda a, b: _str_cmp(a.uid, b.uid), lambda j: j.uid),
            ],
            lambda j: j.uid,
        )
        self.task_chain: OrderChain[TaskInfo] = OrderChain(
            [
                ChainEntry(t, p.name, p.task_order, p.describe_task)
                for t, p in self._fns("task_order")
                if p.task_order
            ],
            [("fallback: CompareTask (name index, creationTimestamp, UID)", compare_task_fallback,
              lambda t: f"index {t.index}, {_ts(t.pod.created)}, uid {t.uid}")],
            lambda t: t.key,
        )
        self._overused = [p.overused for _, p in self.enabled("overused") if p.overused]
        self._allocatable = [(p.name, p.allocatable) for _, p in self.enabled("allocatable") if p.allocatable]
        self._preemptive = [(p.name, p.preemptive) for _, p in self.enabled("preemptive") if p.preemptive]
        self._job_ready = [p.job_ready for _, p in self.enabled("job_ready") if p.job_ready]
        self._job_valid = [(p.name, p.job_valid) for _, p in self.enabled("job_valid") if p.job_valid]
        self._predicates = [(p.name, p.predicate) for _, p in self.enabled("predicate") if p.predicate]
        self._predicate_details = [
            (p.name, p.predicate, p.predicate_failures) for _, p in self.enabled("predicate") if p.predicate
        ]
        self._static_nodes = [p.static_nodes for _, p in self.enabled("predicate") if p.predicate and p.static_nodes]
        self._victim_queue = [
            p.victim_queue_order for _, p in self.enabled("victim_queue_order") if p.victim_queue_order
        ]
        self._handlers = list(self.plugins.values())

    def _fns(self, function: str) -> list[tuple[int, Plugin]]:
        return self.enabled(function)

    # -- orders ----------------------------------------------------------------------------------------------------
    def queue_less(self, left: QueueInfo, right: QueueInfo) -> bool:
        return self.queue_chain.less(left, right)

    def job_less(self, left: JobInfo, right: JobInfo) -> bool:
        return self.job_chain.less(left, right)

    def task_less(self, left: TaskInfo, right: TaskInfo) -> bool:
        return self.task_chain.less(left, right)

    def victim_queue_less(self, left: QueueInfo, right: QueueInfo, preemptor: QueueInfo) -> bool:
        """VictimQueueOrderFn: the plugins' victim queue order, else the reversed QueueOrderFn."""
        for fn in self._victim_queue:
            result = fn(left, right, preemptor)
            if result:
                return result < 0
        return not self.queue_chain.less(left, right)

    def victims_queue(self, victims: list[TaskInfo], preemptor: TaskInfo) -> PriorityQueue[TaskInfo]:
        """BuildVictimsPriorityQueue: same job: reversed task order; a task without a job first; other queues: the
        victim queue order; same queue: reversed job order, then reversed task order."""
        ssn = self.ssn
        preemptor_queue = ssn.queues[preemptor.job.queue] if preemptor.job is not None else None

        def less(left: TaskInfo, right: TaskInfo) -> bool:
            lj, rj = left.job, right.job
            if lj is rj:
                return not self.task_chain.less(left, right)
            if lj is None:
                return True
            if rj is None:
                return False
            if lj.queue != rj.queue:
                assert preemptor_queue is not None
                return self.victim_queue_less(ssn.queues[lj.queue], ssn.queues[rj.queue], preemptor_queue)
            result = self.job_chain.plugin_compare(lj, rj)
            if result:
                return result > 0
            return not self.task_chain.less(left, right)

        queue: PriorityQueue[TaskInfo] = PriorityQueue(less)
        for victim in victims:
            queue.push(victim)
        return queue

    # -- victims ---------------------------------------------------------------------------------------------------
    def victims(
        self, function: str, preemptor: TaskInfo, candidates: list[TaskInfo], trail: list[VictimStep] | None = None
    ) -> list[TaskInfo] | None:
        """Preemptable or Reclaimable with the tier semantics of the module docstring."""
        victims: list[TaskInfo] | None = None
        tiers: dict[int, list[Plugin]] = {}
        for tier, plugin in self.enabled(function):
            tiers.setdefault(tier, []).append(plugin)
        for tier in sorted(tiers):
            for plugin in tiers[tier]:
                fn = getattr(plugin, function)
                found, vote = fn(preemptor, list(candidates))
                if vote == ABSTAIN:
                    if trail is not None:
                        trail.append(VictimStep(tier, plugin.name, vote, [], None if victims is None else
                                                [v.key for v in victims]))
                    continue
                if not found:
                    victims = None
                    if trail is not None:
                        trail.append(VictimStep(tier, plugin.name, vote, [], None))
                    break
                if victims is None:
                    victims = list(found)
                else:
                    chosen = {id(c) for c in found}
                    kept = [v for v in victims if id(v) in chosen]
                    victims = kept or None
                if trail is not None:
                    trail.append(VictimStep(tier, plugin.name, vote, [c.key for c in found],
                                            None if victims is None else [v.key for v in victims]))
            if victims is not None:
                return victims
        return victims

    # -- admission -------------------------------------------------------------------------------------------------
    def overused(self, queue: QueueInfo) -> bool:
        return any(fn(queue) for fn in self._overused)

    def allocatable(self, queue: QueueInfo, task: TaskInfo) -> str | None:
        """None when every enabled Allocatable agrees; else the name of the first plugin that refused."""
        for name, fn in self._allocatable:
            if not fn(queue, task):
                return name
        return None

    def preemptive(self, queue: QueueInfo, task: TaskInfo) -> str | None:
        for name, fn in self._preemptive:
            if not fn(queue, task):
                return name
        return None

    def job_ready(self, job: JobInfo) -> bool:
        return all(fn(job) for fn in self._job_ready)

    def job_valid(self, job: JobInfo) -> str | None:
        for name, fn in self._job_valid:
            reason = fn(job)
            if reason is not None:
                return f"{name}: {reason}"
        return None

    def job_starving(self, job: JobInfo) -> bool:
        found_tier = None
        for tier, plugin in self.enabled("job_starving"):
            if found_tier is not None and tier != found_tier:
                break
            found_tier = tier
            assert plugin.job_starving is not None
            if not plugin.job_starving(job):
                return False
        return found_tier is not None

    def _vote(self, function: str, job: JobInfo) -> tuple[bool, str]:
        permit_tier = None
        for tier, plugin in self.enabled(function):
            if permit_tier is not None and tier != permit_tier:
                return True, ""
            fn = getattr(plugin, function)
            result = fn(job)
            if result < 0:
                return False, plugin.name
            if result > 0:
                permit_tier = tier
        return True, ""

    def job_enqueueable(self, job: JobInfo) -> tuple[bool, str]:
        """(admitted, the plugin that rejected)."""
        return self._vote("job_enqueueable", job)

    def job_enqueued(self, job: JobInfo) -> None:
        for _, plugin in self.enabled("job_enqueued"):
            assert plugin.job_enqueued is not None
            plugin.job_enqueued(job)

    def job_pipelined(self, job: JobInfo) -> bool:
        return self._vote("job_pipelined", job)[0]

    def predicate(self, task: TaskInfo, node: NodeInfo) -> str | None:
        for name, fn in self._predicates:
            reason = fn(task, node)
            if reason is not None:
                return f"{name}: {reason}"
        return None

    def predicate_failures(self, task: TaskInfo, node: NodeInfo) -> tuple[PredicateFailure, ...]:
        """PredicateFn's FitError statuses on the node: those of the first enabled plugin that fails it (empty when
        every one passes)."""
        for name, fn, detail in self._predicate_details:
            if detail is not None:
                found = detail(task, node)
                if found:
                    return found
                continue
            reason = fn(task, node)
            if reason is not None:
                return (PredicateFailure(name, reason),)
        return ()

    def static_nodes(self, task: TaskInfo) -> Sequence[NodeInfo] | None:
        """A superset of the nodes PredicateFn can pass for the task, in session order, when a plugin knows one
        (NodeUnschedulable, NodeAffinity and TaintToleration never change their verdict in a session); None when
        any node may pass."""
        found: Sequence[NodeInfo] | None = None
        for fn in self._static_nodes:
            nodes = fn(task)
            if nodes is not None:
                if found is None:
                    found = nodes
                else:
                    keep = {id(n) for n in nodes}
                    found = [n for n in found if id(n) in keep]
        return found

    def preempt_candidate(self, task: TaskInfo, node: NodeInfo) -> bool:
        """PredicateForPreemptAction: the node stays a candidate for reclaim and preempt unless a status is
        UnschedulableAndUnresolvable (a failure evictions could fix, NodePorts or a spread skew, keeps it)."""
        if not self._predicates:
            return True
        if self.predicate(task, node) is None:
            return True
        return not any(f.unresolvable for f in self.predicate_failures(task, node))

    # -- events ----------------------------------------------------------------------------------------------------
    def close(self) -> None:
        """CloseSession's first step: every plugin's OnSessionClose, in the order the plugins were opened."""
        for plugin in self._handlers:
            plugin.close(self.ssn)

    def on_allocate(self, task: TaskInfo) -> None:
        for plugin in self._handlers:
            plugin.on_allocate(task)

    def on_deallocate(self, task: TaskInfo) -> None:
        for plugin in self._handlers:
            plugin.on_deallocate(task)
