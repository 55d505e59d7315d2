"""What a point of `yk tune` must meet: bounds on its metrics (at most, at least) and the assertions of `yk check`
policies; a point's unmet ones."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.sweep.evaluate import PointResult

AT_MOST, AT_LEAST = "at-most", "at-least"
NANOS = 1_000_000_000
_PERCENT = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*$")


@dataclass(frozen=True, slots=True)
class Bound:
    """One metric's bound: the metric key, at-most or at-least, the limit in the metric's unit (seconds for times,
    a fraction for utilization) and the limit as written."""

    metric: str
    relation: str
    limit: float
    written: str

    def holds(self, value: float | None) -> bool:
        """Whether a measured value meets the bound (a metric with nothing to measure meets none)."""
        if value is None:
            return False
        return value <= self.limit if self.relation == AT_MOST else value >= self.limit

    def describe(self) -> str:
        return f"{self.metric} {self.relation.replace('-', ' ')} {self.written}"


def is_time(metric: str) -> bool:
    """Whether a metric is a time in seconds (waits, fairness gaps, the makespan)."""
    name = metric.split(":", 1)[0]
    return name.endswith("-wait") or name in ("fairness-gap", "makespan")


def parse_limit(metric: str, written: object) -> float:
    """A bound's limit in the metric's unit: a Go duration or seconds for times, a fraction or a percentage for
    utilization, a number otherwise; ValueError saying what to write."""
    if isinstance(written, bool):
        raise ValueError(f"{written!r} is not a number")
    if is_time(metric):
        if isinstance(written, (int, float)) and written >= 0:
            return float(written)
        nanos = parse_go_duration(str(written).strip()) if isinstance(written, str) else None
        if nanos is None or nanos < 0:
            raise ValueError(f"{written!r} is not a duration (5m, 90s) or a number of seconds")
        return nanos / NANOS
    if metric.startswith("utilization"):
        match = _PERCENT.match(written) if isinstance(written, str) else None
        if match is not None:
            share = float(match.group(1)) / 100
        elif isinstance(written, (int, float)):
            share = float(written)
        else:
            raise ValueError(f"{written!r} is not a fraction (0.6) or a percentage (60%)")
        if not 0 <= share <= 1:
            raise ValueError(f"{written!r}: utilization is a fraction from 0 to 1 (or 0% to 100%)")
        return share
    if isinstance(written, (int, float)) and written >= 0:
        return float(written)
    raise ValueError(f"{written!r} is not a number of at least 0")


def unmet_bounds(result: PointResult, bounds: tuple[Bound, ...]) -> tuple[Bound, ...]:
    """The bounds a run point does not meet, in the spec's order."""
    return tuple(b for b in bounds if not b.holds(result.number(b.metric)))


def meets(result: PointResult, bounds: tuple[Bound, ...]) -> bool:
    """Whether a point ran (YuniKorn took its config) and meets every bound and every policy assertion."""
    return not result.errors and not result.failed and not unmet_bounds(result, bounds)


def nearest_miss(results: Sequence[PointResult], bounds: tuple[Bound, ...]) -> PointResult | None:
    """The run point nearest to meeting the constraints: the fewest unmet, then the least relative excess over the
    unmet bounds, then point order (None when no point ran)."""
    def distance(result: PointResult) -> tuple[int, float, int]:
        missed = unmet_bounds(result, bounds)
        excess = 0.0
        for bound in missed:
            value = result.number(bound.metric)
            excess += 1.0 if value is None else abs(value - bound.limit) / max(abs(bound.limit), 1e-9)
        return (len(missed) + len(result.failed), excess, result.index)

    ran = [r for r in results if not r.errors]
    return min(ran, key=distance) if ran else None
