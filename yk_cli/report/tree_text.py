"""`yk tree`: the queue hierarchy as a rich tree; every setting with its provenance. Plain text when not a TTY."""

from __future__ import annotations

import io
from collections.abc import Mapping

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from yk_cli.core.config.guarantees import QueueGuarantee
from yk_cli.core.config.properties import Source
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import show
from yk_cli.core.resources import format_quantity, format_resource
from yk_cli.report.tree_common import (
    TreeView,
    absent_lines,
    guarantee_words,
    moment_words,
    provenance,
    queue_location,
    set_settings,
    shown_settings,
    unknown_location,
    unknown_properties,
    value_text,
    written_limits,
)

KEY_WIDTH = 26
VALUE_WIDTH = 10
STATE_STYLES = {"under": "yellow", "at": "green", "over": "red", "none": "dim"}


def headline(view: TreeView, queue: Queue) -> Text:
    """`tenant-a  parent · priority 10 · priority fence`: the first line of a queue."""
    text = Text(queue.name if queue.parent is not None else f"root  (partition {view.partition})", style="bold")
    facts = ["leaf" if queue.is_leaf else "parent"]
    if queue.dynamic:
        facts.append("dynamic")
    current = view.priority(queue)
    if current is not None:
        facts.append(f"priority {show(current)}")
    if queue.priority_fence:
        facts.append("priority fence")
    if queue.preemption_policy != "default":
        facts.append(f"preemption {queue.preemption_policy}")
    guarantee = view.guarantee(queue)
    if guarantee is not None:
        facts.append(guarantee_words(guarantee))
        if guarantee.over_max:
            facts.append("over max")
    text.append("  " + " · ".join(facts), style="cyan")
    where = queue_location(queue, view.locate) if view.set_only else ""
    if where:
        text.append(f"  ({where})", style="dim")
    return text


def against(allocated: dict[str, int], limit: dict[str, int], names: list[str], states: Mapping[str, str]) -> str:
    """`memory 6Gi of 4Gi over, vcore 1 of 2 under` (a state only where `states` gives one)."""
    parts = []
    for name in names:
        part = f"{name} {format_quantity(name, allocated.get(name, 0))} of {format_quantity(name, limit[name])}"
        parts.append(f"{part} {states[name]}" if name in states else part)
    return ", ".join(parts)


def guarantee_lines(queue: Queue, guarantee: QueueGuarantee) -> list[Text]:
    """The `guarantee` row (allocated of guaranteed, remaining guarantee, victims) and, when over it, the `max` row."""
    if guarantee.guaranteed:
        states = dict(guarantee.types) if guarantee.mixed else {}
        facts = [against(guarantee.allocated, guarantee.guaranteed, list(guarantee.types), states)]
    else:
        facts = ["nothing guaranteed here" if guarantee.remaining is not None else "nothing guaranteed on its path"]
    if guarantee.remaining is not None:
        remaining = f"remaining {format_resource(guarantee.remaining)}"
        elsewhere: dict[str, list[str]] = {}
        for name, path in guarantee.remaining_from.items():
            if path != queue.path:
                elsewhere.setdefault(path, []).append(name)
        if elsewhere:
            remaining += " (" + "; ".join(f"{', '.join(names)} from {path}" for path, names in elsewhere.items()) + ")"
        facts.append(remaining)
    if guarantee.victim_source is not None:
        if guarantee.victim_source:
            facts.append("may give victims")
        elif queue.preemption_policy == "disabled":
            facts.append("gives no victims (preemption disabled)")
        else:
            facts.append("gives no victims")
    line = Text(f"{'guarantee':<{KEY_WIDTH}} ")
    line.append(f"{guarantee.state:<{VALUE_WIDTH}}", style=STATE_STYLES[guarantee.state])
    line.append(" " + " · ".join(facts))
    lines = [line]
    if guarantee.over_max and guarantee.max:
        line = Text(f"{'max':<{KEY_WIDTH}} ")
        line.append(f"{'over':<{VALUE_WIDTH}}", style="red")
        line.append(" " + against(guarantee.allocated, guarantee.max, list(guarantee.over_max), {}))
        lines.append(line)
    return lines


def limit_lines(queue: Queue) -> list[Text]:
    """`guaranteed {…}  max {…}  maxapplications N`: the queue's limits in effect, on one line (none without)."""
    limits = []
    if queue.guaranteed:
        limits.append(f"guaranteed {format_resource(queue.guaranteed)}")
    if queue.max:
        limits.append(f"max {format_resource(queue.max)}")
    if queue.maxapplications:
        limits.append(f"maxapplications {queue.maxapplications}")
    return [Text("  ".join(limits))] if limits else []


