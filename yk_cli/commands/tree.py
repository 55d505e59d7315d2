"""`yk tree`: a partition's resolved queue hierarchy, every setting with where it came from (and, with a workload,
what each queue holds and its current priority)."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.cli import (
    QUIET_FLAGS,
    check_format,
    color_wanted,
    config_size,
    fail_usage,
    plain_arguments,
    run_fast,
    write_stdout,
)
from yk_cli.commands.inputs import at_time, checked_inputs, one_workload
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options

TREE_FORMATS = ("text", "json", "markdown", "mermaid")


def print_tree(
    config: str | None,
    workload: str | None,
    partition: str | None,
    fmt: str,
    max_size: str | None = None,
    quiet: bool = False,
    set_only: bool = False,
    project_config: str | None = None,
    no_config: bool = False,
    at: str | None = None,
    cluster: str | None = None,
    positional_workload: str | None = None,
) -> None:
    """Check the format and the inputs given, load, print (Exit on problems)."""
    from yk_cli.load.source import collector_paused

    check_format(fmt, TREE_FORMATS)
    workload = one_workload(positional_workload, workload, cluster)
    if config is None and cluster is None:
        raise fail_usage("give a queue config (CONFIG), or --cluster DUMP")
    if at is not None and workload is None and cluster is None:
        raise fail_usage("--at needs a workload (--workload W or --cluster DUMP): it is the time of its dry run")
    when = at_time(at)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        color = color_wanted()
        text = run_tree(config, workload, partition, fmt, color, quiet, set_only, when, cluster)
        write_stdout((text,))


_VALUE_OPTIONS = {
    "--workload": "workload",
    "-w": "workload",
    "--cluster": "cluster",
    "--partition": "partition",
    "--format": "fmt",
    "-f": "fmt",
    "--max-size": "max_size",
    "--at": "at",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk tree [CONFIG] [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or None
    when the arguments need typer (help, odd options, no file or more than two)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, {**QUIET_FLAGS, **CONFIG_FLAGS, "--set-only": "set_only"})
    if parsed is None or len(parsed[0]) > 2 or not (parsed[0] or "cluster" in parsed[1]):
        return None
    positional, options = parsed
    files: list[str | None] = [*positional, None, None]

    def text(name: str) -> str | None:
        value = options.get(name)
        return value if isinstance(value, str) else None

    flags = [options.get(name) is True for name in ("quiet", "set_only")]
    project = text("project_config"), options.get("no_config") is True
    return run_fast(
        print_tree,
        files[0],
        text("workload"),
        text("partition"),
        text("fmt") or "text",
        text("max_size"),
        *flags,
        *project,
        text("at"),
        text("cluster"),
        files[1],
    )


def run_tree(
    config: str | None,
    workload: str | None,
    partition: str | None,
    fmt: str,
    color: bool = False,
    quiet: bool = False,
    set_only: bool = False,
    at: int = 0,
    cluster: str | None = None,
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
