"""Many independent, deterministic evaluations on this process, local worker processes or a Dask cluster."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol, TypeVar

from yk_cli.execute.cache import Cache
from yk_cli.execute.chunks import describe
from yk_cli.execute.collect import Progress
from yk_cli.execute.errors import EvaluationError, ExecutorError
from yk_cli.execute.spec import FORMS, ExecutorSpec, Kind, default_workers, parse_executor

__all__ = [
    "FORMS",
    "Cache",
    "EvaluationError",
    "ExecutorError",
    "ExecutorSpec",
    "Progress",
    "Session",
    "default_workers",
    "open_session",
    "parse_executor",
    "run_all",
]

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")
P_in = TypeVar("P_in", contravariant=True)


class Session(Protocol[P_in, R]):
    """An executor kept open for several rounds of points (`open_session`)."""

    workers: int
    """How many points can run at once: 1 serially, the worker processes locally, every Dask worker's threads."""
    kind: Kind
    """The executor's kind: "serial", "local", "dask-local" or "dask"."""

    def run(self, points: Sequence[P_in], progress: Progress | None = None) -> list[R]:
        """evaluate(shared, point) for every point, in the order of `points`, with run_all's promises."""
        ...


class _Engine(Session[P_in, R], Protocol):
    """A session as open_session drives it: closed when the block ends."""

    def close(self, abort: bool) -> None:
        """Stop the workers: at once when `abort` (the block raised), else once they are idle."""
        ...


@contextmanager
def open_session(
    evaluate: Callable[[S, P], R],
    shared: S,
    executor: str = "local",
    jobs: int | None = None,
    most: int | None = None,
) -> Iterator[Session[P, R]]:
    """An executor whose workers, and the shared inputs they hold, last for every run() in the block: rounds of a
    search pay for starting workers and sending the inputs once. Each run() keeps run_all's promises, and its error
    leaves the session usable. `executor` and `jobs` are run_all's; `most` caps the workers (run_all: no more
    processes than points). A ValueError for a bad executor or jobs, before anything starts; ExecutorError when the
    executor cannot start. A local pool starts at the first run() with points; a Dask client (and its LocalCluster)
    at once, to know its workers. The block's end stops the workers: once idle, or at once when the block raised."""
    spec = parse_executor(executor)
    workers = spec.workers or default_workers(jobs)
    if most is not None:
        workers = max(1, min(workers, most))
    session: _Engine[P, R]
    if spec.kind == "serial":
        from yk_cli.execute.serial import SerialSession

        session = SerialSession(evaluate, shared)
    else:
        try:
            pickle.dumps(evaluate)
        except Exception as exc:
            raise ExecutorError(f"evaluate must be a top-level function to reach workers: {describe(exc)}") from exc
        if spec.kind == "local":
            from yk_cli.execute.local import LocalSession

            session = LocalSession(evaluate, shared, workers)
        else:
            from yk_cli.execute.dask_engine import DaskSession

            session = DaskSession(evaluate, shared, spec, workers)
    try:
        yield session
    except BaseException:
        session.close(abort=True)
        raise
    session.close(abort=False)


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
    if spec.workers is None:
        default_workers(jobs)  # a bad count is a ValueError, points or none
    if not points:
        return []
    with open_session(evaluate, shared, executor, jobs, most=len(points)) as session:
        return session.run(points, progress)
