"""User and group limits against the real YuniKorn core: the recorded cases of tests/data/oracle-limits (made by
benchmarks/record_limit_cases.py from tests/oracle/oracle_limit_cases.py's generator), compared exactly as the
conformance cases are; and, when the oracle is built ($YK_ORACLE, see ../shared/oracle), fresh seeded scenarios run
live.

$YK_ORACLE_LIMITS_COUNT sets the number of live scenarios (default 30); $YK_ORACLE_SEED their seed (default "live").
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers import paths
from tests.helpers.oracle import oracle_binary
from tests.oracle.conformance import agree
from tests.oracle.oracle_cases import stable_result
from tests.oracle.oracle_limit_cases import generate, write_limit_case

DATA = paths.DATA / "oracle-limits"
CASES = sorted(path for path in DATA.iterdir() if (path / "expected.json").is_file()) if DATA.is_dir() else []
BINARY = oracle_binary()
SEED = os.environ.get("YK_ORACLE_SEED", "live")
COUNT = int(os.environ.get("YK_ORACLE_LIMITS_COUNT", "30"))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_limit_case(case: Path) -> None:
    agree(case, "1.9")  # recorded with yunikorn-core be3bb487 (after 1.8)


def test_the_recorded_set_uses_limits() -> None:
    """40 cases, every one with `limits:` and users; most with groups too."""
    assert len(CASES) == 40
    grouped = 0
    for case in CASES:
        assert "limits:" in (case / "queues.yaml").read_text(encoding="utf-8")
        workload = YAML(typ="safe").load((case / "workload.yaml").read_text(encoding="utf-8"))
        assert all(app.get("user") for app in workload["applications"])
        grouped += any(app.get("groups") for app in workload["applications"])
    assert grouped >= 30


@pytest.mark.skipif(BINARY is None, reason="the oracle is not built (set YK_ORACLE, see ../shared/oracle)")
@pytest.mark.parametrize("index", range(COUNT), ids=lambda index: f"{SEED}-{index:02d}")
def test_yk_agrees_with_the_core_live(index: int, tmp_path: Path) -> None:
    assert BINARY is not None
    case = generate(random.Random(f"limits-{SEED}-{index}"))
    try:
        result = stable_result(BINARY, case, runs=3)
    except RuntimeError as err:
        pytest.skip(f"the core refused the generated config: {str(err)[-120:]}")
    if result is None:
        pytest.skip("the core gave different traces on 3 runs (a tie it breaks at random)")
    folder = tmp_path / f"limits-{index:02d}"
    write_limit_case(folder, case, result)
    agree(folder, "1.9")
