"""The order of a sweep's points by its objective: the best first, points with nothing to measure next, points
whose config YuniKorn refuses last."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.sweep.evaluate import PointResult

MINIMIZE, MAXIMIZE = "minimize", "maximize"


def ranked(results: Sequence[PointResult], objective: tuple[str, str] | None) -> list[PointResult]:
    """The results best first (by point index without an objective, or among equal values)."""
    if objective is None:
        return sorted(results, key=lambda r: (bool(r.errors), r.index))
    direction, key = objective
    sign = 1.0 if direction == MINIMIZE else -1.0

    def order(result: PointResult) -> tuple[int, float, int]:
        if result.errors:
            return (2, 0.0, result.index)
        value = result.number(key)
        return (1, 0.0, result.index) if value is None else (0, sign * value, result.index)

    return sorted(results, key=order)


def unknown_metric(results: Sequence[PointResult], key: str) -> str:
    """'' when some point measured the key, else a message with the keys that look like it."""
    import difflib

    keys = sorted({k for r in results for k, _ in r.numbers})
    if not keys or key in keys:
        return ""
    close = difflib.get_close_matches(key, keys, n=3, cutoff=0.5)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return f"no point measured {key!r}{hint}; metrics are p50-wait .. max-wait[:queue=PATH|:user=NAME], " \
        "pending[:queue=PATH|:user=NAME], utilization:TYPE, lost:TYPE, fairness-gap:PATH, preemptions, makespan"
