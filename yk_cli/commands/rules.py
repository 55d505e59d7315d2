"""`yk rules`: every rule yk reports, with its level, summary and documentation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import did_you_mean, fail_usage, write_stdout
from yk_cli.commands.declare import argument, option


@dataclass(frozen=True, slots=True)
class RulesArgs:
    """`yk rules`' arguments and options."""

    ids: Optional[list[str]] = argument("RULE", "Only these rule ids (default: every rule).")
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text or json.", default="text")
    group: Optional[str] = option(
        "--group", metavar="GROUP", help="Only yunikorn (yk validate) or volcano (yk volcano validate)."
    )


HELP = """List the rules `yk validate` and `yk volcano validate` report: id, level, summary and full documentation,
grouped by command.

Example: yk rules empty-property-value"""


def rules(args: RulesArgs) -> None:
    """`yk rules`: the chosen rules, in the chosen format."""
    ids, fmt, group = args.ids, args.fmt, args.group

    from yk_cli.core.lint.catalogue import RULE_GROUPS, grouped_rules
    from yk_cli.report.rules import render_groups, render_json, render_text

    if fmt not in ("text", "json"):
        raise fail_usage(f"unknown format {fmt!r}; choose one of text, json")
    titles = dict(RULE_GROUPS)
    if group is not None and group not in titles:
        raise fail_usage(f"unknown group {group!r}; choose one of {', '.join(titles)}")
    groups = {g: r for g, r in grouped_rules().items() if group is None or g == group}
    catalogue = {rule_id: (rule, g) for g, found in groups.items() for rule_id, rule in found.items()}
    unknown = [i for i in dict.fromkeys(ids or []) if i not in catalogue]
    if unknown:
        owner = {rule_id: g for g, found in grouped_rules().items() for rule_id in found}
        named = ", ".join(
            f"{rule_id!r}"
            + (f" (a rule of --group {owner[rule_id]})" if rule_id in owner else did_you_mean(rule_id, catalogue))
            for rule_id in unknown
        )
        raise fail_usage(f"unknown rule{'s' if len(unknown) > 1 else ''} {named}; `yk rules` lists them all")
    chosen = [catalogue[i] for i in dict.fromkeys(ids)] if ids else list(catalogue.values())
    if fmt == "json":
        write_stdout((render_json(chosen),))
    elif ids:
        write_stdout((render_text([rule for rule, _ in chosen]),))
    else:
        write_stdout((render_groups([(titles[g], list(found.values())) for g, found in groups.items()]),))
