"""What the real YuniKorn core did: every conformance case (tests/data/conformance) without preemption, run in-process.

The comparison is check.py's own (tests/data/conformance/check.py, imported): allocations in order with their nodes,
victims before an allocation as a set, and the pending set. All 125 cases must agree: the 50 under simulate/,
the 45 under preempt/ in which the core preempted nothing and the 30 in which it did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE
from tests.oracle.conformance import agree, observed


def _preempts(case: Path) -> bool:
    """Whether the real core preempted anything in this case."""
    events = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
    return any(event["type"] == "preempt" for event in events)


def _cases(kind: str, *, preempting: bool | None = None) -> list[Path]:
    folder = CONFORMANCE / kind
    cases = sorted(path for path in folder.iterdir() if (path / "expected.json").is_file())
    return [case for case in cases if preempting is None or _preempts(case) == preempting]


SIMULATE = _cases("simulate")
PREEMPT_FREE = _cases("preempt", preempting=False)
PREEMPTING = _cases("preempt", preempting=True)






@pytest.mark.parametrize("case", SIMULATE, ids=lambda case: case.name)
def test_simulate_case(case: Path) -> None:
    agree(case)


@pytest.mark.parametrize("case", PREEMPT_FREE, ids=lambda case: case.name)
def test_preempt_case_without_preemption(case: Path) -> None:
    agree(case)


@pytest.mark.parametrize("case", PREEMPTING, ids=lambda case: case.name)
def test_preempt_case_with_preemption(case: Path) -> None:
    agree(case)
    agree(case, "1.9")  # the core the cases came from: with the max fence of YUNIKORN-3241
    seq, _ = observed(case)
    assert any(event[0] == "preempt" for event in seq), f"{case.name}: yk preempted nothing"


def test_the_case_sets_are_the_documented_ones() -> None:
    """The README promises 50 simulate cases and 75 preempt cases of which 30 preempt."""
    assert len(SIMULATE) == 50
    assert len(_cases("preempt")) == 75
    assert len(_cases("preempt", preempting=True)) == 30
    assert len(PREEMPT_FREE) == 45
