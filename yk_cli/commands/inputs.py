"""The commands' side of the input pipeline (load.inputs): the arguments that name the inputs, and what the
pipeline found shown on standard error as `yk validate` shows it (Exit when the inputs cannot be used)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yk_cli.commands.console import Exit, echo_error, fail_usage
from yk_cli.core.diagnostics import Level, Problem

if TYPE_CHECKING:
    from yk_cli.load.inputs import InputReport, Inputs
    from yk_cli.load.volcano import VolcanoInputs

WORKLOAD_TWICE = "give the workload once: WORKLOAD or -w/--workload PATH, not both"
CLUSTER_AND_WORKLOAD = "give WORKLOAD or --cluster DUMP, not both"


@dataclass(frozen=True, slots=True)
class SchedulerDump:
    """--state FILE or --yunikorn URL: the scheduler's own view, the whole workload and the queue config."""

    state: str | None = None
    yunikorn: str | None = None

    def __str__(self) -> str:
        return f"--state {self.state}" if self.state is not None else f"--yunikorn {self.yunikorn}"


WorkloadDump = str | SchedulerDump
"""Where a whole workload comes from besides a workload file: a kubectl dump (--cluster), or the scheduler's view."""


def workload_dump(cluster: str | None, state: str | None = None, yunikorn: str | None = None) -> WorkloadDump | None:
    """The one dump given (--cluster DUMP, --state FILE, --yunikorn URL), None for none; a usage error for two."""
    given = [flag for flag, value in (("--cluster", cluster), ("--state", state), ("--yunikorn", yunikorn)) if value]
    if len(given) > 1:
        raise fail_usage(f"give one of {', '.join(given)}: each is the whole workload")
    if state is not None or yunikorn is not None:
        return SchedulerDump(state, yunikorn)
    return cluster


def one_workload(
    positional: str | None,
    option: str | None,
    cluster: WorkloadDump | None = None,
    with_cluster: str = CLUSTER_AND_WORKLOAD,
) -> str | None:
    """The workload given as the positional WORKLOAD or as -w/--workload (a usage error when both are, or when a
    --cluster DUMP is given too: with_cluster is that message; or a --state or --yunikorn)."""
    if positional is not None and option is not None:
        raise fail_usage(WORKLOAD_TWICE)
    workload = positional if positional is not None else option
    if isinstance(cluster, SchedulerDump) and workload is not None:
        raise fail_usage(f"{cluster} is the whole workload: give no WORKLOAD with it")
    if cluster is not None and workload is not None:
        raise fail_usage(with_cluster)
    return workload


def is_file_argument(name: str) -> bool:
    """Whether a positional argument names an input file ('-' is standard input) rather than, say, an ask."""
    return name == "-" or os.path.isfile(name)


def at_time(text: str | None) -> int:
    """--at: a duration from the start of the run in nanoseconds (0 without one), or a usage error."""
    from yk_cli.core.config.properties import parse_go_duration

    if text is None:
        return 0
    at = parse_go_duration(text.strip())
    if at is None or at < 0:
        raise fail_usage(f"--at {text!r} is not a duration from the start of the run (e.g. 0s, 90s, 5m, 1h30m)")
    return at


