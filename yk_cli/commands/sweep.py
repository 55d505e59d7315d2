"""`yk sweep SPEC`: many dry runs of one config and workload with settings varied; the points ranked by an
objective, with every point's metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import check_format, echo_error, fail_usage, write_report, write_stdout
from yk_cli.commands.declare import argument, option
from yk_cli.commands.sweep_common import (
    CACHE_HELP,
    EXECUTOR_HELP,
    JOBS_HELP,
    check_html_output,
    check_objective,
    prepare,
    run_points,
)

FORMATS = ("text", "json", "csv", "html")


@dataclass(frozen=True, slots=True)
class SweepArgs:
    """`yk sweep`'s arguments and options."""

    spec: str = argument("SPEC", "The sweep spec (YAML): config, workloads, parameters, objective.", required=True)
    fmt: str = option(
        "--format", "-f", metavar="FORMAT", help="text, json, csv, or html: the trade-off page (with --output FILE).",
        default="text",
    )
    output: Optional[str] = option("--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
    executor: str = option("--executor", metavar="WHERE", help=EXECUTOR_HELP, default="local")
    jobs: Optional[int] = option("--jobs", "-j", metavar="N", help=JOBS_HELP)
    cache: Optional[str] = option("--cache", metavar="DIR", help=CACHE_HELP)
    quiet: bool = option("--quiet", "-q", help="No summary line for input warnings on stderr.", default=False)


HELP = """Run many dry runs of one queue config and workload, each with some settings changed, and rank them.

The spec names the config, one or more workloads, the parameters to vary (a queue's guaranteed or max
resources, a property such as preemption.delay, maxapplications; the number or size of the nodes; the
workload's arrival rate) with their values (a list, a range or a seeded random sample), and an objective
such as `minimize: p95-wait:queue=root.prod`. Every combination is a full dry run with its metrics
(docs/metrics.md); points whose config YuniKorn would refuse are listed, not run. See docs/sweep.md.

Example: yk sweep prod-guarantee.yaml --format csv --output points.csv"""


def run_sweep(args: SweepArgs) -> None:
    """`yk sweep`: read the spec and the inputs, run every point, print them best first."""
    from yk_cli.core.sweep.objective import ranked
    from yk_cli.core.sweep.points import grid
    from yk_cli.report import sweep_report

    check_format(args.fmt, FORMATS)
    check_html_output(args.fmt, args.output)
    prepared = prepare(args.spec, args.quiet)
    spec, parameters = prepared.spec, prepared.parameters
    if spec.search_span is not None:
        echo_error(f"{spec.file}:{spec.search_span.line}:{spec.search_span.column}: note: search is yk tune's; "
                   "yk sweep runs every point")
    try:
        points = grid(parameters)
    except ValueError as err:
        raise fail_usage(f"{spec.file}: {err}") from None
    results = run_points(prepared.source, points, args.executor, args.jobs, args.cache)
    check_objective(prepared, results)
    unmet = None
    if spec.bounds or spec.policies:
        unmet = sweep_report.unmet_texts(results, [bound for bound, _ in spec.bounds])
    order = ranked(results, spec.objective, parameters, (lambda r: not unmet[r.index]) if unmet is not None else None)
    if args.fmt == "json":
        report = sweep_report.render_json(prepared.shown, parameters, order, spec.objective, unmet)
    elif args.fmt == "csv":
        report = sweep_report.render_csv(parameters, order, unmet)
    elif args.fmt == "html":
        from yk_cli.report.html import render_sweep_html

        report = render_sweep_html(prepared.shown, parameters, order, spec.objective, verdicts=unmet)
    else:
        report = sweep_report.render_text(prepared.shown, parameters, order, spec.objective, unmet)
    if args.output is None:
        write_stdout((report,))
    else:
        write_report(args.output, report)
