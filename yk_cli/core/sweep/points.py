"""The points of a sweep: each parameter's values (a list, a range or a seeded random sample), every combination
in the order the parameters are written."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.config.properties import format_duration, parse_go_duration
from yk_cli.core.resources import VCORE, QuantityError, parse_quantity
from yk_cli.core.sweep.params import Target, Value

MAX_POINTS = 100_000
"""A sweep of more points is refused (a typo in a range more often than a wish)."""
_QUANTITY = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([A-Za-z]*)$")


@dataclass(frozen=True, slots=True)
class Parameter:
    """One varied setting: its label (the column of the reports), its target and its values."""

    label: str
    path: str
    target: Target
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Point:
    """One combination: its 0-based index in the sweep and one value per parameter, in parameter order."""

    index: int
    values: tuple[Value, ...]


def expand(values: object) -> tuple[Value, ...]:
    """A parameter's values from the spec: a list; {from, to, step} (numbers, Go durations, or quantities with one
    unit such as 16Gi); {random: {low, high, count, seed}} (integers when low and high are). ValueError on others."""
    if isinstance(values, list):
        if not values:
            raise ValueError("no values")
        return tuple(_scalar(v) for v in values)
    if isinstance(values, Mapping) and set(values) == {"from", "to", "step"}:
        return _range(values["from"], values["to"], values["step"])
    if isinstance(values, Mapping) and set(values) == {"random"} and isinstance(values["random"], Mapping):
        return _random(values["random"])
    raise ValueError("values: give a list, {from, to, step} or {random: {low, high, count, seed}}")


def _scalar(value: object) -> Value:
    if isinstance(value, (bool, int, float, str)):
        return value
    raise ValueError(f"{value!r} is not a number, a string or a boolean")


def _range(start: object, stop: object, step: object) -> tuple[Value, ...]:
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (start, stop, step)):
        a, b, s = float(start), float(stop), float(step)  # type: ignore[arg-type]
        whole = all(isinstance(v, int) for v in (start, stop, step))
        numbers = _steps(a, b, s)
        return tuple(int(n) if whole else round(n, 12) for n in numbers)
    if all(isinstance(v, str) for v in (start, stop, step)):
        texts = (str(start), str(stop), str(step))
        durations = [parse_go_duration(t) for t in texts]
        if all(d is not None for d in durations) and not all(t.isdigit() for t in texts):
            a, b, s = (int(d or 0) for d in durations)
            return tuple(format_duration(int(n)) for n in _steps(a, b, s))
        parsed = [_QUANTITY.match(t) for t in texts]
        if all(parsed) and len({m.group(2) for m in parsed if m}) == 1:
            unit = parsed[0].group(2) if parsed[0] else ""
            a, b, s = (float(m.group(1)) for m in parsed if m)
            return tuple(f"{int(n) if float(n).is_integer() else round(n, 12)}{unit}" for n in _steps(a, b, s))
    raise ValueError("from, to and step: numbers, Go durations (10s, 5m) or quantities of one unit (8Gi, 16Gi)")


def _steps(start: float, stop: float, step: float) -> list[float]:
    if step <= 0:
        raise ValueError("step must be positive")
    if stop < start:
        raise ValueError("to must not be below from")
    count = int((stop - start) / step + 1e-9) + 1
    if count > MAX_POINTS:
        raise ValueError(f"{count} values: more than {MAX_POINTS}")
    return [start + i * step for i in range(count)]


def _random(spec: Mapping[str, object]) -> tuple[Value, ...]:
    if set(spec) != {"low", "high", "count", "seed"}:
        raise ValueError("random: give low, high, count and seed")
    low, high, count, seed = spec["low"], spec["high"], spec["count"], spec["seed"]
    numbers = [v for v in (low, high) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) != 2 or not isinstance(count, int) or isinstance(count, bool) or not isinstance(seed, int):
        raise ValueError("random: low and high are numbers, count and seed whole numbers")
    if count < 1 or count > MAX_POINTS or numbers[1] < numbers[0]:
        raise ValueError(f"random: count from 1 to {MAX_POINTS}, high not below low")
    rng = random.Random(seed)
    if isinstance(low, int) and isinstance(high, int):
        return tuple(rng.randint(low, high) for _ in range(count))
    return tuple(round(rng.uniform(float(numbers[0]), float(numbers[1])), 6) for _ in range(count))


def ordinals(values: Sequence[Value]) -> list[float] | None:
    """Each value's place in its parameter's order, or None when they cannot be ordered: numbers as they are;
    else quantities (16Gi, 500m, 4) in vcore's scale when every value is one; else Go durations (30s, 2m) in
    nanoseconds when every value is one. Booleans and other text have no order."""
    if any(isinstance(v, bool) for v in values):
        return None
    if all(isinstance(v, (int, float)) for v in values):
        return [float(v) for v in values]
    texts = [str(v).strip() for v in values]
    try:
        return [float(parse_quantity(VCORE, t)) for t in texts]
    except QuantityError:
        pass
    durations = [parse_go_duration(t) for t in texts]
    if all(d is not None for d in durations):
        return [float(d or 0) for d in durations]
    return None


def grid(parameters: Sequence[Parameter]) -> list[Point]:
    """Every combination of the parameters' values, the last parameter varying fastest."""
    total = 1
    for p in parameters:
        total *= len(p.values)
    if total > MAX_POINTS:
        raise ValueError(f"{total:,} points: more than {MAX_POINTS:,}")
    return [Point(i, tuple(combo)) for i, combo in enumerate(itertools.product(*(p.values for p in parameters)))]
