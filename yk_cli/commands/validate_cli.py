"""`yk validate` on the command line: its arguments, options and help (the work: yk_cli.commands.validate)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from yk_cli.cli import Exit, UsageError, config_size, fail_usage
from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.options import CiFormatOption, MaxSizeOption, NoConfigOption, ProjectConfigOption
from yk_cli.commands.project import project_options
from yk_cli.commands.validate import run_validate


@app.command(cls=YkCommand)
def validate(
    files: Annotated[
        Optional[list[str]],
        typer.Argument(
            metavar="FILE",
            help="Queue config files (queues.yaml, ConfigMaps, Lists, Helm values) or directories, searched for "
            "*.yaml and *.yml files; '-' for stdin.",
            show_default=False,
        ),
    ] = None,
    fmt: CiFormatOption = None,
    workload: Annotated[
        Optional[str],
        typer.Option(
            "--workload",
            "-w",
            metavar="W",
            help="Also lint a workload file, every problem in full (against the queue config, when one is given).",
        ),
    ] = None,
    cluster: Annotated[
        Optional[str],
        typer.Option(
            "--cluster",
            metavar="DUMP",
            help="Also lint a `kubectl get nodes,pods,priorityclasses -A -o yaml` dump, every problem in full.",
        ),
    ] = None,
    strict: Annotated[
        Optional[bool],
        typer.Option(
            "--strict/--no-strict",
            metavar="",
            help="Warnings fail the run too (exit 1); --no-strict overrides `strict: true` in .yk.yaml.",
        ),
    ] = None,
    partition: Annotated[
        Optional[str], typer.Option("--partition", metavar="NAME", help="Only report problems in this partition.")
    ] = None,
    policy_group: Annotated[
        Optional[str],
        typer.Option(
            "--policy-group",
            metavar="GROUP",
            help="ConfigMap key is <group>.yaml (YuniKorn's service.policyGroup; default queues).",
        ),
    ] = None,
    max_size: MaxSizeOption = None,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Lint YuniKorn queue configs: every problem at once, with file:line:col and YuniKorn's own verdict.

    With --workload or --cluster, a workload file or a cluster dump is linted too, its warnings with their full text,
    positions and hints (the other commands print one summary line for them).

    Example: yk validate queues.yaml --format sarif"""
    try:
        with project_options(project_config, no_config), config_size(max_size):
            code = run_validate(files or [], fmt, strict, partition, policy_group, workload, cluster)
    except UsageError as err:
        raise fail_usage(str(err)) from None
    raise Exit(code)
