"""Dynamic priorities of applications and queues, cached and updated incrementally, with their explanation."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.queues import Queue, QueueTree

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
class Step:
    """One step of an effective-priority breakdown: where, what happened, the value after it."""

    queue_path: str
    kind: str
    """ask | application | offset | fence | clamp | root."""
    value: int
    detail: str
    sorting: bool = True
    """Whether the parent of this queue sorts its children by priority (application.sort.priority)."""


def effective_ask_priority(leaf: Queue, ask_priority: int) -> tuple[int, list[Step]]:
    """The ask's priority carried up its queue path to root's children, with every offset, fence and clamp."""
    steps: list[Step] = []
    value = ask_priority
    queue: Queue | None = leaf
    while queue is not None and queue.parent is not None:
        offset = queue.priority_offset
        sorting = queue.parent.sort_priority
        if queue.priority_fence:
            value = offset
            steps.append(
                Step(
                    queue.path,
                    "fence",
                    value,
                    f"priority.policy fence: {queue.path} shows only its offset {offset}",
                    sorting,
                )
            )
        else:
            total = value + offset
            value = clamp(total)
            if total != value:
                steps.append(Step(queue.path, "clamp", value, f"{total} is outside int32: clamped to {value}", sorting))
            else:
                steps.append(Step(queue.path, "offset", value, f"priority.offset {offset:+d}", sorting))
        queue = queue.parent
    return value, steps
