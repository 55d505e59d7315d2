"""`yk priorities`: every queue's current priority and every pending ask's effective priority, step by step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import check_format, fail_usage, run_fast, write_stdout
from yk_cli.commands.declare import (
    CLUSTER,
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    QUIET,
    STATE,
    WORKLOAD,
    WORKLOAD_PARTITION,
    YUNIKORN,
    argument,
    option,
    parse_plain,
    shared,
)
from yk_cli.commands.inputs import WorkloadDump, at_time, checked_inputs, one_workload, workload_dump
from yk_cli.commands.project import config_size, project_options

if TYPE_CHECKING:
    from yk_cli.report.priorities_common import PriorityView

PRIORITY_FORMATS = ("text", "json", "markdown")


@dataclass(frozen=True, slots=True)
class PrioritiesArgs:
    """`yk priorities`' arguments and options."""

    config: Optional[str] = argument(
        "CONFIG", "Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin. Optional with --cluster."
    )
    workload: Optional[str] = argument(
        "WORKLOAD", "Workload file: nodes, applications, asks; '-' for stdin (or -w/--workload)."
    )
    workload_option: Optional[str] = shared(WORKLOAD)
    cluster: Optional[str] = shared(CLUSTER)
    state: Optional[str] = shared(STATE)
    yunikorn: Optional[str] = shared(YUNIKORN)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json or markdown.", default="text")
    partition: Optional[str] = shared(WORKLOAD_PARTITION)
    at: Optional[str] = option(
        "--at",
        metavar="TIME",
        help="The virtual time to show, from the start of the run (0s, 90s, 5m, 1h30m; default 0s, before any "
        "scheduling); asks that arrive later are listed apart.",
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Queue priorities as YuniKorn computes them, and every pending ask's effective priority step by step.

For every pending ask: its effective priority as seen from root with the breakdown along its queue path (like
Slurm's sprio): ask, application, each queue's offset, fence and clamp, and the config line behind each step.

The state is that of one virtual time, --at (default 0s, the start of the run, before any scheduling): asks that
arrive later are listed apart; at a later time it is the dry run's (what yk simulate has done by then).

With --cluster DUMP, a kubectl dump is the workload and its yunikorn-configs ConfigMap (or YuniKorn's built-in
default) the queue config, unless CONFIG is given.

Example: yk priorities queues.yaml workload.yaml --format json"""


def print_priorities(args: PrioritiesArgs) -> None:
    """Check the format and the inputs given, compute, print (Exit on problems). The workload is the positional
    WORKLOAD or -w/--workload, or a --cluster dump."""
    from yk_cli.load.source import collector_paused

    check_format(args.fmt, PRIORITY_FORMATS)
    cluster = workload_dump(args.cluster, args.state, args.yunikorn)
    workload = one_workload(args.workload, args.workload_option, cluster)
    config = args.config
    if cluster is None and (config is None or workload is None):
        raise fail_usage(
            "give CONFIG and a workload (WORKLOAD or -w/--workload PATH), or --cluster DUMP, --state FILE or "
            "--yunikorn URL"
        )
    when = at_time(args.at)
    with project_options(args.project_config, args.no_config), config_size(args.max_size), collector_paused():
        view = priority_view(config, workload, args.partition, args.quiet, when, cluster)
        write_stdout(render_chunks(view, args.fmt))


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk priorities [CONFIG] [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or
    None when the arguments need typer (help, odd options, an input missing, more than two files)."""
    parsed = parse_plain(PrioritiesArgs, args)
    if parsed is None:
        return None
    given = (parsed.config is not None) + (parsed.workload is not None) + (parsed.workload_option is not None)
    if parsed.cluster is None and parsed.state is None and given < 2:
        return None  # typer's usage error for what is missing
    return run_fast(print_priorities, parsed)


def run_priorities(
    config: str | None,
    workload: str | None,
    fmt: str = "text",
    partition: str | None = None,
    at: str | None = None,
    cluster: WorkloadDump | None = None,
) -> str:
    """Load, check, compute and render; problems go to stderr like `yk validate` (Exit on errors)."""
    return "".join(render_chunks(priority_view(config, workload, partition, at=at_time(at), cluster=cluster), fmt))


def priority_view(
    config: str | None,
    workload: str | None,
    partition: str | None = None,
    quiet: bool = False,
    at: int = 0,
    cluster: WorkloadDump | None = None,
) -> PriorityView:
    """Load and check both inputs (or a --cluster dump and its queue config), place the applications and compute
    every priority at the virtual time `at` (nanoseconds from the start; the dry run's state then, see
    core.analysis.snapshot) (Exit on problems)."""
    from yk_cli.core.analysis.snapshot import placeholder_steps, state_at
    from yk_cli.core.ordering.priority import explain_pending
    from yk_cli.core.sim.unmodelled import unmodelled
    from yk_cli.report.priorities_common import PriorityView

    inputs = checked_inputs(config, workload, cluster, partition, quiet, place=True)
    assert inputs.workload is not None
    snapshot = state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, at)
    return PriorityView(
        snapshot.tree,
        inputs.partition.display_name,
        snapshot.cache,
        placeholder_steps(explain_pending(snapshot.placed, snapshot.cache)),
        inputs.rejected,
        inputs.locate,
        unmodelled(inputs.partition, inputs.tree, inputs.workload),
        snapshot.at,
        snapshot.steps,
        snapshot.absent,
    )


def render_chunks(view: PriorityView, fmt: str) -> Iterable[str]:
    """The report in the chosen format, in pieces."""
    if fmt == "json":
        from yk_cli.report import priorities_json

        return priorities_json.chunks(view)
    if fmt == "markdown":
        from yk_cli.report import priorities_markdown

        return (priorities_markdown.render(view),)
    from yk_cli.report import priorities_text

    return priorities_text.chunks(view)
