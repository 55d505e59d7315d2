"""`yk simulate` on the command line: its arguments, options and help (the work: yk_cli.commands.simulate)."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.options import (
    MaxSizeOption,
    NoConfigOption,
    ProjectConfigOption,
    QuietOption,
    WorkloadOption,
    WorkloadPartitionOption,
    YunikornVersionOption,
)
from yk_cli.commands.simulate import TIMELINE_BY, print_simulation


class SimulateCommand(YkCommand):
    """`yk simulate`: `--timeline` may come alone (sections per queue) or with its value, queue or node."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        out: list[str] = []
        rest = iter(args)
        for arg in rest:
            out.append(arg)
            if arg == "--":
                out.extend(rest)
                break
            if arg == "--timeline":
                following = next(rest, None)
                if following not in TIMELINE_BY:  # alone, or before another option or a file
                    out.append("queue")
                if following is not None:
                    out.append(following)
        return super().parse_args(ctx, out)


@app.command(cls=SimulateCommand)
def simulate(
    config: Annotated[
        Optional[str],
        typer.Argument(
            metavar="CONFIG",
            help="Queue config (queues.yaml, ConfigMap or List; '-' for stdin). Omit both files for the "
            "bundled tenant example.",
        ),
    ] = None,
    workload: Annotated[
        Optional[str],
        typer.Argument(metavar="WORKLOAD", help="Workload file: nodes, applications, asks (or -w/--workload)."),
    ] = None,
    workload_option: WorkloadOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or markdown.")] = "text",
    until: Annotated[
        Optional[str],
        typer.Option(
            "--until", metavar="TIME", help="Stop the virtual clock at this time (0s: only the decisions at the start)."
        ),
    ] = None,
    max_steps: Annotated[
        Optional[int], typer.Option("--max-steps", metavar="N", help="Stop after this many steps.")
    ] = None,
    yunikorn_version: YunikornVersionOption = "1.8",
    partition: WorkloadPartitionOption = None,
    cluster: Annotated[
        Optional[str],
        typer.Option(
            "--cluster",
            metavar="DUMP",
            help="A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump ('-' for stdin) as the workload. Its "
            "yunikorn-configs queues.yaml is the queue config (YuniKorn's built-in default without one), unless "
            "CONFIG is given: `yk simulate --cluster dump.yaml` or `yk simulate new-queues.yaml --cluster "
            "dump.yaml`. WORKLOAD may not be given with it.",
        ),
    ] = None,
    explain_preemption: Annotated[
        bool,
        typer.Option(
            "--explain-preemption",
            metavar="",
            help="List every preemption try with every running allocation it considered and the verdict that kept "
            "it out (or made it a victim); in JSON, fills each attempt's candidates.",
        ),
    ] = False,
    queue: Annotated[
        Optional[list[str]],
        typer.Option(
            "--queue",
            metavar="PATH",
            help="Show only the steps, arrivals, pending asks and preemptions of this queue and the queues below it "
            "(repeatable). Filters change what is shown, never what is simulated: the dry run always runs the "
            "whole partition.",
        ),
    ] = None,
    app_ids: Annotated[
        Optional[list[str]],
        typer.Option("--app", metavar="ID", help="Show only the rows of this application (repeatable)."),
    ] = None,
    pending_only: Annotated[
        bool,
        typer.Option(
            "--pending-only", metavar="", help="Show only the asks still pending at the end, with their reasons."
        ),
    ] = False,
    summary_only: Annotated[
        bool,
        typer.Option(
            "--summary",
            metavar="",
            help="Show only the summary: the run's counts and end time, and what was allocated, is pending, was "
            "preempted, completed and arrived in each queue.",
        ),
    ] = False,
    starts: Annotated[
        bool,
        typer.Option(
            "--starts",
            metavar="",
            help="Instead of the steps, a compact `squeue --start`-style table: per pod its predicted start on the "
            "virtual clock, node and queue, or why it never starts (text or markdown).",
        ),
    ] = False,
    timeline: Annotated[
        Optional[str],
        typer.Option(
            "--timeline",
            metavar="[queue|node]",
            help="Text: draw the run as bars per queue (or node) over the virtual clock, preemptions marked, "
            "instead of the step table. Markdown: the sections of its Mermaid gantt (queue by default).",
        ),
    ] = None,
    max_size: MaxSizeOption = None,
    quiet: QuietOption = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Dry-run YuniKorn's scheduler: every allocation in order, and why every pending ask still waits.

    Every allocation comes in the order the core makes it, with the queue priority changes after each step.
    Deterministic: no cluster, no wall clock.

    Inputs: CONFIG and WORKLOAD; or --cluster DUMP (with an optional CONFIG to try a new queue config on the
    cluster); or nothing, for the tenant example of YuniKorn's 'App & Queue Priorities' document.

    --queue, --app, --pending-only and --summary choose what is shown (they combine); the dry run always runs
    the whole partition.

    Example: yk simulate queues.yaml workload.yaml --until 10m"""
    print_simulation(
        config,
        workload,
        fmt,
        until,
        max_steps,
        yunikorn_version,
        partition,
        cluster,
        explain_preemption,
        queue,
        app_ids,
        pending_only,
        summary_only,
        starts,
        timeline,
        max_size,
        quiet,
        project_config,
        no_config,
        workload_option,
    )
