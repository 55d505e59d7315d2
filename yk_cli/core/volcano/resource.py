"""Volcano's resource vectors (pkg/scheduler/api/resource_info.go) and its comparison helpers, on plain float lists.

A session fixes the order of the dimensions once: cpu (MilliCPU), memory (bytes), pods (a count, as `NewResource`
stores it at HEAD), then every other scalar resource by name (milli-values, as Volcano keeps them). A vector is a
`list[float]` of that length; a dimension a Kubernetes list does not name is 0. Where Volcano treats a missing
dimension as unlimited (`api.Infinity`: a queue capability), the vector holds `math.inf` there.

Tolerance is Volcano's `minResource` (0.1) wherever Volcano uses it; `pods` is skipped where Volcano's
`IsIgnoredScalarResource` skips it (IsEmpty, the WithDimension comparisons), and compared everywhere else.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

MIN_RESOURCE = 0.1
"""Volcano's minResource: the tolerance of LessEqual and the floor below which a dimension counts as absent."""
CPU, MEMORY, PODS = 0, 1, 2
BASE_DIMENSIONS = ("cpu", "memory", "pods")

Vec = list[float]


def is_scalar_name(name: str) -> bool:
    """v1helper.IsScalarResourceName, minus `count/` quotas: extended, prefixed-native, hugepages and volumes."""
    if name.startswith("count/") or name.startswith("requests."):
        return False
    return name.startswith(("hugepages-", "attachable-volumes-")) or "/" in name


def dimensions(names: Iterable[str]) -> tuple[str, ...]:
    """The dimension order of a session: cpu, memory, pods, then the other scalar names sorted."""
    extra = sorted({n for n in names if n not in BASE_DIMENSIONS and (n == "ephemeral-storage" or is_scalar_name(n))})
    return (*BASE_DIMENSIONS, *extra)


def from_milli(quantities: Mapping[str, int], dims: Sequence[str], missing: float = 0.0) -> Vec:
    """NewResource of a Kubernetes list given as milli-values: cpu stays milli, memory and pods become
    `Value()` (rounded up), ephemeral-storage and other scalars stay milli. Names outside `dims` are dropped;
    dimensions the list does not name get `missing` (0, or math.inf for an unlimited capability)."""
    out = [missing] * len(dims)
    for index, name in enumerate(dims):
        if name not in quantities:
            continue
        milli = quantities[name]
        out[index] = float(-((-milli) // 1000)) if name in ("memory", "pods") else float(milli)
    return out


def zero(n: int) -> Vec:
    return [0.0] * n


def add(a: Sequence[float], b: Sequence[float]) -> Vec:
    return [x + y for x, y in zip(a, b, strict=True)]


def sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return [x - y for x, y in zip(a, b, strict=True)]


def iadd(a: Vec, b: Sequence[float]) -> None:
    for i, y in enumerate(b):
        a[i] += y


def isub(a: Vec, b: Sequence[float]) -> None:
    for i, y in enumerate(b):
        a[i] -= y


def exceeded_part(a: Sequence[float], b: Sequence[float]) -> Vec:
    """api.ExceededPart: max(0, a - b) per dimension."""
    return [x - y if x > y else 0.0 for x, y in zip(a, b, strict=True)]


def minimum(a: Sequence[float], b: Sequence[float]) -> Vec:
    return [x if x < y else y for x, y in zip(a, b, strict=True)]


def maximum(a: Sequence[float], b: Sequence[float]) -> Vec:
    return [x if x > y else y for x, y in zip(a, b, strict=True)]


def less_equal(a: Sequence[float], b: Sequence[float]) -> bool:
    """Resource.LessEqual(rr, Zero): a <= b in every dimension, within MIN_RESOURCE (pods compared too)."""
    return all(x < y or abs(x - y) < MIN_RESOURCE for x, y in zip(a, b, strict=True))


def less_equal_names(a: Sequence[float], b: Sequence[float], dims: Sequence[str]) -> list[str]:
    """The dimensions where less_equal fails (LessEqualWithResourcesName's list)."""
    return [dims[i] for i, (x, y) in enumerate(zip(a, b, strict=True)) if not (x < y or abs(x - y) < MIN_RESOURCE)]


def less_equal_with_dimension(a: Sequence[float], b: Sequence[float], req: Sequence[float]) -> bool:
    """LessEqualWithDimension(AndResourcesName): a <= b, strictly (no tolerance), on the dimensions `req` uses
    (> 0), pods ignored."""
    return all(not (i != PODS and r > 0 and a[i] > b[i]) for i, r in enumerate(req))


def less_equal_partly_with_dimension_zero_filtered(
    a: Sequence[float], b: Sequence[float], req: Sequence[float]
) -> bool:
    """LessEqualPartlyWithDimensionZeroFiltered: some dimension `req` uses (pods ignored, and not 0 on both sides)
    has a <= b within MIN_RESOURCE."""
    for i, r in enumerate(req):
        if i == PODS or r <= 0 or (a[i] < MIN_RESOURCE and b[i] < MIN_RESOURCE):
            continue
        if a[i] < b[i] or abs(a[i] - b[i]) < MIN_RESOURCE:
            return True
    return False


def is_empty(a: Sequence[float]) -> bool:
    """Resource.IsEmpty: every dimension but pods below MIN_RESOURCE."""
    return all(x < MIN_RESOURCE for i, x in enumerate(a) if i != PODS)


def share(allocated: Sequence[float], deserved: Sequence[float]) -> tuple[float, int]:
    """updateQueueAttrShare / drf calculateShare: the largest allocated/deserved over the dimensions where deserved
    >= MIN_RESOURCE (helpers.Share), with the index of the dimension that gives it (-1 when none counts)."""
    best, where = 0.0, -1
    for i, d in enumerate(deserved):
        if d < MIN_RESOURCE or math.isinf(d):
            continue
        value = allocated[i] / d
        if value > best:
            best, where = value, i
    return best, where


def fmt_value(name: str, value: float) -> str:
    """One dimension for people: cpu in cores, memory in bytes with a binary unit, counts and scalars plainly."""
    if math.isinf(value):
        return "unlimited"
    if name == "cpu":
        return _trim(value / 1000)
    if name in ("memory", "ephemeral-storage"):
        amount = value / 1000 if name == "ephemeral-storage" else value
        for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
            if abs(amount) >= size:
                return _trim(amount / size) + unit
        return _trim(amount)
    if name == "pods":
        return _trim(value)
    return _trim(value / 1000)


def _trim(number: float) -> str:
    text = f"{number:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def fmt_vec(vec: Sequence[float], dims: Sequence[str], skip_zero: bool = True) -> str:
    """`cpu 1.5, memory 1.53Gi, pods 2` (dimensions that are 0 left out; `-` when all are)."""
    parts = [f"{name} {fmt_value(name, v)}" for name, v in zip(dims, vec, strict=True) if not (skip_zero and v == 0)]
    return ", ".join(parts) if parts else "-"


def as_json(vec: Sequence[float], dims: Sequence[str]) -> dict[str, float | str]:
    """A vector in Volcano's units for JSON: {dimension: value} (non-zero ones; `"unlimited"` for infinity)."""
    out: dict[str, float | str] = {}
    for name, value in zip(dims, vec, strict=True):
        if value == 0:
            continue
        out[name] = "unlimited" if math.isinf(value) else round(value, 6)
    return out
