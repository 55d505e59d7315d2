"""`yk diff --fail-on`: the conditions a diff can be gated on, and which of them hold."""

from __future__ import annotations

import math
from dataclasses import dataclass
from difflib import get_close_matches

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.diagnostics import Level
from yk_cli.core.diff.metrics_diff import WAITS, gaps_grown, utilization_fallen, waits_grown
from yk_cli.core.diff.model import LATER, NOW_WAITS, Diff

NEW_ERRORS = "new-errors"
LATER_START = "later-start"
NEW_PENDING = "new-pending"
NEW_PREEMPTION = "new-preemption"
PRIORITY_DROP = "priority-drop"
PLACEMENT_CHANGE = "placement-change"
ORDER_CHANGE = "order-change"
ANY = "any"
WAIT_CONDITIONS = {f"{which}-wait": which for which in WAITS}
"""p50-wait=+10%: the wait percentile (or max) of every pod, or of a queue, grew by more than 10 %."""
UTILIZATION = "utilization"
"""utilization=-5%: the cluster's mean utilization of a resource type fell by more than 5 % of its OLD value."""
FAIRNESS_GAP = "fairness-gap"
"""fairness-gap=+10%: a queue's fairness gap grew by more than 10 %."""
METRIC_CONDITIONS = (*WAIT_CONDITIONS, UTILIZATION, FAIRNESS_GAP)
"""The conditions on the runs' metrics: they take a percentage and make yk diff compute the metrics."""
CONDITIONS = (
    NEW_ERRORS,
    LATER_START,
    NEW_PENDING,
    NEW_PREEMPTION,
    PRIORITY_DROP,
    PLACEMENT_CHANGE,
    ORDER_CHANGE,
    *METRIC_CONDITIONS,
    ANY,
)
DEFAULT = (NEW_ERRORS,)


@dataclass(frozen=True, slots=True)
class FailOn:
    """One --fail-on condition; later-start may carry a tolerance (nanoseconds), a metrics condition its share
    (0.1 for 10 %)."""

    name: str
    tolerance: int = 0
    share: float = 0.0

    def __str__(self) -> str:
        if self.name == LATER_START and self.tolerance:
            from yk_cli.core.config.properties import format_duration

            return f"{self.name}={format_duration(self.tolerance)}"
        if self.name in METRIC_CONDITIONS:
            sign = "-" if self.name == UTILIZATION else "+"
            return f"{self.name}={sign}{self.share * 100:g}%"
        return self.name


def parse_fail_on(texts: list[str]) -> list[FailOn]:
    """Conditions from `--fail-on` values (repeatable, or comma-separated); ValueError naming a bad one."""
    out: list[FailOn] = []
    for text in texts:
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            name, _, value = item.partition("=")
            if name not in CONDITIONS:
                close = get_close_matches(name.lower().replace("_", "-"), CONDITIONS, n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(f"--fail-on {item!r}{hint}: choose among {', '.join(CONDITIONS)}")
            tolerance = 0
            if name in METRIC_CONDITIONS:
                out.append(FailOn(name, share=_share(item, name, value)))
                continue
            if value or "=" in item:
                if name != LATER_START:
                    raise ValueError(f"--fail-on {item!r}: only later-start takes a duration (later-start=10m)")
                parsed = parse_go_duration(value)
                if parsed is None or parsed < 0:
                    raise ValueError(f"--fail-on {item!r}: {value!r} is not a duration (e.g. 30s, 10m, 1h)")
                tolerance = parsed
            out.append(FailOn(name, tolerance))
    return out


def _share(item: str, name: str, value: str) -> float:
    """The percentage of a metrics condition: `+10%` (a growth) or `-5%` for utilization (a fall); the sign may be
    left out. ValueError when it is not one."""
    sign = "-" if name == UTILIZATION else "+"
    example = f"{name}={sign}10%"
    text = value.strip()
    if text.startswith(("+", "-")):
        if text[0] != sign:
            word = "a fall" if sign == "-" else "a growth"
            raise ValueError(f"--fail-on {item!r}: {name} takes {word} ({example})")
        text = text[1:]
    if not text.endswith("%"):
        raise ValueError(f"--fail-on {item!r}: give a percentage ({example})")
    try:
        share = float(text[:-1]) / 100
    except ValueError:
        raise ValueError(f"--fail-on {item!r}: give a percentage ({example})") from None
    if not math.isfinite(share) or share < 0:
        raise ValueError(f"--fail-on {item!r}: give a percentage ({example})")
    return share


def wants_metrics(conditions: list[FailOn]) -> bool:
    """Whether a condition reads the runs' metrics."""
    return any(c.name in METRIC_CONDITIONS for c in conditions)


def holds(diff: Diff, condition: FailOn) -> bool:
    """Whether the condition holds on this diff."""
    name = condition.name
    if name == ANY:
        return not diff.empty
    if name == NEW_ERRORS:
        return any(p.level == Level.ERROR for p in diff.config.problems.introduced)
    workload = diff.workload
    if workload is None:
        return False
    if name == PRIORITY_DROP:
        return any(c.new < c.old for c in workload.priorities)
    if name == PLACEMENT_CHANGE:
        return bool(workload.placements)
    if name in METRIC_CONDITIONS:
        metrics = workload.metrics
        if metrics is None:
            return False
        if name == UTILIZATION:
            return bool(utilization_fallen(metrics, condition.share))
        if name == FAIRNESS_GAP:
            return bool(gaps_grown(metrics, condition.share))
        return bool(waits_grown(metrics, WAIT_CONDITIONS[name], condition.share))
    run = workload.run
    if run is None:
        return False
    if name == ORDER_CHANGE:
        return bool(run.reorders or run.orders)
    if name == NEW_PREEMPTION:
        return bool(run.preemptions_added)
    if name == NEW_PENDING:
        return any(NOW_WAITS in c.changes for c in run.asks)
    if name == LATER_START:
        return any(
            NOW_WAITS in c.changes or (LATER in c.changes and (c.shift or 0) > condition.tolerance) for c in run.asks
        )
    raise ValueError(f"unknown condition {name!r}")  # pragma: no cover - parse_fail_on admits only CONDITIONS


def failing(diff: Diff, conditions: list[FailOn]) -> list[FailOn]:
    """The conditions that hold, in the order given."""
    return [c for c in conditions if holds(diff, c)]
