"""Dynamic priorities of applications and queues, cached and updated incrementally, with their explanation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from yk_cli.core.config import properties as props
from yk_cli.core.config.properties import Setting, Source
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.diagnostics import Path
from yk_cli.core.workload.model import Application, Ask

MIN_PRIORITY = -(2**31)
"""YuniKorn's 'no priority' (math.MinInt32): an application or queue with nothing pending."""
MAX_PRIORITY = 2**31 - 1


def clamp(value: int) -> int:
    """Clamp to int32 as YuniKorn does after adding an offset."""
    return MIN_PRIORITY if value < MIN_PRIORITY else MAX_PRIORITY if value > MAX_PRIORITY else value


def priority_by_policy(fence: bool, offset: int, raw: int) -> int:
    """YuniKorn's priorityValueByPolicy: n/a stays n/a; a fence gives the offset; else offset + raw, clamped."""
    if raw == MIN_PRIORITY:
        return MIN_PRIORITY
    if fence:
        return offset
    return clamp(raw + offset)


def show(priority: int) -> str:
    """A priority as shown to people: 'n/a' for MinInt32."""
    return "n/a" if priority == MIN_PRIORITY else str(priority)


@dataclass(frozen=True, slots=True)
class PriorityChange:
    """A queue whose current priority changed, old -> new (MinInt32 is n/a)."""

    queue_path: str
    old: int
    new: int


@dataclass(eq=False, slots=True)
class QueueState:
    """The cached priority of one queue: its children's (or applications') priorities and its own."""

    queue: Queue
    parent: QueueState | None
    fence: bool
    offset: int
    members: dict[str, int] = field(default_factory=dict)
    """Child queue path or application id -> its current priority (only those not n/a)."""
    raw: int = MIN_PRIORITY
    current: int = MIN_PRIORITY


@dataclass(eq=False, slots=True)
class AppState:
    """The cached priority of one application: counts of pending asks per priority."""

    id: str
    queue: QueueState
    counts: dict[int, int] = field(default_factory=dict)
    current: int = MIN_PRIORITY


class PriorityCache:
    """Current priorities of every application and queue, kept up to date one ask at a time.

    Adding an ask is O(depth) at worst and O(1) when it does not raise its application's priority; removing
    one recomputes a maximum only where the removed value was the maximum.
    """

    def __init__(self, tree: QueueTree) -> None:
        self.tree = tree
        self.queues: dict[str, QueueState] = {}
        for queue in tree.queues.values():
            self._state_of(queue)
        self.apps: dict[str, AppState] = {}

    def _state_of(self, queue: Queue) -> QueueState:
        state = self.queues.get(queue.path)
        if state is None:
            parent = self._state_of(queue.parent) if queue.parent is not None else None
            state = QueueState(queue, parent, queue.priority_fence, queue.priority_offset)
            self.queues[queue.path] = state
        return state

    def add_app(self, app_id: str, queue: Queue) -> None:
        """Register an application in its leaf queue (no pending asks yet: priority n/a)."""
        self.apps[app_id] = AppState(app_id, self._state_of(queue))

    def app_priority(self, app_id: str) -> int:
        """The application's priority: its highest pending ask, or MinInt32."""
        return self.apps[app_id].current

    def queue_priority(self, path: str) -> int:
        """The queue's current priority (MinInt32 when nothing is pending below it)."""
        return self.queues[path].current

    def add_ask(self, app_id: str, priority: int, changes: list[PriorityChange] | None = None) -> None:
        """A new pending ask (or one given back); records queue priority changes into changes if given."""
        app = self.apps[app_id]
        app.counts[priority] = app.counts.get(priority, 0) + 1
        if priority > app.current:
            app.current = priority
            self._member_changed(app.queue, app_id, priority, changes)

    def remove_ask(self, app_id: str, priority: int, changes: list[PriorityChange] | None = None) -> None:
        """An ask stops pending (allocated or removed); recomputes only when it held the maximum."""
        app = self.apps[app_id]
        left = app.counts[priority] - 1
        if left:
            app.counts[priority] = left
            return
        del app.counts[priority]
        if priority == app.current:
            app.current = max(app.counts) if app.counts else MIN_PRIORITY
            self._member_changed(app.queue, app_id, app.current, changes)

    def _member_changed(
        self, state: QueueState | None, member: str, value: int, changes: list[PriorityChange] | None
    ) -> None:
        while state is not None:
            members = state.members
            old_member = members.get(member, MIN_PRIORITY)
            if value == MIN_PRIORITY:
                members.pop(member, None)
            else:
                members[member] = value
            raw = state.raw
            if value > raw:
                raw = value
            elif old_member == raw and value < old_member:
                raw = max(members.values()) if members else MIN_PRIORITY
            state.raw = raw
            new = priority_by_policy(state.fence, state.offset, raw)
            old = state.current
            if new == old:
                return
            state.current = new
            if changes is not None:
                changes.append(PriorityChange(state.queue.path, old, new))
            member, value, state = state.queue.path, new, state.parent


