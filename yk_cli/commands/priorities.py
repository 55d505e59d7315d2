"""`yk priorities`: every queue's current priority and every pending ask's effective priority, step by step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from yk_cli.cli import QUIET_FLAGS, check_format, config_size, plain_arguments, run_fast, write_stdout
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options

if TYPE_CHECKING:
    from yk_cli.report.priorities_common import PriorityView

PRIORITY_FORMATS = ("text", "json")


def print_priorities(
    config: str,
    workload: str,
    fmt: str,
    partition: str | None,
    max_size: str | None = None,
    quiet: bool = False,
    project_config: str | None = None,
    no_config: bool = False,
) -> None:
    """Check the format, compute, print (Exit on problems)."""
    from yk_cli.load.source import collector_paused

    check_format(fmt, PRIORITY_FORMATS)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        write_stdout(render_chunks(priority_view(config, workload, partition, quiet), fmt))


_VALUE_OPTIONS = {
    "--format": "fmt",
    "-f": "fmt",
    "--partition": "partition",
    "--max-size": "max_size",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk priorities CONFIG WORKLOAD [options]` without typer's parameter machinery: the exit status, or None
    when the arguments need typer (help, odd options, a wrong number of files)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, {**QUIET_FLAGS, **CONFIG_FLAGS})
    if parsed is None or len(parsed[0]) != 2:
        return None
    (config, workload), options = parsed
    fmt, partition, max_size = options.get("fmt", "text"), options.get("partition"), options.get("max_size")
    project = options.get("project_config"), options.get("no_config") is True
    return run_fast(
        print_priorities, config, workload, fmt, partition, max_size, options.get("quiet") is True, *project
    )


def run_priorities(config: str, workload: str, fmt: str = "text", partition: str | None = None) -> str:
    """Load, check, compute and render; problems go to stderr like `yk validate` (Exit on errors)."""
    return "".join(render_chunks(priority_view(config, workload, partition), fmt))


def priority_view(config: str, workload: str, partition: str | None = None, quiet: bool = False) -> PriorityView:
    """Load and check both inputs, place the applications and compute every priority (Exit on problems)."""
    from yk_cli.commands.tree import prepare_inputs
    from yk_cli.core.priority import explain_pending, pending_priorities
    from yk_cli.core.unmodelled import unmodelled
    from yk_cli.report.priorities_common import PriorityView

    inputs = prepare_inputs(config, workload, partition, quiet)
    assert inputs.workload is not None
    cache = pending_priorities(inputs.tree, inputs.placed)
    return PriorityView(
        inputs.tree,
        inputs.partition.display_name,
        cache,
        explain_pending(inputs.placed, cache),
        inputs.rejected,
        inputs.locate,
        unmodelled(inputs.partition, inputs.tree, inputs.workload),
    )


def render_chunks(view: PriorityView, fmt: str) -> Iterable[str]:
    """The report in the chosen format, in pieces."""
    if fmt == "json":
        from yk_cli.report import priorities_json

        return priorities_json.chunks(view)
    from yk_cli.report import priorities_text

    return priorities_text.chunks(view)
