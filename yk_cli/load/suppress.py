"""`# yk: disable=<rule>[,<rule>]` comments: which warnings a line silences, and names that are no rule."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.lint.loader_rules import UNKNOWN_RULE

_COMMENT = re.compile(r"#\s*yk:\s*disable=")
_NAME = re.compile(r"\s*([A-Za-z0-9_.-]+)\s*(,|$|\s)")


@dataclass(frozen=True, slots=True)
class Suppression:
    """One rule name written in a disable comment, with its 1-based position."""

    rule: str
    line: int
    column: int


def suppressions(text: str) -> dict[int, list[Suppression]]:
    """Every rule name of the first `# yk: disable=` comment of each line, by 1-based line (lines end at a newline)."""
    found: dict[int, list[Suppression]] = {}
    number, counted, last = 1, 0, 0
    for comment in _COMMENT.finditer(text):
        start = text.rfind("\n", 0, comment.start()) + 1
        number += text.count("\n", counted, start)
        counted = start
        if number == last:
            continue
        last = number
        end = text.find("\n", comment.end())
        line = text[start:] if end < 0 else text[start:end]
        pos = comment.end() - start
        names: list[Suppression] = []
        while True:
            match = _NAME.match(line, pos)
            if match is None:
                break
            names.append(Suppression(match.group(1), number, match.start(1) + 1))
            pos = match.end()
            if match.group(2) != ",":
                break
        if names:
            found[number] = names
    return found


def unsuppressed(problems: list[Problem], text: str, file: str, rule_ids: Callable[[], set[str]]) -> list[Problem]:
    """Drop warnings silenced on their line (errors cannot be); add a warning for each unknown rule name. rule_ids
    (every rule id) is called only when the text has a suppression comment: the rule catalogue imports every rule
    module, which a plain `yk validate` does not need."""
    by_line = suppressions(text)
    if not by_line:
        return problems
    known = rule_ids()
    kept = []
    for p in problems:
        if p.level == Level.WARNING and p.span is not None:
            names = {s.rule for s in by_line.get(p.span.line, [])}
            if p.rule in names:
                continue
        kept.append(p)
    for found in by_line.values():
        kept.extend(_unknown(s, file, known) for s in found if s.rule not in known)
    return kept


def _unknown(name: Suppression, file: str, known: set[str]) -> Problem:
    """An unknown-rule warning with a did-you-mean."""
    close = difflib.get_close_matches(name.rule.lower(), sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean `{close[0]}`?" if close else "`yk rules` lists every rule id."
    suffix = f" (did you mean {close[0]}?)" if close else ""
    return Problem(
        rule=UNKNOWN_RULE.id,
        level=Level.WARNING,
        message=f"# yk: disable={name.rule} names no yk rule: it silences nothing{suffix}",
        hint=hint,
        span=Span(name.line, name.column, name.line, name.column + len(name.rule)),
        file=file,
    )
