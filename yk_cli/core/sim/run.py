"""The deterministic dry run: a virtual clock over a (time, seq) event heap, one scheduling outcome per cycle.

At each point in time every event due then is applied (completions free resources, asks arrive, asks become
old enough to reserve), then scheduling cycles run until one finds nothing to do; each cycle yields at most
one allocation or reservation, exactly as YuniKorn's core (see cycle). Nothing reads the wall clock.
"""

from __future__ import annotations

import gc
import heapq
from dataclasses import dataclass, replace

from yk_cli.core.config import PartitionConfig
from yk_cli.core.priority import PriorityChange
from yk_cli.core.queues import QueueTree
from yk_cli.core.sim import preconditions
from yk_cli.core.sim.build import ARRIVE, COMPLETE, OLD, PREEMPT_READY, STARTED, RunState, build_state
from yk_cli.core.sim.commit import (
    allocate,
    arrive,
    become_old,
    complete,
    preempt,
    reserve,
    schedule_old,
    settle_all,
    starting_timeout,
    unreserve,
)
from yk_cli.core.sim.cycle import Decision, find_decision, log_attempt
from yk_cli.core.sim.preemption import Preemption, required_node_victims
from yk_cli.core.sim.reasons import pending_asks
from yk_cli.core.sim.state import PENDING, AllocState, AppState, AskState
from yk_cli.core.trace import (
    ALLOCATE,
    PREEMPT,
    RESERVE,
    UNRESERVE,
    Summary,
    Trace,
    TraceEvent,
    Victim,
)
from yk_cli.core.trace import COMPLETE as COMPLETE_EVENT
from yk_cli.core.unmodelled import unmodelled
from yk_cli.core.workload import Workload

