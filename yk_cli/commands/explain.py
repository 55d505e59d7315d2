"""`yk explain`: which of two asks YuniKorn serves first and why; or, for one pod, what preemption did to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import fail_usage, write_stdout
from yk_cli.commands.declare import (
    CLUSTER,
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    QUIET,
    STATE,
    WORKLOAD,
    WORKLOAD_PARTITION,
    YUNIKORN,
    YUNIKORN_VERSION,
    argument,
    option,
    shared,
)
from yk_cli.commands.project import config_size, project_options
from yk_cli.core.versions import LATEST_VERSION

if TYPE_CHECKING:
    from yk_cli.commands.inputs import WorkloadDump
    from yk_cli.core.analysis.scheduler_log import LogComparison
    from yk_cli.core.sim.trace import Trace
    from yk_cli.load.inputs import Inputs

EXPLAIN_FORMATS = ("text", "json", "markdown")


@dataclass(frozen=True, slots=True)
class ExplainArgs:
    """`yk explain`'s arguments and options."""

    config: Optional[str] = argument(
        "CONFIG", "Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin. Optional with --cluster."
    )
    workload: Optional[str] = argument(
        "WORKLOAD",
        "Workload file: nodes, applications, asks; '-' for stdin. Leave out with -w/--workload or --cluster.",
    )
    ask_a: Optional[str] = argument(
        "ASK_A",
        "An ask name, or application/ask (a dump's pods: namespace/pod, or application/namespace/pod); alone: any "
        "pod (ask or allocation).",
    )
    ask_b: Optional[str] = argument("ASK_B", "Another ask; leave out to explain preemption of ASK_A instead.")
    workload_option: Optional[str] = shared(WORKLOAD)
    cluster: Optional[str] = shared(CLUSTER)
    state: Optional[str] = shared(STATE)
    yunikorn: Optional[str] = shared(YUNIKORN)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json or markdown.", default="text")
    yunikorn_version: str = shared(YUNIKORN_VERSION, LATEST_VERSION)
    partition: Optional[str] = shared(WORKLOAD_PARTITION)
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Which of two asks the scheduler serves first, and why; or, for one pod, what preemption did to it.

With two asks: the dry run decides, then the sort key at the queue where their branches meet (priority with
its breakdown, fair share, pending, submission time, usage ratio, ask order) or the reason the other ask could
not be placed at that moment.

With one pod only: whether it was preempted and by whom, every preemption try that looked at it with the
verdict, the law of YuniKorn's preemption design behind it and the config line; for an ask, its own tries.

Inputs: CONFIG WORKLOAD ASK_A [ASK_B]; CONFIG -w WORKLOAD ASK_A [ASK_B]; or --cluster DUMP [CONFIG] ASK_A
[ASK_B], the dump as the workload (and, without CONFIG, its yunikorn-configs ConfigMap or YuniKorn's built-in
default as the queue config). With --cluster, two arguments are CONFIG and ASK_A when the first is a file ('-'
for stdin), else two asks. --state FILE (a saved /debug/fullstatedump) and --yunikorn URL (live) work as
--cluster does, with the scheduler's own view; for a pending request, its allocation log is shown beside yk's
reason.

