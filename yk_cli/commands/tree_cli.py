"""`yk tree` on the command line: its arguments, options and help (the work: yk_cli.commands.tree)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.options import ClusterOption, MaxSizeOption, NoConfigOption, ProjectConfigOption, QuietOption
from yk_cli.commands.tree import print_tree


@app.command(cls=YkCommand)
def tree(
    config: Annotated[
        Optional[str],
        typer.Argument(
            metavar="CONFIG",
            help="Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin. Optional with --cluster.",
        ),
    ] = None,
    positional_workload: Annotated[
        Optional[str], typer.Argument(metavar="WORKLOAD", help="The workload file, as -w/--workload gives it.")
    ] = None,
    workload: Annotated[
        Optional[str],
        typer.Option(
            "--workload", "-w", metavar="PATH", help="A workload file: adds pending/allocated and priorities."
        ),
    ] = None,
    cluster: ClusterOption = None,
    partition: Annotated[
        Optional[str],
        typer.Option(
            "--partition", metavar="NAME", help="The partition to show (default: the workload's, or default)."
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", metavar="FORMAT", help="text, json (YuniKorn REST names), markdown or mermaid."
        ),
    ] = "text",
    at: Annotated[
        Optional[str],
        typer.Option(
            "--at",
            metavar="TIME",
            help="With a workload: the virtual time to show, from the start of the run (0s, 90s, 5m, 1h30m; default "
            "0s, before any scheduling); asks that arrive later are listed apart.",
        ),
    ] = None,
    max_size: MaxSizeOption = None,
    quiet: QuietOption = False,
    set_only: Annotated[
        bool,
        typer.Option("--set-only", metavar="", help="Only the values the file sets on each queue, with their lines."),
    ] = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """The resolved queue tree: every queue's settings and where each came from.

    Every setting says where it came from (set here, inherited, template, default, YuniKorn's fallback), with
    fences, offsets, sorting and limits; with a workload, each queue's usage and current priority too, at one
    virtual time (--at, default 0s: the start of the run). With --set-only, only what the file sets on each queue,
    each value with its line. With --cluster DUMP, a kubectl dump is the workload and its yunikorn-configs
    ConfigMap (or YuniKorn's built-in default) the queue config, unless CONFIG is given.

    Example: yk tree queues.yaml --workload workload.yaml"""
    print_tree(
        config,
        workload,
        partition,
        fmt,
        max_size,
        quiet,
        set_only,
        project_config,
        no_config,
        at,
        cluster,
        positional_workload,
    )
