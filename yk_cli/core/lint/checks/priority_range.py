"""Priority offsets that lift user pods above system-critical pods or into YuniKorn's int32 clamp."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.config.properties import INT32_MAX, INT32_MIN, QueueProperties
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.diagnostics import Path, Problem, warning
from yk_cli.core.lint.checks.placement import dynamic_targets
from yk_cli.core.lint.checks.walk import partition_trees, property_path

USER_PRIORITY_MAX = 1_000_000_000
"""The highest value Kubernetes allows for a user-defined PriorityClass."""
SYSTEM_CLUSTER_CRITICAL = 2_000_000_000
"""The value of the built-in system-cluster-critical PriorityClass."""

PRIORITY_OFFSET_RANGE = warning(
    "priority-offset-range",
    "Priority offsets that lift user pods above system-cluster-critical or into the int32 clamp.",
    "A queue's priority is the highest priority of its pending pods plus its `priority.offset`; a parent's is "
    "the highest of its children plus its own offset, so offsets add up along the path (a "
    "`priority.policy: fence` replaces the sum by that queue's offset). The sum is computed in int64 and "
    "clamped to int32 [-2147483648, 2147483647]. Two things go wrong with large offsets, as the seed design "
    "itself warns: (1) a pod at the highest user PriorityClass value (1000000000) can reach a queue priority "
    "at or above system-cluster-critical (2000000000): its queue is then sorted ahead of queues running "
    "system-critical pods, and when it looks for preemption victims the same sum lets it preempt them; "
    "(2) the sum leaves the int32 range: every priority beyond the threshold collapses to 2147483647 (or "
    "-2147483648, which YuniKorn also uses for a queue with no pending requests), so YuniKorn can no longer "
    "tell those pods apart. yk follows each configured leaf (and the dynamic leaves a childtemplate "
    "produces) up to root and reports the queue where a limit is first crossed. Fix: keep offsets small "
    "(they only need to separate queues, e.g. hundreds or thousands), or fence the subtree.",
)

RULES = (PRIORITY_OFFSET_RANGE,)


@dataclass(frozen=True, slots=True)
class Level:
    """One queue on a leaf's path to root, as the priority calculation sees it."""

    queue: str
    fence: bool
    offset: int
    path: Path
    """Document path of the priority.offset that applies (or of priority.policy for a fence without offset)."""


def check_priority_offsets(config: SchedulerConfig) -> Iterator[Problem]:
    """Offset sums that reach system-cluster-critical or the int32 clamp, reported once per queue."""
    for partition, tree in partition_trees(config):
        found: dict[Path, list[str]] = {}
        for levels in _paths(tree, [t.queue for t in dynamic_targets(partition, tree)]):
            for path, message in _crossings(levels):
                messages = found.setdefault(path, [])
                if message not in messages:
                    messages.append(message)
        for path, messages in found.items():
            yield PRIORITY_OFFSET_RANGE.problem(
                "; ".join(messages),
                path,
                hint="keep offsets far below 1000000000 (they only need to separate queues), or fence the subtree",
            )


def _paths(tree: QueueTree, partition_targets: list[str]) -> Iterator[list[Level]]:
    """For each configured leaf and each dynamic leaf a rule can create, its levels from the leaf up to root."""
    for leaf in tree.leaves():
        if not leaf.dynamic:
            yield [_level(q) for q in leaf.ancestors() if q.parent is not None]
    for target in partition_targets:
        parent = tree.get(target)
        if parent is None:
            continue
        above = [_level(q) for q in parent.ancestors() if q.parent is not None]
        if parent.template is None:
            yield above
            continue
        origin = tree.get(parent.template_origin)
        assert origin is not None and origin.config is not None
        template = parent.template.properties
        entries = QueueProperties({k: (v, props.Source.TEMPLATE, origin.path) for k, v in template.items() if v})
        fence = entries.setting(props.PRIORITY_POLICY).value == "fence"
        offset = int(entries.setting(props.PRIORITY_OFFSET).value)  # type: ignore[call-overload]
        key = props.PRIORITY_OFFSET if props.PRIORITY_OFFSET in template or not fence else props.PRIORITY_POLICY
        doc = (*origin.config.childtemplate.path, "properties", key)
        yield [Level(f"the dynamic leaves under {parent.path}", fence, offset, doc), *above]


