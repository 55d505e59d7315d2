"""`yk volcano simulate`: a dry run of one Volcano scheduling session on a cluster dump."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import check_format, write_stdout
from yk_cli.commands.declare import NO_CONFIG, PROJECT_CONFIG, QUIET, VOLCANO_CONF, argument, option, shared
from yk_cli.commands.inputs import volcano_inputs
from yk_cli.commands.project import project_options

if TYPE_CHECKING:
    pass

FORMATS = ("text", "json", "markdown")


@dataclass(frozen=True, slots=True)
class VolcanoSimulateArgs:
    """`yk volcano simulate`'s arguments and options."""

    dumps: list[str] = argument(
        "DUMP...",
        "kubectl dumps (a List, several documents, a directory, or '-' for stdin) of queues, podgroups, pods, "
        "priorityclasses and nodes.",
        required=True,
    )
    conf: Optional[str] = shared(VOLCANO_CONF)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json or markdown.", default="text")
    quiet: bool = shared(QUIET, False)
    proposal: bool = option(
        "--proposal",
        help="Add the 2023 queue-priority design proposal's QueueScoreOrder and job-first order beside Volcano's (a "
        "design proposal, not in any Volcano release).",
        default=False,
    )
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Dry-run one Volcano scheduling session: the conf's actions in order, with the plugins as configured.

Prints the queue table (priority, weight, deserved, allocated, share, Overused, rank in the queue order), the
jobs of each queue in job order, then every bind, eviction, pipeline and admission of each action. Node choice
follows a documented deterministic rule (Volcano's is not deterministic).

With --proposal, also the 2023 design proposal's weighted QueueScoreOrder and job-first order (queue priority
from a Queue's spec.priorityClassName, else spec.priority), each beside Volcano's real order, labelled as a
proposal that no Volcano release implements.

Example: yk volcano simulate dump.yaml --conf volcano-scheduler.conf"""


def volcano_simulate(args: VolcanoSimulateArgs) -> None:
    """`yk volcano simulate`: load, run the session, print."""
    check_format(args.fmt, FORMATS)
    with project_options(args.project_config, args.no_config):
        write_stdout((simulation_report(args.dumps, args.conf, args.fmt, args.quiet, args.proposal),))


def simulation_report(dumps: list[str], conf: str | None, fmt: str, quiet: bool, proposal: bool = False) -> str:
    """Load the inputs, stop on errors (reported like `yk validate`), run the session, render it."""
    from yk_cli.core.volcano.proposal_view import ProposalObserver
    from yk_cli.core.volcano.simulate import simulate as run

    inputs = volcano_inputs(dumps, conf, quiet)
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
