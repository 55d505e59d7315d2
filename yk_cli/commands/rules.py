"""`yk rules`: every rule yk reports, with its level, summary and documentation."""

from __future__ import annotations

from typing import Annotated

import typer

from yk_cli.cli import YkCommand, app, fail_usage, write_stdout


@app.command(cls=YkCommand)
def rules(
    ids: Annotated[
        list[str] | None, typer.Argument(metavar="RULE", help="Only these rule ids (default: every rule).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text or json.")] = "text",
) -> None:
    """List the rules `yk validate` reports: id, level, summary and full documentation.

    Example: yk rules empty-property-value"""
    from yk_cli.core.rules import all_rules
    from yk_cli.report.rules import render_json, render_text

    if fmt not in ("text", "json"):
        raise fail_usage(f"unknown format {fmt!r}; choose one of text, json")
    catalogue = all_rules()
    unknown = [i for i in ids or [] if i not in catalogue]
    if unknown:
        raise fail_usage(f"unknown rule {', '.join(unknown)}; `yk rules` lists them all")
    chosen = [catalogue[i] for i in dict.fromkeys(ids)] if ids else list(catalogue.values())
    write_stdout((render_json(chosen) if fmt == "json" else render_text(chosen),))
