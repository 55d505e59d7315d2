"""When an ask may try preemption: YuniKorn's CheckPreconditions on the virtual clock.

Stage of the core's scheduling cycle: the gate in front of preemption (Application.tryAllocate -> canPreempt,
CheckPreconditions), with its timers: the preemption delay and the 15 s retry (events.PREEMPT_READY).

An ask is *ready* while every precondition passes: the partition enables preemption, the ask may preempt
(its preemptionPolicy is not Never), it is not a required-node ask, it has never preempted, it has waited its
leaf's preemption.delay, and its last try is at least 15 s ago. A leaf with no guarantee anywhere on its path
can never pass the queue-guarantee check, so its asks are never ready (a try there always fails the same way).

Ready asks are counted on every queue of their path and listed per application, so the scheduling walk visits
them even where no ask could be allocated, and skips them nowhere else. A try that fails stamps the ask: it is
ready again 15 s later, but only once something changed that could alter the result; until then it is *dormant*,
because the core's retry would find the same answer. What could alter it depends on why the try failed: a failed
queue guarantees check reads only the usage below one queue (the fence root, or its topmost guaranteed ancestor),
so only a change there wakes the ask; any other failure wakes on any allocation, release or reservation. The core
went on retrying every 15 s while the ask slept (each retry restarting the wait), so a woken ask tries again at
the first of those retry times that is not before the change, never at the change itself.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.events import RETRY_WAIT
from yk_cli.core.sim.state import PENDING, AskState, QState

MAX_ATTEMPTS_PER_LEAF = 10
"""maxPreemptionsPerQueue: preemption tries per leaf queue and scheduling cycle."""


def guarded(leaf: QState) -> bool:
    """Whether the leaf or an ancestor has a guarantee (without one no preemption can pass its queue check)."""
    return any(queue.guaranteed for queue in leaf.ancestors())


def may_ever_preempt(state: RunState, ask: AskState) -> bool:
    """The preconditions that never change for an ask."""
    leaf = ask.app.leaf
    return (
        state.preemption_enabled
        and ask.ask.preempt_other
        and not ask.required
        and not ask.triggered
        and leaf is not None
        and guarded(leaf)
    )


def on_arrival(state: RunState, ask: AskState) -> None:
    """A new pending ask: ready at once if it has waited its leaf's preemption.delay, else when it has."""
    if not may_ever_preempt(state, ask):
        return
    leaf = ask.app.leaf
    assert leaf is not None
    due = ask.created + leaf.queue.preemption_delay
    if due <= state.clock.now:
        set_ready(state, ask, True)
    else:
        state.clock.push_preempt_ready(due, ask)


def on_timer(state: RunState, ask: AskState) -> None:
    """The ask's preemption.delay or 15 s retry wait is over."""
    if ask.status != PENDING or ask.triggered or ask.pready:
        return
    if unchanged(state, ask) and not state.every_retry:
        make_dormant(state, ask)
    else:
        set_ready(state, ask, True)


def unchanged(state: RunState, ask: AskState) -> bool:
    """Nothing the ask's last failed try depended on has changed since: a try now would fail the same way."""
    if ask.pcheck is None:
        return False
    dep = ask.pdep
    return ask.pgen == (state.counters.gen if dep is None else dep.sver)


def make_dormant(state: RunState, ask: AskState) -> None:
    """Nothing changed since the ask's last try: it waits for the next change that matters to it."""
    dep = ask.pdep
    if dep is not None:
        dep.dormant.append(ask)  # woken by the next change of that queue's subtree usage (commit._climb)
        return
    wake_dormant(state)
    state.waiting.dormant.append(ask)
    state.waiting.dormant_gen = state.counters.gen


def wake_dormant(state: RunState) -> None:
    """Something changed since the dormant asks went to sleep: each tries again at its next retry time."""
    waiting = state.waiting
    woken = waiting.woken
    if woken:
        for ask in woken:
            _retry_due(state, ask)
        woken.clear()
    dormant = waiting.dormant
    if not dormant or state.counters.gen == waiting.dormant_gen:
        return
    for ask in dormant:
        _retry_due(state, ask)
    dormant.clear()


def _retry_due(state: RunState, ask: AskState) -> None:
    """While dormant the core kept retrying every 15 s from the ask's last try, failing the same way (each retry
    restarting the wait): the next retry that can see the change is at the first of those times not before now."""
    if ask.status != PENDING or ask.triggered or ask.pready or ask.pcheck is None:
        return
    clock = state.clock
    due = ask.pcheck + -(-(clock.now - ask.pcheck) // RETRY_WAIT) * RETRY_WAIT
    if due <= clock.now:
        set_ready(state, ask, True)
    else:
        clock.push_preempt_ready(due, ask)


def stamp(state: RunState, ask: AskState) -> None:
    """The preconditions passed and the ask tries now: not ready again for 15 s (UpdatePreemptCheckTime)."""
    clock = state.clock
    ask.pcheck = clock.now
    ask.pdep = None
    ask.pgen = state.counters.gen
    set_ready(state, ask, False)
    clock.push_preempt_ready(clock.now + RETRY_WAIT, ask)


def leave(state: RunState, ask: AskState) -> None:
    """The ask is no longer pending (allocated) or has preempted: it is never ready again."""
    if ask.pready:
        set_ready(state, ask, False)


def depends_on(state: RunState, ask: AskState, dep: QState | None) -> None:
    """The ask's failed try depended only on dep's subtree usage (None: on anything that changes gen)."""
    ask.pdep = dep
    ask.pgen = state.counters.gen if dep is None else dep.sver


def set_ready(state: RunState, ask: AskState, ready: bool) -> None:
    """Mark the ask ready or not, keeping its application's list and its queues' counters in step."""
    if ask.pready == ready:
        return
    ask.pready = ready
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    if ready:
        insort(app.pready, ask.entry)
    else:
        del app.pready[bisect_left(app.pready, ask.entry)]
    if not app.dirty:
        app.dirty = True
        leaf.dirty_apps.append(app)
    delta = 1 if ready else -1
    queue: QState | None = leaf
    while queue is not None:
        queue.pready += delta
        queue = queue.parent


def delay_left(state: RunState, ask: AskState) -> int:
    """Nanoseconds until the ask has waited its leaf's preemption.delay (0 when it has)."""
    leaf = ask.app.leaf
    assert leaf is not None
    return max(0, ask.created + leaf.queue.preemption_delay - state.clock.now)
