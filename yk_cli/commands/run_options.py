"""The dry run's options from the command line (--until, --max-steps, --yunikorn-version, --explain-preemption)
and the report filter (--queue, --app, --pending-only, --summary): shared by yk simulate and yk diff."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yk_cli.commands.console import fail_usage

if TYPE_CHECKING:
    from yk_cli.core.analysis.trace_view import TraceFilter
    from yk_cli.core.sim.run import SimulationOptions


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
