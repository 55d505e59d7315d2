"""`yk volcano explain` as text: the answer first, then the comparisons Volcano made with their values, then what
would change the outcome; for one pod, every victim selection that looked at it."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence

from yk_cli.core.volcano.explain import PairExplanation, Placement, PodStory, SideFacts, VictimRecord, node_lines
from yk_cli.core.volcano.framework import Decision
from yk_cli.report.volcano_proposal import proposal_text

WIDTH = 100
LEVEL_TITLE = {
    "tasks": "Two tasks of one job: TaskOrderFn decides",
    "jobs": "One queue: JobOrderFn decides",
    "queues": "Different queues: QueueOrderFn decides",
    "never": "Neither is served in this session",
}


def _wrap(text: str, indent: str, first: str | None = None) -> Iterator[str]:
    lines = textwrap.wrap(text, WIDTH - len(indent), break_on_hyphens=False) or [""]
    for i, line in enumerate(lines):
        yield (first if first is not None and i == 0 else indent) + line + "\n"


def _bullets(items: Sequence[str], indent: str = "  ") -> Iterator[str]:
    for item in items:
        yield from _wrap(item, indent + "  ", indent + "- ")


def trail_lines(trail: Sequence[Decision], indent: str = "  ") -> Iterator[str]:
    """The chain's comparisons in order: ties, then the one that decided."""
    for i, d in enumerate(trail, start=1):
        where = f"{d.plugin} (tier {d.tier})" if d.tier else d.plugin
        verdict = f"decides: {d.first} first" if d.result else "tie"
        head = f"{indent}{i}. "
        yield from _wrap(f"{where}: {d.left} vs {d.right} -> {verdict}", " " * len(head), head)


def _side(side: SideFacts) -> str:
    s = side.subject
    what = f"task of job {s.job}" if s.kind == "task" else "job"
    parts = [f"{s.name}: {what}, queue {s.queue or '-'}"]
    if side.job_priority is not None:
        parts.append(f"job priority {side.job_priority} ({side.job_priority_source})")
    if side.task_priority is not None:
        parts.append(f"task priority {side.task_priority}")
    parts.append(f"first allocate visit: pop {side.visit}" if side.visit is not None else "never visited by allocate")
    if side.bound:
        parts.append("placed: " + ", ".join(side.bound))
    else:
        parts.append("placed: nothing")
    return "; ".join(parts)


def render_pair_lines(e: PairExplanation) -> Iterator[str]:
    first, second = e.first.subject, e.second.subject
    yield f"Volcano: why {e.asked[0]} before {e.asked[1]}?\n"
    yield f"conf: {e.conf_source}\n"
    for note in e.notes:
        yield from _wrap(note, "    ", "note: ")
    yield "\n"
    if e.level == "never":
        answer = f"Neither {first.name} nor {second.name} is served by allocate in this session."
    else:
        assert e.first.visit is not None or e.level == "tasks"
        answer = f"{first.name} is served first"
        if e.level == "tasks":
            answer += f": allocate takes the tasks of {first.job} in task order, and {first.name} comes first."
        else:
            later = f"pop {e.second.visit}" if e.second.visit is not None else "never"
            answer += f" (first allocate visit: pop {e.first.visit}; {second.name}: {later})."
        if e.swapped:
            answer += f" That is the other way round from the question: {e.asked[1]} goes before {e.asked[0]}."
    yield from _wrap("Answer: " + answer, "  ", "")
    yield "\n"
    yield from _wrap(_side(e.first), "    ", "  ")
    yield from _wrap(_side(e.second), "    ", "  ")
    yield "\n"
    yield f"{LEVEL_TITLE[e.level]}, as compared at {e.when}:\n"
    moment = e.first.moment
    if moment is not None and e.level == "queues":
        for name, text in moment.queues.items():
            yield from _wrap(f"queue {name}: {text}", "      ", "    ")
    if e.trail:
        yield from trail_lines(e.trail, "    ")
    elif moment is not None:
        yield from _wrap(f"{second.name} was not there to compare: its {'queue' if e.level == 'queues' else 'job'} "
                         f"was {moment.other_state}.", "    ", "    ")
    if e.statements:
        yield "\n"
        for statement in e.statements:
            yield from _wrap(statement, "")
        ja, jb = e.first.job_priority, e.second.job_priority
        if ja is not None and jb is not None:
            if jb > ja:
                yield from _wrap(f"Here {second.job} has the higher job priority ({jb} > {ja}) and still goes "
                                 "second.", "")
            else:
                yield from _wrap(f"Job priorities ({first.job} {ja}, {second.job} {jb}) were not compared.", "")
    later_moment = e.second.moment
    if later_moment is not None and e.level == "queues":
        yield "\n"
        yield f"When {second.job} was first visited (allocate pop {later_moment.step}):\n"
        for name, text in later_moment.queues.items():
            yield from _wrap(f"queue {name}: {text}", "      ", "    ")
    for side in (e.first, e.second):
        if side.reasons:
            yield "\n"
            yield f"Why {side.subject.name} gets nothing:\n"
            yield from _bullets(side.reasons)
    if e.one_queue_trail:
        yield "\n"
        yield "If both jobs were in one queue (JobOrderFn):\n"
        yield from trail_lines(e.one_queue_trail, "    ")
    if e.changes:
        yield "\n"
        yield "What would change the outcome:\n"
        yield from _bullets(e.changes)
    if e.proposal is not None:
        yield "\n"
        yield from proposal_text(e.proposal)
        if e.proposal_verdict:
            yield from _wrap(f"Under the proposal, {e.proposal_verdict}.", "  ", "  ")


