"""`yk simulate --starts`: a compact `squeue --start`-style table: per pod its predicted start on the virtual clock,
node and queue, or why it never starts."""

from __future__ import annotations

from yk_cli.core.analysis.timeline import Start, starts
from yk_cli.core.sim.trace import Trace
from yk_cli.report.trace_common import priority, summary_line, title, when
from yk_cli.report.trace_text import table

HEADER = ("APPLICATION/ASK", "QUEUE", "PRIORITY", "SUBMIT", "START", "WAIT", "NODE (REASON)")


def _cells(s: Start) -> tuple[str, ...]:
    submit = when(s.submit) if s.submit is not None else "-"
    if s.start is None:
        return (
            f"{s.application}/{s.ask}",
            s.queue_path or "-",
            priority(s.priority),
            submit,
            "never",
            "-",
            f"({s.code}: {s.reason})",
        )
    wait = when(s.start - s.submit) if s.submit is not None else "-"
    return (f"{s.application}/{s.ask}", s.queue_path, priority(s.priority), submit, when(s.start), wait, s.node)


def render_text(trace: Trace, source: str) -> str:
    """Title, the table (those that start, by start time; then those that never do), the summary line."""
    found = starts(trace)
    out = [title(trace, source), ""]
    if found:
        out += table([HEADER, *(_cells(s) for s in found)])
    else:
        out.append("No asks.")
    out += ["", "Summary: " + summary_line(trace.summary)]
    return "\n".join(out) + "\n"


def render_markdown(trace: Trace, source: str) -> str:
    """The same table in GitHub-flavoured Markdown."""
    found = starts(trace)
    out = [f"## {title(trace, source)}", ""]
    if found:
        out.append("| Application/ask | Queue | Priority | Submit | Start | Wait | Node (reason) |")
        out.append("|---|---|---|---|---|---|---|")
        for s in found:
            cells = [c.replace("|", "\\|") or " " for c in _cells(s)]
            cells[1] = f"`{cells[1]}`" if cells[1] != "-" else cells[1]
            out.append("| " + " | ".join(cells) + " |")
    else:
        out.append("No asks.")
    out += ["", f"**Summary:** {summary_line(trace.summary)}"]
    return "\n".join(out) + "\n"
