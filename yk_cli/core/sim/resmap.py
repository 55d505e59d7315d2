"""The core's resource-map arithmetic shared by the preemptors (`pkg/common/resources/resources.go`), and the run's
resource vectors as such maps.

Stage of the core's scheduling cycle: none of its own; the preemption stage (preemption.py: queue and required-node
preemption) and quota preemption (quota.py) work on these maps, as the core's preemptors do. A map holds only the
types it names, and which types it names matters (SubOnlyExisting, FitInActual, StrictlyGreaterThanOnlyExisting,
...), so these work on plain dicts; None is the core's nil.
"""

from __future__ import annotations

from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.nodes import NodeState
from yk_cli.core.sim.state import INF, QState, Size

Res = dict[str, int]
"""A Go *resources.Resource: None is nil; the keys are the types the map names."""


def sub_only_existing(base: Res | None, delta: Res | None) -> Res | None:
    """SubOnlyExisting: base minus delta over base's types."""
    if base is None or delta is None:
        return None if base is None else dict(base)
    return {k: v - delta.get(k, 0) for k, v in base.items()}


def component_wise_min(left: Res | None, right: Res | None) -> Res | None:
    """ComponentWiseMin over the union of types."""
    if left is None:
        return None if right is None else dict(right)
    if right is None:
        return dict(left)
    out = dict(right)
    for k, v in left.items():
        out[k] = min(v, right[k]) if k in right else v
    return out


def component_wise_min_only_existing(left: Res | None, right: Res | None) -> Res | None:
    """ComponentWiseMinOnlyExisting: over left's types."""
    if left is None:
        return None
    if right is None:
        return dict(left)
    return {k: min(v, right[k]) if k in right else v for k, v in left.items()}


def strictly_only_existing(larger: Res | None, smaller: Res | None, or_equal: bool) -> bool:
    """internalStrictlyOnlyExisting: larger vs smaller over their common types."""
    larger, smaller = larger or {}, smaller or {}
    not_equal = equal = common = False
    all_positive = True
    for k, v in larger.items():
        if not smaller and v <= 0:
            all_positive = False
        if k in smaller:
            common = True
            other = smaller[k]
            if other > v:
                return False
            equal = True
            if other != v:
                not_equal = True
    if not smaller and larger:
        return all_positive
    if common:
        return equal if or_equal else not_equal
    return bool(larger) and bool(smaller)


def sgte_only_existing(larger: Res | None, smaller: Res | None) -> bool:
    """StrictlyGreaterThanOrEqualsOnlyExisting."""
    return strictly_only_existing(larger, smaller, True)


def fit_in(larger: Res | None, smaller: Res | None) -> bool:
    """FitIn: every type of smaller fits larger (a missing or negative larger value counts as 0)."""
    if smaller is None:
        return True
    larger = larger or {}
    return all(v <= max(0, larger.get(k, 0)) for k, v in smaller.items())


def fit_in_actual(larger: Res | None, smaller: Res | None) -> bool:
    """FitInActual: types larger does not name are skipped; negative values count as they are."""
    if smaller is None:
        return True
    larger = larger or {}
    return all(k not in larger or v <= larger[k] for k, v in smaller.items())


def merge_if_not_present(left: Res | None, right: Res | None) -> Res | None:
    """MergeIfNotPresent: left, plus the types only right names."""
    if left is None:
        return None if right is None else dict(right)
    if right is None:
        return dict(left)
    out = dict(left)
    for k, v in right.items():
        out.setdefault(k, v)
    return out


def strictly_greater_than_or_equals(larger: Res | None, smaller: Res | None) -> bool:
    """StrictlyGreaterThanOrEquals: larger >= smaller in every type either names (missing is 0)."""
    larger, smaller = larger or {}, smaller or {}
    return all(smaller.get(k, 0) <= v for k, v in larger.items()) and all(
        larger.get(k, 0) >= v for k, v in smaller.items()
    )


def add(left: Res | None, right: Res | None) -> Res:
    """Add: the sum over the union of types."""
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) + v
    return out


def sub_eliminate_negative(left: Res, right: Res) -> Res:
    """SubEliminateNegative: left minus right, negative amounts as 0."""
    out = dict(left)
    for k, v in right.items():
        out[k] = max(0, out.get(k, 0) - v)
    return out


def equals_or_empty(left: Res | None, right: Res | None) -> bool:
    """EqualsOrEmpty: the same amounts in every type (missing is 0), or both empty."""
    if not any((left or {}).values()) and not any((right or {}).values()):
        return True
    left, right = left or {}, right or {}
    return all(right.get(k, 0) == v for k, v in left.items()) and all(left.get(k, 0) == v for k, v in right.items())


# --- the run's vectors as maps ---------------------------------------------------------------------------------


def res_of(state: RunState, size: Size) -> Res:
    """A size vector as the core's resource map (types with a non-zero amount)."""
    found = state.caches.res_maps.get(size)
    if found is None:
        types = state.types
        found = state.caches.res_maps[size] = {types[i]: v for i, v in enumerate(size) if v}
    return found


def allocated_of(state: RunState, queue: QState) -> Res:
    """A queue's allocated resources as the core keeps them (zero amounts pruned)."""
    types = state.types
    return {types[i]: v for i, v in enumerate(queue.allocated) if v}


def node_available(state: RunState, node: NodeState) -> Res:
    """A node's free resources over the types it has."""
    types = state.types
    return {types[i]: v for i, v in enumerate(node.available) if types[i] in node.capacity_map or v}


def effective_max(state: RunState, queue: QState) -> Res | None:
    """GetMaxResource: the component-wise min of the maxes on the path (root's max is the cluster)."""
    limit: Res | None = None
    for ancestor in reversed(queue.ancestors()):
        own = _own_max(state, ancestor)
        if limit is None:
            limit = dict(own) if own is not None else None
        elif own is not None:
            limit = component_wise_min(limit, own)
    return limit


def _own_max(state: RunState, queue: QState) -> Res | None:
    if queue.max is None:
        return None
    types = state.types
    return {types[i]: int(v) for i, v in enumerate(queue.max) if v != INF}