def render_pair(e: PairExplanation) -> str:
    return "".join(render_pair_lines(e))


def _record_lines(r: VictimRecord, index: int) -> Iterator[str]:
    head = (f"{index}. {r.action} for {r.preemptor} (job {r.preemptor_job}, queue {r.preemptor_queue}) on node "
            f"{r.node}: {r.outcome}")
    yield from _wrap(head, "     ", "  ")
    chosen = r.decided_by and r.status in ("evicted", "not needed", "undone")
    yield from _wrap(f"this pod: {r.role}" + (f"; chosen by {r.decided_by}" if chosen else ""), "       ", "     ")
    if r.steps:
        yield "     victim filters, tier by tier:\n"
        for tier, plugin, answer, holds in r.steps:
            mark = ""
            if holds is not None and r.status != "excluded":
                mark = "; includes this pod" if holds else "; not this pod"
            yield from _wrap(f"tier {tier} {plugin}: {answer}{mark}", "         ", "       ")
    if r.quirk:
        yield from _wrap(f"quirk: {r.quirk}", "       ", "     ")
    if r.order:
        yield "     victim order (first evicted first):\n"
        for i, (task, key) in enumerate(r.order, start=1):
            evicted = " [evicted]" if task in r.evicted else ""
            yield from _wrap(f"{i}. {task}{evicted}: {key}", "          ", "       ")


def render_pod_lines(story: PodStory) -> Iterator[str]:
    s = story.subject
    yield f"Volcano: what reclaim and preempt did to {s.name}\n"
    yield f"conf: {story.conf_source}\n"
    for note in story.notes:
        yield from _wrap(note, "    ", "note: ")
    yield "\n"
    where = f"on node {story.node}" if story.node else "on no node"
    status = story.status or "not a Volcano task"
    yield from _wrap(f"{s.name}: task of job {s.job or '-'}, queue {s.queue or '-'}, {status} {where}.", "  ", "")
    if story.eviction is not None:
        action, preemptor, node = story.eviction
        answer = f"Evicted by {action} on node {node} to make room for {preemptor}."
    elif story.verdict == "spared":
        answer = "Spared: victim selections looked at it and kept it."
    elif story.waiting:
        answer = "Waiting: no node takes it (why below); no victim selection looked at it."
    else:
        answer = "Not considered: no victim selection looked at it."
    yield from _wrap("Answer: " + answer, "  ", "")
    if story.records:
        yield "\n"
        yield "Victim selections that looked at it, in session order:\n"
        for i, record in enumerate(story.records, start=1):
            yield from _record_lines(record, i)
        yield "\n"
        yield from _wrap(story.rule[0].upper() + story.rule[1:] + ".", "")
    if story.reasons:
        yield "\n"
        yield "Why:\n"
        yield from _bullets(story.reasons)
    for placement in story.placements:
        yield "\n"
        yield from _placement_lines(placement)
    if story.waiting:
        yield "\n"
        yield "Why it waits (no node takes it):\n"
        for wait in story.waiting:
            yield from _wrap(f"{wait.action}: {wait.reason}", "    ", "  - ")
            yield from _bullets(node_lines(wait.nodes), "    ")


SCORES_SHOWN = 10
"""Candidates listed by a node choice (the best ones; the rest are counted)."""


def _score(value: float) -> str:
    return f"{value:.6g}"


def _placement_lines(placement: Placement) -> Iterator[str]:
    """A node choice: the chosen node, the tie if any, and the best candidates' scores by plugin."""
    how = "pipelined onto" if placement.pipelined else "placed on"
    count = len(placement.scores)
    yield from _wrap(
        f"Node choice ({placement.action}): {how} {placement.node}, the best total of {count} candidate node"
        f"{'s' if count != 1 else ''}"
        + (" (one candidate: Volcano takes it without scoring)." if count == 1 else "."),
        "  ",
        "",
    )
    if placement.tie:
        yield from _wrap(
            f"A tie: {', '.join(placement.tie)} scored the same {_score(placement.scores[0][1])}; Volcano picks "
            "one of them at random, yk the smallest name.",
            "  ",
            "",
        )
    for name, total, parts in placement.scores[:SCORES_SHOWN]:
        detail = ", ".join(f"{plugin} {_score(value)}" for plugin, value in parts) or "no node order plugin"
        yield from _wrap(f"{name}: {_score(total)} ({detail})", "      ", "    ")
    if count > SCORES_SHOWN:
        yield f"    ... and {count - SCORES_SHOWN} more candidates with lower or equal totals\n"


def render_pod(story: PodStory) -> str:
    return "".join(render_pod_lines(story))
