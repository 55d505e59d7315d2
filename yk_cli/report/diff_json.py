"""`yk diff --format json`: the diff as documented in schemas/diff.schema.json."""

from __future__ import annotations

from typing import Any

from yk_cli.core.diagnostics import Problem, Span
from yk_cli.core.diff.model import (
    AskRun,
    Diff,
    Placement,
    Preemption,
    Provenance,
    Reorder,
    RunChanges,
    WorkloadChanges,
)
from yk_cli.core.diff.verdict import FailOn
from yk_cli.core.ordering.priority import MIN_PRIORITY
from yk_cli.report import jsonout
from yk_cli.report.diff_common import summary_line
from yk_cli.report.diff_metrics import metrics_dict
from yk_cli.report.problems_json import problem_dict
from yk_cli.report.trace_common import seconds
from yk_cli.report.trace_json import summary_dict


def _line(span: Span | None) -> int | None:
    return span.line if span is not None else None


def _provenance(p: Provenance) -> dict[str, Any]:
    return {"source": p.source, "origin": p.origin, "line": p.line or None, "fallback": p.fallback, "text": p.text}


def _problem(p: Problem) -> dict[str, Any]:
    return problem_dict(p)


def _priority(value: int) -> int | None:
    return None if value == MIN_PRIORITY else value


def _placement(p: Placement) -> dict[str, Any]:
    return {"queuePath": p.queue_path, "reason": p.reason}


def _run(r: AskRun) -> dict[str, Any]:
    return {
        "queuePath": r.queue_path,
        "start": seconds(r.start) if r.start is not None else None,
        "node": r.node,
        "step": r.step,
        "code": r.code,
        "reason": r.reason,
    }


def _preemption(p: Preemption) -> dict[str, Any]:
    return {
        "type": p.type,
        "time": seconds(p.time),
        "preemptor": {"application": p.preemptor_application, "ask": p.preemptor_ask, "queuePath": p.preemptor_queue},
        "victim": {"application": p.victim_application, "allocation": p.victim_allocation, "queuePath": p.victim_queue},
        "node": p.node,
    }


def _reorder(r: Reorder) -> dict[str, Any]:
    return {
        "application": r.application,
        "ask": r.ask,
        "queuePath": r.new.queue_path,
        "before": {"start": seconds(r.old.start or 0), "step": r.old.step},
        "after": {"start": seconds(r.new.start or 0), "step": r.new.step},
        "aheadOf": {"total": r.ahead_total, "asks": list(r.ahead)},
        "behind": {"total": r.behind_total, "asks": list(r.behind)},
    }


def run_dict(run: RunChanges) -> dict[str, Any]:
    """The two dry runs compared."""
    return {
        "before": summary_dict(run.old_summary),
        "after": summary_dict(run.new_summary),
        "startOrder": [_reorder(r) for r in run.reorders],
        "asks": [
            {
                "application": c.application,
                "ask": c.ask,
                "before": _run(c.old),
                "after": _run(c.new),
                "shift": seconds(c.shift) if c.shift is not None else None,
                "changes": list(c.changes),
            }
            for c in run.asks
        ],
        "orders": [
            {
                "queuePath": o.queue_path,
                "asks": o.asks,
                "moved": o.moved,
                "first": o.first,
                "before": list(o.old),
                "after": list(o.new),
            }
            for o in run.orders
        ],
        "preemptionsAdded": [_preemption(p) for p in run.preemptions_added],
        "preemptionsRemoved": [_preemption(p) for p in run.preemptions_removed],
        "steps": [
            {
                "type": e.type,
                "before": e.old_count,
                "after": e.new_count,
                "onlyAfter": list(e.added),
                "onlyBefore": list(e.removed),
                "onlyAfterTotal": e.added_total,
                "onlyBeforeTotal": e.removed_total,
            }
            for e in run.events
        ],
        "asksOnlyBefore": run.only_old,
        "asksOnlyAfter": run.only_new,
    }


def workload_dict(w: WorkloadChanges, source: str = "") -> dict[str, Any]:
    """Placements, priorities and the dry runs (and both runs' metrics, with --metrics)."""
    return {
        "skipped": w.skipped,
        "placements": [
            {"application": c.application, "before": _placement(c.old), "after": _placement(c.new)}
            for c in w.placements
        ],
        "priorities": [
            {
                "application": c.application,
                "ask": c.ask,
                "queuePath": c.queue_path,
                "before": _priority(c.old),
                "after": _priority(c.new),
                "stepQueue": c.step_queue,
                "stepBefore": c.old_step,
                "stepAfter": c.new_step,
                "cause": c.cause or None,
                "removed": c.removed,
                "line": _line(c.span),
            }
            for c in w.priorities
        ],
        "run": run_dict(w.run) if w.run is not None else None,
        "metrics": metrics_dict(w.metrics, source) if w.metrics is not None else None,
    }


def diff_dict(diff: Diff, fail_on: list[FailOn], failing: list[FailOn]) -> dict[str, Any]:
    """The whole diff as one JSON value."""
    config = diff.config
    return {
        "old": diff.old,
        "new": diff.new,
        "workload": diff.workload_source or None,
        "partition": diff.partition or None,
        "summary": summary_line(diff),
        "empty": diff.empty,
        "failOn": [str(c) for c in fail_on],
        "failing": [str(c) for c in failing],
        "config": {
            "problemsIntroduced": [_problem(p) for p in config.problems.introduced],
            "problemsFixed": [_problem(p) for p in config.problems.fixed],
            "partitionsAdded": list(config.partitions_added),
            "partitionsRemoved": list(config.partitions_removed),
            "queues": [
                {
                    "partition": q.partition,
                    "change": q.kind,
                    "queuePath": q.queue_path,
                    "oldPath": q.old_path or None,
                    "leaf": q.is_leaf,
                    "below": q.below,
                    "line": _line(q.span),
                }
                for q in config.queues
            ],
            "settings": [
                {
                    "partition": s.partition,
                    "queuePath": s.queue_path,
                    "key": s.key,
                    "before": s.old,
                    "after": s.new,
                    "beforeFrom": _provenance(s.old_from),
                    "afterFrom": _provenance(s.new_from),
                    "removed": s.removed,
                    "line": _line(s.span),
                }
                for s in config.settings
            ],
        },
        "workloadChanges": workload_dict(diff.workload, diff.workload_source) if diff.workload is not None else None,
    }


def render(diff: Diff, fail_on: list[FailOn], failing: list[FailOn]) -> str:
    """Indented JSON, keys in a fixed order."""
    return jsonout.document(diff_dict(diff, fail_on, failing))
