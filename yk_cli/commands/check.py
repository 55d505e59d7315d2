"""`yk check`: a team's policy of named assertions, proved on the queue config or checked on a dry run; exit 1 when
one fails."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from yk_cli.cli import (
    QUIET_FLAGS,
    Exit,
    config_size,
    fail_usage,
    plain_arguments,
    run_fast,
    write_stdout,
)
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options
from yk_cli.core.diagnostics import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE

if TYPE_CHECKING:
    from yk_cli.core.assertions.dynamic import RunFacts
    from yk_cli.core.assertions.model import Outcome, Policy
    from yk_cli.core.config import PartitionConfig
    from yk_cli.core.workload import Workload
    from yk_cli.load.config import LoadedConfig
    from yk_cli.report.check_common import CheckContext

FORMATS = ("text", "json", "github", "sarif")


def run_check_command(
    policy: str,
    config: str,
    workload: str | None,
    cluster: str | None,
    fmt: str | None,
    verbose: bool,
    partition: str | None,
    version: str,
    max_size: str | None,
    quiet: bool,
    project_config: str | None,
    no_config: bool,
) -> int:
    """Parse the options that need no input, then load, check and print; the exit status."""
    from yk_cli.cli import UsageError
    from yk_cli.commands.validate import choose_format

    try:
        chosen = choose_format(fmt)
    except UsageError as err:
        raise fail_usage(str(err)) from None
    if cluster is not None and workload is not None:
        raise fail_usage("give WORKLOAD or --cluster DUMP, not both")
    if policy == "-" and "-" in (config, workload, cluster):
        raise fail_usage("'-' (standard input) may be given only once")
    loaded = _read_policy(policy)
    from yk_cli.core.assertions.run import needs_workload

    if workload is None and cluster is None:
        need = needs_workload(loaded)
        if need:
            listed = ", ".join(f"{a.name} ({a.kind}{'' if a.check == '' else ', check: ' + a.check})" for a in need)
            raise fail_usage(
                f"{len(need)} assertion{'s need' if len(need) > 1 else ' needs'} a dry run: {listed}; give a WORKLOAD "
                "or --cluster DUMP"
            )
    with project_options(project_config, no_config), config_size(max_size):
        report, failed = _run(loaded, config, workload, cluster, chosen, verbose, partition, version, quiet)
    write_stdout((report,))
    return EXIT_PROBLEMS if failed else EXIT_OK


def _read_policy(name: str) -> Policy:
    from yk_cli.load.policy import PolicyError, read_policy

    try:
        return read_policy(name)
    except PolicyError as err:
        for message in err.messages:
            sys.stderr.write(f"yk: error: {message}\n")
        raise Exit(EXIT_USAGE) from None


def _run(
    policy: Policy,
    config: str,
    workload: str | None,
    cluster: str | None,
    fmt: str,
    verbose: bool,
    partition_name: str | None,
    version: str,
    quiet: bool,
) -> tuple[str, int]:
    from yk_cli.core.assertions.model import DEFAULT_RANGE, PriorityRange
    from yk_cli.core.assertions.run import check_policy, range_of_cluster
    from yk_cli.report.check_common import CheckContext

    partition_name = partition_name or policy.partition
    loaded_workload: Workload | None = None
    shown_workload = None
    if cluster is not None:
        from yk_cli.commands.simulate import load_cluster_scenario

        scenario = load_cluster_scenario(cluster, config, partition_name, quiet)
        partition, loaded_workload = scenario.partition, scenario.workload
        source, text = _config_source(config)
        shown_workload = f"{'<stdin>' if cluster == '-' else cluster} (cluster dump)"
    else:
        from yk_cli.commands.tree import prepare_inputs

        inputs = prepare_inputs(config, workload, partition_name, quiet)
        partition, source, loaded_workload = inputs.partition, inputs.config, inputs.workload
        text = _reread(config)
        if workload is not None:
            shown_workload = "<stdin>" if workload == "-" else workload
    if policy.priority_range is not None:
        span = policy.range_span
        where = f"{policy.file}:{span.line}" if span is not None else policy.file
        priorities = PriorityRange(*policy.priority_range, f"declared in the policy, {where}")
    elif cluster is not None and loaded_workload is not None:
        low, high = range_of_cluster(loaded_workload)
        priorities = PriorityRange(
            low, high, f"the PriorityClasses and pods of {'<stdin>' if cluster == '-' else cluster}"
        )
    else:
        priorities = PriorityRange(
            *DEFAULT_RANGE, "default: 0, a pod without PriorityClass, up to 1000000000, the highest user PriorityClass"
        )
    facts = _dry_run(partition, loaded_workload, version) if loaded_workload is not None else None
    outcomes = check_policy(policy, partition, priorities, facts)
    context = CheckContext(
        policy.file, source.file, text, source.source_map, partition.display_name, priorities, shown_workload
    )
    if facts is not None:
        context.notes.extend(f"not modelled by the dry run: {item.message}" for item in facts.trace.unmodelled)
    return _render(fmt, outcomes, context, verbose), sum(1 for o in outcomes if not o.passed)


def _config_source(config: str) -> tuple[LoadedConfig, str]:
    """The queue config given with --cluster as loaded (for its source map) and its text."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import load_config
    from yk_cli.load.source import InputError

    try:
        result = load_config(config, active_project().policy_group or "queues", check=False)
    except InputError as err:
        raise fail_usage(str(err)) from None
    found = [c for c in result.configs if c.decoded]
    if not found:
        raise fail_usage(f"{result.file} holds no queue config")
    return found[0], result.text


