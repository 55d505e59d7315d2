"""YuniKorn resource quantities (vcore in millicores, memory in bytes) and resource-vector arithmetic."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

VCORE = "vcore"
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

_QUANTITY = re.compile(r"^(?P<number>[0-9]+)\s*(?P<suffix>([mkKMGTPE]i?)?)$")
_MULTIPLIERS = {
    "k": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "P": 10**15,
    "E": 10**18,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
}
_K8S_QUANTITY = re.compile(
    r"^(?P<sign>[+-]?)(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    r"(?P<suffix>[KMGTPE]i|[eE][+-]?[0-9]+|[numkMGTPE]?)$"
)
_BINARY_MULTIPLIERS = {k: v for k, v in _MULTIPLIERS.items() if k.endswith("i")}
_K8S_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

Resource = dict[str, int]
"""A resource vector: resource name -> amount in internal units (vcore millicores, memory bytes)."""


class QuantityError(ValueError):
    """A quantity YuniKorn cannot parse; the message is YuniKorn's own text."""


def parse_quantity(name: str, text: str) -> int:
    """Parse one quantity as YuniKorn's config does: `2` vcore -> 2000, `500m` -> 500, `1Gi` memory -> 1073741824."""
    match = _QUANTITY.match(text.strip())
    if not match:
        raise QuantityError("invalid quantity")
    number = int(match.group("number"))
    suffix = match.group("suffix")
    scale = 1000 if name == VCORE else 1
    if suffix == "m":
        if name != VCORE:
            raise QuantityError("invalid suffix")
        value = number
    elif suffix == "":
        value = number * scale
    elif suffix in _MULTIPLIERS:
        value = number * _MULTIPLIERS[suffix] * scale
    else:
        raise QuantityError("invalid suffix")
    if value > INT64_MAX:
        raise QuantityError("invalid quantity: overflow")
    return value


def parse_resource(values: Mapping[str, str]) -> Resource:
    """Parse a quantity map; raises QuantityError naming nothing (YuniKorn's texts carry no key)."""
    return {name: parse_quantity(name, str(text)) for name, text in values.items()}


def k8s_quantity(name: str, text: str) -> int | None:
    """A Kubernetes quantity in YuniKorn units: cpu in millicores (MilliValue), anything else Value(), rounded up.

    None when Kubernetes would not parse it (or it does not fit an int64).
    """
    match = _K8S_QUANTITY.match(text.strip())
    if not match:
        return None
    whole, _, frac = match["number"].partition(".")
    numerator = int((whole or "0") + frac)
    exponent = -len(frac)
    suffix = match["suffix"]
    multiplier = _BINARY_MULTIPLIERS.get(suffix, 1)
    if suffix in _K8S_DECIMAL:
        exponent += _K8S_DECIMAL[suffix]
    elif suffix not in _BINARY_MULTIPLIERS:
        exponent += int(suffix[1:])  # e/E exponent
    if name == "cpu":
        exponent += 3
    if exponent > 40 or exponent < -60:
        if numerator == 0:
            return 0
        if exponent > 40:
            return None
    numerator *= multiplier
    value = numerator * 10**exponent if exponent >= 0 else -(-numerator // 10 ** (-exponent))
    if match["sign"] == "-":
        value = -value
    return value if abs(value) <= INT64_MAX else None


def go_map(resource: Mapping[str, int]) -> str:
    """Render like Go prints a Resource map: `map[memory:2000000000 vcore:2000]`."""
    return "map[" + " ".join(f"{k}:{resource[k]}" for k in sorted(resource)) + "]"


def add(left: Mapping[str, int], right: Mapping[str, int]) -> Resource:
    """Component-wise sum."""
    out = dict(left)
    for k, v in right.items():
        out[k] = out.get(k, 0) + v
    return out


def sub(left: Mapping[str, int], right: Mapping[str, int]) -> Resource:
    """Component-wise difference (missing types count as 0)."""
    out = dict(left)
    for k, v in right.items():
        out[k] = out.get(k, 0) - v
    return out


def add_into(target: dict[str, int], other: Mapping[str, int], sign: int = 1) -> None:
    """Add (or subtract, sign=-1) other into target in place."""
    for k, v in other.items():
        target[k] = target.get(k, 0) + sign * v


def fits_in(ask: Mapping[str, int], available: Mapping[str, int]) -> bool:
    """Every type the ask requests is available (types missing from available count as 0)."""
    return all(v <= available.get(k, 0) for k, v in ask.items() if v > 0)


def fits_in_max_undef(ask: Mapping[str, int], headroom: Mapping[str, int]) -> bool:
    """Every type the ask requests fits the headroom; types the headroom does not define are unlimited."""
    return all(v <= headroom[k] for k, v in ask.items() if k in headroom and v > 0)


def component_min(left: Mapping[str, int] | None, right: Mapping[str, int] | None) -> Resource | None:
    """Component-wise minimum over the types either side defines (None means unlimited)."""
    if left is None:
        return dict(right) if right is not None else None
    if right is None:
        return dict(left)
    out = dict(left)
    for k, v in right.items():
        out[k] = min(out[k], v) if k in out else v
    return out


def strictly_greater_than_zero(resource: Mapping[str, int]) -> bool:
    """YuniKorn's StrictlyGreaterThanZero: at least one type > 0 and none < 0."""
    return any(v > 0 for v in resource.values()) and all(v >= 0 for v in resource.values())


def is_zero(resource: Mapping[str, int]) -> bool:
    """All types zero (or empty)."""
    return all(v == 0 for v in resource.values())


def total(resources: Iterable[Mapping[str, int]]) -> Resource:
    """Sum of many vectors."""
    out: Resource = {}
    for r in resources:
        add_into(out, r)
    return out


def format_quantity(name: str, value: int) -> str:
    """Human form of an internal amount: vcore as cores (or m), memory with binary suffixes, others plain."""
    if name == VCORE:
        return f"{value // 1000}" if value % 1000 == 0 else f"{value}m"
    if name == "memory" and value:
        for suffix in ("Ei", "Pi", "Ti", "Gi", "Mi", "Ki"):
            mult = _MULTIPLIERS[suffix]
            if value % mult == 0:
                return f"{value // mult}{suffix}"
    return str(value)


def format_resource(resource: Mapping[str, int]) -> str:
    """`{memory: 4Gi, vcore: 2}` style, keys sorted."""
    return "{" + ", ".join(f"{k}: {format_quantity(k, resource[k])}" for k in sorted(resource)) + "}"
