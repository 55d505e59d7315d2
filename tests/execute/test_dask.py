"""The Dask executors on a LocalCluster of two single-threaded worker processes on 127.0.0.1 (one per module): the
same results as the serial executor, shared inputs scattered once per worker, a killed worker's points rerun."""

from __future__ import annotations

import os
import pickle
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.execute import toy
from yk_cli.execute import EvaluationError, ExecutorError, dask_engine, open_session, run_all
from yk_cli.execute.dask_engine import local_cluster_options

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed scheduler is not installed (pip install 'yk[dask]')"
)

POINTS = list(range(16))


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """dask://127.0.0.1:PORT of a LocalCluster of two worker processes with one thread each, on loopback only."""
    with distributed.LocalCluster(**local_cluster_options(2)) as local:
        address: str = local.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        assert all(worker.startswith("tcp://127.0.0.1:") for worker in local.scheduler_info["workers"])
        yield "dask://" + address.removeprefix("tcp://")


def expected(shared: toy.Shared, points: list[int]) -> list[tuple[int, float, int]]:
    return [toy.seeded(shared, point) for point in points]


def test_serial_and_a_dask_cluster_give_the_same_results(shared: toy.Shared, cluster: str) -> None:
    on_dask = run_all(toy.seeded, shared, POINTS, cluster)
    serial = run_all(toy.seeded, shared, POINTS, "serial")
    assert on_dask == serial == expected(shared, POINTS)
    assert pickle.dumps(on_dask) == pickle.dumps(serial)


def test_shared_inputs_are_scattered_once_per_worker(shared: toy.Shared, tmp_path: Path, cluster: str) -> None:
    run_all(toy.seeded, shared, POINTS, cluster)
    readers = toy.unpickled_by(tmp_path)
    assert len(readers) == 2 == len(set(readers))  # broadcast: each of the two workers, once


def test_the_order_is_the_points_order(shared: toy.Shared, cluster: str) -> None:
    points = [15, 3, 9, 0, 3, 12, 1]
    calls: list[tuple[int, int]] = []
    results = run_all(toy.seeded, shared, points, cluster, progress=lambda done, total: calls.append((done, total)))
    assert results == expected(shared, points)
    assert calls[-1] == (len(points), len(points))


def test_an_evaluation_error_names_the_first_failing_point(tmp_path: Path, cluster: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=20_000)
    with pytest.raises(EvaluationError) as raised:
        run_all(toy.fails_on_odd_after_two, shared, list(range(40)), cluster)
    assert (raised.value.point_index, raised.value.message) == (3, "ValueError: point 3 is odd")


def test_a_killed_worker_has_its_points_rerun(tmp_path: Path, cluster: str) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, kill_point=5)
    results = run_all(toy.dies_once, shared, POINTS, cluster)
    assert (tmp_path / "killed").exists()
    assert results == expected(shared, POINTS)


def test_dask_local_starts_its_own_cluster(tmp_path: Path) -> None:
    shared = toy.make_shared(tmp_path, megabytes=1, work=20_000)
    assert run_all(toy.seeded, shared, POINTS, "dask-local:2") == expected(shared, POINTS)
    readers = toy.unpickled_by(tmp_path)
    assert len(readers) == 2 == len(set(readers))


def test_an_unreachable_scheduler_is_an_executor_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("yk_cli.execute.dask_engine.CONNECT_TIMEOUT", 1.0)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(ExecutorError, match=f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}"):
        run_all(toy.seeded, None, [1], f"dask://127.0.0.1:{port}")


def test_a_session_scatters_once_for_every_round(
    tmp_path: Path, cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scatters = counted(monkeypatch, dask_engine, "_scatter")
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    rounds = [[0, 1, 2], [3, 4, 5, 6], [], [7]]
    with open_session(toy.pid_of, shared, cluster) as session:
        assert (session.kind, session.workers) == ("dask", 2)
        found = [session.run(points) for points in rounds]
    assert [p for one in found for p, _ in one] == list(range(8))
    assert len(scatters) == 1
    readers = toy.unpickled_by(tmp_path)
    assert len(readers) == 2 == len(set(readers))  # the two workers, once each, over three rounds
    assert {pid for one in found for _, pid in one} <= set(readers)


def test_a_dask_local_session_starts_one_cluster_and_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clusters = counted(monkeypatch, distributed, "LocalCluster")
    versions = counted(monkeypatch, dask_engine, "_check_versions")
    shared = toy.make_shared(tmp_path, megabytes=1, work=1_000)
    with open_session(toy.pid_of, shared, "dask-local:2") as session:
        assert (session.kind, session.workers) == ("dask-local", 2)
        pids = {pid for points in ([0, 1], [2, 3], [4, 5]) for _, pid in session.run(points)}
    assert len(clusters) == len(versions) == 1
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    assert clusters[0].status == distributed.core.Status.closed
    readers = toy.unpickled_by(tmp_path)
    assert len(readers) == 2 == len(set(readers))
    assert all(toy.gone(pid) for pid in readers)


def counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[Any]:
    """What each call of owner.name returned, the calls passed through."""
    original = getattr(owner, name)
    returned: list[Any] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        returned.append(original(*args, **kwargs))
        return returned[-1]

    monkeypatch.setattr(owner, name, counting)
    return returned
