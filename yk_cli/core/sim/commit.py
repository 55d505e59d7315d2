"""State changes of a dry run: an ask arrives, is allocated or reserves a node, an allocation completes.

Stage of the core's scheduling cycle: commit, what the core does with an outcome (allocate, reserve, unreserve,
release victims) and with the events between cycles (an ask arrives, a pod completes), plus the timers these arm:
the reservation delay (events.OLD) and the Starting timeout (events.STARTED).

Each change updates only what it touches: the node's place in the node index, the counters and sort entries
of the application and of the queues on its path, and the incremental priority cache.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence

from yk_cli.core.ordering.priority import PriorityChange
from yk_cli.core.sim import preconditions, timeouts
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.cycle import set_own_live
from yk_cli.core.sim.events import CYCLE_INTERVAL, RESERVATION_DELAY, STARTING_TIMEOUT
from yk_cli.core.sim.nodes import Fit, NodeState
from yk_cli.core.sim.preemption import Preemption
from yk_cli.core.sim.resmap import res_of
from yk_cli.core.sim.state import ALLOCATED, DONE, PENDING, AllocState, AppState, AskState, QState, Size, bump, fits
from yk_cli.core.workload.model import Ask


def arrive(state: RunState, ask: AskState, changes: list[PriorityChange] | None = None) -> None:
    """An ask reaches the scheduler: pending from now on, counted everywhere, priorities raised (recorded into
    changes if given)."""
    app = ask.app
    if app.limits is not None:
        unblock(state, app)
    _admit(state, ask, changes)
    _climb(state, app, ask.size, ask.fit, 1, 0, 1, ask.old, not app.started, bool(ask.required))
    _arrived(state, ask)


class Arrivals:
    """Asks arriving one after the other with no other change in between, counted on their queues together.

    Each ask is admitted as it arrives (pending, in its application's lists, priorities raised); the counts it adds
    on its path (sizes, pending resources) wait until close(), which climbs the tree once per application and kind
    of ask (size, old, new, required) with the number of such asks, in the order of their first arrival. The state
    is then the one that climbing once per ask gives: a climb only adds counts, and the flags it recomputes
    (open, blocked) depend on the counts alone. Only asks whose application has no user or group limits arrive
    this way (commit.arrive unblocks those against the counts).
    """

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[tuple[AppState, Size, bool, bool, bool], int] = {}

    def add(self, state: RunState, ask: AskState, changes: list[PriorityChange] | None = None) -> None:
        """The ask arrives (see commit.arrive); its counts climb at close()."""
        app = ask.app
        assert app.limits is None
        _admit(state, ask, changes)
        key = (app, ask.size, ask.old, not app.started, bool(ask.required))
        counts = self.counts
        counts[key] = counts.get(key, 0) + 1
        _arrived(state, ask)

    def close(self, state: RunState) -> None:
        """Climb the counts of the asks added since the last close (before anything reads them)."""
        counts = self.counts
        if not counts:
            return
        for (app, size, old, new, required), count in counts.items():
            _climb(state, app, size, state.fit(size), count, 0, count, old, new, required)
        counts.clear()


def _admit(state: RunState, ask: AskState, changes: list[PriorityChange] | None) -> None:
    """An arriving ask's own part: pending, in its application's lists and counts, priorities raised."""
    app = ask.app
    assert app.leaf is not None
    ask.status = PENDING
    ask.old = state.clock.now - ask.created > RESERVATION_DELAY
    insort(app.asks, ask.entry)
    bump(app.sizes, ask.size, 1)
    if ask.old:
        bump(app.old, ask.size, 1)
    if ask.required:
        app.required += 1
    app.npending += 1
    if app.state == "New":
        app.state = "Accepted"
    if app.started and not app.active:
        _set_active(app, True)
    if ask.created < app.submit:
        app.submit = ask.created
    state.cache.add_ask(app.id, ask.priority, changes)


def _arrived(state: RunState, ask: AskState) -> None:
    """After an ask is counted: the reservation delay's timer (when young) and its preemption delay."""
    if not ask.old:
        state.waiting.young.append(ask)
    preconditions.on_arrival(state, ask)


def schedule_old(state: RunState) -> None:
    """After the cycles at this time: asks that arrived now and still wait get a timer for the reservation delay."""
    young, clock = state.waiting.young, state.clock
    for ask in young:
        if ask.status == PENDING and ask.reserved is None:
            clock.push_old(ask.created + RESERVATION_DELAY + CYCLE_INTERVAL, ask)
    young.clear()


def become_old(state: RunState, ask: AskState) -> None:
    """The ask has waited past the reservation delay: from now on it may reserve a node."""
    if ask.status != PENDING or ask.old:
        return
    ask.old = True
    if ask.reserved is None:
        app = ask.app
        bump(app.old, ask.size, 1)
        queue = app.leaf
        while queue is not None:
            bump(queue.old, ask.size, 1)
            queue = queue.parent


def allocate(state: RunState, ask: AskState, node: NodeState) -> tuple[list[PriorityChange], str]:
    """Place the ask on the node; returns the queue priority changes (leaf first) and a note on reservations."""
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    size, fit = ask.size, ask.fit
    note = ""
    reserved = ask.reserved
    counted = reserved is None
    if counted:
        del app.asks[bisect_left(app.asks, ask.entry)]
        bump(app.sizes, size, -1)
        if ask.old:
            bump(app.old, size, -1)
        if ask.required:
            app.required -= 1
    else:
        assert reserved is not None
        _drop_reservation(state, ask)
        note = "from its reservation" if reserved is node else f"reservation on {reserved.name} released"
    _change_node(state, node, fit, -1)
    if reserved is not None:
        _return_node(state, reserved)
    ask.status = ALLOCATED
    preconditions.leave(state, ask)
    ask.node = node
    duration = ask.ask.duration
    clock, counters = state.clock, state.counters
    now = clock.now
    end = now + duration if duration is not None else None
    counters.alloc_seq += 1
    spec = ask.ask
    alloc = AllocState(
        ask.name,
        app,
        node,
        size,
        ask.priority,
        now,
        end,
        spec.allow_preemption,
        ask,
        ask.created,
        spec.originator,
        bool(ask.required),
        counters.alloc_seq,
        spec.restart_on_preemption,
        spec.preempt_other,
        spec.pod,
    )
    ask.alloc = alloc
    node.allocations[ask.name] = alloc
    if state.tracker is not None:
        state.tracker.add(spec.pod, node.name)
    leaf.allocs[alloc] = None
    leaf.aver += 1
    if leaf.vcache:
        leaf.alog.append(alloc)
    counters.gen += 1
    app.npending -= 1
    app.nalloc += 1
    allocated = app.allocated
    for i, v in fit:
        allocated[i] = allocated[i] + v
    if app.limits is not None:
        app.limits.add(size)
        _flip_held(state)
    new = not app.started
    if new:
        _start(state, app)  # first: the climb below then sees the application counted as running
    elif app.state == "Starting":
        app.state = "Running"
    _climb(state, app, size, fit, -1 if counted else 0, 1, -1, ask.old, new, bool(ask.required))
    changes: list[PriorityChange] = []
    state.cache.remove_ask(app.id, ask.priority, changes)
    if end is not None:
        clock.push_complete(end, alloc)
    counters.allocations += 1
    return changes, note


def reserve(state: RunState, ask: AskState, node: NodeState) -> None:
    """The ask reserves the node: nobody else may use it until the ask is placed."""
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    if node.listed:
        state.index.remove(node)
    node.reserved_by = ask
    state.reserved_nodes[node] = None
    state.caches.oldest_reservation = None
    del app.asks[bisect_left(app.asks, ask.entry)]
    bump(app.sizes, ask.size, -1)
    if ask.old:
        bump(app.old, ask.size, -1)
    if ask.required:
        app.required -= 1
    ask.reserved = node
    ask.res_time = state.clock.now
    ask.own_live = False
    state.counters.res_seq += 1
    ask.res_seq = state.counters.res_seq
    held = leaf.res_apps.get(app)
    if held is None:
        app.res_order = state.counters.res_seq
        held = leaf.res_apps[app] = []
    held.append(ask)
    if not ask.required:  # a required-node ask never tries other nodes: it stays out of the per-size groups
        group = app.res_groups.get(ask.size)
        if group is None:
            group = app.res_groups[ask.size] = []
            insort(leaf.res_by_size.setdefault(ask.size, []), (app.res_order, app))
        group.append((ask.res_seq, ask))
    queue: QState | None = leaf
    while queue is not None:
        queue.nres += 1
        if not ask.required:
            bump(queue.res_sizes, ask.size, 1)
        queue = queue.parent
    state.counters.nres += 1
    state.counters.reservations += 1
    state.counters.gen += 1
    timeouts.arm(state, ask)
    if ask.required and not ask.triggered and not node.fits(ask.fit):
        state.waiting.required_waiting.append(ask)  # RequiredNodePreemptor runs in the next reservation pass
    _climb(state, app, ask.size, ask.fit, -1, 0, 0, ask.old, not app.started, bool(ask.required))


def unreserve(state: RunState, ask: AskState) -> NodeState:
    """Cancel the ask's reservation without placing it: the node returns, the ask is pending as before."""
    node = ask.reserved
    assert node is not None
    app = ask.app
    if app.limits is not None:
        unblock(state, app)
    _drop_reservation(state, ask)
    _return_node(state, node)
    insort(app.asks, ask.entry)
    bump(app.sizes, ask.size, 1)
    if ask.old:
        bump(app.old, ask.size, 1)
    if ask.required:
        app.required += 1
    state.counters.gen += 1
    _climb(state, app, ask.size, ask.fit, 1, 0, 0, ask.old, not app.started, bool(ask.required))
    return node


def complete(state: RunState, alloc: AllocState) -> None:
    """An allocation finishes: its node, application and queues get the resources back."""
    state.counters.completions += 1
    _release(state, alloc)


def preempt(state: RunState, found: Preemption, changes: list[PriorityChange] | None = None) -> dict[AllocState, str]:
    """Apply a preemption: release the victims, reserve the node for the ask, mark the ask as having preempted.

    Victims with restartOnPreemption come back at once as fresh asks of the same shape; returns their names (the
    queue priorities their asks raise are recorded into changes if given).
    """
    for holder in found.cancelled:
        if holder.reserved is not None:
            unreserve(state, holder)
    restarted = release_victims(state, found.victims, changes)
    ask = found.ask
    ask.triggered = True
    preconditions.leave(state, ask)
    node = found.node
    if ask.reserved is not node:
        if ask.reserved is not None:
            unreserve(state, ask)
        if node.reserved_by is None:
            reserve(state, ask, node)
    if ask.reserved is node and node.fits(ask.fit):
        set_own_live(ask, True)
    state.counters.preemptions += 1
    state.counters.gen += 1
    return restarted


def release_victims(
    state: RunState, victims: Sequence[AllocState], changes: list[PriorityChange] | None = None
) -> dict[AllocState, str]:
    """Release preempted allocations (the shim deletes the pods); victims with restartOnPreemption come back at once
    as fresh asks of the same shape: returns their names (the queue priorities they raise recorded into changes)."""
    restarted: dict[AllocState, str] = {}
    for victim in victims:
        victim.preempted = True
        if victim.node.allocations.get(victim.name) is not victim:
            continue  # completed meanwhile
        _release(state, victim)
        state.counters.victims += 1
        if state.gang is not None and victim.ask is not None and victim.ask.ask.placeholder:
            state.gang.on_victim(state, victim)
        if victim.restart:
            restarted[victim] = _restart(state, victim, changes).name
    return restarted


def _restart(state: RunState, victim: AllocState, changes: list[PriorityChange] | None) -> AskState:
    """A preempted pod with restartOnPreemption: its controller creates a fresh pod of the same shape now, named after
    the original pod and its restart count (etl-1.r1, then etl-1.r2 when etl-1.r1 is preempted in turn)."""
    state.counters.restarts += 1
    state.counters.alloc_seq += 1
    origin = victim.ask.ask if victim.ask is not None else None
    app_id = victim.app.id
    pod = state.restart_origin.get((app_id, victim.name), victim.name)
    count = state.restart_counts.get((app_id, pod), 0) + 1
    state.restart_counts[app_id, pod] = count
    name = f"{pod}.r{count}"
    state.restart_origin[app_id, name] = pod
    spec = Ask(
        name=name,
        application=victim.app.id,
        priority=victim.priority,
        resources=dict(origin.resources) if origin is not None else dict(res_of(state, victim.size)),
        submit_time=state.clock.now,
        seq=1_000_000_000 + state.counters.restarts,
        duration=origin.duration if origin is not None else None,
        allow_preemption=victim.allow_preemption,
        preempt_other=victim.preempt_other,
        restart_on_preemption=True,
        pod=victim.pod,
    )
    ask = AskState(spec, victim.app, victim.size, state.fit(victim.size), state.clock.now)
    state.asks.append(ask)
    arrive(state, ask, changes)
    return ask


def _release(state: RunState, alloc: AllocState) -> None:
    """An allocation goes (completed or preempted): its node, application and queues get the resources back."""
    node = alloc.node
    size = alloc.size
    fit = state.fit(size)
    del node.allocations[alloc.name]
    if state.tracker is not None:
        state.tracker.remove(alloc.pod, node.name)
    _change_node(state, node, fit, 1)
    if not node.listed and node.reserved_by is not None:
        set_own_live(node.reserved_by, True)
    if alloc.ask is not None:
        alloc.ask.status = DONE
    app = alloc.app
    leaf = app.leaf
    state.counters.gen += 1
    if leaf is None:
        return
    leaf.allocs.pop(alloc, None)
    leaf.aver += 1
    if leaf.vcache:
        leaf.alog.append(alloc)
    app.nalloc -= 1
    allocated = app.allocated
    for i, v in fit:
        allocated[i] = allocated[i] - v
    if app.limits is not None:
        app.limits.remove(size, app.nalloc == 0 and app.npending == 0)
        _flip_held(state)
        _wake_limited(state)
    if app.nalloc == 0 and app.npending == 0 and app.active:
        _set_active(app, False)
    _climb(state, app, size, fit, 0, -1, 0, False, False)


def _wake(state: RunState, queue: QState) -> None:
    """The queue freed resources: reserved asks waiting for its headroom that now fit it are worth a try."""
    top = queue.max
    assert top is not None
    room = [m - a for m, a in zip(top, queue.allocated, strict=True)]
    waiters = queue.hr_waiters
    for size in [s for s in waiters if fits(room, state.caches.fits[s])]:
        for waiter in waiters.pop(size):
            node = waiter.reserved
            if node is not None and node.fits(waiter.fit):
                set_own_live(waiter, True)  # (otherwise its node freeing up wakes it)


def _flip_held(state: RunState) -> None:
    """Applications whose user's or group's maxapplications filled up or freed: those that have not started are held
    (their asks move into held_sizes on every queue of their path) or released, and the queues re-counted."""
    assert state.ugm is not None
    flipped = state.ugm.flipped
    if not flipped:
        return
    seen: set[AppState] = set()
    for limits in flipped:
        app = limits.owner
        assert isinstance(app, AppState)
        if app in seen:
            continue
        seen.add(app)
        held = (not app.started and not limits.counted and limits.nfull > 0) or limits.quota_blocked
        if held == app.held:
            continue
        app.held = held
        if app.sizes:
            set_held(state, app, held)
    flipped.clear()


def unblock(state: RunState, app: AppState) -> None:
    """The application gets a pending ask: one its user's or group's headroom blocked is walked again (ugm.py)."""
    limits = app.limits
    if limits is not None and limits.quota_blocked:
        limits.unblock()
        _flip_held(state)


def set_held(state: RunState, app: AppState, held: bool) -> None:
    """Move the application's unreserved pending asks into (or out of) held_sizes on its path, then re-count."""
    sign = 1 if held else -1
    leaf = app.leaf
    assert leaf is not None
    cached = state.caches.fits
    queue: QState | None = leaf
    while queue is not None:
        for size, count in app.sizes.items():
            bump(queue.held_sizes, size, sign * count)
        queue.refresh_blocked(cached)
        parent = queue.parent
        now = bool(queue.sizes) and not queue.blocked and (queue.is_leaf or queue.open_children > 0)
        if now != queue.open:
            queue.open = now
            if parent is not None:
                parent.open_children += 1 if now else -1
        queue = parent


def _wake_limited(state: RunState) -> None:
    """A user's or group's usage dropped: reserved asks that waited for their user quota are worth a try again."""
    assert state.ugm is not None
    waiters = state.ugm.waiters
    if waiters:
        for waiter in waiters:
            assert isinstance(waiter, AskState)
            node = waiter.reserved
            if node is not None and node.fits(waiter.fit):
                set_own_live(waiter, True)  # (otherwise its node freeing up wakes it)
        waiters.clear()


def starting_timeout(app: AppState) -> None:
    """YuniKorn <= 1.5: an application still Starting after 5 minutes becomes Running."""
    if app.state == "Starting":
        app.state = "Running"


def _climb(
    state: RunState,
    app: AppState,
    size: Size,
    fit: Fit,
    count: int,
    used: int,
    waiting: int,
    old: bool,
    new: bool,
    required: bool = False,
) -> None:
    """One walk from the application's leaf to root after a change.

    Counts (+1/-1) the ask among unreserved pending sizes (and the old/new ones), adds used (+1/-1) times it to
    usage and waiting times it to pending, wakes reserved asks waiting for freed headroom, recomputes
    blocked/open bottom-up and marks stale sort entries (re-sorted lazily by QState.settle).
    """
    leaf = app.leaf
    assert leaf is not None
    if not app.dirty:
        app.dirty = True
        leaf.dirty_apps.append(app)
    cached = state.caches.fits
    held = app.held
    queue = leaf
    while True:
        if count:
            sizes = queue.sizes
            left = sizes.get(size, 0) + count
            if left:
                sizes[size] = left
            else:
                del sizes[size]
            if new:
                bump(queue.new_sizes, size, count)
            if held:
                bump(queue.held_sizes, size, count)
            if old:
                bump(queue.old, size, count)
            if required:
                queue.required += count
        if used:
            allocated = queue.allocated
            for i, v in fit:
                allocated[i] = allocated[i] + used * v
            queue.share_cache = None
            queue.sver += 1
            if queue.dormant:
                state.waiting.woken.extend(queue.dormant)
                queue.dormant.clear()
            if used < 0 and queue.hr_waiters:
                _wake(state, queue)
        if waiting:
            pending = queue.pending
            for i, v in fit:
                pending[i] = pending[i] + waiting * v
        if queue.limited:
            queue.refresh_blocked(cached)
        parent = queue.parent
        now = bool(queue.sizes) and not queue.blocked and (queue.is_leaf or queue.open_children > 0)
        if now != queue.open:
            queue.open = now
            if parent is not None:
                parent.open_children += 1 if now else -1
        if parent is None:
            return
        if not queue.dirty and len(parent.children) > 1:  # an only child needs no place among siblings
            queue.dirty = True
            parent.dirty_children.append(queue)
        queue = parent


def settle_all(state: RunState) -> None:
    """Bring every stored sort entry up to date (before anyone reads them, e.g. yk explain)."""
    for queue in state.queues.values():
        queue.settle()


def _change_node(state: RunState, node: NodeState, fit: Fit, sign: int) -> None:
    """Add (sign 1) or take (sign -1) resources on a node, keeping its place in the node index."""
    index = state.index
    listed = node.listed
    counted = node.counted
    if listed:
        index.remove(node)
    available = node.available
    for i, v in fit:
        available[i] = available[i] + sign * v
    node.rescore()
    if listed:
        index.add(node, counted if sign < 0 else None)  # less room: only sizes that fitted can still fit


def _return_node(state: RunState, node: NodeState) -> None:
    """A node whose reservation ended goes back into the node index (if schedulable)."""
    if node.reserved_by is None and node.schedulable and not node.listed:
        state.index.add(node)
        dead, cached = state.caches.reserve_dead, state.caches.fits
        for size in [s for s in dead if node.fits_capacity(cached[s])]:
            dead.discard(size)


def _drop_reservation(state: RunState, ask: AskState) -> None:
    """Remove an ask's reservation from every structure (the node returns to the index separately)."""
    node = ask.reserved
    assert node is not None
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    set_own_live(ask, False)
    node.reserved_by = None
    state.reserved_nodes.pop(node, None)
    state.caches.oldest_reservation = None
    ask.reserved = None
    if not ask.required:
        group = app.res_groups[ask.size]
        del group[bisect_left(group, (ask.res_seq, ask))]
        if not group:
            del app.res_groups[ask.size]
            apps = leaf.res_by_size[ask.size]
            del apps[bisect_left(apps, (app.res_order, app))]
            if not apps:
                del leaf.res_by_size[ask.size]
    held = leaf.res_apps[app]
    held.remove(ask)
    if not held:
        del leaf.res_apps[app]
    queue: QState | None = leaf
    while queue is not None:
        queue.nres -= 1
        if not ask.required:
            bump(queue.res_sizes, ask.size, -1)
        queue = queue.parent
    state.counters.nres -= 1


def _start(state: RunState, app: AppState) -> None:
    """The application's first allocation: it now counts for maxapplications."""
    app.started = True
    leaf = app.leaf
    assert leaf is not None
    for size, count in app.sizes.items():
        queue: QState | None = leaf
        while queue is not None:
            bump(queue.new_sizes, size, -count)
            queue = queue.parent
    _set_active(app, True)
    if state.legacy:
        app.state = "Starting"
        state.clock.push_started(state.clock.now + STARTING_TIMEOUT, app)
    else:
        app.state = "Running"


def _set_active(app: AppState, active: bool) -> None:
    app.active = active
    delta = 1 if active else -1
    queue = app.leaf
    while queue is not None:
        queue.running += delta
        queue = queue.parent
