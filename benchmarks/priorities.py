"""Time of `yk priorities` on a generated 1,000-queue, 100,000-ask workload: in-process and as a fresh process.

Run: `python benchmarks/priorities.py` (`--runs N` timed runs each, median reported; `--asks`, `--queues` to
change the size; `--format json`). The config and workload come from `yk generate`'s generator (seed 42) and are
written to a temporary directory first; generating them is not timed. In-process time is one call of the
command's own function (load, check, place, compute, render), without interpreter start-up; the fresh-process
time is `python -m yk_cli priorities CONFIG WORKLOAD > /dev/null`, start-up included. Target: <= 3 s. CPU seconds
are printed beside wall seconds: on a machine shared with other work they are the steadier figure.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from yk_cli.commands.priorities import run_priorities  # noqa: E402
from yk_cli.core.workload.generate import GenerateOptions, generate  # noqa: E402
from yk_cli.load.workload import collector_paused  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402

SEED = 42
TARGET = 3.0
"""Seconds, fresh process included."""


def write_inputs(folder: Path, queues: int, asks: int) -> tuple[Path, Path]:
    """Generate and write queues.yaml and workload.yaml (about 15 MB at 100,000 asks)."""
    generated = generate(GenerateOptions(nodes=500, queues=queues, apps=asks // 10, asks=asks, seed=SEED))
    config, workload = folder / "queues.yaml", folder / "workload.yaml"
    config.write_text(config_yaml(generated.config), encoding="utf-8")
    workload.write_text(workload_yaml(generated.workload), encoding="utf-8")
    return config, workload


def in_process(config: Path, workload: Path, fmt: str) -> tuple[float, float, int]:
    """Wall and CPU seconds for one run of the command's function, and the size of its output."""
    start, cpu = time.perf_counter(), time.process_time()
    with collector_paused(), contextlib.redirect_stderr(io.StringIO()):
        out = run_priorities(str(config), str(workload), fmt)
    return time.perf_counter() - start, time.process_time() - cpu, len(out)


def fresh_process(config: Path, workload: Path, fmt: str) -> tuple[float, float]:
    """Wall and CPU seconds for `python -m yk_cli priorities` with its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "yk_cli", "priorities", str(config), str(workload), "--format", fmt],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _figures(label: str, walls: list[float], cpus: list[float]) -> float:
    wall = statistics.median(walls)
    print(
        f"{label:<15}median {wall:.2f} s wall, {statistics.median(cpus):.2f} s CPU "
        f"(runs: {', '.join(f'{w:.2f}' for w in walls)})"
    )
    return wall


def main() -> int:
    """Print the figures; exit 1 when the fresh-process median misses the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--queues", type=int, default=1000)
    parser.add_argument("--asks", type=int, default=100_000)
    parser.add_argument("--format", default="text", choices=("text", "json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config, workload = write_inputs(Path(tmp), args.queues, args.asks)
        size = workload.stat().st_size / 1e6
        print(f"workload: {args.asks:,} asks in {args.queues:,} leaf queues ({size:.1f} MB); format {args.format}")
        runs = [in_process(config, workload, args.format) for _ in range(args.runs)]
        _figures("in-process:", [r[0] for r in runs], [r[1] for r in runs])
        print(f"{'':<15}output {runs[0][2] / 1e6:.1f} MB")
        fresh = [fresh_process(config, workload, args.format) for _ in range(args.runs)]
        outer = _figures("fresh process:", [f[0] for f in fresh], [f[1] for f in fresh])
        verdict = "ok" if outer <= TARGET else "MISSED (CPU time shows the cost when the machine is shared)"
        print(f"target <= {TARGET:.1f} s wall: {verdict}")
    return 0 if outer <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
