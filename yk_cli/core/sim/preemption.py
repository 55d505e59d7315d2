"""Preemption as YuniKorn's core does it: victims for one ask, the node they free, and the final victim set.

Stage of the core's scheduling cycle: preemption (Application.tryAllocate -> tryPreemption -> Preemptor, and the
reservation pass's RequiredNodePreemptor).

A line-by-line model of yunikorn-core's Preemptor (`pkg/scheduler/objects/preemption.go`, `queue.go
FindEligiblePreemptionVictims`, `predicates.go`) and RequiredNodePreemptor (`required_node_preemptor.go`,
`preemption_utilities.go SortAllocations`), with the Kubernetes shim registered as the resource manager plugin
(resource-only pods: the shim answers each node's predicate check with its start index). The arithmetic is
the core's own resource-map arithmetic (`resources.go`, ported in resmap.py): a map holds only the types it names,
and which types a map names matters, so maps are plain dicts.

Where the core iterates a Go map the order is random; yk makes it explicit: victims of equal creation time
go newest first by creation order, and equally good nodes by node ID (the order the core's own checks are
sorted in, which is what it does with GOMAXPROCS=1).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cmp_to_key
from operator import attrgetter

from yk_cli.core.config.properties import format_duration
from yk_cli.core.ordering.policies import SortKey
from yk_cli.core.predicates.tracker import DynamicSize
from yk_cli.core.resources import format_resource
from yk_cli.core.sim import trace as verdicts
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.events import RESERVATION_DELAY, RESERVATION_EXPIRY
from yk_cli.core.sim.nodes import NodeState
from yk_cli.core.sim.placing import dynamic_passes, first_node, predicate_failure
from yk_cli.core.sim.resmap import Res, allocated_of, effective_max, node_available, res_of
from yk_cli.core.sim.resmap import add as _add
from yk_cli.core.sim.resmap import component_wise_min as _min
from yk_cli.core.sim.resmap import equals_or_empty as _equals_or_empty
from yk_cli.core.sim.resmap import fit_in as _fit_in
from yk_cli.core.sim.resmap import fit_in_actual as _fit_in_actual
from yk_cli.core.sim.resmap import merge_if_not_present as _merge_if_not_present
from yk_cli.core.sim.resmap import strictly_greater_than_or_equals as _ge
from yk_cli.core.sim.resmap import strictly_only_existing as _strictly_only_existing
from yk_cli.core.sim.resmap import sub_eliminate_negative as _sub_eliminate_negative
from yk_cli.core.sim.resmap import sub_only_existing as _sub_only_existing
from yk_cli.core.sim.state import (
    SCORE_NO_PREEMPT,
    SCORE_ORIGINATOR,
    AllocState,
    AskState,
    QState,
    Size,
    passes,
)
from yk_cli.core.sim.trace import Candidate

_VKEY = attrgetter("vkey")
_RANK = attrgetter("rank")

LeafVictims = tuple[int, list[AllocState], list[AllocState], Res, dict[AllocState, None]]
"""A leaf's victim search cache entry: (allocs version, victims in placement and in victim order, sum, set)."""

SCORE_FIT_MAX = 1 << 32
SCORE_UNFIT = 1 << 35
PREDICATE_BATCH = 10
"""preemptCheckConcurrency: node checks sent to the shim per batch."""


def _ask_queue_under(ask: Res, remaining: Res) -> bool:
    """isAskQueueUnderGuaranteed: no type of the ask is negative in the remaining guarantee."""
    return all(remaining.get(k, 0) >= 0 for k in ask)


def _victim_queue_over(ask: Res, remaining: Res) -> bool:
    """isVictimQueueOverGuaranteed: some type of the ask is negative in the remaining guarantee."""
    return any(k in remaining and remaining[k] < 0 for k in ask)


# --- queue snapshots ---------------------------------------------------------------------------------------------


class Snapshot:
    """QueuePreemptionSnapshot: one queue's usage and guarantee during one preemption attempt."""

    __slots__ = ("allocated", "ask_queue", "guaranteed", "leaf", "parent", "path", "victims")

    def __init__(self, parent: Snapshot | None, path: str, leaf: bool, allocated: Res, guaranteed: Res | None) -> None:
        self.parent = parent
        self.path = path
        self.leaf = leaf
        self.allocated = allocated
        self.guaranteed = guaranteed
        self.victims: list[AllocState] = []
        self.ask_queue: tuple[str, bool] | None = None
        """The ask's leaf snapshot as this one reads it: its path and whether it has a guarantee (plain values, so the
        snapshots form no reference cycle and go as soon as their search does, the garbage collector being off)."""

    def remaining(self, memo: dict[Snapshot, Res | None] | None = None) -> Res | None:
        """GetRemainingGuaranteedResource (the preempting resource is always empty here: victims go at once).

        memo keeps the answers of this snapshot and its parents while no usage changes (the victim search)."""
        if memo is not None:
            if self in memo:
                return memo[self]
            memo[self] = found = self._remaining(memo)
            return found
        return self._remaining(None)

    def _remaining(self, memo: dict[Snapshot, Res | None] | None) -> Res | None:
        parent = self.parent.remaining(memo) if self.parent is not None else None
        if not parent and not self.guaranteed:
            return None
        remaining = _sub_only_existing(self.guaranteed, self.allocated)
        ask_queue = self.ask_queue
        if ask_queue is not None:
            ask_path, ask_guaranteed = ask_queue
            if ask_path == self.path and remaining:
                return _merge_if_not_present(remaining, parent)
            # (the core's ask remaining guarantee, guarantee minus usage over the guaranteed types, is non-empty
            # exactly when the ask queue has a guarantee)
            if remaining and ask_path.startswith(self.path) and ask_guaranteed:
                return None
        return _min(remaining, parent)

    def remaining_without(self, other: Snapshot, res: Res) -> Res | None:
        """remaining() as it is once res is taken out of other's usage (other and its parents), leaving all as is."""
        other.remove(res)
        try:
            return self.remaining()
        finally:
            other.add(res)

    def add(self, res: Res) -> None:
        snapshot: Snapshot | None = self
        while snapshot is not None:
            allocated = snapshot.allocated
            for k, v in res.items():
                allocated[k] = allocated.get(k, 0) + v
            snapshot = snapshot.parent

    def remove(self, res: Res) -> None:
        snapshot: Snapshot | None = self
        while snapshot is not None:
            allocated = snapshot.allocated
            for k, v in res.items():
                allocated[k] = allocated.get(k, 0) - v
            snapshot = snapshot.parent


