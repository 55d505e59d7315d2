"""`yk check --format text`: one line per check, the proof or counter-example under a failure (or every one with
--verbose), each step with the config line behind it."""

from __future__ import annotations

from yk_cli.core.assertions.model import Outcome
from yk_cli.report.check_common import CheckContext, summary_line, title


def render(outcomes: list[Outcome], context: CheckContext, verbose: bool = False) -> str:
    """The whole text report."""
    out = [f"policy {context.policy_file} on {context.config_file} (partition {context.partition})"]
    if context.workload:
        out.append(f"dry run: {context.workload}")
    ranges = context.priorities
    out.append(f"pod priorities: [{ranges.low}, {ranges.high}] ({ranges.source})")
    out.extend(f"note: {note}" for note in context.notes)
    out.append("")
    for outcome in outcomes:
        mark = "PASS" if outcome.passed else "FAIL"
        out.append(f"{mark} {title(outcome)}: {outcome.message}")
        if outcome.passed and not verbose:
            continue
        if not outcome.passed:
            span = outcome.assertion.span
            out.append(f"  policy: {context.policy_file}:{span.line}:{span.column}")
            located = context.span(outcome.blame)
            if located is not None:
                line = context.source_line(outcome.blame)
                out.append(f"  config: {context.config_file}:{located.line}:{located.column}: {line}")
        for item in outcome.evidence:
            where = context.where(item.config_path)
            suffix = f"  ({where})" if where else ""
            out.append("  " * item.depth + f"{item.text}{suffix}")
        if outcome.hint and not outcome.passed:
            out.append(f"  hint: {outcome.hint}")
    out.append("")
    out.append(summary_line(outcomes))
    return "\n".join(out) + "\n"