@dataclass(frozen=True, slots=True)
class Cause:
    """A queue property behind a step: the setting in effect and where its text is in the queue config."""

    queue_path: str
    """The queue whose setting it is."""
    setting: Setting
    config_path: Path = ()
    """Document path of the text in effect in the queue config; () for a default."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an effective-priority breakdown: where, what happened, the value after it."""

    queue_path: str
    kind: str
    """ask | application | offset | fence | clamp | n/a."""
    value: int
    detail: str
    sorting: bool = True
    """Whether the parent of this queue sorts its children by priority (application.sort.priority)."""
    causes: tuple[Cause, ...] = ()
    """The properties that produced this step (offset, policy), each with its provenance."""
    note: str = ""
    """Where priority does not order this queue (or application): its parent sorts by fairness first."""


def setting_config_path(queue: Queue, setting: Setting) -> Path:
    """Document path in the queue config of the text behind a queue's setting; () for a default."""
    if setting.source == Source.DEFAULT or not setting.origin:
        return ()
    owner = next((q for q in queue.ancestors() if q.path == setting.origin), None)
    if owner is None or owner.config is None:
        return ()
    if setting.source == Source.TEMPLATE:
        return (*owner.config.childtemplate.path, "properties", setting.key)
    return (*owner.config.path, "properties", setting.key)


def cause(queue: Queue, key: str) -> Cause:
    """The Cause for one property of a queue."""
    setting = queue.setting(key)
    return Cause(queue.path, setting, setting_config_path(queue, setting))


def _sort_note(parent: Queue, what: str) -> str:
    if parent.sort_priority:
        return ""
    return (
        f"{parent.path} has application.sort.priority disabled: it orders its {what} by "
        f"{'fair share' if what == 'child queues' else parent.sort_policy + ' order'} first, priority only breaks ties"
    )


def effective_ask_priority(leaf: Queue, ask_priority: int) -> tuple[int, list[Step]]:
    """The ask's priority carried up its queue path to root's children, with every offset, fence and clamp."""
    steps: list[Step] = []
    value = ask_priority
    queue: Queue | None = leaf
    while queue is not None and queue.parent is not None:
        offset = queue.priority_offset
        parent = queue.parent
        sorting = parent.sort_priority
        note = _sort_note(parent, "child queues")
        causes = (cause(parent, props.SORT_PRIORITY),) if note else ()
        if value == MIN_PRIORITY:
            steps.append(
                Step(
                    queue.path,
                    "n/a",
                    value,
                    "a priority of -2147483648 counts as nothing pending",
                    sorting,
                    causes,
                    note,
                )
            )
        elif queue.priority_fence:
            value = offset
            steps.append(
                Step(
                    queue.path,
                    "fence",
                    value,
                    f"priority.policy fence: {queue.path} shows only its offset {offset}",
                    sorting,
                    (cause(queue, props.PRIORITY_POLICY), cause(queue, props.PRIORITY_OFFSET), *causes),
                    note,
                )
            )
        else:
            total = value + offset
            value = clamp(total)
            offset_cause = (cause(queue, props.PRIORITY_OFFSET), *causes)
            if total != value:
                steps.append(
                    Step(
                        queue.path,
                        "clamp",
                        value,
                        f"priority.offset {offset:+d} gives {total}, outside int32: clamped to {value}",
                        sorting,
                        offset_cause,
                        note,
                    )
                )
            else:
                steps.append(
                    Step(queue.path, "offset", value, f"priority.offset {offset:+d}", sorting, offset_cause, note)
                )
        queue = parent
    return value, steps


