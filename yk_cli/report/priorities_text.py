"""`yk priorities`: a table of queue priorities, then every pending ask's breakdown in the spirit of sprio."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config.properties import Source, format_duration
from yk_cli.core.ordering.priority import AskBreakdown, Step, show
from yk_cli.report.priorities_common import PriorityView, sorts_by, step_causes
from yk_cli.report.tree_common import absent_lines, depth_first, moment_words
from yk_cli.report.unmodelled import unmodelled_lines

VALUE_WIDTH = 11
"""Wide enough for -2147483648."""


def queue_table(view: PriorityView) -> list[str]:
    """One row per queue, indented by depth, in tree order."""
    rows = [("QUEUE", "PRIORITY", "OFFSET", "FENCE", "SORTS BY")]
    for queue in depth_first(view.tree):
        depth = queue.path.count(".")
        rows.append(
            (
                "  " * depth + queue.name,
                show(view.cache.queue_priority(queue.path)),
                str(queue.priority_offset),
                "fence" if queue.priority_fence else "",
                sorts_by(queue),
            )
        )
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    return [f"{r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]:>{w[2]}}  {r[3]:<{w[3]}}  {r[4]}".rstrip() for r in rows]


def render(view: PriorityView) -> str:
    """The whole report."""
    return "".join(chunks(view))


def chunks(view: PriorityView) -> Iterator[str]:
    """The report in pieces, one per ask (large reports are printed as they are made)."""
    at = format_duration(view.at)
    yield "".join(f"{line}\n" for line in unmodelled_lines(view.unmodelled))
    moment = moment_words(view.at, view.steps)
    yield f"Queue priorities in partition {view.partition} {moment} (n/a: nothing pending)\n\n"
    yield "".join(f"{row}\n" for row in queue_table(view))
    yield "\n"
    yield "".join(f"{line}\n" for line in absent_lines(view.absent, view.at))
    if not view.asks:
        yield f"No pending asks at {at}.\n"
    else:
        yield f"Pending asks at {at}: effective priority as seen from root, step by step\n"
        label_width = max(11, *(len(q.name) for q in view.tree.queues.values()))
        indent = " " * (2 + label_width + 1 + VALUE_WIDTH + 2)
        lines: dict[int, str] = {}

        def step_lines(step: Step) -> str:
            key = id(step)
            text = lines.get(key)
            if text is None:
                label = step.kind if step.kind in ("ask", "application") else step.queue_path.rsplit(".", 1)[-1]
                head = f"  {label:<{label_width}} {show(step.value):>{VALUE_WIDTH}}  {step.detail}"
                if step.causes and all(c.setting.source == Source.DEFAULT for c in step.causes):
                    parts = [head + " (default)"]
                else:
                    parts = [head]
                    causes = step_causes(view, step)
                    if causes:
                        parts.append(f"{indent}from {causes}")
                if step.note:
                    parts.append(f"{indent}note: {step.note}")
                text = lines[key] = "\n".join(parts)
            return text

        chains: dict[tuple[str, int], str] = {}
        for item in view.asks:
            steps = item.steps
            chain_key = (item.queue_path, item.ask.priority)
            chain = chains.get(chain_key)
            if chain is None:  # the queue steps depend only on the leaf and the ask's priority
                chain = chains[chain_key] = "\n".join(step_lines(step) for step in steps[2:])
            yield f"\n{headline(item)}\n{step_lines(steps[0])}\n{step_lines(steps[1])}\n{chain}\n"
    for app, reason in view.rejected:
        yield f"\napplication {app.id} is not placed, its asks are not pending anywhere: {reason}\n"


def headline(item: AskBreakdown) -> str:
    """`ask a1-p8 · application child-a-1 · root.tenants.tenant-a.child-a-1 · effective 0`; a gang's placeholder
    says so (`ask tg-etl-driver-0 (placeholder of task group driver) · ...`)."""
    what = f" (placeholder of task group {item.ask.task_group})" if item.ask.placeholder else ""
    return (
        f"ask {item.ask.name}{what} · application {item.application} · {item.queue_path} · "
        f"effective priority {show(item.effective)}"
    )
