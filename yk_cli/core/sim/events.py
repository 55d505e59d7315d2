"""The virtual clock: every kind of timed event with its payload, the core's timing constants, and the clock itself.

Stage of the core's scheduling cycle: none of the cycle proper, but every timer around it. The core's scheduler
loop (scheduler.go) runs a cycle at least every CYCLE_INTERVAL and its timers fire on the wall clock; yk keeps one
event heap of (time, seq, kind, payload) instead, beside the sorted list of arrivals, and the run (run.py) applies
every event due at a time before it runs the cycles of that time.

Each kind has one payload type: a timer is armed by the push method of Clock for its kind (so the payload matches
the kind), and the event loop (run.Simulation._event, run._stale) reads the payload back with the accessor of its type
(as_ask, as_alloc, ...), which narrows the heap's `object`. Each kind's docstring below names its payload, who arms it
and what applies it.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Final, cast

from yk_cli.core.sim.state import AllocState, AppState, AskState, QState

if TYPE_CHECKING:
    from yk_cli.core.sim.gang import Gang

# --- event kinds (numbers kept as they were: they only label events, ties are broken by seq) ----------------------

ARRIVE: Final = 0
"""An ask reaches the scheduler. Payload: AskState (as_ask), kept in Clock.arrivals, not in the heap (added by
build.py and gang.py); applied by commit.arrive or the gang's routing."""
COMPLETE: Final = 1
"""An allocation's pod ends. Payload: AllocState (as_alloc); armed by build.py and commit.allocate, applied by
commit.complete."""
OLD: Final = 2
"""An ask has waited RESERVATION_DELAY and may now reserve a node. Payload: AskState (as_ask); armed by commit.arrive
and gang.py, applied by commit.become_old."""
STARTED: Final = 3
"""YuniKorn <= 1.5: an application's Starting state times out after STARTING_TIMEOUT. Payload: AppState (as_app);
armed and applied by commit.py (starting_timeout)."""
PREEMPT_READY: Final = 4
"""An ask's preemption.delay, or its RETRY_WAIT after a failed try, ends. Payload: AskState (as_ask); armed and
applied by preconditions.py (on_timer; make_dormant when nothing changed since the try)."""
QUOTA: Final = 5
"""A queue's quota.preemption.delay ends. Payload: QState (as_queue); armed by quota.arm, applied by the run's quota
pass (quota.tick)."""
GANG_TIMER: Final = 6
"""A gang's placeholder timeout ends. Payload: gang.Gang (as_gang); armed by gang.py, applied by gang.timeout."""
RESERVATION_EXPIRED: Final = 20
"""A reservation has lasted RESERVATION_EXPIRY. Payload: Reservation (as_reservation); armed by timeouts.arm,
applied by timeouts.expire."""
WAKE: Final = 21
"""An application's backoff deadline. Payload: AppState (as_app); armed by backoff.py; applying it changes nothing
(the application is simply due), backoff.stale parks it when nothing changed since its walk."""

Reservation = tuple[AskState, int]
"""The payload of RESERVATION_EXPIRED: the reserved ask and the time it reserved (stale once that changed)."""

Event = tuple[int, int, int, object]
"""A heap entry: (time, seq, kind, payload); seq keeps equal times in the order they were pushed."""

# --- the core's timing constants (nanoseconds) ---------------------------------------------------------------------

CYCLE_INTERVAL: Final = 100_000_000
"""YuniKorn's scheduling loop runs at least every 100 ms: yk wakes up that long after a timer that needs a cycle."""
RESERVATION_DELAY: Final = 2_000_000_000
"""reservationDelay (application.go): an ask must have waited strictly more than this before it may reserve a node."""
RESERVATION_WAIT_TIMEOUT: Final = 3_600_000_000_000
"""reservationWaitTimeout (application.go), 60 minutes: the core's unit for how long a reservation may last."""
RESERVATION_EXPIRY: Final = 2 * RESERVATION_WAIT_TIMEOUT
"""A reservation whose ask fails a headroom is cancelled once it is older than this (2 x reservationWaitTimeout;
timeouts.py); the preemptor cancels another ask's reservation once that ask is older than this plus
RESERVATION_DELAY (preemption.Attempt._cancel_old_reservations)."""
STARTING_TIMEOUT: Final = 300_000_000_000
"""YuniKorn <= 1.5: an application leaves Starting for Running after 5 minutes with one allocation."""
RETRY_WAIT: Final = 15_000_000_000
"""preemptAttemptFrequency: an ask whose preemption failed tries again 15 s later (preconditions.py)."""

ARRIVALS_KEPT: Final = 4096
"""Arrivals already taken are dropped from the list in one go once there are this many and they are half of it."""


