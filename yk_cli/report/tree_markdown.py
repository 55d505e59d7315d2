"""`yk tree --format markdown`: the queue tree for a pull request or a wiki page: the Mermaid chart in its fenced
```mermaid block (GitHub renders it), every queue's settings with where each came from, and with a workload what each
queue holds at the stated time and the asks not pending then."""

from __future__ import annotations

from yk_cli.core.config.properties import Source
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import show
from yk_cli.core.resources import format_resource
from yk_cli.report import tree_mermaid
from yk_cli.report.priorities_markdown import absent_sections, cell, row
from yk_cli.report.tree_common import (
    TreeView,
    depth_first,
    guarantee_words,
    moment_words,
    provenance,
    set_settings,
    shown_settings,
    unknown_location,
    unknown_properties,
    value_text,
    written_limits,
)


def setting_rows(view: TreeView, queue: Queue) -> list[tuple[str, str, str]]:
    """(setting, value, where it came from) of one queue: what `yk tree` lists under it (with --set-only, only what the
    file sets on it, limits and child template as written)."""
    out: list[tuple[str, str, str]] = []
    settings = set_settings(queue) if view.set_only else shown_settings(queue)
    for setting in settings:
        out.append((setting.key, value_text(setting), provenance(queue, setting, view.locate)))
    if not queue.is_leaf and not view.set_only:
        out.append(("sorting", "fair", "parents always sort their children fair"))
    for key, text, source, origin in unknown_properties(queue):
        if view.set_only and source != Source.SET:
            continue
        where = unknown_location(queue, key, source, origin, view.locate)
        whence = "set here" if source == Source.SET else f"inherited from {origin}"
        out.append((key, repr(text), f"{whence}{f' ({where})' if where else ''}: not a YuniKorn property, ignored"))
    if view.set_only:
        for written in written_limits(queue, view.locate):
            out.append((written.key, written.text, f"set here ({written.where})" if written.where else "set here"))
        return out
    if queue.guaranteed:
        out.append(("guaranteed", format_resource(queue.guaranteed), "in effect"))
    if queue.max:
        out.append(("max", format_resource(queue.max), "in effect"))
    if queue.maxapplications:
        out.append(("maxapplications", str(queue.maxapplications), "in effect"))
    return out


def render(view: TreeView) -> str:
    """The whole report."""
    out = [f"## yk tree: partition {view.partition}", ""]
    if view.usage is not None:
        out += [f"_Pending, running and priorities {moment_words(view.at, view.steps)}._", ""]
    out += ["```mermaid", *tree_mermaid.render(view).splitlines(), "```", ""]
    queues = depth_first(view.tree)
    out += ["### Settings" + (" set in the file" if view.set_only else ""), ""]
    out += [row(["Queue", "Setting", "Value", "From"]), "|---|---|---|---|"]
    for queue in queues:
        for key, value, origin in setting_rows(view, queue):
            out.append(row([f"`{queue.path}`", key, value, origin]))
    out.append("")
    if view.usage is not None:
        out += ["### What each queue holds", ""]
        out += [row(["Queue", "Priority", "Pending", "Running", "Applications", "Guarantee"])]
        out.append("|---|---:|---|---|---:|---|")
        for queue in queues:
            usage = view.usage.get(queue.path)
            priority = view.priority(queue)
            pending = running = "nothing"
            apps = "0"
            if usage is not None:
                pending = f"{usage.pending} ({format_resource(usage.pending_resource)})"
                running = f"{usage.allocations} ({format_resource(usage.allocated_resource)})"
                apps = str(usage.applications)
            guarantee = view.guarantee(queue)
            state = guarantee_words(guarantee) if guarantee is not None else ""
            if guarantee is not None and guarantee.over_max:
                state += " · over max"
            shown = show(priority) if priority is not None else ""
            out.append(row([f"`{queue.path}`", shown, pending, running, apps, state]))
        out.append("")
        out += absent_sections(view.absent, view.at)
    for app, reason in view.rejected:
        out.append(f"- application {cell(app.id)} is not placed: {cell(reason)}")
    return "\n".join(out).rstrip("\n") + "\n"
