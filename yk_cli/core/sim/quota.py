"""Quota preemption (YuniKorn 1.8+, `quota_preemptor.go`): pods preempted to bring a queue back under its max.

Stage of the core's scheduling cycle: none; the core's quota preemption loop beside it (Queue.TryQuotaPreemption),
on its own timer (events.QUOTA).

With `preemption.quotapreemptionenabled: true` on the partition, a managed queue with `quota.preemption.delay` > 0
whose usage is above its max gets a start time (the core's setPreemptionTime "quota lowered" branch, or
IncAllocatedResource when running pods are recovered): the run's start plus the delay. The core's background loop
(Queue.TryQuotaPreemption, top-down from root about every second) then fires the queue once when the time has come
and the queue is still over its max; a queue that fires is not descended into in that pass. A fired queue's start
time is cleared: it does not fire again in this run (no allocation can take a queue over its max).

The amounts and the victims follow the core's resource arithmetic exactly (the helpers below are ports of
`pkg/common/resources` on maps, zero-valued types kept where the core keeps them). Victims are released at once,
like every victim of the dry run, so the core's preempting resource (victims chosen but not yet gone) is always
empty here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from yk_cli.core.config import properties as props
from yk_cli.core.ordering.policies import SortKey
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.resmap import (
    Res,
    allocated_of,
    component_wise_min,
    component_wise_min_only_existing,
    res_of,
    sgte_only_existing,
    sub_only_existing,
)
from yk_cli.core.sim.state import SCORE_NO_PREEMPT, SCORE_ORIGINATOR, AllocState, QState

LOOP_INTERVAL = 1_000_000_000
"""The core's quota preemption loop runs every second."""
HOUR = 3_600_000_000_000
"""SortAllocationsBasedOnAsk compares creation times truncated to the hour."""


@dataclass(frozen=True, slots=True)
class QuotaOutcome:
    """One queue's quota preemption: what it had to preempt and the victims chosen (leaf by leaf, in order)."""

    queue: QState
    max: Res
    used: Res
    preemptable: Res | None
    """The amount to preempt (None: nothing, e.g. the guarantees above it left nothing preemptable)."""
    victims: tuple[AllocState, ...]
    claimed: Res


# --- the core's resource helpers (pkg/common/resources/resources.go) on maps; None is the core's nil -------------


def strictly_positive(res: Mapping[str, int] | None) -> Res | None:
    """setResources keeps a max or guarantee only when StrictlyGreaterThanZero (else nil)."""
    if res is None or any(v < 0 for v in res.values()) or not any(v > 0 for v in res.values()):
        return None
    return dict(res)


def fit_in_max_undef(larger: Res | None, smaller: Res | None) -> bool:
    """FitInMaxUndef: types larger does not define are unlimited; negative amounts count as 0."""
    if smaller is None:
        return True
    r = larger or {}
    for k, v in smaller.items():
        if k not in r:
            continue
        if v > max(0, r[k]):
            return False
    return True


def is_zero(res: Res | None) -> bool:
    return res is None or all(v == 0 for v in res.values())


def match_any(res: Res | None, other: Res | None) -> bool:
    """MatchAny: at least one type of res exists in other."""
    if res is None or other is None:
        return False
    return any(k in other for k in res)


def shares_type_wise(res: Res | None, total: Res | None) -> dict[str, float]:
    """GetSharesTypeWise: amount / total per type (the amount itself where total is nil or 0; zero amounts left out)."""
    out: dict[str, float] = {}
    for k, v in (res or {}).items():
        if v == 0:
            continue
        t = total.get(k, 0) if total is not None else 0
        out[k] = float(v) if t == 0 else float(v) / float(t)
    return out


def type_matching(res: Res, other: Res) -> int:
    """TypeMatching: percentage of res's types that other has (integer division)."""
    if not res:
        return 0
    return sum(1 for k in other if k in res) * 100 // len(res)


def usage_ratio_key(res: Res, total: Res | None, specific: Res) -> tuple[float, ...]:
    """CompUsageRatioSpecificTypes as a sort key: the shares of the specific types, largest first (a shorter list
    of positive shares compares as if zero-padded, as compareShares does)."""
    shares = shares_type_wise(res, total)
    values = [shares[k] for k in specific if k in shares]
    return tuple(sorted(values, reverse=True))


