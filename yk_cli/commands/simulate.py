"""`yk simulate`: a deterministic dry run of YuniKorn's scheduling, step by step, with why every pending ask waits."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import (
    check_format,
    color_wanted,
    echo_error,
    fail_usage,
    run_fast,
    write_report,
    write_stdout,
)
from yk_cli.commands.declare import (
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    QUIET,
    STATE,
    WORKLOAD,
    WORKLOAD_PARTITION,
    YUNIKORN,
    YUNIKORN_VERSION,
    argument,
    option,
    parse_plain,
    shared,
)
from yk_cli.commands.inputs import WorkloadDump, checked_inputs, one_workload, workload_dump
from yk_cli.commands.project import config_size, project_options
from yk_cli.commands.run_options import filter_from, options_from
from yk_cli.core.versions import LATEST_VERSION

if TYPE_CHECKING:
    from yk_cli.core.analysis.metrics import Metrics
    from yk_cli.core.analysis.trace_view import TraceFilter
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.sim.trace import Trace
    from yk_cli.core.workload.model import Workload
    from yk_cli.load.inputs import Inputs

FORMATS = ("text", "json", "markdown", "csv", "html")
METRICS_FORMATS = ("text", "json", "csv", "html")
"""--metrics: tables, the metrics document, one CSV row per pod, or the HTML report (which always has them)."""
BUNDLED_QUEUES = "tenants-queues.yaml"
BUNDLED_WORKLOAD = "tenants-workload.yaml"
BUNDLED_SOURCE = "the tenant example of YuniKorn's 'App & Queue Priorities' document (bundled)"


@dataclass(frozen=True, slots=True)
class View:
    """What the report shows instead of (or how it draws) the step table: --starts, --timeline."""

    starts: bool = False
    timeline: str | None = None
    """queue or node (None: no --timeline)."""
    metrics: bool = False
    """--metrics (or the HTML report, which has them): the numbers instead of the steps."""


@contextmanager
def bundled_example() -> Iterator[tuple[str, str]]:
    """Paths of the bundled tenant example (queues, workload), also from an installed wheel or zip."""
    from importlib import resources  # (only here: importing it costs a start-up's 12 ms)

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
    config: str | None,
    workload: str | None,
    partition: str | None,
    cluster: WorkloadDump | None = None,
    quiet: bool = False,
) -> Inputs:
    """The checked inputs of a dry run: CONFIG and WORKLOAD, a --cluster DUMP or the scheduler's own state (with an
    optional CONFIG), or the bundled example when neither file is given (Exit on problems, shown like `yk validate`
    shows them)."""
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


@dataclass(frozen=True, slots=True)
class SimulateArgs:
    """`yk simulate`'s arguments and options."""

    config: Optional[str] = argument(
        "CONFIG",
        "Queue config (queues.yaml, ConfigMap or List; '-' for stdin). Omit both files for the bundled tenant example.",
    )
    workload: Optional[str] = argument("WORKLOAD", "Workload file: nodes, applications, asks (or -w/--workload).")
    workload_option: Optional[str] = shared(WORKLOAD)
    fmt: str = option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="text, json or markdown; with --metrics text, json or csv (one row per pod); html: one self-contained "
        "HTML report of the run and its metrics, to --output FILE.",
        default="text",
    )
    until: Optional[str] = option(
        "--until", metavar="TIME", help="Stop the virtual clock at this time (0s: only the decisions at the start)."
    )
    max_steps: Optional[int] = option("--max-steps", metavar="N", help="Stop after this many steps.")
    yunikorn_version: str = shared(YUNIKORN_VERSION, LATEST_VERSION)
    partition: Optional[str] = shared(WORKLOAD_PARTITION)
    cluster: Optional[str] = option(
        "--cluster",
        metavar="DUMP",
        help="A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump ('-' for stdin) as the workload. Its "
        "yunikorn-configs queues.yaml is the queue config (YuniKorn's built-in default without one), unless "
        "CONFIG is given: `yk simulate --cluster dump.yaml` or `yk simulate new-queues.yaml --cluster "
        "dump.yaml`. WORKLOAD may not be given with it.",
    )
    state: Optional[str] = shared(STATE)
    yunikorn: Optional[str] = shared(YUNIKORN)
    explain_preemption: bool = option(
        "--explain-preemption",
        help="List every preemption try with every running allocation it considered and the verdict that kept "
        "it out (or made it a victim); in JSON, fills each attempt's candidates.",
        default=False,
    )
    queue: Optional[list[str]] = option(
        "--queue",
        metavar="PATH",
        help="Show only the steps, arrivals, pending asks and preemptions of this queue and the queues below it "
        "(repeatable). Filters change what is shown, never what is simulated: the dry run always runs the "
        "whole partition.",
        fast=False,
    )
    app_ids: Optional[list[str]] = option(
        "--app", metavar="ID", help="Show only the rows of this application (repeatable).", fast=False
    )
    pending_only: bool = option(
        "--pending-only", help="Show only the asks still pending at the end, with their reasons.", default=False
    )
    summary_only: bool = option(
        "--summary",
        help="Show only the summary: the run's counts and end time, and what was allocated, is pending, was "
        "preempted, completed and arrived in each queue.",
        default=False,
    )
    starts: bool = option(
        "--starts",
        help="Instead of the steps, a compact `squeue --start`-style table: per pod its predicted start on the "
        "virtual clock, node and queue, or why it never starts (text or markdown).",
        default=False,
    )
    timeline: Optional[str] = option(
        "--timeline",
        metavar="[queue|node]",
        help="Text: draw the run as bars per queue (or node) over the virtual clock, preemptions marked, "
        "instead of the step table. Markdown: the sections of its Mermaid gantt (queue by default).",
        fast=False,
    )
    metrics: bool = option(
        "--metrics",
        help="Instead of the steps, the numbers a capacity planner asks for: waits (p50, p90, p99, max), pods "
        "started, pending, failed and preempted, work lost to preemption and time to first start, per queue, user, "
        "application and priority; each queue's usage against its guarantee and max, and its fairness gap; the "
        "cluster's utilization and the makespan (docs/metrics.md).",
        default=False,
    )
    output: Optional[str] = option(
        "--output", metavar="FILE", help="Write the report to FILE instead of standard output."
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Dry-run YuniKorn's scheduler: every allocation in order, and why every pending ask still waits.

Every allocation comes in the order the core makes it, with the queue priority changes after each step.
Deterministic: no cluster, no wall clock.

Inputs: CONFIG and WORKLOAD; or --cluster DUMP, or YuniKorn's own state (--state FILE, a saved
/debug/fullstatedump, or --yunikorn URL, live), each with an optional CONFIG to try a new queue config on
it; or nothing, for the tenant example of YuniKorn's 'App & Queue Priorities' document.

