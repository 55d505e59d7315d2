"""`yk diff`: what a queue config change does — problems, settings and queues that changed, and with a workload each
ask's effective priority and the two dry runs compared."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import Exit, color_wanted, fail_usage, write_report, write_stdout
from yk_cli.commands.declare import MAX_SIZE, NO_CONFIG, PROJECT_CONFIG, WORKLOAD, argument, option, shared
from yk_cli.commands.project import config_size, project_options
from yk_cli.core.versions import LATEST_VERSION

if TYPE_CHECKING:
    from yk_cli.commands.inputs import WorkloadDump
    from yk_cli.core.analysis.timeline import Timeline
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.diagnostics import Problem
    from yk_cli.core.diff.config_diff import ConfigSide
    from yk_cli.core.diff.metrics_diff import MetricsChanges
    from yk_cli.core.diff.model import Diff
    from yk_cli.core.diff.verdict import FailOn
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.sim.trace import Trace
    from yk_cli.core.workload.model import Workload

TIMELINE_BY = ("queue", "node")


@dataclass(slots=True)
class Side:
    """One loaded config: the diff's view of it, whether YuniKorn refuses it, and its text (for problem excerpts)."""

    spec: str
    view: ConfigSide
    refused: bool
    text: str


@dataclass(slots=True)
class WorkloadInput:
    """The workload both configs run, where it came from, and its problems by side."""

    workload: Workload
    source: str


def load_side(spec: str) -> Side:
    """Load one config (file, '-', ConfigMap or git:REV:PATH); a usage error when it cannot be read."""
    from yk_cli.commands.project import active_project
    from yk_cli.core.diagnostics import Level
    from yk_cli.core.diff.config_diff import ConfigSide
    from yk_cli.core.yamldoc import SourceMap
    from yk_cli.load.gitref import load_config_input
    from yk_cli.load.inputs import builtin_default
    from yk_cli.load.source import InputError

    project = active_project()
    try:
        result = load_config_input(spec, project.policy_group or "queues")
    except InputError as err:
        raise fail_usage(str(err)) from None
    configs = [c for c in result.configs if c.decoded and c.config.partitions]
    if not configs:
        default = builtin_default(result)  # an empty config: YuniKorn runs its built-in default
        configs = [default] if default is not None else []
    partitions = configs[0].config.partitions if configs else ()
    source_map = configs[0].source_map if configs else SourceMap()
    refused = not configs or any(p.level == Level.ERROR for p in result.problems)
    view = ConfigSide(result.file, tuple(partitions), source_map, tuple(project.applied(result.problems)))
    return Side(spec, view, refused, result.text)


def _partition(side: Side, name: str, label: str, given: bool) -> PartitionConfig:
    """The partition of one side (load.inputs.choose_partition), or a usage error."""
    from yk_cli.load.inputs import choose_partition, missing_partition

    found = {p.display_name: p for p in side.view.partitions}
    partition = choose_partition(found, name)
    if partition is None:
        raise fail_usage(missing_partition(f"{label} {side.view.file}", name, found, given))
    return partition


