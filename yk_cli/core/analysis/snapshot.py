"""The scheduler's state at a stated virtual time, as `yk priorities --at` and `yk tree -w --at` show it.

The state at time T is the dry run's: everything that happened before T, then what the clock does at T itself
(completions, arrivals, timers), and nothing of the scheduling cycles at T. At 0s (the default) that is the start of
the run before any scheduling: the asks there at the start (a negative submitTime included) are pending, the
workload's allocations run, and every ask that arrives later is listed apart. So the queue priorities shown are
exactly those `yk simulate` sorts with when it schedules at T.

Asks are pending at T as the dry run has them: arrived (an ask arrives at its submitTime, or its application's when
that is later), not yet allocated; a request for no resources never arrives; a gang's real pods are held by the shim
while its placeholders (pending asks of their own) are placed; preempted pods with restartOnPreemption come back as
fresh asks. Running at T: the workload's allocations that have not completed or been preempted, and what the dry run
placed before T.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.ordering.priority import AskBreakdown, PriorityCache
from yk_cli.core.sim.trace import COMPLETE, GANG_TIMEOUT, QUOTA_PREEMPT
from yk_cli.core.workload.model import Allocation, Application, Ask, Workload

if TYPE_CHECKING:
    from yk_cli.core.sim.run import Simulation, SimulationOptions

TIMER_STEPS = (COMPLETE, GANG_TIMEOUT, QUOTA_PREEMPT)
"""Steps the clock makes at a point in time before that time's scheduling cycles."""

LATER = "later"
"""Arrives after the stated time."""
NEVER = "never"
"""Requests no resources: YuniKorn refuses it, it never reaches the scheduler."""
HELD = "held"
"""Arrived, but held by the shim (a gang's real pod while its placeholders are placed, or of a failed gang)."""


@dataclass(frozen=True, slots=True)
class Absent:
    """An ask of a placed application that is not pending at the stated time, and why."""

    application: str
    ask: Ask
    queue_path: str
    why: str
    """LATER, NEVER or HELD."""
    arrival: int = 0
    """Nanoseconds from the start: when it arrives (LATER) or arrived."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What is pending and running at one virtual time, with the queue priorities the scheduler sees then."""

    at: int
    """Nanoseconds from the start of the run."""
    tree: QueueTree
    """The partition's queues (dynamic queues the placement rules created included)."""
    cache: PriorityCache
    """Every application's and queue's priority at that time."""
    placed: tuple[tuple[Application, Queue], ...]
    """Each placed application with only its asks pending then (placeholders included) and its allocations running
    then, in workload order, with its leaf queue."""
    absent: tuple[Absent, ...]
    """Asks of placed applications that are not pending then: those arriving later first, by arrival time (then
    workload order), then those that never arrive or are held."""
    steps: int = 0
    """Steps of the dry run before that time (0 at the start)."""

    @property
    def later(self) -> tuple[Absent, ...]:
        """The asks that arrive after the stated time, in arrival order."""
        return tuple(a for a in self.absent if a.why == LATER)


def state_at(
    partition: PartitionConfig,
    tree: QueueTree,
    workload: Workload,
    placed: Sequence[tuple[Application, Queue]],
    at: int = 0,
    yunikorn_version: str = "",
) -> Snapshot:
    """The state at `at` nanoseconds from the start; placed is every application with its leaf in `tree`, as the
    placement rules put them. At the start of a run without gangs or quota preemption nothing needs the dry run: the
    state is read from the workload (the same as the dry run's, which tests check); otherwise the dry run is halted
    there."""
    if at == 0 and not _needs_run(partition, workload):
        return _at_start(tree, placed)
    return _from_run(partition, tree, workload, at, yunikorn_version)


def _needs_run(partition: PartitionConfig, workload: Workload) -> bool:
    """Whether the state at 0s depends on the dry run: gangs hold their pods and place placeholders; quota preemption
    may act at once."""
    return bool(partition.quota_preemption_enabled) or any(app.task_groups for app in workload.applications)


def arrival_of(app: Application, ask: Ask) -> int:
    """When an ask reaches the scheduler: its submitTime, or its application's when that is later, never before 0."""
    return max(ask.submit_time, app.submit_time, 0)


def _at_start(tree: QueueTree, placed: Sequence[tuple[Application, Queue]]) -> Snapshot:
    """The start of the run, read from the workload."""
    cache = PriorityCache(tree)
    kept: list[tuple[Application, Queue]] = []
    later: list[tuple[int, int, Absent]] = []
    never: list[Absent] = []
    for app, leaf in placed:
        cache.add_app(app.id, leaf)
        pending: list[Ask] = []
        for ask in app.asks:
            arrival = arrival_of(app, ask)
            if not any(ask.resources.values()):
                never.append(Absent(app.id, ask, leaf.path, NEVER, arrival))
            elif arrival > 0:
                later.append((arrival, len(later), Absent(app.id, ask, leaf.path, LATER, arrival)))
            else:
                pending.append(ask)
                cache.add_ask(app.id, ask.priority)
        kept.append((app if len(pending) == len(app.asks) else replace(app, asks=tuple(pending)), leaf))
    later.sort(key=lambda item: (item[0], item[1]))
    return Snapshot(0, tree, cache, tuple(kept), (*(item[2] for item in later), *never))


