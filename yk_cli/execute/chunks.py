"""Points in contiguous chunks (large first, single points last) and the worker-side loop over one chunk."""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S")
P = TypeVar("P")
R = TypeVar("R")

GUIDED = 4
"""A chunk holds 1/(GUIDED x workers) of the points not yet chunked: a few large chunks keep the per-task overhead
small, and chunks shrink to single points at the end, so that no worker is left with a long tail."""


@dataclass(frozen=True)
class Chunk(Generic[P]):
    """The points start, start + 1, ... of a run."""

    start: int
    points: tuple[P, ...]


@dataclass(frozen=True)
class Failure:
    """The point of a chunk whose evaluation raised, what it raised, and the worker's traceback."""

    index: int
    message: str
    detail: str


def guided_chunks(points: Sequence[P], workers: int) -> list[Chunk[P]]:
    """The points in order, in chunks of ceil(remaining / (GUIDED x workers)) points."""
    chunks: list[Chunk[P]] = []
    start = 0
    while start < len(points):
        size = max(1, math.ceil((len(points) - start) / (GUIDED * workers)))
        chunks.append(Chunk(start, tuple(points[start : start + size])))
        start += size
    return chunks


def evaluate_chunk(evaluate: Callable[[S, P], R], shared: S, chunk: Chunk[P]) -> list[R] | Failure:
    """Every point's result in order, or the first point that raised (the chunk stops there)."""
    results: list[R] = []
    for offset, point in enumerate(chunk.points):
        try:
            results.append(evaluate(shared, point))
        except Exception as exc:
            return Failure(chunk.start + offset, describe(exc), traceback.format_exc())
    return results


def describe(exc: BaseException) -> str:
    """An exception as one line: its type and its message."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def singles(chunks: Sequence[Chunk[P]]) -> list[Chunk[P]]:
    """The points of chunks as chunks of one point each, in order (a rerun after a worker died: a point that kills
    its worker then takes no other point down with it)."""
    return [
        Chunk(chunk.start + offset, (point,))
        for chunk in sorted(chunks, key=lambda chunk: chunk.start)
        for offset, point in enumerate(chunk.points)
    ]


def spans(chunks: Sequence[Chunk[P]], most: int = 8) -> str:
    """The point indices of chunks as ranges, "2-3, 7, 9-12", the first `most` of them."""
    indices = sorted(chunk.start + offset for chunk in chunks for offset in range(len(chunk.points)))
    ranges: list[list[int]] = []
    for index in indices:
        if ranges and index == ranges[-1][1] + 1:
            ranges[-1][1] = index
        else:
            ranges.append([index, index])
    shown = [f"{first}-{last}" if last > first else str(first) for first, last in ranges[:most]]
    return ", ".join(shown) + (", ..." if len(ranges) > most else "")
