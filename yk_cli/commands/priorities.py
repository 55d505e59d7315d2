"""`yk priorities`: every queue's current priority and every pending ask's effective priority, step by step."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from yk_cli.cli import app

PRIORITY_FORMATS = ("text", "json")


@app.command()
def priorities(
    config: Annotated[str, typer.Argument(help="Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin.")],
    workload: Annotated[str, typer.Argument(help="Workload file: nodes, applications, asks; '-' for stdin.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    partition: Annotated[
        Optional[str], typer.Option("--partition", help="The partition (default: the workload's `partition`).")
    ] = None,
) -> None:
    """Queue priorities as YuniKorn computes them, and for every pending ask its effective priority as seen from
    root with the breakdown along its queue path (like Slurm's sprio): ask, application, each queue's offset,
    fence and clamp, and the config line behind each step."""
    from yk_cli.cli import check_format
    from yk_cli.load.workload import collector_paused

    check_format(fmt, PRIORITY_FORMATS)
    with collector_paused():
        sys.stdout.write(run_priorities(config, workload, fmt, partition))


def run_priorities(config: str, workload: str, fmt: str = "text", partition: str | None = None) -> str:
    """Load, check, compute and render; problems go to stderr like `yk validate` (typer.Exit on errors)."""
    from yk_cli.commands.tree import prepare_inputs
    from yk_cli.core.priority import explain_pending, pending_priorities
    from yk_cli.report.priorities_common import PriorityView

    inputs = prepare_inputs(config, workload, partition)
    cache = pending_priorities(inputs.tree, inputs.placed)
    view = PriorityView(
        inputs.tree,
        inputs.partition.display_name,
        cache,
        explain_pending(inputs.placed, cache),
        inputs.rejected,
        inputs.locate,
    )
    if fmt == "json":
        from yk_cli.report import priorities_json

        return priorities_json.render(view)
    from yk_cli.report import priorities_text

    return priorities_text.render(view)
