"""Benchmark of `yk simulate --metrics`: what the metrics add to a 50,000-ask dry run.

Run: `python benchmarks/metrics.py` (3 timed runs of each command, medians reported; target: `yk simulate Q W
--metrics` takes at most 10 % more than `yk simulate Q W`), `--runs N`, `--size 10k` (a quicker look),
`--preemption` (the partition's preemption left on, so that preemption loss is measured too).

The workload is `yk generate`'s (1 node per 10 asks, 1 leaf per 100 asks, 1 application per 10 asks, seed 7), written
to a temporary folder. Each command runs as a fresh process with its output thrown away, and its CPU time (user +
system, of the child) is measured, which a busy machine disturbs less than the wall clock. Then, in this process, the
dry run (`simulate()`) and the metrics of its trace (`run_metrics()`) are timed apart, for the record: the metrics
replace the step table's rendering, so the command pays for them only what that rendering does not cost.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET = 0.10
SIZES = {"10k": 10_000, "50k": 50_000}


def write(folder: Path, asks: int, preemption: bool) -> tuple[Path, Path]:
    """queues.yaml and workload.yaml of the size, from `yk generate`."""
    command = [
        sys.executable, "-m", "yk_cli", "generate", "--nodes", str(asks // 10), "--queues", str(asks // 100),
        "--apps", str(asks // 10), "--asks", str(asks), "--seed", "7", "--out-dir", str(folder),
    ]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    queues = folder / "queues.yaml"
    if not preemption:
        lines = queues.read_text(encoding="utf-8").splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("- name:"))
        indent = " " * (len(lines[at]) - len(lines[at].lstrip()) + 2)
        lines.insert(at + 1, f"{indent}preemption: {{enabled: false}}\n")
        queues.write_text("".join(lines), encoding="utf-8")
    return queues, folder / "workload.yaml"


def cpu_seconds(command: list[str]) -> float:
    """The CPU time (user + system) of one fresh process running the command, output discarded."""
    before = os.times()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def in_process(queues: Path, workload: Path) -> tuple[float, float, str]:
    """simulate() and run_metrics() timed apart in this process (garbage collector paused, as the command does)."""
    from yk_cli.commands.inputs import checked_inputs
    from yk_cli.core.analysis.metrics import run_metrics
    from yk_cli.core.sim.run import SimulationOptions, simulate

    inputs = checked_inputs(str(queues), str(workload), None, None, True, place=True)
    assert inputs.workload is not None
    queue_of = {application.id: leaf.path for application, leaf in inputs.placed}
    gc.disable()
    started = time.process_time()
    trace = simulate(inputs.partition, inputs.tree, inputs.workload, SimulationOptions())
    simulated = time.process_time()
    metrics = run_metrics(trace, inputs.workload, inputs.tree, queue_of)
    done = time.process_time()
    gc.enable()
    summary = (
        f"{len(metrics.pods):,} pods, {sum(1 for p in metrics.pods if p.start is not None):,} started, "
        f"{len(metrics.losses):,} preempted runs, {len(trace.events):,} steps, "
        f"run end {trace.summary.end_time // 10**9:,} s"
    )
    return simulated - started, done - simulated, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", choices=sorted(SIZES), default="50k")
    parser.add_argument("--preemption", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        queues, workload = write(Path(tmp), SIZES[args.size], args.preemption)
        plain_command = [sys.executable, "-m", "yk_cli", "simulate", str(queues), str(workload), "--quiet"]
        plain, with_metrics = [], []
        for _ in range(args.runs):  # alternated, so that a busy spell falls on both
            plain.append(cpu_seconds(plain_command))
            with_metrics.append(cpu_seconds([*plain_command, "--metrics"]))
        sim, extra, summary = in_process(queues, workload)
    base, metric = statistics.median(plain), statistics.median(with_metrics)
    share = metric / base - 1
    print(f"{args.size} asks{' with preemption' if args.preemption else ''}: {summary}")
    print("yk simulate, CPU s:           " + ", ".join(f"{t:.2f}" for t in plain))
    print("yk simulate --metrics, CPU s: " + ", ".join(f"{t:.2f}" for t in with_metrics))
    print(f"in process: simulate() {sim:.2f} s, run_metrics() {extra:.2f} s ({extra / sim:.0%} of the dry run)")
    verdict = "OK" if share <= TARGET else "SLOW"
    print(f"median: {base:.2f} s, with --metrics {metric:.2f} s: {share:+.1%} (target <= +{TARGET:.0%}) {verdict}")
    return 0 if share <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
