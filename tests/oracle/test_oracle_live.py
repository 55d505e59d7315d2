"""Differential test against the real YuniKorn core: fresh seeded preemption scenarios (tests/oracle/oracle_cases.py),
run through the oracle binary and through yk, compared as the conformance cases are; and the conversion itself
(tests/helpers/oracle.py) on every conformance case (tests/data/conformance).

Skipped unless the oracle is built: $YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo (see
../shared/oracle/README.md). Never needed by the normal test run. $YK_ORACLE_SEED changes the scenarios (default
"live"; the recorded set under tests/data/oracle used seed 1), $YK_ORACLE_COUNT their number (default 30).

Every case must agree; a case whose trace changed between oracle runs (a tie the core breaks at random) is skipped.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers.oracle import oracle_binary, run_oracle, to_oracle
from tests.oracle.conformance import CHECK, CONFORMANCE, agree
from tests.oracle.oracle_cases import generate, stable_result, write_case

BINARY = oracle_binary()
SEED = os.environ.get("YK_ORACLE_SEED", "live")
COUNT = int(os.environ.get("YK_ORACLE_COUNT", "30"))

pytestmark = [
    pytest.mark.skipif(BINARY is None, reason="the oracle is not built (set YK_ORACLE, see ../shared/oracle)"),
]


CONFORMANCE_CASES = sorted(
    case for kind in ("simulate", "preempt") if (CONFORMANCE / kind).is_dir() for case in (CONFORMANCE / kind).iterdir()
)


@pytest.mark.parametrize("case", CONFORMANCE_CASES, ids=lambda case: case.name)
def test_the_conversion_reproduces_the_conformance_case(case: Path) -> None:
    """tests/helpers/oracle.py is right: the oracle, fed every conformance case through to_oracle, gives its
    expected.json (they were recorded with the same harness)."""
    assert BINARY is not None
    workload = YAML(typ="safe").load((case / "workload.yaml").read_text(encoding="utf-8"))
    seq, pending = run_oracle(BINARY, to_oracle((case / "queues.yaml").read_text(encoding="utf-8"), workload))
    want_seq, want_pending = CHECK.expected(str(case))
    assert CHECK.grouped(seq) == CHECK.grouped(want_seq)
    assert pending == want_pending


@pytest.mark.parametrize("index", range(COUNT), ids=lambda index: f"{SEED}-{index:02d}")
def test_yk_agrees_with_the_core(index: int, tmp_path: Path) -> None:
    assert BINARY is not None
    case = generate(random.Random(f"{SEED}-{index}"))
    result = stable_result(BINARY, case, runs=3)
    if result is None:
        pytest.skip("the core gave different traces on 3 runs (a tie it breaks at random)")
    folder = tmp_path / f"live-{index:02d}"
    write_case(folder, case, result)
    agree(folder, "1.9")