Example: yk explain queues.yaml workload.yaml a1-p8 b1-p9"""


def explain_command(args: ExplainArgs) -> None:
    """`yk explain`: check the arguments, load, explain, print (Exit on problems)."""
    from yk_cli.commands.console import check_format
    from yk_cli.commands.inputs import workload_dump
    from yk_cli.load.source import collector_paused

    check_format(args.fmt, EXPLAIN_FORMATS)
    given = [a for a in (args.config, args.workload, args.ask_a, args.ask_b) if a is not None]
    cluster = workload_dump(args.cluster, args.state, args.yunikorn)
    files, first, second = explain_arguments(given, args.workload_option, cluster)
    version, partition, quiet, fmt = args.yunikorn_version, args.partition, args.quiet, args.fmt
    with project_options(args.project_config, args.no_config), config_size(args.max_size), collector_paused():
        if second is None:
            text = run_pod_story(files[0], files[1], first, fmt, version, partition, quiet, cluster)
        else:
            text = run_explain(files[0], files[1], first, second, fmt, version, partition, quiet, cluster)
        write_stdout((text,))


def explain_arguments(
    given: list[str], workload_option: str | None, cluster: WorkloadDump | None
) -> tuple[tuple[str | None, str | None], str, str | None]:
    """(CONFIG, WORKLOAD), ASK_A and ASK_B from the positional arguments: CONFIG WORKLOAD ASK_A [ASK_B]; with
    -w/--workload, CONFIG ASK_A [ASK_B]; with --cluster, [CONFIG] ASK_A [ASK_B] (two arguments are CONFIG and ASK_A
    when the first is a file, else two asks). A usage error for anything else, or for a workload given twice."""
    from yk_cli.commands.inputs import CLUSTER_AND_WORKLOAD, WORKLOAD_TWICE, is_file_argument

    twice = CLUSTER_AND_WORKLOAD if isinstance(cluster, str) else f"{cluster} is the whole workload: give no WORKLOAD"
    if cluster is not None and workload_option is not None:
        raise fail_usage(twice)
    if cluster is not None:
        if len(given) == 3 and is_file_argument(given[1]):
            raise fail_usage(twice)
        if len(given) == 3 or (len(given) == 2 and is_file_argument(given[0])):
            return (given[0], None), given[1], given[2] if len(given) == 3 else None
        if len(given) in (1, 2):
            return (None, None), given[0], given[1] if len(given) == 2 else None
        flag = "--cluster DUMP" if isinstance(cluster, str) else str(cluster)
        raise fail_usage(f"with {flag} give [CONFIG] ASK_A [ASK_B]: " + _count(given))
    if workload_option is not None:
        if len(given) == 4 or (len(given) == 3 and is_file_argument(given[1])):
            raise fail_usage(WORKLOAD_TWICE)
        if len(given) in (2, 3):
            return (given[0], workload_option), given[1], given[2] if len(given) == 3 else None
        raise fail_usage("with -w/--workload give CONFIG ASK_A [ASK_B]: " + _count(given))
    if len(given) in (3, 4):
        return (given[0], given[1]), given[2], given[3] if len(given) == 4 else None
    raise fail_usage(
        "give CONFIG WORKLOAD ASK_A [ASK_B] (or -w/--workload PATH or --cluster DUMP for the workload): "
        + _count(given)
    )


def _count(given: list[str]) -> str:
    return f"{len(given)} argument{'' if len(given) == 1 else 's'} given"


def run_pod_story(
    config: str | None,
    workload: str | None,
    pod: str,
    fmt: str = "text",
    yunikorn_version: str = LATEST_VERSION,
    partition: str | None = None,
    quiet: bool = False,
    cluster: WorkloadDump | None = None,
) -> str:
    """Load, run the dry run with every preemption candidate recorded, and tell the pod's story."""
    from yk_cli.core.analysis.explain_preemption import UnknownPod, pod_story, pods_named
    from yk_cli.core.analysis.trace_view import located
    from yk_cli.core.sim.run import SimulationOptions, simulate
    from yk_cli.report import pod_story as render

    inputs = _inputs(config, workload, yunikorn_version, partition, quiet, cluster)
    assert inputs.workload is not None
    named = pods_named(pod, [(app.id, ask.name) for app in inputs.workload.applications for ask in app.asks])
    watched = named[0] if len(named) == 1 else None
    options = SimulationOptions(yunikorn_version=yunikorn_version, explain_preemption=True, watch_nodes=watched)
    trace = located(simulate(inputs.partition, inputs.tree, inputs.workload, options), inputs.locate)
    try:
        story = pod_story(trace, inputs.tree, pod)
    except UnknownPod as err:
        raise fail_usage(str(err)) from None
    source = inputs.source
    name = inputs.partition.display_name
    gaps = trace.unmodelled
    logs = _scheduler_log(inputs, trace, [story.name])
    if fmt == "json":
        return render.render_json(story, source, name, inputs.locate, gaps, _log_json(inputs, logs))
    if fmt == "markdown":
        from yk_cli.report import explain_markdown
        from yk_cli.report.scheduler_log import markdown_section

        return explain_markdown.render_story(story, source, name, inputs.locate, gaps) + markdown_section(logs)
    from yk_cli.report.scheduler_log import text_section

    return render.render_text(story, source, name, inputs.locate, gaps) + text_section(logs)


