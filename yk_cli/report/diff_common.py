"""Shared pieces of the `yk diff` reports: the summary line, shifts, provenance and ask states in words."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from yk_cli.core.config.properties import format_duration
from yk_cli.core.diagnostics import Level, Span
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
    PriorityChange,
    Provenance,
    Reorder,
    SettingChange,
)
from yk_cli.core.ordering.priority import show
from yk_cli.report.trace_common import when

FORMATS = ("text", "json", "markdown", "github", "sarif", "html")
ORDER_ROWS = 20
"""Asks the text report lists under "Start order changed" (the ones that moved most; JSON has them all)."""
ORDER_NAMES = 3
"""Asks a report names per direction of one reordered ask (the count says how many more)."""
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


def reorder_step(r: Reorder) -> str:
    """`11 -> 1`: the ask's step in each run."""
    return f"{r.old.step} -> {r.new.step}"


def reorder_time(r: Reorder) -> str:
    """`0s`, or `0s -> 10m` when the whole group moved."""
    before, after = r.old.start or 0, r.new.start or 0
    return when(after) if before == after else f"{when(before)} -> {when(after)}"


def passed_words(names: tuple[str, ...], total: int, shown: int = ORDER_NAMES) -> str:
    """`10: a/x, b/y, c/z and 7 more`, or '' for none."""
    if not total:
        return ""
    listed = ", ".join(names[:shown])
    more = total - min(len(names), shown)
    return f"{total}: {listed}" + (f" and {more} more" if more else "")


def reorder_words(r: Reorder) -> str:
    """`now ahead of 10 asks it used to follow`, `now behind 8 asks it used to lead`, or both."""
    parts = []
    if r.ahead_total:
        parts.append(f"ahead of {count(r.ahead_total, 'ask')} it used to follow")
    if r.behind_total:
        parts.append(f"behind {count(r.behind_total, 'ask')} it used to lead")
    return "now " + " and ".join(parts)


def reorder_sentence(r: Reorder) -> str:
    """`system-low/low-p3: step 11 -> 1 at 0s, now ahead of 10 asks it used to follow`."""
    return f"{r.application}/{r.ask}: step {reorder_step(r)} at {reorder_time(r)}, {reorder_words(r)}"


def reorders_heading(reorders: tuple[Reorder, ...]) -> str:
    """The title of the start-order section: `Start order changed at the same virtual time (11 asks in 6 queues)`."""
    queues = len({r.new.queue_path for r in reorders})
    return f"Start order changed at the same virtual time ({count(len(reorders), 'ask')} in {count(queues, 'queue')})"


def reorder_queues(reorders: tuple[Reorder, ...]) -> list[tuple[str, int, int, int]]:
    """Per leaf queue (in NEW): its reordered asks, how many of them now start ahead of asks they used to follow,
    how many behind asks they used to lead; the queues with most first (then as the asks come)."""
    totals: dict[str, list[int]] = {}
    for r in reorders:
        row = totals.setdefault(r.new.queue_path, [0, 0, 0])
        row[0] += 1
        row[1] += r.ahead_total > 0
        row[2] += r.behind_total > 0
    rank = {queue: i for i, queue in enumerate(totals)}
    ordered = sorted(totals.items(), key=lambda item: (-item[1][0], rank[item[0]]))
    return [(queue, asks, ahead, behind) for queue, (asks, ahead, behind) in ordered]


def removed_words(change: SettingChange | PriorityChange) -> str:
    """`priority.policy removed`, `removed` (a setting), or ''."""
    if not change.removed:
        return ""
    if isinstance(change, PriorityChange):
        return f"{change.cause} removed"
    return "removed"


def summary_line(diff: Diff) -> str:
    """The line a reviewer reads first: `3 asks start later (max +12m), 1 new preemption (root.batch preempts
    root.system: 2 pods), 0 new errors`."""
    parts: list[str] = []
    workload = diff.workload
    run = workload.run if workload is not None else None
    if run is not None and run.reorders:
        top, n = run.reorders[0], len(run.reorders)
        parts.append(f"{count(n, 'ask')} start{'s' if n == 1 else ''} in another order ({reorder_sentence(top)})")
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
        text += f"; workload {diff.workload_source}"
        if diff.partition:
            text += f", partition {diff.partition}"
    return text


# --- annotations: what `--format github` and `--format sarif` put on the lines of NEW ------------------------------

