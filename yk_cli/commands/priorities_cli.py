"""`yk priorities` on the command line: its arguments, options and help (the work: yk_cli.commands.priorities)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.options import (
    ClusterOption,
    MaxSizeOption,
    NoConfigOption,
    ProjectConfigOption,
    QuietOption,
    WorkloadOption,
    WorkloadPartitionOption,
)
from yk_cli.commands.priorities import print_priorities

AtOption = Annotated[
    Optional[str],
    typer.Option(
        "--at",
        metavar="TIME",
        help="The virtual time to show, from the start of the run (0s, 90s, 5m, 1h30m; default 0s, before any "
        "scheduling); asks that arrive later are listed apart.",
    ),
]


@app.command(cls=YkCommand)
def priorities(
    config: Annotated[
        Optional[str],
        typer.Argument(
            metavar="CONFIG",
            help="Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin. Optional with --cluster.",
        ),
    ] = None,
    workload: Annotated[
        Optional[str],
        typer.Argument(
            metavar="WORKLOAD", help="Workload file: nodes, applications, asks; '-' for stdin (or -w/--workload)."
        ),
    ] = None,
    workload_option: WorkloadOption = None,
    cluster: ClusterOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or markdown.")] = "text",
    partition: WorkloadPartitionOption = None,
    at: AtOption = None,
    max_size: MaxSizeOption = None,
    quiet: QuietOption = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Queue priorities as YuniKorn computes them, and every pending ask's effective priority step by step.

    For every pending ask: its effective priority as seen from root with the breakdown along its queue path (like
    Slurm's sprio): ask, application, each queue's offset, fence and clamp, and the config line behind each step.

    The state is that of one virtual time, --at (default 0s, the start of the run, before any scheduling): asks that
    arrive later are listed apart; at a later time it is the dry run's (what yk simulate has done by then).

    With --cluster DUMP, a kubectl dump is the workload and its yunikorn-configs ConfigMap (or YuniKorn's built-in
    default) the queue config, unless CONFIG is given.

    Example: yk priorities queues.yaml workload.yaml --format json"""
    print_priorities(
        config, workload, fmt, partition, max_size, quiet, project_config, no_config, at, cluster, workload_option
    )
