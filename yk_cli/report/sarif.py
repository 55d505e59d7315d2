"""`yk validate --format sarif`: SARIF 2.1.0 as GitHub code scanning reads it (every required field, stable ids)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

from yk_cli.core.diagnostics import Level, Problem, Rule, format_path
from yk_cli.report import jsonout
from yk_cli.report.locations import artifact_uri, span_of

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "yk"
INFORMATION_URI = "https://yunikorn.apache.org/docs/user_guide/queue_config/"
"""Where the configuration yk checks is documented (the tool's own home page once it has one)."""
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "ykProblem/v1"
"""partialFingerprints key: a hash of rule, file, document path and message (never the line) plus an occurrence."""


def rule_descriptor(rule: Rule) -> dict[str, object]:
    """A reportingDescriptor for one rule."""
    return {
        "id": rule.id,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.doc},
        "help": {"text": f"{rule.summary}\n\n{rule.doc}"},
        "defaultConfiguration": {"level": rule.level.value},
    }


_LINE_NUMBER = re.compile(r"\bline [0-9]+")


def fingerprint(p: Problem, uri: str) -> str:
    """A hash that survives edits above the problem: rule, file, document path and message (line numbers masked)."""
    key = "\0".join((p.rule, uri, format_path(p.path), _LINE_NUMBER.sub("line N", p.message)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def message_text(p: Problem) -> str:
    """The result message: the problem, then its hint on a line of its own."""
    return p.message + (f"\nhint: {p.hint}" if p.hint else "")


def render(problems: Sequence[Problem], rules: Mapping[str, Rule], version: str, base: str) -> str:
    """The whole SARIF log: one run, every rule in documentation order, results in report order."""
    known = dict(rules)
    for p in problems:
        if p.rule not in known:  # a rule the catalogue does not list: still describe it so ruleIndex is valid
            known[p.rule] = Rule(p.rule, p.level, p.rule, p.rule)
    index = {rule_id: i for i, rule_id in enumerate(known)}
    seen: dict[str, int] = {}
    results: list[dict[str, object]] = []
    for p in sorted(problems, key=Problem.sort_key):
        span = span_of(p)
        uri, relative = artifact_uri(p.file, base)
        artifact: dict[str, object] = {"uri": uri}
        if relative:
            artifact["uriBaseId"] = SRCROOT
        location: dict[str, object] = {
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
        if p.path:
            location["logicalLocations"] = [{"fullyQualifiedName": format_path(p.path)}]
        digest = fingerprint(p, uri)
        seen[digest] = seen.get(digest, 0) + 1
        results.append(
            {
                "ruleId": p.rule,
                "ruleIndex": index[p.rule],
                "level": "error" if p.level == Level.ERROR else "warning",
                "message": {"text": message_text(p)},
                "locations": [location],
                "partialFingerprints": {FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
    return log_document(version, [rule_descriptor(rule) for rule in known.values()], results)


def log_document(version: str, rules: Sequence[object], results: Sequence[object]) -> str:
    """A SARIF 2.1.0 log of one run of yk: the tool, its rule descriptors and the results, as JSON text."""
    log = {
        "$schema": SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": version,
                        "semanticVersion": version,
                        "informationUri": INFORMATION_URI,
                        "rules": list(rules),
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": list(results),
            }
        ],
    }
    return jsonout.document(log)
