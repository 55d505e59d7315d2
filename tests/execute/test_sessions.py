"""Sessions: an executor kept open for rounds of points; the same results as run_all, the workers and the shared
inputs they read kept from round to round, a killed worker or an evaluation error in one round leaving the next
ones to run, and the workers gone with the session."""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
from pathlib import Path

import pytest

from tests.execute import toy
from yk_cli.execute import EvaluationError, open_session, run_all

ROUNDS = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15]]
ALL = [point for points in ROUNDS for point in points]


DASK = pytest.param(
    "dask-local:2",
    marks=pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="Dask is not installed"),
)


def children() -> list[multiprocessing.process.BaseProcess]:
    """This process's live child processes (reaping those that exited)."""
    return multiprocessing.active_children()


@pytest.mark.parametrize("executor", ["serial", "local:2", DASK])
def test_rounds_give_what_run_all_gives(tmp_path: Path, executor: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=20_000)
    with open_session(toy.seeded, shared, executor) as session:
        assert (session.kind, session.workers) == (executor.partition(":")[0], 1 if executor == "serial" else 2)
        rounds = [session.run(points) for points in ROUNDS]
    in_one_run = run_all(toy.seeded, shared, ALL, executor)
    assert [r for found in rounds for r in found] == in_one_run == [toy.seeded(shared, p) for p in ALL]


def test_local_workers_and_their_inputs_last_for_the_session(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    with open_session(toy.pid_of, shared, "local:2") as session:
        assert session.workers == 2
        pids = {pid for points in ROUNDS for _, pid in session.run(points)}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    readers = toy.unpickled_by(tmp_path)
    assert len(readers) == len(set(readers)) <= 2 and pids <= set(readers)  # each worker read them once, in all
    assert all(toy.gone(pid) for pid in readers)
    assert children() == []


def test_a_pool_larger_than_the_first_round_serves_a_larger_one(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=400_000)
    with open_session(toy.pid_of, shared, "local:2") as session:
        first = {pid for _, pid in session.run([0])}
        later = {pid for _, pid in session.run(list(range(1, 9)))}
    assert len(first) == 1 and len(later) == 2  # two workers: the first round's size did not cap the pool
    assert len(toy.unpickled_by(tmp_path)) == 2


def test_an_exception_in_the_block_terminates_the_workers(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    with pytest.raises(KeyboardInterrupt), open_session(toy.pid_of, shared, "local:2") as session:
        pids = {pid for _, pid in session.run([0, 1, 2, 3])}
        raise KeyboardInterrupt
    assert pids and all(toy.gone(pid) for pid in pids)
    assert children() == []


@pytest.mark.parametrize("executor", ["local:2", DASK])
def test_a_worker_killed_in_the_second_round_leaves_the_third_to_run(tmp_path: Path, executor: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=20_000, kill_point=7)
    with open_session(toy.dies_once, shared, executor) as session:
        rounds = [session.run(points) for points in ROUNDS[:2]]
        assert (tmp_path / "killed").exists()
        rounds.append(session.run(ROUNDS[2]))
    assert [r for found in rounds for r in found] == [toy.seeded(shared, p) for p in ALL]


@pytest.mark.parametrize("executor", ["serial", "local:2", DASK])
def test_an_evaluation_error_leaves_the_session_usable(tmp_path: Path, executor: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    with open_session(toy.fails_on_odd_after_two, shared, executor) as session:
        with pytest.raises(EvaluationError) as raised:
            session.run([0, 1, 2, 3, 4])
        assert raised.value.point_index == 3
        assert session.run([0, 2, 4, 6]) == [toy.seeded(shared, p) for p in (0, 2, 4, 6)]


def test_an_empty_round_starts_nothing(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    with open_session(toy.seeded, shared, "local:2") as session:
        assert session.run([]) == []
        assert children() == []
    assert toy.unpickled_by(tmp_path) == []


def test_a_bad_executor_is_refused_before_anything_starts(shared: toy.Shared) -> None:
    with pytest.raises(ValueError, match="unknown executor 'ray://x'"), open_session(toy.seeded, shared, "ray://x"):
        pass  # pragma: no cover
