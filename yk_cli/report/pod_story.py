"""`yk explain POD`: what preemption did to a pod, as text or JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yk_cli.core.analysis.explain_preemption import PodStory, Sighting
from yk_cli.core.sim.trace import ALLOCATE, REPLACE, RESERVE, NodeView, PreemptionAttempt
from yk_cli.core.sim.unmodelled import Unmodelled
from yk_cli.report import jsonout
from yk_cli.report.trace_common import attempt_title, moment, seconds, when
from yk_cli.report.trace_json import attempt_dict
from yk_cli.report.tree_common import Locate, nowhere
from yk_cli.report.unmodelled import unmodelled_dicts, unmodelled_lines


def render_text(
    story: PodStory, source: str, partition: str, locate: Locate = nowhere, unmodelled: Sequence[Unmodelled] = ()
) -> str:
    """The story in words: preempted or not, by whom, and every try that looked at the pod."""
    out = [f"yk explain: {source}; partition {partition}", "", *unmodelled_lines(unmodelled), *story_lines(story)]
    if story.sightings:
        out += ["", "Tries that looked at it as a victim:"]
        out.extend(_sighting(s, locate) for s in story.sightings)
    if story.tries:
        out += ["", f"Its own preemption tries ({len(story.tries)}):"]
        out.extend("- " + attempt_title(a) for a in story.tries)
    if story.pending is not None:
        out += ["", f"Still pending: {story.pending.reason}"]
    out.extend(_node_lines(story.nodes))
    return "\n".join(out) + "\n"


def story_lines(story: PodStory) -> list[str]:
    """The answer: preempted (when, by whom, and why it qualified) or not, in a line or two."""
    pod = f"{story.application}/{story.name}" + (f" ({story.queue_path})" if story.queue_path else "")
    event = story.preempted_by
    if event is not None and not event.ask:
        return [
            f"{pod} was preempted at {when(event.time)} (step {event.step}) by quota preemption: "
            f"{event.queue_path} was over its max."
        ]
    if event is not None:
        out = [
            f"{pod} was preempted at {when(event.time)} (step {event.step}) by {event.application}/{event.ask} "
            f"({event.queue_path}) to free {event.node}."
        ]
        taken = next((s for s in story.sightings if s.candidate.verdict == "victim"), None)
        if taken is not None:
            out.append(f"  why it qualified: {taken.candidate.detail}")
        return out
    if story.sightings:
        count = len(story.sightings)
        return [f"{pod} was never preempted; {count} preemption {'try' if count == 1 else 'tries'} looked at it."]
    if story.tries or story.pending is not None:
        return [f"{pod} is an ask; no preemption try looked at it as a victim."]
    return [f"{pod} was never a preemption candidate: no try in the run reached it."]


NODE_EVENTS = {ALLOCATE: "was allocated", REPLACE: "replaced its placeholder", RESERVE: "reserved a node"}


def _node_lines(view: NodeView | None) -> list[str]:
    """Every node's verdict on the pod when it was placed (or reserved a node), else at the end of the run."""
    if view is None:
        return []
    if view.event:
        title = f"The nodes when it {NODE_EVENTS.get(view.event, view.event)} (step {view.step}, {when(view.time)}):"
    else:
        title = f"The nodes at the end of the run ({when(view.time)}):"
    rows = [("NODE", "ORDER", "VERDICT", "WHY")]
    for v in view.nodes:
        why = v.plugin
        if v.reasons and not v.plugin.startswith("reserved by"):
            why = f"{v.plugin}: {', '.join(v.reasons)}"
        rows.append((v.node, str(v.order) if v.order else "-", v.verdict, why))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  " + "  ".join(row[i].ljust(widths[i]) for i in range(3)) + "  " + row[3] for row in rows]
    note = "(ORDER: the partition's node order then; the first node that fits and passes takes the pod)"
    return ["", title, *[line.rstrip() for line in lines], note]


def _sighting(s: Sighting, locate: Locate) -> str:
    return "- " + sighting_text(s, locate)


def sighting_text(s: Sighting, locate: Locate) -> str:
    """One try that looked at the pod as a victim: when, for whom, the verdict, the law and the config line."""
    a, c = s.attempt, s.candidate
    line = f"{moment(a.time, a.after_step)}, for {a.application}/{a.ask} (P{a.priority}): {c.verdict}"
    if c.detail:
        line += f": {c.detail}"
    if s.law:
        line += f" [{s.law}]"
    where = locate(s.config) if s.config else ""
    if where:
        line += f" ({where})"
    return line


def render_json(
    story: PodStory,
    source: str,
    partition: str,
    locate: Locate = nowhere,
    unmodelled: Sequence[Unmodelled] = (),
    scheduler_log: Sequence[dict[str, object]] | None = None,
) -> str:
    """The story as one JSON document (`schedulerLog`: a state dump's allocation log beside yk's outcome)."""
    event = story.preempted_by
    document: dict[str, Any] = {
        "source": source,
        "partition": partition,
        "notModelled": unmodelled_dicts(unmodelled),
        "application": story.application,
        "pod": story.name,
        "queuePath": story.queue_path,
        "preempted": event is not None,
        "preemptedBy": None
        if event is None
        else {
            "step": event.step,
            "time": seconds(event.time),
            "application": event.application,
            "ask": event.ask,
            "queuePath": event.queue_path,
            "node": event.node,
        },
        "sightings": [
            {
                **_attempt(s.attempt),
                "verdict": s.candidate.verdict,
                "detail": s.candidate.detail,
                "law": s.law,
                "config": locate(s.config) if s.config else "",
            }
            for s in story.sightings
        ],
        "tries": [_attempt(a) | {"outcome": a.outcome, "node": a.node} for a in story.tries],
        "pendingReason": story.pending.reason if story.pending is not None else None,
        "nodes": _node_view(story.nodes),
    }
    if scheduler_log is not None:
        document["schedulerLog"] = list(scheduler_log)
    return jsonout.document(document)


def _node_view(view: NodeView | None) -> dict[str, Any] | None:
    if view is None:
        return None
    return {
        "event": view.event or None,
        "step": view.step or None,
        "time": seconds(view.time),
        "verdicts": [
            {"node": v.node, "order": v.order, "verdict": v.verdict, "plugin": v.plugin, "reasons": list(v.reasons)}
            for v in view.nodes
        ],
    }


def _attempt(a: PreemptionAttempt) -> dict[str, Any]:
    """The try as `yk simulate --format json` writes it, without its outcome and candidates."""
    return {k: v for k, v in attempt_dict(a).items() if k not in ("outcome", "node", "candidates")}
