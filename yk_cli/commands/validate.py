"""`yk validate`: lint queue configs with exact positions, in the formats CI systems read."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import (
    Exit,
    UsageError,
    ci_format,
    color_wanted,
    fail_usage,
    run_fast,
    usage_message,
    write_stdout,
)
from yk_cli.commands.declare import (
    CI_FORMAT,
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    argument,
    option,
    parse_plain,
    shared,
)
from yk_cli.commands.project import config_size, project_options
from yk_cli.core.diagnostics import EXIT_USAGE, Problem, exit_code
from yk_cli.core.lint.loader_rules import NO_QUEUE_CONFIG, NOT_A_QUEUE_CONFIG, UNKNOWN_FIELD
from yk_cli.report.problems import FORMATS

if TYPE_CHECKING:
    from yk_cli.load.config import LoadResult


def run_validate(
    files: Sequence[str],
    fmt: str | None,
    strict: bool | None,
    partition: str | None,
    policy_group: str | None = None,
    workload: str | None = None,
    cluster: str | None = None,
) -> int:
    """Load every file, print the report on standard output and return the exit status (UsageError for bad usage).
    The project config in force (.yk.yaml) skips ignored files, drops disabled rules, raises rules it raises and
    gives the defaults of strict and policy_group. A workload (checked against the one queue config given, if any)
    and a cluster dump are linted too, every problem in full. An input that cannot be checked (missing, unreadable,
    without the partition asked for) is named on standard error, and in the json, github and sarif reports as an
    input-error problem; the exit status is then 2."""
    chosen = ci_format(fmt, FORMATS)
    if not files and workload is None and cluster is None:
        raise UsageError("no files given (use '-' for standard input)")
    if [*files, workload, cluster].count("-") > 1:
        raise UsageError("'-' (standard input) may be given only once")
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import load_config
    from yk_cli.load.project import is_ignored
    from yk_cli.load.source import InputError, collector_paused, expand_inputs, shown_name

    project = active_project()
    strict = strict if strict is not None else bool(project.strict)
    policy_group = policy_group or project.policy_group or "queues"
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    unreadable: list[tuple[str, str]] = []
    """(input, message) of each input that could not be checked, in command-line order."""
    unwalked: dict[str, str] = {}
    names = expand_inputs(list(files), unwalked)
    kept = [name for name in names if not is_ignored(project, name)]
    if names and not kept and workload is None and cluster is None:
        sys.stderr.write(f"yk: note: {project.path} ignores every file given: nothing was checked\n")
    if workload is not None and len(kept) > 1:
        raise UsageError(f"--workload is checked against one queue config: {len(kept)} files given")
    configs: list[LoadResult] = []
    for name in kept:
        if name != "-" and os.path.isdir(name):
            unreadable.append((name, unwalked.get(name, f"{name}: no *.yaml or *.yml files in this directory")))
            continue
        from yk_cli.load.inputs import lint_state, looks_like_state_dump

        if looks_like_state_dump(name):  # its config in Go field names, checked as the scheduler holds it
            state_problems: list[Problem] = []
            lint_state(name, partition, state_problems, texts, unreadable)
            problems.extend(project.applied(state_problems))
            continue
        try:
            with collector_paused():
                result = load_config(name, policy_group)
        except InputError as err:
            unreadable.append((shown_name(name), str(err)))  # reported once the others are checked
            continue
        found = project.applied(result.problems)
        if partition is not None:
            known = _partition_names(result)
            if known and partition not in known:
                unreadable.append(
                    (result.file, f"{result.file} has no partition {partition!r} (it has: {', '.join(known)})")
                )
                continue
            found = [p for p in found if _in_partition(p, result, partition)]
        texts[result.file] = result.text
        configs.append(result)
        problems.extend(_volcano_hints(found, result))
    linted: list[Problem] = []
    if workload is not None:
        target = configs[0] if configs else kept[0] if kept else None
        from yk_cli.load.inputs import lint_workload

        note = lint_workload(workload, target, partition, linted, texts, unreadable)
        if note:
            sys.stderr.write(f"yk: note: {note}\n")
    if cluster is not None:
        from yk_cli.load.inputs import lint_cluster

        lint_cluster(cluster, linted, texts, unreadable)
    problems.extend(project.applied(linted))
    problems.sort(key=Problem.sort_key)
    if chosen != "text":
        from yk_cli.report.problems import input_problem

        inputs = [input_problem(name, message) for name, message in unreadable]
        write_stdout((_render(chosen, sorted([*problems, *inputs], key=Problem.sort_key), texts, len(texts)),))
    elif texts or not unreadable:
        write_stdout((_render(chosen, problems, texts, len(texts)),))
    for _, message in unreadable:
        sys.stderr.write(usage_message(message) + "\n")
    return EXIT_USAGE if unreadable else exit_code(problems, strict)


def _partition_names(result: LoadResult) -> list[str]:
    """The partitions the file's queue configs define, in order (none when no config was decoded)."""
    names: list[str] = []
    for loaded in result.configs:
        if loaded.decoded:
            names.extend(p.display_name for p in loaded.config.partitions if p.display_name not in names)
    return names


