"""`yk diff --format text`: the summary line first, then every change as plain tables (coloured on a terminal)."""

from __future__ import annotations

from yk_cli.core.diff.metrics_diff import MetricsChanges
from yk_cli.core.diff.model import Diff, RunChanges, SettingChange, WorkloadChanges
from yk_cli.core.diff.verdict import FailOn
from yk_cli.report.diff_common import (
    ORDER_ROWS,
    change_words,
    count,
    passed_words,
    placement,
    preemption_words,
    priority_text,
    provenance,
    removed_words,
    reorder_queues,
    reorder_step,
    reorder_time,
    reorders_heading,
    run_words,
    summary_line,
    title,
)
from yk_cli.report.diff_metrics import HEADER, cluster_lines, gap_rows, wait_rows
from yk_cli.report.problems_text import headline
from yk_cli.report.trace_common import summary_line as run_summary
from yk_cli.report.trace_common import when
from yk_cli.report.trace_text import table


def _where(file: str, change: SettingChange) -> str:
    where = f"{file}:{change.span.line}" if change.span is not None else ""
    return f"{where} ({removed_words(change)})" if change.removed and where else where


def _queue_label(partition: str, path: str, partitions: int) -> str:
    label = path or "(partition)"
    return f"[{partition}] {label}" if partitions > 1 else label


def config_lines(diff: Diff) -> list[str]:
    """Problems introduced and fixed, queues added, removed and moved, settings changed."""
    config = diff.config
    out: list[str] = []
    partitions = len({s.partition for s in config.settings} | {q.partition for q in config.queues})
    for name in config.partitions_added:
        out.append(f"Partition added: {name}")
    for name in config.partitions_removed:
        out.append(f"Partition removed: {name}")
    if config.partitions_added or config.partitions_removed:
        out.append("")
    if config.problems.introduced:
        out.append(f"Problems introduced ({len(config.problems.introduced)}):")
        out.extend("  " + headline(p) for p in config.problems.introduced)
        out.append("")
    if config.problems.fixed:
        out.append(f"Problems fixed ({len(config.problems.fixed)}):")
        out.extend("  " + headline(p) for p in config.problems.fixed)
        out.append("")
    if config.queues:
        out.append(f"Queues ({len(config.queues)}):")
        rows: list[tuple[str, ...]] = []
        for q in config.queues:
            kind = "leaf" if q.is_leaf else "parent"
            extra = f", {count(q.below, 'queue')} below it" if q.below else ""
            path = f"{q.old_path} -> {q.queue_path}" if q.kind == "moved" else q.queue_path
            line = f"{diff.new}:{q.span.line}" if q.span is not None else ""
            rows.append((q.kind, _queue_label(q.partition, path, partitions), f"({kind}{extra})", line))
        out.extend("  " + line for line in table(rows))
        out.append("")
    if config.settings:
        out.append(f"Settings changed ({len(config.settings)}):")
        rows = [("QUEUE", "SETTING", "BEFORE", "AFTER", "WAS", "NOW", "LINE IN NEW")]
        for s in config.settings:
            rows.append(
                (
                    _queue_label(s.partition, s.queue_path, partitions),
                    s.key,
                    s.old,
                    s.new,
                    provenance(s.old_from),
                    provenance(s.new_from),
                    _where(diff.new, s),
                )
            )
        out.extend("  " + line for line in table(rows))
        out.append("")
    return out