# --- the queue side (queue.go) ------------------------------------------------------------------------------------


def _max(queue: QState) -> Res | None:
    return strictly_positive(queue.queue.max)


def _guaranteed(queue: QState) -> Res | None:
    return strictly_positive(queue.guaranteed)


def delay_of(queue: QState) -> int:
    """quota.preemption.delay in nanoseconds (0: off)."""
    value = queue.queue.setting(props.QUOTA_PREEMPTION_DELAY).value
    return int(value) if isinstance(value, int) else 0


def over_max(state: RunState, queue: QState) -> bool:
    """Not max.StrictlyGreaterThanOrEqualsOnlyExisting(allocated): the core's "usage is above max"."""
    return not sgte_only_existing(_max(queue), allocated_of(state, queue))


def arm(state: RunState) -> None:
    """At the start of the run: every managed queue with a delay and a max that its usage is above gets its start
    time (the run's start plus the delay) and a timer then. Called only when the partition enables it."""
    for queue in state.queues.values():
        if queue.parent is None or queue.queue.dynamic:
            continue
        delay = delay_of(queue)
        if delay <= 0 or is_zero(_max(queue)) or not over_max(state, queue):
            continue
        queue.qstart = delay
        _timer(state, queue, delay)


def _timer(state: RunState, queue: QState, time: int) -> None:
    queue.qtimer = time
    state.clock.push_quota(time, queue)


def stale(state: RunState, queue: QState, time: int) -> bool:
    """A timer replaced by a later one, for a queue that no longer waits, or whose usage went back under its max
    (pods ended): it must not move the clock (the core's loop would only clear the start time)."""
    if queue.qstart is None or queue.qtimer != time:
        return True
    if not over_max(state, queue):
        queue.qstart = None
        return True
    return False


def tick(state: RunState) -> list[QuotaOutcome]:
    """One pass of the core's loop now: the queues that fire (top-down; a queue that fires is not descended
    into) and their victims, all chosen on the same state (nothing is released here). Queues still waiting get a
    timer: their start time, or the next pass for those skipped under a queue that fired."""
    fired: list[QState] = []
    kids = _children(state)
    skipped: list[QState] = []

    def walk(queue: QState, below_fired: bool) -> None:
        if below_fired:
            if queue.qstart is not None:
                skipped.append(queue)
        elif _try_acquire(state, queue):
            fired.append(queue)
            below_fired = True
        for child in kids.get(queue, ()):
            walk(child, below_fired)

    walk(state.root, False)
    outcomes = [_preempt(state, queue) for queue in fired]
    for queue in fired:
        queue.qstart = None
    for queue in skipped:
        start = queue.qstart
        assert start is not None
        if start <= state.clock.now:  # due but skipped: the next pass (a later start keeps its own timer)
            _timer(state, queue, state.clock.now + LOOP_INTERVAL)
    return outcomes


def _children(state: RunState) -> dict[QState, list[QState]]:
    out: dict[QState, list[QState]] = {}
    for queue in state.queues.values():
        if queue.parent is not None:
            out.setdefault(queue.parent, []).append(queue)
    return out


def _try_acquire(state: RunState, queue: QState) -> bool:
    """tryAcquirePreemption: managed, above its max (else the start time is cleared) and the start time has come."""
    if queue.queue.dynamic:
        return False
    if not over_max(state, queue):
        queue.qstart = None
        return False
    start = queue.qstart
    return start is not None and state.clock.now >= start


def _preemptable_of(state: RunState, queue: QState | None) -> Res:
    """GetPreemptableResource: usage above guarantee (the usage itself without one), component-wise min up to root."""
    if queue is None:
        return {}
    parent = _preemptable_of(state, queue.parent)
    guaranteed = _guaranteed(queue)
    allocated = allocated_of(state, queue)
    own = dict(allocated) if guaranteed is None else sub_only_existing(guaranteed, allocated)
    found = component_wise_min(own, parent)
    assert found is not None
    return found


