"""`yk sweep`'s report: the points best first as a text table, one JSON document, or one CSV row per point."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from io import StringIO
from typing import Any

from yk_cli.core.sweep.constraints import Bound, unmet_bounds
from yk_cli.core.sweep.evaluate import PointResult, metric_keys
from yk_cli.core.sweep.points import Parameter
from yk_cli.report.jsonout import document

TEXT_ROWS = 50
"""Points the text table lists (JSON and CSV list them all)."""


def shown_number(value: float | None, key: str) -> str:
    """A metric's value as the text reports show it: times as durations, utilization in percent."""
    if value is None:
        return "-"
    if key.startswith("utilization"):
        return f"{value * 100:.1f}%"
    if "wait" in key or key.startswith(("fairness-gap", "makespan")):
        return _seconds(value)
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _seconds(value: float) -> str:
    whole = round(value)
    hours, rest = divmod(whole, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes}m{seconds}s"
    if minutes:
        return f"{minutes}m{seconds}s"
    return f"{value:.1f}s" if value < 10 and not float(value).is_integer() else f"{whole}s"


def shown_keys(
    results: Sequence[PointResult], objective: tuple[str, str] | None, parameters: Sequence[Parameter] = (),
    also: Sequence[str] = (),
) -> list[str]:
    """The metric columns of the text table: the objective (unless it is a parameter), the metrics `also` names
    (yk tune's bounds), every pod's p95 wait, pending, preemptions, and each resource type's utilization."""
    keys = metric_keys(results)
    metric = objective is not None and not any(objective[1] in (p.label, p.path) for p in parameters)
    wanted = [objective[1]] if objective is not None and metric else []
    wanted += list(also)
    wanted += ["p95-wait", "pending", "preemptions"] + [k for k in keys if k.startswith("utilization:")]
    out: list[str] = []
    for key in wanted:
        if key not in out and (key in keys or key == wanted[0]):
            out.append(key)
    return out


