"""How a run of evaluations fails: an evaluation raised (EvaluationError), or the executor did (ExecutorError)."""

from __future__ import annotations


class EvaluationError(Exception):
    """`evaluate` raised on one point: never retried; the lowest such point, as a serial run would meet it first."""

    def __init__(self, point_index: int, message: str, detail: str = "") -> None:
        super().__init__(point_index, message)
        self.point_index = point_index
        self.message = message
        self.detail = detail
        """The worker's traceback, for debugging (the message alone is what a user reads)."""

    def __str__(self) -> str:
        return f"point {self.point_index}: {self.message}"


class ExecutorError(Exception):
    """The executor could not run the points: a bad set-up, a missing engine, an unreachable scheduler, or workers
    that kept dying."""
