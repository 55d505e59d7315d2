"""What `yk sweep` and `yk tune` share: the spec read with its inputs, the points run (cached, on an executor or an
open session), the checks of the objective and bounds, and their options' help."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yk_cli.commands.console import Exit, echo_error, fail_usage
from yk_cli.core.diagnostics import EXIT_PROBLEMS, EXIT_USAGE

if TYPE_CHECKING:
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.diagnostics import Span
    from yk_cli.core.sweep.evaluate import PointResult
    from yk_cli.core.sweep.points import Parameter, Point
    from yk_cli.core.workload.model import Workload
    from yk_cli.execute import Session
    from yk_cli.load.inputs import Inputs
    from yk_cli.load.sweep_inputs import SweepSource
    from yk_cli.load.sweep_spec import Spec

EXECUTOR_HELP = (  # \\[ keeps rich's markup from taking [dask] for a style
    "Where the points run: local (worker processes, the default), local:N, serial (this process), dask-local[:N] (a "
    "Dask cluster started here), or dask://HOST:PORT (a running Dask scheduler; pip install 'yk\\[dask]'). The "
    "report is the same bytes wherever they run."
)
JOBS_HELP = "Local workers (default: the cores available)."
CACHE_HELP = (
    "Keep each point's result in DIR, keyed by the config, the workloads, the point and yk's version (yk sweep and "
    "yk tune share it): a rerun computes only the points not run before."
)


def run_points(
    source: SweepSource,
    points: Sequence[Point],
    executor: str,
    jobs: int | None,
    cache_dir: str | None,
    session: Session[Point, PointResult] | None = None,
) -> list[PointResult]:
    """Every point's result: from the cache when it has it, the rest on the executor or the open session (a bar on
    a terminal)."""
    from yk_cli.commands.progress import progress
    from yk_cli.execute import Cache, EvaluationError, ExecutorError, run_all
    from yk_cli.load.sweep_inputs import evaluate_source

    cache = Cache(cache_dir) if cache_dir is not None else None
    keys: dict[int, str] = {}
    found: dict[int, PointResult] = {}
    if cache is not None:
        from yk_cli import __version__

        base = Cache.key(__version__, source.digest)
        for point in points:
            key = keys[point.index] = Cache.key(base, repr(point.values))
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
            if session is not None:
                computed = session.run(missing, count)
            else:
                computed = run_all(evaluate_source, source, missing, executor, jobs, count)
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
                       "numbers": [[k, v] for k, v in result.numbers], "failed": list(result.failed)}).encode()


def _from_json(data: bytes, index: int) -> PointResult | None:
    """A cached result (None when the entry is not one yk wrote)."""
    import json

    from yk_cli.core.sweep.evaluate import PointResult

    try:
        raw = json.loads(data)
        return PointResult(index, tuple(raw["values"]), tuple(raw["errors"]),
                           tuple((str(k), v) for k, v in raw["numbers"]), tuple(raw["failed"]))
    except (ValueError, KeyError, TypeError):
        return None


@dataclass(slots=True)
class Prepared:
    """A read spec with its inputs: the parameters resolved against the config, every workload, the base config as
    loaded (its source map locates settings) and the texts the workers get."""

    spec: Spec
    parameters: list[Parameter]
    workloads: list[tuple[str, Workload]]
    inputs: Inputs
    config_text: str
    source: SweepSource

    @property
    def shown(self) -> str:
        """What the points run on, as the reports name it: `CONFIG + WORKLOAD, ...`."""
        from yk_cli.load.source import shown_name

        return f"{shown_name(self.spec.config)} + {', '.join(name for name, _ in self.workloads)}"


def check_html_output(fmt: str, output: str | None) -> None:
    """The HTML page goes to a file: a usage error without --output."""
    if fmt == "html" and output is None:
        raise fail_usage("--format html writes a file: add --output FILE (e.g. --output points.html)")


def spec_errors(messages: list[str]) -> Exit:
    """Print a spec's problems and return the exit (2: the spec is an input yk cannot use)."""
    for message in messages:
        echo_error(message)
    return Exit(EXIT_USAGE)