def _level(queue: Queue) -> Level:
    """A configured queue's priority settings and where they are written."""
    own = queue.config.properties if queue.config else {}
    fence = queue.priority_fence
    key = props.PRIORITY_OFFSET if props.PRIORITY_OFFSET in own or not fence else props.PRIORITY_POLICY
    return Level(queue.path, fence, queue.priority_offset, property_path(queue, key))


def _crossings(levels: list[Level]) -> Iterator[tuple[Path, str]]:
    """Where a leaf's priority first reaches system-cluster-critical or leaves the int32 range."""
    value = USER_PRIORITY_MAX
    fence = ""
    for level in levels:
        if level.fence:
            if level.offset >= SYSTEM_CLUSTER_CRITICAL:
                yield (
                    level.path,
                    (
                        f"priority.policy fence gives {level.queue} the constant priority {level.offset}, at or above "
                        f"system-cluster-critical ({SYSTEM_CLUSTER_CRITICAL}): it is sorted ahead of queues running "
                        "system-critical pods and its asks may preempt them"
                    ),
                )
            value, fence = level.offset, level.queue
            continue
        raw = value + level.offset
        critical = raw >= SYSTEM_CLUSTER_CRITICAL > value
        clamped = raw > INT32_MAX > value and not fence
        if critical or clamped:
            yield level.path, _high_message(level, raw, fence, critical, clamped)
        value = max(INT32_MIN, min(INT32_MAX, raw))
    yield from _low_clamp(levels)


def _high_message(level: Level, raw: int, fence: str, critical: bool, clamped: bool) -> str:
    """The message for a queue priority that reaches system-cluster-critical and/or the int32 maximum."""
    shift = raw - USER_PRIORITY_MAX
    above = (
        f"at or above system-cluster-critical ({SYSTEM_CLUSTER_CRITICAL}), so it is sorted ahead of queues running "
        "system-critical pods and may preempt them"
    )
    if fence:
        return f"the fenced priority of {fence} plus the offsets above it give {level.queue} priority {raw}, {above}"
    parts = []
    if critical:
        parts.append(
            f"a pod at the highest user PriorityClass ({USER_PRIORITY_MAX}) gets queue priority "
            f"{min(raw, INT32_MAX)}, {above}"
        )
    if clamped:
        parts.append(
            f"every pod of priority {INT32_MAX - shift + 1} or more gets the clamped value {INT32_MAX}, so YuniKorn "
            "can no longer tell those priorities apart"
        )
    return f"priority offsets add up to {shift:+d} at {level.queue}: {'; '.join(parts)}"


def _low_clamp(levels: list[Level]) -> Iterator[tuple[Path, str]]:
    """Where a pod of priority 0 (no PriorityClass) is pushed down to -2147483648."""
    value = 0
    for level in levels:
        if level.fence or value == INT32_MIN:
            return  # above a fence every pod gives the same value: nothing left to tell apart
        raw = value + level.offset
        if raw <= INT32_MIN:
            message = (
                f"priority offsets add up to {raw:+d} at {level.queue}: every pod of priority {INT32_MIN - raw} or "
                f"less (priority 0, no PriorityClass, included) gets the clamped value {INT32_MIN}, the value "
                "YuniKorn gives a queue with no pending requests, so those priorities can no longer be told apart"
            )
            yield level.path, message
        value = max(INT32_MIN, min(INT32_MAX, raw))


CHECKS = (check_priority_offsets,)
