"""Priority chains as the core walks them: the preemption victim search (up to the fence, down to a victim's queue)
and an ask's priority carried up to the queue where two asks meet."""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.assertions.model import Evidence
from yk_cli.core.assertions.scope import is_under, property_line, shown
from yk_cli.core.config import properties as props
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import effective_ask_priority

SKIPPED = "skipped"
"""A priority-fenced queue on the way down has an offset above the ask's level: nothing below it is a victim."""
ALL = "all"
"""A priority-fenced queue on the way down lets every pod below it be a victim, whatever its priority."""
LEVEL = "level"
"""Pods of the victim queue at or below the level are victims."""


@dataclass(frozen=True, slots=True)
class Reach:
    """How far an ask of one priority reaches into a victim queue (yunikorn-core FindEligiblePreemptionVictims)."""

    fence_root: Queue
    outcome: str
    """SKIPPED, ALL or LEVEL (or '' when the victim queue is outside the fence root)."""
    level: int
    """The ask's priority as compared with the victim queue's pods (LEVEL), or at the deciding queue."""
    at: Queue | None
    """The priority-fenced queue that decided (SKIPPED, ALL)."""
    steps: tuple[Evidence, ...]


def reach(ask_leaf: Queue, victim_leaf: Queue, priority: int) -> Reach:
    """The victim search of an ask of this priority in ask_leaf, as seen from victim_leaf; exactly the engine's walk
    (the levels are not clamped, as in the core)."""
    steps: list[Evidence] = []
    levels: dict[str, int] = {}
    value = priority
    queue = ask_leaf
    steps.append(Evidence(f"ask of P{priority} in {shown(ask_leaf)}", None, 2))
    while True:
        offset = queue.priority_offset
        if queue.priority_fence:
            value = offset
            steps.append(
                Evidence(
                    f"up: {queue.path} is a priority fence: the ask counts as its offset {offset}",
                    property_line(queue, props.PRIORITY_POLICY),
                    2,
                )
            )
        elif offset:
            steps.append(
                Evidence(
                    f"up: {queue.path} priority.offset {offset:+d}: {value} -> {value + offset}",
                    property_line(queue, props.PRIORITY_OFFSET),
                    2,
                )
            )
            value += offset
        levels[queue.path] = value
        if queue.parent is None or queue.preemption_policy == "fence":
            break
        queue = queue.parent
    fence_root = queue
    if fence_root.parent is not None:
        steps.append(
            Evidence(
                f"the victim search stops at {fence_root.path} (preemption.policy fence)",
                property_line(fence_root, props.PREEMPTION_POLICY),
                2,
            )
        )
    if not is_under(victim_leaf, fence_root):
        return Reach(fence_root, "", value, None, tuple(steps))
    down = [q for q in victim_leaf.ancestors()]
    down.reverse()
    start = down.index(fence_root)
    level = levels[fence_root.path]
    fenced: Queue | None = None
    for child in down[start + 1 :]:
        known = levels.get(child.path)
        if known is not None:
            level = known
            continue
        offset = child.priority_offset
        if child.priority_fence:
            line = property_line(child, props.PRIORITY_POLICY)
            if offset > level:
                steps.append(
                    Evidence(
                        f"down: {child.path} is a priority fence with offset {offset} above the ask's {level} there: "
                        "no pod below it is a victim",
                        line,
                        2,
                    )
                )
                return Reach(fence_root, SKIPPED, level, child, tuple(steps))
            if fenced is None:
                fenced = child
                steps.append(
                    Evidence(
                        f"down: {child.path} is a priority fence with offset {offset} <= the ask's {level} there: "
                        "every pod below it is a victim whatever its priority",
                        line,
                        2,
                    )
                )
        elif offset:
            steps.append(
                Evidence(
                    f"down: {child.path} priority.offset {offset:+d}: {level} -> {level - offset}",
                    property_line(child, props.PRIORITY_OFFSET),
                    2,
                )
            )
            level -= offset
    if fenced is not None:
        return Reach(fence_root, ALL, level, fenced, tuple(steps))
    steps.append(Evidence(f"pods of {shown(victim_leaf)} at P{level} or lower are victims", None, 2))
    return Reach(fence_root, LEVEL, level, None, tuple(steps))


def common_ancestor(left: Queue, right: Queue) -> Queue | None:
    """The lowest queue both are at or below (None when one contains the other)."""
    above = {q.path for q in left.ancestors()}
    if right.path in above:
        return None
    for queue in right.ancestors():
        if queue.path in above:
            return None if queue is left else queue
    return None


def child_towards(ancestor: Queue, queue: Queue) -> Queue:
    """The child of ancestor on the way down to queue."""
    for current in queue.ancestors():
        if current.parent is ancestor:
            return current
    raise ValueError(f"{queue.path} is not below {ancestor.path}")


def carried(leaf: Queue, priority: int, upto: Queue) -> tuple[int, tuple[Evidence, ...]]:
    """An ask's priority carried up from its leaf to upto (inclusive) through offsets, fences and the int32 clamp, as
    queue sorting compares it under upto's parent; each step that changes it names its config text."""
    _, all_steps = effective_ask_priority(leaf, priority)
    value = priority
    out: list[Evidence] = []
    for step in all_steps:
        line = None
        if step.kind == "fence":
            line = property_line(_queue_of(leaf, step.queue_path), props.PRIORITY_POLICY)
        elif step.kind in ("offset", "clamp"):
            line = property_line(_queue_of(leaf, step.queue_path), props.PRIORITY_OFFSET)
        if step.value != value or step.kind == "fence":
            out.append(Evidence(f"{step.queue_path}: {step.detail} -> {step.value}", line, 2))
        value = step.value
        if step.queue_path == upto.path:
            break
    return value, tuple(out)


def _queue_of(leaf: Queue, path: str) -> Queue:
    return next(q for q in leaf.ancestors() if q.path == path)
