"""`yk simulate --timeline`: the dry run drawn with Rich, one bar per queue (or node) over the virtual clock, shaded
by how many of its pods run, with preemptions marked (coloured on a terminal, plain characters otherwise)."""

from __future__ import annotations

from io import StringIO

from yk_cli.core.analysis.timeline import NANOS, RUNNING, Timeline, timeline
from yk_cli.core.analysis.trace_view import TraceFilter, view
from yk_cli.core.sim.trace import Trace
from yk_cli.report.trace_common import filter_line, summary_line, title, when

SHADES = " ░▒▓█"
MARK = "✕"
LABEL_MAX = 40


def _columns(width: int, label: int) -> int:
    return max(10, width - label - 12)


def rows(line: Timeline, by: str = "queue", width: int = 100) -> tuple[list[tuple[str, str, list[int]]], int, int]:
    """(label, bar cells, preemption columns) per section, the number of columns and the horizon in nanoseconds."""
    keys: dict[str, None] = {}
    for bar in line.bars:
        keys.setdefault(bar.queue_path if by == "queue" else bar.node, None)
    for mark in line.marks:
        for _victim, queue, node in mark.victims:
            keys.setdefault(queue if by == "queue" else node, None)
    label_width = min(max((len(k) for k in keys), default=5), LABEL_MAX)
    cols = _columns(width, label_width)
    horizon = max(line.end, 1)  # the axis ends where the run ended (a run at 0s draws every bar whole)
    counts: dict[str, list[int]] = {k: [0] * (cols + 1) for k in keys}
    for bar in line.bars:
        diff = counts[bar.queue_path if by == "queue" else bar.node]
        first = min(bar.start * cols // horizon, cols - 1)
        last = cols - 1 if bar.ended == RUNNING else min(max(bar.end * cols // horizon, first), cols - 1)
        diff[first] += 1
        diff[last + 1] -= 1
    marks: dict[str, list[int]] = {k: [] for k in keys}
    for mark in line.marks:
        col = min(mark.time * cols // horizon, cols - 1)
        for _victim, queue, node in mark.victims:
            marks[queue if by == "queue" else node].append(col)
    out = []
    for key in keys:
        running, level = [], 0
        for delta in counts[key][:cols]:
            level += delta
            running.append(level)
        peak = max(running) or 1
        cells = "".join(SHADES[0] if n == 0 else SHADES[min(4, 1 + (n * 4 - 1) // peak)] for n in running)
        label = key if len(key) <= LABEL_MAX else "…" + key[-(LABEL_MAX - 1) :]
        out.append((label.ljust(label_width), cells, sorted(set(marks[key]))))
    return out, cols, horizon


def render(line: Timeline, by: str = "queue", width: int = 100, color: bool = False) -> str:
    """The timeline block: a header, a row per section, the time axis and a legend."""
    from rich.console import Console
    from rich.text import Text

    sections, cols, _ = rows(line, by, width)
    buffer = StringIO()
    console = Console(
        file=buffer, force_terminal=color, no_color=not color, width=max(width, 60), highlight=False, soft_wrap=True
    )
    span = f"0s to {when(line.end)}" if line.end else "every step at 0s"
    console.print(Text(f"Timeline by {by} (virtual clock, {span}):", style="bold" if color else ""))
    if not sections:
        console.print("  no allocation to draw")
        return buffer.getvalue()
    label_width = len(sections[0][0])
    for label, cells, marks in sections:
        text = Text(f"  {label} │")
        bar = Text(cells, style="green" if color else "")
        for col in marks:
            bar = bar[:col] + Text(MARK, style="bold red" if color else "") + bar[col + 1 :]
        text.append_text(bar)
        text.append("│")
        console.print(text)
    ticks = (0, cols // 2, cols - 1) if line.end else (0,)
    axis = "".join("┬" if col in ticks else "─" for col in range(cols))
    console.print(" " * (label_width + 3) + "└" + axis + "┘")
    label_line = [" "] * (cols + 12)
    for col in ticks:
        at = {0: 0, cols - 1: line.end}.get(col, line.end // 2)  # the middle column holds the run's half-time
        tick = when(at if at < NANOS or col == cols - 1 else at // NANOS * NANOS)  # the last tick: the end, exactly
        start = max(0, min(col - len(tick) // 2, cols + 11 - len(tick)))
        if any(c != " " for c in label_line[max(start - 1, 0) : start + len(tick) + 1]):
            continue
        label_line[start : start + len(tick)] = list(tick)
    console.print(" " * (label_width + 4) + "".join(label_line).rstrip())
    legend = f"  {SHADES[1]}{SHADES[2]}{SHADES[3]}{SHADES[4]} pods running (darker: more)  {MARK} preemption (victims)"
    console.print(legend)
    return buffer.getvalue()


def render_report(trace: Trace, source: str, chosen: TraceFilter, by: str, width: int, color: bool) -> str:
    """`yk simulate --timeline` as text: the title, the timeline of the shown steps, and the summary line."""
    out = [title(trace, source), ""]
    if chosen.active:
        out += [filter_line(chosen), ""]
    drawn = render(timeline(trace, view(trace, chosen).events), by, width, color)
    return "\n".join(out) + "\n" + drawn + "\nSummary: " + summary_line(trace.summary) + "\n"
