"""Median wall time of `yk check` as a fresh process: the production sample with its 20 static assertions."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICY = ROOT / "samples" / "policies" / "production.yaml"
CONFIG = ROOT / "samples" / "queues" / "production.yaml"
TARGET = 0.5
"""Seconds: `yk check` of 20 static assertions on the production sample, start-up included."""


def yk_command() -> list[str]:
    """The `yk` console script next to this interpreter, else `python -m yk_cli`."""
    beside = Path(sys.executable).with_name("yk")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "yk_cli"]


def median_run(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float, int]:
    """(median wall seconds, median CPU seconds of the child, last exit status) over runs after one warm-up run."""
    status = subprocess.run(command, stdout=subprocess.DEVNULL, env=env, check=False).returncode
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        before = os.times()
        start = time.perf_counter()
        status = subprocess.run(command, stdout=subprocess.DEVNULL, env=env, check=False).returncode
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return statistics.median(walls), statistics.median(cpus), status


def main() -> int:
    """Print the medians of `yk check` (and of `yk validate` on the same config, for scale); exit 1 on a miss."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="measured runs (after one warm-up run)")
    args = parser.parse_args()
    yk = yk_command()
    assertions = POLICY.read_text().count("\n  - name: ")
    with tempfile.TemporaryDirectory() as cache:
        # Bytecode as an installed package has it (the warm-up run writes it here), whatever PYTHONDONTWRITEBYTECODE
        # says in this shell; the source tree is left alone.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        wall, cpu, status = median_run([*yk, "check", str(POLICY), str(CONFIG)], max(args.runs, 1), env)
        base_wall, base_cpu, _ = median_run([*yk, "validate", str(CONFIG)], max(args.runs, 1), env)
    load = os.getloadavg()[0]
    print(f"command: {' '.join(yk)} check {POLICY.relative_to(ROOT)} {CONFIG.relative_to(ROOT)}")
    print(
        f"{assertions} static assertions: median {wall:.3f} s wall, {cpu:.3f} s CPU "
        f"(target <= {TARGET:.2f} s, exit {status})"
    )
    print(f"for scale, yk validate on the same config: median {base_wall:.3f} s wall, {base_cpu:.3f} s CPU")
    print(f"load average while measuring: {load:.2f}")
    ok = wall <= TARGET and status == 0
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
