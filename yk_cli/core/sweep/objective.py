"""The order of a sweep's points by its objective: the best first, points that miss yk tune's constraints next,
points whose config YuniKorn refuses last."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.points import Parameter, ordinals

MINIMIZE, MAXIMIZE = "minimize", "maximize"


def ranked(
    results: Sequence[PointResult],
    objective: tuple[str, str] | None,
    parameters: Sequence[Parameter] = (),
    meets: Callable[[PointResult], bool] | None = None,
) -> list[PointResult]:
    """The results best first: those that meet the constraints (every run one without `meets`) by the objective's
    value, then those that do not, then those YuniKorn refused; a point with no value after those with one, and
    point order among equals. The objective is a metric, or a parameter (its label or path) to minimize or maximize."""
    value_of = objective_values(objective[1], parameters) if objective is not None else None
    sign = -1.0 if objective is not None and objective[0] == MAXIMIZE else 1.0

    def order(result: PointResult) -> tuple[int, int, float, int]:
        if result.errors:
            return (2, 0, 0.0, result.index)
        group = 0 if meets is None or meets(result) else 1
        value = value_of(result) if value_of is not None else None
        return (group, 1, 0.0, result.index) if value is None else (group, 0, sign * value, result.index)

    return sorted(results, key=order)


def objective_values(key: str, parameters: Sequence[Parameter]) -> Callable[[PointResult], float | None]:
    """A point's value of the objective: its metric, or the place of its value of the parameter the key names."""
    for position, parameter in enumerate(parameters):
        if key in (parameter.label, parameter.path):
            places = ordinals(parameter.values)
            place: dict[object, float] = dict(zip(parameter.values, places, strict=True)) if places else {}
            return lambda result: place.get(result.values[position])
    return lambda result: result.number(key)


def names_parameter(key: str, parameters: Sequence[Parameter]) -> bool:
    """Whether an objective's key is a parameter's label or path rather than a metric."""
    return any(key in (p.label, p.path) for p in parameters)


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
