"""Results gathered by point index whatever order chunks finish in, the progress count, and the first failure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from yk_cli.execute.chunks import Chunk, Failure
from yk_cli.execute.errors import EvaluationError

R = TypeVar("R")

Progress = Callable[[int, int], None]


class Collector(Generic[R]):
    """The results of a run so far, by point index."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.progress = progress
        self.results: dict[int, R] = {}
        self.failures: list[Failure] = []

    def accept(self, chunk: Chunk[Any], outcome: list[R] | Failure) -> None:
        """A finished chunk: its results, or its failure."""
        if isinstance(outcome, Failure):
            self.failures.append(outcome)
            return
        for offset, result in enumerate(outcome):
            self.results[chunk.start + offset] = result
        if self.progress is not None:
            self.progress(len(self.results), self.total)

    def first_failure(self) -> Failure | None:
        """The failed point of lowest index (the one a serial run stops at, once every earlier chunk finished)."""
        return min(self.failures, key=lambda failure: failure.index) if self.failures else None

    def needed(self, chunk: Chunk[Any]) -> bool:
        """Whether a chunk must still run: it comes before every failure seen (later ones would not change the
        outcome, the first failure)."""
        first = self.first_failure()
        return first is None or chunk.start < first.index

    def finish(self) -> list[R]:
        """The results in the order of the points, or the EvaluationError of the first failure."""
        first = self.first_failure()
        if first is not None:
            raise EvaluationError(first.index, first.message, first.detail)
        return [self.results[index] for index in range(self.total)]
