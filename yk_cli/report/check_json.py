"""`yk check --format json`: every check with its positions, evidence and counter-example (schemas/check.schema.json
describes it)."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.assertions.model import Outcome
from yk_cli.core.diagnostics import Problem, format_path
from yk_cli.report import jsonout
from yk_cli.report.check_common import CheckContext
from yk_cli.report.problems_json import problem_dict


def _location(context: CheckContext, path: tuple[str | int, ...] | None) -> dict[str, object] | None:
    span = context.span(path)
    if span is None or path is None:
        return None
    return {
        "file": context.config_file,
        "line": span.line,
        "column": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
        "path": format_path(path),
    }


def _outcome(outcome: Outcome, context: CheckContext) -> dict[str, object]:
    assertion = outcome.assertion
    entry: dict[str, object] = {
        "name": assertion.name,
        "kind": assertion.kind,
        "mode": outcome.mode,
        "passed": outcome.passed,
        "message": outcome.message,
        "policyLocation": {"file": context.policy_file, "line": assertion.span.line, "column": assertion.span.column},
        "location": _location(context, outcome.blame) if not outcome.passed else None,
        "evidence": [
            {"text": item.text, "depth": item.depth, "location": _location(context, item.config_path)}
            for item in outcome.evidence
        ],
        "counterExample": outcome.counter_example,
    }
    if assertion.description:
        entry["description"] = assertion.description
    if outcome.hint and not outcome.passed:
        entry["hint"] = outcome.hint
    return entry


def render(outcomes: list[Outcome], context: CheckContext) -> str:
    """The whole JSON document."""
    failed = sum(1 for o in outcomes if not o.passed)
    document = {
        "policy": context.policy_file,
        "config": context.config_file,
        "partition": context.partition,
        "workload": context.workload,
        "priorityRange": {
            "low": context.priorities.low,
            "high": context.priorities.high,
            "source": context.priorities.source,
        },
        "notes": context.notes,
        "problems": [],
        "checks": [_outcome(o, context) for o in outcomes],
        "summary": {
            "assertions": len({o.assertion.name for o in outcomes}),
            "checks": len(outcomes),
            "passed": len(outcomes) - failed,
            "failed": failed,
        },
    }
    return jsonout.document(document)


def render_failure(policy: str, config: str, workload: str | None, problems: Sequence[Problem]) -> str:
    """The JSON document of a check that could not run: the problems of the policy or the inputs (as `yk validate`
    reports problems), no checks."""
    document = {
        "policy": policy,
        "config": config,
        "partition": None,
        "workload": workload,
        "priorityRange": None,
        "notes": [],
        "problems": [problem_dict(p) for p in problems],
        "checks": [],
        "summary": {"assertions": 0, "checks": 0, "passed": 0, "failed": 0},
    }
    return jsonout.document(document)
