"""One scheduling cycle: find the single outcome YuniKorn's core would produce next, without changing anything.

Stage of the core's scheduling cycle: partition.TrySchedule down to the outcome, without applying it: the
reservation pass, then queue sort -> application sort -> ask sort -> headroom checks -> node iteration (placing.py)
-> allocate or reserve, with preemption (preemption.py) for an ask that fits nowhere; commit.py applies the outcome.

The walk is the core's: the reservation pass first (reserved asks on their node, then on any other node), then
root -> sorted child queues -> sorted applications -> sorted asks -> the first node in node order that fits.
Failing asks move on to the next ask, application and queue; the first allocation or reservation ends the cycle.

Finding that outcome fast without changing it relies on facts that only ever become true in one direction:

* a size that fits no unreserved node stays that way until a node frees resources or is unreserved (the node
  index tracks this per size, see NodeIndex), and a size no unreserved node is large enough for stays that
  way until a node is unreserved (state.caches.reserve_dead);
* every queue and application counts its unreserved pending asks by size, so a subtree in which no size fits
  the headroom and the node facts above is skipped without looking at its asks.

Skipping only leaves out asks that would fail, so the outcome is exactly the one of the full walk.

Preemption is the one thing a failing ask can still do (preemption.py): asks whose preconditions pass are
*ready* (preconditions.py), counted on every queue, and visited wherever they are; trying one stamps it, which
is the only change a cycle makes before its outcome.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass
from heapq import merge

from yk_cli.core.ordering import policies
from yk_cli.core.sim import backoff, preconditions
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.nodes import Fit, NodeState
from yk_cli.core.sim.placing import dynamic_passes, first_node, required_passes
from yk_cli.core.sim.preemption import Preemption, try_preemption
from yk_cli.core.sim.state import AllocState, AppState, AskState, QState, Size, fits, passes
from yk_cli.core.sim.trace import ALLOCATE, PREEMPT, RESERVE, Candidate, PreemptionAttempt

SIZE_LIMIT = 48
"""Above this many distinct pending sizes a queue is always walked (checking every size would cost more)."""


@dataclass(slots=True)
class Decision:
    """The outcome of a cycle: allocate an ask on a node, or reserve a node for it."""

    kind: str
    ask: AskState
    node: NodeState
    reserved: NodeState | None = None
    """The node the ask held a reservation on (allocations from the reservation pass)."""
    cancel: AskState | None = None
    """A reservation on the node that a required-node ask cancels first (YuniKorn's tryRequiredNode)."""
    preemption: Preemption | None = None
    """PREEMPT: the victims to release; the node is then reserved for the ask."""
    placeholder: AllocState | None = None
    """REPLACE: the gang placeholder the ask takes the place of (on its node)."""


def find_decision(state: RunState) -> Decision | None:
    """The next outcome, or None when nothing can happen until the next event."""
    preconditions.wake_dormant(state)
    if state.backoff is not None and state.backoff.parked:
        backoff.unpark(state)
    if state.counters.nres:
        root = state.root
        hr = root.headroom(None)
        # (the pass enters a queue only when it holds a reservation live on its node or a reserved size that fits no
        # node and the headroom: when root has neither, no queue below has, and the pass yields nothing)
        if root.res_live or _other_possible(state, root, hr):
            found = _reserved(state, root, None, hr)
            if found is not None:
                return found
    gangs = state.gang
    if gangs is not None and gangs.candidates:  # tryPlaceholderAllocate: gang.py
        found = gangs.replacement(state)
        if found is not None:
            return found
    root = state.root
    if not root.open and not root.pready and state.backoff is None:
        return None
    return _visit(state, root, None, True)


def _possible(
    state: RunState,
    sizes: dict[Size, int],
    new: dict[Size, int] | None,
    old: dict[Size, int],
    hr: list[float],
    required: int,
    user_hr: list[float] | None = None,
) -> bool:
    """Whether some ask counted in sizes might succeed: fits the headroom (and the user's, when given) and either fits
    a node or may reserve.

    Required-node asks allocate or reserve their node whenever the headroom allows: they always count.
    """
    if required or len(sizes) > SIZE_LIMIT:
        return True
    node_dead, reserve_dead, cached = state.index.dead, state.caches.reserve_dead, state.caches.fits
    if node_dead.issuperset(sizes) and (not old or reserve_dead.issuperset(old)):
        return False  # the usual answer in a full cluster, decided in C
    for size, count in sizes.items():
        if new is not None and count <= new.get(size, 0):
            continue  # only asks of applications that may not start
        fit = cached[size]
        for i, v in fit:
            if hr[i] < v:
                break
        else:
            if user_hr is not None and not fits(user_hr, fit):
                continue
            if size not in node_dead:
                return True
            if size not in reserve_dead and old.get(size):
                return True
    return False


def _visit(state: RunState, queue: QState, parent_hr: list[float] | None, new_ok: bool) -> Decision | None:
    top = queue.max
    if top is None:
        hr = parent_hr
    elif parent_hr is None:
        hr = [m - a for m, a in zip(top, queue.allocated, strict=True)]
    else:
        hr = [d if (d := m - a) < p else p for m, a, p in zip(top, queue.allocated, parent_hr, strict=True)]
    assert hr is not None  # the root always has a max (the cluster's capacity)
    if new_ok and queue.maxapps and queue.running + 1 > queue.maxapps:
        new_ok = False
    if (
        not queue.pready
        and not _possible(
            state, queue.sizes, (queue.held_sizes or None) if new_ok else queue.new_sizes, queue.old, hr, queue.required
        )
        and (state.backoff is None or queue not in state.backoff.queues)
    ):
        return None
    if queue.is_leaf:
        return _leaf(state, queue, hr, new_ok)
    if queue.dirty_children:
        queue.settle()
    forced = state.backoff.queues if state.backoff is not None else ()
    for entry in queue.children:
        child = entry[-1]
        if child.open or child.pready or child in forced:
            found = _visit(state, child, hr, new_ok)
            if found is not None:
                return found
    return None


def _leaf(state: RunState, leaf: QState, hr: list[float], new_ok: bool) -> Decision | None:
    admitted = stateaware_admitted(leaf) if leaf.stateaware else None
    if leaf.dirty_apps:
        leaf.settle()
    budget = [preconditions.MAX_ATTEMPTS_PER_LEAF]
    if state.backoff is not None and leaf in state.backoff.settings:
        found = backoff.walk_leaf(state, leaf, hr, new_ok, admitted, try_ask, budget)
        assert found is None or isinstance(found, Decision)
        return found
    cached = state.caches.fits
    for entry in leaf.apps:
        app: AppState = entry[-1]
        if not app.started and not new_ok:
            continue  # maxapplications: an application that has not started may not start now
        limits = app.limits
        if app.held and not (app.pready and limits is not None and limits.quota_blocked and limits.can_run()):
            continue  # the user's or group's maxapplications, or its headroom (ugm.AppLimits.block)
        user_hr = limits.headroom() if limits is not None else None
        if admitted is not None and app not in admitted:
            continue
        if _possible(state, app.sizes, None, app.old, hr, app.required, user_hr):
            asks = app.asks
            if app.pready and any(e[-1].reserved is not None for e in app.pready):
                # reserved asks are tried in the walk too, where only preemption can come of them
                asks = list(merge(asks, [e for e in app.pready if e[-1].reserved is not None]))
        elif app.pready:
            asks = app.pready  # no other ask of the application can succeed: only the ready ones matter
        else:
            if user_hr is not None and app.sizes and not any(fits(user_hr, cached[s]) for s in app.sizes):
                assert limits is not None
                limits.block(app.sizes)  # counted apart (held) from the next change on, until its headroom grows
            continue
        for ask_entry in list(asks) if app.pready else asks:
            if user_hr is not None and not fits(user_hr, ask_entry[-1].fit):
                continue  # not enough user quota: checked first, and preemption is never tried for it
            found = try_ask(state, ask_entry[-1], hr, budget)
            if found is not None:
                return found
    return None


def stateaware_admitted(leaf: QState) -> set[AppState]:
    """YuniKorn <= 1.5 stateaware: the applications of the leaf that pass the state filter now."""
    return policies.stateaware_admitted(
        leaf.members, lambda a: a.state, lambda a: a.npending > 0, lambda a: (a.submit, a.seq)
    )


def try_ask(state: RunState, ask: AskState, hr: list[float], budget: list[int] | None = None) -> Decision | None:
    """Application.tryAllocate for one ask: headroom (else preemption), then the first node that fits, then
    reserve, else preemption. A reserved ask gets here only when ready to preempt."""
    fit = ask.fit
    for i, v in fit:
        if hr[i] < v:
            if ask.pready and budget is not None:
                return _preempt(state, ask, budget, False)  # the headroom branch: a full cluster
            return None  # Not enough queue quota
    if ask.reserved is not None:
        return _preempt(state, ask, budget, True) if ask.pready and budget is not None else None
    if ask.required:
        return _required(state, ask)
    size = ask.size
    node = first_node(state, ask)
    if node is not None:
        return Decision(ALLOCATE, ask, node)
    if ask.old and size not in state.caches.reserve_dead:
        node = reservation_target(state, ask)
        if node is None:
            state.caches.reserve_dead.add(size)
        elif passes(size, node) and dynamic_passes(state, ask, node):
            return Decision(RESERVE, ask, node)
        # else: the best-fitting node fails the ask's predicates: nothing is reserved this cycle (the core tries no
        # other node)
    if ask.pready and budget is not None:
        return _preempt(state, ask, budget, True)  # the node branch: no node fits and nothing was reserved
    return None


def _preempt(state: RunState, ask: AskState, budget: list[int], nodes_tried: bool) -> Decision | None:
    """Application.tryPreemption: at most 10 tries per leaf and cycle; a try stamps the ask (15 s until the next)."""
    if budget[0] == 0:
        return None  # Preemption max attempts exhausted
    budget[0] = budget[0] - 1
    preconditions.stamp(state, ask)
    leaf = ask.app.leaf
    key = (leaf, ask.priority, ask.size, nodes_tried, ask.reserved)
    branch = "node" if nodes_tried else "headroom"
    failed = state.caches.failed_attempts.get(key)
    if (
        failed is not None
        and not state.every_retry
        and failed[1] == (state.counters.gen if failed[0] is None else failed[0].sver)
        and (not state.explain or failed[2] == state.counters.gen)  # the candidates list every allocation
    ):
        dep, _, _, ask.pverdict, fence, candidates = failed  # a twin ask failed on this very state: the same answer
        preconditions.depends_on(state, ask, dep)
        log_attempt(state, ask, branch, fence, ask.pverdict, "", candidates)
        return None
    found, attempt = try_preemption(state, ask, nodes_tried, state.explain)
    candidates = attempt.candidates() if state.explain else ()
    if found is None:
        dep = attempt.dependency
        preconditions.depends_on(state, ask, dep)
        gen = state.counters.gen
        state.caches.failed_attempts[key] = (dep, ask.pgen, gen, attempt.verdict, attempt.fence, candidates)
        ask.pverdict = attempt.verdict
        log_attempt(state, ask, branch, attempt.fence, attempt.verdict, "", candidates)
        return None
    log_attempt(state, ask, branch, attempt.fence, "preempted", found.node.name, candidates)
    return Decision(PREEMPT, ask, found.node, preemption=found)


def log_attempt(
    state: RunState, ask: AskState, branch: str, fence: str, outcome: str, node: str, candidates: tuple[Candidate, ...]
) -> None:
    """Record one preemption try for the trace."""
    app = ask.app
    state.attempt_log.append(
        PreemptionAttempt(
            state.clock.now,
            state.counters.steps,
            app.id,
            ask.name,
            app.leaf.path if app.leaf is not None else "",
            ask.priority,
            branch,
            fence,
            outcome,
            node,
            candidates,
        )
    )


def _required(state: RunState, ask: AskState) -> Decision | None:
    """tryRequiredNode: cancel another ask's reservation of the node, then allocate there or reserve it at once
    (no 2 s delay). Nothing when the node is unknown or held for another required-node ask."""
    node = state.node_by_name.get(ask.required)
    if node is None:
        return None
    holder = node.reserved_by
    if holder is not None:
        assert isinstance(holder, AskState)
        if holder.required:
            return None  # YuniKorn keeps that reservation and cannot reserve the node twice
    ok = node.fits(ask.fit) and required_passes(state, ask, node) and dynamic_passes(state, ask, node)
    return Decision(ALLOCATE if ok else RESERVE, ask, node, cancel=holder)


def reservation_target(state: RunState, ask: AskState) -> NodeState | None:
    """The unreserved node, large enough by capacity, with the lowest FitInScore; ties go to node order."""
    return state.index.reservation_target(ask.size, ask.fit)


def _reserved(
    state: RunState, queue: QState, parent_hr: list[float] | None, own_hr: list[float] | None = None
) -> Decision | None:
    """TryReservedAllocate: sorted queues; per application its reserved nodes first, then any other node."""
    if own_hr is not None:
        hr = own_hr
    else:
        hr = parent_hr if queue.max is None and parent_hr is not None else queue.headroom(parent_hr)
    if not queue.is_leaf:
        if queue.dirty_children:
            queue.settle()
        # a child's reserved sizes are among its parent's: when none of the parent's may fit another node, no child's
        other = _other_possible(state, queue, hr)
        for entry in queue.children:
            child = entry[-1]
            if child.nres and (child.res_live or (other and _other_possible(state, child, hr))):
                found = _reserved(state, child, hr)
                if found is not None:
                    return found
        return None
    dead, cached = state.index.dead, state.caches.fits
    tried: set[AppState] = set()
    while True:
        # the first application (reservation order) with a reserved ask that might now be placed
        best = next((item for item in queue.res_live_apps if item[1] not in tried), None)
        for size, apps in queue.res_by_size.items():
            if size not in dead and fits(hr, cached[size]):
                first = next((item for item in apps if item[1] not in tried), None)
                if first is not None and (best is None or first < best):
                    best = first
        if best is None:
            return None
        tried.add(best[1])
        found = _reserved_app(state, queue, best[1], hr)
        if found is not None:
            return found


def _reserved_app(state: RunState, leaf: QState, app: AppState, hr: list[float]) -> Decision | None:
    """Application.tryReservedAllocate: each reserved ask on its own node, then each on any other node.

    Every ask tried and failed is marked (not live, or its size known to fit no node), so the leaf's loop ends.
    Reserved asks of one size behave alike on other nodes, so only the oldest reservation of each size is tried.
    """
    limits = app.limits
    user_hr = None
    if limits is not None:
        if not app.started and not limits.can_run():
            return None  # the user's or group's maxapplications (TryReservedAllocate skips the application)
        user_hr = limits.headroom()
    for _, ask in list(app.res_live_asks):
        if user_hr is not None and not fits(user_hr, ask.fit):
            set_own_live(ask, False)  # until the user's or group's usage drops
            assert state.ugm is not None
            state.ugm.waiters.append(ask)
            continue
        if not fits(hr, ask.fit):
            set_own_live(ask, False)  # until the queue that is full frees resources
            blocker = over_max(leaf, ask.fit)  # (one there is: the ask fails the queues' headroom)
            (leaf if blocker is None else blocker).hr_waiters.setdefault(ask.size, []).append(ask)
            continue
        node = ask.reserved
        assert node is not None
        if node.fits(ask.fit) and required_passes(state, ask, node) and dynamic_passes(state, ask, node):
            return Decision(ALLOCATE, ask, node, node)
        set_own_live(ask, False)
    dead, cached = state.index.dead, state.caches.fits
    failed: set[Size] = set()  # sizes the node index does not track remember their failure here
    while True:
        best = None
        for size, group in app.res_groups.items():
            if (
                size not in dead
                and size not in failed
                and fits(hr, cached[size])
                and (user_hr is None or fits(user_hr, cached[size]))
                and (best is None or group[0] < best)
            ):
                best = group[0]
        if best is None:
            return None
        ask = best[1]
        node = first_node(state, ask)
        if node is not None:
            return Decision(ALLOCATE, ask, node, ask.reserved)
        failed.add(ask.size)


def over_max(leaf: QState | None, fit: Fit) -> QState | None:
    """The queue nearest the leaf (the leaf first) whose max minus usage is too small for an ask of these non-zero
    pairs, or None when every max up to the root holds it (the queue part of the core's checkHeadRooms)."""
    queue = leaf
    while queue is not None:
        top = queue.max
        if top is not None:
            allocated = queue.allocated
            for i, v in fit:
                if top[i] - allocated[i] < v:
                    return queue
        queue = queue.parent
    return None


def _other_possible(state: RunState, queue: QState, hr: list[float]) -> bool:
    """Whether a reserved ask below the queue might fit an unreserved node (its size is not known to fit none)."""
    dead = state.index.dead
    if dead.issuperset(queue.res_sizes):
        return False
    return any(size not in dead and fits(hr, state.caches.fits[size]) for size in queue.res_sizes)


def set_own_live(ask: AskState, live: bool) -> None:
    """Mark whether a reserved ask is worth trying on its own node, keeping the queue counters in step."""
    if ask.own_live == live:
        return
    ask.own_live = live
    delta = 1 if live else -1
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    asks, item = app.res_live_asks, (ask.res_seq, ask)
    if live:
        insort(asks, item)
        if len(asks) == 1:
            insort(leaf.res_live_apps, (app.res_order, app))
    else:
        del asks[bisect_left(asks, item)]
        if not asks:
            del leaf.res_live_apps[bisect_left(leaf.res_live_apps, (app.res_order, app))]
    queue: QState | None = leaf
    while queue is not None:
        queue.res_live += delta
        queue = queue.parent
