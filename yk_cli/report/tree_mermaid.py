"""`yk tree --format mermaid`: a `flowchart TD` of the queue tree that renders in GitHub markdown."""

from __future__ import annotations

from yk_cli.core.config.properties import format_duration
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import setting_config_path, show
from yk_cli.core.resources import format_resource
from yk_cli.report.tree_common import (
    TreeView,
    absent_applications,
    absent_groups,
    absent_title,
    depth_first,
    guarantee_words,
    moment_words,
    set_settings,
    value_text,
    written_limits,
)

MARKERS = {"under": "▼", "at": "●", "over": "▲"}

_ESCAPES = {'"': "#quot;", "#": "#35;", "&": "#amp;", "<": "#lt;", ">": "#gt;", "`": "#96;"}


def escape(text: str) -> str:
    """Text safe inside a quoted Mermaid label: quotes, #, &, <, > and backquotes as entity codes."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def line_of(where: str) -> str:
    """`line 17` of a `file:line` location ('' when there is none)."""
    return f" · line {where.rsplit(':', 1)[1]}" if where else ""


def set_lines(view: TreeView, queue: Queue) -> list[str]:
    """`--set-only`: one line per value the file sets on the queue, with its line number."""
    lines = []
    for setting in set_settings(queue):
        where = view.locate(setting_config_path(queue, setting))
        lines.append(f"{setting.key} {value_text(setting)}{line_of(where)}")
    for written in written_limits(queue, view.locate):
        lines.append(f"{written.key} {written.text}{line_of(written.where)}")
    return lines


def node_label(view: TreeView, queue: Queue) -> str:
    """The lines of one queue's box, escaped and joined with <br/>."""
    lines = [f"<b>{escape(queue.name)}</b>"]
    if view.set_only:
        lines.extend(escape(line) for line in set_lines(view, queue))
        current = view.priority(queue)
        if current is not None:
            lines.append(escape(f"priority {show(current)}"))
        lines.extend(guarantee_marks(view, queue))
        return "<br/>".join(lines)
    facts = []
    current = view.priority(queue)
    if current is not None:
        facts.append(f"priority {show(current)}")
    offset = queue.priority_offset
    if queue.priority_fence:
        facts.append(f"fence, offset {offset:+d}")
    elif offset:
        facts.append(f"offset {offset:+d}")
    if facts:
        lines.append(escape(" · ".join(facts)))
    sorting = queue.sort_policy if queue.is_leaf else "fair"
    lines.append(escape(f"sorts {sorting}{', priority first' if queue.sort_priority else ', priority ignored'}"))
    if queue.preemption_policy != "default":
        lines.append(escape(f"preemption {queue.preemption_policy}"))
    if queue.guaranteed:
        lines.append(escape(f"guaranteed {format_resource(queue.guaranteed)}"))
    if queue.max:
        lines.append(escape(f"max {format_resource(queue.max)}"))
    if view.usage is not None:
        usage = view.usage.get(queue.path)
        if usage is not None:
            lines.append(escape(f"pending {usage.pending} · running {usage.allocations}"))
    lines.extend(guarantee_marks(view, queue))
    return "<br/>".join(lines)


def guarantee_marks(view: TreeView, queue: Queue) -> list[str]:
    """With a workload: the ▼ ● ▲ guarantee marker and ⚠ over max, escaped."""
    lines = []
    guarantee = view.guarantee(queue)
    if guarantee is not None and guarantee.state != "none":
        lines.append(escape(f"{MARKERS[guarantee.state]} {guarantee_words(guarantee)}"))
    if guarantee is not None and guarantee.over_max:
        lines.append(escape(f"⚠ over max ({', '.join(guarantee.over_max)})"))
    return lines


ABSENT_SHOWN = 8
"""Asks listed by name in the box of those not pending (the rest are counted)."""


def time_box(view: TreeView) -> list[str]:
    """With a workload: a box apart that says which virtual time the priorities and usage are those of, then the
    asks not pending then (each group's title, its first asks, how many more)."""
    if view.usage is None:
        return []
    moment = moment_words(view.at, view.steps)
    lines = [f"<b>{escape(moment[0].upper() + moment[1:])}</b>"]
    for why, items in absent_groups(view.absent):
        lines.append(escape(absent_title(why, items, view.at)))
        for item in items[:ABSENT_SHOWN]:
            when = f" at {format_duration(item.arrival)}" if why == "later" else ""
            lines.append(escape(f"{item.application}/{item.ask.name} ({item.queue_path}, P{item.ask.priority}){when}"))
        if len(items) > ABSENT_SHOWN:
            lines.append(escape(f"… and {len(items) - ABSENT_SHOWN} more: {absent_applications(items)}"))
    return [
        f'    when["{"<br/>".join(lines)}"]',
        "    classDef when stroke-dasharray:3 3",
        "    class when when",
    ]


def render(view: TreeView) -> str:
    """The flowchart: one node per queue (q0 is root, depth-first order), edges parent --> child, fence classes; with a
    workload, a box apart with the time it shows and the asks not pending then."""
    queues = depth_first(view.tree)
    ids = {queue.path: f"q{i}" for i, queue in enumerate(queues)}
    out = ["flowchart TD"]
    fenced: list[str] = []
    dynamic: list[str] = []
    for queue in queues:
        out.append(f'    {ids[queue.path]}["{node_label(view, queue)}"]')
        if queue.priority_fence:
            fenced.append(ids[queue.path])
        if queue.dynamic:
            dynamic.append(ids[queue.path])
    for queue in queues:
        for child in queue.children:
            out.append(f"    {ids[queue.path]} --> {ids[child.path]}")
    if fenced:
        out.append("    classDef fence stroke:#d33,stroke-width:3px")
        out.append(f"    class {','.join(fenced)} fence")
    if dynamic:
        out.append("    classDef dynamic stroke-dasharray:5 5")
        out.append(f"    class {','.join(dynamic)} dynamic")
    out.extend(time_box(view))
    return "\n".join(out) + "\n"
