"""`yk tree`: a partition's resolved queue hierarchy, every setting with where it came from (and, with a workload,
what each queue holds and its current priority)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import check_format, color_wanted, fail_usage, run_fast, write_stdout
from yk_cli.commands.declare import (
    CLUSTER,
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    QUIET,
    STATE,
    YUNIKORN,
    argument,
    option,
    parse_plain,
    shared,
)
from yk_cli.commands.inputs import WorkloadDump, at_time, checked_inputs, one_workload, workload_dump
from yk_cli.commands.project import config_size, project_options

TREE_FORMATS = ("text", "json", "markdown", "mermaid")


@dataclass(frozen=True, slots=True)
class TreeArgs:
    """`yk tree`'s arguments and options."""

    config: Optional[str] = argument(
        "CONFIG", "Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin. Optional with --cluster."
    )
    positional_workload: Optional[str] = argument("WORKLOAD", "The workload file, as -w/--workload gives it.")
    workload: Optional[str] = option(
        "--workload", "-w", metavar="PATH", help="A workload file: adds pending/allocated and priorities."
    )
    cluster: Optional[str] = shared(CLUSTER)
    state: Optional[str] = shared(STATE)
    yunikorn: Optional[str] = shared(YUNIKORN)
    partition: Optional[str] = option(
        "--partition", metavar="NAME", help="The partition to show (default: the workload's, or default)."
    )
    fmt: str = option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="text, json (YuniKorn REST names), markdown or mermaid.",
        default="text",
    )
    at: Optional[str] = option(
        "--at",
        metavar="TIME",
        help="With a workload: the virtual time to show, from the start of the run (0s, 90s, 5m, 1h30m; default "
        "0s, before any scheduling); asks that arrive later are listed apart.",
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)
    set_only: bool = option(
        "--set-only", help="Only the values the file sets on each queue, with their lines.", default=False
    )
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """The resolved queue tree: every queue's settings and where each came from.

Every setting says where it came from (set here, inherited, template, default, YuniKorn's fallback), with
fences, offsets, sorting and limits; with a workload, each queue's usage and current priority too, at one
virtual time (--at, default 0s: the start of the run). With --set-only, only what the file sets on each queue,
each value with its line. With --cluster DUMP, a kubectl dump is the workload and its yunikorn-configs
ConfigMap (or YuniKorn's built-in default) the queue config, unless CONFIG is given.

Example: yk tree queues.yaml --workload workload.yaml"""


def print_tree(args: TreeArgs) -> None:
    """Check the format and the inputs given, load, print (Exit on problems)."""
    from yk_cli.load.source import collector_paused

    check_format(args.fmt, TREE_FORMATS)
    dump = workload_dump(args.cluster, args.state, args.yunikorn)
    workload = one_workload(args.positional_workload, args.workload, dump)
    if args.config is None and dump is None:
        raise fail_usage("give a queue config (CONFIG), or --cluster DUMP, --state FILE or --yunikorn URL")
    if args.at is not None and workload is None and dump is None:
        raise fail_usage(
            "--at needs a workload (--workload W, --cluster DUMP or --state FILE): it is the time of its dry run"
        )
    when = at_time(args.at)
    with project_options(args.project_config, args.no_config), config_size(args.max_size), collector_paused():
        color = color_wanted()
        text = run_tree(args.config, workload, args.partition, args.fmt, color, args.quiet, args.set_only, when, dump)
        write_stdout((text,))


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk tree [CONFIG] [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or None
    when the arguments need typer (help, odd options, no file)."""
    parsed = parse_plain(TreeArgs, args)
    if parsed is None or (parsed.config is None and parsed.cluster is None and parsed.state is None):
        return None
    return run_fast(print_tree, parsed)


def run_tree(
    config: str | None,
    workload: str | None,
    partition: str | None,
    fmt: str,
    color: bool = False,
    quiet: bool = False,
    set_only: bool = False,
    at: int = 0,
    cluster: WorkloadDump | None = None,
) -> str:
    """Load, check and render the tree; with a workload (or a --cluster dump), what is pending and running and the
    priorities at the virtual time `at` (nanoseconds from the start; see core.analysis.snapshot). Problems go to stderr
    like `yk validate` (Exit on errors)."""
    from yk_cli.core.analysis.snapshot import state_at
    from yk_cli.core.config.guarantees import queue_guarantees
    from yk_cli.core.workload.model import queue_usage
    from yk_cli.report.tree_common import TreeView

    inputs = checked_inputs(config, workload, cluster, partition, quiet, place=True)
    partition = inputs.partition.display_name
    if inputs.workload is None:
        view = TreeView(inputs.tree, partition, inputs.locate, rejected=inputs.rejected, set_only=set_only)
    else:
        snapshot = state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, at)
        usage = queue_usage((app, leaf.path) for app, leaf in snapshot.placed)
        guarantees = queue_guarantees(snapshot.tree, {path: u.allocated_resource for path, u in usage.items()})
        view = TreeView(
            snapshot.tree,
            partition,
            inputs.locate,
            usage,
            snapshot.cache,
            inputs.rejected,
            guarantees,
            set_only,
            snapshot.at,
            snapshot.steps,
            snapshot.absent,
        )
    if fmt == "json":
        from yk_cli.report import tree_json

        return tree_json.render(view)
    if fmt == "markdown":
        from yk_cli.report import tree_markdown

        return tree_markdown.render(view)
    if fmt == "mermaid":
        from yk_cli.report import tree_mermaid

        return tree_mermaid.render(view)
    from yk_cli.report import tree_text

    return tree_text.render(view, color=color)
