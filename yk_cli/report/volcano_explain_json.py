"""`yk volcano explain --format json`: one object (schemas/volcano-explain.schema.json)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from yk_cli.core.volcano.explain import PairExplanation, PodStory, SideFacts, VictimRecord
from yk_cli.core.volcano.framework import Decision
from yk_cli.report import jsonout
from yk_cli.report.volcano_proposal import proposal_json


def _decision(d: Decision) -> dict[str, Any]:
    return {"plugin": d.plugin, "tier": d.tier, "first": d.first, "second": d.second, "first_value": d.left,
            "second_value": d.right, "decides": bool(d.result)}


def _side(side: SideFacts) -> dict[str, Any]:
    moment = side.moment
    return {
        **asdict(side.subject),
        "job_priority": side.job_priority,
        "job_priority_source": side.job_priority_source,
        "task_priority": side.task_priority,
        "allocate_visit": side.visit,
        "at_visit": None if moment is None else {
            "pop": moment.step,
            "queues": dict(moment.queues),
            "other": moment.other_state,
            "comparisons": [_decision(d) for d in moment.trail],
        },
        "placed": list(side.bound),
        "reasons": list(side.reasons),
    }


def pair_json(e: PairExplanation) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "pair",
        "conf_source": e.conf_source,
        "asked": list(e.asked),
        "first": _side(e.first),
        "second": _side(e.second),
        "swapped": e.swapped,
        "level": e.level,
        "compared_at": e.when,
        "comparisons": [_decision(d) for d in e.trail],
        "decided_by": None if e.decided is None else _decision(e.decided),
        "statements": list(e.statements),
        "one_queue_comparisons": [_decision(d) for d in e.one_queue_trail],
        "changes": list(e.changes),
        "notes": list(e.notes),
    }
    if e.proposal is not None:
        data["proposal"] = {**proposal_json(e.proposal), "verdict": e.proposal_verdict}
    return data


def _record(r: VictimRecord) -> dict[str, Any]:
    return {
        "action": r.action,
        "preemptor": r.preemptor,
        "preemptor_job": r.preemptor_job,
        "preemptor_queue": r.preemptor_queue,
        "node": r.node,
        "outcome": r.outcome,
        "status": r.status,
        "role": r.role,
        "decided_by": r.decided_by,
        "filters": [{"tier": t, "plugin": p, "answer": a, "includes_pod": h} for t, p, a, h in r.steps],
        "quirk": r.quirk,
        "order": [{"task": t, "key": k, "evicted": t in r.evicted} for t, k in r.order],
    }


def pod_json(story: PodStory) -> dict[str, Any]:
    eviction = None
    if story.eviction is not None:
        action, preemptor, node = story.eviction
        eviction = {"action": action, "for": preemptor, "node": node}
    return {
        "kind": "pod",
        "conf_source": story.conf_source,
        "pod": asdict(story.subject),
        "status": story.status,
        "node": story.node,
        "verdict": story.verdict,
        "eviction": eviction,
        "selections": [_record(r) for r in story.records],
        "reasons": list(story.reasons),
        "waiting": [
            {
                "action": w.action,
                "reason": w.reason,
                "reasons": dict(w.counts),
                "nodes": [{"node": node, "reasons": list(reasons)} for node, reasons in w.nodes],
            }
            for w in story.waiting
        ],
        "placements": [
            {
                "action": pl.action,
                "node": pl.node,
                "pipelined": pl.pipelined,
                "tie": list(pl.tie),
                "scores": [
                    {"node": name, "total": total, "parts": dict(parts)} for name, total, parts in pl.scores
                ],
            }
            for pl in story.placements
        ],
        "victim_order_rule": story.rule,
        "notes": list(story.notes),
    }


def render(data: dict[str, Any]) -> str:
    return jsonout.document(data)
