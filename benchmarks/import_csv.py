"""Benchmark of `yk import csv`: a seeded CSV of 1,000,000 jobs (a month of a busy cluster) read, checked and
written as workload.yaml and queues.yaml, as a whole process.

Run: `python benchmarks/import_csv.py` (3 timed runs, median reported; target <= 30 s on the 2-core machine),
`--runs N`, `--rows N`, `--write DIR` (write jobs.csv to DIR and stop, e.g. for a profile).

The CSV: job_id, submit_time (Unix seconds over 30 days, in order), duration (seconds, log-uniform from 1 s to a
day), start_time (a wait of 0 s to an hour after the submission, empty for 5 % never started), cpu (cores, some in
millicores), memory (Kubernetes quantities), gpu (mostly empty), count (1 to 8), queue (20 queues under root.org),
user (200 users) and priority (0, 100 or 1000).
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 42
ROWS = 1_000_000
TARGET_SECONDS = 30.0
START = 1_717_200_000  # 2024-06-01T00:00:00Z
MONTH = 30 * 86400


def write(folder: Path, rows: int = ROWS, seed: int = SEED) -> Path:
    """The seeded CSV of jobs, submit times in order."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "jobs.csv"
    cpus = ["1", "2", "4", "8", "500m", "250m", "0.5", "16"]
    memories = ["512Mi", "1Gi", "2Gi", "4Gi", "8Gi", "16Gi", "64Gi", "1073741824"]
    step = MONTH / rows
    with target.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(["job_id", "submit_time", "duration", "start_time", "cpu", "memory", "gpu", "count", "queue",
                      "user", "priority"])
        for i in range(rows):
            submit = START + int(i * step)
            duration = int(10 ** rng.uniform(0, 4.9))
            started = "" if rng.random() < 0.05 else str(submit + int(rng.expovariate(1 / 300)) % 3600)
            gpu = str(rng.choice([1, 2, 4, 8])) if rng.random() < 0.1 else ""
            out.writerow([f"job-{i:07d}", submit, duration, started, rng.choice(cpus), rng.choice(memories), gpu,
                          rng.randint(1, 8) if rng.random() < 0.2 else 1, f"root.org.team-{rng.randrange(20):02d}",
                          f"user-{rng.randrange(200):03d}", rng.choice([0, 100, 1000])])
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--write", metavar="DIR")
    args = parser.parse_args()
    if args.write:
        target = write(Path(args.write), args.rows)
        print(f"wrote {target}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        target = write(Path(tmp), args.rows)
        size = target.stat().st_size
        command = [sys.executable, "-m", "yk_cli", "import", "csv", str(target), "--nodes", "500",
                   "--node-resources", "vcore=64,memory=256Gi,nvidia.com/gpu=8", "--queues",
                   "--out-dir", str(Path(tmp) / "out")]
        times = []
        summary = ""
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 1
            summary = done.stdout.strip().splitlines()[-1]
        written = (Path(tmp) / "out" / "workload.yaml").stat().st_size
    median = statistics.median(times)
    print(f"{args.rows:,} rows ({size / 1e6:.0f} MB of CSV) -> workload.yaml of {written / 1e6:.0f} MB")
    print(f"result: {summary}")
    print("runs: " + ", ".join(f"{t:.2f} s" for t in times))
    print(f"median: {median:.2f} s (target <= {TARGET_SECONDS:.0f} s) {'OK' if median <= TARGET_SECONDS else 'SLOW'}")
    return 0 if median <= TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