def _reread(config: str) -> str:
    """The text of a queue config file already loaded and checked (for the excerpts; '' for standard input)."""
    from yk_cli.load.source import InputError, decode_text, read_input

    if config == "-":
        return ""
    try:
        return decode_text(read_input(config))[0] or ""
    except InputError:
        return ""


def _dry_run(partition: PartitionConfig, workload: Workload, version: str) -> RunFacts:
    from yk_cli.core.assertions.dynamic import RunFacts
    from yk_cli.core.placement import place_all
    from yk_cli.core.queues import build_queue_tree
    from yk_cli.core.sim.run import SimulationOptions, simulate, version_tuple

    try:
        version_tuple(version)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    trace = simulate(partition, build_queue_tree(partition), workload, SimulationOptions(yunikorn_version=version))
    tree = build_queue_tree(partition)
    placements = place_all(partition, tree, workload.applications)
    leaves = {}
    for app_id, placement in placements.items():
        leaf = tree.get(placement.queue_path) if placement.queue_path else None
        if leaf is not None:
            leaves[app_id] = leaf
    return RunFacts(trace, workload, tree, leaves)


def _render(fmt: str, outcomes: list[Outcome], context: CheckContext, verbose: bool) -> str:
    from yk_cli import __version__
    from yk_cli.report import check_ci, check_json, check_text

    if fmt == "json":
        return check_json.render(outcomes, context)
    if fmt == "github":
        return check_ci.render_github(outcomes, context, os.getcwd())
    if fmt == "sarif":
        return check_ci.render_sarif(outcomes, context, __version__, os.getcwd())
    return check_text.render(outcomes, context, verbose)


_VALUE_OPTIONS = {
    "--cluster": "cluster",
    "--format": "fmt",
    "-f": "fmt",
    "--partition": "partition",
    "--yunikorn-version": "version",
    "--max-size": "max_size",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk check POLICY CONFIG [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or
    None when the arguments need typer (help, odd options, a wrong number of arguments)."""
    parsed = plain_arguments(
        args, _VALUE_OPTIONS, {**QUIET_FLAGS, **CONFIG_FLAGS, "--verbose": "verbose", "-v": "verbose"}
    )
    if parsed is None or len(parsed[0]) not in (2, 3):
        return None
    positional, options = parsed
    policy, config = positional[0], positional[1]
    workload = positional[2] if len(positional) == 3 else None

    def text(name: str) -> str | None:
        value = options.get(name)
        return value if isinstance(value, str) else None

    return run_fast(
        _exit_with,
        policy,
        config,
        workload,
        text("cluster"),
        text("fmt"),
        options.get("verbose") is True,
        text("partition"),
        text("version") or "1.8",
        text("max_size"),
        options.get("quiet") is True,
        text("project_config"),
        options.get("no_config") is True,
    )


def _exit_with(*args: str | bool | None) -> None:
    code = run_check_command(*args)  # type: ignore[arg-type]
    if code:
        raise Exit(code)
