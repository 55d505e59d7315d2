"""The serial executor: every point in this process, in order (for tests and debugging)."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from yk_cli.execute.chunks import Chunk, evaluate_chunk
from yk_cli.execute.collect import Collector, Progress
from yk_cli.execute.spec import Kind

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")


class SerialSession(Generic[S, P, R]):
    """Each point in turn in this process, on a copy of `shared` made by pickling it once, as every worker of the
    other executors gets it (so that an input that cannot be sent, or an evaluation that changes it, shows here too)."""

    workers = 1
    kind: Kind = "serial"

    def __init__(self, evaluate: Callable[[S, P], R], shared: S) -> None:
        self.evaluate = evaluate
        self.copy: S = pickle.loads(pickle.dumps(shared, pickle.HIGHEST_PROTOCOL))

    def run(self, points: Sequence[P], progress: Progress | None = None) -> list[R]:
        """The points in order; stops at the first that raises."""
        collector: Collector[R] = Collector(len(points), progress)
        for index, point in enumerate(points):
            chunk = Chunk(index, (point,))
            collector.accept(chunk, evaluate_chunk(self.evaluate, self.copy, chunk))
            if collector.failures:
                break
        return collector.finish()

    def close(self, abort: bool) -> None:
        """Nothing to stop."""