def load_workload_input(
    workload: str | None, cluster: WorkloadDump | None, old: Side, new: Side, partition: str | None, quiet: bool
) -> tuple[WorkloadInput, PartitionConfig, PartitionConfig] | None:
    """The workload (a file, a kubectl dump or the scheduler's state) and the partition each side runs it in;
    problems are reported like
    `yk validate` reports them and stop the command (exit 1) when they are errors on both sides: a queue the
    workload names that only one config has is a change the diff shows, not an error."""
    from yk_cli.commands.inputs import SchedulerDump, report_problems
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level, Problem
    from yk_cli.core.workload.checks import may_create_queues
    from yk_cli.load.source import InputError

    if workload is None and cluster is None:
        return None
    texts: dict[str, str] = {}
    problems: list[Problem] = []
    if isinstance(cluster, SchedulerDump):
        from yk_cli.commands.inputs import echo_notes
        from yk_cli.load.state import scheduler_state

        try:
            state = scheduler_state(cluster.state, cluster.yunikorn, partition)
        except InputError as err:
            raise fail_usage(str(err)) from None
        echo_notes(state.notes, quiet)
        loaded_workload, source = state.workload.workload, state.file
        problems.extend(state.workload.problems)
        by_side: list[list[Problem]] = [[], []]  # placed applications: the core created their queues
        name, given = state.documents.partition, partition is not None
        parts = _partition(old, name, "OLD", given), _partition(new, name, "NEW", given)
    elif cluster is not None:
        from yk_cli.load.inputs import read_dump

        try:
            dump = read_dump(cluster)
        except InputError as err:
            raise fail_usage(str(err)) from None
        loaded_workload, source = dump.workload, dump.file
        texts[dump.file] = dump.text
        problems.extend(dump.problems)
        by_side = [[], []]
        name, given = partition or loaded_workload.partition, partition is not None
        parts = _partition(old, name, "OLD", given), _partition(new, name, "NEW", given)
    else:
        from yk_cli.load.workload import read_workload

        assert workload is not None
        try:
            loaded = read_workload(workload)
        except InputError as err:
            raise fail_usage(str(err)) from None
        texts[loaded.file] = loaded.text
        problems.extend(loaded.problems)
        loaded_workload, source = loaded.workload, loaded.file
        name, given = partition or loaded_workload.partition, partition is not None
        parts = _partition(old, name, "OLD", given), _partition(new, name, "NEW", given)
        by_side = [loaded.check(build_queue_tree(p), may_create_queues(p)) for p in parts]
    keys = [{(p.rule, p.message) for p in found} for found in by_side]
    problems.extend(p for p in by_side[1] if (p.rule, p.message) in keys[0])  # on both sides: the workload's own
    problems.sort(key=Problem.sort_key)
    report_problems(problems, texts, len(texts), [], quiet)
    if any(p.level == Level.ERROR for p in problems):
        raise Exit(EXIT_PROBLEMS)
    return WorkloadInput(loaded_workload, source), parts[0], parts[1]


def both_metrics(
    old: PartitionConfig, new: PartitionConfig, workload: Workload, traces: tuple[Trace, Trace]
) -> MetricsChanges:
    """The two runs' metrics side by side (each side's applications placed by its own rules)."""
    from yk_cli.core.analysis.metrics import run_metrics
    from yk_cli.core.diff.metrics_diff import compare_metrics
    from yk_cli.core.diff.run_diff import placements

    measured = []
    for partition, trace in ((old, traces[0]), (new, traces[1])):
        _, placed, tree = placements(partition, workload)
        measured.append(run_metrics(trace, workload, tree, {app.id: leaf.path for app, leaf in placed}))
    return compare_metrics(measured[0], measured[1])


def run_both(
    old: PartitionConfig, new: PartitionConfig, workload: Workload, options: SimulationOptions
) -> tuple[Trace, Trace]:
    """The two dry runs (with a progress bar on a terminal when they take long)."""
    from yk_cli.commands.progress import dry_run
    from yk_cli.core.config.queues import build_queue_tree

    before = dry_run(old, build_queue_tree(old), workload, options, "dry run 1/2 (OLD)")
    after = dry_run(new, build_queue_tree(new), workload, options, "dry run 2/2 (NEW)")
    return before, after