def ask_step(leaf: Queue, ask: Ask) -> Step:
    """The first step of a breakdown: the ask's own priority and where it came from."""
    return Step(leaf.path, "ask", ask.priority, ask_origin(ask.priority, ask.priority_source, ask.priority_class))


def application_step(leaf: Queue, app_id: str, app_priority: int, ask_priority: int) -> Step:
    """The second step: the application's current priority, and whether the leaf orders applications by it."""
    note = _sort_note(leaf, "applications")
    detail = f"application {app_id}: currentPriority {show(app_priority)} (its highest pending ask)"
    if app_priority != ask_priority:
        detail = (
            f"application {app_id} passes on the ask's priority {show(ask_priority)}; the application itself sorts at "
            f"currentPriority {show(app_priority)} (its highest pending ask)"
        )
    return Step(
        leaf.path,
        "application",
        ask_priority,
        detail,
        leaf.sort_priority,
        (cause(leaf, props.SORT_PRIORITY),) if note else (),
        note,
    )


def explain_ask(leaf: Queue, ask: Ask, app_priority: int) -> tuple[int, list[Step]]:
    """sprio for one pending ask: its priority and origin, its application, then every queue up to root's children."""
    value, queue_steps = effective_ask_priority(leaf, ask.priority)
    return value, [
        ask_step(leaf, ask),
        application_step(leaf, ask.application, app_priority, ask.priority),
        *queue_steps,
    ]


def ask_origin(priority: int, source: str, priority_class: str) -> str:
    """Where an ask's priority came from, in words (source is Ask.priority_source)."""
    if source == "priorityClass":
        return f"PriorityClass {priority_class}: value {priority}"
    if source == "globalDefault":
        return f"globalDefault PriorityClass {priority_class}: value {priority}"
    if source == "priority":
        return f"spec.priority {priority}" + (f" (PriorityClass {priority_class})" if priority_class else "")
    return f"no priority given: {priority} (Kubernetes' default)"


class AskBreakdown(NamedTuple):
    """One pending ask: its effective priority as seen from root and the steps that led there.

    A named tuple rather than a dataclass: `yk priorities` makes one per pending ask, 100,000 at a time.
    """

    application: str
    ask: Ask
    queue_path: str
    effective: int
    app_priority: int
    steps: tuple[Step, ...]


def pending_priorities(tree: QueueTree, placed: Iterable[tuple[Application, Queue]]) -> PriorityCache:
    """A PriorityCache holding every placed application and its pending asks."""
    cache = PriorityCache(tree)
    for app, leaf in placed:
        cache.add_app(app.id, leaf)
        for ask in app.asks:
            cache.add_ask(app.id, ask.priority)
    return cache


def explain_pending(placed: Iterable[tuple[Application, Queue]], cache: PriorityCache) -> list[AskBreakdown]:
    """explain_ask for every pending ask in file order; equal steps are built once and shared."""
    chains: dict[tuple[str, int], tuple[int, tuple[Step, ...]]] = {}
    firsts: dict[tuple[str, int, str, str], Step] = {}
    out: list[AskBreakdown] = []
    for app, leaf in placed:
        app_priority = cache.app_priority(app.id)
        app_steps: dict[int, Step] = {}
        for ask in app.asks:
            priority = ask.priority
            chain = chains.get((leaf.path, priority))
            if chain is None:
                value, steps = effective_ask_priority(leaf, priority)
                chain = chains[leaf.path, priority] = (value, tuple(steps))
            first_key = (leaf.path, priority, ask.priority_source, ask.priority_class)
            first = firsts.get(first_key)
            if first is None:
                first = firsts[first_key] = ask_step(leaf, ask)
            app_step = app_steps.get(priority)
            if app_step is None:
                app_step = app_steps[priority] = application_step(leaf, app.id, app_priority, priority)
            out.append(AskBreakdown(app.id, ask, leaf.path, chain[0], app_priority, (first, app_step, *chain[1])))
    return out
