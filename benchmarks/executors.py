"""Benchmark of yk_cli.execute's executors: 40 toy evaluations of about 0.3 s of CPU each, with 4 MB of shared inputs.

Run: `python benchmarks/executors.py` (about a minute), `--points N`, `--seconds S` (CPU seconds of one evaluation),
`--no-dask`. Targets (issue 27, on this 2-core machine): 1 -> 2 workers at least 1.7x faster, locally and on Dask's
LocalCluster; per-point overhead beyond the evaluation itself under 5 % (a local worker against the serial run, same
points). Exit status 1 on a miss.

The evaluation is tests/execute/toy.py's `seeded` (pure Python, seeded, deterministic), its length calibrated here.
Every executor's results are checked to be the serial run's. Wall times include everything a command would pay:
starting the worker processes, sending the shared inputs, chunking, gathering; the Dask figures are given with and
without the LocalCluster's start-up (a cluster you connect to with dask://HOST:PORT is already running).
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
from yk_cli.execute import run_all  # noqa: E402

SPEED_UP = 1.7
OVERHEAD = 0.05
CPU: dict[str, float] = {}
"""CPU seconds of each run, by the first word of its label."""


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


def timed(label: str, run: Callable[[], list[tuple[int, float, int]]], expected: list[object] | None) -> float:
    """Wall seconds of one run (its CPU seconds, workers included, printed too); its results must be `expected`."""
    cpu = cpu_now()
    start = time.perf_counter()
    results = run()
    wall = time.perf_counter() - start
    cpu = cpu_now() - cpu
    if expected is not None and results != expected:
        raise SystemExit(f"{label}: results differ from the serial run's")
    print(f"  {label:<38} {wall:7.2f} s wall {cpu:7.2f} s CPU", flush=True)
    CPU[label.split()[0]] = cpu
    return wall


def main() -> int:
    """Print each executor's wall time, the speed-ups and the overhead; 1 on a miss of a target."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds of one evaluation")
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask executors out")
    args = parser.parse_args()
    points = list(range(args.points))
    with tempfile.TemporaryDirectory() as folder:
        shared = calibrate(Path(folder), args.seconds)
        print(f"{len(points)} points of ~{args.seconds} s CPU, shared inputs {len(shared.blob) >> 20} MB, "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")  # fmt: skip
        cpu = time.process_time()
        serial = run_all(toy.seeded, shared, points, "serial")
        cpu = time.process_time() - cpu
        expected: list[object] = list(serial)
        print(f"  {'serial (CPU time)':<38} {cpu:7.2f} s   ({cpu / len(points):.3f} s a point)")
        walls = {"serial": timed("serial", lambda: run_all(toy.seeded, shared, points, "serial"), expected)}
        for workers in (1, 2):
            walls[f"local:{workers}"] = timed(
                f"local:{workers}", partial(run_all, toy.seeded, shared, points, f"local:{workers}"), expected
            )
        if not args.no_dask:
            walls.update(dask_walls(shared, points, expected))
    return report(walls, len(points))


def dask_walls(shared: toy.Shared, points: list[int], expected: list[object]) -> dict[str, float]:
    """dask-local:2 end to end, then 1 and 2 workers of an already running LocalCluster (its start-up apart)."""
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        print("  (Dask not installed: pip install 'yk[dask]')")
        return {}
    from yk_cli.execute.dask_engine import local_cluster_options

    walls = {"dask-local:2": timed("dask-local:2 (cluster start included)",
                                   lambda: run_all(toy.seeded, shared, points, "dask-local:2"), expected)}  # fmt: skip
    for workers in (1, 2):
        start = time.perf_counter()
        with distributed.LocalCluster(**local_cluster_options(workers)) as cluster:
            print(f"  {f'LocalCluster({workers}) start-up':<38} {time.perf_counter() - start:7.2f} s")
            address = "dask://" + cluster.scheduler_address.removeprefix("tcp://")
            run = partial(run_all, toy.seeded, shared, points, address)
            walls[f"dask:{workers}"] = timed(f"dask:{workers} (running LocalCluster)", run, expected)
    return walls


def report(walls: dict[str, float], count: int) -> int:
    """The figures against the targets."""
    misses = 0
    serial = walls["serial"]
    overhead = (walls["local:1"] - serial) / serial
    misses += overhead >= OVERHEAD
    print(f"per-point overhead, local:1 vs serial: {overhead:+.1%} ({(walls['local:1'] - serial) / count * 1000:+.1f} "
          f"ms a point; target < {OVERHEAD:.0%})")  # fmt: skip
    cpu_overhead = {name: (CPU[name] - CPU["serial"]) / CPU["serial"] for name in ("local:1", "local:2") if name in CPU}
    print("CPU overhead (all processes) vs serial: " + ", ".join(f"{k} {v:+.1%}" for k, v in cpu_overhead.items()))
    two = (2 * walls["local:2"] - serial) / serial
    print(f"overhead of local:2 (2 x wall vs serial): {two:+.1%}")
    speed_up = walls["local:1"] / walls["local:2"]
    misses += speed_up < SPEED_UP
    print(f"speed-up local 1 -> 2 workers: {speed_up:.2f}x (vs serial {serial / walls['local:2']:.2f}x; "
          f"target >= {SPEED_UP}x)")  # fmt: skip
    if "dask:1" in walls:
        dask = walls["dask:1"] / walls["dask:2"]
        misses += dask < SPEED_UP
        print(f"speed-up Dask LocalCluster 1 -> 2 workers: {dask:.2f}x (vs serial {serial / walls['dask:2']:.2f}x, "
              f"dask-local:2 with start-up {serial / walls['dask-local:2']:.2f}x; target >= {SPEED_UP}x)")  # fmt: skip
        print(f"per-point overhead, Dask 1 worker vs serial: {(walls['dask:1'] - serial) / serial:+.1%}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
