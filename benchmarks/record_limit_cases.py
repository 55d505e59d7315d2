"""Record ground-truth cases with user and group limits from the real YuniKorn core (the oracle).

Run: `python benchmarks/record_limit_cases.py --count N --seed S --out DIR` (the recorded set:
`--count 40 --seed 1 --runs 20 --out tests/data/oracle-limits`). Needs the oracle binary (`--oracle PATH`, else
$YK_ORACLE, else ../shared/oracle/bin/simulate; see ../shared/oracle/README.md).

Scenarios come from tests/oracle/oracle_limit_cases.py's seeded generator. A scenario is kept only when the core
accepts its config (the generator makes some the core's validator refuses: limits above a parent's, and so on) and
gives the same answer on `--runs` runs (the core breaks some complete ties at random). Cases are written as
DIR/limits-0001 ...
(queues.yaml, workload.yaml with users and groups, expected.json); folders of that name in DIR are replaced. What yk
simulates is not looked at here: tests/oracle/test_oracle_limits.py compares.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers.oracle import oracle_binary  # noqa: E402
from tests.oracle.oracle_cases import stable_result  # noqa: E402
from tests.oracle.oracle_limit_cases import generate, write_limit_case  # noqa: E402

CASE_NAME = re.compile(r"^limits-\d{4}$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--oracle", type=Path, default=None)
    args = parser.parse_args()
    binary = args.oracle or oracle_binary()
    if binary is None:
        print("no oracle binary: build ../shared/oracle or set YK_ORACLE", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.iterdir():
        if old.is_dir() and CASE_NAME.match(old.name):
            shutil.rmtree(old)
    kept = tried = 0
    while kept < args.count:
        case = generate(random.Random(f"{args.seed}-{tried}"))
        tried += 1
        try:
            result = stable_result(binary, case, runs=args.runs)
        except RuntimeError:
            continue  # the core's validator refused the config
        if result is None:
            continue
        kept += 1
        write_limit_case(args.out / f"limits-{kept:04d}", case, result)
    print(f"{kept} cases from {tried} scenarios in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