def prepare(spec_file: str, quiet: bool) -> Prepared:
    """Read the spec, its config and workloads (and policies); Exit with every problem when they cannot be used."""
    from pathlib import Path

    from yk_cli.commands.inputs import checked_inputs
    from yk_cli.core.sweep.params import WORKLOAD_FILE, Target
    from yk_cli.core.sweep.points import Parameter
    from yk_cli.load.source import InputError, read_small_text, shown_name
    from yk_cli.load.sweep_inputs import SweepSource
    from yk_cli.load.sweep_spec import SpecError, read_spec, resolve

    try:
        spec = read_spec(spec_file)
    except SpecError as err:
        raise spec_errors(err.messages) from None
    workloads = []
    inputs = None
    for name in spec.workloads:
        inputs = checked_inputs(spec.config, name, None, spec.partition, quiet)
        assert inputs.workload is not None
        workloads.append((shown_name(name), inputs.workload))
    assert inputs is not None
    try:
        parameters = resolve(spec, inputs.tree)
    except SpecError as err:
        raise spec_errors(err.messages) from None
    if len(workloads) > 1:
        names = tuple(name for name, _ in workloads)
        parameters = [Parameter("workload", "workloads", Target(WORKLOAD_FILE), names), *parameters]
    policies = []
    for file, span in spec.policies:
        try:
            policies.append((shown_name(file), read_small_text(file, 1 << 20)))
        except InputError as err:
            raise spec_errors([f"{spec.file}:{span.line}:{span.column}: policy: {err}"]) from None
    _check_policies(spec, policies, inputs.partition)
    config_text = Path(spec.config).read_text(encoding="utf-8")
    texts = tuple((name, Path(file).read_text(encoding="utf-8"))
                  for (name, _), file in zip(workloads, spec.workloads, strict=True))
    source = SweepSource.of(config_text, texts, inputs.partition.display_name, spec.until,
                            tuple(p.path for p in parameters), tuple(policies))
    return Prepared(spec, parameters, workloads, inputs, config_text, source)


def _check_policies(spec: Spec, policies: list[tuple[str, str]], partition: PartitionConfig) -> None:
    """Each policy parses and names only queues the config can have; Exit with every problem otherwise."""
    from yk_cli.core.assertions.references import unknown_queues
    from yk_cli.load.policy import PolicyError, parse_policy

    messages: list[str] = []
    for name, text in policies:
        try:
            policy = parse_policy(text, name)
        except PolicyError as err:
            messages.extend(err.messages)
            continue
        messages.extend(
            f"{name}:{ref.span.line}:{ref.span.column}: assertion {a.name!r}: {a.kind}: {ref.key} {why}"
            for a, ref, why in unknown_queues(policy, partition, True)
        )
    if messages:
        raise spec_errors(messages)


def check_objective(prepared: Prepared, results: Sequence[PointResult]) -> None:
    """The objective and the bounds name metrics some point measured (or, the objective, a parameter); Exit else."""
    from yk_cli.core.sweep.objective import names_parameter, unknown_metric

    spec = prepared.spec
    named: list[tuple[str, Span | None]] = [(bound.metric, span) for bound, span in spec.bounds]
    if spec.objective is not None and not names_parameter(spec.objective[1], prepared.parameters):
        named.insert(0, (spec.objective[1], spec.objective_span))
    messages = []
    for key, span in named:
        unknown = unknown_metric(results, key)
        if unknown:
            where = f"{spec.file}:{span.line}:{span.column}" if span else spec.file
            messages.append(f"{where}: {unknown}")
    if messages:
        for message in messages:
            echo_error(message)
        raise Exit(EXIT_USAGE)


