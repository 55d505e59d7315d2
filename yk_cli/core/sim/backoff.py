"""Application backoff (`application.unschedasks.backoff`, `.delay`) on the virtual clock.

Stage of the core's scheduling cycle: application sort and the ask walk of an application (Queue.TryAllocate
skips an application in backoff, Application.tryAllocate counts its unschedulable asks), and the backoff deadline
timer (events.WAKE).

The core (Application.tryAllocate, Queue.TryAllocate, GetBackoffDeadline): in a leaf whose backoff is N > 0, an
application's walk counts its unschedulable asks, those that passed the user and queue headroom checks and got
nothing from the nodes (a reserved ask in the normal walk counts too; required-node asks, asks that fail a headroom
and real pods waiting to replace a placeholder do not). Before each request of its sorted list (allocated ones
included), once N were counted, the application gets the deadline now + delay and the walk leaves it; until the
deadline Queue.TryAllocate skips it (after the maxapplications checks; the reservation pass and placeholder
replacement ignore it). An application that did not reach N keeps no deadline.

The core runs a cycle at least every 100 ms, so an application in backoff is walked again at each deadline and,
while nothing changed, backs off again: its walks fall on the chain base + k * delay. yk keeps that chain without
running the idle cycles: a deadline whose application saw no change since its walk (no event, no outcome) is parked
and does not move the clock; the first change after it re-arms the application at the next point of its chain (the
change's own time when it falls on one), where it is walked with the state then. The core's chain drifts by up to
one scheduling interval (100 ms) per link (its idle cycles are 100 ms apart, not aligned with the deadline); yk's
links are exactly `delay` apart.

While an application of such a leaf may be walked, the leaf and its queues are never pruned: each cycle walks its
applications ask by ask as the core does, since a walk that yields nothing may still set a deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from yk_cli.core.config import properties as props
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.state import AppState, AskState, QState, fits

PARKED = 1 << 62
"""AppState.backoff of a parked application: skipped until a change re-arms it."""

Path = tuple[str | int, ...]


@dataclass(slots=True)
class Setting:
    """A leaf's backoff: the threshold, the delay and where the threshold is written (its config path)."""

    threshold: int
    delay: int
    where: Path


@dataclass(slots=True)
class Entry:
    """An application in backoff."""

    base: int
    """The time of the walk that set the deadline (the chain: base + k * delay)."""
    epoch: int
    """The change counter at that walk (-1: re-armed after a change, the deadline is due in any case)."""
    count: int
    """The unschedulable asks the walk counted."""
    deadline: int
    parked: bool = False


class BackoffState:
    """The leaves with a backoff, the applications in backoff and the change counter."""

    def __init__(self, settings: dict[QState, Setting]) -> None:
        self.settings = settings
        queues: set[QState] = set()
        for leaf in settings:
            queue: QState | None = leaf
            while queue is not None:
                queues.add(queue)
                queue = queue.parent
        self.queues = frozenset(queues)
        """The leaves with a backoff and their ancestors: never pruned by the walk."""
        self.entries: dict[AppState, Entry] = {}
        self.parked: list[AppState] = []
        self.changes = 0
        """Events applied (the run counts them; outcomes are counted by RunState.gen)."""
        self.checked = -1
        """The epoch at which the parked applications were last looked at."""

    def epoch(self, state: RunState) -> int:
        """A counter that moves with every change an application's walk could see."""
        return state.counters.gen + self.changes


def setup(state: RunState) -> BackoffState | None:
    """The run's backoff state: None when no leaf sets application.unschedasks.backoff."""
    settings: dict[QState, Setting] = {}
    for queue in state.queues.values():
        if not queue.is_leaf:
            continue
        threshold = int(str(queue.queue.setting(props.BACKOFF).value))
        if threshold <= 0:
            continue
        delay = int(str(queue.queue.setting(props.BACKOFF_DELAY).value))
        settings[queue] = Setting(threshold, delay, _where(state, queue))
    return BackoffState(settings) if settings else None


def _where(state: RunState, leaf: QState) -> Path:
    """The config path of the threshold in effect on the leaf (written there, inherited, or from a child template)."""
    setting = leaf.queue.setting(props.BACKOFF)
    origin = state.tree.get(setting.origin) if setting.origin else None
    config = origin.config if origin is not None else None
    if config is None:
        return ()
    if setting.source.name.lower().startswith("template"):
        return (*config.childtemplate.path, "properties", props.BACKOFF) if config.childtemplate.path else ()
    return (*config.path, "properties", props.BACKOFF)


