"""Guided chunks: contiguous, in order, shrinking to single points; lost chunks rerun as single points."""

from __future__ import annotations

import pytest

from yk_cli.execute.chunks import Chunk, guided_chunks, singles, spans


@pytest.mark.parametrize(("count", "workers"), [(1, 1), (40, 2), (100, 2), (1000, 8), (3, 16)])
def test_chunks_cover_the_points_in_order_and_end_small(count: int, workers: int) -> None:
    points = [f"p{index}" for index in range(count)]
    chunks = guided_chunks(points, workers)
    assert [point for chunk in chunks for point in chunk.points] == points
    assert [chunk.start for chunk in chunks] == [sum(len(c.points) for c in chunks[:i]) for i in range(len(chunks))]
    sizes = [len(chunk.points) for chunk in chunks]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == 1
    assert sizes[0] <= max(1, -(-count // (4 * workers)))


def test_forty_points_on_two_workers() -> None:
    assert [len(chunk.points) for chunk in guided_chunks(list(range(40)), 2)] == [
        5, 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,
    ]  # fmt: skip


def test_singles_and_spans() -> None:
    lost = [Chunk(7, ("h",)), Chunk(2, ("c", "d"))]
    assert singles(lost) == [Chunk(2, ("c",)), Chunk(3, ("d",)), Chunk(7, ("h",))]
    assert spans(lost) == "2-3, 7"
    assert spans([Chunk(index * 2, (index,)) for index in range(10)], most=3) == "0, 2, 4, ..."
