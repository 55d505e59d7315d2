"""Shared pieces of the `yk diff` reports: the summary line, shifts, provenance and ask states in words."""

from __future__ import annotations

from collections import Counter

from yk_cli.core.diagnostics import Level
from yk_cli.core.diff.model import (
    EARLIER,
    LATER,
    NO_LONGER_WAITS,
    NODE,
    NOW_WAITS,
    AskRun,
    AskRunChange,
    Diff,
    Placement,
    Preemption,
    Provenance,
)
from yk_cli.core.priority import show
from yk_cli.core.properties import format_duration
from yk_cli.report.trace_common import when

FORMATS = ("text", "json", "markdown", "github")
CHANGE_WORDS = {
    LATER: "starts later",
    EARLIER: "starts earlier",
    NOW_WAITS: "now waits",
    NO_LONGER_WAITS: "no longer waits",
    NODE: "other node",
    "reason": "waits for another reason",
}


def count(n: int, noun: str, plural: str = "") -> str:
    """`1 ask`, `3 asks`."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def short(nanos: int) -> str:
    """A duration without trailing zero units: 12m, 4m30s, 1h, 2.1s."""
    text = format_duration(abs(nanos))
    for zero in ("0s", "0m"):
        if text.endswith(zero) and len(text) > len(zero) and not text[: -len(zero)][-1].isdigit():
            text = text[: -len(zero)]
    return ("-" if nanos < 0 else "") + text


def shift(nanos: int) -> str:
    """`+4m30s`, `-1m`, `±0s`."""
    return "+" + short(nanos) if nanos > 0 else short(nanos) if nanos < 0 else "±0s"


def provenance(p: Provenance, file: str = "") -> str:
    """`set here (line 28)`, `inherited from root.a (queues.yaml:7)`, `from root.a's child template`, `default`."""
    if p.source == "default":
        return "default"
    where = f" ({file + ':' if file else 'line '}{p.line})" if p.line else ""
    words = {
        "set": "set here",
        "inherited": f"inherited from {p.origin}",
        "template": f"from {p.origin}'s child template",
    }.get(p.source, p.source)
    if p.fallback:
        return f"YuniKorn's fallback after a bad value {p.text!r}, {words}{where}"
    return words + where


def placement(p: Placement) -> str:
    """`root.a.b`, or `rejected: <reason>`."""
    return p.queue_path if p.queue_path is not None else f"rejected: {p.reason}"


def run_words(run: AskRun) -> str:
    """`4m30s on node-1`, or `waits: <reason>`."""
    if run.start is None:
        return f"waits: {run.reason}"
    return f"{when(run.start)} on {run.node}"


def change_words(change: AskRunChange) -> str:
    """`+4m30s`, `now waits`, `-1m, other node`."""
    parts = []
    for c in change.changes:
        if c in (LATER, EARLIER) and change.shift is not None:
            parts.append(shift(change.shift))
        else:
            parts.append(CHANGE_WORDS.get(c, c))
    return ", ".join(parts)


def preemption_pairs(items: tuple[Preemption, ...]) -> list[tuple[str, str, int]]:
    """(preemptor queue, victim queue, pods) in first-seen order."""
    pairs: Counter[tuple[str, str]] = Counter()
    for p in items:
        pairs[(p.preemptor_queue, p.victim_queue)] += 1
    return [(a, b, n) for (a, b), n in pairs.items()]


def preemption_words(items: tuple[Preemption, ...]) -> str:
    """`root.batch preempts root.system: 2 pods; ...`."""
    return "; ".join(f"{a} preempts {b}: {count(n, 'pod')}" for a, b, n in preemption_pairs(items))


def preemptors(items: tuple[Preemption, ...]) -> int:
    """How many preemption steps (asking pods, or queues over their max) the victims belong to."""
    return len({(p.type, p.preemptor_application, p.preemptor_ask, p.preemptor_queue) for p in items})


def priority_text(value: int) -> str:
    """A priority as people read it (n/a for MinInt32)."""
    return show(value)


def summary_line(diff: Diff) -> str:
    """The line a reviewer reads first: `3 asks start later (max +12m), 1 new preemption (root.batch preempts
    root.system: 2 pods), 0 new errors`."""
    parts: list[str] = []
    workload = diff.workload
    run = workload.run if workload is not None else None
    if run is not None:
        later = [c.shift or 0 for c in run.asks if LATER in c.changes]
        earlier = [c.shift or 0 for c in run.asks if EARLIER in c.changes]
        if later:
            parts.append(
                f"{count(len(later), 'ask')} start{'s' if len(later) == 1 else ''} later (max {shift(max(later))})"
            )
        if earlier:
            parts.append(
                f"{count(len(earlier), 'ask')} start{'s' if len(earlier) == 1 else ''} earlier "
                f"(max {shift(min(earlier))})"
            )
        waits = sum(1 for c in run.asks if NOW_WAITS in c.changes)
        if waits:
            parts.append(f"{count(waits, 'ask')} now wait{'s' if waits == 1 else ''}")
        freed = sum(1 for c in run.asks if NO_LONGER_WAITS in c.changes)
        if freed:
            parts.append(f"{count(freed, 'ask')} no longer wait{'s' if freed == 1 else ''}")
        moved = sum(1 for c in run.asks if NODE in c.changes)
        if moved:
            parts.append(f"{count(moved, 'ask')} on another node")
        if run.orders:
            parts.append(f"order changed in {count(len(run.orders), 'queue')}")
        if run.preemptions_added:
            added = preemptors(run.preemptions_added)
            parts.append(f"{count(added, 'new preemption')} ({preemption_words(run.preemptions_added)})")
        if run.preemptions_removed:
            gone = preemptors(run.preemptions_removed)
            parts.append(f"{count(gone, 'preemption')} gone ({preemption_words(run.preemptions_removed)})")
        if run.events:
            parts.append(
                "other steps differ: " + ", ".join(f"{e.type} {e.old_count} -> {e.new_count}" for e in run.events)
            )
    if workload is not None:
        drops = sum(1 for c in workload.priorities if c.new < c.old)
        raises = len(workload.priorities) - drops
        if drops:
            parts.append(f"{count(drops, 'ask')} with a lower priority")
        if raises:
            parts.append(f"{count(raises, 'ask')} with a higher priority")
        if workload.placements:
            parts.append(count(len(workload.placements), "placement change"))
    config = diff.config
    if config.settings:
        parts.append(count(len(config.settings), "setting change"))
    for kind in ("added", "removed", "moved"):
        n = sum(1 for q in config.queues if q.kind == kind)
        if n:
            parts.append(f"{count(n, 'queue')} {kind}")
    fixed = len(config.problems.fixed)
    if fixed:
        parts.append(f"{count(fixed, 'problem')} fixed")
    errors = sum(1 for p in config.problems.introduced if p.level == Level.ERROR)
    warnings = len(config.problems.introduced) - errors
    if warnings:
        parts.append(count(warnings, "new warning"))
    parts.append(count(errors, "new error"))
    if diff.empty:
        return "no changes, 0 new errors"
    return ", ".join(parts)


def title(diff: Diff) -> str:
    """`yk diff: OLD -> NEW` with the workload and partition when there is one."""
    text = f"yk diff: {diff.old} -> {diff.new}"
    if diff.workload_source:
        text += f"; workload {diff.workload_source}, partition {diff.partition}"
    return text
