"""`yk simulate`: a deterministic dry run of YuniKorn's scheduling, step by step, with why every pending ask waits."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from yk_cli.cli import (
    QUIET_FLAGS,
    Exit,
    check_format,
    config_size,
    echo_error,
    fail_usage,
    plain_arguments,
    run_fast,
    write_stdout,
)
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options

if TYPE_CHECKING:
    from yk_cli.core.analysis.trace_view import TraceFilter
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.diagnostics import Problem
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.sim.trace import Trace
    from yk_cli.core.workload.model import Workload
    from yk_cli.load.config import LoadedConfig, LoadResult

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


@dataclass(slots=True)
class Scenario:
    """A checked partition and workload, ready to run."""

    partition: PartitionConfig
    workload: Workload
    source: str
    locate: Callable[[tuple[str | int, ...]], str] | None = None
    """`file:line` of a document path in the queue config ('' when unknown); None without a config file."""


@contextmanager
def bundled_example() -> Iterator[tuple[str, str]]:
    """Paths of the bundled tenant example (queues, workload), also from an installed wheel or zip."""
    data = resources.files("yk_cli.data")
    with resources.as_file(data / BUNDLED_QUEUES) as queues, resources.as_file(data / BUNDLED_WORKLOAD) as workload:
        yield str(queues), str(workload)


def options_from(
    until: str | None, max_steps: int | None, version: str, explain_preemption: bool = False
) -> SimulationOptions:
    """Simulation options from the command line, or a usage error."""
    from yk_cli.core.config.properties import parse_go_duration
    from yk_cli.core.sim.run import SimulationOptions, version_tuple

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
    return SimulationOptions(
        until=until_ns, max_steps=max_steps, yunikorn_version=version, explain_preemption=explain_preemption
    )


def filter_from(
    queues: list[str] | None, applications: list[str] | None, pending_only: bool, summary_only: bool
) -> TraceFilter:
    """The report filter from the command line (queue paths are case-insensitive, as YuniKorn's are)."""
    from yk_cli.core.analysis.trace_view import TraceFilter

    paths = [q.strip().lower() for q in queues or ()]
    if any(not p for p in paths):
        raise fail_usage("--queue needs a queue path, e.g. root.tenants")
    apps = list(applications or ())
    return TraceFilter(tuple(dict.fromkeys(paths)), tuple(dict.fromkeys(apps)), pending_only, summary_only)


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


def load_scenario(config: str | None, workload: str | None, partition: str | None, quiet: bool = False) -> Scenario:
    """Load and check CONFIG and WORKLOAD (or the bundled example); problems are reported like `yk validate`."""
    from yk_cli.commands.tree import prepare_inputs

    if (config is None) != (workload is None):
        raise fail_usage("give both CONFIG and WORKLOAD, or neither to run the bundled tenant example")
    if config is None or workload is None:
        with bundled_example() as (queues, work):
            inputs = prepare_inputs(queues, work, partition, quiet)
        source = BUNDLED_SOURCE
    else:
        inputs = prepare_inputs(config, workload, partition, quiet)
        source = f"{_display(config)} + {_display(workload)}"
    assert inputs.workload is not None
    return Scenario(inputs.partition, inputs.workload, source, inputs.locate)


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


def load_cluster_scenario(dump: str, config: str | None, partition_name: str | None, quiet: bool = False) -> Scenario:
    """A kubectl dump as workload with CONFIG, its ConfigMap's or the built-in queue config; problems reported as
    prepare_inputs does."""
    from yk_cli.commands.tree import report_problems
    from yk_cli.core.config.placement import default_partition
    from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level, Problem
    from yk_cli.core.workload.predicate_lint import lint_predicates
    from yk_cli.load.kubernetes import cluster_from_bytes
    from yk_cli.load.source import InputError, decode_text, read_input

    if config == "-" and dump == "-":
        raise fail_usage("'-' (standard input) may be given only once")
    try:
        data = read_input(dump)
    except InputError as err:
        raise fail_usage(str(err)) from None
    shown = _display(dump)
    workload, queues_yaml, found = cluster_from_bytes(data, shown)
    problems: list[Problem] = list(found)
    problems.extend(p.located(None, shown) for p in lint_predicates(workload))  # a dump's pods have no line
    config_problems: list[Problem] = []

    def _report(problems: list[Problem], texts: dict[str, str]) -> None:
        report_problems(problems, texts, len(texts), config_problems, quiet)

    texts = {shown: decode_text(data)[0] or ""}
    partitions: dict[str, PartitionConfig] = {}
    locate: Callable[[tuple[str | int, ...]], str] | None = None
    if config is None and queues_yaml is None:
        partitions = {"default": default_partition()}
        source = f"{shown} (no yunikorn-configs ConfigMap: YuniKorn's built-in default queue config)"
    else:
        try:
            loaded, origin = _cluster_config(config, dump, data, queues_yaml)
        except InputError as err:
            _report(problems, texts)
            raise fail_usage(str(err)) from None
        texts[loaded.file] = loaded.text
        config_problems.extend(loaded.problems)
        problems.extend(p for p in loaded.problems if p not in problems)
        decoded = [c for c in loaded.configs if c.decoded and c.config.partitions]
        if decoded:
            chosen = next((c for c in decoded if c.origin.startswith(f"{origin},")), decoded[0])
            partitions = {p.display_name: p for p in chosen.config.partitions}
            locate = _locator(chosen)
        source = f"{_display(config)} + {shown}" if config is not None else f"{shown} (queue config from its ConfigMap)"
    problems.sort(key=Problem.sort_key)
    _report(problems, texts)
    if any(p.level == Level.ERROR for p in problems):
        raise Exit(EXIT_PROBLEMS)
    if not partitions:
        echo_error(f"yk: error: {_display(config or dump)} defines no partition")
        raise Exit(EXIT_PROBLEMS)
    name = partition_name or workload.partition
    partition = partitions.get(name)
    if partition is None and partition_name is None and len(partitions) == 1:
        partition = next(iter(partitions.values()))
    if partition is None:
        raise fail_usage(
            f"the queue config has no partition {name!r} (it has: {', '.join(partitions)}); use --partition"
        )
    return Scenario(partition, workload, source, locate)


def _locator(loaded: LoadedConfig) -> Callable[[tuple[str | int, ...]], str]:
    """`file:line` of a document path in one loaded queue config."""

    def locate(path: tuple[str | int, ...]) -> str:
        span = loaded.source_map.span(path, "value") if path else None
        return f"{loaded.file}:{span.line}" if span is not None else ""

    return locate


def located(trace: Trace, locate: Callable[[tuple[str | int, ...]], str] | None) -> Trace:
    """The trace with `(file:line)` of the limit entry after each pending reason that names a user or group limit."""
    from dataclasses import replace

    if locate is None or not any(p.where for p in trace.pending):
        return trace
    pending = []
    for ask in trace.pending:
        where = locate(ask.where) if ask.where else ""
        pending.append(replace(ask, reason=f"{ask.reason} ({where})") if where else ask)
    return replace(trace, pending=tuple(pending))


def _cluster_config(config: str | None, dump: str, data: bytes, queues_yaml: str | None) -> tuple[LoadResult, str]:
    """The loaded queue config for --cluster and the origin to prefer among its documents."""
    from dataclasses import replace

    from yk_cli.load.config import load_config
    from yk_cli.load.source import config_limit, config_limit_set

    if config is not None:
        return load_config(config), ""
    assert queues_yaml is not None
    if len(queues_yaml.encode("utf-8")) > config_limit():  # refused like a queue config file of that size
        loaded = load_config("-", stdin=queues_yaml.encode("utf-8"))
        loaded.file = f"{_display(dump)}[queues.yaml]"
        loaded.problems = [replace(p, file=loaded.file) for p in loaded.problems]
        return loaded, ""
    # The dump's own ConfigMap, located in the dump (as `yk validate DUMP` reports it); yunikorn-configs wins.
    with config_limit_set(max(config_limit(), len(data))):  # the dump is the workload: only its queues.yaml counts
        loaded = load_config(dump, stdin=data)
    for origin in ("ConfigMap yunikorn-configs", "ConfigMap yunikorn-defaults"):
        if any(c.decoded and c.origin.startswith(f"{origin},") for c in loaded.configs):
            return loaded, origin
    # Another policy group's key: check the merged text the loader found, named after the dump.
    label = f"{_display(dump)}[queues.yaml]"
    loaded = load_config("-", stdin=queues_yaml.encode("utf-8"))
    loaded.file = label
    loaded.problems = [replace(p, file=label) for p in loaded.problems]
    for item in loaded.configs:
        item.file = label
    return loaded, ""


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
    from yk_cli.commands.tree import one_workload
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
    from yk_cli.core.analysis.trace_view import NO_FILTER, TraceFilter, unknown_names
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.report.trace_render import trace_chunks

    chosen = chosen or NO_FILTER
    if cluster is not None:
        scenario = load_cluster_scenario(cluster, config, partition, quiet)
    else:
        scenario = load_scenario(config, workload, partition, quiet)
    apps = [a.id for a in scenario.workload.applications]
    if not quiet:
        _python_engine_note(scenario.workload)
    unknown = unknown_names(TraceFilter((), chosen.applications), (), apps)
    if unknown:  # before the run: application ids are known from the workload
        raise fail_usage(unknown[0])
    tree = build_queue_tree(scenario.partition)
    trace = located(dry_run(scenario.partition, tree, scenario.workload, options, "dry run"), scenario.locate)
    unknown = unknown_names(chosen, trace.queues, apps)
    if unknown:
        raise fail_usage(unknown[0])
    shown = shown or View()
    if shown.starts:
        from yk_cli.report import starts

        render = starts.render_markdown if fmt == "markdown" else starts.render_text
        return (render(trace, scenario.source),)
    if shown.timeline is not None and fmt == "text":
        return (_timeline_text(trace, scenario.source, chosen, shown.timeline),)
    return trace_chunks(fmt, trace, scenario.source, chosen, shown.timeline or "queue")


def _timeline_text(trace: Trace, source: str, chosen: TraceFilter, by: str) -> str:
    """Title, the Rich timeline of the shown steps (coloured on a terminal), and the summary line."""
    import shutil

    from yk_cli.commands.tree import color_wanted
    from yk_cli.core.analysis.timeline import timeline
    from yk_cli.core.analysis.trace_view import view
    from yk_cli.report import timeline_rich
    from yk_cli.report.trace_common import filter_line, summary_line, title

    color = color_wanted()
    width = shutil.get_terminal_size((100, 24)).columns if color else 100
    out = [title(trace, source), ""]
    if chosen.active:
        out += [filter_line(chosen), ""]
    drawn = timeline_rich.render(timeline(trace, view(trace, chosen).events), by, width, color)
    return "\n".join(out) + "\n" + drawn + "\nSummary: " + summary_line(trace.summary) + "\n"
