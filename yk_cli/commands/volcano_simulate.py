"""`yk volcano simulate`: a dry run of one Volcano scheduling session on a cluster dump."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yk_cli.cli import Exit, check_format, fail_usage, write_stdout
from yk_cli.commands.application import YkCommand
from yk_cli.commands.options import NoConfigOption, ProjectConfigOption, QuietOption
from yk_cli.commands.project import project_options
from yk_cli.commands.volcano import volcano_app

if TYPE_CHECKING:
    from yk_cli.core.diagnostics import Problem
    from yk_cli.load.volcano import VolcanoInputs

FORMATS = ("text", "json", "markdown")


@volcano_app.command(cls=YkCommand)
def simulate(
    dumps: Annotated[
        list[str],
        typer.Argument(
            metavar="DUMP...",
            help="kubectl dumps (a List, several documents, a directory, or '-' for stdin) of queues, podgroups, "
            "pods, priorityclasses and nodes.",
        ),
    ],
    conf: Annotated[
        Optional[str],
        typer.Option(
            "--conf", metavar="FILE",
            help="volcano-scheduler.conf (or its ConfigMap); default: the dump's volcano-scheduler-configmap, else "
            "Volcano's built-in default.",
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or markdown.")] = "text",
    quiet: QuietOption = False,
    proposal: Annotated[
        bool,
        typer.Option(
            "--proposal", metavar="",
            help="Add the 2023 queue-priority design proposal's QueueScoreOrder and job-first order beside "
            "Volcano's (a design proposal, not in any Volcano release).",
        ),
    ] = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Dry-run one Volcano scheduling session: the conf's actions in order, with the plugins as configured.

    Prints the queue table (priority, weight, deserved, allocated, share, Overused, rank in the queue order), the
    jobs of each queue in job order, then every bind, eviction, pipeline and admission of each action. Node choice
    follows a documented deterministic rule (Volcano's is not deterministic).

    With --proposal, also the 2023 design proposal's weighted QueueScoreOrder and job-first order (queue priority
    from a Queue's spec.priorityClassName, else spec.priority), each beside Volcano's real order, labelled as a
    proposal that no Volcano release implements.

    Example: yk volcano simulate dump.yaml --conf volcano-scheduler.conf"""
    check_format(fmt, FORMATS)
    with project_options(project_config, no_config):
        write_stdout((simulation_report(dumps, conf, fmt, quiet, proposal),))


def load_inputs(dumps: list[str], conf: str | None, quiet: bool) -> VolcanoInputs:
    """Load the dumps (one cluster) and the conf, and check them as `yk volcano validate --one-cluster` does: with
    an error, every problem printed as `yk volcano validate` prints them, exit 1; with warnings alone, one summary
    line on standard error (none when quiet). The project config (.yk.yaml) in force drops the rules it disables
    and the warnings of files it ignores. Bad usage and unreadable inputs exit 2."""
    from yk_cli.commands.project import active_project
    from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level
    from yk_cli.load.project import is_ignored
    from yk_cli.load.source import collector_paused
    from yk_cli.load.volcano import InputError, load_volcano
    from yk_cli.load.volcano_check import lint_inputs
    from yk_cli.load.volcano_fast import load_volcano_fast
    from yk_cli.report.problems import render_problems

    if dumps.count("-") + (conf == "-") > 1:
        raise fail_usage("'-' (standard input) may be given only once")
    project = active_project()

    def shown(inputs: VolcanoInputs) -> list[Problem]:
        return [
            p
            for p in project.shown(lint_inputs(inputs))
            if p.level == Level.ERROR or not (p.file and is_ignored(project, p.file))
        ]

    try:
        with collector_paused():  # a YAML dump of 50,000 pods is millions of nodes: 2.5x faster without the collector
            inputs = load_volcano_fast(dumps, conf)
            problems = shown(inputs) if inputs is not None else []
            if inputs is None or any(p.level == Level.ERROR for p in problems):  # printed in full: with positions
                inputs = load_volcano(dumps, conf)
                problems = shown(inputs)
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
        sys.stderr.write(warning_summary(problems, inputs.files, dumps, conf) + "\n")
    return inputs


def warning_summary(warnings: list[Problem], files: list[str], dumps: list[str], conf: str | None) -> str:
    """One line for the warnings of the inputs, as in YuniKorn mode: how many in which file, and the command that
    prints them in full: `2 warnings in dump.yaml: run yk volcano validate dump.yaml`."""
    import shlex

    parts = []
    for file in [*files, *sorted({p.file for p in warnings} - set(files))]:
        count = sum(1 for p in warnings if p.file == file)
        if count:
            parts.append(f"{count} warning{'s' * (count != 1)} in {file or 'the inputs'}")
    if "-" in dumps or conf == "-":
        return f"{'; '.join(parts)}: run yk volcano validate"
    read = len(files) - (conf is not None)
    words = ["yk", "volcano", "validate", *(["--one-cluster"] if read > 1 else []), *dumps]
    words += ["--conf", conf] if conf is not None else []
    return f"{'; '.join(parts)}: run {' '.join(shlex.quote(w) for w in words)}"


def simulation_report(dumps: list[str], conf: str | None, fmt: str, quiet: bool, proposal: bool = False) -> str:
    """Load the inputs, stop on errors (reported like `yk validate`), run the session, render it."""
    from yk_cli.core.volcano.proposal_view import ProposalObserver
    from yk_cli.core.volcano.simulate import simulate as run

    inputs = load_inputs(dumps, conf, quiet)
    observer = ProposalObserver(inputs.cluster) if proposal else None
    result = run(inputs.cluster, inputs.conf.effective, observer=observer)
    view = observer.result() if observer is not None else None
    if fmt == "json":
        from yk_cli.report.volcano_sim_json import render_json

        return render_json(result, inputs.conf_source, view)
    if fmt == "markdown":
        from yk_cli.report.volcano_sim_markdown import render as render_markdown

        return render_markdown(result, inputs.conf_source, view)
    from yk_cli.report.volcano_sim_text import render

    return render(result, inputs.conf_source, view)
