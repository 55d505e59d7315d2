"""Record ground-truth preemption cases from the real YuniKorn core (the oracle), in the conformance format.

Run: `python benchmarks/record_oracle_cases.py --count N --seed S --out DIR` (the recorded set:
`--count 150 --big 20 --seed 1 --runs 20 --out tests/data/oracle`). Needs the oracle binary (`--oracle PATH`, else
$YK_ORACLE, else ../shared/oracle/bin/simulate; build it as ../shared/oracle/README.md says).

Each scenario comes from tests/oracle/oracle_cases.py's seeded generator (small clusters; `--big M` adds M larger
ones: 10-30 nodes, 50-200 running allocations). A scenario is kept only when
* `yk validate queues.yaml` and `yk simulate queues.yaml workload.yaml --until 0s --format json` (the yk of this
  checkout, `python -m yk_cli`) both exit 0: yk loads it (what it simulates is not compared here);
* the oracle (`-procs 1`) gives the same answer on `--runs` runs (default 10): the core breaks some complete ties
  at random, and those cases are dropped;
* it keeps the set balanced: at most `--preempt-share` (default 0.5) of the cases preempt, at most the rest do
  not; generation goes on until both halves are full.
Cases are written as DIR/preempt-0001 ... (big ones DIR/big-preempt-0001 ...): queues.yaml, workload.yaml (yk's
format) and expected.json (`events`: allocate/preempt in the core's order; `pending`). Folders of those names
already in DIR are removed first. The same seed gives the same cases (given the same oracle and generator).
"""

from __future__ import annotations

import argparse
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers.oracle import oracle_binary  # noqa: E402
from tests.oracle.oracle_cases import Case, Result, generate, preempts, stable_result, workload_yaml, write_case  # noqa: E402

CASE_NAME = re.compile(r"^(big-)?preempt-\d{4}$")


def yk_loads(case: Case) -> str | None:
    """None when this checkout's yk validates the config and simulates the case (exit 0); else what failed."""
    with tempfile.TemporaryDirectory() as tmp:
        queues, workload = Path(tmp, "queues.yaml"), Path(tmp, "workload.yaml")
        queues.write_text(case.queues_yaml, encoding="utf-8")
        workload.write_text(workload_yaml(case.workload), encoding="utf-8")
        for args in (
            ["validate", str(queues)],
            ["simulate", str(queues), str(workload), "--until", "0s", "--format", "json"],
        ):
            done = subprocess.run(
                [sys.executable, "-m", "yk_cli", *args], cwd=ROOT, capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                return f"yk {args[0]} exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}"
    return None


def record(
    binary: Path, count: int, seed: int | str, *, big: bool, runs: int, share: float, check_yk: bool
) -> list[tuple[Case, Result]]:
    """`count` kept cases: about `share` of them preempting."""
    rng = random.Random(f"{seed}-big" if big else seed)
    want_preempt = math.ceil(count * share)
    want_plain = count - want_preempt
    kept: list[tuple[Case, Result]] = []
    have = {True: 0, False: 0}
    tried = dropped_ties = dropped_yk = 0
    while len(kept) < count:
        tried += 1
        if tried > 200 * count + 1000:
            raise SystemExit(f"gave up after {tried} scenarios: {have[True]} preempting, {have[False]} not")
        case = generate(rng, big)
        result = stable_result(binary, case, runs)
        if result is None:
            dropped_ties += 1
            continue
        kind = preempts(result)
        if have[kind] >= (want_preempt if kind else want_plain):
            continue
        if check_yk:
            problem = yk_loads(case)
            if problem is not None:
                dropped_yk += 1
                print(f"dropped (yk refused it): {problem}", file=sys.stderr)
                continue
        have[kind] += 1
        kept.append((case, result))
    label = "big" if big else "small"
    print(
        f"{label}: {len(kept)} kept ({have[True]} preempt) of {tried} generated; "
        f"{dropped_ties} unstable, {dropped_yk} refused by yk"
    )
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=150, help="small cases to record (default 150)")
    parser.add_argument("--big", type=int, default=0, help="big cases to record as well (default 0)")
    parser.add_argument("--seed", default="1", help="generator seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the case folders")
    parser.add_argument("--runs", type=int, default=10, help="oracle runs that must agree (default 10, at least 3)")
    parser.add_argument("--preempt-share", type=float, default=0.5, help="share of preempting cases (default 0.5)")
    parser.add_argument("--oracle", type=Path, default=None, help="oracle binary (default: $YK_ORACLE, ../shared)")
    parser.add_argument("--no-yk-check", action="store_true", help="skip the yk validate/simulate load check")
    args = parser.parse_args(argv)
    binary = args.oracle or oracle_binary()
    if binary is None or not binary.is_file():
        parser.error("no oracle binary: pass --oracle or set YK_ORACLE (see ../shared/oracle/README.md)")
    if args.runs < 3:
        parser.error("--runs must be at least 3")
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    sets = [("preempt", False, args.count), ("big-preempt", True, args.big)]
    recorded = {
        prefix: record(
            binary, n, seed, big=big, runs=args.runs, share=args.preempt_share, check_yk=not args.no_yk_check
        )
        for prefix, big, n in sets
        if n > 0
    }
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.iterdir():
        if old.is_dir() and CASE_NAME.match(old.name):
            shutil.rmtree(old)
    for prefix, cases in recorded.items():
        for number, (case, result) in enumerate(cases, 1):
            write_case(args.out / f"{prefix}-{number:04d}", case, result)
    print(f"wrote {sum(len(c) for c in recorded.values())} cases under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
