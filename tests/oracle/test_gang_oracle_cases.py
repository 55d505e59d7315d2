"""What the real YuniKorn core (with the oracle's shim harness) did on generated gang scenarios: tests/data/oracle-gang/
(recorded by benchmarks/record_gang_cases.py). Every case must agree with `yk simulate --until 10s` in
tests/oracle/gang_oracle.py's canonical form: placeholders per task group and node, replacements, plain allocations,
placeholder releases (timeout or incompatible, allocated and pending counts) and preemptions in the core's order, and
the pending set. With the oracle built ($YK_ORACLE), the same generator is also run live (test_live_gang_scenarios).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from tests.helpers import paths
from tests.helpers.oracle import oracle_binary, to_oracle
from tests.oracle.gang_oracle import UNTIL, canonical_oracle, canonical_yk, generate, workload_yaml
from yk_cli.commands.run_options import options_from
from yk_cli.commands.simulate import simulation_report

DATA = paths.DATA / "oracle-gang"
CASES = sorted(p for p in DATA.iterdir() if (p / "expected.json").is_file()) if DATA.is_dir() else []


def yk_canonical(queues: Path, workload: Path) -> tuple[list[tuple[object, ...]], list[str]]:
    report = "".join(simulation_report(str(queues), str(workload), "json", options_from(UNTIL, None, "1.9")))
    return canonical_yk(json.loads(report))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_gang_case(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    events, pending = yk_canonical(case / "queues.yaml", case / "workload.yaml")
    assert [list(e) for e in events] == expected["events"], f"{case.name}: the gang trace differs from the core"
    assert pending == expected["pending"], f"{case.name}: the pending set differs from the core"


def test_the_recorded_set_covers_every_gang_feature() -> None:
    """Placeholders, replacements, Soft and Hard timeouts, incompatible releases and rejected gangs all occur."""
    assert len(CASES) >= 40
    kinds: set[str] = set()
    for case in CASES:
        expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
        for event in expected["events"]:
            kinds.add(event[0] if event[0] != "release" else f"release-{event[2]}")
        if not expected["events"] and expected["pending"]:
            kinds.add("nothing-placed")
    assert {"placeholder", "replace", "allocate", "release-timeout", "release-incompatible"} <= kinds


@pytest.mark.skipif(oracle_binary() is None, reason="the oracle is not built (../shared/oracle, or $YK_ORACLE)")
@pytest.mark.parametrize("seed", range(int(os.environ.get("YK_GANG_LIVE", "4"))))
def test_live_gang_scenarios(seed: int, tmp_path: Path) -> None:
    """A fresh generated scenario against the oracle run live (real time: a few seconds a run). Where the core breaks
    a tie at random (which placeholder of a group a real pod replaces is Go map order), yk's answer must be one of
    the answers the core gave; a scenario whose answers differ without yk's among them is skipped."""
    binary = oracle_binary()
    assert binary is not None
    case = generate(random.Random(10_000 + seed))
    scenario = to_oracle(case.queues_yaml, case.workload)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    queues, workload = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    queues.write_text(case.queues_yaml, encoding="utf-8")
    workload.write_text(workload_yaml(case.workload), encoding="utf-8")
    ours = yk_canonical(queues, workload)
    answers = []
    for _ in range(4):
        done = subprocess.run([str(binary), "-procs", "1", str(path)], capture_output=True, text=True, check=True)
        answers.append(canonical_oracle(done.stdout, [a["key"] for a in scenario["asks"]]))
        if answers[-1] == ours:
            return
    if any(answer != answers[0] for answer in answers):
        pytest.skip("the core broke a tie at random and yk's answer was not among the ones sampled")
    assert ours == answers[0]
