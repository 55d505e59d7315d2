"""Benchmark of `yk diff`: two 1,000-queue configs on a 50,000-ask workload (two dry runs and the comparison) against
one `yk simulate` of the same workload, both as fresh processes.

Run: `python benchmarks/diff.py` (`--runs N` timed runs each, the median reported; `--asks`, `--queues` to resize).

`yk generate --nodes 5000 --queues 1000 --apps 5000 --asks 50000 --seed 42` writes OLD and the workload; NEW is OLD
with the priority.offset of every tenth queue that sets one raised by 5 and with every fifth `maxapplications`
doubled, so the two dry runs really differ. As in benchmarks/simulate.py, the partition's preemption is disabled
(a workload that does not preempt) on both sides. Target: diff <= 2.5 x simulate.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2.5


def _yk(*args: str, out: Path | None = None) -> float:
    """Run `python -m yk_cli ARGS` (stdout to a file or nowhere); the wall time in seconds. Exit 0 or 1 only."""
    start = time.perf_counter()
    with open(out or os.devnull, "w") as sink:
        done = subprocess.run([sys.executable, "-m", "yk_cli", *args], stdout=sink, stderr=subprocess.PIPE, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"yk {' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return elapsed


def _new_config(text: str) -> str:
    """Every tenth priority.offset raised by 5, every fifth maxapplications doubled."""
    seen = {"offset": 0, "max": 0}

    def offset(match: re.Match[str]) -> str:
        seen["offset"] += 1
        if seen["offset"] % 10:
            return match.group(0)
        return f"{match.group(1)}{int(match.group(2)) + 5}{match.group(3)}"

    def maxapps(match: re.Match[str]) -> str:
        seen["max"] += 1
        if seen["max"] % 5:
            return match.group(0)
        return f"{match.group(1)}{int(match.group(2)) * 2}"

    text = re.sub(r"(priority\.offset: ['\"]?)(-?\d+)(['\"]?)", offset, text)
    return re.sub(r"(maxapplications: )(\d+)", maxapps, text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--asks", type=int, default=50_000)
    parser.add_argument("--queues", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old, new, work = folder / "old.yaml", folder / "new.yaml", folder / "workload.yaml"
        _yk(
            "generate",
            "--nodes",
            "5000",
            "--queues",
            str(args.queues),
            "--apps",
            "5000",
            "--asks",
            str(args.asks),
            "--seed",
            "42",
            "--queues-out",
            str(old),
            "--workload-out",
            str(work),
        )
        head = "  - name: default\n"
        text = old.read_text(encoding="utf-8").replace(head, head + "    preemption: {enabled: false}\n", 1)
        old.write_text(text, encoding="utf-8")
        new.write_text(_new_config(text), encoding="utf-8")
        report = folder / "diff.txt"
        simulate, diff = [], []
        for _ in range(args.runs):
            simulate.append(_yk("simulate", str(old), str(work), "-q"))
            diff.append(_yk("diff", str(old), str(new), str(work), "-q", out=report))
        summary = next(line for line in report.read_text(encoding="utf-8").splitlines() if line.startswith("Summary:"))
    s, d = statistics.median(simulate), statistics.median(diff)
    print(f"workload: {args.asks:,} asks, {args.queues:,} leaf queues, 5,000 nodes, 5,000 applications")
    print(f"yk diff summary: {summary.removeprefix('Summary: ')[:300]}")
    runs = ", ".join(f"{x:.2f}" for x in simulate)
    print(f"yk simulate (one dry run, fresh process): median {s:.2f} s of {args.runs} ({runs})")
    runs = ", ".join(f"{x:.2f}" for x in diff)
    print(f"yk diff (two dry runs + comparison):      median {d:.2f} s of {args.runs} ({runs})")
    ratio = d / s
    print(f"ratio {ratio:.2f} (target <= {TARGET}): {'OK' if ratio <= TARGET else 'OVER'}")


if __name__ == "__main__":
    main()
