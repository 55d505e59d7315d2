"""`yk explain --format json`: the explanation with every key field on both sides, keys in a fixed order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from yk_cli.core.analysis.explain import AskFacts, Comparison, Explanation, PrioritySide
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import MIN_PRIORITY, Step
from yk_cli.core.sim.unmodelled import Unmodelled
from yk_cli.report import jsonout
from yk_cli.report.trace_common import seconds
from yk_cli.report.tree_common import Locate, cause_text, nowhere
from yk_cli.report.unmodelled import unmodelled_dicts


def _priority(value: int) -> int | None:
    return None if value == MIN_PRIORITY else value


def ask_dict(facts: AskFacts) -> dict[str, Any]:
    """One of the two asks and its fate over the whole run."""
    allocated = None
    if facts.step is not None and facts.time is not None:
        allocated = {"step": facts.step, "time": seconds(facts.time), "node": facts.node}
    return {
        "application": facts.application,
        "ask": facts.ask,
        "queuePath": facts.queue_path,
        "priority": facts.priority,
        "submitTime": seconds(facts.submit_time),
        "allocated": allocated,
        "pending": {"code": facts.code, "reason": facts.reason} if allocated is None else None,
    }


def step_dict(step: Step, queues: Mapping[str, Queue], locate: Locate) -> dict[str, Any]:
    """One step of a priority breakdown."""
    return {
        "queuePath": step.queue_path,
        "kind": step.kind,
        "value": _priority(step.value),
        "detail": step.detail,
        "causes": [cause_text(c, locate, queues, step.queue_path) for c in step.causes],
    }


def side_dict(name: str, priority: PrioritySide, queues: Mapping[str, Queue], locate: Locate) -> dict[str, Any]:
    """One branch of the comparison: its name and where its priority comes from."""
    return {
        "name": name,
        "priority": _priority(priority.value),
        "priorityFrom": priority.driver,
        "priorityBreakdown": [step_dict(s, queues, locate) for s in priority.steps],
    }


def comparison_dict(comparison: Comparison, queues: Mapping[str, Queue], locate: Locate) -> dict[str, Any]:
    """The sort key compared at the lowest common ancestor."""
    return {
        "level": comparison.level,
        "at": comparison.at,
        "order": comparison.order,
        "sides": [side_dict(comparison.names[i], comparison.priorities[i], queues, locate) for i in (0, 1)],
        "fields": [{"name": f.name, "values": list(f.values), "texts": list(f.texts)} for f in comparison.fields],
        "decidedBy": comparison.deciding_field.name,
        "sortsFirst": comparison.names[comparison.first],
        "tie": comparison.tie,
    }


def render(
    explanation: Explanation,
    source: str,
    partition: str,
    queues: Mapping[str, Queue],
    locate: Locate = nowhere,
    unmodelled: Sequence[Unmodelled] = (),
    scheduler_log: Sequence[dict[str, object]] | None = None,
) -> str:
    """The whole JSON document (`schedulerLog`: a state dump's allocation logs beside yk's outcome, when given)."""
    winner = explanation.asks[explanation.winner] if explanation.winner is not None else None
    reservation = None
    if explanation.reserved_node:
        reserved_time = explanation.reserved_time
        reservation = {
            "node": explanation.reserved_node,
            "step": explanation.reserved_at,
            "time": seconds(reserved_time) if reserved_time is not None else None,
        }
    data = {
        "source": source,
        "partition": partition,
        "notModelled": unmodelled_dicts(unmodelled),
        "asks": [ask_dict(f) for f in explanation.asks],
        "first": f"{winner.application}/{winner.ask}" if winner is not None else None,
        "verdict": explanation.verdict,
        "summary": explanation.summary,
        "step": explanation.step,
        "time": seconds(explanation.time) if explanation.time is not None else None,
        "comparison": comparison_dict(explanation.comparison, queues, locate) if explanation.comparison else None,
        "other": {"code": explanation.other_code, "reason": explanation.other_reason}
        if explanation.other_code
        else None,
        "reservation": reservation,
    }
    if scheduler_log is not None:
        data["schedulerLog"] = list(scheduler_log)
    return jsonout.document(data)
