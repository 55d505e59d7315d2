"""The JSON document of the sweep report's page: parameters and their scales, points best first, refused points."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.sweep.evaluate import PointResult, metric_keys
from yk_cli.core.sweep.params import GUARANTEED, MAX, Value
from yk_cli.core.sweep.points import Parameter
from yk_cli.report.html.data import Document, Index, number
from yk_cli.report.sweep_report import shown_keys

NUMBER, DURATION, BYTES, CATEGORY = "number", "duration", "bytes", "category"
"""A parameter's scale: where its values sit on an axis (numbers, seconds, bytes) or categories in given order."""
LOWER, HIGHER = "lower", "higher"
SECONDS, FRACTION, COUNT, WORK = "seconds", "fraction", "count", "work"
"""A metric's unit: waits, gaps and makespan in seconds; utilization a fraction; pods and runs counted; work lost
in YuniKorn's units times seconds."""
PARALLEL_METRICS = 5
"""Metrics beside the parameters and the objective on the parallel coordinates (the text report's first ones)."""
_QUANTITY = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([A-Za-z]*)$")
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"": 1.0, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_LOWER_BETTER = ("pending", "lost", "preemptions", "fairness-gap", "makespan")


def better(key: str) -> str | None:
    """Which way a metric is better: waits, pending, work lost, preemptions, fairness gaps and makespan lower,
    utilization higher (None: neither)."""
    if key.startswith("utilization"):
        return HIGHER
    if "-wait" in key or key.startswith(_LOWER_BETTER):
        return LOWER
    return None


def unit(key: str) -> str:
    """The unit of a metric's numbers (as sweep_report formats them)."""
    if key.startswith("utilization"):
        return FRACTION
    if "wait" in key or key.startswith(("fairness-gap", "makespan")):
        return SECONDS
    if key.startswith("lost"):
        return WORK
    return COUNT


def _quantity(text: str) -> tuple[float, bool] | None:
    """A quantity's amount and whether its unit is binary (None: not a quantity)."""
    found = _QUANTITY.match(text)
    if found is None:
        return None
    amount, suffix = float(found.group(1)), found.group(2)
    if suffix in _BINARY:
        return amount * _BINARY[suffix], True
    if suffix in _DECIMAL:
        return amount * _DECIMAL[suffix], False
    return None


def scale(parameter: Parameter, values: Sequence[Value]) -> tuple[str, list[float | int | None]]:
    """The parameter's scale and each value's place on it: numbers as they are, Go durations in seconds,
    quantities (16Gi, 500m) as amounts (bytes when binary or memory); anything else, or a mix, is a category."""
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        places: list[float | int | None] = [_place(float(v)) for v in values]
        return (NUMBER, places) if all(p is not None for p in places) else (CATEGORY, [None] * len(values))
    if not values or not all(isinstance(v, str) for v in values):
        return CATEGORY, [None] * len(values)
    texts = [str(v) for v in values]
    quantity_first = parameter.target.kind in (GUARANTEED, MAX)
    durations = [parse_go_duration(t) for t in texts]
    is_duration = all(d is not None for d in durations) and not all(t.isdigit() for t in texts)
    if is_duration and not quantity_first:
        return DURATION, [_place((d or 0) / 1e9) for d in durations]
    quantities = [_quantity(t) for t in texts]
    if all(q is not None for q in quantities):
        binary = parameter.target.key == "memory" or any(q[1] for q in quantities if q)
        return (BYTES if binary else NUMBER), [_place(q[0]) for q in quantities if q]
    if is_duration:
        return DURATION, [_place((d or 0) / 1e9) for d in durations]
    return CATEGORY, [None] * len(values)


def _place(value: float) -> float | int | None:
    """A parameter's value on its axis, exact (an int when whole; None when not finite)."""
    if not math.isfinite(value):
        return None
    return int(value) if value.is_integer() and abs(value) < 2**63 else round(value, 9)


def _finite(value: float) -> float | int | None:
    return number(value) if math.isfinite(value) else None


def _measured(value: float | None) -> float | int | None:
    return None if value is None else _finite(value)


def _value_key(value: object) -> str:
    """Values compare by type and text: 1, 1.0, True and "1" are four values."""
    return f"{type(value).__name__}:{value!r}"


