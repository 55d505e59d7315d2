"""Each queue's allocation against its guarantee and max, and the remaining guarantee YuniKorn's preemption sees."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.resources import Resource

TypeState = Literal["under", "at", "over"]
GuaranteeState = Literal["under", "at", "over", "none"]


@dataclass(frozen=True, slots=True)
class QueueGuarantee:
    """One queue: allocated against guaranteed and max, and its remaining guarantee as preemption computes it."""

    path: str
    allocated: Resource
    """What the queue and its descendants run (internal units)."""
    guaranteed: Resource | None
    """The queue's own guarantee (None when unset)."""
    max: Resource | None
    """The queue's own max (None when unset)."""
    types: dict[str, TypeState]
    """Per type the queue guarantees (sorted): allocated below, equal to or above the guarantee."""
    state: GuaranteeState
    """under when some guaranteed type is below; else over when some is above; else at; none without a guarantee."""
    remaining: Resource | None
    """Guaranteed - allocated over the queue's guaranteed types, component-wise min with the parent's remaining
    (YuniKorn's GetRemainingGuaranteedResource with no ask in play); None when nothing on the path guarantees."""
    remaining_from: dict[str, str]
    """Type -> path of the queue whose own remaining value is that minimum (the nearest one on a tie)."""
    over_max: tuple[str, ...]
    """Types in which allocated exceeds the queue's own max (sorted)."""
    victim_source: bool | None
    """Leaves: whether preemption may take victims here (remaining unset or negative in some type, and
    preemption.policy not disabled); None for parents."""

    @property
    def mixed(self) -> bool:
        """Some guaranteed type is under and another over."""
        return "under" in self.types.values() and "over" in self.types.values()


def type_states(allocated: Mapping[str, int], guaranteed: Mapping[str, int] | None) -> dict[str, TypeState]:
    """Per guaranteed type (sorted): under, at or over; types the queue does not guarantee are left out."""
    out: dict[str, TypeState] = {}
    for name, limit in sorted((guaranteed or {}).items()):
        used = allocated.get(name, 0)
        out[name] = "under" if used < limit else "over" if used > limit else "at"
    return out


def overall_state(types: Mapping[str, TypeState]) -> GuaranteeState:
    """The queue's state: none without guaranteed types, under if any type is under, over if any is over, else at."""
    if not types:
        return "none"
    states = set(types.values())
    return "under" if "under" in states else "over" if "over" in states else "at"


def over_max_types(allocated: Mapping[str, int], maximum: Mapping[str, int] | None) -> tuple[str, ...]:
    """The types of max that allocated exceeds, sorted."""
    return tuple(sorted(name for name, limit in (maximum or {}).items() if allocated.get(name, 0) > limit))


def remaining_guarantee(
    path: str,
    allocated: Mapping[str, int],
    guaranteed: Mapping[str, int] | None,
    parent: tuple[Resource, dict[str, str]] | None,
) -> tuple[Resource, dict[str, str]] | None:
    """(remaining, type -> queue it comes from) from the queue's own values and its parent's result; None when
    neither the queue nor any ancestor guarantees anything."""
    if not guaranteed and parent is None:
        return None
    remaining: Resource = {}
    source: dict[str, str] = {}
    if parent is not None:
        remaining, source = dict(parent[0]), dict(parent[1])
    for name, limit in (guaranteed or {}).items():
        own = limit - allocated.get(name, 0)
        if name not in remaining or own <= remaining[name]:
            remaining[name], source[name] = own, path
    return dict(sorted(remaining.items())), dict(sorted(source.items()))


def queue_guarantee(
    queue: Queue, allocated: Mapping[str, int], parent: tuple[Resource, dict[str, str]] | None
) -> QueueGuarantee:
    """One queue's figures, given its allocation and its parent's remaining guarantee."""
    types = type_states(allocated, queue.guaranteed)
    remaining = remaining_guarantee(queue.path, allocated, queue.guaranteed, parent)
    victim: bool | None = None
    if queue.is_leaf:
        below = remaining is None or any(v < 0 for v in remaining[0].values())
        victim = below and queue.preemption_policy != "disabled"
    return QueueGuarantee(
        path=queue.path,
        allocated=dict(sorted(allocated.items())),
        guaranteed=dict(sorted(queue.guaranteed.items())) if queue.guaranteed else None,
        max=dict(sorted(queue.max.items())) if queue.max else None,
        types=types,
        state=overall_state(types),
        remaining=remaining[0] if remaining is not None else None,
        remaining_from=remaining[1] if remaining is not None else {},
        over_max=over_max_types(allocated, queue.max),
        victim_source=victim,
    )


def queue_guarantees(tree: QueueTree, allocated: Mapping[str, Mapping[str, int]]) -> dict[str, QueueGuarantee]:
    """Every queue of the tree by path, parents first; `allocated` maps a queue path to what runs in its subtree
    (queues missing from it run nothing)."""
    out: dict[str, QueueGuarantee] = {}
    stack = [tree.root]
    while stack:
        queue = stack.pop()
        above = out[queue.parent.path] if queue.parent is not None else None
        parent = (above.remaining, above.remaining_from) if above is not None and above.remaining is not None else None
        out[queue.path] = queue_guarantee(queue, allocated.get(queue.path, {}), parent)
        stack.extend(reversed(queue.children))
    return out