def checked_inputs(
    config: str | None,
    workload: str | None = None,
    cluster: WorkloadDump | None = None,
    partition: str | None = None,
    quiet: bool = False,
    place: bool = False,
) -> Inputs:
    """Read and check the inputs through the pipeline (load.inputs.read_inputs), show what it found, and return
    them; Exit when they cannot be used. With place, the applications are placed and each one the placement
    rules reject gets a warning line."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.inputs import InputRequest, InputsRefused, read_inputs

    group = active_project().policy_group or "queues"
    if isinstance(cluster, SchedulerDump):
        request = InputRequest(config, workload, None, partition, group, cluster.state, cluster.yunikorn)
    else:
        request = InputRequest(config, workload, cluster, partition, group)
    try:
        inputs = read_inputs(request)
    except InputsRefused as refused:
        show_report(refused.report, quiet)
        if refused.message:
            echo_error(f"yk: error: {refused.message}")
        raise Exit(refused.status) from None
    show_report(inputs.report, quiet)
    if place:
        inputs.place()
        for application, reason in inputs.rejected:
            echo_error(f"yk: warning: application {application.id} is not placed: {reason}")
    return inputs


def echo_notes(notes: list[str], quiet: bool = False) -> None:
    """Notes on standard error (`yk: note: ...`), none when quiet."""
    if not quiet:
        for note in notes:
            echo_error(f"yk: note: {note}")


def show_report(report: InputReport, quiet: bool = False) -> None:
    """The pipeline's notes, then its problems (report_problems)."""
    echo_notes(report.notes, quiet)
    report_problems(report.problems, report.texts, len(report.texts), report.config_problems, quiet)


def report_problems(
    problems: list[Problem], texts: dict[str, str], files: int, config_problems: list[Problem], quiet: bool = False
) -> None:
    """On standard error: with an error, every problem exactly as `yk validate` prints them; with warnings alone,
    one summary line (nothing when quiet). config_problems are those `yk validate` reports too. What the project
    config (.yk.yaml) disables, and warnings in files it ignores, are left out; levels stay as they are: only what
    YuniKorn refuses stops a command."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.project import is_ignored

    project = active_project()
    problems = [
        p for p in project.shown(problems) if p.level == Level.ERROR or not (p.file and is_ignored(project, p.file))
    ]
    if not problems:
        return
    if any(p.level == Level.ERROR for p in problems):
        from yk_cli.report.problems import render_problems

        sys.stderr.write(render_problems("text", sorted(problems, key=Problem.sort_key), texts, files))
    elif not quiet:
        from yk_cli.report.problems_text import warning_summary

        named = {*texts, *(p.file for p in problems)}
        existing = {file for file in named if os.path.isfile(file)}
        sys.stderr.write(warning_summary(problems, list(texts), config_problems, existing) + "\n")


def volcano_inputs(dumps: list[str], conf: str | None, quiet: bool) -> VolcanoInputs:
    """Load the dumps (one cluster) and the conf, and check them as `yk volcano validate --one-cluster` does: with
    an error, every problem printed as `yk volcano validate` prints them, exit 1; with warnings alone, one summary
    line on standard error (none when quiet). The project config (.yk.yaml) in force drops the rules it disables
    and the warnings of files it ignores. Bad usage and unreadable inputs exit 2."""
    from yk_cli.commands.project import active_project
    from yk_cli.core.diagnostics import EXIT_PROBLEMS
    from yk_cli.load.inputs import InputsRefused, read_volcano_inputs
    from yk_cli.load.project import is_ignored
    from yk_cli.load.volcano import InputError
    from yk_cli.report.problems import render_problems
    from yk_cli.report.validate_volcano import volcano_warning_summary

    project = active_project()

    def shown(problems: list[Problem]) -> list[Problem]:
        kept = project.shown(problems)
        return [p for p in kept if p.level == Level.ERROR or not (p.file and is_ignored(project, p.file))]

    try:
        inputs, problems = read_volcano_inputs(dumps, conf, shown)
    except InputsRefused as refused:
        raise fail_usage(refused.message) from None
    except InputError as err:
        raise fail_usage(str(err)) from None
    if any(p.level == Level.ERROR for p in problems):
        sys.stderr.write(render_problems("text", problems, inputs.texts, len(inputs.files)))
        if not inputs.conf.loaded:
            sys.stderr.write(
                "yk: the scheduler conf does not load: Volcano would refuse it and keep its previous configuration "
                "(at start-up, its built-in default). Fix it, or leave out --conf to simulate the default.\n"
            )
        raise Exit(EXIT_PROBLEMS)
    if problems and not quiet:
        sys.stderr.write(volcano_warning_summary(problems, inputs.files, dumps, conf) + "\n")
    return inputs