Row = tuple[str, str, str, str]
"""A line under a queue's headline: key, value, where it came from, the style of that."""


def setting_rows(view: TreeView, queue: Queue) -> list[Row]:
    """Every setting in effect with its provenance, the parent's fair sorting, then the ignored keys."""
    rows = []
    for setting in shown_settings(queue):
        style = "red" if setting.fallback else "dim" if setting.source == Source.DEFAULT else "green"
        rows.append((setting.key, value_text(setting), provenance(queue, setting, view.locate), style))
    if not queue.is_leaf:
        rows.append(("sorting", "fair", "parents always sort their children fair", ""))
    for key, text, source, origin in unknown_properties(queue):
        rows.append((key, repr(text), ignored_text(view, queue, key, source, origin), "yellow"))
    return rows


def set_rows(view: TreeView, queue: Queue) -> list[Row]:
    """`--set-only`: the properties the file sets on the queue, its ignored keys, then its limits and child
    template as written, each with its line."""
    rows = []
    for setting in set_settings(queue):
        style = "red" if setting.fallback else "green"
        rows.append((setting.key, value_text(setting), provenance(queue, setting, view.locate), style))
    for key, text, source, origin in unknown_properties(queue):
        if source == Source.SET:
            rows.append((key, repr(text), ignored_text(view, queue, key, source, origin), "yellow"))
    for written in written_limits(queue, view.locate):
        rows.append(
            (written.key, written.text, f"set here ({written.where})" if written.where else "set here", "green")
        )
    return rows


def ignored_text(view: TreeView, queue: Queue, key: str, source: Source, origin: str) -> str:
    """`set here (f:12): not a YuniKorn property, ignored`, or inherited from its queue."""
    where = unknown_location(queue, key, source, origin, view.locate)
    whence = "set here" if source == Source.SET else f"inherited from {origin}"
    return f"{whence}{f' ({where})' if where else ''}: not a YuniKorn property, ignored"


def body(view: TreeView, queue: Queue) -> list[Text]:
    """The lines under a queue's headline: settings, ignored keys, limits, usage."""
    rows = set_rows(view, queue) if view.set_only else setting_rows(view, queue)
    key_width, value_width = KEY_WIDTH, VALUE_WIDTH
    if view.set_only:  # aligned per queue: keys and values as written may be long
        key_width = max([KEY_WIDTH, *(len(key) for key, _, _, _ in rows)])
        value_width = max([VALUE_WIDTH, *(len(value) for _, value, _, _ in rows)])
    lines: list[Text] = []
    for key, value, origin, style in rows:
        line = Text(f"{key:<{key_width}} {value:<{value_width}} ")
        line.append(origin, style=style)
        lines.append(line)
    if not view.set_only:
        lines.extend(limit_lines(queue))
    if view.usage is not None:
        usage = view.usage.get(queue.path)
        if usage is None:
            lines.append(Text("nothing pending or running", style="dim"))
        else:
            lines.append(
                Text(
                    f"pending {usage.pending} ask{'s' * (usage.pending != 1)} {format_resource(usage.pending_resource)}"
                    f" · running {usage.allocations} allocation{'s' * (usage.allocations != 1)} "
                    f"{format_resource(usage.allocated_resource)}"
                    f" · {usage.applications} application{'s' * (usage.applications != 1)}"
                )
            )
    guarantee = view.guarantee(queue)
    if guarantee is not None and (guarantee.remaining is not None or queue.is_leaf):
        lines.extend(guarantee_lines(queue, guarantee))  # a parent with nothing guaranteed has only its headline
    return lines


def label(view: TreeView, queue: Queue) -> Text:
    """Headline and body of one queue as one multi-line label."""
    return Text("\n").join([headline(view, queue), *(Text("  ") + line for line in body(view, queue))])


def build(view: TreeView) -> Tree:
    """The rich Tree of the whole partition."""
    top = Tree(label(view, view.tree.root), guide_style="dim")
    stack = [(top, view.tree.root)]
    while stack:
        node, queue = stack.pop()
        children = [(node.add(label(view, child)), child) for child in queue.children]
        stack.extend(reversed(children))
    return top


def render(view: TreeView, color: bool = False, width: int = 1000) -> str:
    """The tree as text; ANSI colors only when asked (a TTY), never wrapped below `width` columns."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        highlight=False,
        emoji=False,
        markup=False,
    )
    if view.usage is not None:
        console.print(Text(f"Pending, running and priorities {moment_words(view.at, view.steps)}", style="bold"))
    console.print(build(view))
    if view.usage is not None:
        lines = absent_lines(view.absent, view.at)
        if lines:
            console.print(Text("\n" + "\n".join(lines[:-1])))
    return buffer.getvalue()
