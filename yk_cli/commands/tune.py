"""`yk tune SPEC`: the best point of a sweep spec that meets its constraints (metric bounds, `yk check` policies),
found by grid, bisection or seeded random search; the answer as changes to the config, exit 1 when no point meets
them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from yk_cli.commands.console import Exit, check_format, echo_error, fail_usage, write_report, write_stdout
from yk_cli.commands.declare import argument, option
from yk_cli.commands.sweep_common import CACHE_HELP, EXECUTOR_HELP, JOBS_HELP
from yk_cli.core.diagnostics import EXIT_OK, EXIT_PROBLEMS

if TYPE_CHECKING:
    from yk_cli.commands.sweep_common import Prepared
    from yk_cli.core.sweep.evaluate import PointResult
    from yk_cli.core.sweep.points import Point
    from yk_cli.execute import Session
    from yk_cli.report.tune_report import Located

FORMATS = ("text", "json", "csv", "html")


@dataclass(frozen=True, slots=True)
class TuneArgs:
    """`yk tune`'s arguments and options."""

    spec: str = argument(
        "SPEC", "The spec (YAML): config, workloads, parameters, objective, constraints, search.", required=True
    )
    fmt: str = option(
        "--format", "-f", metavar="FORMAT",
        help="text, json, csv (the points run), or html: the trade-off page of the points run (with --output FILE).",
        default="text",
    )
    output: Optional[str] = option("--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
    patch: Optional[str] = option(
        "--patch", metavar="FILE", help="Write the best point's change to the config as a unified diff to FILE "
        "(apply it with `git apply` or `patch -p1`)."
    )
    executor: str = option("--executor", metavar="WHERE", help=EXECUTOR_HELP, default="local")
    jobs: Optional[int] = option("--jobs", "-j", metavar="N", help=JOBS_HELP)
    cache: Optional[str] = option("--cache", metavar="DIR", help=CACHE_HELP)
    quiet: bool = option("--quiet", "-q", help="No summary line for input warnings on stderr.", default=False)


HELP = """Find the best setting that meets your constraints: the smallest guarantee that keeps a wait bound, the fewest
nodes no team notices, the preemption.delay that loses the least work.

The spec is a `yk sweep` spec with an objective (minimize or maximize a metric, or a parameter itself), its
constraints (`{metric: p95-wait:queue=root.prod, at-most: 5m}`, `{policy: rules.yaml}`: every assertion of a
`yk check` policy) and how to search: the whole grid, bisection of one ordered parameter (the constraints taken
to hold from some value on), or a seeded random sample. The answer: the best point as changes to the config at
their file:line (a unified diff with --patch), its metrics and the runner-up. See docs/sweep.md.

Exit status: 0 when a point meets every constraint, 1 when none does, 2 for a spec or input problem.

Example: yk tune team-b-guarantee.yaml --patch smallest-guarantee.diff"""


def run_tune(args: TuneArgs) -> None:
    """`yk tune`: search the spec's space in rounds, rank what ran, report the best point and its changes."""
    from yk_cli.commands.sweep_common import check_html_output, check_objective, prepare, run_points, spec_errors
    from yk_cli.core.sweep.constraints import meets, nearest_miss
    from yk_cli.core.sweep.objective import ranked
    from yk_cli.core.sweep.search import Search, plan
    from yk_cli.report import sweep_report, tune_report

    check_format(args.fmt, FORMATS)
    check_html_output(args.fmt, args.output)
    prepared = prepare(args.spec, args.quiet)
    spec, parameters = prepared.spec, prepared.parameters
    if spec.objective is None:
        raise spec_errors([f"{spec.file}:1:1: objective: yk tune needs one: {{minimize: METRIC}} or "
                           "{maximize: METRIC}, or a parameter's label to find its smallest or largest value"])
    try:
        chosen = plan(spec.search, parameters, spec.objective)
    except ValueError as err:
        span = spec.search_span or spec.objective_span
        where = f"{spec.file}:{span.line}:{span.column}" if span is not None else spec.file
        raise spec_errors([f"{where}: search: {err}"]) from None
    bounds = tuple(bound for bound, _ in spec.bounds)
    search = Search(spec.search, chosen, parameters)
    results: list[PointResult] = []
    with _rounds(prepared, args) as rounds:
        while batch := search.propose():
            ran = run_points(prepared.source, batch, args.executor, args.jobs, args.cache, rounds)
            if not results:
                check_objective(prepared, ran)
            results.extend(ran)
            search.tell({r.index: None if r.errors else meets(r, bounds) for r in ran})
    unmet = sweep_report.unmet_texts(results, list(bounds))
    order = ranked(results, spec.objective, parameters, lambda r: not unmet[r.index])
    report = tune_report.TuneReport(
        prepared.shown, prepared.inputs.config.file, parameters, chosen, spec.search, spec.objective, bounds,
        [file for file, _ in prepared.source.policies], order, unmet,
    )
    contradiction = search.not_monotone()
    if contradiction is not None:
        assert chosen.parameter is not None
        good, bad = (chosen.parameter.values[i] for i in contradiction)
        report.warnings.append(
            f"the constraints are not monotone in {chosen.parameter.label}: {good} meets them and {bad}, after it, "
            "does not; bisection's answer may not be the best (search: grid runs every value)"
        )
    meeting = report.meeting
    if meeting:
        report.best = _located(prepared, meeting[0])
    else:
        report.nearest = nearest_miss(results, bounds)
    if args.patch is not None:
        if report.best is None or not report.best.diff:
            echo_error("yk: note: --patch: no change to the config to write"
                       + (" (no point meets the constraints)" if not meeting else ""))
        else:
            write_report(args.patch, report.best.diff)
    if args.fmt == "json":
        text = tune_report.render_json(report)
    elif args.fmt == "csv":
        text = sweep_report.render_csv(parameters, order, unmet)
    elif args.fmt == "html":
        from yk_cli.report.html import render_sweep_html

        text = render_sweep_html(prepared.shown, parameters, order, spec.objective, title="yk tune", verdicts=unmet,
                                 best=[r.index for r in meeting[:2]], focus=[b.metric for b in bounds])
    else:
        text = tune_report.render_text(report)
    if args.output is None:
        write_stdout((text,))
    else:
        write_report(args.output, text)
    raise Exit(EXIT_OK if meeting else EXIT_PROBLEMS)


@contextmanager
def _rounds(prepared: Prepared, args: TuneArgs) -> Iterator[Session[Point, PointResult]]:
    """The executor kept open for every round of the search: its workers start, and read the inputs, once."""
    from yk_cli.execute import ExecutorError, default_workers, open_session, parse_executor
    from yk_cli.load.sweep_inputs import evaluate_source

    try:
        parse_executor(args.executor)
        default_workers(args.jobs)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    try:
        with open_session(evaluate_source, prepared.source, args.executor, args.jobs) as session:
            yield session
    except ExecutorError as err:
        echo_error(f"yk: error: {err}")
        raise Exit(EXIT_PROBLEMS) from None


def _located(prepared: Prepared, best: PointResult) -> Located:
    """The best point's changes, the config ones located in the config file, and the file's unified diff."""
    from yk_cli.core.sweep.changes import CONFIG, changes
    from yk_cli.report.config_patch import patch, unified_diff
    from yk_cli.report.tune_report import Located

    name, workload = prepared.workloads[0]
    if len(prepared.workloads) > 1:  # the point's workload is its first value (the workload parameter)
        name = str(best.values[0])
        workload = dict(prepared.workloads)[name]
    found = changes(prepared.parameters, best.values, prepared.inputs.tree, workload, name)
    settings = [(c.document_path, c.value) for c in found if c.where == CONFIG and c.changed and c.document_path]
    patched = patch(prepared.config_text, prepared.inputs.config.source_map, settings)
    edits = iter(patched.edits)
    located = [(c, next(edits) if c.where == CONFIG and c.changed and c.document_path else None) for c in found]
    diff = unified_diff(prepared.config_text, patched.text, _patch_name(prepared.spec.config)) if patched.text else ""
    return Located(located, diff)


def _patch_name(file: str) -> str:
    """The config's name in the diff: relative to the working folder, or its name alone when it lies elsewhere
    (patch and git apply refuse absolute and ../ names: the diff then applies in the config's own folder)."""
    from pathlib import Path

    path = Path(file).resolve()
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name