def _set_preemptable(state: RunState, queue: QState, top: Res | None) -> Res | None:
    """setPreemptableResources: the usage above max, capped by the usage above guarantee on the way up."""
    used = allocated_of(state, queue)  # minus the preempting resource, always empty here
    if not top or not used:
        return None
    actual = sub_only_existing(top, used)
    assert actual is not None
    net = {k: -v for k, v in actual.items() if v < 0}
    net_parent = {k: -v for k, v in _preemptable_of(state, queue).items() if v < 0}
    found = component_wise_min_only_existing(net, net_parent)
    return found or None


def _share_out(state: RunState, queue: QState, amount: Res, leaves: dict[QState, Res]) -> None:
    """getChildQueuesPreemptableResource: the amount shared among the children in proportion to their usage above
    guarantee (all of it without one), floored, down to the leaves."""
    children = [c for c in state.queues.values() if c.parent is queue]
    if not children:
        return
    total: Res = {}
    own: dict[QState, Res] = {}
    for child in children:
        allocated = allocated_of(state, child)
        guaranteed = _guaranteed(child)
        if not allocated or sgte_only_existing(guaranteed, allocated):
            continue
        used = sub_only_existing(guaranteed, allocated) if guaranteed else allocated
        assert used is not None
        share = {k: abs(v) for k, v in used.items()}
        own[child] = share
        for k, v in share.items():
            total[k] = total.get(k, 0) + v
    for child, share in own.items():
        per = shares_type_wise(share, total)
        part = {k: math.floor(per.get(k, 0.0) * float(amount[k])) for k in share if k in amount}
        if child.is_leaf:
            leaves[child] = part
        else:
            _share_out(state, child, part, leaves)


def _preempt(state: RunState, queue: QState) -> QuotaOutcome:
    """QuotaPreemptionContext.tryPreemption for a queue that fired."""
    top = _max(queue)
    amount = _set_preemptable(state, queue, top)
    leaves: dict[QState, Res | None] = {}
    if queue.is_leaf:
        leaves[queue] = amount
    elif amount is not None:
        shares: dict[QState, Res] = {}
        _share_out(state, queue, amount, shares)
        leaves.update(shares)
    victims: list[AllocState] = []
    claimed: Res = {}
    for leaf in [q for q in state.queues.values() if q in leaves]:  # tree order (the core's is a map's)
        chosen = _leaf_victims(state, leaf, leaves[leaf])
        victims.extend(chosen)
        for victim in chosen:
            for k, v in res_of(state, victim.size).items():
                claimed[k] = claimed.get(k, 0) + v
    return QuotaOutcome(
        queue, top or {}, allocated_of(state, queue), amount, tuple(victims), {k: v for k, v in claimed.items() if v}
    )


def _leaf_victims(state: RunState, leaf: QState, amount: Res | None) -> list[AllocState]:
    """filterAllocations, SortAllocationsBasedOnAsk and preemptVictims for one leaf."""
    if is_zero(amount):
        return []
    assert amount is not None
    candidates = [
        a for a in leaf.allocs if match_any(amount, res_of(state, a.size)) and not a.required and not a.preempted
    ]
    top = _max(leaf)
    candidates.sort(key=lambda a: _sort_key(state, a, top, amount))
    total: Res = {}
    chosen: list[AllocState] = []
    for victim in candidates:
        size = res_of(state, victim.size)
        if not fit_in_max_undef(amount, size):
            continue
        for k, v in size.items():
            total[k] = total.get(k, 0) + v
        if sgte_only_existing(amount, total):
            chosen.append(victim)
        else:
            for k, v in size.items():
                total[k] = total[k] - v
    return chosen


def _sort_key(state: RunState, alloc: AllocState, top: Res | None, amount: Res) -> SortKey:
    """SortAllocationsBasedOnAsk: highest score first (originators and opted-out pods score highest, as in the
    core), then lowest priority, newest creation hour, smallest usage share of the preempted types; then (the core
    leaves equal pods in map order) newest first."""
    size = res_of(state, alloc.size)
    score = (SCORE_ORIGINATOR if alloc.originator else 0) | (0 if alloc.allow_preemption else SCORE_NO_PREEMPT)
    score += type_matching(size, amount)
    return (
        -score,
        alloc.priority,
        -(alloc.created // HOUR),
        usage_ratio_key(size, top, amount),
        -alloc.created,
        -alloc.seq,
    )