def workload_lines(diff: Diff, workload: WorkloadChanges) -> list[str]:
    """Placements, effective priorities, then the dry runs compared."""
    out: list[str] = []
    if workload.skipped:
        out += [f"Dry runs not compared: {workload.skipped}", ""]
    if workload.placements:
        out.append(f"Placements ({len(workload.placements)}):")
        rows: list[tuple[str, ...]] = [("APPLICATION", "BEFORE", "AFTER")]
        rows += [(c.application, placement(c.old), placement(c.new)) for c in workload.placements]
        out.extend("  " + line for line in table(rows))
        out.append("")
    if workload.priorities:
        out.append(f"Effective priorities ({count(len(workload.priorities), 'ask')}):")
        rows = [("ASK", "QUEUE", "BEFORE", "AFTER", "CHANGED AT")]
        for c in workload.priorities:
            where = f" ({diff.new}:{c.span.line})" if c.span is not None else ""
            if c.removed:
                where = f" ({removed_words(c)}{', ' + diff.new + ':' + str(c.span.line) if c.span else ''})"
            at = f"{c.step_queue}: {c.old_step} -> {c.new_step}" if c.step_queue else f"{c.old_step} -> {c.new_step}"
            rows.append(
                (f"{c.application}/{c.ask}", c.queue_path, priority_text(c.old), priority_text(c.new), at + where)
            )
        out.extend("  " + line for line in table(rows, right=(2, 3)))
        out.append("")
    if workload.run is not None:
        out.extend(run_lines(workload.run))
    if workload.metrics is not None:
        out.extend(metrics_lines(workload.metrics))
    return out


def metrics_lines(changes: MetricsChanges) -> list[str]:
    """The two runs' metrics side by side (yk diff --metrics)."""
    out = ["Metrics, OLD -> NEW (waits from submission to first start; docs/metrics.md):"]
    out.extend("  " + line for line in table([HEADER, *wait_rows(changes)], right=(1, 2, 3, 4, 5)))
    gaps = gap_rows(changes)
    if gaps:
        out.append("  fairness gap: " + "; ".join(f"{path} {pair}" for path, pair in gaps))
    out.extend("  " + line for line in cluster_lines(changes))
    out.append("")
    return out


def order_lines(run: RunChanges) -> list[str]:
    """Asks in another start order at the same virtual time: the ones that moved most, at most ORDER_ROWS."""
    if not run.reorders:
        return []
    out = [f"{reorders_heading(run.reorders)}:"]
    queues = reorder_queues(run.reorders)
    if len(run.reorders) > ORDER_ROWS and len(queues) > 1:  # too many to list: the queues first
        rows: list[tuple[str, ...]] = [("QUEUE", "ASKS", "NOW AHEAD OF SOME", "NOW BEHIND SOME")]
        rows += [(queue, str(asks), str(ahead), str(behind)) for queue, asks, ahead, behind in queues[:ORDER_ROWS]]
        out.extend("  " + line for line in table(rows, right=(1, 2, 3)))
        if len(queues) > ORDER_ROWS:
            out.append(f"  ... and {count(len(queues) - ORDER_ROWS, 'more queue')}")
        out.append("")
    rows = [("ASK", "QUEUE", "TIME", "STEP", "NOW AHEAD OF (USED TO FOLLOW)", "NOW BEHIND (USED TO LEAD)")]
    for r in run.reorders[:ORDER_ROWS]:
        rows.append(
            (
                f"{r.application}/{r.ask}",
                r.new.queue_path,
                reorder_time(r),
                reorder_step(r),
                passed_words(r.ahead, r.ahead_total) or "-",
                passed_words(r.behind, r.behind_total) or "-",
            )
        )
    out.extend("  " + line for line in table(rows))
    if len(run.reorders) > ORDER_ROWS:
        out.append(f"  ... and {count(len(run.reorders) - ORDER_ROWS, 'more ask')} (--format json lists them all)")
    out.append("")
    return out


