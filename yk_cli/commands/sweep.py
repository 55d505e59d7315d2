"""`yk sweep SPEC`: many dry runs of one config and workload with settings varied; the points ranked by an
objective, with every point's metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import Exit, check_format, echo_error, fail_usage, write_report, write_stdout
from yk_cli.commands.declare import argument, option
from yk_cli.core.diagnostics import EXIT_PROBLEMS

if TYPE_CHECKING:
    from yk_cli.core.sweep.evaluate import PointResult
    from yk_cli.core.sweep.points import Point
    from yk_cli.load.sweep_inputs import SweepSource

FORMATS = ("text", "json", "csv")


@dataclass(frozen=True, slots=True)
class SweepArgs:
    """`yk sweep`'s arguments and options."""

    spec: str = argument("SPEC", "The sweep spec (YAML): config, workloads, parameters, objective.", required=True)
    fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json or csv.", default="text")
    output: Optional[str] = option("--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
    executor: str = option(
        "--executor",
        metavar="WHERE",
        help="Where the points run: local (worker processes, the default), local:N, serial (this process), "
        "dask-local[:N] (a Dask cluster started here), or dask://HOST:PORT (a running Dask scheduler; pip install "
        "'yk[dask]'). The results are the same bytes wherever they run.",
        default="local",
    )
    jobs: Optional[int] = option("--jobs", "-j", metavar="N", help="Local workers (default: the cores available).")
    cache: Optional[str] = option(
        "--cache",
        metavar="DIR",
        help="Keep each point's result in DIR, keyed by the config, the workloads, the point and yk's version: a rerun "
        "with points added computes only the new ones.",
    )
    quiet: bool = option("--quiet", "-q", help="No summary line for input warnings on stderr.", default=False)


HELP = """Run many dry runs of one queue config and workload, each with some settings changed, and rank them.

The spec names the config, one or more workloads, the parameters to vary (a queue's guaranteed or max
resources, a property such as preemption.delay, maxapplications; the number or size of the nodes; the
workload's arrival rate) with their values (a list, a range or a seeded random sample), and an objective
such as `minimize: p95-wait:queue=root.prod`. Every combination is a full dry run with its metrics
(docs/metrics.md); points whose config YuniKorn would refuse are listed, not run. See docs/sweep.md.

Example: yk sweep prod-guarantee.yaml --format csv --output points.csv"""


def _run(args: SweepArgs, source: SweepSource, points: list[Point]) -> list[PointResult]:
    """Every point's result: from the cache when it has it, the rest on the executor (a bar on a terminal)."""
    from yk_cli.commands.progress import progress
    from yk_cli.execute import Cache, EvaluationError, ExecutorError, run_all
    from yk_cli.load.sweep_inputs import evaluate_source

    cache = Cache(args.cache) if args.cache is not None else None
    keys: list[str] = []
    found: dict[int, PointResult] = {}
    if cache is not None:
        from yk_cli import __version__

        base = Cache.key(__version__, source.digest)
        for point in points:
            key = Cache.key(base, repr(point.values))
            keys.append(key)
            stored = cache.get(key)
            if stored is not None:
                result = _from_json(stored, point.index)
                if result is not None:
                    found[point.index] = result
    missing = [p for p in points if p.index not in found]
    done = [len(found)]

    def count(finished: int, _total: int) -> None:
        done[0] = len(found) + finished

    try:
        with progress("sweep", len(points), lambda: (done[0], f"{done[0]}/{len(points)} points")):
            computed = run_all(evaluate_source, source, missing, args.executor, args.jobs, count)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    except (EvaluationError, ExecutorError) as err:
        echo_error(f"yk: error: {err}")
        raise Exit(EXIT_PROBLEMS) from None
    for point, result in zip(missing, computed, strict=True):
        found[point.index] = result
        if cache is not None:
            cache.put(keys[point.index], _to_json(result))
    return [found[p.index] for p in points]


def _to_json(result: PointResult) -> bytes:
    import json

    return json.dumps({"values": list(result.values), "errors": list(result.errors),
                       "numbers": [[k, v] for k, v in result.numbers]}).encode()


def _from_json(data: bytes, index: int) -> PointResult | None:
    """A cached result (None when the entry is not one yk wrote)."""
    import json

    from yk_cli.core.sweep.evaluate import PointResult

    try:
        raw = json.loads(data)
        return PointResult(index, tuple(raw["values"]), tuple(raw["errors"]),
                           tuple((str(k), v) for k, v in raw["numbers"]))
    except (ValueError, KeyError, TypeError):
        return None


def run_sweep(args: SweepArgs) -> None:
    """`yk sweep`: read the spec and the inputs, run every point, print them best first."""
    from yk_cli.commands.inputs import checked_inputs
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
    from pathlib import Path

    from yk_cli.load.sweep_inputs import SweepSource

    runs = SweepSource.of(
        Path(spec.config).read_text(encoding="utf-8"),
        tuple((name, Path(file).read_text(encoding="utf-8")) for (name, _), file in zip(workloads, spec.workloads,
                                                                                          strict=True)),
        inputs.partition.display_name,
        spec.until,
        tuple(p.path for p in parameters),
    )
    results = _run(args, runs, points)
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
