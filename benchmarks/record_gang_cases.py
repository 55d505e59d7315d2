"""Record gang-scheduling cases from the real YuniKorn core (the oracle): tests/data/oracle-gang/.

Run: `python benchmarks/record_gang_cases.py --count 40 --seed 1 --runs 3 --out tests/data/oracle-gang` (needs the
oracle binary: `--oracle PATH`, else $YK_ORACLE, else ../shared/oracle/bin/simulate). Each scenario comes from
tests/oracle/gang_oracle.py's seeded generator; it is kept when the oracle gives the same canonical answer on `--runs`
runs (placeholder timers run in real time and Go map order picks which placeholder a real pod replaces) and yk
loads it. A case folder holds queues.yaml, workload.yaml and expected.json (`events` and `pending` in
tests/oracle/gang_oracle.py's canonical form). Folders named gang-NNNN in DIR are replaced.
"""

from __future__ import annotations

import argparse
import json
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

from tests.helpers.oracle import oracle_binary, to_oracle  # noqa: E402
from tests.oracle.gang_oracle import canonical_oracle, generate, workload_yaml  # noqa: E402

CASE_NAME = re.compile(r"^gang-\d{4}$")


def run(binary: Path, scenario: dict) -> tuple[list, list]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(scenario, handle)
    try:
        done = subprocess.run([str(binary), "-procs", "1", handle.name], capture_output=True, text=True, check=False)
    finally:
        Path(handle.name).unlink()
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)
    return canonical_oracle(done.stdout, [a["key"] for a in scenario["asks"]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "oracle-gang")
    parser.add_argument("--oracle", type=Path, default=None)
    args = parser.parse_args()
    binary = args.oracle or oracle_binary()
    if binary is None:
        print("no oracle binary: build ../shared/oracle (see its README) or pass --oracle", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.iterdir():
        if CASE_NAME.match(old.name):
            shutil.rmtree(old)
    rng = random.Random(args.seed)
    kept = tried = 0
    while kept < args.count:
        tried += 1
        case = generate(rng)
        scenario = to_oracle(case.queues_yaml, case.workload)
        first = run(binary, scenario)
        if any(run(binary, scenario) != first for _ in range(args.runs - 1)):
            print(f"scenario {tried}: unstable, dropped", file=sys.stderr)
            continue
        kept += 1
        folder = args.out / f"gang-{kept:04d}"
        folder.mkdir()
        (folder / "queues.yaml").write_text(case.queues_yaml, encoding="utf-8")
        (folder / "workload.yaml").write_text(workload_yaml(case.workload), encoding="utf-8")
        expected = {"events": [list(e) for e in first[0]], "pending": first[1]}
        (folder / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
        print(f"{folder.name}: {len(first[0])} events, {len(first[1])} pending", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
