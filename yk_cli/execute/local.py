"""The local executor: a pool of worker processes started with "spawn", each reading the shared inputs once."""

from __future__ import annotations

import multiprocessing
import pickle
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Generic, TypeVar

from yk_cli.execute.chunks import Chunk, Failure, describe, evaluate_chunk, guided_chunks, singles, spans
from yk_cli.execute.collect import Collector, Progress
from yk_cli.execute.errors import ExecutorError
from yk_cli.execute.spec import Kind

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")

START_METHOD = "spawn"
"""Workers start from a fresh interpreter and unpickle the shared inputs, exactly as a Dask worker does: the same on
Linux, macOS and Windows, safe when this process runs threads (a progress bar, a Dask client) where fork is not, and
nothing reaches a worker but what is sent. It costs an interpreter start and yk's imports per worker, once per
session (a run_all is a session of one run)."""

MAX_RESTARTS = 3
"""Times the pool is restarted after a worker process died, in one run(), before that run gives up."""

STOP_SECONDS = 5.0
"""How long a terminated worker process is waited for (SIGTERM ends one that runs Python code at once)."""

_worker: dict[str, Any] = {}
"""In a worker process: the evaluation and the shared inputs (set once by _install), or the error setting them up."""


class _SetupFailed(Exception):
    """A worker could not load the evaluation or the shared inputs."""


def _install(evaluate: Callable[[Any, Any], Any], payload: str) -> None:
    """The pool's initializer: read and unpickle the shared inputs once for this worker's life."""
    _worker.clear()
    _worker["evaluate"] = evaluate
    try:
        _worker["shared"] = pickle.loads(Path(payload).read_bytes())
    except Exception as exc:
        _worker["setup"] = describe(exc)


def _run_chunk(chunk: Chunk[Any]) -> list[Any] | Failure:
    if "setup" in _worker:
        raise _SetupFailed(_worker["setup"])
    return evaluate_chunk(_worker["evaluate"], _worker["shared"], chunk)


class LocalSession(Generic[S, P, R]):
    """A pool of `workers` spawned processes kept for every run() of a session: the shared inputs pickled once, into
    a private temporary file that each worker reads in its initializer. (As the initializer's argument they would go
    down each worker's start-up pipe: this process would wait for every worker to import yk in turn, and wait forever
    for one that failed to start, python 3.11's spawn_posix writing into a pipe whose reader it still holds.) The
    pool of `workers` processes (whatever the size of the first run) starts at the first run with points, and is
    started again after a worker died: the new pool serves the later runs."""

    kind: Kind = "local"

    def __init__(self, evaluate: Callable[[S, P], R], shared: S, workers: int) -> None:
        try:
            data = pickle.dumps(shared, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            raise ExecutorError(f"the shared inputs cannot be sent to worker processes: {describe(exc)}") from exc
        self.evaluate, self.workers = evaluate, workers
        self._folder = tempfile.TemporaryDirectory(prefix="yk-execute-")
        self._payload = str(Path(self._folder.name) / "shared.pickle")
        Path(self._payload).write_bytes(data)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, points: Sequence[P], progress: Progress | None = None) -> list[R]:
        """Every point on the pool; the chunks a dead worker lost run again on a fresh pool, MAX_RESTARTS times."""
        collector: Collector[R] = Collector(len(points), progress)
        pending = guided_chunks(points, self.workers)
        restarts = 0
        while True:
            lost = self._run_pool(pending, collector) if pending else []
            pending = singles([chunk for chunk in lost if collector.needed(chunk)])
            if not pending:
                return collector.finish()
            restarts += 1
            if restarts > MAX_RESTARTS:
                raise ExecutorError(
                    f"worker processes died {restarts} times (killed, out of memory, crashed, or could not start); "
                    f"points {spans(pending)} never finished"
                )

    def close(self, abort: bool) -> None:
        """Stop the workers (terminated when `abort`, else shut down once idle) and remove the shared inputs' file."""
        try:
            if abort:
                self._terminate()
            elif self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None
        finally:
            self._folder.cleanup()

    def _pool_now(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context(START_METHOD)
            self._pool = ProcessPoolExecutor(
                self.workers, context, initializer=_install, initargs=(self.evaluate, self._payload)
            )
        return self._pool

    def _terminate(self) -> None:
        """Stop the workers now, their chunks unfinished (an interruption, a set-up error, a broken pool), and wait
        for them to exit: no process of the pool outlives it."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes: list[Any] = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(STOP_SECONDS)

    def _run_pool(self, chunks: list[Chunk[P]], collector: Collector[R]) -> list[Chunk[P]]:
        """Run the chunks on the pool; the chunks lost when a worker died, in order (the pool is then dropped)."""
        pool = self._pool_now()
        lost: list[Chunk[P]] = []
        try:
            running: dict[Future[list[R] | Failure], Chunk[P]] = {pool.submit(_run_chunk, c): c for c in chunks}
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: running[f].start):
                    chunk = running.pop(future)
                    if future.cancelled():
                        continue
                    try:
                        outcome = future.result()
                    except BrokenProcessPool:
                        lost.append(chunk)
                        continue
                    except _SetupFailed as exc:
                        raise ExecutorError(f"a worker process could not load the shared inputs: {exc}") from None
                    except Exception as exc:  # the result could not come back (not picklable, say)
                        outcome = Failure(chunk.start, describe(exc), "")
                    collector.accept(chunk, outcome)
                for future, chunk in running.items():
                    if not collector.needed(chunk):
                        future.cancel()
        except BaseException:  # an interruption or a set-up error: stop the workers rather than wait for their chunks
            self._terminate()
            raise
        if lost:
            self._terminate()
        return sorted(lost, key=lambda chunk: chunk.start)