# --- the attempt -------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Preemption:
    """A successful attempt: the node reserved for the ask and the allocations released for it."""

    ask: AskState
    node: NodeState
    victims: list[AllocState]
    cancelled: list[AskState] = field(default_factory=list)
    """Reservations of other asks cancelled to consider their nodes."""


def _path(alloc: AllocState) -> str:
    """The path of the leaf queue an allocation runs in."""
    leaf = alloc.app.leaf
    return leaf.path if leaf is not None else ""


def _usage_scope(fence: QState) -> QState:
    """The queue whose subtree holds every usage the queue guarantees check reads for a victim search below fence
    (or, for a guaranteed queue the check fails on, below that queue): its own subtree, and above it the queues
    with a guarantee (a queue without one passes its parent's remaining guarantee through unchanged), so the
    topmost guaranteed ancestor's subtree."""
    scope = fence
    queue = fence.parent
    while queue is not None:
        if queue.guaranteed:
            scope = queue
        queue = queue.parent
    return scope


def victim_key(alloc: AllocState) -> tuple[int, int, int]:
    """sortVictimsForPreemption / compareAllocationLess: opted-in first, non-originators first, newest first."""
    return alloc.vkey


class Attempt:
    """One Preemptor: the working state of a single preemption attempt for one ask.

    With explain set it also records, for every running allocation it looked at, the verdict that kept it out (or
    made it a victim): the laws of the design, the core's own checks, and where the core departs from the design.
    """

    def __init__(self, state: RunState, ask: AskState, nodes_tried: bool, explain: bool = False) -> None:
        self.explain = explain
        self.verdicts: dict[AllocState, tuple[str, str]] = {}
        self.fence = ""
        self.fence_queue: QState | None = None
        self.level: dict[QState, int] = {}
        self.chosen: NodeState | None = None
        self.state = state
        self.ask = ask
        leaf = ask.app.leaf
        assert leaf is not None
        self.leaf = leaf
        self.nodes_tried = nodes_tried
        self.ask_res = res_of(state, ask.size)
        self.ask_mask = type_mask(ask.size)
        self.dynamic = state.tracker is not None and type(ask.size) is DynamicSize
        """The ask's verdicts depend on the pods placed: each node's victim index is checked with them removed."""
        self.snapshots: dict[str, Snapshot] = {}
        self.victim_sets: dict[QState | None, dict[AllocState, None]] = {}
        """Per leaf with potential victims, those victims (a set, kept in the per-leaf cache)."""
        self.by_node: dict[NodeState, list[AllocState] | None] = {}
        """The nodes that may take the ask, each with its potential victims in victim order (None until used)."""
        self.sorted_runs: list[list[AllocState]] = []
        """Per leaf snapshot, its victims in victim order (from the per-leaf cache)."""
        self.totals: dict[str, Res] = {}
        """Per leaf snapshot, the sum of its victims' resources (from the per-leaf cache)."""
        self._walk_memo: dict[Snapshot, Res | None] = {}
        self._found: list[NodeState] = []
        self._rest: Iterator[NodeState] = iter(())
        self.available: dict[NodeState, Res | None] = {}
        """Nodes that may take the ask (initWorkingState's nodeAvailableMap), their free resources filled lazily."""
        self.cancelled: list[AskState] = []
        self.verdict = ""
        """Why the attempt failed, in the core's log words."""
        self.binding: QState | None = None
        """A failed queue guarantees check: the lowest guaranteed queue on the path the ask overshoots."""
        self.dependency: QState | None = None
        """A failed attempt whose answer can only change with this queue's subtree usage (QState.sver); None when
        anything may change it (nodes, reservations, other queues)."""

    def run(self) -> Preemption | None:
        """TryPreemption."""
        too_small = self._own_guarantee_too_small()
        if too_small and not self.explain:
            self.verdict = "Preemption queue guarantees check failed"
            fence = self._fence_root({})
            self.fence = fence.path
            self.dependency = self._guarantee_dependency(fence, too_small)
            return None
        self._find_victims()
        if not self._queue_guarantees_allow():
            self.verdict = "Preemption queue guarantees check failed"
            assert self.fence_queue is not None
            self.dependency = self._guarantee_dependency(self.fence_queue, too_small)
            if self.explain:
                remaining = self.snapshots[self.leaf.path].remaining()
                left = format_resource(remaining) if remaining is not None else "none"
                self._mark_eligible(
                    verdicts.ASK_QUEUE_GUARANTEE,
                    f"{self.leaf.path} has {left} of guarantee left on its path: even with every eligible victim "
                    "gone it would go over its guarantee with the ask",
                )
            return None
        self._working_state()
        chosen = self._try_nodes()
        if chosen is None:
            self.verdict = self.verdict or "Preemption does not help"
            self._mark_eligible(verdicts.DOES_NOT_HELP, "no node can be freed for the ask with the eligible victims")
            return None
        node, victims = chosen
        self.chosen = node
        ask_res = self.ask_res
        fit_in = _fit_in(self.free(node), ask_res)
        extra, ok = self._additional_victims(victims, None if self.state.every_retry else (node, fit_in))
        if not ok:
            self.verdict = "Preemption does not help"
            self._mark_eligible(
                verdicts.DOES_NOT_HELP, "the victims found would leave the ask's queue over its guarantee"
            )
            return None
        victims = victims + extra
        if not victims:
            self.verdict = "Preemption does not help"
            self._mark_eligible(verdicts.DOES_NOT_HELP, "no victim is needed and none is wanted")
            return None
        total: Res = {}
        final: list[AllocState] = []
        for victim in victims:
            if not fit_in and victim.node is not node:
                continue
            res = res_of(self.state, victim.size)
            if _strictly_only_existing(ask_res, total, False):
                final.append(victim)
            total = _add(total, res)
        if _strictly_only_existing(ask_res, total, False):
            self.verdict = "Preemption helped but short of resources"
            self._mark_eligible(
                verdicts.DOES_NOT_HELP,
                f"the victims on {node.name} add up to {format_resource(total)}, less than the ask; the core does not "
                "count the node's free space here (refusal on a fragmented node)",
            )
            return None
        if self.explain:
            self._mark_outcome(node, final)
        return Preemption(self.ask, node, final, self.cancelled)

    def done(self) -> None:
        """Drop the lazy node search (a generator holding the attempt: a reference cycle that, with the garbage
        collector off during the run, would keep every attempt's working state until the end)."""
        self._rest = iter(())

    def _guarantee_dependency(self, fence: QState, too_small: bool) -> QState:
        """What a failed queue guarantees check depends on (the same with or without explain): the leaf's own usage
        when its own guarantee is too small (unless maxes are fences: then the fence moves with usage on the path),
        else the usage scope of the fence."""
        if too_small and not self.state.max_fence:
            return self.leaf
        if self.binding is not None and not self.state.max_fence:  # (with maxes as fences the fence may move)
            return _usage_scope(self.binding)
        return _usage_scope(fence)

    def _own_guarantee_too_small(self) -> bool:
        """The queue guarantees check fails whatever the victims: the ask's leaf guarantees one of the ask's types
        and has less of it left than the ask (removing other queues' pods never changes a leaf's own guarantee, which
        takes precedence over its parents'). Exactly checkPreemptionQueueGuarantees's answer in that case, in O(1)."""
        guaranteed = self.leaf.guaranteed
        if not guaranteed:
            return False
        index = self.state.type_index
        allocated = self.leaf.allocated
        for k, v in self.ask_res.items():
            g = guaranteed.get(k)
            if g is not None and g - allocated[index[k]] < v:
                return True
        return False

    # explanation --------------------------------------------------------------------------------------------------

    def _mark(self, alloc: AllocState, verdict: str, detail: str) -> None:
        if self.explain:
            self.verdicts[alloc] = (verdict, detail)

    def _eligible(self) -> list[AllocState]:
        return [alloc for snapshot in self.snapshots.values() for alloc in snapshot.victims]

    def _mark_eligible(self, verdict: str, detail: str) -> None:
        """Every eligible allocation not yet given a more precise verdict."""
        if not self.explain:
            return
        for alloc in self._eligible():
            if alloc not in self.verdicts:
                self.verdicts[alloc] = (verdict, detail)

    def _mark_outcome(self, node: NodeState, final: list[AllocState]) -> None:
        chosen = set(final)
        for alloc in final:
            self.verdicts[alloc] = (verdicts.VICTIM, self._victim_detail(alloc, final))
        for alloc in self._eligible():
            if alloc in chosen or alloc in self.verdicts:
                continue
            if alloc.node is node:
                self.verdicts[alloc] = (
                    verdicts.NOT_NEEDED,
                    "the victims before it in victim order (opted-in, non-originators, newest first) made room",
                )
            else:
                self.verdicts[alloc] = (
                    verdicts.OTHER_NODE,
                    f"{node.name} was chosen: the fewest victims, without opted-out pods or originators where "
                    "possible, ties by node name",
                )

    def _victim_detail(self, alloc: AllocState, final: list[AllocState]) -> str:
        leaf = alloc.app.leaf
        assert leaf is not None
        parts = [f"P{alloc.priority} <= P{self.level.get(leaf, self.ask.priority)}"]
        parts.append(f"created {format_duration(alloc.created)}")
        if not alloc.allow_preemption:
            parts.append("opted out of preemption (a suggestion the core may override)")
        if alloc.originator:
            parts.append("originator of its application")
        guaranteed = leaf.guaranteed
        if guaranteed:
            taken: Res = {}
            for other in final:
                if other.app.leaf is leaf:
                    taken = _add(taken, res_of(self.state, other.size))
            left = _sub_only_existing(allocated_of(self.state, leaf), taken) or {}
            below = {k: left.get(k, 0) for k, v in guaranteed.items() if left.get(k, 0) < v}
            if below:
                parts.append(
                    f"takes {leaf.path} below its guarantee ({format_resource(below)} left of "
                    f"{format_resource({k: guaranteed[k] for k in below})}): the design's law 2 forbids it, the core "
                    "only checks that the queue was over its guarantee before"
                )
        return "; ".join(parts)

    def candidates(self) -> tuple[Candidate, ...]:
        """The recorded verdicts, victims first, then by queue, node and name."""
        order = {code: i for i, code in enumerate(verdicts.CANDIDATE_VERDICTS)}
        out = []
        for alloc, (verdict, detail) in self.verdicts.items():
            leaf = alloc.app.leaf
            out.append(
                Candidate(
                    alloc.name,
                    alloc.app.id,
                    leaf.path if leaf is not None else "",
                    alloc.node.name,
                    alloc.priority,
                    verdict,
                    detail,
                )
            )
        out.sort(key=lambda c: (order[c.verdict], c.queue_path, c.node, c.application, c.allocation))
        return tuple(out)

    # FindEligiblePreemptionVictims
    def _find_victims(self) -> None:
        leaf = self.leaf
        priorities: dict[QState, int] = {}
        fence = self._fence_root(priorities)
        key = scope = None
        if not self.explain and not self.state.every_retry:
            # the search reads only usage below the usage scope (and static settings): reuse it while that holds
            scope = _usage_scope(fence)
            key = (leaf, self.ask.priority, self.ask_mask, fence)
            found = self.state.caches.search_cache.get(key)
            if found is not None and found[0] == scope.sver:
                _, self.snapshots, self.victim_sets, self.sorted_runs, self.totals, self.level, _ = found
                self.fence, self.fence_queue = fence.path, fence
                return
        self._snapshot(leaf)
        ask_snapshot = self.snapshots[leaf.path]
        ask_info = (ask_snapshot.path, ask_snapshot.guaranteed is not None)
        queue: QState | None = leaf
        while queue is not None and queue.parent is not None:
            self.snapshots[queue.path].ask_queue = ask_info
            queue = queue.parent
        self.fence = fence.path
        self.fence_queue = fence
        self._walk_memo = {}
        self._walk(fence, priorities, priorities[fence], False)
        self._walk_memo = {}
        if self.explain:
            self._mark_outside(fence)
        if self.explain:
            for path, snapshot in self.snapshots.items():
                if snapshot.leaf:
                    self.victim_sets[self.state.queues[path]] = dict.fromkeys(snapshot.victims)
        if scope is not None and key is not None:
            state = self.state
            cache = state.caches.search_cache
            found = (scope.sver, self.snapshots, self.victim_sets, self.sorted_runs, self.totals, self.level, scope)
            cache[key] = found
            if len(cache) >= 2 * state.caches.search_kept + 256:
                # a search whose scope's usage changed since is never used again (sver only grows): let it go
                state.caches.search_cache = {k: v for k, v in cache.items() if v[6].sver == v[0]}
                state.caches.search_kept = len(state.caches.search_cache)

    def _fence_root(self, priorities: dict[QState, int]) -> QState:
        """findPreemptionFenceRoot: up from the ask's leaf to root, a preemption fence, or (after 1.8) a full max."""
        priority = self.ask.priority
        queue = self.leaf
        while True:
            offset = queue.poffset
            priority = offset if queue.pfence else priority + offset
            priorities[queue] = priority
            limit = effective_max(self.state, queue) if self.state.max_fence else None
            full = False
            if limit:
                projected = _add(allocated_of(self.state, queue), self.ask_res)
                full = not _strictly_only_existing(limit, projected, True)
            parent = queue.parent
            if parent is None or queue.ppolicy == "fence" or full:
                return queue
            queue = parent

    def _snapshot(self, queue: QState) -> Snapshot:
        """createPreemptionSnapshot (parents first)."""
        found = self.snapshots.get(queue.path)
        if found is not None:
            return found
        parent = self._snapshot(queue.parent) if queue.parent is not None else None
        snapshot = Snapshot(
            parent, queue.path, queue.is_leaf, allocated_of(self.state, queue), queue.guaranteed or None
        )
        ask_snapshot = self.snapshots.get(self.leaf.path)
        if ask_snapshot is not None:
            snapshot.ask_queue = (ask_snapshot.path, ask_snapshot.guaranteed is not None)
        self.snapshots[queue.path] = snapshot
        return snapshot

    def _walk(self, queue: QState, priorities: dict[QState, int], ask_priority: int, fenced: bool) -> None:
        """findEligiblePreemptionVictims: depth-first below the fence root."""
        explain = self.explain
        if queue is self.leaf:
            if explain:
                for alloc in queue.allocs:
                    self._mark(alloc, verdicts.SAME_QUEUE, f"in the ask's own queue {queue.path}")
            return
        if queue.is_leaf:
            if queue.ppolicy == "disabled":
                if explain:
                    for alloc in queue.allocs:
                        self._mark(alloc, verdicts.PREEMPTION_DISABLED, f"{queue.path} has preemption.policy disabled")
                return
            ask_mask = self.ask_mask
            if not explain:
                # a leaf without eligible pods gives nothing whether over its guarantee or not: look at that first
                key = (None if fenced else ask_priority, ask_mask)
                found = queue.vcache.get(key)
                if found is None or found[0] != len(queue.alog):
                    found = self._leaf_victims(queue, ask_priority, fenced, key, found)
                _, victims, in_order, total, owner = found
                if not victims:
                    return
                snapshot = self._snapshot(queue)
                remaining = snapshot.remaining(self._walk_memo)
                if remaining is not None and all(v >= 0 for v in remaining.values()):
                    del self.snapshots[queue.path]
                    return
                self.level[queue] = ask_priority
                snapshot.victims = victims
                self.victim_sets[queue] = owner
                self.sorted_runs.append(in_order)
                self.totals[queue.path] = total
                return
            snapshot = self._snapshot(queue)
            remaining = snapshot.remaining(self._walk_memo)
            if remaining is not None and all(v >= 0 for v in remaining.values()):
                del self.snapshots[queue.path]
                detail = f"{queue.path} is not over its guarantee: {format_resource(remaining)} still guaranteed"
                for alloc in queue.allocs:
                    self._mark(alloc, verdicts.NOT_OVER_GUARANTEE, detail)
                return
            self.level[queue] = ask_priority
            for alloc in queue.allocs:
                if alloc.required or alloc.preempted:
                    if explain and alloc.required:
                        self._mark(alloc, verdicts.REQUIRED_NODE, "a DaemonSet pod (required node)")
                    continue
                if not alloc.mask & ask_mask:
                    if explain:
                        self._mark(alloc, verdicts.NO_SHARED_RESOURCE, "holds none of the ask's resource types")
                    continue
                if fenced or alloc.priority <= ask_priority:
                    snapshot.victims.append(alloc)
                elif explain:
                    self._mark(
                        alloc,
                        verdicts.HIGHER_PRIORITY,
                        f"P{alloc.priority} > P{ask_priority}: the ask's P{self.ask.priority} compared at "
                        f"{queue.path} after the offsets and priority fences between {self.fence} and both queues",
                    )
            if not snapshot.victims:
                del self.snapshots[queue.path]
            return
        for entry in _children(queue):
            child = entry
            child_fenced = False
            child_priority = priorities.get(child)
            if child_priority is None:
                if child.pfence:
                    if child.poffset > ask_priority:
                        if self.explain:
                            detail = (
                                f"{child.path} is a priority fence with offset {child.poffset}, above the "
                                f"ask's P{ask_priority} there"
                            )
                            for leaf in _leaves(child):
                                for alloc in leaf.allocs:
                                    self._mark(alloc, verdicts.PRIORITY_FENCED, detail)
                        continue
                    child_fenced = True
                    child_priority = ask_priority
                else:
                    child_priority = ask_priority - child.poffset
            self._walk(child, priorities, child_priority, fenced or child_fenced)

    def _leaf_victims(
        self, queue: QState, ask_priority: int, fenced: bool, key: SortKey, old: LeafVictims | None
    ) -> LeafVictims:
        """The eligible victims of a leaf over its guarantee, as the walk finds them (placement order), the same in
        victim order, their resource sum and as a set; cached per leaf and brought up to date from the leaf's change
        log (QState.alog: every allocation placed, released or marked preempted there since) rather than rebuilt.

        The filter reads only what never changes for an allocation (required, type mask, priority) and preempted,
        which only ever turns on: an allocation can join only when it is placed, at the end of the placement order.
        """
        ask_mask = self.ask_mask
        state = self.state
        log = queue.alog
        if old is not None and len(log) - old[0] < len(queue.allocs):
            _, victims, in_order, total, owner = old
            victims, in_order, total, owner = list(victims), list(in_order), dict(total), dict(owner)
            allocs = queue.allocs
            for alloc in log[old[0] :]:
                wanted = (
                    alloc in allocs
                    and not alloc.required
                    and not alloc.preempted
                    and alloc.mask & ask_mask
                    and (fenced or alloc.priority <= ask_priority)
                )
                if bool(wanted) == (alloc in owner):
                    continue
                if wanted:
                    victims.append(alloc)
                    insort(in_order, alloc, key=_VKEY)
                    owner[alloc] = None
                    for k, v in res_of(state, alloc.size).items():
                        total[k] = total.get(k, 0) + v
                else:
                    victims.remove(alloc)
                    del in_order[bisect_left(in_order, alloc.vkey, key=_VKEY)]
                    del owner[alloc]
                    for k, v in res_of(state, alloc.size).items():
                        left = total[k] - v
                        if left:
                            total[k] = left
                        else:
                            del total[k]  # (amounts are positive: no victim left holds the type)
            found: LeafVictims = (len(log), victims, in_order, total, owner)
        else:
            victims = [
                alloc
                for alloc in queue.allocs
                if not alloc.required
                and not alloc.preempted
                and alloc.mask & ask_mask
                and (fenced or alloc.priority <= ask_priority)
            ]
            total = {}
            for alloc in victims:
                for k, v in res_of(state, alloc.size).items():
                    total[k] = total.get(k, 0) + v
            found = (len(log), victims, sorted(victims, key=_VKEY), total, dict.fromkeys(victims))
        queue.vcache[key] = found
        if len(log) > 2 * len(queue.allocs) + 256:  # forget the log's prefix every entry has read
            done = min(entry[0] for entry in queue.vcache.values())
            if done:
                del log[:done]
                for cached, entry in queue.vcache.items():
                    queue.vcache[cached] = (entry[0] - done, *entry[1:])
                found = queue.vcache[key]
        return found

    def _mark_outside(self, fence: QState) -> None:
        if fence.parent is None:
            return
        why = "preemption.policy fence" if fence.ppolicy == "fence" else "its max is reached"
        detail = f"outside {fence.path}, where the victim search stops ({why})"
        inside = set(_leaves(fence))
        for leaf in _leaves(self.state.root):
            if leaf not in inside:
                for alloc in leaf.allocs:
                    self._mark(alloc, verdicts.OUTSIDE_FENCE, detail)

    # checkPreemptionQueueGuarantees
    def _queue_guarantees_allow(self) -> bool:
        """checkPreemptionQueueGuarantees. The core works on copies of the queue snapshots; yk changes them in place
        and undoes every change before returning (same values, no copies)."""
        snapshots = self.snapshots
        current = snapshots.get(self.leaf.path)
        if current is None:
            return False
        old = current.remaining()
        if old is not None and _fit_in_actual(old, self.ask_res):
            return True
        # Removing victims only ever raises the ask queue's remaining guarantee, so the core's "at some point
        # during the removals" is "after removing every potential victim" (when there is one).
        removed: list[tuple[Snapshot, Res]] = []
        for snapshot in snapshots.values():
            if snapshot.victims:
                total = self.totals.get(snapshot.path)
                if total is None:
                    total = {}
                    for alloc in snapshot.victims:
                        for k, v in res_of(self.state, alloc.size).items():
                            total[k] = total.get(k, 0) + v
                removed.append((snapshot, total))
        if not removed:
            return False
        current.add(self.ask_res)
        try:
            for snapshot, total in removed:
                snapshot.remove(total)
            remaining = current.remaining()
            if remaining is not None and _ask_queue_under(self.ask_res, remaining):
                return True
            self.binding = self._binding(current)
            return False
        finally:
            for snapshot, total in reversed(removed):
                snapshot.add(total)
            current.remove(self.ask_res)

    def _binding(self, current: Snapshot) -> QState | None:
        """The lowest queue on the ask's path whose guarantee the ask overshoots with every potential victim gone.

        Without a guarantee of its own the ask leaf's remaining guarantee is the minimum over its guaranteed
        ancestors of guarantee minus usage, so the check fails because of such a queue; it can only pass once that
        queue's usage, or the victims below it, change: both read only usage within that queue's usage scope."""
        if self.leaf.guaranteed:
            return None  # its own guarantee alone counts: a failure with victims present is the leaf's own
        snapshot: Snapshot | None = current
        while snapshot is not None:
            if snapshot.guaranteed:
                left = _sub_only_existing(snapshot.guaranteed, snapshot.allocated) or {}
                if any(left.get(k, 0) < 0 for k in self.ask_res if k in left):
                    return self.state.queues[snapshot.path]
            snapshot = snapshot.parent
        return None

    # initWorkingState
    def _working_state(self) -> None:
        """The nodes that may take the ask (hosting a potential victim, schedulable, large enough, not reserved by
        another ask) are found lazily in name order (see _nodes); their victim lists on first use (see _sorted).
        With explain they are all found at once, and every potential victim on a node left out is marked."""
        self._cancel_old_reservations()
        self.available = {}
        self.by_node = {}
        self._found = []
        self._rest = self._find_nodes()
        if not self.explain:
            return
        self._all_nodes()
        ask = self.ask
        fit = ask.fit
        for node in dict.fromkeys(alloc.node for alloc in self._eligible()):
            if node in self.by_node:
                continue
            holder = node.reserved_by
            failure = predicate_failure(self.state, ask, node)
            if not node.fits_capacity(fit):
                why = "too small for the ask"
            elif not node.schedulable:
                why = "unschedulable"
            elif failure:
                why = f"excluded: the ask fails its node predicates there even with the victims gone ({failure})"
            else:
                assert isinstance(holder, AskState)
                why = f"reserved by {holder.app.id}/{holder.name}"
            for alloc in self._on_node(node):
                self._mark(alloc, verdicts.NODE_UNAVAILABLE, f"{node.name} is {why}")

    def _find_nodes(self) -> Iterator[NodeState]:
        """Every node that may take the ask, in name order, recorded in available and by_node as it is found."""
        state = self.state
        if not state.caches.nodes_by_name:
            state.caches.nodes_by_name = sorted(state.nodes, key=_RANK)
        for node in state.caches.nodes_by_name:
            if self._may_take(node):
                self.available[node] = None
                self.by_node[node] = None
                self._found.append(node)
                yield node

    def _may_take(self, node: NodeState) -> bool:
        """nodeAvailableMap membership: schedulable, not reserved by another ask, large enough, hosting a potential
        victim; and the ask passes the node's predicates (the shim's PreemptionPredicates answer -1 otherwise: node
        predicates do not depend on the victims)."""
        holder = node.reserved_by
        return (
            node.schedulable
            and (holder is None or holder is self.ask or holder in self.cancelled)
            and node.fits_capacity(self.ask.fit)
            and passes(self.ask.size, node)
            and any(self._is_victim(alloc) for alloc in node.allocations.values())
        )

    def _is_victim(self, alloc: AllocState) -> bool:
        """A potential victim of this attempt."""
        found = self.victim_sets.get(alloc.app.leaf)
        return found is not None and alloc in found

    def _nodes(self) -> Iterator[NodeState]:
        """The nodes that may take the ask in name order: those found so far, then the search goes on."""
        found = self._found
        i = 0
        while True:
            if i < len(found):
                yield found[i]
                i += 1
            elif next(self._rest, None) is None:
                return

    def _all_nodes(self) -> list[NodeState]:
        """Every node that may take the ask, in name order (the search runs to its end)."""
        for _ in self._rest:
            pass
        return self._found

    def _on_node(self, node: NodeState) -> list[AllocState]:
        return [alloc for alloc in self._eligible() if alloc.node is node]

    def _in_order(self) -> Iterable[AllocState]:
        """Every potential victim in victim order (a total order: the key ends with the unique creation order),
        lazily merged from the per-leaf orders."""
        if self.explain or len(self.sorted_runs) != sum(1 for s in self.snapshots.values() if s.victims):
            found = [alloc for snapshot in self.snapshots.values() for alloc in snapshot.victims]
            found.sort(key=_VKEY)
            return found
        if len(self.sorted_runs) == 1:
            return self.sorted_runs[0]
        return heapq.merge(*self.sorted_runs, key=_VKEY)

    def _sorted(self, node: NodeState) -> list[AllocState]:
        """The node's potential victims in victim order (found and sorted on first use: allocation names are
        unique in a run, so the node's allocations are all of its pods)."""
        allocs = self.by_node[node]
        if allocs is None:
            allocs = [alloc for alloc in node.allocations.values() if self._is_victim(alloc)]
            allocs.sort(key=_VKEY)
            self.by_node[node] = allocs
        return allocs

    def free(self, node: NodeState) -> Res:
        """The node's free resources as a resource map (computed once per attempt)."""
        found = self.available.get(node)
        if found is None:
            found = self.available[node] = node_available(self.state, node)
        return found

    def _cancel_old_reservations(self) -> None:
        """initWorkingState cancels another ask's reservation of a node when that ask has a lower priority, is no
        DaemonSet pod, has not preempted, and was created over 2 x 60 min + 2 s ago (as coded)."""
        state, ask = self.state, self.ask
        if state.caches.oldest_reservation is None:
            created = [h.created for node in state.reserved_nodes if isinstance(h := node.reserved_by, AskState)]
            state.caches.oldest_reservation = (min(created, default=None),)
        oldest = state.caches.oldest_reservation[0]
        if oldest is None or state.clock.now - oldest <= RESERVATION_EXPIRY + RESERVATION_DELAY:
            return  # no reservation is old enough (the common case, in O(1))
        for node in state.reserved_nodes:
            holder = node.reserved_by
            if (
                isinstance(holder, AskState)
                and holder is not ask
                and not holder.required
                and not holder.triggered
                and holder.priority < ask.priority
                and state.clock.now - holder.created > RESERVATION_EXPIRY + RESERVATION_DELAY
            ):
                self.cancelled.append(holder)

    def _fits_without_victims(self) -> list[NodeState]:
        """Nodes without potential victims that hold the ask as they are (the headroom branch checks them too)."""
        state, ask = self.state, self.ask
        out = []
        for node in state.nodes:
            if node in self.by_node or not node.schedulable or not node.fits(ask.fit) or not passes(ask.size, node):
                continue
            if not dynamic_passes(state, ask, node):
                continue
            holder = node.reserved_by
            if holder is not None and holder is not ask and holder not in self.cancelled:
                continue
            out.append(node)
        return out

    # calculateVictimsByNode
    def _victims_on(self, node_available: Res, candidates: list[AllocState]) -> tuple[int, list[AllocState] | None]:
        """calculateVictimsByNode. The core works on copies of the queue snapshots; yk changes them in place and
        undoes every change before returning (same values, no copies)."""
        ask_res, state = self.ask_res, self.state
        current = dict(node_available)
        if _fit_in(current, ask_res):
            return -1, []
        snapshots = self.snapshots
        ask_queue = snapshots[self.leaf.path]
        log: list[tuple[Snapshot, Res]] = []
        head: list[AllocState] = []
        tail: list[AllocState] = []
        try:
            for victim in candidates:
                snapshot = snapshots.get(_path(victim))
                if snapshot is None:
                    continue
                res = res_of(state, victim.size)
                remaining = snapshot.remaining()
                if remaining is None or _victim_queue_over(ask_res, remaining):
                    ask_remaining = ask_queue.remaining_without(snapshot, res)
                    if ask_remaining is None or not _fit_in_actual(ask_remaining, res):
                        break
                    shortfall = _sub_eliminate_negative(ask_res, current)
                    grown = _add(current, res)
                    if _equals_or_empty(shortfall, _sub_eliminate_negative(ask_res, grown)):
                        tail.append(victim)
                    else:
                        snapshot.remove(res)
                        ask_queue.add(res)
                        log.append((snapshot, res))
                        current = grown
                        head.append(victim)
        finally:
            for snapshot, res in reversed(log):
                ask_queue.remove(res)
                snapshot.add(res)
        head.extend(tail)
        if not head:
            return -1, None
        current = dict(node_available)
        removed: list[tuple[Snapshot, Res]] = []
        results: list[AllocState] = []
        index = -1
        try:
            for victim in head:
                snapshot = snapshots.get(_path(victim))
                if snapshot is None:
                    continue
                res = res_of(state, victim.size)
                remaining = snapshot.remaining()
                if remaining is None or _victim_queue_over(ask_res, remaining):
                    snapshot.remove(res)
                    removed.append((snapshot, res))
                    current = _add(current, res)
                    if index < 0 and _fit_in(current, ask_res):
                        index = len(results)
                    results.append(victim)
        finally:
            for snapshot, res in reversed(removed):
                snapshot.add(res)
        if index < 0:
            return -1, None
        return index, results

    # tryNodes + checkPreemptionPredicates (the shim registered as plugin)
    def _try_nodes(self) -> tuple[NodeState, list[AllocState]] | None:
        """Only nodes with potential victims can score below SCORE_UNFIT; a node without any that holds the ask (the
        headroom branch) is considered only when none does, exactly as the full batch loop would end."""
        if not self.nodes_tried:
            # a node with potential victims that already holds the ask scores 0, the best score there is: the
            # first such node by name wins without looking at the others
            fit = self.ask.fit
            if first_node(self.state, self.ask) is None:
                # no schedulable unreserved node holds the ask: only a node reserved for it (or for an ask whose
                # reservation is cancelled) can
                reserved = [node for node in self.state.reserved_nodes if self._may_take(node)]
                nodes: Iterable[NodeState] = sorted(reserved, key=_RANK)
            else:
                nodes = self._nodes()
            for node in nodes:  # name order: the first that holds the ask
                if node.fits(fit) and dynamic_passes(self.state, self.ask, node):
                    return node, []
        checks: list[tuple[int, str, NodeState]] = []
        victims_by_node: dict[NodeState, list[AllocState]] = {}
        memo: dict[tuple[object, ...], tuple[int, list[int] | None]] = {}
        for node in self._nodes():
            candidates = self._sorted(node)
            key = (tuple(node.available), tuple((v.app.leaf, v.size) for v in candidates))
            found = memo.get(key)
            if found is None:
                index, victims = self._victims_on(self.free(node), candidates)
                positions = None if victims is None else [candidates.index(v) for v in victims]
                memo[key] = (index, positions)
            else:
                index, positions = found
                victims = None if positions is None else [candidates[i] for i in positions]
            if victims is None:
                continue
            if self.dynamic:
                passing = self._passing_index(node, victims, index)
                if passing is None:  # PreemptionPredicates answers -1: no victim prefix lets the ask pass there
                    if self.explain:
                        self._mark_excluded(node, victims)
                    continue
                index = passing
            if index == 0 and victims and self._solution_score(node, 0) == 1:
                # The best score there is (no node holds the ask without victims here: the headroom branch
                # returned above if one did, the node branch skips such nodes). The batches go in (index, name)
                # order and stop after the first batch with a score this low, so the first such node by name wins.
                return node, victims[:1]
            victims_by_node[node] = victims
            if victims or not self.nodes_tried:
                checks.append((index, node.name, node))
        if not self.nodes_tried and all(self._solution_score(node, index) >= SCORE_UNFIT for index, _, node in checks):
            for node in self._fits_without_victims():
                self.available[node] = None
                victims_by_node[node] = []
                checks.append((-1, node.name, node))
        if not checks:
            return None
        checks.sort(key=lambda check: (check[0], check[1]))
        best: tuple[int, int, NodeState] | None = None
        for start in range(0, len(checks), PREDICATE_BATCH):
            for index, _, node in checks[start : start + PREDICATE_BATCH]:
                score = self._solution_score(node, index)
                if best is None or score < best[0]:
                    best = (score, index, node)
            if best is not None and best[0] < SCORE_FIT_MAX:
                break
        assert best is not None
        _, index, node = best
        victims = victims_by_node[node]
        if index >= len(victims):
            return None
        return node, victims[: index + 1]

    def _passing_index(self, node: NodeState, victims: list[AllocState], index: int) -> int | None:
        """The shim's PreemptionPredicates for an ask whose verdicts depend on the pods placed: from the start index
        on, the victims are removed one at a time and the Filters run after each; the first index that passes.
        A start index of -1 (the ask fits without victims) is the plain predicate check."""
        tracker = self.state.tracker
        assert tracker is not None
        pod, name = self.ask.ask.pod, node.name
        if index < 0:
            return index if tracker.failure(pod, name) is None else None
        for i in range(index, len(victims)):
            removed = [(victim.pod, name) for victim in victims[: i + 1]]
            if tracker.failure(pod, name, removed) is None:
                return i
        return None

    def _mark_excluded(self, node: NodeState, victims: list[AllocState]) -> None:
        """Explain: the node's potential victims, where the ask fails a pod-dependent predicate with them all gone."""
        tracker = self.state.tracker
        assert tracker is not None
        removed = [(victim.pod, node.name) for victim in victims]
        failure = tracker.failure(self.ask.ask.pod, node.name, removed)
        why = f"{failure.plugin}: {failure.reason}" if failure is not None else "no victim prefix"
        detail = f"{node.name} is excluded: the ask fails its node predicates there even with the victims gone ({why})"
        for alloc in self._sorted(node):
            self._mark(alloc, verdicts.NODE_UNAVAILABLE, detail)

    def _solution_score(self, node: NodeState, index: int) -> int:
        """getSolutionScore: index + 1, plus penalties for originators and opted-out pods up to the index, read from
        the node's sorted potential victims (not from the victim list the index belongs to, as in the core)."""
        if node not in self.by_node:
            return SCORE_UNFIT
        allocations = self._sorted(node)
        if index < 0:
            return 0
        if index >= len(allocations):
            return SCORE_UNFIT
        score = 0
        for alloc in allocations[: index + 1]:
            if alloc.originator:
                score |= SCORE_ORIGINATOR
            if not alloc.allow_preemption:
                score |= SCORE_NO_PREEMPT
        return score + index + 1

    # calculateAdditionalVictims
    def _additional_victims(
        self, node_victims: list[AllocState], final_filter: tuple[NodeState, bool] | None
    ) -> tuple[list[AllocState], bool]:
        """calculateAdditionalVictims: the victims beyond the node's that bring the ask queue's remaining guarantee
        down, and whether that remaining guarantee then holds the ask.

        With final_filter (the chosen node, whether the ask fits its free space) the walk stops as soon as the
        victims the final filter of TryPreemption keeps already cover the ask: it keeps the node's victims (every
        victim when the ask fits the free space) only while their sum is below the ask, so no later victim can
        change the outcome. The second answer is then True, as the full walk's always is once it took a victim: a
        victim is only taken when the ask queue's remaining guarantee holds it, so that remaining (a component-wise
        minimum of guarantee-minus-usage terms, each lowered by at most the victim) never goes negative.
        """
        state, ask_res = self.state, self.ask_res
        total: Res | None = None
        if final_filter is not None:
            total = {}
            for victim in node_victims:
                total = _add(total, res_of(state, victim.size))
            if node_victims and not _strictly_only_existing(ask_res, total, False):
                return [], True
        snapshots = self.snapshots  # changed in place, every change undone before returning (no copies)
        ask_queue = snapshots[self.leaf.path]
        log: list[tuple[Snapshot, Res, bool]] = []
        try:
            return self._additional_walk(node_victims, snapshots, ask_queue, total, final_filter, log)
        finally:
            for snapshot, res, added in reversed(log):
                if added:
                    snapshot.remove(res)
                else:
                    snapshot.add(res)

    def _additional_walk(
        self,
        node_victims: list[AllocState],
        snapshots: dict[str, Snapshot],
        ask_queue: Snapshot,
        total: Res | None,
        final_filter: tuple[NodeState, bool] | None,
        log: list[tuple[Snapshot, Res, bool]],
    ) -> tuple[list[AllocState], bool]:
        """The walk of _additional_victims; every change to the snapshots is recorded in log (undone by the caller)."""
        state, ask_res = self.state, self.ask_res
        node, fit_in = final_filter if final_filter is not None else (None, False)
        seen = set()
        for victim in node_victims:
            snapshot = snapshots.get(_path(victim))
            if snapshot is not None:
                res = res_of(state, victim.size)
                snapshot.remove(res)
                log.append((snapshot, res, False))
                seen.add(victim)
        victims: list[AllocState] = []
        # The state only changes when a victim is taken (every other step is undone at once), so between two taken
        # victims each queue's "over its guarantee" answer and the ask queue's remaining guarantee are constant and
        # computed once. Taking a victim out of its queue leaves the ask queue's remaining guarantee as it is unless
        # the two queues share an ancestor with a guarantee (a queue without one reads nothing of its own usage).
        guarded: set[Snapshot] = set()
        current: Snapshot | None = ask_queue.parent
        while current is not None:
            if current.guaranteed:
                guarded.add(current)
            current = current.parent
        shared: dict[Snapshot, bool] = {}
        over: dict[Snapshot, bool] = {}
        ask_before = ask_queue.remaining()
        # (a plain loop over the lazy merge, not a generator expression: mypyc would make that a list of every
        # potential victim, and the walk usually stops long before the end)
        for victim in self._in_order():
            if victim in seen:
                continue
            snapshot = snapshots.get(_path(victim))
            if snapshot is None:
                continue
            is_over = over.get(snapshot)
            if is_over is None:
                remaining = snapshot.remaining()
                is_over = over[snapshot] = remaining is None or _victim_queue_over(ask_res, remaining)
            if not is_over:
                continue
            res = res_of(state, victim.size)
            snapshot.remove(res)
            log.append((snapshot, res, False))
            depends = shared.get(snapshot)
            if depends is None:
                depends = False
                current = snapshot.parent
                while current is not None:
                    if current in guarded:
                        depends = True
                        break
                    current = current.parent
                shared[snapshot] = depends
            ask_remaining = ask_queue.remaining() if depends else ask_before
            if ask_remaining is not None and _fit_in_actual(ask_remaining, res):
                ask_queue.add(res)
                log.append((ask_queue, res, True))
            else:
                snapshot.add(res)
                log.append((snapshot, res, True))
                break
            after = ask_queue.remaining()
            if not _equals_or_empty(ask_remaining, after):
                victims.append(victim)
                ask_before = after
                over.clear()
                if total is not None and (fit_in or victim.node is node):
                    total = _add(total, res)
                    if not _strictly_only_existing(ask_res, total, False):
                        return victims, True
            else:
                ask_queue.remove(res)
                log.append((ask_queue, res, False))
                snapshot.add(res)
                log.append((snapshot, res, True))
        if victims:
            final = ask_before
            return victims, final is not None and _ask_queue_under(ask_res, final)
        return [], True


