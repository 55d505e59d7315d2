"""What every `yk check` report needs: the run's context and each outcome's positions in the policy and config."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.assertions.model import Outcome, PriorityRange
from yk_cli.core.diagnostics import Level, Path, Rule, Span
from yk_cli.core.yamldoc import SourceMap

POLICY_ERROR = Rule(
    "policy-error",
    Level.ERROR,
    "The policy file of `yk check` is broken: nothing was checked.",
    "A policy file yk cannot use: bad YAML, an unknown key or assertion kind (with a did-you-mean), a value of the "
    "wrong type, a queue the queue config does not have (most likely misspelt). Every problem is reported at once "
    "with its position, and `yk check` exits 2.",
)
"""The problem that stands for each error of a broken policy file in the json, github and sarif reports."""
FAILED_SUMMARY = "nothing was checked"


@dataclass(slots=True)
class CheckContext:
    """The inputs of one `yk check` run, as the reports name them, and the config's source map to locate lines."""

    policy_file: str
    config_file: str
    config_text: str
    source_map: SourceMap
    partition: str
    priorities: PriorityRange
    workload: str | None = None
    notes: list[str] = field(default_factory=list)
    """Lines the reader must know about the run (e.g. what the dry run does not model)."""

    def span(self, path: Path | None) -> Span | None:
        """The span of a config path: the value, or the key when the value spans several lines (a block)."""
        if path is None:
            return None
        span = self.source_map.span(path, "value")
        if span is not None and span.end_line > span.line:
            span = self.source_map.span(path, "key") or span
        if span is not None and span.end_line > span.line:
            span = Span(span.line, span.column, span.line, span.column + 1)
        return span

    def where(self, path: Path | None) -> str:
        """`file:line` of a config path ('' when it has none)."""
        span = self.span(path)
        return f"{self.config_file}:{span.line}" if span is not None else ""

    def source_line(self, path: Path | None) -> str:
        """The config line at a path, stripped ('' when none)."""
        span = self.span(path)
        if span is None:
            return ""
        lines = self.config_text.splitlines()
        return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""


def title(outcome: Outcome) -> str:
    """`name (kind, mode)`."""
    return f"{outcome.assertion.name} ({outcome.assertion.kind}, {outcome.mode})"


def failure_line(levels: list[Level]) -> str:
    """`nothing was checked: 2 errors, 1 warning in the inputs`."""
    errors = sum(1 for level in levels if level == Level.ERROR)
    warnings = len(levels) - errors
    return (
        f"{FAILED_SUMMARY}: {errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''} in the inputs"
    )


def summary_line(outcomes: list[Outcome]) -> str:
    """`12 checks of 11 assertions: 11 passed, 1 failed`."""
    assertions = len({o.assertion.name for o in outcomes})
    failed = sum(1 for o in outcomes if not o.passed)
    checks = len(outcomes)
    noun = "check" if checks == 1 else "checks"
    things = f"{assertions} assertion{'' if assertions == 1 else 's'}"
    return f"{checks} {noun} of {things}: {checks - failed} passed, {failed} failed"
