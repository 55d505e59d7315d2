"""The serial and local executors: the same results in the order of the points, shared inputs sent once per worker,
killed workers' points rerun, evaluation errors as EvaluationError."""

from __future__ import annotations

import os
import pickle
import sys
import threading
from pathlib import Path

import pytest

from tests.execute import toy
from yk_cli.execute import EvaluationError, ExecutorError, run_all

POINTS = list(range(16))


def expected(shared: toy.Shared, points: list[int]) -> list[tuple[int, float, int]]:
    return [toy.seeded(shared, point) for point in points]


def test_serial_and_two_local_workers_give_the_same_results(shared: toy.Shared) -> None:
    serial = run_all(toy.seeded, shared, POINTS, "serial")
    local = run_all(toy.seeded, shared, POINTS, "local:2")
    assert serial == local == expected(shared, POINTS)
    assert pickle.dumps(serial) == pickle.dumps(local)


def test_the_order_is_the_points_order_not_the_completion_order(shared: toy.Shared) -> None:
    points = [15, 3, 9, 0, 3, 12, 1]  # any order, repeats included
    assert run_all(toy.seeded, shared, points, "local", jobs=2) == expected(shared, points)


def test_shared_inputs_reach_each_worker_once(shared: toy.Shared, tmp_path: Path) -> None:
    run_all(toy.seeded, shared, POINTS, "local:2")
    readers = toy.unpickled_by(tmp_path)
    assert os.getpid() not in readers
    assert 1 <= len(readers) <= 2
    assert len(set(readers)) == len(readers)  # once per worker, not once per point


def test_a_killed_worker_has_its_points_rerun(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, kill_point=5)
    results = run_all(toy.dies_once, shared, POINTS, "local:2")
    assert (tmp_path / "killed").exists()
    assert results == expected(shared, POINTS)


def test_a_point_that_kills_every_worker_ends_the_run(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000, kill_point=2)
    with pytest.raises(ExecutorError, match=r"worker processes died 4 times .*; points (2|2-3|1-2) never finished"):
        run_all(toy.always_dies, shared, list(range(4)), "local:2")  # the point on the other worker may die with it


@pytest.mark.parametrize("executor", ["serial", "local:2"])
def test_an_evaluation_error_names_the_first_failing_point(tmp_path: Path, executor: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=20_000)
    with pytest.raises(EvaluationError) as raised:
        run_all(toy.fails_on_odd_after_two, shared, list(range(40)), executor)
    assert raised.value.point_index == 3
    assert raised.value.message == "ValueError: point 3 is odd"
    assert str(raised.value) == "point 3: ValueError: point 3 is odd"
    assert "Traceback" in raised.value.detail


@pytest.mark.parametrize("executor", ["serial", "local:2"])
def test_progress_counts_every_point_in_the_calling_thread(shared: toy.Shared, executor: str) -> None:
    calls: list[tuple[int, int, str]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total, threading.current_thread().name))

    run_all(toy.seeded, shared, POINTS, executor, progress=progress)
    assert [done for done, _, _ in calls] == sorted(done for done, _, _ in calls)
    assert calls[-1][:2] == (len(POINTS), len(POINTS))
    assert {total for _, total, _ in calls} == {len(POINTS)}
    assert {name for _, _, name in calls} == {threading.current_thread().name}


def test_no_points_start_no_workers(shared: toy.Shared, tmp_path: Path) -> None:
    assert run_all(toy.seeded, shared, [], "local:2") == []
    assert toy.unpickled_by(tmp_path) == []


def test_evaluate_must_be_picklable(shared: toy.Shared) -> None:
    with pytest.raises(ExecutorError, match="evaluate must be a top-level function"):
        run_all(lambda s, p: p, shared, [1, 2], "local:2")


def test_shared_inputs_must_be_picklable() -> None:
    with pytest.raises(ExecutorError, match="the shared inputs cannot be sent"):
        run_all(toy.seeded, threading.Lock(), [1, 2], "local:2")


def test_without_dask_the_message_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    with pytest.raises(ExecutorError, match=r"pip install 'yk\[dask\]'"):
        run_all(toy.seeded, None, [1], "dask-local:1")


def test_an_error_of_the_progress_callback_is_its_own(shared: toy.Shared) -> None:
    def progress(done: int, total: int) -> None:
        raise RuntimeError("the bar broke")

    with pytest.raises(RuntimeError, match="the bar broke"):
        run_all(toy.seeded, shared, POINTS, "local:2", progress=progress)
