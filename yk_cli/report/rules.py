"""`yk rules`: the rule catalogue as text or JSON."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from yk_cli.core.diagnostics import Rule
from yk_cli.report import jsonout

WIDTH = 100
"""Text is wrapped at a fixed width so the output does not depend on the terminal."""


def rule_dict(rule: Rule, group: str) -> dict[str, str]:
    """The JSON shape of one rule (group: yunikorn or volcano)."""
    return {"id": rule.id, "group": group, "level": rule.level.value, "summary": rule.summary, "doc": rule.doc}


def render_json(rules: Sequence[tuple[Rule, str]]) -> str:
    """Every (rule, group) in documentation order, as one JSON object."""
    return jsonout.document({"rules": [rule_dict(r, g) for r, g in rules]})


def render_groups(groups: Sequence[tuple[str, Sequence[Rule]]]) -> str:
    """Each group under a `== title (N rules) ==` heading, its rules as render_text shows them."""
    return "\n".join(f"== {title} ({len(rules)} rules) ==\n\n" + render_text(rules) for title, rules in groups)


def render_text(rules: Sequence[Rule]) -> str:
    """Every rule: `id (level)`, its summary, then its documentation wrapped and indented."""
    blocks: list[str] = []
    for rule in rules:
        lines = [f"{rule.id} ({rule.level.value})"]
        lines.extend(
            textwrap.wrap(rule.summary, WIDTH, break_on_hyphens=False, initial_indent="  ", subsequent_indent="  ")
        )
        lines.append("")
        lines.extend(
            textwrap.wrap(rule.doc, WIDTH, break_on_hyphens=False, initial_indent="    ", subsequent_indent="    ")
        )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