def unpark(state: RunState) -> None:
    """Before a cycle: parked applications that saw a change since their walk are armed again at the next point of
    their chain (now when it falls on one)."""
    found = state.backoff
    assert found is not None
    epoch = found.epoch(state)
    if epoch == found.checked:
        return
    found.checked = epoch
    keep: list[AppState] = []
    now = state.clock.now
    for app in found.parked:
        entry = found.entries.get(app)
        if entry is None or not entry.parked:
            continue
        if entry.epoch == epoch:
            keep.append(app)
            continue
        leaf = app.leaf
        assert leaf is not None  # (a parked application is in a leaf with a backoff)
        delay = found.settings[leaf].delay
        links = max(0, -(-(now - entry.base) // delay))
        entry.deadline = entry.base + links * delay
        entry.parked, entry.epoch = False, -1
        if entry.deadline > now:
            state.clock.push_wake(entry.deadline, app)
        app.backoff = entry.deadline
    found.parked = keep


def stale(state: RunState, app: AppState, time: int) -> bool:
    """A deadline that no longer matters: the application left backoff or got a later one, or nothing changed since
    its walk (then it is parked: the core's walk at the deadline would back it off again the same way)."""
    found = state.backoff
    assert found is not None
    entry = found.entries.get(app)
    if entry is None or entry.parked or entry.deadline != time:
        return True
    if entry.epoch != found.epoch(state):
        return False
    entry.parked, entry.base = True, time
    app.backoff = PARKED
    found.parked.append(app)
    return True


TryAsk = Callable[[RunState, AskState, list[float], list[int] | None], object]


def walk_leaf(
    state: RunState,
    leaf: QState,
    hr: list[float],
    new_ok: bool,
    admitted: set[AppState] | None,
    try_ask: TryAsk,
    budget: list[int],
) -> object:
    """Queue.TryAllocate in a leaf with a backoff: every application with pending requests in sort order (those whose
    asks are all reserved included), each walked ask by ask; returns the first outcome (a cycle.Decision) or None."""
    found = state.backoff
    assert found is not None
    setting = found.settings[leaf]
    entries = list(leaf.apps)
    extra = [app.key() for app in leaf.members if app.entry is None and app.npending > 0 and leaf.res_apps.get(app)]
    if extra:
        entries = sorted([*entries, *extra])
    now = state.clock.now
    for item in entries:
        app: AppState = item[-1]
        if not app.started and not new_ok:
            continue
        limits = app.limits
        if app.held and not (app.pready and limits is not None and limits.quota_blocked and limits.can_run()):
            continue
        if admitted is not None and app not in admitted:
            continue
        if app.backoff > now:
            continue
        outcome = _walk_app(state, leaf, app, hr, setting, try_ask, budget)
        if outcome is not None:
            found.entries.pop(app, None)
            return outcome
    return None


def _walk_app(
    state: RunState, leaf: QState, app: AppState, hr: list[float], setting: Setting, try_ask: TryAsk, budget: list[int]
) -> object:
    """Application.tryAllocate with the unschedulable-ask count: an outcome, or None (the application then is in
    backoff, or keeps no deadline)."""
    limits = app.limits
    user_hr = limits.headroom() if limits is not None else None
    reserved = leaf.res_apps.get(app)
    asks = sorted(app.asks + [a.entry for a in reserved]) if reserved else list(app.asks)
    count = 0
    last = None
    for entry in asks:
        if count >= setting.threshold:
            _back_off(state, app, count, setting)
            return None
        ask: AskState = entry[-1]
        if user_hr is not None and not fits(user_hr, ask.fit):
            continue
        outcome = try_ask(state, ask, hr, budget)
        if outcome is not None:
            return outcome
        if not ask.required and fits(hr, ask.fit):
            count += 1
            last = entry
    if count >= setting.threshold and last is not None and _more_after(state, leaf, app, last):
        _back_off(state, app, count, setting)
    else:
        found = state.backoff
        assert found is not None  # (only the applications of a leaf with a backoff are walked here)
        found.entries.pop(app, None)
    return None


def _more_after(state: RunState, leaf: QState, app: AppState, last: tuple[object, ...]) -> bool:
    """Whether the core's request list holds a request after the last counted ask besides the pending ones: an ask
    allocated in this run and still running, or a real pod waiting to replace a placeholder."""
    key = last[:-1]
    for alloc in leaf.allocs:
        if alloc.app is app and alloc.ask is not None and alloc.ask.entry[:-1] > key:
            return True
    gangs = state.gang
    if gangs is not None:
        gang = gangs.by_app.get(app)
        if gang is not None and any(e[:-1] > key for e in gang.waiting):
            return True
    return False


def _back_off(state: RunState, app: AppState, count: int, setting: Setting) -> None:
    """The application waits for now + delay (sa.backoffDeadline)."""
    found = state.backoff
    assert found is not None
    deadline = state.clock.now + setting.delay
    found.entries[app] = Entry(state.clock.now, found.epoch(state), count, deadline)
    app.backoff = deadline
    state.clock.push_wake(deadline, app)


def in_backoff(state: RunState, app: AppState) -> tuple[int, int, Setting] | None:
    """(deadline, unschedulable asks counted, the leaf's setting) of an application in backoff at the end of the
    run; a parked application's deadline is the next point of its chain."""
    found = state.backoff
    if found is None:
        return None
    entry = found.entries.get(app)
    if entry is None or app.leaf is None:
        return None
    setting = found.settings[app.leaf]
    deadline = entry.deadline
    if entry.parked:
        deadline = entry.base
        while deadline <= state.clock.now:
            deadline += setting.delay
    elif deadline <= state.clock.now:
        return None
    return deadline, entry.count, setting
