"""Many independent, deterministic evaluations on this process, local worker processes or a Dask cluster."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar

from yk_cli.execute.cache import Cache
from yk_cli.execute.chunks import describe
from yk_cli.execute.collect import Progress
from yk_cli.execute.errors import EvaluationError, ExecutorError
from yk_cli.execute.spec import FORMS, ExecutorSpec, default_workers, parse_executor

__all__ = [
    "FORMS",
    "Cache",
    "EvaluationError",
    "ExecutorError",
    "ExecutorSpec",
    "Progress",
    "parse_executor",
    "run_all",
]

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")


def run_all(
    evaluate: Callable[[S, P], R],
    shared: S,
    points: Sequence[P],
    executor: str = "local",
    jobs: int | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """evaluate(shared, point) for every point, in the order of `points` whichever executor runs them.

    `evaluate` is a top-level (picklable) function; `shared` reaches each worker once; `executor` is one of FORMS
    (a ValueError otherwise); `jobs` is the number of workers of "local" and "dask-local" when the string gives none
    (default: the cores available); `progress(done, total)` is called in this thread as points finish. An exception in
    `evaluate` is an EvaluationError for the lowest point that raised (never retried); a worker that dies has its
    points rerun; ExecutorError when the executor cannot run them."""
    spec = parse_executor(executor)
    workers = spec.workers or default_workers(jobs)
    if not points:
        return []
    if spec.kind == "serial":
        from yk_cli.execute.serial import run_serial

        return run_serial(evaluate, shared, points, progress)
    try:
        pickle.dumps(evaluate)
    except Exception as exc:
        raise ExecutorError(f"evaluate must be a top-level function to reach workers: {describe(exc)}") from exc
    if spec.kind == "local":
        from yk_cli.execute.local import run_local

        return run_local(evaluate, shared, points, min(workers, len(points)), progress)
    from yk_cli.execute.dask_engine import run_dask

    return run_dask(evaluate, shared, points, spec, min(workers, len(points)), progress)
