"""The reservation wait timeout: a reservation that no longer fits its queue is cancelled after 2 x 60 minutes.

Stage of the core's scheduling cycle: the reservation pass (Application.tryReservedAllocate), before the normal
walk. There a reserved ask that does not fit its user's or group's headroom or its queue's (checkHeadRooms) is
skipped; once `now - (reservation time + reservationWaitTimeout)` exceeds `reservationWaitTimeout` (60 min), that is
more than two hours after the node was reserved, the reservation is cancelled there (unReserveInternal, "Cancelled
reservation as wait time expired") and the cycle goes on. yk arms a timer per reservation one scheduling interval
after the two hours (events.RESERVATION_EXPIRY); from then on the reservation is checked before every cycle and
cancelled as soon as the ask fails a headroom (it may fit for a while and fail later).
"""

from __future__ import annotations

from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.cycle import over_max
from yk_cli.core.sim.events import CYCLE_INTERVAL, RESERVATION_EXPIRY, Reservation
from yk_cli.core.sim.state import AskState, fits


def arm(state: RunState, ask: AskState) -> None:
    """The ask reserved a node now: its wait timeout ends two hours (and one scheduling interval) later."""
    now = state.clock.now
    state.clock.push_reservation_expired(now + RESERVATION_EXPIRY + CYCLE_INTERVAL, (ask, now))


def stale(reservation: Reservation) -> bool:
    """A timer for a reservation that is gone (placed, cancelled or taken again since)."""
    ask, since = reservation
    return ask.reserved is None or ask.res_time != since


def expire(state: RunState, reservation: Reservation) -> None:
    """The timeout ended: the reservation is cancelled once the ask fails a headroom (see due)."""
    if not stale(reservation):
        state.waiting.expiring.append(reservation)


def quiet(state: RunState, reservation: Reservation) -> bool:
    """A live timer, the next event of the run, whose ask still fits every headroom: it is watched from now on (see
    due) without moving the clock, since nothing changes until it and nothing would happen at its time."""
    if not _fits(reservation[0]):
        return False
    state.waiting.expiring.append(reservation)
    return True


def due(state: RunState) -> list[AskState]:
    """The expired reservations to cancel now (their ask fails its user's, group's or queue's headroom), in the
    order they were reserved; the others stay watched (a reservation placed, cancelled or taken anew is dropped)."""
    expiring = state.waiting.expiring
    watched = list(dict.fromkeys(item for item in expiring if not stale(item)))
    out = [item for item in watched if not _fits(item[0])]
    expiring[:] = [item for item in watched if item not in out]
    return [ask for ask, _ in sorted(out, key=lambda item: item[0].res_seq)]


def _fits(ask: AskState) -> bool:
    app = ask.app
    if app.limits is not None:
        room = app.limits.headroom()
        if room is not None and not fits(room, ask.fit):
            return False
    return over_max(app.leaf, ask.fit) is None
