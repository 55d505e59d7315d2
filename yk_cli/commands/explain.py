"""`yk explain`: which of two asks YuniKorn serves first and why; or, for one pod, what preemption did to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yk_cli.cli import config_size, fail_usage, write_stdout
from yk_cli.commands.application import YkCommand, app
from yk_cli.commands.options import (
    MaxSizeOption,
    NoConfigOption,
    ProjectConfigOption,
    QuietOption,
    WorkloadPartitionOption,
    YunikornVersionOption,
)
from yk_cli.commands.project import project_options

if TYPE_CHECKING:
    from yk_cli.commands.tree import Inputs

EXPLAIN_FORMATS = ("text", "json", "markdown")


@app.command(cls=YkCommand)
def explain(
    config: Annotated[
        str,
        typer.Argument(metavar="CONFIG", help="Queue config: queues.yaml, a ConfigMap or a List; '-' for stdin."),
    ],
    workload: Annotated[
        str, typer.Argument(metavar="WORKLOAD", help="Workload file: nodes, applications, asks; '-' for stdin.")
    ],
    ask_a: Annotated[
        str,
        typer.Argument(metavar="ASK_A", help="An ask name, or application/ask; alone: any pod (ask or allocation)."),
    ],
    ask_b: Annotated[
        Optional[str],
        typer.Argument(metavar="ASK_B", help="Another ask; leave out to explain preemption of ASK_A instead."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or markdown.")] = "text",
    yunikorn_version: YunikornVersionOption = "1.8",
    partition: WorkloadPartitionOption = None,
    max_size: MaxSizeOption = None,
    quiet: QuietOption = False,
    project_config: ProjectConfigOption = None,
    no_config: NoConfigOption = False,
) -> None:
    """Which of two asks the scheduler serves first, and why; or, for one pod, what preemption did to it.

    With two asks: the dry run decides, then the sort key at the queue where their branches meet (priority with
    its breakdown, fair share, pending, submission time, usage ratio, ask order) or the reason the other ask could
    not be placed at that moment.

    With one pod only: whether it was preempted and by whom, every preemption try that looked at it with the
    verdict, the law of YuniKorn's preemption design behind it and the config line; for an ask, its own tries.

    Example: yk explain queues.yaml workload.yaml a1-p8 b1-p9"""
    from yk_cli.cli import check_format
    from yk_cli.load.source import collector_paused

    check_format(fmt, EXPLAIN_FORMATS)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        if ask_b is None:
            write_stdout((run_pod_story(config, workload, ask_a, fmt, yunikorn_version, partition, quiet),))
        else:
            write_stdout((run_explain(config, workload, ask_a, ask_b, fmt, yunikorn_version, partition, quiet),))


def run_pod_story(
    config: str,
    workload: str,
    pod: str,
    fmt: str = "text",
    yunikorn_version: str = "1.8",
    partition: str | None = None,
    quiet: bool = False,
) -> str:
    """Load, run the dry run with every preemption candidate recorded, and tell the pod's story."""
    from yk_cli.commands.simulate import located
    from yk_cli.core.explain_preemption import UnknownPod, pod_story
    from yk_cli.core.sim.run import SimulationOptions, simulate
    from yk_cli.report import pod_story as render

    inputs = _inputs(config, workload, yunikorn_version, partition, quiet)
    assert inputs.workload is not None
    app_id, _, name = pod.rpartition("/")
    named = [
        (app.id, ask.name)
        for app in inputs.workload.applications
        for ask in app.asks
        if ask.name == name and (not app_id or app.id == app_id)
    ]
    watched = named[0] if len(named) == 1 else None
    options = SimulationOptions(yunikorn_version=yunikorn_version, explain_preemption=True, watch_nodes=watched)
    trace = located(simulate(inputs.partition, inputs.tree, inputs.workload, options), inputs.locate)
    try:
        story = pod_story(trace, inputs.tree, pod)
    except UnknownPod as err:
        raise fail_usage(str(err)) from None
    source = f"{_display(config)} + {_display(workload)}"
    name = inputs.partition.display_name
    gaps = trace.unmodelled
    if fmt == "json":
        return render.render_json(story, source, name, inputs.locate, gaps)
    if fmt == "markdown":
        from yk_cli.report import explain_markdown

        return explain_markdown.render_story(story, source, name, inputs.locate, gaps)
    return render.render_text(story, source, name, inputs.locate, gaps)


def run_explain(
    config: str,
    workload: str,
    ask_a: str,
    ask_b: str,
    fmt: str = "text",
    yunikorn_version: str = "1.8",
    partition: str | None = None,
    quiet: bool = False,
) -> str:
    """Load, check, explain and render; problems go to stderr like `yk validate` (Exit on errors)."""
    from yk_cli.core.explain import UnknownAsk
    from yk_cli.core.explain import explain as why
    from yk_cli.core.unmodelled import unmodelled

    inputs = _inputs(config, workload, yunikorn_version, partition, quiet)
    assert inputs.workload is not None
    try:
        explanation = why(inputs.partition, inputs.tree, inputs.workload, ask_a, ask_b, yunikorn_version)
    except UnknownAsk as err:
        hint = f" (did you mean {' or '.join(err.suggestions)}?)" if err.suggestions else ""
        raise fail_usage(f"{err}{hint}") from None
    source = f"{_display(config)} + {_display(workload)}"
    queues = inputs.tree.queues
    gaps = unmodelled(inputs.partition, inputs.tree, inputs.workload)
    name = inputs.partition.display_name
    if fmt == "json":
        from yk_cli.report import explain_json

        return explain_json.render(explanation, source, name, queues, inputs.locate, gaps)
    if fmt == "markdown":
        from yk_cli.report import explain_markdown

        return explain_markdown.render(explanation, source, name, queues, inputs.locate, gaps)
    from yk_cli.report import explain_text

    return explain_text.render(explanation, source, name, queues, inputs.locate, gaps)


def _inputs(config: str, workload: str, yunikorn_version: str, partition: str | None, quiet: bool) -> Inputs:
    """Check the YuniKorn version (a usage error), then load and check the config and the workload."""
    from yk_cli.commands.tree import prepare_inputs
    from yk_cli.core.sim.run import version_tuple

    try:
        version_tuple(yunikorn_version)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    return prepare_inputs(config, workload, partition, quiet)


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name
