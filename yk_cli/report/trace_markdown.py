"""`yk simulate --format markdown`: the step table and pending asks as GitHub-flavoured Markdown."""

from __future__ import annotations

from yk_cli.core.trace import Trace
from yk_cli.report.trace_common import attempt_title, loop_lines, notes, priority, summary_line, title, when


def _cell(text: str) -> str:
    return text.replace("|", "\\|") if text else " "


def _row(cells: list[str], last: str | None = None) -> str:
    """A table row; last is an already escaped final cell (it may hold <br> line breaks)."""
    escaped = [_cell(c) for c in cells]
    if last is not None:
        escaped.append(last or " ")
    return "| " + " | ".join(escaped) + " |"


def render(trace: Trace, source: str) -> str:
    """The whole Markdown report."""
    out = [f"## {title(trace, source)}", ""]
    if trace.unmodelled:
        out += [f"> **Not modelled:** {_cell(u.message)}" for u in trace.unmodelled] + [""]
    if trace.notes:
        out += [f"> **Note:** {_cell(note)}" for note in trace.notes] + [""]
    if trace.events:
        out.append(_row(["Step", "Time", "Event", "Queue", "Priority", "Ask", "Node", "Queue priority changes"]))
        out.append("|---:|---|---|---|---|---|---|---|")
        for e in trace.events:
            changes = "<br>".join(n.replace("|", "\\|") for n in notes(e))
            cells = [str(e.step), when(e.time), e.type, f"`{e.queue_path}`", priority(e.priority), e.ask, e.node]
            out.append(_row(cells, changes))
    else:
        out.append("No scheduling steps.")
    out += ["", f"**Summary:** {summary_line(trace.summary)}", "", "### Pending asks", ""]
    if not trace.pending:
        out.append("None.")
    else:
        out.append(_row(["Application", "Ask", "Queue", "Priority", "Reason"]))
        out.append("|---|---|---|---|---|")
        for p in trace.pending:
            queue = f"`{p.queue_path}`" if p.queue_path else "-"
            out.append(_row([p.application, p.ask, queue, priority(p.priority), p.reason]))
    loops = loop_lines(trace)
    if loops:
        out += ["", "### Preemption loops", ""] + [f"- ⚠ {_cell(line)}" for line in loops]
    if trace.explained:
        out += ["", "### Preemption attempts", ""]
        if not trace.attempts:
            out.append("None.")
        for a in trace.attempts:
            out += [f"**{_cell(attempt_title(a))}**", ""]
            if not a.candidates:
                out += ["No running allocation to consider.", ""]
                continue
            out.append(_row(["Candidate", "Queue", "Node", "Priority", "Verdict", "Why"]))
            out.append("|---|---|---|---|---|---|")
            for c in a.candidates:
                cells = [f"{c.application}/{c.allocation}", f"`{c.queue_path}`", c.node, priority(c.priority)]
                out.append(_row([*cells, f"`{c.verdict}`", c.detail]))
            out.append("")
    return "\n".join(out) + "\n"