def try_preemption(
    state: RunState, ask: AskState, nodes_tried: bool, explain: bool = False
) -> tuple[Preemption | None, Attempt]:
    """One preemption attempt for an ask whose preconditions passed: the outcome (None when it failed: the attempt's
    verdict says why) and the attempt, with every candidate's verdict when explain is set."""
    attempt = Attempt(state, ask, nodes_tried, explain)
    found = attempt.run()
    attempt.done()
    return found, attempt


def required_node_victims(
    state: RunState, ask: AskState, node: NodeState, explain: bool = False
) -> tuple[list[AllocState], tuple[Candidate, ...]]:
    """RequiredNodePreemptor: victims on the ask's own node, ignoring queues, guarantees and fences; with explain,
    every allocation on the node with its verdict.

    Candidates are every allocation on the node except required-node pods, pods of higher priority, pods already
    preempted and pods sharing no resource type with the ask. Ordered regular pods, opted-out pods, originators;
    then lower priority, newer, smaller first. Taken until their sum alone covers the ask; used only if that sum
    plus the node's free resources covers it.
    """
    ask_res = res_of(state, ask.size)
    types = state.types
    notes: dict[AllocState, tuple[str, str]] = {}
    candidates = []
    for alloc in node.allocations.values():
        if not isinstance(alloc, AllocState) or alloc.preempted:
            continue
        if alloc.required:
            notes[alloc] = (verdicts.REQUIRED_NODE, "another DaemonSet pod (required node)")
        elif alloc.priority > ask.priority:
            notes[alloc] = (verdicts.HIGHER_PRIORITY, f"P{alloc.priority} > P{ask.priority}")
        elif not any(v and types[i] in ask_res for i, v in enumerate(alloc.size)):
            notes[alloc] = (verdicts.NO_SHARED_RESOURCE, "holds none of the ask's resource types")
        else:
            candidates.append(alloc)
    candidates.sort(key=cmp_to_key(_required_order))
    victims: list[AllocState] = []
    total: Res = {}
    for alloc in candidates:
        if _ge(total, ask_res):
            break
        total = _add(total, res_of(state, alloc.size))
        victims.append(alloc)
    if not (victims and _ge(_add(total, node_available(state, node)), ask_res)):
        victims = []
    if not explain:
        return victims, ()
    chosen = set(victims)
    for alloc in candidates:
        if alloc in chosen:
            note = "DaemonSet preemption ignores queues, guarantees, fences and opt-outs"
            if not alloc.allow_preemption or alloc.originator:
                note += " (this pod opted out or is an originator: the design calls that a strong suggestion only)"
            notes[alloc] = (verdicts.VICTIM, note)
        elif victims:
            notes[alloc] = (verdicts.NOT_NEEDED, "the pods before it in DaemonSet victim order made room")
        else:
            notes[alloc] = (verdicts.DOES_NOT_HELP, "all eligible pods together cannot make room on the node")
    out = [
        Candidate(a.name, a.app.id, a.app.leaf.path if a.app.leaf is not None else "", node.name, a.priority, v, d)
        for a, (v, d) in notes.items()
    ]
    order = {code: i for i, code in enumerate(verdicts.CANDIDATE_VERDICTS)}
    out.sort(key=lambda c: (order[c.verdict], c.queue_path, c.application, c.allocation))
    return victims, tuple(out)


