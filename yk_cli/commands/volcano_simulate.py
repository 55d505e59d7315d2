"""`yk volcano simulate`: a dry run of one Volcano scheduling session on a cluster dump."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yk_cli.cli import Exit, check_format, fail_usage, write_stdout
from yk_cli.commands.application import YkCommand
from yk_cli.commands.options import QuietOption
from yk_cli.commands.volcano import volcano_app

if TYPE_CHECKING:
    from yk_cli.load.volcano import VolcanoInputs

FORMATS = ("text", "json")


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
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text or json.")] = "text",
    quiet: QuietOption = False,
    proposal: Annotated[
        bool,
        typer.Option(
            "--proposal", metavar="",
            help="Add the 2023 queue-priority design proposal's QueueScoreOrder and job-first order beside "
            "Volcano's (a design proposal, not in any Volcano release).",
        ),
    ] = False,
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
    write_stdout((simulation_report(dumps, conf, fmt, quiet, proposal),))


def load_inputs(dumps: list[str], conf: str | None, quiet: bool) -> VolcanoInputs:
    """Load the dumps and the conf; stop on input errors (printed like `yk validate`, exit 1) and bad usage (2)."""
    from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level
    from yk_cli.load.source import collector_paused
    from yk_cli.load.volcano import InputError, load_volcano
    from yk_cli.load.volcano_fast import load_volcano_fast
    from yk_cli.report.problems import render_problems

    if dumps.count("-") + (conf == "-") > 1:
        raise fail_usage("'-' (standard input) may be given only once")
    try:
        with collector_paused():  # a YAML dump of 50,000 pods is millions of nodes: 2.5x faster without the collector
            inputs = load_volcano_fast(dumps, conf) or load_volcano(dumps, conf)
    except InputError as err:
        raise fail_usage(str(err)) from None
    problems = inputs.problems
    if any(p.level == Level.ERROR for p in problems):
        sys.stderr.write(render_problems("text", problems, inputs.texts, len(inputs.files)))
        if not inputs.conf.loaded:
            sys.stderr.write(
                "yk: the scheduler conf does not load: Volcano would refuse it and keep its previous configuration "
                "(at start-up, its built-in default). Fix it, or leave out --conf to simulate the default.\n"
            )
        raise Exit(EXIT_PROBLEMS)
    if problems and not quiet:
        count = len(problems)
        sys.stderr.write(f"{count} warning{'s' * (count != 1)} in the inputs: run yk volcano validate\n")
    return inputs


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
    from yk_cli.report.volcano_sim_text import render

    return render(result, inputs.conf_source, view)