SHOWN = 10
"""Asks one annotation names (the count says how many there are)."""
START_ORDER = "diff-start-order"
SETTING = "diff-setting"
QUEUE = "diff-queue"
PRIORITY = "diff-priority"
PLACEMENT = "diff-placement"
SUMMARY = "diff-summary"
NOTE_RULES = {
    START_ORDER: "Asks start in another order at the same virtual time",
    SETTING: "An effective queue or partition setting changed",
    QUEUE: "A queue was added, removed or moved",
    PRIORITY: "The effective priority of asks changed",
    PLACEMENT: "An application lands in another queue, or is now (no longer) rejected",
    SUMMARY: "What the config change does, and whether a --fail-on condition holds",
}
"""The kinds of annotation, with a summary each (SARIF's rules)."""


@dataclass(frozen=True, slots=True)
class Note:
    """One annotation on NEW: notice, warning or error, at a span (None: the file)."""

    rule: str
    level: str
    span: Span | None
    title: str
    message: str


def _shown(items: list[str]) -> str:
    return "; ".join(items[:SHOWN]) + (f"; ... ({len(items)} in all)" if len(items) > SHOWN else "")


def order_notes(diff: Diff) -> list[Note]:
    """Asks in another start order at the same virtual time, one note per line of NEW that changed their effective
    priority (the asks whose own priority did not change on the file), the group of the ask that moved most first:
    a warning where an ask now starts behind asks it used to lead."""
    workload = diff.workload
    run = workload.run if workload is not None else None
    if workload is None or run is None or not run.reorders:
        return []
    causes = {(c.application, c.ask): c for c in workload.priorities}
    grouped: dict[tuple[int, int, str], tuple[Span | None, list[str], list[bool]]] = {}
    for r in run.reorders:
        cause = causes.get((r.application, r.ask))
        span = cause.span if cause is not None else None
        key = (span.line, span.column, removed_words(cause)) if span is not None and cause is not None else (0, 0, "")
        _span, items, behind = grouped.setdefault(key, (span, [], []))
        items.append(reorder_sentence(r))
        behind.append(r.behind_total > 0)
    out = []
    for (_line, _column, gone), (span, items, behind) in grouped.items():
        what = f" ({gone} here)" if gone else ""
        message = f"start order of {count(len(items), 'ask')} changed{what}: {_shown(items)}"
        level = "warning" if any(behind) else "notice"
        out.append(Note(START_ORDER, level, span, "yk diff: start order", message))
    return out


def change_notes(diff: Diff) -> list[Note]:
    """Changed settings and queues as notices, effective priorities (one note per line of NEW that changed them: a
    warning where one drops) and placement changes as warnings."""
    out: list[Note] = []
    for s in diff.config.settings:
        where = s.queue_path or f"partition {s.partition}"
        gone = f"{removed_words(s)} here; " if s.removed else ""
        message = (
            f"{where}: {s.key} {s.old} -> {s.new} ({gone}was {provenance(s.old_from)}; now {provenance(s.new_from)})"
        )
        out.append(Note(SETTING, "notice", s.span, f"yk diff: {s.key}", message))
    for q in diff.config.queues:
        path = f"{q.old_path} -> {q.queue_path}" if q.kind == "moved" else q.queue_path
        below = f" with {count(q.below, 'queue')} below it" if q.below else ""
        out.append(Note(QUEUE, "notice", q.span, f"yk diff: queue {q.kind}", f"queue {q.kind}: {path}{below}"))
    workload = diff.workload
    if workload is None:
        return out
    grouped: dict[tuple[int, int, str], tuple[Span | None, list[str], list[bool]]] = {}
    for c in workload.priorities:
        key = (c.span.line, c.span.column, removed_words(c)) if c.span is not None else (0, 0, "")
        _span, items, drops = grouped.setdefault(key, (c.span, [], []))
        arrow = "drops" if c.new < c.old else "rises"
        items.append(f"{c.application}/{c.ask} {arrow} {c.old} -> {c.new}")
        drops.append(c.new < c.old)
    for (_line, _column, gone), (span, items, drops) in grouped.items():
        what = f" ({gone} here)" if gone else ""
        message = f"effective priority of {count(len(items), 'ask')}{what}: {_shown(items)}"
        out.append(Note(PRIORITY, "warning" if any(drops) else "notice", span, "yk diff: effective priority", message))
    for moved in workload.placements:
        message = f"application {moved.application}: {placement(moved.old)} -> {placement(moved.new)}"
        out.append(Note(PLACEMENT, "warning", None, "yk diff: placement", message))
    return out


def summary_note(diff: Diff, failing: list[str]) -> Note:
    """The summary line, an error when a --fail-on condition holds."""
    gate = f" (fails: {', '.join(failing)})" if failing else ""
    return Note(SUMMARY, "error" if failing else "notice", None, "yk diff", summary_line(diff) + gate)
