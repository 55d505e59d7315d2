"""`yk explain --format markdown`: the answer, the two asks, the sort key compared at their common queue and the
priority breakdowns (or, for one pod, what preemption did to it) as GitHub-flavoured Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.analysis.explain import BOTH_PENDING, RESERVATION, SORTED_FIRST, Comparison, Explanation
from yk_cli.core.analysis.explain_preemption import PodStory
from yk_cli.core.config.properties import Source, format_duration
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import show
from yk_cli.core.sim.trace import NodeView
from yk_cli.core.sim.unmodelled import Unmodelled
from yk_cli.report.explain_text import NOT_PENDING, outcome
from yk_cli.report.pod_story import NODE_EVENTS, sighting_text, story_lines
from yk_cli.report.priorities_markdown import cell, row
from yk_cli.report.trace_common import attempt_title, when
from yk_cli.report.tree_common import Locate, cause_text, nowhere
from yk_cli.report.unmodelled import unmodelled_label


def _head(source: str, partition: str, unmodelled: Sequence[Unmodelled]) -> list[str]:
    out = [f"## yk explain: {source}; partition {partition}", ""]
    out += [f"> **{unmodelled_label(u)}:** {cell(u.message)}" for u in unmodelled]
    return [*out, ""] if unmodelled else out


def render(
    explanation: Explanation,
    source: str,
    partition: str,
    queues: Mapping[str, Queue],
    locate: Locate = nowhere,
    unmodelled: Sequence[Unmodelled] = (),
) -> str:
    """Which of two asks goes first, and why."""
    out = _head(source, partition, unmodelled)
    out += [f"**{cell(explanation.summary)}**", ""]
    out += [row(["Ask", "Application", "Queue", "Priority", "Submitted", "Outcome"]), "|---|---|---|---:|---|---|"]
    for facts in explanation.asks:
        queue = f"`{facts.queue_path}`" if facts.queue_path else "-"
        submitted = format_duration(facts.submit_time)
        out.append(row([facts.ask, facts.application, queue, f"P{facts.priority}", submitted, outcome(facts)]))
    comparison = explanation.comparison
    if comparison is not None:
        out += ["", *_comparison(explanation, comparison)]
        if comparison.deciding_field.name == "priority":
            for side in (0, 1):
                out += ["", *_breakdown(comparison, side, queues, locate)]
    if explanation.verdict == RESERVATION and explanation.reserved_node:
        since = f" at step {explanation.reserved_at}" if explanation.reserved_at is not None else ""
        if explanation.reserved_time is not None:
            since += f" ({format_duration(explanation.reserved_time)})"
        winner = explanation.asks[explanation.winner or 0].ask
        out += [
            "",
            f"{cell(winner)} reserved node {cell(explanation.reserved_node)}{since}: it had waited more than 2s and "
            "no node had room for it. A reserved node takes no other ask until the reservation is used.",
        ]
    if explanation.other_reason and explanation.winner is not None and explanation.verdict != BOTH_PENDING:
        other = explanation.asks[1 - explanation.winner]
        moment = f"At step {explanation.step} ({format_duration(explanation.time or 0)})"
        if explanation.other_code in NOT_PENDING:
            state = "was not pending"
        elif explanation.verdict == SORTED_FIRST:
            state = "could not have been placed either"
        else:
            state = "could not be placed"
        reason = f"{cell(explanation.other_reason)} (`{explanation.other_code}`)"
        out += ["", f"{moment} {cell(other.ask)} {state}: {reason}."]
    return "\n".join(out) + "\n"


def _comparison(explanation: Explanation, comparison: Comparison) -> list[str]:
    asks = explanation.asks
    names = comparison.names
    heads = (f"{names[0]} ({asks[0].ask})", f"{names[1]} ({asks[1].ask})") if comparison.level != "ask" else names
    meet = {
        "queue": f"Their branches meet at `{comparison.at}`",
        "application": f"Both are in the leaf queue `{comparison.at}`",
        "ask": "Both belong to one application",
    }[comparison.level]
    moment = f"At step {explanation.step} ({format_duration(explanation.time or 0)}) both asks were pending."
    out = [f"{moment} {meet}: {cell(comparison.order)}.", ""]
    out += [row(["Key", heads[0], heads[1], ""]), "|---|---|---|---|"]
    for i, field in enumerate(comparison.fields):
        mark = "**first difference**" if i == comparison.deciding else ""
        out.append(row([field.name, field.texts[0], field.texts[1], mark]))
    if comparison.tie:
        name = comparison.deciding_field.name
        random = "YuniKorn would pick at random (Go map order)"
        out += ["", f"Every field before {name} is equal: {random}; yk uses {name}."]
    return out


def _breakdown(comparison: Comparison, side: int, queues: Mapping[str, Queue], locate: Locate) -> list[str]:
    priority = comparison.priorities[side]
    what = {"queue": "Priority of", "application": "Priority of application", "ask": "Priority of ask"}
    out = [
        f"**{what[comparison.level]} {cell(comparison.names[side])}: {show(priority.value)}**, from "
        f"{cell(priority.driver)}"
    ]
    if not priority.steps:
        return out
    out += ["", row(["Step", "Priority", "What", "From"]), "|---|---:|---|---|"]
    for step in priority.steps:
        label = step.kind if step.kind in ("ask", "application") else step.queue_path.rsplit(".", 1)[-1]
        if step.causes and all(c.setting.source == Source.DEFAULT for c in step.causes):
            origin = "default"
        else:
            origin = "; ".join(cause_text(c, locate, queues, step.queue_path) for c in step.causes)
        out.append(row([label, show(step.value), step.detail, origin]))
    return out


def render_story(
    story: PodStory, source: str, partition: str, locate: Locate = nowhere, unmodelled: Sequence[Unmodelled] = ()
) -> str:
    """What preemption did to one pod."""
    out = _head(source, partition, unmodelled)
    first, *more = story_lines(story)
    out += [f"**{cell(first)}**", *(cell(line.strip()) for line in more), ""]
    if story.sightings:
        out += ["### Tries that looked at it as a victim", ""]
        out += [f"- {cell(sighting_text(s, locate))}" for s in story.sightings]
        out.append("")
    if story.tries:
        out += [f"### Its own preemption tries ({len(story.tries)})", ""]
        out += [f"- {cell(attempt_title(a))}" for a in story.tries]
        out.append("")
    if story.pending is not None:
        out += [f"**Still pending:** {cell(story.pending.reason)}", ""]
    out += _nodes(story.nodes)
    return "\n".join(out).rstrip("\n") + "\n"


def _nodes(view: NodeView | None) -> list[str]:
    if view is None:
        return []
    if view.event:
        title = f"The nodes when it {NODE_EVENTS.get(view.event, view.event)} (step {view.step}, {when(view.time)})"
    else:
        title = f"The nodes at the end of the run ({when(view.time)})"
    out = [f"### {title}", "", row(["Node", "Order", "Verdict", "Why"]), "|---|---:|---|---|"]
    for v in view.nodes:
        why = v.plugin
        if v.reasons and not v.plugin.startswith("reserved by"):
            why = f"{v.plugin}: {', '.join(v.reasons)}"
        out.append(row([v.node, str(v.order) if v.order else "-", v.verdict, why]))
    out += ["", "_Order: the partition's node order then; the first node that fits and passes takes the pod._", ""]
    return out
