"""`yk validate`: lint queue configs with exact positions, in the formats CI systems read."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from yk_cli.cli import app, fail_usage
from yk_cli.core.diagnostics import exit_code


@app.command()
def validate(
    files: Annotated[
        list[str], typer.Argument(help="Queue config files: queues.yaml, ConfigMaps, Lists; '-' for stdin.")
    ],
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format", "-f", help="text, json, github or sarif (github is the default under GitHub Actions)."
        ),
    ] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the run too (exit 1).")] = False,
    partition: Annotated[
        Optional[str], typer.Option("--partition", help="Only report problems in this partition.")
    ] = None,
    policy_group: Annotated[
        str, typer.Option("--policy-group", help="ConfigMap key is <group>.yaml (YuniKorn's service.policyGroup).")
    ] = "queues",
) -> None:
    """Lint YuniKorn queue configs: every problem at once, with file:line:col and YuniKorn's own verdict."""
    from yk_cli.load.config import load_config
    from yk_cli.load.source import InputError
    from yk_cli.report.problems import FORMATS, render_problems

    chosen = fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if chosen not in FORMATS:
        raise fail_usage(f"unknown format {chosen!r}; choose one of {', '.join(FORMATS)}")
    if files.count("-") > 1:
        raise fail_usage("'-' (standard input) may be given only once")
    problems = []
    texts: dict[str, str] = {}
    for name in files:
        try:
            result = load_config(name, policy_group)
        except InputError as err:
            raise fail_usage(str(err)) from None
        texts[result.file] = result.text
        found = result.problems
        if partition is not None:
            found = [p for p in found if _in_partition(p, result, partition)]
        problems.extend(found)
    from yk_cli.core.diagnostics import Problem

    problems.sort(key=Problem.sort_key)
    sys.stdout.write(render_problems(chosen, problems, texts, len(files), color=sys.stdout.isatty()))
    raise typer.Exit(exit_code(problems, strict))


def _in_partition(problem: object, result: object, name: str) -> bool:
    from yk_cli.core.diagnostics import Problem
    from yk_cli.load.config import LoadResult

    assert isinstance(problem, Problem) and isinstance(result, LoadResult)
    if len(problem.path) < 2 or problem.path[0] != "partitions":
        return True
    index = problem.path[1]
    for loaded in result.configs:
        parts = loaded.config.partitions
        if isinstance(index, int) and index < len(parts):
            return parts[index].display_name == name
    return True
