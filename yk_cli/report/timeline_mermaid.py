"""A dry run as a Mermaid `gantt` (GitHub renders it in Markdown): one section per queue or per node, a bar per
allocation on the virtual clock (HH:MM:SS from the start), preemptions as milestones."""

from __future__ import annotations

import re

from yk_cli.core.analysis.timeline import COMPLETED, NANOS, PREEMPTED, RUNNING, Bar, Timeline

MAX_BARS = 80
"""Most bars drawn (the earliest starts); a pull-request comment must stay readable and under GitHub's size limit."""
MAX_MARKS = 20
DAY = 24 * 3600
_UNSAFE = re.compile(r"[:;#\n\r]")
_KEYWORDS = re.compile(
    r"^(section|title|dateformat|axisformat|tickinterval|todaymarker|excludes|includes|weekday|weekend|"
    r"inclusiveenddates|topaxis|click|acctitle|accdescr|%%)",
    re.IGNORECASE,
)
BY = ("queue", "node")


def _name(text: str) -> str:
    """A task or section name Mermaid reads back whole: no `:`, `;` or `#`, not starting with a keyword."""
    safe = _UNSAFE.sub("_", text).strip() or "_"
    return "· " + safe if _KEYWORDS.match(safe) else safe


def clock(seconds: int) -> str:
    """HH:MM:SS of a whole number of seconds from the start (under a day)."""
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def _span(bar: Bar, horizon: int) -> tuple[int, int]:
    """Whole seconds from the start: a bar still running ends with the run; one that starts as the run ends is one
    second long (Mermaid draws nothing shorter)."""
    start = min(bar.start // NANOS, horizon, DAY - 2)
    end = -(-bar.end // NANOS)  # up to the next whole second
    if bar.ended == RUNNING:
        end = horizon
    return start, min(max(end, start + 1), max(horizon, start + 1))


def gantt(line: Timeline, by: str = "queue", title: str = "Dry run on the virtual clock") -> tuple[list[str], str]:
    """The diagram's lines (without the fence) and a note for the reader when bars were left out ('' if none)."""
    end_s = -(-line.end // NANOS)
    horizon = min(max(end_s, 1), DAY - 1)  # running bars end where the run ended
    out = [
        "gantt",
        f"    title {_name(title)}",
        "    dateFormat HH:mm:ss",
        "    axisFormat %H:%M:%S",
        "    todayMarker off",
    ]
    bars = line.bars[:MAX_BARS]
    sections: dict[str, list[Bar]] = {}
    for bar in bars:
        sections.setdefault(bar.queue_path if by == "queue" else bar.node, []).append(bar)
    marks: dict[str, list[str]] = {}
    for mark in line.marks[:MAX_MARKS]:
        key = mark.queue_path if by == "queue" else mark.node
        who = f"{mark.application}/{mark.ask}" if mark.application else mark.queue_path
        at = clock(min(mark.time // NANOS, horizon))
        label = _name(f"{mark.type} by {who} ({len(mark.victims)} victim{'s' if len(mark.victims) != 1 else ''})")
        marks.setdefault(key, []).append(f"    {label} :milestone, {at}, 0s")
    for key in [*sections, *(k for k in marks if k not in sections)]:
        out.append(f"    section {_name(key or '(none)')}")
        for bar in sections.get(key, []):
            start, end = _span(bar, horizon)
            tag = {PREEMPTED: "crit, ", COMPLETED: "done, ", RUNNING: "active, "}.get(bar.ended, "")
            label = _name(f"{bar.application}/{bar.ask}" if by == "node" else bar.ask)
            out.append(f"    {label} :{tag}{clock(start)}, {clock(end)}")
        out.extend(marks.get(key, []))
    notes = []
    if len(line.bars) > MAX_BARS:
        notes.append(f"the first {MAX_BARS} of {len(line.bars)} allocations")
    if len(line.marks) > MAX_MARKS:
        notes.append(f"the first {MAX_MARKS} of {len(line.marks)} preemptions")
    if end_s >= DAY - 1:
        notes.append("the first 24 hours of the run")
    note = f"The timeline shows {' and '.join(notes)}." if notes else ""
    return out, note


def markdown(line: Timeline, by: str = "queue", title: str = "Dry run on the virtual clock") -> list[str]:
    """A fenced ```mermaid block, and the note under it when bars were left out."""
    lines, note = gantt(line, by, title)
    out = ["```mermaid", *lines, "```"]
    if not line.bars and not line.marks:
        return ["No allocation to draw."]
    if note:
        out += ["", f"_{note}_"]
    return out
