"""`yk volcano validate`: lint a Volcano scheduler conf and cluster objects with exact positions, in CI formats."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from yk_cli.cli import Exit, UsageError, fail_usage, usage_message, write_stdout
from yk_cli.commands.application import YkCommand
from yk_cli.commands.options import CiFormatOption
from yk_cli.commands.validate import _color_wanted, choose_format
from yk_cli.commands.volcano import volcano_app
from yk_cli.core.diagnostics import EXIT_USAGE, exit_code


@volcano_app.command(name="validate", cls=YkCommand)
def volcano_validate(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE",
            help="kubectl dumps (Lists, --- documents), directories (their *.yaml and *.yml files), a plain "
            "volcano-scheduler.conf, or '-' for stdin.",
        ),
    ],
    conf: Annotated[
        Optional[str],
        typer.Option(
            "--conf",
            metavar="FILE",
            help="The scheduler conf to check (plain, or the volcano-scheduler-configmap ConfigMap); default: the "
            "one among the inputs, else Volcano's built-in default.",
        ),
    ] = None,
    fmt: CiFormatOption = None,
    strict: Annotated[bool, typer.Option("--strict", metavar="", help="Warnings fail the run too (exit 1).")] = False,
) -> None:
    """Lint Volcano's scheduler conf as its loader reads it and the Queues, PodGroups, Jobs and PriorityClasses of a
    dump: what Volcano refuses (errors) and what it accepts but ignores or mis-handles (warnings), with file:line:col.

    Example: yk volcano validate dump.yaml --conf volcano-scheduler.conf --format sarif"""
    try:
        code = run_volcano_validate(files, conf, fmt, strict)
    except UsageError as err:
        raise fail_usage(str(err)) from None
    raise Exit(code)


def run_volcano_validate(files: list[str], conf: str | None, fmt: str | None, strict: bool) -> int:
    """Check the inputs, print the report and return the exit status (UsageError for bad usage)."""
    chosen = choose_format(fmt)
    if not files:
        raise UsageError("no files given (use '-' for standard input)")
    if [*files, conf].count("-") > 1:
        raise UsageError("'-' (standard input) may be given only once")
    from yk_cli.load.source import InputError
    from yk_cli.load.volcano_check import check_volcano
    from yk_cli.report.validate_volcano import ConfNote, render

    try:
        checked = check_volcano(list(files), conf)
    except InputError as err:  # the --conf file itself cannot be read
        sys.stderr.write(usage_message(str(err)) + "\n")
        return EXIT_USAGE
    inputs = checked.inputs
    note = ConfNote(inputs.conf_origin, inputs.conf_source, inputs.conf.loaded, inputs.conf.error)
    if inputs.files or not inputs.unreadable:
        import shutil

        from yk_cli import __version__

        color = chosen == "text" and _color_wanted()
        width = shutil.get_terminal_size((100, 24)).columns if color else 100
        report = render(
            chosen,
            checked.problems,
            inputs.texts,
            len(inputs.files),
            note,
            color=color,
            width=width,
            base=os.getcwd(),
            version=__version__,
        )
        write_stdout((report,))
    for message in inputs.unreadable:
        sys.stderr.write(usage_message(message) + "\n")
    return EXIT_USAGE if inputs.unreadable else exit_code(checked.problems, strict)