def _parameters(
    parameters: Sequence[Parameter], ranked: Sequence[PointResult], objective: tuple[str, str] | None
) -> tuple[list[Document], list[dict[str, int]]]:
    """Each parameter's distinct values (its own in given order, then any other a point has), their text and
    place, and the number of each value."""
    out: list[Document] = []
    numbering: list[dict[str, int]] = []
    for i, p in enumerate(parameters):
        values: list[Value] = []
        numbers: dict[str, int] = {}
        for v in [*p.values, *(r.values[i] for r in ranked)]:
            key = _value_key(v)
            if key not in numbers:
                numbers[key] = len(values)
                values.append(v)
        kind, places = scale(p, values)
        goal = objective is not None and objective[1] == p.label and kind != CATEGORY
        out.append({
            "label": p.label,
            "path": p.path,
            "scale": kind,
            "text": [str(v) for v in values],
            "at": places,
            "better": (LOWER if objective[0] == "minimize" else HIGHER) if goal and objective else None,
        })
        numbering.append(numbers)
    return out, numbering


def _objective(objective: tuple[str, str] | None, parameters: Sequence[Document]) -> Document | None:
    if objective is None:
        return None
    direction, key = objective
    found = next((i for i, p in enumerate(parameters) if p["label"] == key and p["scale"] != CATEGORY), None)
    return {"direction": direction, "key": key, "parameter": found}


def _dimension(objective: Document | None, fallback: str, keys: Sequence[str]) -> str | None:
    """The id of the objective's dimension (`p:I` a parameter, `m:KEY` a metric), else of the fallback metric."""
    if objective is not None and objective["parameter"] is not None:
        return f"p:{objective['parameter']}"
    if objective is not None and objective["key"] in keys:
        return f"m:{objective['key']}"
    if fallback in keys:
        return f"m:{fallback}"
    return f"m:{keys[0]}" if keys else None


def _scatter(y: str | None, keys: Sequence[str]) -> Document:
    """The trade-off's default axes: the objective (or p95-wait) against the first resource type's utilization."""
    candidates = [k for k in keys if k.startswith("utilization:")] + ["p95-wait", "pending", *keys]
    x = next((f"m:{k}" for k in candidates if k in keys and f"m:{k}" != y), None)
    return {"x": x, "y": y}


def sweep_document(
    source: str,
    parameters: Sequence[Parameter],
    ranked: Sequence[PointResult],
    objective: tuple[str, str] | None,
    verdicts: Mapping[int, Sequence[str]] | None = None,
    best: Sequence[int] = (),
    focus: Sequence[str] = (),
) -> Document:
    """Everything the sweep report shows, as plain data: the measured points best first as columns (metric key ->
    one number per point), the refused points with YuniKorn's reasons. With an objective on a parameter, the first
    `focus` metric measured is the charts' y axis and the trade-off's x axis (against the parameter)."""
    valid = [r for r in ranked if not r.errors]
    refused = [r for r in ranked if r.errors]
    params, numbering = _parameters(parameters, ranked, objective)
    goal = _objective(objective, params)
    keys = metric_keys(valid)
    columns: dict[str, list[float | int | None]] = {k: [] for k in keys}
    for r in valid:
        measured = dict(r.numbers)
        for k in keys:
            columns[k].append(_measured(measured.get(k)))
    metrics = {k: {"unit": unit(k), "better": better(k)} for k in keys}
    if goal is not None and goal["key"] in metrics:
        metrics[goal["key"]]["better"] = LOWER if goal["direction"] == "minimize" else HIGHER
    constraints = Index()
    unmet: list[list[int] | None] | None = None
    if verdicts is not None:
        unmet = [None if r.index not in verdicts else [constraints.of(c) for c in verdicts[r.index]] for r in valid]
    shown = [k for k in shown_keys(valid, objective) if k in metrics and (goal is None or k != goal["key"])]
    parallel = [k for k in shown if k.startswith(("p95-wait", "pending", "preemptions", "utilization"))]
    y = _dimension(goal, "p95-wait", keys)
    scatter = _scatter(y, keys)
    bound = next((k for k in focus if k in keys), None)
    if goal is not None and goal["parameter"] is not None and bound is not None:
        scatter = {"x": f"m:{bound}", "y": y}
        y = f"m:{bound}"
    if best:
        highlighted = list(best)
    elif verdicts is None and goal is not None and valid:
        highlighted = [valid[0].index]
    else:
        highlighted = []
    return {
        "kind": "sweep",
        "source": source,
        "total": len(ranked),
        "tune": verdicts is not None,
        "parameters": params,
        "objective": goal,
        "metrics": metrics,
        "points": {
            "index": [r.index for r in valid],
            "values": [[numbering[i][_value_key(r.values[i])] for r in valid] for i in range(len(parameters))],
            "metrics": columns,
            "unmet": unmet,
        },
        "refused": [
            {"index": r.index, "values": [numbering[i][_value_key(v)] for i, v in enumerate(r.values)],
             "reasons": list(r.errors)}
            for r in refused
        ],
        "constraints": constraints.values,
        "best": highlighted,
        "shown": shown,
        "parallel": parallel[:PARALLEL_METRICS],
        "y": y,
        "scatter": scatter,
    }
