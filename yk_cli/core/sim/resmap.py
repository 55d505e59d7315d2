"""The core's resource-map arithmetic shared by the preemptors (`pkg/common/resources/resources.go`).

A map holds only the types it names, and which types it names matters, so these work on plain dicts; None is the
core's nil.
"""

from __future__ import annotations

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
