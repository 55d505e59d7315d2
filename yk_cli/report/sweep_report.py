"""`yk sweep`'s report: the points best first as a text table, one JSON document, or one CSV row per point."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from io import StringIO
from typing import Any

from yk_cli.core.sweep.evaluate import PointResult, metric_keys
from yk_cli.core.sweep.points import Parameter
from yk_cli.report.jsonout import document

TEXT_ROWS = 50
"""Points the text table lists (JSON and CSV list them all)."""


def _number(value: float | None, key: str) -> str:
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


def shown_keys(results: Sequence[PointResult], objective: tuple[str, str] | None) -> list[str]:
    """The metric columns of the text table: the objective, every pod's p95 wait, pending, preemptions, and each
    resource type's utilization."""
    keys = metric_keys(results)
    wanted = [objective[1]] if objective else []
    wanted += ["p95-wait", "pending", "preemptions"] + [k for k in keys if k.startswith("utilization:")]
    out: list[str] = []
    for key in wanted:
        if key not in out and (key in keys or (objective is not None and key == objective[1])):
            out.append(key)
    return out


def render_text(
    source: str, parameters: Sequence[Parameter], ranked: Sequence[PointResult], objective: tuple[str, str] | None
) -> str:
    """The table, best first, then the points YuniKorn refuses with why."""
    valid = [r for r in ranked if not r.errors]
    invalid = [r for r in ranked if r.errors]
    keys = shown_keys(valid, objective)
    goal = f"; objective: {objective[0]} {objective[1]}" if objective else ""
    out = [f"yk sweep: {source}: {len(ranked)} points, {len(invalid)} refused{goal}", ""]
    header = ["#", "point", *(p.label for p in parameters), *keys]
    rows = [
        [str(rank), str(r.index), *(str(v) for v in r.values), *(_number(r.number(k), k) for k in keys)]
        for rank, r in enumerate(valid[:TEXT_ROWS], start=1)
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    numeric = {0, 1, *range(2 + len(parameters), len(header))}
    for row in [header, *rows]:
        out.append("  ".join(c.rjust(widths[i]) if i in numeric else c.ljust(widths[i]) for i, c in enumerate(row))
                   .rstrip())
    if len(valid) > TEXT_ROWS:
        out.append(f"... and {len(valid) - TEXT_ROWS} more points (--format json or csv lists them all)")
    if invalid:
        out += ["", f"Refused by YuniKorn ({len(invalid)}):"]
        for r in invalid:
            values = ", ".join(f"{p.label}={v}" for p, v in zip(parameters, r.values, strict=True))
            out.append(f"  point {r.index} ({values}): {'; '.join(r.errors)}")
    if valid and objective:
        best = valid[0]
        values = ", ".join(f"{p.label}={v}" for p, v in zip(parameters, best.values, strict=True))
        shown = _number(best.number(objective[1]), objective[1])
        out += ["", f"Best: point {best.index} ({values}): {objective[1]} {shown}"]
    return "\n".join(out) + "\n"


def as_dict(
    source: str, parameters: Sequence[Parameter], ranked: Sequence[PointResult], objective: tuple[str, str] | None
) -> dict[str, Any]:
    """The sweep as one JSON value: parameters, objective, and every point best first with all its numbers."""
    return {
        "source": source,
        "parameters": [{"label": p.label, "path": p.path, "values": list(p.values)} for p in parameters],
        "objective": {"direction": objective[0], "metric": objective[1]} if objective else None,
        "points": [
            {
                "index": r.index,
                "values": {p.label: v for p, v in zip(parameters, r.values, strict=True)},
                "refused": list(r.errors),
                "metrics": {k: (round(v, 6) if v is not None else None) for k, v in r.numbers},
            }
            for r in ranked
        ],
    }


def render_json(
    source: str, parameters: Sequence[Parameter], ranked: Sequence[PointResult], objective: tuple[str, str] | None
) -> str:
    return document(as_dict(source, parameters, ranked, objective))


def render_csv(parameters: Sequence[Parameter], ranked: Sequence[PointResult]) -> str:
    """One row per point, best first: its index, values, YuniKorn's refusal (if any) and every metric."""
    keys = metric_keys(ranked)
    out = StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["point", *(p.label for p in parameters), "refused", *keys])
    for r in ranked:
        numbers = dict(r.numbers)
        writer.writerow([
            r.index, *r.values, "; ".join(r.errors),
            *("" if numbers.get(k) is None else round(numbers[k] or 0.0, 6) for k in keys),
        ])
    return out.getvalue()
