"""Benchmark of yk_cli.execute's executors: 40 toy evaluations of about 0.3 s of CPU each, with 4 MB of shared inputs.

Run: `python benchmarks/executors.py` (about four minutes), `--points N`, `--seconds S` (CPU seconds of one
evaluation), `--runs N` (timed runs of each executor, the median reported; default 3), `--no-dask`, `--no-rounds`.

Targets (issue 27, on this 2-core machine, idle): 1 -> 2 workers at least 1.7x faster, locally and on Dask's
LocalCluster; per-point overhead beyond the evaluation itself under 5 %: the run's wall time x its workers, less the
wall time the evaluations themselves took (each records it), over the latter. Exit status 1 on a miss.

The evaluation is tests/execute/toy.py's `seeded` (pure Python, seeded, deterministic), its length calibrated here.
Every executor's results are checked to be the serial run's. Wall times include everything a command would pay:
starting the worker processes, sending the shared inputs, chunking, gathering; the Dask figures are given with and
without the LocalCluster's start-up (a cluster you connect to with dask://HOST:PORT is already running).

Rounds (yk tune's shape of work): ROUNDS rounds of ROUND_POINTS points, on one session (open_session) and as one
run_all each, on local:2 and dask-local:2; the median of --runs runs of each (about 90 s in all with --runs 3).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.execute import toy  # noqa: E402
from yk_cli.execute import open_session, run_all  # noqa: E402

SPEED_UP = 1.7
OVERHEAD = 0.05
RUNS = [1]
"""Timed runs of each executor (--runs); the median run is reported."""
OVERHEADS: dict[str, float] = {}
"""Each run's overhead beyond its evaluations, by the first word of its label."""
ROUNDS = 5
ROUND_POINTS = 2


def calibrate(folder: Path, seconds: float) -> toy.Shared:
    """Shared inputs whose `work` makes one evaluation take about `seconds` of CPU here."""
    probe = toy.make_shared(folder, work=200_000)
    start = time.process_time()
    for point in range(3):
        toy.seeded(probe, point)
    per_step = (time.process_time() - start) / (3 * probe.work)
    return toy.Shared(probe.blob, max(1_000, round(seconds / per_step)), probe.folder)