--queue, --app, --pending-only and --summary choose what is shown (they combine); the dry run always runs
the whole partition.

--metrics turns the run into numbers: waits, preemption loss, guarantees met, utilization; --format html
--output FILE writes one self-contained HTML report to open in a browser.

Example: yk simulate queues.yaml workload.yaml --until 10m"""


def print_simulation(args: SimulateArgs) -> None:
    """Check the options, run and print (Exit on problems): `yk simulate` from typer or from the fast path."""
    from yk_cli.load.source import collector_paused

    fmt, timeline, starts = args.fmt, args.timeline, args.starts
    check_format(fmt, FORMATS)
    if args.metrics:
        check_format(fmt, METRICS_FORMATS)
        if starts or timeline is not None:
            raise fail_usage("--metrics is its own report: give it without --starts or --timeline")
    elif fmt == "csv":
        raise fail_usage("--format csv is the per-pod table of --metrics: add --metrics")
    if fmt == "html" and args.output is None:
        raise fail_usage("--format html writes a file: add --output FILE (e.g. --output report.html)")
    if fmt == "html" and (starts or timeline is not None):
        raise fail_usage("--format html is its own report: give it without --starts or --timeline")
    if timeline is not None and timeline not in TIMELINE_BY:
        raise fail_usage(f"--timeline {timeline!r}: choose queue or node")
    if starts and fmt == "json":
        raise fail_usage("--starts is a text or markdown table; the JSON trace has the same facts (events, pending)")
    if starts and timeline is not None:
        raise fail_usage("give --starts or --timeline, not both")
    dump = workload_dump(args.cluster, args.state, args.yunikorn)
    workload = one_workload(args.workload, args.workload_option, dump, CLUSTER_AND_WORKLOAD)
    options = options_from(args.until, args.max_steps, args.yunikorn_version, args.explain_preemption)
    chosen = filter_from(args.queue, args.app_ids, args.pending_only, args.summary_only)
    with project_options(args.project_config, args.no_config), config_size(args.max_size), collector_paused():
        report = simulation_report(
            args.config,
            workload,
            fmt,
            options,
            args.partition,
            dump,
            args.quiet,
            chosen,
            View(starts, timeline, args.metrics or fmt == "html"),
        )
    if args.output is None:
        write_stdout(report)  # with the collector back on: json's indenting encoder leaves a reference cycle per call
    else:
        write_report(args.output, report)


def fast_path(args: Sequence[str]) -> int | None:
    """Run a plain `yk simulate ARGS` without typer; None for what typer parses (help, --queue, --app, --timeline,
    a --max-steps that is not a number, a third file)."""
    parsed = parse_plain(SimulateArgs, args)
    return None if parsed is None else run_fast(print_simulation, parsed)


def _metrics_report(fmt: str, measured: Metrics, trace: Trace, scenario: Inputs) -> str:
    """The metrics in the chosen format (html: the whole report, metrics included)."""
    if fmt == "html":
        from yk_cli.report.html import render_simulation_html

        return render_simulation_html(trace, scenario.tree, measured, scenario.source)
    if fmt == "json":
        from yk_cli.report import metrics_json

        return metrics_json.render(measured, scenario.source)
    if fmt == "csv":
        from yk_cli.report import metrics_csv

        return metrics_csv.render(measured)
    import shutil

    from yk_cli.report import metrics_text

    color = color_wanted()
    width = max(100, shutil.get_terminal_size((120, 24)).columns) if color else 120
    return metrics_text.render(measured, scenario.source, width, color)


def simulation_report(
    config: str | None,
    workload: str | None,
    fmt: str,
    options: SimulationOptions,
    partition: str | None = None,
    cluster: WorkloadDump | None = None,
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
    scenario.report.texts.clear()  # the problems are shown: the input texts (a large workload's MBs) go now
    apps = [a.id for a in scenario.workload.applications]
    if not quiet:
        _python_engine_note(scenario.workload)
    unknown = unknown_names(TraceFilter((), chosen.applications), (), apps)
    if unknown:  # before the run: application ids are known from the workload
        raise fail_usage(unknown[0])
    run = dry_run(scenario.partition, scenario.tree, scenario.workload, options, "dry run", scenario.placements)
    trace = located(run, scenario.locate)
    unknown = unknown_names(chosen, trace.queues, apps)
    if unknown:
        raise fail_usage(unknown[0])
    shown = shown or View()
    if shown.metrics:
        from yk_cli.core.analysis.metrics import run_metrics

        queue_of = {application.id: leaf.path for application, leaf in scenario.placed}
        measured = run_metrics(trace, scenario.workload, scenario.tree, queue_of)
        return (_metrics_report(fmt, measured, trace, scenario),)
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