VOLCANO_CONF_KEYS = frozenset(("actions", "tiers", "configurations", "metrics"))
"""Top-level keys of Volcano's volcano-scheduler.conf."""


def _volcano_hints(problems: list[Problem], result: LoadResult) -> list[Problem]:
    """Problems of a Volcano input given to `yk validate` by mistake (its scheduler conf, the
    volcano-scheduler-configmap ConfigMap, a dump of Volcano objects), with `yk volcano validate` as the hint."""
    conf = [p for p in problems if p.rule == UNKNOWN_FIELD.id and len(p.path) == 1 and p.path[0] in VOLCANO_CONF_KEYS]
    objects = "volcano" in result.text
    if not (objects or any(p.path[0] in ("actions", "tiers") for p in conf)):
        return problems
    command = f"yk volcano validate {result.file if result.file != '<stdin>' else '-'}"
    out: list[Problem] = []
    for p in problems:
        if p in conf:
            hint = f"`{p.path[0]}` is a key of Volcano's volcano-scheduler.conf: did you mean `{command}`?"
            p = replace(p, hint=hint)
        elif objects and p.rule in (NO_QUEUE_CONFIG.id, NOT_A_QUEUE_CONFIG.id):
            p = replace(p, hint=f"{p.hint} For Volcano's scheduler conf and objects: `{command}`.".lstrip())
        out.append(p)
    return out


def _render(fmt: str, problems: list[Problem], texts: dict[str, str], files: int) -> str:
    import shutil

    from yk_cli import __version__
    from yk_cli.report.problems import render_problems

    color = fmt == "text" and color_wanted()
    width = shutil.get_terminal_size((100, 24)).columns if color else 100
    return render_problems(fmt, problems, texts, files, color=color, width=width, base=os.getcwd(), version=__version__)


def _in_partition(problem: Problem, result: LoadResult, name: str) -> bool:
    if len(problem.path) < 2 or problem.path[0] != "partitions":
        return True
    index = problem.path[1]
    for loaded in result.configs:
        parts = loaded.config.partitions
        if isinstance(index, int) and index < len(parts):
            return parts[index].display_name == name
    return True


@dataclass(frozen=True, slots=True)
class ValidateArgs:
    """`yk validate`'s arguments and options."""

    files: Optional[list[str]] = argument(
        "FILE",
        "Queue config files (queues.yaml, ConfigMaps, Lists, Helm values) or directories, searched for *.yaml and "
        "*.yml files; '-' for stdin.",
        show_default=False,
    )
    fmt: Optional[str] = shared(CI_FORMAT)
    workload: Optional[str] = option(
        "--workload",
        "-w",
        metavar="W",
        help="Also lint a workload file, every problem in full (against the queue config, when one is given).",
    )
    cluster: Optional[str] = option(
        "--cluster",
        metavar="DUMP",
        help="Also lint a `kubectl get nodes,pods,priorityclasses -A -o yaml` dump, every problem in full.",
    )
    strict: Optional[bool] = option(
        "--strict/--no-strict",
        help="Warnings fail the run too (exit 1); --no-strict overrides `strict: true` in .yk.yaml.",
    )
    partition: Optional[str] = option("--partition", metavar="NAME", help="Only report problems in this partition.")
    policy_group: Optional[str] = option(
        "--policy-group",
        metavar="GROUP",
        help="ConfigMap key is <group>.yaml (YuniKorn's service.policyGroup; default queues).",
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Lint YuniKorn queue configs: every problem at once, with file:line:col and YuniKorn's own verdict.

With --workload or --cluster, a workload file or a cluster dump is linted too, its warnings with their full text,
positions and hints (the other commands print one summary line for them).

Example: yk validate queues.yaml --format sarif"""


def validate_command(args: ValidateArgs) -> None:
    """`yk validate`: run it and end with its exit status (usage errors as `yk: error: ...`, exit 2)."""
    try:
        with project_options(args.project_config, args.no_config), config_size(args.max_size):
            code = run_validate(
                args.files or [], args.fmt, args.strict, args.partition, args.policy_group, args.workload, args.cluster
            )
    except UsageError as err:
        raise fail_usage(str(err)) from None
    raise Exit(code)


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk validate ARGS` without typer's parameter machinery; None when the arguments need typer (help, errors)."""
    parsed = parse_plain(ValidateArgs, args)
    if parsed is None or not (parsed.files or parsed.workload is not None or parsed.cluster is not None):
        return None
    return run_fast(validate_command, parsed)