def _ask_type(alloc: AllocState) -> int:
    if alloc.originator:
        return 3
    return 2 if not alloc.allow_preemption else 1


def _required_order(left: AllocState, right: AllocState) -> int:
    """SortAllocations: regular, opted-out, originator; lower priority; newer; smaller (else node order)."""
    for a, b in ((_ask_type(left), _ask_type(right)), (left.priority, right.priority), (-left.created, -right.created)):
        if a != b:
            return -1 if a < b else 1
    if left.size != right.size:
        delta = [a - b for a, b in zip(left.size, right.size, strict=True)]
        bigger = all(v >= 0 for v in delta) and any(v > 0 for v in delta)
        return 1 if bigger else -1
    return 0


def _leaves(queue: QState) -> list[QState]:
    """The leaf queues of a subtree, in configuration order."""
    if queue.is_leaf:
        return [queue]
    return [leaf for child in _children(queue) for leaf in _leaves(child)]


def _children(queue: QState) -> Iterable[QState]:
    """Child queues in configuration order (the victim search does not depend on the sort order)."""
    return sorted((entry[-1] for entry in queue.children), key=lambda child: child.order)


def type_mask(size: Size) -> int:
    """The resource types a size names, as bits (MatchAny is then one AND)."""
    mask = 0
    for i, v in enumerate(size):
        if v:
            mask |= 1 << i
    return mask
