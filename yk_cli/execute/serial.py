"""The serial executor: every point in this process, in order (for tests and debugging)."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar

from yk_cli.execute.chunks import Chunk, evaluate_chunk
from yk_cli.execute.collect import Collector, Progress

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")


def run_serial(
    evaluate: Callable[[S, P], R], shared: S, points: Sequence[P], progress: Progress | None
) -> list[R]:
    """Each point in turn, on a copy of `shared` made by pickling it, as every worker of the other executors gets it
    (so that an input that cannot be sent, or an evaluation that changes it, shows here too); stops at the first
    point that raises."""
    copy: S = pickle.loads(pickle.dumps(shared, pickle.HIGHEST_PROTOCOL))
    collector: Collector[R] = Collector(len(points), progress)
    for index, point in enumerate(points):
        chunk = Chunk(index, (point,))
        collector.accept(chunk, evaluate_chunk(evaluate, copy, chunk))
        if collector.failures:
            break
    return collector.finish()