def run_lines(run: RunChanges) -> list[str]:
    """The two dry runs compared."""
    before, after = run_summary(run.old_summary), run_summary(run.new_summary)
    if before == after:
        out = [f"Dry runs before and after: {before}", ""]
    else:
        out = [f"Dry run before: {before}", f"Dry run after:  {after}", ""]
    if run.asks:
        out.append(f"Asks ({len(run.asks)}):")
        rows: list[tuple[str, ...]] = [("ASK", "QUEUE", "BEFORE", "AFTER", "CHANGE")]
        for c in run.asks:
            rows.append(
                (
                    f"{c.application}/{c.ask}",
                    c.new.queue_path or c.old.queue_path or "-",
                    run_words(c.old),
                    run_words(c.new),
                    change_words(c),
                )
            )
        out.extend("  " + line for line in table(rows))
        out.append("")
    if run.orders:
        out.append(f"Start order within queues ({len(run.orders)}):")
        for o in run.orders:
            out.append(
                f"  {o.queue_path}: {o.moved} of {count(o.asks, 'ask')} start at another position; from position "
                f"{o.first + 1}: before {', '.join(o.old)}; after {', '.join(o.new)}"
            )
        out.append("")
    for label, items in (
        ("Preemptions added", run.preemptions_added),
        ("Preemptions removed", run.preemptions_removed),
    ):
        if not items:
            continue
        out.append(f"{label} ({count(len(items), 'victim')}: {preemption_words(items)}):")
        rows = [("TIME", "TYPE", "PREEMPTOR", "QUEUE", "VICTIM", "VICTIM QUEUE", "NODE")]
        for p in items:
            who = f"{p.preemptor_application}/{p.preemptor_ask}" if p.preemptor_application else "-"
            rows.append(
                (
                    when(p.time),
                    p.type,
                    who,
                    p.preemptor_queue,
                    f"{p.victim_application}/{p.victim_allocation}",
                    p.victim_queue,
                    p.node,
                )
            )
        out.extend("  " + line for line in table(rows))
        out.append("")
    if run.events:
        out.append("Other steps:")
        for e in run.events:
            detail = []
            if e.added_total:
                detail.append(f"only after: {', '.join(e.added)}" + (" ..." if e.added_total > len(e.added) else ""))
            if e.removed_total:
                more = " ..." if e.removed_total > len(e.removed) else ""
                detail.append(f"only before: {', '.join(e.removed)}{more}")
            out.append(f"  {e.type}: {e.old_count} -> {e.new_count} ({'; '.join(detail)})")
        out.append("")
    if run.only_old or run.only_new:
        out.append(f"Asks in one run only (fresh asks of preempted pods): {run.only_old} before, {run.only_new} after")
        out.append("")
    return out


def render(diff: Diff, fail_on: list[FailOn], failing: list[FailOn]) -> str:
    """The whole text report."""
    out = [title(diff), "", f"Summary: {summary_line(diff)}"]
    if failing:
        out.append(f"Fails: {', '.join(map(str, failing))} (--fail-on {','.join(map(str, fail_on))})")
    out.append("")
    if diff.empty:
        out.append("No changes.")
        return "\n".join(out) + "\n"
    if diff.workload is not None and diff.workload.run is not None:
        out += order_lines(diff.workload.run)
    out += config_lines(diff)
    if diff.workload is not None:
        out += workload_lines(diff, diff.workload)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def colorize(text: str, width: int) -> str:
    """The text report with Rich styles for a terminal: the summary bold, headings bold, failures red."""
    from io import StringIO

    from rich.console import Console
    from rich.text import Text

    buffer = StringIO()
    console = Console(file=buffer, force_terminal=True, width=max(width, 40), highlight=False, soft_wrap=True)
    for line in text.splitlines():
        styled = Text(line)
        if line.startswith(("Summary:", "yk diff:")):
            styled.stylize("bold")
        elif line.startswith("Fails:"):
            styled.stylize("bold red")
        elif (line and not line.startswith(" ") and line.endswith(":")) or line.endswith("):"):
            styled.stylize("bold cyan")
        for word, style in ((" now waits", "red"), (" no longer waits", "green"), (" +", "yellow")):
            start = line.find(word)
            if start >= 0 and line.startswith("  "):
                styled.stylize(style, start, start + len(word))
        console.print(styled)
    return buffer.getvalue()
