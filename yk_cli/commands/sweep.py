"""`yk sweep SPEC`: many dry runs of one config and workload with settings varied; the points ranked by an
objective, with every point's metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from yk_cli.commands.console import Exit, check_format, echo_error, fail_usage, write_report, write_stdout
from yk_cli.commands.declare import argument, option
from yk_cli.core.diagnostics import EXIT_PROBLEMS

FORMATS = ("text", "json", "csv")


@dataclass(frozen=True, slots=True)
class SweepArgs:
    """`yk sweep`'s arguments and options."""

    spec: str = argument("SPEC", "The sweep spec (YAML): config, workloads, parameters, objective.", required=True)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json or csv.", default="text")
    output: Optional[str] = option("--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
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
    from yk_cli.commands.inputs import checked_inputs
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.sweep.evaluate import SweepInputs, evaluate
    from yk_cli.core.sweep.objective import ranked, unknown_metric
    from yk_cli.core.sweep.params import WORKLOAD_FILE, Target
    from yk_cli.core.sweep.points import Parameter, grid
    from yk_cli.load.source import shown_name
    from yk_cli.load.sweep_spec import SpecError, read_spec, resolve
    from yk_cli.report import sweep_report

    check_format(args.fmt, FORMATS)
    try:
        spec = read_spec(args.spec)
    except SpecError as err:
        for message in err.messages:
            echo_error(message)
        raise Exit(EXIT_PROBLEMS) from None
    workloads = []
    inputs = None
    for name in spec.workloads:
        inputs = checked_inputs(spec.config, name, None, spec.partition, args.quiet)
        assert inputs.workload is not None
        workloads.append((shown_name(name), inputs.workload))
    assert inputs is not None
    try:
        parameters = resolve(spec, inputs.tree)
    except SpecError as err:
        for message in err.messages:
            echo_error(message)
        raise Exit(EXIT_PROBLEMS) from None
    if len(workloads) > 1:
        names = tuple(name for name, _ in workloads)
        parameters = [Parameter("workload", "workloads", Target(WORKLOAD_FILE), names), *parameters]
    try:
        points = grid(parameters)
    except ValueError as err:
        raise fail_usage(f"{spec.file}: {err}") from None
    shared = SweepInputs(
        inputs.config.config,
        inputs.partition.display_name,
        tuple(workloads),
        tuple(p.target for p in parameters),
        SimulationOptions(until=spec.until),
    )
    results = [evaluate(shared, point) for point in points]
    if spec.objective is not None:
        unknown = unknown_metric(results, spec.objective[1])
        if unknown:
            span = spec.objective_span
            where = f"{spec.file}:{span.line}:{span.column}" if span else spec.file
            echo_error(f"{where}: {unknown}")
            raise Exit(EXIT_PROBLEMS)
    order = ranked(results, spec.objective)
    source = f"{shown_name(spec.config)} + {', '.join(name for name, _ in workloads)}"
    if args.fmt == "json":
        report = sweep_report.render_json(source, parameters, order, spec.objective)
    elif args.fmt == "csv":
        report = sweep_report.render_csv(parameters, order)
    else:
        report = sweep_report.render_text(source, parameters, order, spec.objective)
    if args.output is None:
        write_stdout((report,))
    else:
        write_report(args.output, report)
