"""Benchmark of `yk sweep`: a 100-point sweep of a 10,000-ask generated workload, on 1 and 2 local workers and on
Dask's LocalCluster with 2 workers.

Run: `python benchmarks/sweep.py` (targets: 2 workers at least 1.7x as fast as 1, locally and on Dask; the sweep's
overhead beyond its dry runs under 5 %), `--points N` (default 100), `--asks N` (default 10,000), `--skip-dask`.

The workload and config are `yk generate`'s (seed 7; preemption off), the sweep varies the first leaf's guaranteed
vcore over N values. Each executor runs the whole `yk sweep` as a fresh process (wall time); the dry runs' own time is
the serial sum measured in this process (the same N points through core.sweep.evaluate), so that the overhead is
what the sweep adds: parsing the spec and inputs, sending them to workers, collecting and ranking.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_SPEEDUP = 1.7
TARGET_OVERHEAD = 0.05


def write(folder: Path, asks: int, points: int) -> Path:
    """queues.yaml, workload.yaml and spec.yaml in folder; the spec's path."""
    subprocess.run(
        [sys.executable, "-m", "yk_cli", "generate", "--nodes", str(asks // 10), "--queues", str(asks // 100),
         "--apps", str(asks // 10), "--asks", str(asks), "--seed", "7", "--out-dir", str(folder)],
        check=True, capture_output=True, cwd=ROOT,
    )
    queues = folder / "queues.yaml"
    lines = queues.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("- name:"))
    indent = " " * (len(lines[at]) - len(lines[at].lstrip()) + 2)
    lines.insert(at + 1, f"{indent}preemption: {{enabled: false}}\n")
    queues.write_text("".join(lines), encoding="utf-8")
    from yk_cli.commands.inputs import checked_inputs

    inputs = checked_inputs(str(queues), str(folder / "workload.yaml"), None, None, True)
    leaf = next(q.path for q in inputs.tree.leaves() if not q.dynamic)
    spec = folder / "spec.yaml"
    spec.write_text(
        f"config: queues.yaml\nworkloads: workload.yaml\nparameters:\n  - path: {leaf}.resources.guaranteed.vcore\n"
        f"    values: {{from: 1, to: {points}, step: 1}}\nobjective:\n  minimize: p95-wait\n",
        encoding="utf-8",
    )
    return spec


def sweep(spec: Path, executor: str) -> float:
    """Wall seconds of one `yk sweep` as a fresh process."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "yk_cli", "sweep", str(spec), "--executor", executor, "--format", "json",
                    "--quiet"], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - started


def dry_runs(spec: Path) -> float:
    """The points' own time: every point evaluated in this process, one after the other."""
    from yk_cli.core.sweep.points import grid
    from yk_cli.load.sweep_inputs import SweepSource, inputs_of
    from yk_cli.load.sweep_spec import read_spec, resolve

    read = read_spec(str(spec))
    texts = tuple((w, Path(w).read_text(encoding="utf-8")) for w in read.workloads)
    from yk_cli.commands.inputs import checked_inputs

    base = checked_inputs(read.config, read.workloads[0], None, None, True)
    parameters = resolve(read, base.tree)
    source = SweepSource.of(Path(read.config).read_text(encoding="utf-8"), texts, base.partition.display_name, None,
                            tuple(p.path for p in parameters))
    inputs = inputs_of(source)
    from yk_cli.core.sweep.evaluate import evaluate

    started = time.perf_counter()
    for point in grid(parameters):
        evaluate(inputs, point)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--asks", type=int, default=10_000)
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        spec = write(Path(tmp), args.asks, args.points)
        own = dry_runs(spec)
        one = sweep(spec, "local:1")
        two = sweep(spec, "local:2")
        print(f"{args.points} points of {args.asks:,} asks: the dry runs alone {own:.1f} s (serial, in process)")
        print(f"local, 1 worker: {one:.1f} s (overhead {one / own - 1:+.1%}); 2 workers: {two:.1f} s: "
              f"{one / two:.2f}x")
        ok = one / two >= TARGET_SPEEDUP and one / own - 1 < TARGET_OVERHEAD
        if not args.skip_dask:
            dask_one = sweep(spec, "dask-local:1")
            dask_two = sweep(spec, "dask-local:2")
            print(f"dask-local, 1 worker: {dask_one:.1f} s; 2 workers: {dask_two:.1f} s: {dask_one / dask_two:.2f}x")
            ok = ok and dask_one / dask_two >= TARGET_SPEEDUP
    print(f"targets: speed-up >= {TARGET_SPEEDUP}x, overhead < {TARGET_OVERHEAD:.0%}: {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
