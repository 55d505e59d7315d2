"""`yk diff --fail-on`: the conditions a diff can be gated on, and which of them hold."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.diagnostics import Level
from yk_cli.core.diff.model import LATER, NOW_WAITS, Diff

NEW_ERRORS = "new-errors"
LATER_START = "later-start"
NEW_PENDING = "new-pending"
NEW_PREEMPTION = "new-preemption"
PRIORITY_DROP = "priority-drop"
PLACEMENT_CHANGE = "placement-change"
ORDER_CHANGE = "order-change"
ANY = "any"
CONDITIONS = (
    NEW_ERRORS,
    LATER_START,
    NEW_PENDING,
    NEW_PREEMPTION,
    PRIORITY_DROP,
    PLACEMENT_CHANGE,
    ORDER_CHANGE,
    ANY,
)
DEFAULT = (NEW_ERRORS,)


@dataclass(frozen=True, slots=True)
class FailOn:
    """One --fail-on condition; later-start may carry a tolerance (nanoseconds)."""

    name: str
    tolerance: int = 0

    def __str__(self) -> str:
        if self.name == LATER_START and self.tolerance:
            from yk_cli.core.config.properties import format_duration

            return f"{self.name}={format_duration(self.tolerance)}"
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
            if value or "=" in item:
                if name != LATER_START:
                    raise ValueError(f"--fail-on {item!r}: only later-start takes a value (later-start=10m)")
                parsed = parse_go_duration(value)
                if parsed is None or parsed < 0:
                    raise ValueError(f"--fail-on {item!r}: {value!r} is not a duration (e.g. 30s, 10m, 1h)")
                tolerance = parsed
            out.append(FailOn(name, tolerance))
    return out


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