class Clock:
    """The virtual time, the event heap and the sorted arrivals merged into it (run.py drives it)."""

    __slots__ = ("arrivals", "heap", "next_arrival", "now", "seq")

    def __init__(self) -> None:
        self.now = 0
        """Nanoseconds since the start of the run."""
        self.heap: list[Event] = []
        """Pending timers, a heap of (time, seq, kind, payload)."""
        self.seq = 0
        """The last sequence number handed out (heap events and arrivals share it)."""
        self.arrivals: list[tuple[int, int, AskState]] = []
        """Every ask arrival as (time, seq, ask), sorted: consumed in order beside the heap (cheaper than heap pops)."""
        self.next_arrival = 0
        """Index in arrivals of the next ask to arrive."""

    def _push(self, time: int, kind: int, payload: object) -> None:
        """Schedule a heap event; equal times keep insertion order."""
        self.seq += 1
        heapq.heappush(self.heap, (time, self.seq, kind, payload))

    def push_complete(self, time: int, alloc: AllocState) -> None:
        self._push(time, COMPLETE, alloc)

    def push_old(self, time: int, ask: AskState) -> None:
        self._push(time, OLD, ask)

    def push_started(self, time: int, app: AppState) -> None:
        self._push(time, STARTED, app)

    def push_preempt_ready(self, time: int, ask: AskState) -> None:
        self._push(time, PREEMPT_READY, ask)

    def push_quota(self, time: int, queue: QState) -> None:
        self._push(time, QUOTA, queue)

    def push_gang_timer(self, time: int, gang: Gang) -> None:
        self._push(time, GANG_TIMER, gang)

    def push_reservation_expired(self, time: int, reservation: Reservation) -> None:
        self._push(time, RESERVATION_EXPIRED, reservation)

    def push_wake(self, time: int, app: AppState) -> None:
        self._push(time, WAKE, app)

    def add_arrival(self, time: int, ask: AskState) -> None:
        """An ask that arrives at this time (the list is sorted by sort_arrivals once all are added)."""
        self.seq += 1
        self.arrivals.append((time, self.seq, ask))

    def sort_arrivals(self) -> None:
        self.arrivals.sort(key=lambda item: (item[0], item[1]))

    def pending(self) -> bool:
        """Whether any event or arrival is still to come."""
        return bool(self.heap) or self.next_arrival < len(self.arrivals)

    def next_arrival_time(self) -> int | None:
        """The time of the next arrival, or None when none is left."""
        arrivals = self.arrivals
        return arrivals[self.next_arrival][0] if self.next_arrival < len(arrivals) else None

    def next_time(self) -> int:
        """The time of the next heap event or arrival (there must be one)."""
        arrivals, heap = self.arrivals, self.heap
        if self.next_arrival < len(arrivals):
            first = arrivals[self.next_arrival][0]
            return min(first, heap[0][0]) if heap else first
        return heap[0][0]

    def pop(self) -> Event:
        """Take the first heap event."""
        return heapq.heappop(self.heap)

    def pop_due(self, time: int) -> tuple[int, object] | None:
        """The next (kind, payload) due at this time, heap events and arrivals merged by (time, seq)."""
        arrivals, heap = self.arrivals, self.heap
        if self.next_arrival < len(arrivals):
            arrival = arrivals[self.next_arrival]
            if arrival[0] == time and (not heap or heap[0][0] > time or arrival[1] < heap[0][1]):
                self.next_arrival += 1
                if self.next_arrival >= ARRIVALS_KEPT and self.next_arrival * 2 >= len(arrivals):
                    del arrivals[: self.next_arrival]  # the arrived part, once it is most of it (amortised O(1))
                    self.next_arrival = 0
                return ARRIVE, arrival[2]
        if heap and heap[0][0] == time:
            _, _, kind, payload = heapq.heappop(heap)
            return kind, payload
        return None


# --- typed accessors: the payload of an event of a known kind (see the table above) --------------------------------


def as_ask(payload: object) -> AskState:
    """The payload of ARRIVE, OLD and PREEMPT_READY."""
    return cast(AskState, payload)


def as_alloc(payload: object) -> AllocState:
    """The payload of COMPLETE."""
    return cast(AllocState, payload)


def as_app(payload: object) -> AppState:
    """The payload of STARTED and WAKE."""
    return cast(AppState, payload)


def as_queue(payload: object) -> QState:
    """The payload of QUOTA."""
    return cast(QState, payload)


def as_gang(payload: object) -> Gang:
    """The payload of GANG_TIMER."""
    return cast("Gang", payload)


def as_reservation(payload: object) -> Reservation:
    """The payload of RESERVATION_EXPIRED."""
    return cast(Reservation, payload)
