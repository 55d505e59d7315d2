"""`yk simulate --format text`: the ordered steps as a table, a summary, and every pending ask with its reason."""

from __future__ import annotations

from yk_cli.core.trace import Trace
from yk_cli.report.trace_common import attempt_title, loop_lines, notes, priority, summary_line, title, when
from yk_cli.report.unmodelled import unmodelled_lines

HEADER = ("STEP", "TIME", "EVENT", "QUEUE", "PRIORITY", "ASK", "NODE", "QUEUE PRIORITY CHANGES")
PENDING_HEADER = ("APPLICATION/ASK", "QUEUE", "PRIORITY", "REASON")


def table(rows: list[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    """Columns padded to their widest cell (right-aligned where asked), two spaces apart, no trailing blanks."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    return out


def steps(trace: Trace) -> list[str]:
    """The step table; a step's extra priority changes go on continuation lines under the last column."""
    rows: list[tuple[str, ...]] = [HEADER]
    for e in trace.events:
        lines = notes(e) or [""]
        rows.append((str(e.step), when(e.time), e.type, e.queue_path, priority(e.priority), e.ask, e.node, lines[0]))
        rows.extend(("", "", "", "", "", "", "", line) for line in lines[1:])
    return table(rows, right=(0,))


def pending(trace: Trace) -> list[str]:
    """Every pending ask with its reason."""
    if not trace.pending:
        return ["Pending asks: none"]
    rows: list[tuple[str, ...]] = [PENDING_HEADER]
    for p in trace.pending:
        rows.append((f"{p.application}/{p.ask}", p.queue_path or "-", priority(p.priority), p.reason))
    return [f"Pending asks ({len(trace.pending)}):", *table(rows)]


CANDIDATE_HEADER = ("CANDIDATE", "QUEUE", "NODE", "PRIORITY", "VERDICT", "WHY")


def attempts(trace: Trace) -> list[str]:
    """--explain-preemption: every preemption try and every candidate it looked at, with the verdict."""
    if not trace.attempts:
        return ["Preemption attempts: none"]
    out = [f"Preemption attempts ({len(trace.attempts)}):"]
    for a in trace.attempts:
        out.append("- " + attempt_title(a))
        if not a.candidates:
            out.append("    no running allocation to consider")
            continue
        rows: list[tuple[str, ...]] = [CANDIDATE_HEADER]
        for c in a.candidates:
            rows.append(
                (f"{c.application}/{c.allocation}", c.queue_path, c.node, priority(c.priority), c.verdict, c.detail)
            )
        out.extend("    " + line for line in table(rows))
    return out


def render(trace: Trace, source: str) -> str:
    """The whole text report."""
    out = [title(trace, source), ""]
    out += unmodelled_lines(trace.unmodelled)
    if trace.notes:
        out += [f"Note: {note}" for note in trace.notes] + [""]
    loops = loop_lines(trace)
    if loops:
        out += [f"Warning: {line}" for line in loops] + [""]
    out.extend(steps(trace) if trace.events else ["No scheduling steps."])
    out += ["", "Summary: " + summary_line(trace.summary), ""]
    out.extend(pending(trace))
    if trace.explained:
        out += ["", *attempts(trace)]
    return "\n".join(out) + "\n"
