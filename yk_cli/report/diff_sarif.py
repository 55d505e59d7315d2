"""`yk diff --format sarif`: SARIF 2.1.0 as GitHub code scanning reads it, with the conventions of `yk validate
--format sarif` (report/sarif.py): the problems NEW introduced under their own rules, then what `--format github`
annotates (start order, settings, queues, effective priorities, placements, the summary) as results of the diff's
own rules, each on the line of NEW that caused it."""

from __future__ import annotations

from yk_cli.core.diagnostics import Level, Problem, Rule, format_path
from yk_cli.core.diff.model import Diff
from yk_cli.core.diff.verdict import FailOn
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.report import sarif
from yk_cli.report.diff_common import NOTE_RULES, Note, change_notes, order_notes, summary_note
from yk_cli.report.locations import artifact_uri, span_of

RULE_DOC = (
    "What `yk diff` found a queue config change does (see `yk diff --help` and docs/ci.md): a note, a warning where "
    "an ask loses ground (starts behind asks it used to lead, a lower effective priority, another queue), and an "
    "error on the summary when a --fail-on condition holds."
)
LEVELS = {"notice": "note", "warning": "warning", "error": "error"}


def _problem(note: Note, file: str) -> Problem:
    """A note as a Problem, for the fingerprint and the region (a note without a line is on the file's first)."""
    level = Level.ERROR if note.level == "error" else Level.WARNING
    return Problem(note.rule, level, note.message, span=note.span, file=file)


def _descriptor(rule: Rule) -> dict[str, object]:
    """A reportingDescriptor (the diff's own rules default to `note`: each result says its level)."""
    out = sarif.rule_descriptor(rule)
    if rule.id in NOTE_RULES:
        out["defaultConfiguration"] = {"level": "note"}
    return out


def render(diff: Diff, fail_on: list[FailOn], failing: list[FailOn], version: str, base: str) -> str:
    """The whole SARIF log: one run; the rules of the introduced problems (in documentation order), then the diff's;
    results in the order `--format github` writes them."""
    catalogue = all_rules()
    introduced = list(diff.config.problems.introduced)
    used = {p.rule for p in introduced}
    rules: dict[str, Rule] = {rule_id: rule for rule_id, rule in catalogue.items() if rule_id in used}
    for p in introduced:
        rules.setdefault(p.rule, Rule(p.rule, p.level, p.rule, p.rule))
    for rule_id, summary in NOTE_RULES.items():
        rules[rule_id] = Rule(rule_id, Level.WARNING, summary, RULE_DOC)
    index = {rule_id: i for i, rule_id in enumerate(rules)}
    later = [*change_notes(diff), summary_note(diff, [str(c) for c in failing])]
    items: list[tuple[Problem, str]] = [(_problem(n, diff.new), LEVELS[n.level]) for n in order_notes(diff)]
    items += [(p, "error" if p.level == Level.ERROR else "warning") for p in introduced]
    items += [(_problem(n, diff.new), LEVELS[n.level]) for n in later]
    seen: dict[str, int] = {}
    results: list[dict[str, object]] = []
    for p, level in items:
        span = span_of(p)
        uri, relative = artifact_uri(p.file, base)
        artifact: dict[str, object] = {"uri": uri}
        if relative:
            artifact["uriBaseId"] = sarif.SRCROOT
        region = {
            "startLine": span.line,
            "startColumn": span.column,
            "endLine": span.end_line,
            "endColumn": span.end_column,
        }
        location: dict[str, object] = {"physicalLocation": {"artifactLocation": artifact, "region": region}}
        if p.path:
            location["logicalLocations"] = [{"fullyQualifiedName": format_path(p.path)}]
        digest = sarif.fingerprint(p, uri)
        seen[digest] = seen.get(digest, 0) + 1
        results.append(
            {
                "ruleId": p.rule,
                "ruleIndex": index[p.rule],
                "level": level,
                "message": {"text": sarif.message_text(p)},
                "locations": [location],
                "partialFingerprints": {sarif.FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
    return sarif.log_document(version, [_descriptor(rule) for rule in rules.values()], results)
