"""`yk priorities`: every queue's current priority and every pending ask's effective priority, step by step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from yk_cli.cli import QUIET_FLAGS, check_format, config_size, fail_usage, plain_arguments, run_fast, write_stdout
from yk_cli.commands.inputs import at_time, checked_inputs, one_workload
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options

if TYPE_CHECKING:
    from yk_cli.report.priorities_common import PriorityView

PRIORITY_FORMATS = ("text", "json", "markdown")


def print_priorities(
    config: str | None,
    workload: str | None,
    fmt: str,
    partition: str | None,
    max_size: str | None = None,
    quiet: bool = False,
    project_config: str | None = None,
    no_config: bool = False,
    at: str | None = None,
    cluster: str | None = None,
    workload_option: str | None = None,
) -> None:
    """Check the format and the inputs given, compute, print (Exit on problems). The workload is the positional
    WORKLOAD or -w/--workload (workload_option), or a --cluster dump."""
    from yk_cli.load.source import collector_paused

    check_format(fmt, PRIORITY_FORMATS)
    workload = one_workload(workload, workload_option, cluster)
    if cluster is None and (config is None or workload is None):
        raise fail_usage("give CONFIG and a workload (WORKLOAD or -w/--workload PATH), or --cluster DUMP")
    when = at_time(at)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        write_stdout(render_chunks(priority_view(config, workload, partition, quiet, when, cluster), fmt))


_VALUE_OPTIONS = {
    "--format": "fmt",
    "-f": "fmt",
    "--partition": "partition",
    "--max-size": "max_size",
    "--at": "at",
    "--cluster": "cluster",
    "--workload": "workload",
    "-w": "workload",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk priorities [CONFIG] [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or
    None when the arguments need typer (help, odd options, an input missing, more than two files)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, {**QUIET_FLAGS, **CONFIG_FLAGS})
    if parsed is None or len(parsed[0]) > 2:
        return None
    positional, options = parsed
    if "cluster" not in options and len(positional) + ("workload" in options) < 2:
        return None  # typer's usage error for what is missing
    files: list[str | None] = [*positional, None, None]

    def text(name: str) -> str | None:
        value = options.get(name)
        return value if isinstance(value, str) else None

    return run_fast(
        print_priorities,
        files[0],
        files[1],
        text("fmt") or "text",
        text("partition"),
        text("max_size"),
        options.get("quiet") is True,
        text("project_config"),
        options.get("no_config") is True,
        text("at"),
        text("cluster"),
        text("workload"),
    )


def run_priorities(
    config: str | None,
    workload: str | None,
    fmt: str = "text",
    partition: str | None = None,
    at: str | None = None,
    cluster: str | None = None,
) -> str:
    """Load, check, compute and render; problems go to stderr like `yk validate` (Exit on errors)."""
    return "".join(render_chunks(priority_view(config, workload, partition, at=at_time(at), cluster=cluster), fmt))


def priority_view(
    config: str | None,
    workload: str | None,
    partition: str | None = None,
    quiet: bool = False,
    at: int = 0,
    cluster: str | None = None,
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
