"""What the real YuniKorn core did on generated preemption scenarios (tests/data/oracle/, recorded by
benchmarks/record_oracle_cases.py): one test per case, compared exactly as the conformance cases are
(tests/test_conformance.py's `agree`: allocations in order with their nodes, victims before an allocation as a
set, the pending set).

yk's engine does not preempt yet: the cases whose expected trace preempts are expected to fail through ONE
switch, PREEMPTION_IN_PROGRESS below. Delete it (set it to None) when the engine preempts.

Cases where yk is wrong today without any preemption are listed by name in KNOWN_YK_BUGS (strict xfail).
`equal-asks-0001` is a hand-written minimal case of the one found so far (its expected.json is the oracle's
answer; the recorder leaves folders of other names alone).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.oracle import to_oracle
from tests.test_conformance import CHECK, agree

PREEMPTION_IN_PROGRESS: str | None = "preemption engine in progress"
"""The xfail reason of every case whose expected trace preempts; None: they must agree like the others."""

DATA = Path(__file__).resolve().parent / "data" / "oracle"

EQUAL_ASK_ORDER = (
    "yk bug: asks of one application with equal priority and equal submit time are served in file order by yk; "
    "the core keeps them in a sorted slice (sorted_asks.go insert) and puts a new ask BEFORE the equal ones already "
    "there unless it sorts last of all, so asks sent as [P2, P16 a, P16 b] are served P16 b, P16 a, P2"
)
KNOWN_YK_BUGS: dict[str, str] = {
    "equal-asks-0001": EQUAL_ASK_ORDER,
    # asks P-23, P37 (priority), P37 (class never-37): the core serves the class ask first, it reserves node-1 and
    # cannot preempt, so P37 ask-2 finds every node reserved; yk serves ask-2 first and preempts alloc-6 for it
    "preempt-0085": EQUAL_ASK_ORDER,
}
"""Non-preempting cases where yk disagrees with the core today: case name -> what differs (xfail, strict)."""


def has_equal_asks(workload: dict[str, Any]) -> bool:
    """Whether some application has two asks of equal priority (priority classes resolved) and equal submit time:
    where the EQUAL_ASK_ORDER bug can show."""
    seen: set[tuple[str, int, int | None]] = set()
    for ask in to_oracle("", workload)["asks"]:
        key = (ask["app"], ask["priority"], ask.get("ageSeconds"))
        if key in seen:
            return True
        seen.add(key)
    return False


def preempting_marks(preempting: bool) -> list[Any]:
    """The marks of a case by whether the core preempted in it (see PREEMPTION_IN_PROGRESS)."""
    if preempting and PREEMPTION_IN_PROGRESS:
        return [pytest.mark.xfail(strict=False, reason=PREEMPTION_IN_PROGRESS)]
    return []


def expects_preemption(case: Path) -> bool:
    """Whether the real core preempted anything in this recorded case."""
    events = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
    return any(event["type"] == "preempt" for event in events)


def _params() -> list[Any]:
    cases = sorted(path for path in DATA.iterdir() if (path / "expected.json").is_file()) if DATA.is_dir() else []
    params = []
    for case in cases:
        marks = preempting_marks(expects_preemption(case))
        if case.name in KNOWN_YK_BUGS:
            marks = [pytest.mark.xfail(strict=True, reason=KNOWN_YK_BUGS[case.name])]
        params.append(pytest.param(case, marks=marks, id=case.name))
    return params


CASES = _params()


@pytest.mark.skipif(CHECK is None, reason="the comparison is ../shared/conformance/check.py's: not found")
@pytest.mark.parametrize("case", CASES)
def test_oracle_case(case: Path) -> None:
    agree(case)


def test_the_recorded_set() -> None:
    """About half of the recorded cases preempt; every known yk bug names a recorded case."""
    assert len(CASES) >= 150
    preempting = sum(expects_preemption(param.values[0]) for param in CASES)
    assert 0.3 * len(CASES) <= preempting <= 0.7 * len(CASES)
    assert set(KNOWN_YK_BUGS) <= {param.id for param in CASES}


def test_to_oracle_mapping() -> None:
    """The conversion the recorded cases were made with (tests/oracle.py), on one small workload."""
    from tests.oracle import ConversionError

    workload = {
        "priorityClasses": [{"name": "never-7", "value": 7, "preemptionPolicy": "Never", "allowPreemption": False}],
        "nodes": [{"name": "n", "resources": {"memory": "1Ki", "vcore": 2}}],
        "applications": [
            {
                "id": "a",
                "queue": "root.q",
                "allocations": [{"name": "r", "node": "n", "priority": 3, "resources": {"vcore": "500m"},
                                 "startTime": "-4s", "allowPreemption": False, "originator": True}],
                "asks": [
                    {"name": "x", "priority": 9, "resources": {"memory": 5}, "submitTime": "-1m"},
                    {"name": "y", "priorityClass": "never-7", "resources": {"memory": 5}, "requiredNode": "n"},
                ],
            }
        ],
    }  # fmt: skip
    scenario = to_oracle("partitions: []\n", workload)
    assert scenario["nodes"] == [{"id": "n", "resources": {"memory": 1024, "vcore": 2000}}]
    assert scenario["apps"] == [{"id": "a", "queue": "root.q"}]
    assert scenario["allocations"] == [
        {"key": "r", "app": "a", "node": "n", "resources": {"vcore": 500}, "priority": 3,
         "allowPreemptSelf": False, "originator": True, "ageSeconds": 4}
    ]  # fmt: skip
    x, y = scenario["asks"]
    assert (x["priority"], x["allowPreemptOther"], x["allowPreemptSelf"], x["ageSeconds"]) == (9, True, True, 60)
    assert (y["priority"], y["allowPreemptOther"], y["allowPreemptSelf"], y["requiredNode"]) == (7, False, False, "n")
    assert "ageSeconds" not in y
    fractional = {"name": "z", "submitTime": "-1.5s"}  # the core stamps whole seconds
    with pytest.raises(ConversionError):
        to_oracle("", {"applications": [{"id": "a", "queue": "root.q", "asks": [fractional]}]})
