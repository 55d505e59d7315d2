"""`yk check --format github|sarif`: each failed check on the config line that breaks the rule, and on its line in
the policy file (GitHub: a notice there; SARIF: a related location)."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.assertions.model import KIND_SUMMARIES, Outcome
from yk_cli.core.diagnostics import Level, Problem, Rule, Span
from yk_cli.report import sarif
from yk_cli.report.check_common import POLICY_ERROR, CheckContext, failure_line, summary_line, title
from yk_cli.report.github import annotation, escape_data, escape_property
from yk_cli.report.locations import artifact_uri, relative_path, span_of

RULE_DOC = "A `yk check` policy assertion failed; the message says why, with the counter-example or dry-run step."


def _message(outcome: Outcome, context: CheckContext) -> str:
    lines = [f"{title(outcome)}: {outcome.message}"]
    for item in outcome.evidence:
        where = context.where(item.config_path)
        lines.append("  " * (item.depth - 1) + item.text + (f" ({where})" if where else ""))
    return "\n".join(lines)


def _problem(outcome: Outcome, context: CheckContext) -> Problem:
    """The failure as a problem on the config line that breaks the rule (or on the policy line when none does)."""
    span = context.span(outcome.blame)
    message = _message(outcome, context)
    if span is None:
        s = outcome.assertion.span
        return Problem(
            outcome.assertion.kind,
            Level.ERROR,
            message,
            hint=outcome.hint,
            span=Span(s.line, s.column, s.line, s.column + 1),
            file=context.policy_file,
        )
    return Problem(
        outcome.assertion.kind,
        Level.ERROR,
        message,
        outcome.blame or (),
        outcome.hint,
        span=span,
        file=context.config_file,
    )


def render_github(outcomes: list[Outcome], context: CheckContext, base: str) -> str:
    """Annotations: an error on the config line of each failure, a notice on its policy line; a summary line."""
    out: list[str] = []
    for outcome in outcomes:
        if outcome.passed:
            continue
        problem = _problem(outcome, context)
        out.append(annotation(problem, base))
        if problem.file != context.policy_file:
            span = outcome.assertion.span
            file, _ = relative_path(context.policy_file, base)
            where = context.where(outcome.blame)
            props = {
                "file": file,
                "line": str(span.line),
                "col": str(span.column),
                "title": f"yk check: {outcome.assertion.name}",
            }
            joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
            out.append(f"::notice {joined}::{escape_data(f'{title(outcome)} fails at {where}: {outcome.message}')}")
    out.append(f"yk: {summary_line(outcomes)}")
    return "\n".join(out) + "\n"


def render_sarif(outcomes: list[Outcome], context: CheckContext, version: str, base: str) -> str:
    """SARIF 2.1.0: one result per failed check, on the config line, with the policy line as a related location."""
    kinds = list(KIND_SUMMARIES)
    rules = [sarif.rule_descriptor(Rule(kind, Level.ERROR, KIND_SUMMARIES[kind], RULE_DOC)) for kind in kinds]
    seen: dict[str, int] = {}
    results: list[dict[str, object]] = []
    policy_uri, policy_relative = artifact_uri(context.policy_file, base)
    for outcome in outcomes:
        if outcome.passed:
            continue
        problem = _problem(outcome, context)
        span = span_of(problem)
        uri, relative = artifact_uri(problem.file, base)
        policy_span = outcome.assertion.span
        digest = sarif.fingerprint(problem, uri)
        seen[digest] = seen.get(digest, 0) + 1
        results.append(
            {
                "ruleId": outcome.assertion.kind,
                "ruleIndex": kinds.index(outcome.assertion.kind),
                "level": "error",
                "message": {"text": sarif.message_text(problem)},
                "locations": [_physical(uri, relative, span)],
                "relatedLocations": [
                    {
                        "id": 1,
                        **_physical(
                            policy_uri,
                            policy_relative,
                            Span(policy_span.line, policy_span.column, policy_span.line, policy_span.column + 1),
                        ),
                        "message": {"text": f"assertion {outcome.assertion.name} ({outcome.mode})"},
                    }
                ],
                "partialFingerprints": {sarif.FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
    return sarif.log_document(version, rules, results)


def _physical(uri: str, relative: bool, span: Span) -> dict[str, object]:
    artifact: dict[str, object] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = sarif.SRCROOT
    return {
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {
                "startLine": span.line,
                "startColumn": span.column,
                "endLine": span.end_line,
                "endColumn": span.end_column,
            },
        }
    }


def render_failure_github(problems: Sequence[Problem], base: str) -> str:
    """Annotations for the problems that stopped a check (the policy's, the inputs'), then a summary line."""
    out = [annotation(p, base) for p in problems]
    out.append(f"yk: {failure_line([p.level for p in problems])}")
    return "\n".join(out) + "\n"


def render_failure_sarif(problems: Sequence[Problem], version: str, base: str) -> str:
    """SARIF 2.1.0 for a check that could not run: one result per problem of the policy or the inputs."""
    from yk_cli.core.lint.catalogue import all_rules
    from yk_cli.report.problems import INPUT_ERROR

    catalogue = {**all_rules(), INPUT_ERROR.id: INPUT_ERROR, POLICY_ERROR.id: POLICY_ERROR}
    rules = {p.rule: catalogue[p.rule] for p in sorted(problems, key=Problem.sort_key) if p.rule in catalogue}
    return sarif.render(problems, rules, version, base)
