"""What the real YuniKorn core did on generated preemption scenarios (tests/data/oracle/, recorded by
benchmarks/record_oracle_cases.py): one test per case, compared exactly as the conformance cases are
(tests/oracle/test_conformance.py's `agree`: allocations in order with their nodes, victims before an allocation as a
set, the pending set).

Every case must agree, preempting or not. `equal-asks-0001` is a hand-written minimal case of YuniKorn's
sorted insert of equal asks (sorted_asks.go: a later equal ask goes first unless it sorts last), which yk once got
wrong; its expected.json is the oracle's answer (the recorder leaves folders of other names alone).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import paths
from tests.helpers.oracle import to_oracle
from tests.oracle.conformance import agree

DATA = paths.DATA / "oracle"


def has_equal_asks(workload: dict[str, Any]) -> bool:
    """Whether some application has two asks of equal priority (priority classes resolved) and equal submit time:
    where the order of YuniKorn's sorted insert shows."""
    seen: set[tuple[str, int, int | None]] = set()
    for ask in to_oracle("", workload)["asks"]:
        key = (ask["app"], ask["priority"], ask.get("ageSeconds"))
        if key in seen:
            return True
        seen.add(key)
    return False


def expects_preemption(case: Path) -> bool:
    """Whether the real core preempted anything in this recorded case."""
    events = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
    return any(event["type"] == "preempt" for event in events)


def _params() -> list[Any]:
    cases = sorted(path for path in DATA.iterdir() if (path / "expected.json").is_file()) if DATA.is_dir() else []
    params = []
    for case in cases:
        params.append(pytest.param(case, id=case.name))
    return params


CASES = _params()


@pytest.mark.parametrize("case", CASES)
def test_oracle_case(case: Path) -> None:
    agree(case, "1.9")  # recorded with yunikorn-core be3bb487 (after 1.8): the max fence of YUNIKORN-3241 applies


def test_the_recorded_set() -> None:
    """About half of the recorded cases preempt."""
    assert len(CASES) >= 150
    preempting = sum(expects_preemption(param.values[0]) for param in CASES)
    assert 0.3 * len(CASES) <= preempting <= 0.7 * len(CASES)


def test_to_oracle_mapping() -> None:
    """The conversion the recorded cases were made with (tests/helpers/oracle.py), on one small workload."""
    from tests.helpers.oracle import ConversionError

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
