"""Reading Kubernetes objects from YAML nodes: problems located in their file, mappings and lists checked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from yk_cli.core.diagnostics import Problem, Rule
from yk_cli.core.yamldoc import Node


class SkipObject(Exception):
    """The object cannot be used; its problem has been recorded."""


@dataclass(slots=True)
class ObjectReader:
    """Problem collection for one file: every problem is located at a node of it."""

    file: str
    problems: list[Problem]
    invalid_field: Rule
    """The rule for a field of the wrong type (labels that are not a mapping, containers that are not a list)."""

    def report(self, rule: Rule, message: str, node: Node | None, hint: str = "") -> None:
        """Record a problem at a node (or at no position when node is None)."""
        span = node.span if node is not None else None
        self.problems.append(rule.problem(message, hint=hint).located(span, self.file))

    def fail(self, rule: Rule, message: str, node: Node | None, hint: str = "") -> SkipObject:
        """Record a problem and return the exception that leaves the object out."""
        self.report(rule, message, node, hint)
        return SkipObject(message)

    def string_map(self, node: Node | None, what: str) -> dict[str, str]:
        """Labels, annotations and the like: a mapping of strings (anything else is reported and ignored)."""
        if node is None:
            return {}
        if node.kind != "map":
            self.report(self.invalid_field, f"{what} must be a mapping, found {node.in_words()}", node)
            return {}
        return {k.text: v.text for k, v in node.pairs if k.kind == "scalar" and v.kind == "scalar" and v.tag != "null"}

    def items(self, node: Node | None, what: str) -> list[Node]:
        """A list's items (a non-list is reported and read as empty)."""
        if node is None:
            return []
        if node.kind != "seq":
            self.report(self.invalid_field, f"{what} must be a list, found {node.in_words()}", node)
            return []
        return node.items


GO_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
GO_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def go_bool(text: str) -> bool | None:
    """strconv.ParseBool: the value, or None when Go would refuse it."""
    if text in GO_TRUE:
        return True
    if text in GO_FALSE:
        return False
    return None


def rfc3339_seconds(text: str) -> float | None:
    """An RFC 3339 time (metadata.creationTimestamp) as Unix seconds; None when it is not one. A time without a zone
    is taken as UTC."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
