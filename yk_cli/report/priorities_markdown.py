"""`yk priorities --format markdown`: the queue priorities at the stated time, the asks not pending then, and every
pending ask's breakdown, as GitHub-flavoured Markdown (for a pull-request comment)."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.analysis.snapshot import Absent
from yk_cli.core.config.properties import Source, format_duration
from yk_cli.core.ordering.priority import show
from yk_cli.report.priorities_common import PriorityView, sorts_by, step_causes
from yk_cli.report.tree_common import absent_groups, absent_title, depth_first, moment_words
from yk_cli.report.unmodelled import unmodelled_label


def cell(text: str) -> str:
    """A table cell: pipes escaped, never empty."""
    return text.replace("|", "\\|") if text else " "


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def absent_sections(absent: Sequence[Absent], at: int) -> list[str]:
    """A section per group of asks not pending at the stated time (arriving later, requesting nothing, held)."""
    out: list[str] = []
    for why, items in absent_groups(absent):
        out += [f"### {absent_title(why, items, at)}", ""]
        column = "Arrives" if why == "later" else "Arrived"
        out += [row(["Application", "Ask", "Queue", "Priority", column]), "|---|---|---|---:|---|"]
        for item in items:
            arrival = format_duration(item.arrival) if why != "never" else "never"
            out.append(row([item.application, item.ask.name, f"`{item.queue_path}`", f"P{item.ask.priority}", arrival]))
        out.append("")
    return out


def render(view: PriorityView) -> str:
    """The whole report."""
    at = format_duration(view.at)
    out = [f"## yk priorities: partition {view.partition} {moment_words(view.at, view.steps)}", ""]
    out += [f"> **{unmodelled_label(u)}:** {cell(u.message)}" for u in view.unmodelled]
    if view.unmodelled:
        out.append("")
    out += ["### Queue priorities", "", "_n/a: nothing pending._", ""]
    out += [row(["Queue", "Priority", "Offset", "Fence", "Sorts by"]), "|---|---:|---:|---|---|"]
    for queue in depth_first(view.tree):
        fence = "fence" if queue.priority_fence else ""
        priority = show(view.cache.queue_priority(queue.path))
        out.append(row([f"`{queue.path}`", priority, str(queue.priority_offset), fence, sorts_by(queue)]))
    out.append("")
    out += absent_sections(view.absent, view.at)
    out += [f"### Pending asks at {at}", ""]
    if not view.asks:
        out.append(f"No pending asks at {at}.")
    for item in view.asks:
        what = f" (placeholder of task group {item.ask.task_group})" if item.ask.placeholder else ""
        out.append(
            f"**ask {cell(item.ask.name)}**{what} · application {cell(item.application)} · `{item.queue_path}` · "
            f"effective priority **{show(item.effective)}**"
        )
        out += ["", row(["Step", "Priority", "What", "From"]), "|---|---:|---|---|"]
        for step in item.steps:
            label = step.kind if step.kind in ("ask", "application") else step.queue_path.rsplit(".", 1)[-1]
            if step.causes and all(c.setting.source == Source.DEFAULT for c in step.causes):
                origin = "default"
            else:
                origin = step_causes(view, step)
            detail = step.detail + (f" (note: {step.note})" if step.note else "")
            out.append(row([label, show(step.value), detail, origin]))
        out.append("")
    for app, reason in view.rejected:
        out.append(f"- application {cell(app.id)} is not placed, its asks are not pending anywhere: {cell(reason)}")
    return "\n".join(out).rstrip("\n") + "\n"
