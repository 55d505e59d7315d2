"""`yk tune`'s report: the best point that meets the constraints as changes to the config (file:line and a unified
diff), its metrics and the runner-up, then every point run; as text or one JSON document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from yk_cli.core.sweep.changes import CONFIG, SettingChange
from yk_cli.core.sweep.constraints import Bound
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.points import Parameter
from yk_cli.core.sweep.search import BISECT, RANDOM, Plan, SearchSpec
from yk_cli.report.config_patch import ADD, Edit
from yk_cli.report.jsonout import document
from yk_cli.report.sweep_report import (
    TEXT_ROWS,
    objective_text,
    point_dict,
    point_name,
    refused,
    shown_keys,
    shown_number,
    table,
)


@dataclass(slots=True)
class Located:
    """A point's changes, each config one with its edit in the config file (None: not a config setting)."""

    changes: list[tuple[SettingChange, Edit | None]]
    diff: str = ""
    """The unified diff of the config file ('' when nothing in it changes or it could not be edited in place)."""


@dataclass(slots=True)
class TuneReport:
    """Everything `yk tune` found: the search, the constraints, the points run best first and the verdicts."""

    source: str
    config_file: str
    parameters: Sequence[Parameter]
    plan: Plan
    search: SearchSpec
    objective: tuple[str, str]
    bounds: Sequence[Bound]
    policies: Sequence[str]
    ranked: Sequence[PointResult]
    unmet: Mapping[int, Sequence[str]]
    best: Located | None = None
    nearest: PointResult | None = None
    """With no point meeting the constraints: the one nearest to meeting them."""
    warnings: list[str] = field(default_factory=list)

    @property
    def meeting(self) -> list[PointResult]:
        """The points that meet every constraint, best first."""
        return [r for r in self.ranked if not r.errors and not self.unmet.get(r.index)]


def _search_line(report: TuneReport) -> str:
    plan, spec = report.plan, report.search
    run, space = len(report.ranked), plan.space
    text = f"search: {plan.method} ({plan.reason}): {run:,} of {space:,} points run"
    if plan.method == RANDOM:
        text += f", a sample of {min(spec.count, space):,} with seed {spec.seed}"
    if plan.method == BISECT and plan.parameter is not None:
        better = "smallest" if plan.smaller_is_better else "largest"
        text += (f", {spec.width} a round; it takes the constraints to hold from some value of {plan.parameter.label} "
                 f"on and finds the {better} (search: grid runs every value)")
    return text


def _constraint_texts(report: TuneReport) -> list[str]:
    return [b.describe() for b in report.bounds] + [f"every assertion of {p}" for p in report.policies]


def _change_text(report: TuneReport, change: SettingChange, edit: Edit | None) -> str:
    base = change.base if change.base is not None else "not set"
    if change.where != CONFIG:
        whose = "the workload's nodes" if change.where == "cluster" else "the workload"
        return f"{change.where}: {change.path} {base} -> {change.value} ({whose}; not in the config)"
    where = f"{report.config_file}:{edit.line}:{edit.column}" if edit is not None else report.config_file
    how = ""
    if edit is not None and edit.action == ADD:
        how = f" (add {'.'.join(edit.keys)} here)"
    if edit is not None and edit.reason:
        how += f" (not edited in place: {edit.reason})"
    return f"{where}: {change.path}: {base} -> {change.value}{how}"


def _point_lines(report: TuneReport, title: str, result: PointResult, located: Located | None) -> list[str]:
    goal = objective_text(report.parameters, result, report.objective)
    out = [f"{title}: {point_name(report.parameters, result)}: {goal}"]
    met = [f"{b.metric} {shown_number(result.number(b.metric), b.metric)} ({b.relation.replace('-', ' ')} {b.written})"
           for b in report.bounds]
    met += [f"every assertion of {p}" for p in report.policies]
    if met:
        out.append(f"  meets: {'; '.join(met)}")
    keys = shown_keys([result], None)
    out.append("  metrics: " + ", ".join(f"{k} {shown_number(result.number(k), k)}" for k in keys))
    if located is not None:
        changed = [(c, e) for c, e in located.changes if c.changed]
        if not changed:
            out.append("  change: nothing (the base config and workload as they are)")
        for change, edit in changed:
            out.append(f"  change {_change_text(report, change, edit)}")
    return out


