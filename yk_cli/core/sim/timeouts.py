"""The reservation wait timeout: a reservation that no longer fits its queue is cancelled after 2 x 60 minutes.

In the core's reservation pass (Application.tryReservedAllocate) a reserved ask that does not fit its user's or
group's headroom or its queue's (checkHeadRooms) is skipped; once `now - (reservation time + reservationWaitTimeout)`
exceeds `reservationWaitTimeout` (60 min), that is more than two hours after the node was reserved, the reservation
is cancelled there (unReserveInternal, "Cancelled reservation as wait time expired") and the cycle goes on. yk arms
a timer per reservation one scheduling interval after the two hours; from then on the reservation is checked before
every cycle and cancelled as soon as the ask fails a headroom (it may fit for a while and fail later).
"""

from __future__ import annotations

from yk_cli.core.sim.build import CYCLE_INTERVAL, RunState
from yk_cli.core.sim.state import AskState, fits

RESERVATION_EXPIRED = 20
"""Heap event kind: a reservation's wait timeout ended (obj: (ask, its reservation time)); a number of its own, away
from build.py's kinds."""
RESERVATION_WAIT = 2 * 3_600_000_000_000
"""2 x reservationWaitTimeout (application.go), in nanoseconds."""


def arm(state: RunState, ask: AskState) -> None:
    """The ask reserved a node now: its wait timeout ends two hours (and one scheduling interval) later."""
    state.push(state.now + RESERVATION_WAIT + CYCLE_INTERVAL, RESERVATION_EXPIRED, (ask, state.now))


def stale(obj: object) -> bool:
    """A timer for a reservation that is gone (placed, cancelled or taken again since)."""
    assert isinstance(obj, tuple)
    ask, since = obj
    assert isinstance(ask, AskState)
    return ask.reserved is None or ask.res_time != since


def expire(state: RunState, obj: object) -> None:
    """The timeout ended: the reservation is cancelled once the ask fails a headroom (see due)."""
    if not stale(obj):
        assert isinstance(obj, tuple)
        state.expiring.append(obj)


def quiet(state: RunState, obj: object) -> bool:
    """A live timer, the next event of the run, whose ask still fits every headroom: it is watched from now on (see
    due) without moving the clock, since nothing changes until it and nothing would happen at its time."""
    assert isinstance(obj, tuple)
    ask = obj[0]
    assert isinstance(ask, AskState)
    if not _fits(ask):
        return False
    state.expiring.append(obj)
    return True


def due(state: RunState) -> list[AskState]:
    """The expired reservations to cancel now (their ask fails its user's, group's or queue's headroom), in the
    order they were reserved; the others stay watched (a reservation placed, cancelled or taken anew is dropped)."""
    watched = list(dict.fromkeys(item for item in state.expiring if not stale(item)))
    out = [item for item in watched if not _fits(item[0])]
    state.expiring[:] = [item for item in watched if item not in out]
    return [ask for ask, _ in sorted(out, key=lambda item: item[0].res_seq)]


def _fits(ask: AskState) -> bool:
    app = ask.app
    if app.limits is not None:
        room = app.limits.headroom()
        if room is not None and not fits(room, ask.fit):
            return False
    queue = app.leaf
    while queue is not None:
        top = queue.max
        if top is not None:
            allocated = queue.allocated
            for i, v in ask.fit:
                if top[i] - allocated[i] < v:
                    return False
        queue = queue.parent
    return True
