"""The deterministic dry run: a virtual clock over a (time, seq) event heap, one scheduling outcome per cycle.

Stage of the core's scheduling cycle: the scheduler loop around it (scheduler.go runs ClusterContext.schedule,
that is partition.TrySchedule, at least every 100 ms), the timers between cycles (events.py) and the trace.

At each point in time every event due then is applied (completions free resources, asks arrive, asks become
old enough to reserve), then scheduling cycles run until one finds nothing to do; each cycle yields at most
one allocation or reservation, exactly as YuniKorn's core (see cycle). Nothing reads the wall clock.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.ordering.priority import PriorityChange
from yk_cli.core.resources import format_resource
from yk_cli.core.sim import backoff, gang, preconditions, quota, timeouts
from yk_cli.core.sim.build import RunState, build_state
from yk_cli.core.sim.commit import (
    Arrivals,
    allocate,
    arrive,
    become_old,
    complete,
    preempt,
    release_victims,
    reserve,
    schedule_old,
    settle_all,
    starting_timeout,
    unreserve,
)
from yk_cli.core.sim.cycle import Decision, find_decision, log_attempt
from yk_cli.core.sim.events import (
    ARRIVE,
    COMPLETE,
    GANG_TIMER,
    OLD,
    PREEMPT_READY,
    QUOTA,
    RESERVATION_EXPIRED,
    RESERVATION_EXPIRY,
    STARTED,
    WAKE,
    as_alloc,
    as_app,
    as_ask,
    as_gang,
    as_queue,
    as_reservation,
)
from yk_cli.core.sim.preemption import Preemption, required_node_victims
from yk_cli.core.sim.reasons import node_verdicts, pending_asks
from yk_cli.core.sim.state import PENDING, WAITING, AllocState, AppState, AskState
from yk_cli.core.sim.trace import (
    ALLOCATE,
    GANG_TIMEOUT,
    PLACEHOLDER,
    PLACEHOLDER_RELEASE,
    PREEMPT,
    QUOTA_PREEMPT,
    REPLACE,
    RESERVE,
    UNRESERVE,
    Arrival,
    NodeView,
    Summary,
    Trace,
    TraceEvent,
    Victim,
)
from yk_cli.core.sim.trace import COMPLETE as COMPLETE_EVENT
from yk_cli.core.sim.unmodelled import unmodelled
from yk_cli.core.versions import LATEST_VERSION
from yk_cli.core.workload.model import Workload

if TYPE_CHECKING:
    from yk_cli.core.config.placement import Placement

MAX_FENCE_VERSION = (1, 9)
"""From here on (yunikorn-core after 1.8, YUNIKORN-3241) a queue whose max the ask would exceed fences the victim
search; 1.9 is the core at the commit the conformance cases were recorded with."""


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """How far to run and which YuniKorn to model."""

    until: int | None = None
    """Nanoseconds: stop the clock here; what happens exactly then still happens (0 = the start only)."""
    max_steps: int | None = None
    """Stop after this many trace events."""
    yunikorn_version: str = LATEST_VERSION
    """1.5 or older applies the stateaware filter and the Starting application state."""
    halt_before_step: int | None = None
    """Stop just before this step would happen, leaving the state as the scheduler saw it."""
    halt_before_allocating: tuple[tuple[str, str], ...] = ()
    """(application, ask) pairs: stop just before the first of them is allocated (yk explain; see resume)."""
    explain_preemption: bool = False
    """Record every candidate of every preemption try and the verdict that kept it out."""
    watch_nodes: tuple[str, str] | None = None
    """(application, ask): record every node's verdict on it when it is placed or reserves a node (the last time),
    else at the end of the run (Trace.node_view; yk explain POD)."""


Arrive = Callable[[RunState, AskState, list[PriorityChange] | None], None]
"""How an ask reaches the scheduler (commit.arrive, or a gang's own way)."""


def version_tuple(text: str) -> tuple[int, int]:
    """'1.5', 'v1.5.2' -> (1, 5); raises ValueError on anything else."""
    parts = text.strip().lstrip("vV").split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        raise ValueError(f"not a YuniKorn version: {text!r} (expected e.g. 1.8 or 1.5.2)")
    return int(parts[0]), int(parts[1])


def simulate(
    partition: PartitionConfig, tree: QueueTree, workload: Workload, options: SimulationOptions | None = None
) -> Trace:
    """Dry-run the workload on the partition's queues and return the ordered trace (pure: inputs are not changed).

    The cyclic garbage collector is paused meanwhile: the run builds hundreds of thousands of long-lived objects
    and no reference cycles that die early, so collecting would only cost time (up to half of it).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return Simulation(partition, tree, workload, options or SimulationOptions()).run()
    finally:
        if enabled:
            gc.enable()


class Simulation:
    """One run; after run(), state holds the final (or halted) scheduler state."""

    def __init__(
        self,
        partition: PartitionConfig,
        tree: QueueTree,
        workload: Workload,
        options: SimulationOptions,
        placed: Mapping[str, Placement] | None = None,
    ) -> None:
        """placed: every application's placement on this tree, when the caller has already placed them."""
        self.options = options
        legacy = version_tuple(options.yunikorn_version) <= (1, 5)
        self.state: RunState
        self.state, self.placement_notes = build_state(partition, tree, workload, legacy, placed)
        self.state.explain = options.explain_preemption
        self.state.gang = gang.setup(self.state)
        self.state.backoff = backoff.setup(self.state)
        self.notes = over_max_notes(self.state, partition)
        if partition.quota_preemption_enabled:
            quota.arm(self.state)
        self.unmodelled = tuple(unmodelled(partition, tree, workload))
        self.state.max_fence = version_tuple(options.yunikorn_version) >= MAX_FENCE_VERSION
        self.partition = partition.display_name
        self.events: list[TraceEvent] = []
        self.arrivals: list[Arrival] = []
        self.stopped_by = "idle"
        self.halted: object = None
        """The outcome (or completion) that halt_before_step stopped in front of."""
        self._stop = False
        self._halt_asks = frozenset(options.halt_before_allocating)
        self._held: list[tuple[Preemption, TraceEvent]] = []
        self._arriving = Arrivals()
        """Asks arrived but not yet counted on their queues (closed before any other event or cycle)."""
        self._maps: dict[tuple[int, ...], dict[str, int]] = {}
        """One resource map per ask size, shared by the events (never mutated)."""
        self.node_view: NodeView | None = None

    def run(self) -> Trace:
        """Process events and cycles until nothing is left, the clock passes --until, or a step limit is hit."""
        self._advance(False)
        return self._finish()

    def run_until_halt(self) -> bool:
        """Run until a halt option stops it just before a step (True: the state is as the scheduler saw it then)
        or to the end (False: finish() gives the trace)."""
        self._advance(False)
        if self.stopped_by == "halt":
            settle_all(self.state)
            return True
        return False

    def resume(self) -> Trace:
        """After a halt before an allocation (halt_before_allocating): go on to the end, exactly as if the run had
        never stopped (the halted outcome is applied, then the rest of its cycle), and return the whole trace."""
        decision, held = self.halted, self._held
        assert self.stopped_by == "halt" and isinstance(decision, Decision)
        self._stop, self.halted, self.stopped_by, self._halt_asks, self._held = False, None, "idle", frozenset(), []
        if self._may_step(decision):  # (a step limit may still stop it here)
            self._apply(decision)
        self._release(held)
        self._gang_confirm()
        self._advance(True)
        return self._finish()

    def finish(self) -> Trace:
        """The trace of a run that ended without a halt."""
        return self._finish()

    def _advance(self, resumed: bool) -> None:
        state = self.state
        clock = state.clock
        heap = clock.heap
        until = self.options.until
        if resumed:  # the rest of the halted time first
            while not self._stop and self._cycle():
                pass
            if not self._stop:
                schedule_old(state)
        while clock.pending() and not self._stop:
            if heap:
                first_time, _, first_kind, first = heap[0]
                if _stale(state, first_time, first_kind, first):
                    clock.pop()  # a timer that no longer matters must not move the clock
                    continue
                if first_kind == PREEMPT_READY and _dormant(state, first_time, as_ask(first)):
                    clock.pop()
                    preconditions.make_dormant(state, as_ask(first))
                    continue
            time = clock.next_time()
            if until is not None and time > until:
                self.stopped_by = "until"
                clock.now = max(clock.now, until)  # the clock stops at --until
                break
            clock.now = time
            while not self._stop:
                item = clock.pop_due(time)
                if item is None:
                    break
                self._event(*item)
            self._arriving.close(state)
            while not self._stop and self._cycle():
                pass
            if not self._stop:
                schedule_old(state)

    def _finish(self) -> Trace:
        state = self.state
        until = self.options.until
        if until is not None and self.stopped_by == "idle" and not self._stop and state.clock.now < until:
            state.clock.now = until
        settle_all(state)
        return self.trace()

    def trace(self) -> Trace:
        """The trace of what ran so far, with every pending ask and its reason."""
        state = self.state
        pending = pending_asks(state, self.placement_notes)
        summary = Summary(
            allocations=state.counters.allocations,
            completions=state.counters.completions,
            reservations=state.counters.reservations,
            preemptions=state.counters.victims,
            pending=len(pending),
            steps=len(self.events),
            end_time=state.clock.now,
            nodes=len(state.nodes),
            applications=len(state.apps),
            asks=len(state.asks),
            stopped_by=self.stopped_by,
        )
        attempts = tuple(state.attempt_log)
        view = self.node_view
        watched = self.options.watch_nodes
        if watched is not None:
            found = next((a for a in state.asks if (a.app.id, a.name) == watched), None)
            if found is not None and found.status in (WAITING, PENDING):
                view = NodeView(watched[0], watched[1], state.clock.now, 0, "", node_verdicts(state, found))
        return Trace(
            tuple(self.events),
            pending,
            summary,
            self.partition,
            attempts,
            state.explain,
            tuple(self.notes),
            self.unmodelled,
            tuple(self.arrivals),
            tuple(state.queues),
            view,
        )

    def _may_step(self, what: object) -> bool:
        """Whether one more trace event may happen; records why not."""
        step = len(self.events) + 1
        halt = self.options.halt_before_step
        if (halt is not None and step >= halt) or (
            self._halt_asks
            and isinstance(what, Decision)
            and what.kind in (ALLOCATE, REPLACE)
            and (what.ask.app.id, what.ask.name) in self._halt_asks
        ):
            self.halted, self.stopped_by, self._stop = what, "halt", True
            return False
        limit = self.options.max_steps
        if limit is not None and step > limit:
            self.stopped_by, self._stop = "max-steps", True
            return False
        return True

    def _event(self, kind: int, payload: object) -> None:
        """Apply one event due now; its kind says its payload's type (events.py). Plain asks arriving one after the
        other are counted on their queues together (commit.Arrivals), before any other event or cycle."""
        state = self.state
        if state.backoff is not None and kind != WAKE:
            state.backoff.changes += 1  # (a deadline itself changes nothing: the application is simply due)
        if kind == ARRIVE:
            ask = as_ask(payload)
            if state.gang is not None and ask.app in state.gang.by_app:
                self._arriving.close(state)
                self._gang_arrive(ask)
                return
            if ask.app.limits is not None:  # (commit.arrive unblocks it against the counts)
                self._arriving.close(state)
                if state.clock.now > 0:
                    self._arrived(ask)
                else:
                    arrive(state, ask)
            elif state.clock.now > 0:
                self._arrived(ask, self._arriving.add)
            else:
                self._arriving.add(state, ask)
            return
        self._arriving.close(state)
        if kind == COMPLETE:
            alloc = as_alloc(payload)
            if alloc.preempted:
                return  # preempted before its end
            if self._may_step(alloc):
                complete(state, alloc)
                self._emit(COMPLETE_EVENT, alloc.app, alloc.name, alloc.priority, alloc.node.name, alloc.size, (), "")
        elif kind == OLD:
            become_old(state, as_ask(payload))
        elif kind == STARTED:
            starting_timeout(as_app(payload))
        elif kind == PREEMPT_READY:
            preconditions.on_timer(state, as_ask(payload))
        elif kind == QUOTA:
            if not quota.stale(state, as_queue(payload), state.clock.now):
                self._quota()
        elif kind == GANG_TIMER:
            self._gang_timeout(as_gang(payload))
        elif kind == RESERVATION_EXPIRED:
            timeouts.expire(state, as_reservation(payload))

    def _arrived(self, ask: AskState, how: Arrive = arrive) -> None:
        """An ask arriving after the start: applied, and recorded for the reports with the priorities it raised."""
        changes: list[PriorityChange] = []
        how(self.state, ask, changes)
        leaf = ask.app.leaf
        self.arrivals.append(
            Arrival(
                time=self.state.clock.now,
                after_step=len(self.events),
                application=ask.app.id,
                ask=ask.name,
                queue_path=leaf.path if leaf is not None else "",
                priority=ask.priority,
                resources=self._resources(ask.size),
                priority_changes=tuple([c for c in changes if c.queue_path != "root"]) if changes else (),
            )
        )

    def _gang_arrive(self, ask: AskState) -> None:
        """An ask of a gang application: held by the shim, waiting to replace a placeholder, or ordinary."""
        gangs = self.state.gang
        assert gangs is not None
        how = gangs.route(self.state, ask)
        if how is None:
            return
        if self.state.clock.now > 0:
            self._arrived(ask, how)
        else:
            how(self.state, ask, None)

    def _gang_timeout(self, found: gang.Gang) -> None:
        """A gang's placeholder timer fired: one step naming the placeholders released; Soft sends the real pods."""
        gangs = self.state.gang
        assert gangs is not None
        if not self._may_step(found):
            return
        changes: list[PriorityChange] = []
        reason, released, send = gangs.timeout(self.state, found, changes)
        self._emit(GANG_TIMEOUT, found.app, "", None, "", (), changes, reason, self._victims(released, {}))
        self._gang_send(send)

    def _gang_send(self, asks: list[AskState]) -> None:
        """The shim sends a gang's held real pods now: after the start they are arrivals of their own; at the start
        the queue priorities they raise are folded into the step that sent them."""
        if self.state.clock.now > 0 or not asks:
            for ask in asks:
                self._gang_arrive(ask)
            return
        gangs = self.state.gang
        assert gangs is not None
        changes: list[PriorityChange] = []
        for ask in asks:
            how = gangs.route(self.state, ask)
            if how is not None:
                how(self.state, ask, changes)
        last = self.events[-1]
        last.priority_changes = merge_changes(last.priority_changes, changes)

    def _gang_releases(self) -> bool:
        """Placeholders the cycle released because a real ask is larger (one step per task group); False when the
        step limit stopped the run."""
        gangs = self.state.gang
        assert gangs is not None
        while gangs.releasing:
            ask, group, phs = gangs.releasing[0]
            if not self._may_step(Decision(PLACEHOLDER_RELEASE, ask, phs[0].node)):
                return False
            gangs.releasing.pop(0)
            gangs.released.append((ask, group, phs))
            count = f"{len(phs)} placeholder{'' if len(phs) == 1 else 's'}"
            reason = (
                f"{ask.name} asks more than the placeholders of task group {group.name} "
                f"({format_resource(group.resources)} each): the core releases its {count} unused, and the group's "
                "real pods run as ordinary asks"
            )
            self._emit(
                PLACEHOLDER_RELEASE, ask.app, ask.name, ask.priority, "", ask.size, (), reason, self._victims(phs, {})
            )
        return True

    def _quota(self) -> None:
        """A pass of the core's quota preemption loop: each queue that fires is one step naming its victims (all
        chosen before any is released, as the core's preemptions of one pass run on the same usage)."""
        from yk_cli.core.config.properties import format_duration
        from yk_cli.core.resources import format_resource

        state = self.state
        for outcome in quota.tick(state):
            queue = outcome.queue
            over = f"{queue.path} is over its max {format_resource(outcome.max)} (uses {format_resource(outcome.used)})"
            if not outcome.victims:
                what = (
                    f"no running pod fits in the {format_resource(outcome.preemptable)} to preempt"
                    if outcome.preemptable
                    else "nothing to preempt above the guarantees on its path"
                )
                when = format_duration(state.clock.now)
                self.notes.append(f"quota preemption at {when}: {over}, but {what}; it stays so")
                continue
            if not self._may_step(queue):
                return
            changes: list[PriorityChange] = []
            restarted = release_victims(state, outcome.victims, changes)
            victims = self._victims(outcome.victims, restarted)
            count = f"{len(victims)} victim" + ("s" if len(victims) != 1 else "")
            amount = format_resource(outcome.preemptable or {})
            reason = (
                f"quota preemption: {over} after quota.preemption.delay "
                f"{format_duration(quota.delay_of(queue))}; {amount} to preempt, {count} released "
                f"({format_resource(outcome.claimed)})"
            )
            self.state.counters.steps = len(self.events) + 1
            self.events.append(
                TraceEvent(
                    step=len(self.events) + 1,
                    time=state.clock.now,
                    type=QUOTA_PREEMPT,
                    queue_path=queue.path,
                    application="",
                    ask="",
                    priority=None,
                    node="",
                    resources=dict(outcome.preemptable or {}),
                    priority_changes=tuple([c for c in changes if c.queue_path != "root"]) if changes else (),
                    victims=victims,
                    reason=reason,
                )
            )

    def _victims(
        self, victims: list[AllocState] | tuple[AllocState, ...], restarted: dict[AllocState, str]
    ) -> tuple[Victim, ...]:
        """The trace's record of released allocations."""
        return tuple(
            Victim(
                v.name,
                v.app.id,
                v.app.leaf.path if v.app.leaf is not None else "",
                v.node.name,
                v.priority,
                self._resources(v.size),
                restarted.get(v, ""),
            )
            for v in victims
        )

    def _cycle(self) -> bool:
        """One scheduling cycle. DaemonSet preemption is a side effect of its reservation pass: the victims are
        named first, go only once the cycle's outcome is applied, and the DaemonSet pod is placed in a later cycle
        (until then the victims still count in their queues, as in the core)."""
        held: list[tuple[Preemption, TraceEvent]] = []
        go_on = self._cycle_outcome(held)
        if self.stopped_by == "halt":
            self._held = held  # released on resume, after the halted outcome, as in an uninterrupted cycle
            return False
        self._release(held)
        confirmed = self._gang_confirm()
        return go_on or bool(held) or confirmed

    def _gang_confirm(self) -> bool:
        """The shim confirms the placeholders released in the cycle: they go now."""
        gangs = self.state.gang
        if gangs is None:
            return False
        gangs.marked.clear()
        return gangs.apply_releases(self.state)

    def _release(self, held: list[tuple[Preemption, TraceEvent]]) -> None:
        """The DaemonSet preemptions a cycle named: their victims go now (and placeholders the cycle released)."""
        for found, event in held:
            restarted = preempt(self.state, found)
            if restarted:
                event.victims = tuple(
                    replace(v, restarted_as=restarted.get(a, ""))
                    for v, a in zip(event.victims, found.victims, strict=True)
                )

    def _cycle_outcome(self, held: list[tuple[Preemption, TraceEvent]]) -> bool:
        state = self.state
        if state.waiting.required_waiting and not self._required_preemptions(held):
            return False
        if state.waiting.expiring and not self._expired():
            return False
        tries = state.counters.gen, len(state.clock.heap)
        decision = find_decision(state)
        if state.gang is not None and state.gang.releasing and not self._gang_releases():
            return False
        if decision is None:
            # a cycle that only tried preemption (and stamped the asks it tried) is followed by another
            return (state.counters.gen, len(state.clock.heap)) != tries
        if not self._may_step(decision):
            return False
        return self._apply(decision)

    def _expired(self) -> bool:
        """Cancel the reservations past their 2 x 60 min wait whose ask no longer fits a headroom (each an
        `unreserve` step; the cycle goes on): False when the step limit stopped it."""
        from yk_cli.core.config.properties import format_duration

        for ask in timeouts.due(self.state):
            node = ask.reserved
            assert node is not None
            if not self._may_step(Decision(UNRESERVE, ask, node)):
                return False
            unreserve(self.state, ask)
            reason = (
                f"cancelled: reserved for more than {format_duration(RESERVATION_EXPIRY)} "
                "and the ask no longer fits its queue's or its user's headroom"
            )
            self._emit(UNRESERVE, ask.app, ask.name, ask.priority, node.name, ask.size, (), reason)
        return True

    def _apply(self, decision: Decision) -> bool:
        """Carry out a cycle's outcome and record its step."""
        ask = decision.ask
        watched = self.options.watch_nodes
        if watched is not None and decision.kind != PREEMPT and (ask.app.id, ask.name) == watched:
            verdicts = node_verdicts(self.state, ask, decision.node)
            self.node_view = NodeView(*watched, self.state.clock.now, len(self.events) + 1, decision.kind, verdicts)
        if decision.kind == PREEMPT:
            assert decision.preemption is not None
            self._preempted(decision.preemption, "")
            return True
        gangs = self.state.gang
        if decision.kind == REPLACE:
            assert gangs is not None and decision.placeholder is not None
            changes, note = gangs.replace(self.state, ask, decision.placeholder, decision.node)
            self._emit(REPLACE, ask.app, ask.name, ask.priority, decision.node.name, ask.size, changes, note)
            return True
        holder = decision.cancel
        if holder is not None:
            node = unreserve(self.state, holder)
            reason = f"cancelled: {ask.app.id}/{ask.name} requires the node"
            self._emit(UNRESERVE, holder.app, holder.name, holder.priority, node.name, holder.size, (), reason)
        if decision.kind == RESERVE:
            reserve(self.state, ask, decision.node)
            self._emit(RESERVE, ask.app, ask.name, ask.priority, decision.node.name, ask.size, (), "")
            return True
        changes, note = allocate(self.state, ask, decision.node)
        if ask.ask.placeholder:
            assert gangs is not None
            placed, send = gangs.placed(self.state, ask)
            note = f"{note}; {placed}" if note else placed
            self._emit(PLACEHOLDER, ask.app, ask.name, ask.priority, decision.node.name, ask.size, changes, note)
            self._gang_send(send)  # the shim sends the held real pods right after the cycle
            return True
        self._emit(ALLOCATE, ask.app, ask.name, ask.priority, decision.node.name, ask.size, changes, note)
        return True

    def _preempted(self, found: Preemption, why: str, release: bool = True) -> TraceEvent:
        """Apply a preemption outcome (or, with release False, only mark its victims) and record it as one step
        naming every victim."""
        state, ask = self.state, found.ask
        changes: list[PriorityChange] = []
        if release:
            restarted = preempt(state, found, changes)
        else:
            restarted = {}
            for victim in found.victims:
                victim.preempted = True
        victims = self._victims(found.victims, restarted)
        count = f"{len(victims)} victim" + ("s" if len(victims) != 1 else "")
        reason = f"{why}node {found.node.name} reserved for the ask; {count} released"
        self._emit(PREEMPT, ask.app, ask.name, ask.priority, found.node.name, ask.size, changes, reason, victims)
        return self.events[-1]

    def _required_preemptions(self, held: list[tuple[Preemption, TraceEvent]]) -> bool:
        """RequiredNodePreemptor for required-node asks holding their node, a side effect of the cycle's reservation
        pass (the cycle goes on; the ask is placed in a later cycle): False when the step limit stopped it."""
        state = self.state
        waiting = state.waiting.required_waiting
        while waiting:
            ask = waiting[0]
            node = ask.reserved
            if node is None or ask.triggered or node.fits(ask.fit) or ask.status != PENDING:
                waiting.pop(0)
                continue
            victims, candidates = required_node_victims(state, ask, node, state.explain)
            found = Preemption(ask, node, victims)
            if victims and not self._may_step(Decision(PREEMPT, ask, node, preemption=found)):
                return False
            waiting.pop(0)
            outcome = "preempted" if victims else "No victim found for required node"
            log_attempt(state, ask, "required-node", "", outcome, node.name if victims else "", candidates)
            if not victims:
                continue
            held.append((found, self._preempted(found, "required node (DaemonSet): ", release=False)))
        return True

    def _emit(
        self,
        kind: str,
        app: AppState,
        name: str,
        priority: int | None,
        node: str,
        size: tuple[int, ...],
        changes: list[PriorityChange] | tuple[()],
        reason: str,
        victims: tuple[Victim, ...] = (),
    ) -> None:
        resources = self._resources(size)
        self.state.counters.steps = len(self.events) + 1
        self.events.append(
            TraceEvent(
                step=len(self.events) + 1,
                time=self.state.clock.now,
                type=kind,
                queue_path=app.leaf.path if app.leaf is not None else "",
                application=app.id,
                ask=name,
                priority=priority,
                node=node,
                resources=resources,
                priority_changes=tuple([c for c in changes if c.queue_path != "root"]) if changes else (),
                victims=victims,
                reason=reason,
            )
        )

    def _resources(self, size: tuple[int, ...]) -> dict[str, int]:
        """One shared resource map per size (never mutated)."""
        resources = self._maps.get(size)
        if resources is None:
            types = self.state.types
            resources = self._maps[size] = {types[i]: v for i, v in enumerate(size) if v}
        return resources


def over_max_notes(state: RunState, partition: PartitionConfig) -> list[str]:
    """One note per queue whose running allocations already exceed its max (e.g. a new config that lowers a max,
    tried on a cluster dump) and that quota preemption will not bring down: the note says why (a queue it will bring
    down gets quota-preempt steps instead)."""
    from yk_cli.core.resources import format_resource

    notes = []
    types = state.types
    for queue in state.queues.values():
        if queue.max is None or queue.parent is None:
            continue
        over = [i for i, m in enumerate(queue.max) if queue.allocated[i] > m]
        if not over:
            continue
        used = format_resource({types[i]: queue.allocated[i] for i in over})
        limit = format_resource({types[i]: int(queue.max[i]) for i in over})
        delay = quota.delay_of(queue)
        if not partition.quota_preemption_enabled:
            why = "quota preemption is off: the partition does not set preemption.quotapreemptionenabled"
        elif queue.queue.dynamic:
            why = "quota preemption is on but acts on configured queues only, not on a dynamic one"
        elif not delay:
            why = "quota preemption is on but the queue sets no quota.preemption.delay"
        else:
            continue  # quota preemption brings it down after the delay: quota-preempt steps
        notes.append(
            f"{queue.path} runs {used}, over its max {limit}, and stays over it in this run ({why}); "
            "no new allocation fits it until enough pods finish"
        )
    return notes


def merge_changes(first: tuple[PriorityChange, ...], then: list[PriorityChange]) -> tuple[PriorityChange, ...]:
    """Two lists of queue priority changes as one: each queue from its first old value to its last new one (root and
    queues that end where they started are left out), in the order of first appearance."""
    merged: dict[str, PriorityChange] = {}
    for change in (*first, *then):
        if change.queue_path == "root":
            continue
        seen = merged.get(change.queue_path)
        merged[change.queue_path] = change if seen is None else replace(seen, new=change.new)
    return tuple(c for c in merged.values() if c.old != c.new)


def _stale(state: RunState, time: int, kind: int, payload: object) -> bool:
    """A timer that no longer matters, as the heap's first event: a reservation-delay timer for an ask no longer
    waiting, a Starting timeout for an app not Starting, a quota preemption timer for a queue no longer over its
    max, ..."""
    if kind == OLD:
        ask = as_ask(payload)
        return ask.status != PENDING or ask.old
    if kind == STARTED:
        return as_app(payload).state != "Starting"
    if kind == PREEMPT_READY:
        ask = as_ask(payload)
        return ask.status != PENDING or ask.triggered or ask.pready
    if kind == COMPLETE:
        return as_alloc(payload).preempted
    if kind == QUOTA:
        return quota.stale(state, as_queue(payload), time)
    if kind == GANG_TIMER:
        return as_gang(payload).timer != time
    if kind == WAKE:
        return backoff.stale(state, as_app(payload), time)
    if kind == RESERVATION_EXPIRED:
        reservation = as_reservation(payload)
        if timeouts.stale(reservation):
            return True
        first = state.clock.next_arrival_time()  # (the heap's first event is next unless an arrival comes first)
        return (first is None or first > time) and timeouts.quiet(state, reservation)
    return False


def _dormant(state: RunState, time: int, ask: AskState) -> bool:
    """The next event, at this time, is the ask's 15 s retry wait ending with nothing changed since its try: it
    must not move the clock (the core's retry would fail the same way); the ask waits for the next change instead."""
    first = state.clock.next_arrival_time()
    if first is not None and first <= time:
        return False
    return preconditions.unchanged(state, ask) and not state.every_retry


def find_ask(state: RunState, name: str) -> AskState | None:
    """An ask by name, or by application/name."""
    app_id, _, ask_name = name.rpartition("/")
    for ask in state.asks:
        if ask.name == ask_name and (not app_id or ask.app.id == app_id):
            return ask
    return None
