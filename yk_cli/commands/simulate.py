"""`yk simulate`: a deterministic dry run of YuniKorn's scheduling, step by step, with why every pending ask waits."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yk_cli.cli import app, fail_usage

if TYPE_CHECKING:
    from yk_cli.core.config import PartitionConfig
    from yk_cli.core.simulation import SimulationOptions
    from yk_cli.core.workload import Workload

FORMATS = ("text", "json", "markdown")
BUNDLED_QUEUES = "tenants-queues.yaml"
BUNDLED_WORKLOAD = "tenants-workload.yaml"
BUNDLED_SOURCE = "the tenant example of YuniKorn's 'App & Queue Priorities' document (bundled)"


@dataclass(slots=True)
class Scenario:
    """A checked partition and workload, ready to run."""

    partition: PartitionConfig
    workload: Workload
    source: str


@contextmanager
def bundled_example() -> Iterator[tuple[str, str]]:
    """Paths of the bundled tenant example (queues, workload), also from an installed wheel or zip."""
    data = resources.files("yk_cli.data")
    with resources.as_file(data / BUNDLED_QUEUES) as queues, resources.as_file(data / BUNDLED_WORKLOAD) as workload:
        yield str(queues), str(workload)


def options_from(until: str | None, max_steps: int | None, version: str) -> SimulationOptions:
    """Simulation options from the command line, or a usage error."""
    from yk_cli.core.properties import parse_go_duration
    from yk_cli.core.simulation import SimulationOptions, version_tuple

    until_ns = None
    if until is not None:
        until_ns = parse_go_duration(until.strip())
        if until_ns is None or until_ns < 0:
            raise fail_usage(f"--until {until!r} is not a duration from the start (e.g. 0s, 90s, 5m, 1h30m)")
    if max_steps is not None and max_steps < 0:
        raise fail_usage("--max-steps must not be negative")
    try:
        version_tuple(version)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    return SimulationOptions(until=until_ns, max_steps=max_steps, yunikorn_version=version)


def load_scenario(config: str | None, workload: str | None, partition: str | None) -> Scenario:
    """Load and check CONFIG and WORKLOAD (or the bundled example); problems are reported like `yk validate`."""
    from yk_cli.commands.tree import prepare_inputs

    if (config is None) != (workload is None):
        raise fail_usage("give both CONFIG and WORKLOAD, or neither to run the bundled tenant example")
    if config is None or workload is None:
        with bundled_example() as (queues, work):
            inputs = prepare_inputs(queues, work, partition)
        source = BUNDLED_SOURCE
    else:
        inputs = prepare_inputs(config, workload, partition)
        source = f"{_display(config)} + {_display(workload)}"
    assert inputs.workload is not None
    return Scenario(inputs.partition, inputs.workload, source)


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


@app.command()
def simulate(
    config: Annotated[
        Optional[str],
        typer.Argument(
            help="Queue config (queues.yaml, ConfigMap or List; '-' for stdin). Omit both files for the "
            "bundled tenant example."
        ),
    ] = None,
    workload: Annotated[Optional[str], typer.Argument(help="Workload file: nodes, applications, asks.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or markdown.")] = "text",
    until: Annotated[
        Optional[str],
        typer.Option("--until", help="Stop the virtual clock at this time (0s: only the decisions at the start)."),
    ] = None,
    max_steps: Annotated[Optional[int], typer.Option("--max-steps", help="Stop after this many steps.")] = None,
    yunikorn_version: Annotated[
        str, typer.Option("--yunikorn-version", help="YuniKorn to model; 1.5 or older applies stateaware's filter.")
    ] = "1.8",
    partition: Annotated[
        Optional[str], typer.Option("--partition", help="The partition (default: the workload's `partition`).")
    ] = None,
) -> None:
    """Dry-run YuniKorn's scheduler: every allocation in the order the core makes it, the queue priority changes
    after each step, and why every ask still pending waits. Deterministic: no cluster, no wall clock."""
    from yk_cli.cli import check_format
    from yk_cli.load.workload import collector_paused

    check_format(fmt, FORMATS)
    options = options_from(until, max_steps, yunikorn_version)
    with collector_paused():
        sys.stdout.write(run_simulate(config, workload, fmt, options, partition))


def run_simulate(
    config: str | None, workload: str | None, fmt: str, options: SimulationOptions, partition: str | None = None
) -> str:
    """Load, run and render (typer.Exit on input errors)."""
    from yk_cli.core.queues import build_queue_tree
    from yk_cli.core.simulation import simulate as dry_run
    from yk_cli.report.trace_render import render_trace

    scenario = load_scenario(config, workload, partition)
    trace = dry_run(scenario.partition, build_queue_tree(scenario.partition), scenario.workload, options)
    return render_trace(fmt, trace, scenario.source)