def run_explain(
    config: str | None,
    workload: str | None,
    ask_a: str,
    ask_b: str,
    fmt: str = "text",
    yunikorn_version: str = LATEST_VERSION,
    partition: str | None = None,
    quiet: bool = False,
    cluster: WorkloadDump | None = None,
) -> str:
    """Load, check, explain and render; problems go to stderr like `yk validate` (Exit on errors)."""
    from yk_cli.core.analysis.explain import UnknownAsk
    from yk_cli.core.analysis.explain import explain as why
    from yk_cli.core.sim.unmodelled import unmodelled

    inputs = _inputs(config, workload, yunikorn_version, partition, quiet, cluster)
    assert inputs.workload is not None
    try:
        explanation = why(inputs.partition, inputs.tree, inputs.workload, ask_a, ask_b, yunikorn_version)
    except UnknownAsk as err:
        hint = f" (did you mean {' or '.join(err.suggestions)}?)" if err.suggestions else ""
        raise fail_usage(f"{err}{hint}") from None
    source = inputs.source
    queues = inputs.tree.queues
    gaps = unmodelled(inputs.partition, inputs.tree, inputs.workload)
    name = inputs.partition.display_name
    logs = []
    asks = [f.ask for f in explanation.asks]
    if inputs.state is not None and any(ask in inputs.state.documents.logs for ask in asks):
        from yk_cli.core.sim.run import SimulationOptions, simulate

        options = SimulationOptions(yunikorn_version=yunikorn_version)
        trace = simulate(inputs.partition, inputs.tree, inputs.workload, options)
        logs = _scheduler_log(inputs, trace, asks)
    if fmt == "json":
        from yk_cli.report import explain_json

        return explain_json.render(explanation, source, name, queues, inputs.locate, gaps, _log_json(inputs, logs))
    if fmt == "markdown":
        from yk_cli.report import explain_markdown
        from yk_cli.report.scheduler_log import markdown_section

        return explain_markdown.render(explanation, source, name, queues, inputs.locate, gaps) + markdown_section(logs)
    from yk_cli.report import explain_text
    from yk_cli.report.scheduler_log import text_section

    return explain_text.render(explanation, source, name, queues, inputs.locate, gaps) + text_section(logs)


def _scheduler_log(inputs: Inputs, trace: Trace, asks: list[str]) -> list[LogComparison]:
    """A state dump's allocation logs of these asks beside the dry run's outcome (none without a state dump)."""
    from yk_cli.core.analysis.scheduler_log import compare_logs

    if inputs.state is None:
        return []
    return compare_logs(trace, inputs.state.documents.logs, asks)


def _log_json(inputs: Inputs, logs: list[LogComparison]) -> list[dict[str, object]] | None:
    """The JSON `schedulerLog` with a state dump (empty when its requests have no log), else None (no key)."""
    from yk_cli.report.scheduler_log import json_entries

    return json_entries(logs) if inputs.state is not None else None


def _inputs(
    config: str | None,
    workload: str | None,
    yunikorn_version: str,
    partition: str | None,
    quiet: bool,
    cluster: WorkloadDump | None = None,
) -> Inputs:
    """Check the YuniKorn version (a usage error), then load and check the config and the workload (or the
    --cluster dump); the inputs' source names them as the reports show it."""
    from yk_cli.commands.inputs import checked_inputs
    from yk_cli.core.sim.run import version_tuple

    try:
        version_tuple(yunikorn_version)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    if cluster is None and (config is None or workload is None):
        raise fail_usage("give CONFIG and WORKLOAD, or --cluster DUMP, --state FILE or --yunikorn URL")
    return checked_inputs(config, workload, cluster, partition, quiet, place=True)