@dataclass(frozen=True, slots=True)
class DiffArgs:
    """`yk diff`'s arguments and options."""

    old: str = argument(
        "OLD",
        "The queue config before: a file, a ConfigMap, '-' for stdin, or git:REV:PATH (read through `git show "
        "REV:PATH`, e.g. git:main:queues.yaml).",
        required=True,
    )
    new: str = argument("NEW", "The queue config after (same forms as OLD).", required=True)
    workload: Optional[str] = argument(
        "WORKLOAD", "A workload file: compares priorities and the two dry runs (or -w/--workload)."
    )
    workload_option: Optional[str] = shared(WORKLOAD)
    cluster: Optional[str] = option(
        "--cluster", metavar="DUMP", help="A kubectl dump as the workload (instead of WORKLOAD)."
    )
    state: Optional[str] = option(
        "--state",
        metavar="FILE",
        help="A saved YuniKorn state dump (/debug/fullstatedump) as the workload: what the change does to what the "
        "scheduler runs and holds now (see docs/state.md).",
    )
    yunikorn: Optional[str] = option(
        "--yunikorn", metavar="URL", help="A running YuniKorn's REST API, read live as --state reads a dump."
    )
    fmt: Optional[str] = option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="text, json, markdown, github (the default under GitHub Actions), sarif, or html (one self-contained "
        "page with both runs' metrics, to --output FILE).",
    )
    fail_on: Optional[list[str]] = option(
        "--fail-on",
        metavar="CONDITION",
        help="Exit 1 when this holds (repeatable or comma-separated): new-errors (the default), "
        "later-start[=DURATION], new-pending, new-preemption, priority-drop, placement-change, order-change, "
        "any; on the runs' metrics: p50-wait, p90-wait, p95-wait, p99-wait or max-wait=+PCT (every pod's or a "
        "queue's grew by more), utilization=-PCT (a resource type's mean fell by more), fairness-gap=+PCT.",
    )
    metrics: bool = option(
        "--metrics",
        help="Also compare the two dry runs' metrics (docs/metrics.md): waits per queue, pods pending, fairness gaps, "
        "cluster utilization, work lost, makespan; a metrics --fail-on condition implies it.",
        default=False,
    )
    output: Optional[str] = option(
        "--output", metavar="FILE", help="Write the report to FILE instead of standard output (html needs it)."
    )
    timeline: str = option(
        "--timeline", metavar="BY", help="Sections of the Markdown timeline: queue or node.", default="queue"
    )
    partition: Optional[str] = option(
        "--partition", metavar="NAME", help="The partition the workload runs in (default: its own)."
    )
    until: Optional[str] = option("--until", metavar="TIME", help="Stop both dry runs at this virtual time.")
    max_steps: Optional[int] = option("--max-steps", metavar="N", help="Stop both dry runs after this many steps.")
    yunikorn_version: str = option(
        "--yunikorn-version", metavar="VERSION", help="YuniKorn to model (as yk simulate).", default=LATEST_VERSION
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = option("--quiet", "-q", help="No summary line for workload warnings on stderr.", default=False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """What a queue config change does: problems introduced and fixed, every effective setting that changed (with
the line in NEW and where each value came from), queues added, removed or moved.

With a workload (or --cluster DUMP), first: the asks that now start ahead of asks they used to follow, or behind
asks they used to lead, at the same virtual time (with their steps before and after). Then each ask's effective
priority before and after with the step that changed it, and both dry runs compared — asks that start later or
earlier (+4m30s on the virtual clock), now wait or no longer wait, land on another node or in another order
within their queue, preemptions added or removed, placements changed.

Exit status: 0 when no --fail-on condition holds, 1 when one does, 2 on usage errors.

Example: yk diff git:main:queues.yaml queues.yaml workload.yaml --format markdown"""


def diff_command(args: DiffArgs) -> None:
    """`yk diff`: compare, print, and end with the --fail-on verdict (Exit 1 when a condition holds)."""
    old, new, workload, cluster, fmt, timeline = (
        args.old,
        args.new,
        args.workload,
        args.cluster,
        args.fmt,
        args.timeline,
    )

    from yk_cli.commands.console import check_format
    from yk_cli.commands.inputs import one_workload, workload_dump
    from yk_cli.commands.run_options import options_from
    from yk_cli.core.diff.verdict import DEFAULT, failing, parse_fail_on, wants_metrics
    from yk_cli.load.source import collector_paused
    from yk_cli.report.diff_common import FORMATS

    chosen = fmt if fmt is not None else ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    check_format(chosen, FORMATS)
    if timeline not in TIMELINE_BY:
        raise fail_usage(f"--timeline {timeline!r}: choose queue or node")
    dump = workload_dump(cluster, args.state, args.yunikorn)
    workload = one_workload(workload, args.workload_option, dump)
    if [old, new, workload, cluster, args.state].count("-") > 1:
        raise fail_usage("'-' (standard input) may be given only once")
    try:
        conditions = parse_fail_on(args.fail_on) if args.fail_on else parse_fail_on(list(DEFAULT))
    except ValueError as err:
        raise fail_usage(str(err)) from None
    if chosen == "html" and args.output is None:
        raise fail_usage("--format html writes a file: add --output FILE (e.g. --output diff.html)")
    with_metrics = args.metrics or chosen == "html" or wants_metrics(conditions)
    options = options_from(args.until, args.max_steps, args.yunikorn_version)
    with project_options(args.project_config, args.no_config), config_size(args.max_size), collector_paused():
        markdown = chosen == "markdown"
        result, timelines = compute(
            old, new, workload, dump, args.partition, options, args.quiet, markdown, with_metrics
        )
        holding = failing(result, conditions)
        report = render(chosen, result, conditions, holding, timelines, timeline)
    if args.output is None:
        write_stdout((report,))
    else:
        write_report(args.output, report)
    raise Exit(1 if holding else 0)


def compute(
    old_spec: str,
    new_spec: str,
    workload: str | None,
    cluster: WorkloadDump | None,
    partition: str | None,
    options: SimulationOptions,
    quiet: bool = False,
    with_timelines: bool = False,
    with_metrics: bool = False,
) -> tuple[Diff, tuple[Timeline, Timeline] | None]:
    """Load everything, diff the configs, and with a workload diff its placements, priorities and dry runs (and
    their metrics, with_metrics)."""
    from yk_cli.core.analysis.timeline import timeline
    from yk_cli.core.diff.config_diff import diff_config
    from yk_cli.core.diff.model import Diff, WorkloadChanges
    from yk_cli.core.diff.run_diff import diff_workload
    from yk_cli.load.source import shown_name

    old, new = load_side(old_spec), load_side(new_spec)
    config = diff_config(old.view, new.view)
    loaded = None
    if not (old.refused or new.refused):
        loaded = load_workload_input(workload, cluster, old, new, partition, quiet)
    timelines = None
    changes = None
    source = part = ""
    if workload is not None or cluster is not None:
        source = shown_name(str(cluster) if cluster is not None else workload or "")
        refused = [label for label, side in (("OLD", old), ("NEW", new)) if side.refused]
        if refused:
            part = partition or ""  # the workload was not read: its own partition is unknown
            which = " and ".join(f"{label} ({(old if label == 'OLD' else new).view.file})" for label in refused)
            changes = WorkloadChanges(
                skipped=f"YuniKorn refuses {which}: it has errors (see the problems above), so there is no dry run "
                "to compare"
            )
        else:
            assert loaded is not None
            inputs, old_partition, new_partition = loaded
            source, part = inputs.source, new_partition.display_name
            traces = run_both(old_partition, new_partition, inputs.workload, options)
            changes = diff_workload(old.view, old_partition, new.view, new_partition, inputs.workload, traces)
            if with_metrics:
                changes = replace(changes, metrics=both_metrics(old_partition, new_partition, inputs.workload, traces))
            if with_timelines:
                timelines = (timeline(traces[0]), timeline(traces[1]))
    result = Diff(old.view.file, new.view.file, config, changes, source, part)
    return result, timelines


def render(
    fmt: str,
    result: Diff,
    conditions: list[FailOn],
    holding: list[FailOn],
    timelines: tuple[Timeline, Timeline] | None,
    by: str,
) -> str:
    """The report in the chosen format."""
    if fmt == "html":
        from yk_cli.report.html import render_diff_html

        metrics = result.workload.metrics if result.workload is not None else None
        return render_diff_html(result, metrics.old if metrics else None, metrics.new if metrics else None)
    if fmt == "json":
        from yk_cli.report import diff_json

        return diff_json.render(result, conditions, holding)
    if fmt == "markdown":
        from yk_cli.report import diff_markdown

        return diff_markdown.render(result, conditions, holding, timelines, by)
    if fmt == "github":
        from yk_cli.report import diff_github

        return diff_github.render(result, conditions, holding, os.getcwd())
    if fmt == "sarif":
        from yk_cli import __version__
        from yk_cli.report import diff_sarif

        return diff_sarif.render(result, conditions, holding, __version__, os.getcwd())
    from yk_cli.report import diff_text

    text = diff_text.render(result, conditions, holding)
    if color_wanted():
        import shutil

        return diff_text.colorize(text, shutil.get_terminal_size((100, 24)).columns)
    return text
