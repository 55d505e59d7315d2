"""`yk volcano explain`: why Volcano serves one job or task before another; or what reclaim and preempt did to a pod."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import check_format, fail_usage, write_stdout
from yk_cli.commands.declare import NO_CONFIG, PROJECT_CONFIG, QUIET, VOLCANO_CONF, argument, option, shared
from yk_cli.commands.project import project_options

FORMATS = ("text", "json")


@dataclass(frozen=True, slots=True)
class VolcanoExplainArgs:
    """`yk volcano explain`'s arguments and options."""

    args: list[str] = argument(
        "DUMP... X [Y]",
        "kubectl dumps (files, directories or '-'), then one or two names: a PodGroup `<ns>/<name>` or a pod "
        "`<ns>/<pod>` (the namespace may be left out when the name is unique).",
        required=True,
    )
    conf: Optional[str] = shared(VOLCANO_CONF)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text or json.", default="text")
    proposal: bool = option(
        "--proposal",
        help="Add the 2023 queue-priority design proposal's view (not in any Volcano release).",
        default=False,
    )
    quiet: bool = shared(QUIET, False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Why Volcano serves job or task X before Y; or, for one pod, what reclaim and preempt did to it.

Two names: the session is simulated and read at the allocate pop that first served each job. One queue: the
first job comparator that differs (plugin, tier, values); different queues: the queue comparator at that
moment, with the shares then (job priority is never compared across queues). A job never served says why.

One name (a pod): whether it was evicted, by which action and for whom, and for every victim selection that
looked at it the plugin and tier that chose or kept it, and the victim order.

Example: yk volcano explain dump.yaml shop/search-reindex ml/sweep-17"""


def volcano_explain(args: VolcanoExplainArgs) -> None:
    """`yk volcano explain`: split the dumps from the names, load, explain, print."""
    check_format(args.fmt, FORMATS)
    if len(args.args) < 2:
        raise fail_usage("give at least one dump and one name (DUMP... X [Y])")
    names, dumps = _split(args.args)
    with project_options(args.project_config, args.no_config):
        write_stdout((explain_report(dumps, names, args.conf, args.fmt, args.proposal, args.quiet),))


_NAME = re.compile(r"(?:[A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9][-A-Za-z0-9_.]*")
"""A job or pod name as `yk volcano explain` takes it: `<namespace>/<name>` or `<name>` (never a path such as `/`)."""


def _split(args: list[str]) -> tuple[list[str], list[str]]:
    """The trailing names (one or two) and the dumps before them. The last argument is always a name, never read
    as a path; the one before it is a second name when it is not '-' and not an existing file or directory (with a
    dump still before it). A name must look like one (`<ns>/<name>` or `<name>`): a usage error otherwise."""
    import os

    last = args[-1]
    if last != "-" and os.path.isfile(last):
        raise fail_usage(f"no job or pod name after the dumps: {last!r} is a file")
    names = [last]
    before = args[-2]
    if len(args) > 2 and before != "-" and not os.path.lexists(before):
        names.insert(0, before)
    for name in names:
        if not _NAME.fullmatch(name):
            raise fail_usage(f"{name!r} is not a job or pod name: give <namespace>/<name> or <name> after the dumps")
    return names, args[: len(args) - len(names)]


def explain_report(dumps: list[str], names: list[str], conf: str | None, fmt: str, proposal: bool, quiet: bool) -> str:
    """Load, explain, render; unknown names are usage errors (exit 2) with a did-you-mean."""
    from yk_cli.commands.inputs import volcano_inputs
    from yk_cli.core.volcano.explain import UnknownName, explain_pair, pod_story

    inputs = volcano_inputs(dumps, conf, quiet)
    try:
        if len(names) == 2:
            pair = explain_pair(inputs.cluster, inputs.conf.effective, names[0], names[1], proposal)
            pair.conf_source = inputs.conf_source
            if fmt == "json":
                from yk_cli.report.volcano_explain_json import pair_json, render

                return render(pair_json(pair))
            from yk_cli.report.volcano_explain_text import render_pair

            return render_pair(pair)
        if proposal:
            raise fail_usage("--proposal needs two names (X Y): the proposal changes the order, not the victims")
        story = pod_story(inputs.cluster, inputs.conf.effective, names[0])
    except UnknownName as err:
        hint = f" (did you mean {' or '.join(err.suggestions)}?)" if err.suggestions else ""
        raise fail_usage(f"{err}{hint}") from None
    story.conf_source = inputs.conf_source
    if fmt == "json":
        from yk_cli.report.volcano_explain_json import pod_json, render

        return render(pod_json(story))
    from yk_cli.report.volcano_explain_text import render_pod

    return render_pod(story)
