"""`yk validate`: lint queue configs with exact positions, in the formats CI systems read."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from yk_cli.cli import (
    Exit,
    UsageError,
    config_size,
    plain_arguments,
    usage_message,
    write_stdout,
)
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options
from yk_cli.core.diagnostics import EXIT_USAGE, Problem, exit_code
from yk_cli.report.problems import FORMATS

if TYPE_CHECKING:
    from yk_cli.load.config import LoadResult


def choose_format(fmt: str | None) -> str:
    """The format asked for, else github under GitHub Actions, else text; UsageError for an unknown name."""
    chosen = fmt if fmt is not None else ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if chosen not in FORMATS:
        raise UsageError(f"unknown format {chosen!r}; choose one of {', '.join(FORMATS)}")
    return chosen


def run_validate(
    files: Sequence[str],
    fmt: str | None,
    strict: bool | None,
    partition: str | None,
    policy_group: str | None = None,
) -> int:
    """Load every file, print the report on standard output and return the exit status (UsageError for bad usage).
    The project config in force (.yk.yaml) skips ignored files, drops disabled rules, raises rules it raises and
    gives the defaults of strict and policy_group."""
    chosen = choose_format(fmt)
    if not files:
        raise UsageError("no files given (use '-' for standard input)")
    if list(files).count("-") > 1:
        raise UsageError("'-' (standard input) may be given only once")
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import load_config
    from yk_cli.load.project import is_ignored
    from yk_cli.load.source import InputError, collector_paused, expand_inputs

    project = active_project()
    strict = strict if strict is not None else bool(project.strict)
    policy_group = policy_group or project.policy_group or "queues"
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    unreadable: list[str] = []
    names = expand_inputs(list(files))
    kept = [name for name in names if not is_ignored(project, name)]
    if names and not kept:
        sys.stderr.write(f"yk: note: {project.path} ignores every file given: nothing was checked\n")
    for name in kept:
        if name != "-" and os.path.isdir(name):
            unreadable.append(f"{name}: no *.yaml or *.yml files in this directory")
            continue
        try:
            with collector_paused():
                result = load_config(name, policy_group)
        except InputError as err:
            unreadable.append(str(err))  # reported once the others are checked
            continue
        texts[result.file] = result.text
        found = project.applied(result.problems)
        if partition is not None:
            found = [p for p in found if _in_partition(p, result, partition)]
        problems.extend(found)
    problems.sort(key=Problem.sort_key)
    if texts or not unreadable:
        write_stdout((_render(chosen, problems, texts, len(texts)),))
    for message in unreadable:
        sys.stderr.write(usage_message(message) + "\n")
    return EXIT_USAGE if unreadable else exit_code(problems, strict)


def _render(fmt: str, problems: list[Problem], texts: dict[str, str], files: int) -> str:
    import shutil

    from yk_cli import __version__
    from yk_cli.report.problems import render_problems

    color = fmt == "text" and _color_wanted()
    width = shutil.get_terminal_size((100, 24)).columns if color else 100
    return render_problems(fmt, problems, texts, files, color=color, width=width, base=os.getcwd(), version=__version__)


def _color_wanted() -> bool:
    """Colour only on a terminal, and never under NO_COLOR or TERM=dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _in_partition(problem: Problem, result: LoadResult, name: str) -> bool:
    if len(problem.path) < 2 or problem.path[0] != "partitions":
        return True
    index = problem.path[1]
    for loaded in result.configs:
        parts = loaded.config.partitions
        if isinstance(index, int) and index < len(parts):
            return parts[index].display_name == name
    return True


_VALUE_OPTIONS = {
    "--format": "fmt",
    "-f": "fmt",
    "--partition": "partition",
    "--policy-group": "policy_group",
    "--max-size": "max_size",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk validate ARGS` without typer's parameter machinery; None when the arguments need typer (help, errors)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, {"--strict": "strict", "--no-strict": "no_strict", **CONFIG_FLAGS})
    if parsed is None or not parsed[0]:
        return None
    files, options = parsed
    strict = True if options.get("strict") is True else False if options.get("no_strict") is True else None
    try:
        with (
            project_options(_text(options.get("project_config")), options.get("no_config") is True),
            config_size(_text(options.get("max_size"))),
        ):
            return run_validate(
                files,
                _text(options.get("fmt")),
                strict,
                _text(options.get("partition")),
                _text(options.get("policy_group")),
            )
    except UsageError as err:
        sys.stderr.write(usage_message(str(err)) + "\n")
        return EXIT_USAGE
    except Exit as done:  # a bad --max-size, already reported
        return done.exit_code


def _text(value: str | bool | None) -> str | None:
    return value if isinstance(value, str) else None
