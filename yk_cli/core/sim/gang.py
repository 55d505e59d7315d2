"""Gang scheduling in the dry run: task groups, placeholders first, real pods held, swapped in, timed out.

Stage of the core's scheduling cycle: placeholder replacement (partition.tryPlaceholderAllocate, between the
reservation pass and the walk; placeholders themselves go through the ordinary walk) and the gang placeholder
timeout (events.GANG_TIMER).

YuniKorn splits gang scheduling between the Kubernetes shim and the core; yk plays both, as they are written:

* shim (yunikorn-k8shim pkg/cache: application.go handleSubmitApplicationEvent, placeholder_manager.go
  createAppPlaceholders, application_state.go, scheduler_callback.go): the application is submitted with its
  PlaceholderAsk (the sum of minMember x minResource over its task groups), its placeholder timeout and style. Once
  the core accepts it, the shim goes Reserving and creates minMember placeholder pods per task group (in task-group
  order, at the priority of the application's originator pod, preemptable and allowed to preempt) and holds the
  real pods back. When every task group has minMember placeholders bound, it goes Running and sends the real pods.
  On a Soft timeout (Resuming) it sends them once every placeholder is gone; on a Hard one (Failing, Failed) it
  fails the application and never sends them. An application that already has a bound pod skips the reservation
  stage (skipReservationStage): no placeholders.
* core (yunikorn-core pkg/scheduler: partition.go AddApplication, objects/application.go tryPlaceholderAllocate,
  addAllocationInternal, removeAllocationInternal, initPlaceholderTimer, timeoutPlaceholderProcessing, canReplace):
  an application whose placeholders exceed its queue's max, or whose queue does not sort fifo, is rejected.
  Placeholders are ordinary asks of the walk. The application goes Accepted -> Running when its allocated
  placeholders equal its PlaceholderAsk. Every cycle, after the reservation pass and before the walk, the first
  application (queue and application sort order) with allocated placeholders swaps its first real pod (ask order)
  in for a placeholder of the pod's task group, on the placeholder's node; a real pod larger than the placeholders
  has them released unused ("cancel placeholder: resource incompatible"). The timer, armed at the first
  placeholder allocation for the timeout (default 15 minutes) counted from the application's creation, releases
  the placeholders: of a Running application only the unused ones; else the application goes Resuming (Soft) or
  Failing (Hard), every placeholder goes, and the last release moves it to Accepted or Failed. A real pod replaces
  only while its group has placeholders not yet replaced or released (canReplace); otherwise it is an ordinary ask.

The shim's answers are immediate (as the oracle harness plays them): released placeholders are gone before the
next cycle. Which placeholder of a group a real pod replaces is Go map order in the core; yk takes the group's
oldest allocated placeholder.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from yk_cli.core.config.properties import format_duration
from yk_cli.core.ordering import policies
from yk_cli.core.ordering.policies import SortKey
from yk_cli.core.ordering.priority import PriorityChange
from yk_cli.core.predicates.model import PodSpec
from yk_cli.core.resources import format_resource
from yk_cli.core.sim import commit, preconditions
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.cycle import Decision
from yk_cli.core.sim.events import CYCLE_INTERVAL, RESERVATION_DELAY
from yk_cli.core.sim.nodes import Fit, NodeState
from yk_cli.core.sim.placing import dynamic_passes, first_node
from yk_cli.core.sim.state import (
    DONE,
    PENDING,
    WAITING,
    AllocState,
    AppState,
    AskState,
    QState,
    Size,
    bump,
    passes,
    vector,
)
from yk_cli.core.sim.trace import REPLACE
from yk_cli.core.workload.model import HARD, Ask

DEFAULT_TIMEOUT = 15 * 60 * 1_000_000_000
"""defaultPlaceholderTimeout: 15 minutes."""
SMALLEST_TIMEOUT = 1_000_000
"""adjustTimeout: a timeout already over when the application is added fires after 1 ms."""
PLACEHOLDER_ORDER = 1 << 40
"""Sort tie-breaker of placeholder asks: after every ask of the workload, in creation order."""

# application states: the core's (objects/application_state.go) and the shim's (pkg/cache/application_state.go)
NEW, ACCEPTED, RUNNING, COMPLETING, RESUMING, FAILING, FAILED = (
    "New",
    "Accepted",
    "Running",
    "Completing",
    "Resuming",
    "Failing",
    "Failed",
)
RESERVING = "Reserving"


@dataclass(eq=False)
class Group:
    """One task group of a gang during the run (the core's PlaceholderData plus the shim's bound count)."""

    name: str
    min_member: int
    size: Size
    fit: Fit
    resources: dict[str, int]
    asks: list[AskState] = field(default_factory=list)
    """Its placeholder asks, in creation order."""
    allocated: list[AllocState] = field(default_factory=list)
    """Allocated placeholders not yet removed, in allocation order."""
    placed: int = 0
    """Placeholders bound (the shim's count: allocations minus preempted ones)."""
    replaced: int = 0
    timed_out: int = 0
    """Placeholders removed other than by a replacement: timeout, incompatible, preempted, never allocated."""
    pod: PodSpec | None = None
    """The placeholders' node constraints (the task group's)."""

    def can_replace(self) -> bool:
        """canReplace: placeholders of the group not yet replaced or removed."""
        return len(self.asks) > self.replaced + self.timed_out


@dataclass(eq=False)
class Gang:
    """One gang application during the run."""

    app: AppState
    groups: dict[str, Group]
    style: str
    timeout: int
    """The timer's length (execTimeout): the configured timeout counted from the application's creation."""
    configured: int
    """placeholderTimeoutInSeconds (or the default) in nanoseconds, for the reports."""
    total: list[int]
    """PlaceholderAsk: minMember x minResource summed over the task groups."""
    allocated: list[int]
    """allocatedPlaceholder."""
    core: str = NEW
    shim: str = RESERVING
    rejected: str = ""
    """Why the core rejected the application ('' when it did not)."""
    skipped: bool = False
    """skipReservationStage: the application already runs pods, so no placeholders."""
    held: list[AskState] = field(default_factory=list)
    """Real asks the shim holds back (Reserving, Resuming, or failed), in arrival order."""
    waiting: list[SortKey] = field(default_factory=list)
    """Entries of pending real asks that can replace a placeholder (canReplace): outside the regular walk."""
    timer: int | None = None
    timed_out_at: int | None = None

    def progress(self) -> str:
        """`task group executors: 3 of 8 placeholders placed` (every task group, comma-separated)."""
        return ", ".join(f"task group {g.name}: {g.placed} of {g.min_member} placeholders placed" for g in self)

    def __iter__(self) -> Iterator[Group]:
        return iter(self.groups.values())


@dataclass(eq=False)
class GangState:
    """Every gang of a run."""

    by_app: dict[AppState, Gang] = field(default_factory=dict)
    placeholders: dict[AskState, tuple[Gang, Group]] = field(default_factory=dict)
    candidates: dict[Gang, None] = field(default_factory=dict)
    """Gangs with real asks waiting to replace a placeholder: the placeholder pass looks only at them."""
    releasing: list[tuple[AskState, Group, list[AllocState]]] = field(default_factory=list)
    """Placeholders a cycle released as incompatible (a real ask larger than them), not yet reported."""
    released: list[tuple[AskState, Group, list[AllocState]]] = field(default_factory=list)
    """Reported, to be removed once the cycle's outcome is applied (the shim confirms after the cycle)."""
    marked: set[AllocState] = field(default_factory=set)
    """Placeholders released this cycle (IsReleased): the rest of the cycle skips them."""
    placements: int = 0
    replacements: int = 0
    timeouts: int = 0

    def replacement(self, state: RunState) -> Decision | None:
        """tryPlaceholderAllocate over the partition: the first gang (queue, then application order) with a real
        ask that can take a placeholder's place; incompatible placeholders met on the way are released."""
        gangs = [g for g in self.candidates if any(g.allocated)]
        if len(gangs) > 1:
            gangs.sort(key=_walk_order)
        for gang in gangs:
            found = self._try(state, gang)
            if found is not None:
                return found
        return None

    def _try(self, state: RunState, gang: Gang) -> Decision | None:
        """Each real ask on the node of each placeholder of its group whose node passes its predicates (the reserve
        check); failing that, the first compatible pair's real ask on the first node that holds it and passes its
        predicates (the allocate check), the placeholder released."""
        first: tuple[AskState, AllocState] | None = None
        for entry in list(gang.waiting):
            ask: AskState = entry[-1]
            group = gang.groups[ask.ask.task_group]
            free = [ph for ph in group.allocated if ph not in self.marked and not ph.preempted]
            if not free:
                continue
            if any(r > p for r, p in zip(ask.size, group.size, strict=True)):
                self.marked.update(free)
                self.releasing.append((ask, group, free))
                continue
            if first is None:
                first = (ask, free[0])
            for ph in free:
                if passes(ask.size, ph.node) and dynamic_passes(state, ask, ph.node):
                    return Decision(REPLACE, ask, ph.node, placeholder=ph)
        if first is not None:
            ask, ph = first
            node = first_node(state, ask)
            if node is not None:
                return Decision(REPLACE, ask, node, placeholder=ph)
        return None

    def route(
        self, state: RunState, ask: AskState
    ) -> Callable[[RunState, AskState, list[PriorityChange] | None], None] | None:
        """How an arriving ask of a gang application reaches the scheduler: held by the shim (None), as an ask
        waiting to replace a placeholder, or as an ordinary ask."""
        gang = self.by_app[ask.app]
        if ask.ask.placeholder:
            return commit.arrive if ask.status == WAITING else None  # (withdrawn by a timeout before it arrived)
        if gang.rejected or gang.shim != RUNNING:
            gang.held.append(ask)
            return None
        group = gang.groups.get(ask.ask.task_group)
        if group is not None and group.can_replace():
            return self._arrive_waiting
        return commit.arrive

    def _arrive_waiting(self, state: RunState, ask: AskState, changes: list[PriorityChange] | None) -> None:
        """A real ask that will replace a placeholder: pending (its priority counts) but outside the walk."""
        app = ask.app
        gang = self.by_app[app]
        ask.status = PENDING
        ask.old = state.clock.now - ask.created > RESERVATION_DELAY
        app.npending += 1
        if app.started and not app.active:
            commit._set_active(app, True)
        if ask.created < app.submit:
            app.submit = ask.created
        state.cache.add_ask(app.id, ask.priority, changes)
        commit._climb(state, app, ask.size, ask.fit, 0, 0, 1, False, False)
        insort(gang.waiting, ask.entry)
        self.candidates[gang] = None

    def placed(self, state: RunState, ask: AskState) -> tuple[str, list[AskState]]:
        """A placeholder was allocated (addAllocationInternal, the shim's onReservationStateChange): the step's
        note and the real asks the shim sends now."""
        gang, group = self.placeholders[ask]
        alloc = ask.alloc
        assert alloc is not None
        self.placements += 1
        state.counters.allocations -= 1  # allocate() counted it: placeholders are not allocations of the workload
        first = not any(gang.allocated)
        group.allocated.append(alloc)
        group.placed += 1
        for i, v in ask.fit:
            gang.allocated[i] = gang.allocated[i] + v
        if first and gang.timer is None and gang.core == ACCEPTED:  # initPlaceholderTimer
            gang.timer = state.clock.now + gang.timeout
            state.clock.push_gang_timer(gang.timer, gang)
        note = f"task group {group.name}: {group.placed} of {group.min_member} placeholders placed"
        if gang.allocated == gang.total and gang.core in (ACCEPTED, COMPLETING):
            gang.core = RUNNING
        send: list[AskState] = []
        if gang.shim == RESERVING and all(g.placed >= g.min_member for g in gang):
            gang.shim = RUNNING
            send, gang.held = gang.held, []
            real = f"{len(send)} real pod{'' if len(send) == 1 else 's'}"
            note += f"; every task group placed: {gang.app.id} is Running and the shim sends its {real}"
        return note, send

    def replace(
        self, state: RunState, ask: AskState, ph: AllocState, node: NodeState
    ) -> tuple[list[PriorityChange], str]:
        """The real ask takes the placeholder's place (tryPlaceholderAllocate, then the shim's release and the core's
        ReplaceAllocation): the placeholder goes, the real allocation comes, on the placeholder's node unless that
        node fails the ask's predicates."""
        gang = self.by_app[ask.app]
        group = gang.groups[ask.ask.task_group]
        self._leave_waiting(gang, ask)
        _count_in(state, ask)
        commit._release(state, ph)
        self._removed(state, gang, group, ph, True)
        changes, _ = commit.allocate(state, ask, node)
        if gang.core == COMPLETING:
            gang.core = RUNNING  # the core's Replaced allocation moves a Completing application back to Running
        self.replacements += 1
        note = f"{codes.REPLACES}{ph.name} (task group {group.name})"
        if node is not ph.node:
            note += f" on another node: {ph.node.name} fails its node predicates"
        if not group.can_replace() and group.min_member > 0:
            note += f"; task group {group.name} has no placeholder left"
        return changes, note

    def apply_releases(self, state: RunState) -> bool:
        """The shim confirms the incompatible releases of the last cycle: the placeholders go."""
        done = self.released
        if not done:
            return False
        self.released = []
        for ask, group, phs in done:
            gang = self.by_app[ask.app]
            for ph in phs:
                if ph.node.allocations.get(ph.name) is ph:
                    commit._release(state, ph)
                    self._removed(state, gang, group, ph, False)
        return True

    def timeout(
        self, state: RunState, gang: Gang, changes: list[PriorityChange]
    ) -> tuple[str, list[AllocState], list[AskState]]:
        """timeoutPlaceholderProcessing: the step's reason, the allocated placeholders released and the real asks
        the shim sends now (Soft: the application resumes as a plain one); queue priority changes go to changes."""
        gang.timer = None
        gang.timed_out_at = state.clock.now
        self.timeouts += 1
        app = gang.app.id
        after = f"placeholder timeout ({format_duration(gang.configured)})"
        allocated = [ph for g in gang for ph in g.allocated if not ph.preempted]
        if gang.core in (RUNNING, COMPLETING) and any(gang.allocated):
            for ph in allocated:  # case 1: only the unused placeholders go; the application runs on
                commit._release(state, ph)
                self._removed(state, gang, self.placeholders[_ask_of(ph)][1], ph, False)
            count = f"{len(allocated)} unused placeholder{'' if len(allocated) == 1 else 's'}"
            return f"{after}: {app} runs on, its {count} released", allocated, []
        pending = [ph for g in gang for ph in g.asks if ph.status in (WAITING, PENDING)]
        hard = gang.style == HARD
        before = gang.core
        if hard and gang.core in (NEW, ACCEPTED, RUNNING):
            gang.core = FAILING
        elif not hard and gang.core in (NEW, ACCEPTED):
            gang.core = RESUMING
        for ask in pending:
            self._withdraw(state, ask, changes)
            self.placeholders[ask][1].timed_out += 1
        for ph in allocated:
            commit._release(state, ph)
            self._removed(state, gang, self.placeholders[_ask_of(ph)][1], ph, False)
        if not allocated:  # nothing to confirm: the state moves on at once
            gang.core = {RESUMING: ACCEPTED, FAILING: FAILED}.get(gang.core, gang.core)
        released = f"{len(allocated)} allocated and {len(pending)} pending placeholder"
        released += "" if len(allocated) + len(pending) == 1 else "s"
        send: list[AskState] = []
        if hard:
            gang.shim = FAILED
            what = (
                f"{gang.progress()}; gangSchedulingStyle Hard: {app} {before} -> Failing, {released} released, "
                f"then Failed; the shim fails the application and never schedules its {len(gang.held)} held pods"
            )
        else:
            gang.shim = RUNNING
            send, gang.held = gang.held, []
            what = (
                f"{gang.progress()}; gangSchedulingStyle Soft: {app} {before} -> Resuming, {released} released, "
                f"then Accepted; the shim sends its {len(send)} real pods as ordinary asks"
            )
        return f"{after}: {what}", allocated, send

    def on_victim(self, state: RunState, alloc: AllocState) -> None:
        """A placeholder was preempted (its resources are already back): the shim does not recreate it."""
        gang, group = self.placeholders[_ask_of(alloc)]
        if alloc in group.allocated:
            group.placed -= 1
            self._removed(state, gang, group, alloc, False)

    def diagnose(
        self, state: RunState, ask: AskState, why: Callable[[RunState, AskState], tuple[str, str]]
    ) -> tuple[str, str] | None:
        """The pending reason of a gang's real ask, when the gang decides it (None: the usual diagnosis)."""
        gang = self.by_app[ask.app]
        if gang.rejected:
            return codes.GANG_REJECTED, gang.rejected
        if ask in gang.held:
            if gang.shim == FAILED:
                when = format_duration(gang.timed_out_at or 0)
                return codes.GANG_FAILED, (
                    f"gang {gang.app.id} failed: its placeholders timed out at {when} with gangSchedulingStyle Hard "
                    f"({gang.progress()}); the shim never schedules its pods"
                )
            return codes.GANG_RESERVING, self._reserving(state, gang, why)
        if ask.status == PENDING and ask.entry in gang.waiting:
            return codes.STOPPED, (
                f"fits now: takes the place of a placeholder of task group {ask.ask.task_group} at its turn; "
                "the run stopped (--until or --max-steps) before"
            )
        return None

    def _reserving(self, state: RunState, gang: Gang, why: Callable[[RunState, AskState], tuple[str, str]]) -> str:
        out = f"held by the shim while gang {gang.app.id} places its placeholders: {gang.progress()}"
        waiting = [ph for g in gang for ph in g.asks if ph.status in (WAITING, PENDING)]
        if waiting:
            first = min(waiting, key=lambda ph: ph.entry)
            code, reason = why(state, first)
            fits = code == codes.STOPPED
            out += f"; next: {first.name}, which fits now" if fits else f"; {first.name} waits: {reason}"
        elif any(g.placed < g.min_member for g in gang):
            out += "; a placeholder was preempted and the shim does not recreate it"
        if gang.timer is not None:
            rule = "fails the application" if gang.style == HARD else "resumes it as a plain application"
            out += f"; at {format_duration(gang.timer)} the placeholders time out and YuniKorn {rule}"
        return out

    def _removed(self, state: RunState, gang: Gang, group: Group, ph: AllocState, replaced: bool) -> None:
        """removeAllocationInternal for a placeholder (its resources already released)."""
        group.allocated.remove(ph)
        if replaced:
            group.replaced += 1
        else:
            group.timed_out += 1
        for i, v in state.fit(ph.size):
            gang.allocated[i] = gang.allocated[i] - v
        if not any(gang.allocated):
            gang.timer = None  # clearPlaceholderTimer
            if gang.core == RESUMING:
                gang.core = ACCEPTED
            elif gang.core == FAILING:
                gang.core = FAILED
            elif not replaced and gang.app.nalloc == 0 and gang.core in (ACCEPTED, RUNNING):
                gang.core = COMPLETING  # hasZeroAllocations: CompleteApplication
        if not group.can_replace():
            self._promote_group(state, gang, group)

    def _promote_group(self, state: RunState, gang: Gang, group: Group) -> None:
        """canReplace no longer holds for the group: its waiting real asks become ordinary asks of the walk."""
        for entry in [e for e in gang.waiting if e[-1].ask.task_group == group.name]:
            ask: AskState = entry[-1]
            self._leave_waiting(gang, ask)
            ask.old = state.clock.now - ask.created > RESERVATION_DELAY
            _count_in(state, ask)
            if not ask.old:
                state.clock.push_old(ask.created + RESERVATION_DELAY + CYCLE_INTERVAL, ask)
            preconditions.on_arrival(state, ask)

    def _leave_waiting(self, gang: Gang, ask: AskState) -> None:
        del gang.waiting[bisect_left(gang.waiting, ask.entry)]
        if not gang.waiting:
            self.candidates.pop(gang, None)

    def _withdraw(self, state: RunState, ask: AskState, changes: list[PriorityChange]) -> None:
        """A pending placeholder ask removed by the timeout (removeAsksInternal): its reservation goes too."""
        if ask.status == WAITING:
            ask.status = DONE
            return
        if ask.reserved is not None:
            commit.unreserve(state, ask)
        app = ask.app
        del app.asks[bisect_left(app.asks, ask.entry)]
        bump(app.sizes, ask.size, -1)
        if ask.old:
            bump(app.old, ask.size, -1)
        app.npending -= 1
        preconditions.leave(state, ask)
        state.cache.remove_ask(app.id, ask.priority, changes)
        commit._climb(state, app, ask.size, ask.fit, -1, 0, -1, ask.old, not app.started)
        ask.status = DONE
        if app.nalloc == 0 and app.npending == 0 and app.active:
            commit._set_active(app, False)


def _ask_of(alloc: AllocState) -> AskState:
    assert alloc.ask is not None
    return alloc.ask


def _count_in(state: RunState, ask: AskState) -> None:
    """Count a pending real ask among the unreserved pending asks of the walk (it is already pending)."""
    app = ask.app
    if app.limits is not None:
        commit.unblock(state, app)
    insort(app.asks, ask.entry)
    bump(app.sizes, ask.size, 1)
    if ask.old:
        bump(app.old, ask.size, 1)
    commit._climb(state, app, ask.size, ask.fit, 1, 0, 0, ask.old, not app.started)


def _walk_order(gang: Gang) -> list[SortKey]:
    """Where the gang's application comes in the walk: its queues' sort entries from the top, then its own."""
    app = gang.app
    keys: list[SortKey] = [app.key()]
    queue: QState | None = app.leaf
    while queue is not None and queue.parent is not None:
        keys.append(queue.key())
        queue = queue.parent
    keys.reverse()
    return keys


def max_set(leaf: QState) -> list[float] | None:
    """GetMaxQueueSet: the component-wise minimum of the configured maxes from the leaf up (root's is not one)."""
    out: list[float] | None = None
    queue: QState | None = leaf
    while queue is not None and queue.parent is not None:
        if queue.max is not None:
            out = list(queue.max) if out is None else [min(a, b) for a, b in zip(out, queue.max, strict=True)]
        queue = queue.parent
    return out


def setup(state: RunState) -> GangState | None:
    """The gangs of the workload: rejected ones, placeholder asks and their arrivals (None: no gang at all)."""
    gangs: GangState | None = None
    for app in state.apps:
        spec = app.app
        leaf = app.leaf
        if not spec.task_groups or leaf is None:
            continue
        if gangs is None:
            gangs = GangState()
        gangs.by_app[app] = gang = _gang(state, app)
        reason = _rejection(state, leaf, gang)
        if reason:
            gang.rejected, gang.shim = reason, ""
            continue
        gang.core = ACCEPTED
        if spec.allocations:
            gang.skipped, gang.shim, gang.core = True, RUNNING, RUNNING
            continue
        _placeholders(state, gangs, gang)
    if gangs is not None:
        state.clock.sort_arrivals()
    return gangs


def _gang(state: RunState, app: AppState) -> Gang:
    spec = app.app
    total = [0] * state.width
    groups: dict[str, Group] = {}
    for tg in spec.task_groups:
        size = vector(tg.min_resource, state.type_index, state.width)
        if state.groups is not None:
            size = state.groups.size(size, tg.pod)
        groups.setdefault(
            tg.name, Group(tg.name, tg.min_member, size, state.fit(size), dict(tg.min_resource), pod=tg.pod)
        )
        for i, v in enumerate(size):
            total[i] = total[i] + v * tg.min_member
    configured = spec.placeholder_timeout or DEFAULT_TIMEOUT
    arrival = _arrival(app)
    timeout = max(spec.submit_time + configured - arrival, SMALLEST_TIMEOUT)  # adjustTimeout: from its creation
    return Gang(app, groups, spec.gang_style, timeout, configured, total, [0] * state.width)


def _arrival(app: AppState) -> int:
    """When the shim submits the application: when its first pod arrives (its submitTime without asks)."""
    spec = app.app
    times = [max(ask.submit_time, spec.submit_time, 0) for ask in spec.asks if ask.resources]
    return min(times) if times else max(spec.submit_time, 0)


def _rejection(state: RunState, leaf: QState, gang: Gang) -> str:
    """partition.AddApplication's checks of an application with a PlaceholderAsk ('' when it is accepted)."""
    if not any(gang.total):
        return ""
    if leaf.policy != policies.FIFO or leaf.stateaware:
        policy = "stateaware" if leaf.stateaware else leaf.policy
        return (
            f"application rejected: queue {leaf.path} sorts its applications {policy}, and YuniKorn runs task groups "
            "in fifo queues only (unsupported sort type)"
        )
    top = max_set(leaf)
    if top is not None and any(v > top[i] for i, v in enumerate(gang.total)):
        asked = {state.types[i]: v for i, v in enumerate(gang.total) if v}
        limit = {state.types[i]: int(m) for i, m in enumerate(top) if m != float("inf")}
        return (
            f"application rejected: its task groups ask {format_resource(asked)} of placeholders, larger than the "
            f"max {format_resource(limit)} of {leaf.path} (task group request larger than max queue allocation)"
        )
    return ""


def _placeholders(state: RunState, gangs: GangState, gang: Gang) -> None:
    """createAppPlaceholders: minMember placeholder asks per task group, sent after the application's pods."""
    app = gang.app
    spec = app.app
    arrival = _arrival(app)
    priority = next((ask.priority for ask in spec.asks if ask.originator), 0)
    made = 0
    for group in gang:
        for i in range(group.min_member):
            name = f"tg-{app.id}-{group.name}-{i}"
            ph = Ask(
                name,
                app.id,
                priority,
                group.resources,
                arrival,
                PLACEHOLDER_ORDER + made,
                task_group=group.name,
                placeholder=True,
                pod=group.pod,
            )
            ask = AskState(ph, app, group.size, group.fit, arrival, PLACEHOLDER_ORDER + made)
            made += 1
            group.asks.append(ask)
            gangs.placeholders[ask] = (gang, group)
            if ask.fit:  # an ask for nothing never reaches the scheduler
                state.clock.add_arrival(arrival, ask)