def render_text(report: TuneReport) -> str:
    """The answer first (best point, its changes, the runner-up), then every point run, then the config diff."""
    out = [f"yk tune: {report.source}", f"  {_search_line(report)}",
           f"  objective: {report.objective[0]} {report.objective[1]}"]
    constraints = _constraint_texts(report)
    out.append(f"  constraints: {'; '.join(constraints) if constraints else 'none'}")
    out += [f"  warning: {w}" for w in report.warnings]
    out.append("")
    meeting = report.meeting
    if meeting:
        out += _point_lines(report, "Best", meeting[0], report.best)
        if len(meeting) > 1:
            out += _point_lines(report, "Runner-up", meeting[1], None)
        else:
            out.append("Runner-up: none (no other point run meets the constraints)")
    else:
        ran = [r for r in report.ranked if not r.errors]
        out.append(f"No point meets the constraints ({len(ran)} run, {len(report.ranked) - len(ran)} refused).")
        nearest = report.nearest
        if nearest is not None:
            out.append(f"Nearest: {point_name(report.parameters, nearest)} misses: "
                       f"{'; '.join(report.unmet.get(nearest.index, ()))}")
    valid = [r for r in report.ranked if not r.errors]
    also = [b.metric for b in report.bounds]
    out += ["", "Points run, best first:"]
    out += table(report.parameters, valid, shown_keys(valid, report.objective, report.parameters, also), report.unmet)
    missing = [r for r in valid[:TEXT_ROWS] if report.unmet.get(r.index)]
    if missing:
        out += ["", "What the points that miss do not meet:"]
        out += [f"  {point_name(report.parameters, r)}: {'; '.join(report.unmet[r.index])}" for r in missing]
    out += refused(report.parameters, [r for r in report.ranked if r.errors])
    if report.best is not None and report.best.diff:
        out += ["", f"The best point's change to {report.config_file}:", report.best.diff.rstrip("\n")]
    return "\n".join(out) + "\n"


def _change_dict(report: TuneReport, change: SettingChange, edit: Edit | None) -> dict[str, Any]:
    out: dict[str, Any] = {"parameter": change.label, "path": change.path, "where": change.where,
                           "from": change.base, "to": change.value}
    if edit is not None:
        out.update(file=report.config_file, line=edit.line, column=edit.column, action=edit.action,
                   keys=list(edit.keys), not_in_place=edit.reason or None)
    return out


def as_dict(report: TuneReport) -> dict[str, Any]:
    """The tune as one JSON value (`yk schema tune`)."""
    meeting = report.meeting
    plan, spec = report.plan, report.search
    search: dict[str, Any] = {"method": plan.method, "reason": plan.reason, "space": plan.space,
                              "run": len(report.ranked)}
    if plan.method == RANDOM:
        search.update(count=spec.count, seed=spec.seed)
    if plan.method == BISECT:
        search.update(points_per_round=spec.width, parameter=plan.parameter.label if plan.parameter else None)
    best: dict[str, Any] | None = None
    if meeting:
        best = point_dict(report.parameters, meeting[0], report.unmet)
        if report.best is not None:
            best["changes"] = [_change_dict(report, c, e) for c, e in report.best.changes if c.changed]
            best["diff"] = report.best.diff or None
    return {
        "source": report.source,
        "search": search,
        "objective": {"direction": report.objective[0], "key": report.objective[1]},
        "constraints": [{"metric": b.metric, "relation": b.relation, "limit": b.limit, "written": b.written}
                        for b in report.bounds] + [{"policy": p} for p in report.policies],
        "meets": bool(meeting),
        "best": best,
        "runner_up": point_dict(report.parameters, meeting[1], report.unmet) if len(meeting) > 1 else None,
        "nearest": point_dict(report.parameters, report.nearest, report.unmet) if report.nearest else None,
        "warnings": list(report.warnings),
        "points": [point_dict(report.parameters, r, report.unmet) for r in report.ranked],
    }


def render_json(report: TuneReport) -> str:
    return document(as_dict(report))