def cpu_now() -> float:
    """CPU seconds of this process and of its finished children (worker processes count once they have exited)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(label: str, run: Callable[[], list[tuple[int, float, int]]], expected: list[object], folder: str) -> float:
    """The median wall seconds of RUNS runs; every run's results must be `expected`. Printed with it: the median CPU
    seconds of every process (workers count once they have exited) and the median overhead: the wall time x workers
    beyond the evaluations' own wall time (each evaluation records it), per point and as a share of an evaluation."""
    name = label.split()[0]
    workers = int(name.rpartition(":")[2]) if ":" in name else 1
    walls: list[float] = []
    cpus: list[float] = []
    extra: list[float] = []
    spent: list[float] = []
    for _ in range(RUNS[0]):
        toy.durations(Path(folder))
        cpu = cpu_now()
        start = time.perf_counter()
        results = run()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_now() - cpu)
        if results != expected:
            raise SystemExit(f"{label}: results differ from the serial run's")
        evaluations = toy.durations(Path(folder))
        spent.append(sum(evaluations))
        extra.append(walls[-1] * workers - spent[-1])
    middle = sorted(range(len(walls)), key=lambda run: walls[run])[len(walls) // 2]
    OVERHEADS[name] = extra[middle] / spent[middle]
    print(f"  {label:<40} {walls[middle]:6.2f} s wall {cpus[middle]:6.2f} s CPU   overhead {OVERHEADS[name]:+6.1%} "
          f"({extra[middle] / len(expected) * 1000:+.0f} ms a point)", flush=True)  # fmt: skip
    return walls[middle]


def main() -> int:
    """Print each executor's figures, the speed-ups and the overheads; 1 on a miss of a target."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds of one evaluation")
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask executors out")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each executor; the median run is reported")
    parser.add_argument("--no-rounds", action="store_true", help="leave out rounds on one session vs run_all each")
    args = parser.parse_args()
    RUNS[0] = args.runs
    points = list(range(args.points))
    with tempfile.TemporaryDirectory() as folder:
        shared = calibrate(Path(folder), args.seconds)
        print(f"{len(points)} points of ~{args.seconds} s CPU, shared inputs {len(shared.blob) >> 20} MB, "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before the runs")  # fmt: skip
        expected: list[object] = list(run_all(toy.seeded, shared, points, "serial"))
        walls: dict[str, float] = {}
        for executor in ("serial", "local:1", "local:2"):
            run = partial(run_all, toy.timed_seeded, shared, points, executor)
            walls[executor] = timed(executor, run, expected, folder)
        if not args.no_dask:
            walls.update(dask_walls(shared, points, expected, folder))
        if not args.no_rounds:
            rounds(shared, ("local:2",) if args.no_dask else ("local:2", "dask-local:2"))
        print(f"load average after the runs: {os.getloadavg()[0]:.2f}")
    return report(walls)


def dask_walls(shared: toy.Shared, points: list[int], expected: list[object], folder: str) -> dict[str, float]:
    """dask-local:2 end to end, then 1 and 2 workers of an already running LocalCluster (its start-up apart)."""
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        print("  (Dask not installed: pip install 'yk[dask]')")
        return {}
    from yk_cli.execute.dask_engine import local_cluster_options

    run = partial(run_all, toy.timed_seeded, shared, points, "dask-local:2")
    walls = {"dask-local:2": timed("dask-local:2 (cluster start-up included)", run, expected, folder)}
    for workers in (1, 2):
        start = time.perf_counter()
        with distributed.LocalCluster(**local_cluster_options(workers)) as cluster:
            print(f"  {f'LocalCluster({workers}) start-up':<40} {time.perf_counter() - start:6.2f} s")
            address = "dask://" + cluster.scheduler_address.removeprefix("tcp://")
            run = partial(run_all, toy.timed_seeded, shared, points, address)
            walls[f"dask:{workers}"] = timed(f"dask:{workers} (running LocalCluster)", run, expected, folder)
    return walls


def rounds(shared: toy.Shared, executors: tuple[str, ...]) -> None:
    """The median wall seconds of ROUNDS rounds of ROUND_POINTS points on one session, and as one run_all each."""
    batches = [list(range(start, start + ROUND_POINTS)) for start in range(0, ROUNDS * ROUND_POINTS, ROUND_POINTS)]
    expected = [toy.seeded(shared, point) for batch in batches for point in batch]

    def one_session(executor: str) -> list[tuple[int, float, int]]:
        with open_session(toy.seeded, shared, executor) as session:
            return [result for batch in batches for result in session.run(batch)]

    def run_all_each(executor: str) -> list[tuple[int, float, int]]:
        return [result for batch in batches for result in run_all(toy.seeded, shared, batch, executor)]

    print(f"{ROUNDS} rounds of {ROUND_POINTS} points (median of {RUNS[0]} runs):")
    for executor in executors:
        medians: list[float] = []
        for way in (one_session, run_all_each):
            walls: list[float] = []
            for _ in range(RUNS[0]):
                start = time.perf_counter()
                if way(executor) != expected:
                    raise SystemExit(f"{executor} rounds: results differ from the serial run's")
                walls.append(time.perf_counter() - start)
            medians.append(sorted(walls)[len(walls) // 2])
        print(f"  {executor:<14} one session {medians[0]:6.2f} s   a run_all a round {medians[1]:6.2f} s   "
              f"({medians[1] / medians[0]:.2f}x)", flush=True)


def report(walls: dict[str, float]) -> int:
    """The figures against the targets."""
    misses = 0
    local = walls["local:1"] / walls["local:2"]
    misses += local < SPEED_UP
    print(f"speed-up local 1 -> 2 workers: {local:.2f}x (target >= {SPEED_UP}x); serial -> local:2 "
          f"{walls['serial'] / walls['local:2']:.2f}x")  # fmt: skip
    if "dask:1" in walls:
        dask = walls["dask:1"] / walls["dask:2"]
        misses += dask < SPEED_UP
        print(f"speed-up Dask LocalCluster 1 -> 2 workers: {dask:.2f}x (target >= {SPEED_UP}x); serial -> dask:2 "
              f"{walls['serial'] / walls['dask:2']:.2f}x, -> dask-local:2 with its start-up "
              f"{walls['serial'] / walls['dask-local:2']:.2f}x")  # fmt: skip
    for name in ("local:1", "local:2", "dask:1", "dask:2"):
        if name in OVERHEADS:
            misses += OVERHEADS[name] >= OVERHEAD
    print(f"overhead beyond the evaluations (target < {OVERHEAD:.0%}): "
          + ", ".join(f"{name} {value:+.1%}" for name, value in OVERHEADS.items()))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