LATEST_VERSION = "1.8"
"""The YuniKorn version yk models by default."""
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
    """Stop just before this step would happen, leaving the state as the scheduler saw it (for yk explain)."""
    explain_preemption: bool = False
    """Record every candidate of every preemption try and the verdict that kept it out."""


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
        self, partition: PartitionConfig, tree: QueueTree, workload: Workload, options: SimulationOptions
    ) -> None:
        self.options = options
        legacy = version_tuple(options.yunikorn_version) <= (1, 5)
        self.state: RunState
        self.state, self.placement_notes = build_state(partition, tree, workload, legacy)
        self.state.explain = options.explain_preemption
        self.notes = over_max_notes(self.state, partition)
        self.unmodelled = tuple(unmodelled(partition, tree, workload))
        self.state.max_fence = version_tuple(options.yunikorn_version) >= MAX_FENCE_VERSION
        self.partition = partition.display_name
        self.events: list[TraceEvent] = []
        self.stopped_by = "idle"
        self.halted: Decision | AllocState | None = None
        """The outcome (or completion) that halt_before_step stopped in front of."""
        self._stop = False
        self._maps: dict[tuple[int, ...], dict[str, int]] = {}
        """One resource map per ask size, shared by the events (never mutated)."""

    def run(self) -> Trace:
        """Process events and cycles until nothing is left, the clock passes --until, or a step limit is hit."""
        state = self.state
        heap, arrivals = state.heap, state.arrivals
        until = self.options.until
        while (heap or state.next_arrival < len(arrivals)) and not self._stop:
            if heap and _stale(heap[0][2], heap[0][3]):
                heapq.heappop(heap)  # a timer that no longer matters must not move the clock
                continue
            if heap and _dormant(state):
                preconditions.make_dormant(state, heapq.heappop(heap)[3])  # type: ignore[arg-type]
                continue
            time = _next_time(state)
            if until is not None and time > until:
                self.stopped_by = "until"
                state.now = max(state.now, until)  # the clock stops at --until
                break
            state.now = time
            while not self._stop:
                item = _pop_due(state, time)
                if item is None:
                    break
                self._event(*item)
            while not self._stop and self._cycle():
                pass
            schedule_old(state)
        if until is not None and self.stopped_by == "idle" and not self._stop and state.now < until:
            state.now = until
        settle_all(state)
        return self.trace()

    def trace(self) -> Trace:
        """The trace of what ran so far, with every pending ask and its reason."""
        state = self.state
        pending = pending_asks(state, self.placement_notes)
        summary = Summary(
            allocations=state.allocations,
            completions=state.completions,
            reservations=state.reservations,
            preemptions=state.victims,
            pending=len(pending),
            steps=len(self.events),
            end_time=state.now,
            nodes=len(state.nodes),
            applications=len(state.apps),
            asks=len(state.asks),
            stopped_by=self.stopped_by,
        )
        attempts = tuple(state.attempt_log)
        return Trace(
            tuple(self.events),
            pending,
            summary,
            self.partition,
            attempts,
            state.explain,
            tuple(self.notes),
            self.unmodelled,
        )

    def _may_step(self, what: Decision | AllocState) -> bool:
        """Whether one more trace event may happen; records why not."""
        step = len(self.events) + 1
        halt = self.options.halt_before_step
        if halt is not None and step >= halt:
            self.halted, self.stopped_by, self._stop = what, "halt", True
            return False
        limit = self.options.max_steps
        if limit is not None and step > limit:
            self.stopped_by, self._stop = "max-steps", True
            return False
        return True

    def _event(self, kind: int, obj: object) -> None:
        state = self.state
        if kind == ARRIVE:
            arrive(state, obj)  # type: ignore[arg-type]
        elif kind == COMPLETE:
            assert isinstance(obj, AllocState)
            if obj.preempted:
                return  # preempted before its end
            if self._may_step(obj):
                complete(state, obj)
                self._emit(COMPLETE_EVENT, obj.app, obj.name, obj.priority, obj.node.name, obj.size, (), "")
        elif kind == OLD:
            become_old(state, obj)  # type: ignore[arg-type]
        elif kind == STARTED:
            starting_timeout(obj)  # type: ignore[arg-type]
        elif kind == PREEMPT_READY:
            preconditions.on_timer(state, obj)  # type: ignore[arg-type]

    def _cycle(self) -> bool:
        """One scheduling cycle. DaemonSet preemption is a side effect of its reservation pass: the victims are
        named first, go only once the cycle's outcome is applied, and the DaemonSet pod is placed in a later cycle
        (until then the victims still count in their queues, as in the core)."""
        held: list[tuple[Preemption, TraceEvent]] = []
        go_on = self._cycle_outcome(held)
        for found, event in held:
            restarted = preempt(self.state, found)
            if restarted:
                event.victims = tuple(
                    replace(v, restarted_as=restarted.get(a, ""))
                    for v, a in zip(event.victims, found.victims, strict=True)
                )
        return go_on or bool(held)

    def _cycle_outcome(self, held: list[tuple[Preemption, TraceEvent]]) -> bool:
        state = self.state
        if state.required_waiting and not self._required_preemptions(held):
            return False
        tries = state.gen, len(state.heap)
        decision = find_decision(state)
        if decision is None:
            # a cycle that only tried preemption (and stamped the asks it tried) is followed by another
            return (state.gen, len(state.heap)) != tries
        if not self._may_step(decision):
            return False
        ask = decision.ask
        if decision.kind == PREEMPT:
            assert decision.preemption is not None
            self._preempted(decision.preemption, "")
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
        self._emit(ALLOCATE, ask.app, ask.name, ask.priority, decision.node.name, ask.size, changes, note)
        return True

    def _preempted(self, found: Preemption, why: str, release: bool = True) -> TraceEvent:
        """Apply a preemption outcome (or, with release False, only mark its victims) and record it as one step
        naming every victim."""
        state, ask = self.state, found.ask
        if release:
            restarted = preempt(state, found)
        else:
            restarted = {}
            for victim in found.victims:
                victim.preempted = True
        victims = tuple(
            Victim(
                v.name,
                v.app.id,
                v.app.leaf.path if v.app.leaf is not None else "",
                v.node.name,
                v.priority,
                self._resources(v.size),
                restarted.get(v, ""),
            )
            for v in found.victims
        )
        count = f"{len(victims)} victim" + ("s" if len(victims) != 1 else "")
        reason = f"{why}node {found.node.name} reserved for the ask; {count} released"
        self._emit(PREEMPT, ask.app, ask.name, ask.priority, found.node.name, ask.size, (), reason, victims)
        return self.events[-1]

    def _required_preemptions(self, held: list[tuple[Preemption, TraceEvent]]) -> bool:
        """RequiredNodePreemptor for required-node asks holding their node, a side effect of the cycle's reservation
        pass (the cycle goes on; the ask is placed in a later cycle): False when the step limit stopped it."""
        state = self.state
        waiting = state.required_waiting
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
        self.state.steps = len(self.events) + 1
        self.events.append(
            TraceEvent(
                step=len(self.events) + 1,
                time=self.state.now,
                type=kind,
                queue_path=app.leaf.path if app.leaf is not None else "",
                application=app.id,
                ask=name,
                priority=priority,
                node=node,
                resources=resources,
                priority_changes=tuple(c for c in changes if c.queue_path != "root"),
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
    tried on a cluster dump): YuniKorn 1.8+ preempts for that only with quota preemption, which yk does not model."""
    from yk_cli.core import properties as props
    from yk_cli.core.properties import format_duration
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
        delay = queue.queue.setting(props.QUOTA_PREEMPTION_DELAY).value
        if not partition.quota_preemption_enabled:
            why = "quota preemption is off: the partition does not set preemption.quotapreemptionenabled"
        elif not delay:
            why = "quota preemption is on but the queue sets no quota.preemption.delay"
        else:
            why = (
                f"YuniKorn would preempt for it after quota.preemption.delay {format_duration(int(delay))} "
                "(quota preemption), which yk does not model yet"
            )
        notes.append(
            f"{queue.path} runs {used}, over its max {limit}, and stays over it in this run ({why}); "
            "no new allocation fits it until enough pods finish"
        )
    return notes


def _next_time(state: RunState) -> int:
    """The time of the next heap event or arrival."""
    arrivals, heap = state.arrivals, state.heap
    if state.next_arrival < len(arrivals):
        first = arrivals[state.next_arrival][0]
        return min(first, heap[0][0]) if heap else first
    return heap[0][0]


def _pop_due(state: RunState, time: int) -> tuple[int, object] | None:
    """The next (kind, object) due at this time, heap events and arrivals merged by (time, seq)."""
    arrivals, heap = state.arrivals, state.heap
    if state.next_arrival < len(arrivals):
        arrival = arrivals[state.next_arrival]
        if arrival[0] == time and (not heap or heap[0][0] > time or arrival[1] < heap[0][1]):
            state.next_arrival += 1
            return ARRIVE, arrival[2]
    if heap and heap[0][0] == time:
        _, _, kind, obj = heapq.heappop(heap)
        return kind, obj
    return None


def _stale(kind: int, obj: object) -> bool:
    """A reservation-delay timer for an ask no longer waiting, or a Starting timeout for an app not Starting."""
    if kind == OLD:
        assert isinstance(obj, AskState)
        return obj.status != PENDING or obj.old
    if kind == STARTED:
        assert isinstance(obj, AppState)
        return obj.state != "Starting"
    if kind == PREEMPT_READY:
        assert isinstance(obj, AskState)
        return obj.status != PENDING or obj.triggered or obj.pready
    if kind == COMPLETE:
        assert isinstance(obj, AllocState)
        return obj.preempted
    return False


def _dormant(state: RunState) -> bool:
    """The next event is an ask's 15 s retry wait ending with nothing changed since its try: it must not move the
    clock (the core's retry would fail the same way); the ask waits for the next change instead."""
    time, _, kind, obj = state.heap[0]
    if kind != PREEMPT_READY:
        return False
    if state.next_arrival < len(state.arrivals) and state.arrivals[state.next_arrival][0] <= time:
        return False
    assert isinstance(obj, AskState)
    return preconditions.unchanged(state, obj) and not state.every_retry


def find_ask(state: RunState, name: str) -> AskState | None:
    """An ask by name, or by application/name."""
    app_id, _, ask_name = name.rpartition("/")
    for ask in state.asks:
        if ask.name == ask_name and (not app_id or ask.app.id == app_id):
            return ask
    return None
