"""`yk simulate`: a deterministic dry run of YuniKorn's scheduling, step by step, with why every pending ask waits."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from yk_cli.cli import (
    QUIET_FLAGS,
    check_format,
    color_wanted,
    config_size,
    echo_error,
    fail_usage,
    plain_arguments,
    run_fast,
    write_stdout,
)
from yk_cli.commands.inputs import checked_inputs, one_workload
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options
from yk_cli.commands.run_options import filter_from, options_from

if TYPE_CHECKING:
    from yk_cli.core.analysis.trace_view import TraceFilter
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.workload.model import Workload
    from yk_cli.load.inputs import Inputs

FORMATS = ("text", "json", "markdown")
BUNDLED_QUEUES = "tenants-queues.yaml"
BUNDLED_WORKLOAD = "tenants-workload.yaml"
BUNDLED_SOURCE = "the tenant example of YuniKorn's 'App & Queue Priorities' document (bundled)"


@dataclass(frozen=True, slots=True)
class View:
    """What the report shows instead of (or how it draws) the step table: --starts, --timeline."""

    starts: bool = False
    timeline: str | None = None
    """queue or node (None: no --timeline)."""


@contextmanager
def bundled_example() -> Iterator[tuple[str, str]]:
    """Paths of the bundled tenant example (queues, workload), also from an installed wheel or zip."""
    data = resources.files("yk_cli.data")
    with resources.as_file(data / BUNDLED_QUEUES) as queues, resources.as_file(data / BUNDLED_WORKLOAD) as workload:
        yield str(queues), str(workload)


BIG_RUN = 20_000
"""Asks from which a dry run on the Python engine gets a note that the compiled one is faster."""


def _python_engine_note(workload: Workload) -> None:
    """On an install that compiled nothing, a big dry run says how to get the compiled engine (stderr)."""
    from yk_cli import compiled

    asks = sum(len(app.asks) for app in workload.applications)
    if asks >= BIG_RUN and compiled.not_compiled():
        echo_error(
            f"yk: note: {asks:,} asks on the engine in Python (this install compiled nothing): "
            f"`{compiled.COMPILE_ENV}=1 pip install` compiles it; a dry run is then 1.6-1.7x faster"
        )


def scenario_inputs(
    config: str | None, workload: str | None, partition: str | None, cluster: str | None = None, quiet: bool = False
) -> Inputs:
    """The checked inputs of a dry run: CONFIG and WORKLOAD, a --cluster DUMP (with an optional CONFIG), or the
    bundled example when neither file is given (Exit on problems, shown like `yk validate` shows them)."""
    if cluster is not None:  # (the dry run's trace says which applications of a dump no rule places)
        return checked_inputs(config, None, cluster, partition, quiet)
    if (config is None) != (workload is None):
        raise fail_usage("give both CONFIG and WORKLOAD, or neither to run the bundled tenant example")
    if config is None or workload is None:
        with bundled_example() as (queues, work):
            inputs = checked_inputs(queues, work, None, partition, quiet, place=True)
        inputs.source = BUNDLED_SOURCE
        return inputs
    return checked_inputs(config, workload, None, partition, quiet, place=True)


TIMELINE_BY = ("queue", "node")
CLUSTER_AND_WORKLOAD = "--cluster DUMP is the workload: give CONFIG (optional) and the dump, not WORKLOAD"


def print_simulation(
    config: str | None,
    workload: str | None,
    fmt: str = "text",
    until: str | None = None,
    max_steps: int | None = None,
    yunikorn_version: str = "1.8",
    partition: str | None = None,
    cluster: str | None = None,
    explain_preemption: bool = False,
    queue: list[str] | None = None,
    app_ids: list[str] | None = None,
    pending_only: bool = False,
    summary_only: bool = False,
    starts: bool = False,
    timeline: str | None = None,
    max_size: str | None = None,
    quiet: bool = False,
    project_config: str | None = None,
    no_config: bool = False,
    workload_option: str | None = None,
) -> None:
    """Check the options, run and print (Exit on problems): `yk simulate` from typer or from the fast path. The
    workload is the positional WORKLOAD or -w/--workload (workload_option)."""
    from yk_cli.load.source import collector_paused

    check_format(fmt, FORMATS)
    if timeline is not None and timeline not in TIMELINE_BY:
        raise fail_usage(f"--timeline {timeline!r}: choose queue or node")
    if starts and fmt == "json":
        raise fail_usage("--starts is a text or markdown table; the JSON trace has the same facts (events, pending)")
    if starts and timeline is not None:
        raise fail_usage("give --starts or --timeline, not both")
    workload = one_workload(workload, workload_option, cluster, CLUSTER_AND_WORKLOAD)
    options = options_from(until, max_steps, yunikorn_version, explain_preemption)
    chosen = filter_from(queue, app_ids, pending_only, summary_only)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        report = simulation_report(
            config, workload, fmt, options, partition, cluster, quiet, chosen, View(starts, timeline)
        )
    write_stdout(report)  # with the collector back on: json's indenting encoder leaves a reference cycle per call


_VALUE_OPTIONS = {
    "--format": "fmt",
    "-f": "fmt",
    "--until": "until",
    "--max-steps": "max_steps",
    "--yunikorn-version": "yunikorn_version",
    "--partition": "partition",
    "--cluster": "cluster",
    "--max-size": "max_size",
    "--workload": "workload",
    "-w": "workload",
    **CONFIG_OPTIONS,
}
_FLAGS = {
    "--explain-preemption": "explain_preemption",
    "--pending-only": "pending_only",
    "--summary": "summary_only",
    "--starts": "starts",
    **QUIET_FLAGS,
    **CONFIG_FLAGS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run a plain `yk simulate ARGS` without typer; None for what typer parses (help, --queue, --app, --timeline,
    a --max-steps that is not a number, a third file)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, _FLAGS)
    if parsed is None or len(parsed[0]) > 2:
        return None
    files, options = parsed
    steps = options.get("max_steps")
    if isinstance(steps, str) and not (steps.isascii() and steps.isdigit()):
        return None  # typer's own message for a bad number, its usage error for a negative one
    paths: list[str | None] = [*files, None, None]

    def text(name: str) -> str | None:
        value = options.get(name)
        return value if isinstance(value, str) else None

    return run_fast(
        print_simulation,
        paths[0],
        paths[1],
        text("fmt") or "text",
        text("until"),
        int(steps) if isinstance(steps, str) else None,
        text("yunikorn_version") or "1.8",
        text("partition"),
        text("cluster"),
        options.get("explain_preemption") is True,
        None,
        None,
        options.get("pending_only") is True,
        options.get("summary_only") is True,
        options.get("starts") is True,
        None,
        text("max_size"),
        options.get("quiet") is True,
        text("project_config"),
        options.get("no_config") is True,
        text("workload"),
    )


def simulation_report(
    config: str | None,
    workload: str | None,
    fmt: str,
    options: SimulationOptions,
    partition: str | None = None,
    cluster: str | None = None,
    quiet: bool = False,
    chosen: TraceFilter | None = None,
    shown: View | None = None,
) -> Iterable[str]:
    """Load and run (Exit on input errors), then the report in pieces; with cluster, the dump is the workload.
    A filter naming a queue or application the run does not have is a usage error (after the run: placement rules
    may create queues)."""
    from yk_cli.commands.progress import dry_run
    from yk_cli.core.analysis.trace_view import NO_FILTER, TraceFilter, located, unknown_names
    from yk_cli.report.trace_render import trace_chunks

    chosen = chosen or NO_FILTER
    scenario = scenario_inputs(config, workload, partition, cluster, quiet)
    assert scenario.workload is not None
    apps = [a.id for a in scenario.workload.applications]
    if not quiet:
        _python_engine_note(scenario.workload)
    unknown = unknown_names(TraceFilter((), chosen.applications), (), apps)
    if unknown:  # before the run: application ids are known from the workload
        raise fail_usage(unknown[0])
    trace = located(dry_run(scenario.partition, scenario.tree, scenario.workload, options, "dry run"), scenario.locate)
    unknown = unknown_names(chosen, trace.queues, apps)
    if unknown:
        raise fail_usage(unknown[0])
    shown = shown or View()
    if shown.starts:
        from yk_cli.report import starts

        render = starts.render_markdown if fmt == "markdown" else starts.render_text
        return (render(trace, scenario.source),)
    if shown.timeline is not None and fmt == "text":
        import shutil

        from yk_cli.report import timeline_rich

        color = color_wanted()
        width = shutil.get_terminal_size((100, 24)).columns if color else 100
        return (timeline_rich.render_report(trace, scenario.source, chosen, shown.timeline, width, color),)
    return trace_chunks(fmt, trace, scenario.source, chosen, shown.timeline or "queue")