def _from_run(partition: PartitionConfig, tree: QueueTree, workload: Workload, at: int, version: str) -> Snapshot:
    """Halt the dry run just before its first scheduling step at `at` (after the steps and arrivals the clock makes
    then), or let it reach `at` when it schedules nothing then."""
    from yk_cli.core.sim.cycle import Decision
    from yk_cli.core.sim.run import Simulation, SimulationOptions
    from yk_cli.core.versions import LATEST_VERSION

    version = version or LATEST_VERSION

    def halted_before(step: int | None) -> Simulation:
        options = SimulationOptions(until=at, halt_before_step=step, yunikorn_version=version)
        run = Simulation(partition, tree, workload, options)
        run.run_until_halt()
        return run

    before = 0
    if at > 0:
        before = len(Simulation(partition, tree, workload, _until(at - 1, version)).run().events)
    run = halted_before(before + 1)
    if run.halted is not None and not isinstance(run.halted, Decision):
        # the clock steps first at `at` (a completion, a gang's timeout, quota preemption): find the first cycle step
        events = Simulation(partition, tree, workload, _until(at, version)).run().events
        first = next((e.step for e in events if e.time == at and e.type not in TIMER_STEPS), None)
        run = halted_before(first)
    return _read(run, at)


def _until(at: int, version: str) -> SimulationOptions:
    from yk_cli.core.sim.run import SimulationOptions

    return SimulationOptions(until=at, yunikorn_version=version)


def _read(run: Simulation, at: int) -> Snapshot:
    """The snapshot of a halted (or stopped) run's state."""
    from yk_cli.core.sim.resmap import res_of
    from yk_cli.core.sim.state import PENDING, WAITING, AskState

    state = run.state
    tree = state.tree
    asks: list[AskState] = list(state.asks)
    if state.gang is not None:
        asks.extend(state.gang.placeholders)
    pending: dict[str, list[Ask]] = {}
    later: list[tuple[int, int, Absent]] = []
    other: list[Absent] = []
    for i, found in enumerate(asks):
        leaf = found.app.leaf
        if leaf is None:
            continue
        if found.status == PENDING:
            pending.setdefault(found.app.id, []).append(found.ask)
        elif found.status == WAITING and not found.ask.placeholder:
            if not found.fit:
                other.append(Absent(found.app.id, found.ask, leaf.path, NEVER, found.arrival))
            elif found.arrival > at:
                later.append((found.arrival, i, Absent(found.app.id, found.ask, leaf.path, LATER, found.arrival)))
            else:
                other.append(Absent(found.app.id, found.ask, leaf.path, HELD, found.arrival))
    running: dict[str, list[Allocation]] = {}
    for node in state.nodes:
        for alloc in node.allocations.values():
            if alloc.app.leaf is not None:
                resources = dict(res_of(state, alloc.size))
                running.setdefault(alloc.app.id, []).append(
                    Allocation(alloc.name, alloc.app.id, node.name, alloc.priority, resources, alloc.start)
                )
    placed: list[tuple[Application, Queue]] = []
    for app_state in state.apps:
        leaf_state = app_state.leaf
        queue = tree.get(leaf_state.path) if leaf_state is not None else None
        if queue is None:
            continue
        app = app_state.app
        shown = replace(
            app, asks=tuple(pending.get(app.id, ())), allocations=tuple(_ordered(running.get(app.id, ()), app))
        )
        placed.append((shown, queue))
    later.sort(key=lambda item: (item[0], item[1]))
    absent = (*(item[2] for item in later), *other)
    return Snapshot(at, tree, state.cache, tuple(placed), absent, len(run.events))


def _ordered(running: Iterable[Allocation], app: Application) -> list[Allocation]:
    """Running allocations in workload order (the workload's first, then the dry run's by start and name)."""
    position = {alloc.name: i for i, alloc in enumerate(app.allocations)}
    return sorted(running, key=lambda a: (position.get(a.name, len(position)), a.start_time, a.name))


def placeholder_steps(asks: Iterable[AskBreakdown]) -> list[AskBreakdown]:
    """The breakdowns with a gang placeholder's first step saying where its priority comes from (the shim gives a
    placeholder its application's originator pod's priority, else 0), not Kubernetes' default."""
    out = []
    for item in asks:
        ask = item.ask
        if ask.placeholder:
            detail = (
                f"placeholder of task group {ask.task_group}: {ask.priority}, the priority of its application's "
                "originator pod (0 without one)"
            )
            item = item._replace(steps=(replace(item.steps[0], detail=detail), *item.steps[1:]))
        out.append(item)
    return out
