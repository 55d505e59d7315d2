"""The Dask executor: the shared inputs scattered to every worker once, chunks as futures, lost chunks resubmitted."""

from __future__ import annotations

import importlib
import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from importlib import metadata
from typing import Any, Generic, TypeVar

from yk_cli.execute.chunks import Chunk, Failure, describe, evaluate_chunk, guided_chunks, singles, spans
from yk_cli.execute.collect import Collector, Progress
from yk_cli.execute.errors import ExecutorError
from yk_cli.execute.spec import ExecutorSpec, Kind

Client = Any
"""distributed.Client: several of its methods are untyped, and mypy runs without Dask installed, so yk calls Dask
through Any (imported when a Dask executor runs)."""
Future = Any
"""distributed.Future."""

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")

DASK_MISSING = "the Dask executors need Dask's distributed scheduler: pip install 'yk[dask]'"

RETRIES = 2
"""Reruns of a chunk that raised outside the evaluation (an evaluation's own exception is a result, never retried).
A worker that dies is the scheduler's business: it reruns the worker's tasks elsewhere, up to
distributed.scheduler.allowed-failures times (3 by default), then reports KilledWorker."""

MAX_RESUBMITS = 3
"""Times the chunks that ended in KilledWorker (or whose inputs were lost) are submitted again."""

CONNECT_TIMEOUT = 10.0
"""Seconds to reach an existing scheduler."""


class DaskSession(Generic[S, P, R]):
    """A Dask client kept for every run() of a session, on an existing cluster (dask://) or a LocalCluster of
    `workers` processes started here: the workers' yk checked once, the shared inputs scattered once (and again only
    if every worker holding them was lost)."""

    def __init__(self, evaluate: Callable[[S, P], R], shared: S, spec: ExecutorSpec, workers: int) -> None:
        try:
            self._distributed: Any = importlib.import_module("distributed")
        except ImportError as exc:
            raise ExecutorError(DASK_MISSING) from exc
        self.evaluate, self.shared = evaluate, shared
        self.kind: Kind = spec.kind
        self._stack = ExitStack()
        try:
            self.client: Client = self._stack.enter_context(_client(self._distributed, spec, workers))
            _check_versions(self.client)
        except BaseException:
            self._stack.close()
            raise
        self._shared_future: Future | None = None
        self._runs = 0
        self._session = uuid.uuid4().hex[:8]
        # every worker's threads (scheduler_info() lists only 5 workers in older Dasks)
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(self, points: Sequence[P], progress: Progress | None = None) -> list[R]:
        """Every point on the cluster; chunks that ended in KilledWorker are submitted again, MAX_RESUBMITS times."""
        distributed = self._distributed
        lost_kinds = (distributed.client.FutureCancelledError, distributed.scheduler.KilledWorker)
        client = self.client
        collector: Collector[R] = Collector(len(points), progress)
        pending = guided_chunks(points, self.workers) if points else []
        resubmits = 0
        self._runs += 1
        while pending:
            if self._shared_future is None or self._shared_future.status != "finished":
                self._shared_future = _scatter(client, self.shared)
            keys = [f"yk-evaluate-{self._session}-{self._runs}-{resubmits}-{chunk.start}" for chunk in pending]
            futures = client.map(
                evaluate_chunk, [self.evaluate] * len(pending), [self._shared_future] * len(pending), pending,
                key=keys, retries=RETRIES, pure=False,
            )  # fmt: skip
            running: dict[Future, Chunk[P]] = dict(zip(futures, pending, strict=True))
            lost: list[Chunk[P]] = []
            for future in distributed.as_completed(futures, loop=client.loop):
                chunk = running.pop(future)
                if future.status == "cancelled":
                    if collector.needed(chunk):  # the shared inputs were lost with every worker holding them
                        lost.append(chunk)
                    continue
                try:
                    outcome = future.result()
                except lost_kinds:
                    lost.append(chunk)
                    continue
                except Exception as exc:  # raised outside the evaluation RETRIES + 1 times (its result not picklable)
                    outcome = Failure(chunk.start, describe(exc), "")
                collector.accept(chunk, outcome)
                unneeded = [f for f, c in running.items() if not collector.needed(c)]
                if unneeded:
                    client.cancel(unneeded)
            pending = singles([chunk for chunk in lost if collector.needed(chunk)])
            if pending:
                resubmits += 1
                if resubmits > MAX_RESUBMITS:
                    raise ExecutorError(
                        f"Dask workers kept dying (KilledWorker, {resubmits} times); points {spans(pending)} never "
                        "finished"
                    )
        return collector.finish()

    def close(self, abort: bool) -> None:
        """Release the client (and close the LocalCluster this session started); its futures go with it, so
        `abort` changes nothing."""
        self._stack.close()


@contextmanager
def _client(distributed: Any, spec: ExecutorSpec, workers: int) -> Iterator[Client]:
    """A client of the scheduler at spec.address, or of a LocalCluster on 127.0.0.1 that ends with the block."""
    if spec.kind == "dask":
        try:
            client = distributed.Client(spec.address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"cannot reach the Dask scheduler at {spec.address}: {describe(exc)}") from None
        with client:
            yield client
        return
    cluster = distributed.LocalCluster(**local_cluster_options(workers))
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


def local_cluster_options(workers: int) -> dict[str, Any]:
    """distributed.LocalCluster's arguments for `workers` processes of one thread each, every port on 127.0.0.1 (the
    scheduler's HTTP server, without the dashboard, on a free port rather than 8787), Dask's logs below errors quiet."""
    return {
        "n_workers": workers,
        "threads_per_worker": 1,
        "processes": True,
        "host": "127.0.0.1",
        "dashboard_address": None,
        "worker_dashboard_address": None,
        "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"},
        "silence_logs": logging.ERROR,
    }


def _yk_version() -> str:
    """On a worker: the yk installed there."""
    return metadata.version("yk")


def _check_versions(client: Client) -> None:
    """Every worker runs this yk: a different one could give different results."""
    here = _yk_version()
    try:
        versions: dict[str, str] = client.run(_yk_version)
    except Exception as exc:
        raise ExecutorError(f"the Dask workers cannot run yk ({describe(exc)}): install 'yk[dask]' on them") from None
    if not versions:
        raise ExecutorError("the Dask cluster has no workers")
    other = {address: version for address, version in versions.items() if version != here}
    if other:
        address, version = sorted(other.items())[0]
        raise ExecutorError(f"the Dask worker {address} runs yk {version}, this is yk {here}: install the same yk")


def _scatter(client: Client, shared: S) -> Future:
    """The shared inputs on every worker, sent once each (hash=False: no tokenizing of a large input)."""
    try:
        future: Future = client.scatter(shared, broadcast=True, hash=False)
    except Exception as exc:
        raise ExecutorError(f"the shared inputs cannot be sent to the Dask workers: {describe(exc)}") from exc
    return future
