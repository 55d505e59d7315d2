"""`yk check` on the command line: its arguments, options and help (the work: yk_cli.commands.check)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from yk_cli.cli import Exit
from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.check import run_check_command
from yk_cli.commands.options import (
    CiFormatOption,
    MaxSizeOption,
    NoConfigOption,
    ProjectConfigOption,
    QuietOption,
    WorkloadOption,
)


@app.command(cls=YkCommand)
def check(
    policy: Annotated[
        str, typer.Argument(metavar="POLICY", help="The policy file: named assertions (`yk schema policy`).")
    ],
    config: Annotated[
        str, typer.Argument(metavar="CONFIG", help="Queue config (queues.yaml, ConfigMap or List; '-' for stdin).")
    ],
    workload: Annotated[
        Optional[str],
        typer.Argument(
            metavar="WORKLOAD", help="Workload file to dry-run for the dynamic assertions (or -w/--workload)."
        ),
    ] = None,
    workload_option: WorkloadOption = None,
    cluster: Annotated[
        Optional[str],
        typer.Option(
            "--cluster",
            metavar="DUMP",
            help="A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump as the workload; its PriorityClasses also "
            "give the pod priority range when the policy declares none.",
        ),
    ] = None,
    fmt: CiFormatOption = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", metavar="", help="Print the proof of every passing check too (text).")
    ] = False,
    partition: Annotated[
        Optional[str],
        typer.Option(
            "--partition",
            metavar="NAME",
            help="The partition (default: the policy's, else the workload's, else default).",
        ),
    ] = None,
    yunikorn_version: Annotated[
        str, typer.Option("--yunikorn-version", metavar="VERSION", help="YuniKorn to model in the dry run.")
    ] = "1.8",
    max_size: MaxSizeOption = None,
    quiet: QuietOption = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Check a policy of named assertions against a queue config: static ones proved on the config for every pod
    priority in the policy's range, dynamic ones on the dry run of a workload.

    Assertions: cannot-preempt, outranks, fenced, guaranteed-at-least, max-at-most, can-submit and cannot-submit
    (static); starts-within and never-pending (dynamic; cannot-preempt and outranks are checked on the dry run too
    when a workload is given). A failed assertion says why (the config lines, the counter-example pod or the
    dry-run step). Exit 0 when all hold, 1 when one fails (or the inputs have errors), 2 for usage and a broken
    policy file.

    Example: yk check policy.yaml queues.yaml workload.yaml --format github"""
    code = run_check_command(
        policy,
        config,
        workload,
        cluster,
        fmt,
        verbose,
        partition,
        yunikorn_version,
        max_size,
        quiet,
        project_config,
        no_config,
        workload_option,
    )
    raise Exit(code)