def render_text(
    source: str,
    parameters: Sequence[Parameter],
    ranked: Sequence[PointResult],
    objective: tuple[str, str] | None,
    unmet: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """The table, best first, then the points YuniKorn refuses with why; with constraints (`unmet`: each run point's
    unmet ones) a column says whether each point meets them."""
    valid = [r for r in ranked if not r.errors]
    invalid = [r for r in ranked if r.errors]
    goal = f"; objective: {objective[0]} {objective[1]}" if objective else ""
    out = [f"yk sweep: {source}: {len(ranked)} points, {len(invalid)} refused{goal}", ""]
    out += table(parameters, valid, shown_keys(valid, objective, parameters), unmet)
    out += refused(parameters, invalid)
    best = [r for r in valid if unmet is None or not unmet.get(r.index)]
    if best and objective:
        out += ["", f"Best: {point_name(parameters, best[0])}: {objective_text(parameters, best[0], objective)}"]
    elif valid and unmet is not None:
        out += ["", "No point meets the constraints."]
    return "\n".join(out) + "\n"


def table(
    parameters: Sequence[Parameter],
    results: Sequence[PointResult],
    keys: Sequence[str],
    unmet: Mapping[int, Sequence[str]] | None = None,
    rows_shown: int = TEXT_ROWS,
) -> list[str]:
    """The points' rows in the order given: rank, point, each parameter's value, `meets` (with constraints), the
    metrics; at most rows_shown of them."""
    header = ["#", "point", *(p.label for p in parameters), *(["meets"] if unmet is not None else []), *keys]
    rows = [
        [str(rank), str(r.index), *(str(v) for v in r.values),
         *([_meets(unmet.get(r.index, ()))] if unmet is not None else []),
         *(shown_number(r.number(k), k) for k in keys)]
        for rank, r in enumerate(results[:rows_shown], start=1)
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    numeric = {0, 1, *range(len(header) - len(keys), len(header))}
    out = ["  ".join(c.rjust(widths[i]) if i in numeric else c.ljust(widths[i]) for i, c in enumerate(row)).rstrip()
           for row in [header, *rows]]
    if len(results) > rows_shown:
        out.append(f"... and {len(results) - rows_shown} more points (--format json or csv lists them all)")
    return out


def _meets(unmet: Sequence[str]) -> str:
    return "yes" if not unmet else f"no ({len(unmet)})"


def refused(parameters: Sequence[Parameter], invalid: Sequence[PointResult]) -> list[str]:
    """The points YuniKorn refuses, with its reasons."""
    if not invalid:
        return []
    out = ["", f"Refused by YuniKorn ({len(invalid)}):"]
    out += [f"  {point_name(parameters, r)}: {'; '.join(r.errors)}" for r in invalid]
    return out


def point_name(parameters: Sequence[Parameter], result: PointResult) -> str:
    """`point 6 (team-b vcore=4, nodes.count=1)`."""
    values = ", ".join(f"{p.label}={v}" for p, v in zip(parameters, result.values, strict=True))
    return f"point {result.index} ({values})"


def objective_text(parameters: Sequence[Parameter], result: PointResult, objective: tuple[str, str]) -> str:
    """The objective and its value at a point: `p95-wait:queue=root.prod 30s`, or `team-b vcore 4`."""
    key = objective[1]
    for parameter, value in zip(parameters, result.values, strict=True):
        if key in (parameter.label, parameter.path):
            return f"{parameter.label} {value}"
    return f"{key} {shown_number(result.number(key), key)}"


def as_dict(
    source: str,
    parameters: Sequence[Parameter],
    ranked: Sequence[PointResult],
    objective: tuple[str, str] | None,
    unmet: Mapping[int, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The sweep as one JSON value: parameters, objective, and every point best first with all its numbers (and,
    with constraints, whether it meets them and which it does not)."""
    return {
        "source": source,
        "parameters": [{"label": p.label, "path": p.path, "values": list(p.values)} for p in parameters],
        "objective": {"direction": objective[0], "metric": objective[1]} if objective else None,
        "points": [point_dict(parameters, r, unmet) for r in ranked],
    }


def point_dict(
    parameters: Sequence[Parameter], result: PointResult, unmet: Mapping[int, Sequence[str]] | None = None
) -> dict[str, Any]:
    """One point as JSON: index, values, YuniKorn's refusal, every metric; `meets` and `unmet` with constraints."""
    out: dict[str, Any] = {
        "index": result.index,
        "values": {p.label: v for p, v in zip(parameters, result.values, strict=True)},
        "refused": list(result.errors),
    }
    if unmet is not None:
        missed = list(unmet.get(result.index, ()))
        out["meets"] = not result.errors and not missed
        out["unmet"] = missed
    out["metrics"] = {k: (round(v, 6) if v is not None else None) for k, v in result.numbers}
    return out


def render_json(
    source: str,
    parameters: Sequence[Parameter],
    ranked: Sequence[PointResult],
    objective: tuple[str, str] | None,
    unmet: Mapping[int, Sequence[str]] | None = None,
) -> str:
    return document(as_dict(source, parameters, ranked, objective, unmet))


def render_csv(
    parameters: Sequence[Parameter], ranked: Sequence[PointResult], unmet: Mapping[int, Sequence[str]] | None = None
) -> str:
    """One row per point, best first: its index, values, YuniKorn's refusal (if any), with constraints whether it
    meets them and the unmet ones, and every metric."""
    keys = metric_keys(ranked)
    out = StringIO()
    writer = csv.writer(out, lineterminator="\n")
    verdict = ["meets", "unmet"] if unmet is not None else []
    writer.writerow(["point", *(p.label for p in parameters), "refused", *verdict, *keys])
    for r in ranked:
        numbers = dict(r.numbers)
        missed = list(unmet.get(r.index, ())) if unmet is not None else []
        verdicts = ["yes" if not r.errors and not missed else "no", "; ".join(missed)] if unmet is not None else []
        writer.writerow([
            r.index, *r.values, "; ".join(r.errors), *verdicts,
            *("" if numbers.get(k) is None else round(numbers[k] or 0.0, 6) for k in keys),
        ])
    return out.getvalue()


def unmet_texts(results: Sequence[PointResult], bounds: Sequence[Bound]) -> dict[int, list[str]]:
    """Each run point's unmet constraints as the reports say them: `p95-wait 2m0s, at most 1m` and the policies'
    broken assertions (`FILE: NAME: message`)."""
    out: dict[int, list[str]] = {}
    for result in results:
        if result.errors:
            continue
        texts = [
            f"{b.metric} {shown_number(result.number(b.metric), b.metric)}, {b.relation.replace('-', ' ')} {b.written}"
            for b in unmet_bounds(result, tuple(bounds))
        ]
        out[result.index] = texts + list(result.failed)
    return out
