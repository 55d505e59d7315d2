"""`yk volcano validate`: lint a Volcano scheduler conf and cluster objects with exact positions, in CI formats."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import Exit, UsageError, ci_format, color_wanted, fail_usage, usage_message, write_stdout
from yk_cli.commands.declare import CI_FORMAT, NO_CONFIG, PROJECT_CONFIG, argument, option, shared
from yk_cli.commands.project import project_options
from yk_cli.core.diagnostics import EXIT_USAGE, Problem, exit_code
from yk_cli.report.problems import FORMATS


@dataclass(frozen=True, slots=True)
class VolcanoValidateArgs:
    """`yk volcano validate`'s arguments and options."""

    files: list[str] = argument(
        "FILE",
        "kubectl dumps (Lists, --- documents), directories (their *.yaml and *.yml files), a plain "
        "volcano-scheduler.conf, or '-' for stdin. Each file is checked on its own (see --one-cluster).",
        required=True,
    )
    conf: Optional[str] = option(
        "--conf",
        metavar="FILE",
        help="The scheduler conf to check every file against (plain, or the volcano-scheduler-configmap "
        "ConfigMap); default: each file's own, else Volcano's built-in default.",
    )
    fmt: Optional[str] = shared(CI_FORMAT)
    strict: Optional[bool] = option(
        "--strict/--no-strict",
        help="Warnings fail the run too (exit 1); --no-strict overrides `strict: true` in .yk.yaml.",
    )
    one_cluster: bool = option(
        "--one-cluster",
        help="Read every input as one cluster, as yk volcano simulate reads its dumps (a dump split over "
        "several files): one conf for all, and an object in two files is a duplicate.",
        default=False,
    )
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Lint Volcano's scheduler conf as its loader reads it and the Queues, PodGroups, Jobs and PriorityClasses of a
dump: what Volcano refuses (errors) and what it accepts but ignores or mis-handles (warnings), with file:line:col.

Example: yk volcano validate dump.yaml --conf volcano-scheduler.conf --format sarif"""


def volcano_validate(args: VolcanoValidateArgs) -> None:
    """`yk volcano validate`: run it and end with its exit status (usage errors exit 2)."""
    try:
        with project_options(args.project_config, args.no_config):
            code = run_volcano_validate(args.files, args.conf, args.fmt, args.strict, args.one_cluster)
    except UsageError as err:
        raise fail_usage(str(err)) from None
    raise Exit(code)


def run_volcano_validate(
    files: list[str], conf: str | None, fmt: str | None, strict: bool | None, one_cluster: bool = False
) -> int:
    """Check the inputs, print the report and return the exit status (UsageError for bad usage). The project config
    in force (.yk.yaml) skips ignored files, drops disabled rules, raises rules it raises and gives strict's
    default, as for `yk validate`."""
    chosen = ci_format(fmt, FORMATS)
    if not files:
        raise UsageError("no files given (use '-' for standard input)")
    if [*files, conf].count("-") > 1:
        raise UsageError("'-' (standard input) may be given only once")
    from yk_cli.commands.project import active_project
    from yk_cli.load.project import is_ignored
    from yk_cli.load.source import InputError
    from yk_cli.load.volcano import expand_dumps
    from yk_cli.load.volcano_check import check_volcano
    from yk_cli.report.validate_volcano import ConfNote, render

    project = active_project()
    strict = strict if strict is not None else bool(project.strict)
    names, unreadable = expand_dumps(list(files))
    kept = [name for name in names if not is_ignored(project, name)]
    if names and not kept:
        sys.stderr.write(f"yk: note: {project.path} ignores every file given: nothing was checked\n")
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    read: list[str] = []
    notes: list[tuple[str, ConfNote]] = []
    try:
        checked = check_volcano(kept, conf, one_cluster)
    except InputError as err:  # the --conf file itself cannot be read: nothing is checked
        unreadable.append((conf or "", str(err)))
    else:
        unreadable.extend((_owner(message, [*kept, conf or ""]), message) for message in checked.inputs.unreadable)
        problems = project.applied(checked.problems, "Volcano")
        texts, read = checked.inputs.texts, checked.inputs.files
        notes = [  # which conf each file was checked against (with one cluster: the inputs, not the --conf file)
            (file, ConfNote(part.conf_origin, part.conf_source, part.conf.loaded, part.conf.error))
            for part in checked.parts
            for file in (part.files[: len(part.files) - (conf is not None)] if one_cluster else part.files[:1])
        ]
    if chosen != "text" or read or not unreadable:  # a machine-readable report names every input it left out
        import shutil

        from yk_cli import __version__
        from yk_cli.report.problems import input_problem

        shown = problems if chosen == "text" else [*problems, *(input_problem(f, m) for f, m in unreadable)]
        color = chosen == "text" and color_wanted()
        width = shutil.get_terminal_size((100, 24)).columns if color else 100
        report = render(
            chosen,
            sorted(shown, key=Problem.sort_key),
            texts,
            len(read),
            notes,
            color=color,
            width=width,
            base=os.getcwd(),
            version=__version__,
        )
        write_stdout((report,))
    for _, message in unreadable:
        sys.stderr.write(usage_message(message) + "\n")
    return EXIT_USAGE if unreadable else exit_code(problems, strict)


def _owner(message: str, names: list[str]) -> str:
    """The input an unreadable input's message is about (`missing.yaml: no such file` -> missing.yaml)."""
    return next((name for name in names if name and message.startswith(f"{name}: ")), message.split(": ", 1)[0])
