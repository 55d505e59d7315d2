"""Node predicates against the real YuniKorn core (the oracle, ../shared/oracle/README.md "Node predicates"):
fresh seeded scenarios (tests/oracle/oracle_predicate_cases.py) run through the oracle and through yk, compared as the
recorded sets are; the same scenarios without their predicate fields (the control, which yk must already get
right: a failure there is no predicate matter); and the oracle's own hand-made scenarios
(../shared/oracle/examples/predicates-*.json) against what its README says they show, which needs no yk.

Skipped unless the oracle is built: $YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo. Never needed by
the normal test run (tests/oracle/test_oracle_predicate_cases.py runs the recorded set). $YK_ORACLE_SEED changes the
scenarios (default "live"; the recorded set under tests/data/oracle-predicates is seed 1), $YK_ORACLE_COUNT their
number (default 30). A scenario whose oracle trace changed between runs (a tie the core breaks at random) is skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.oracle import ROOT, oracle_binary, oracle_output
from tests.oracle.oracle_cases import Case
from tests.oracle.oracle_predicate_cases import (
    agree,
    case_rng,
    eligible_nodes,
    generate,
    stable_result,
    strip_predicates,
    write_case,
)

BINARY = oracle_binary()
SEED = os.environ.get("YK_ORACLE_SEED", "live")
COUNT = int(os.environ.get("YK_ORACLE_COUNT", "30"))
EXAMPLES = ROOT.parent / "shared" / "oracle" / "examples"
if BINARY is not None and not EXAMPLES.is_dir():  # $YK_ORACLE elsewhere: its examples beside its bin/
    EXAMPLES = BINARY.parent.parent / "examples"

pytestmark = [
    pytest.mark.skipif(BINARY is None, reason="the oracle is not built (set YK_ORACLE, see ../shared/oracle)"),
]

TIE_RUNS = 12


def _agree_unless_a_tie(case: Case, folder: Path) -> None:
    """Write the case with the oracle's answer and compare yk's with it. When they differ, the oracle runs again:
    a scenario it answers in more than one way (a tie it breaks at random, e.g. Go map order over an application's
    reservations) is skipped."""
    assert BINARY is not None
    outcome = stable_result(BINARY, case, runs=3)
    if outcome is None:
        pytest.skip("the core gave different traces on 3 runs (a tie it breaks at random)")
    write_case(folder, case, outcome)
    try:
        agree(folder)
    except AssertionError:
        if stable_result(BINARY, case, runs=TIE_RUNS) != outcome:
            pytest.skip(f"the core gave different traces on {TIE_RUNS} more runs (a tie it breaks at random)")
        raise


@pytest.mark.parametrize("index", range(COUNT), ids=lambda index: f"{SEED}-{index:02d}")
def test_yk_agrees_with_the_core(index: int, tmp_path: Path) -> None:
    _agree_unless_a_tie(generate(case_rng(SEED, index)), tmp_path / f"live-{index:02d}")


@pytest.mark.parametrize("index", range(COUNT), ids=lambda index: f"{SEED}-{index:02d}")
def test_yk_agrees_with_the_core_without_the_predicates(index: int, tmp_path: Path) -> None:
    """The control: the same scenario with every predicate field stripped. yk agrees with the core here already, so
    a difference in test_yk_agrees_with_the_core is the predicates' doing."""
    _agree_unless_a_tie(strip_predicates(generate(case_rng(SEED, index))), tmp_path / f"control-{index:02d}")


def test_the_generated_scenarios_exercise_the_predicates() -> None:
    """Predicates matter: most asks fail them on some schedulable node (the oracle's `-trace-predicates`), and
    outcomes differ from the control's in most scenarios."""
    assert BINARY is not None
    restricted = asks = changed = 0
    count = min(COUNT, 15)
    for index in range(count):
        case = generate(case_rng(SEED, index))
        schedulable = {node["name"] for node in case.workload["nodes"] if node.get("schedulable", True)}
        eligible = eligible_nodes(BINARY, case)
        keys = [ask["key"] for ask in case.scenario()["asks"]]
        asks += len(keys)
        restricted += sum(not schedulable <= set(eligible.get(key, schedulable)) for key in keys)
        changed += stable_result(BINARY, case, 1) != stable_result(BINARY, strip_predicates(case), 1)
    assert restricted >= 0.4 * asks, f"only {restricted} of {asks} asks fail their predicates on some node"
    assert changed >= 0.6 * count, f"the predicates changed only {changed} of {count} outcomes"


# -- the oracle's hand-made scenarios (README "Hand-made scenarios") ---------------------------------------------


def _run_example(scenario: dict[str, Any]) -> dict[str, Any]:
    """allocations (ask -> node), victims [(victim, preemptor)], pending asks, the summary's reservations."""
    assert BINARY is not None
    lines = [json.loads(line) for line in oracle_output(BINARY, scenario).stdout.splitlines() if line.strip()]
    allocs = {line["allocationKey"]: line["nodeID"] for line in lines if line["type"] == "allocation"}
    victims = [(line["allocationKey"], line["preemptor"]) for line in lines if line["type"] == "preemption"]
    summary = next(line for line in lines if line["type"] == "summary")
    pending = sorted(ask["key"] for ask in scenario["asks"] if ask["key"] not in allocs)
    return {"allocs": allocs, "victims": victims, "pending": pending, "reservations": summary["reservations"]}


def _control(scenario: dict[str, Any]) -> dict[str, Any]:
    """The scenario with its predicate fields stripped."""
    out = json.loads(json.dumps(scenario))
    for node in out["nodes"]:
        for key in ("labels", "taints", "unschedulable"):
            node.pop(key, None)
    pods = [*out.get("asks", []), *out.get("allocations", [])]
    pods += [tg for app in out["apps"] for tg in app.get("taskGroups", [])]
    for pod in pods:
        for key in ("nodeSelector", "tolerations", "affinity", "nodeName"):
            pod.pop(key, None)
    return out


def _taints(w: dict[str, Any], c: dict[str, Any]) -> None:
    a = w["allocs"]
    assert a.get("plain-0") == "node-c", a  # plain asks only on the untainted node (node-d is cordoned)
    assert a.get("teamx-0") == "node-a", a  # Equal toleration of dedicated=team-x:NoSchedule
    assert a.get("gpu-0") == "node-b", a  # Exists without effect tolerates gpu:NoExecute; PreferNoSchedule ignored
    assert a.get("all-0") in ("node-a", "node-b"), a  # tolerates everything, yet avoids the cordoned node
    assert a.get("ds-0") == "node-d", a  # requiredNode + the unschedulable toleration: on the cordoned node
    # one plain ask pending; a NoExecute toleration does not cover NoSchedule; ds-1 keeps node-d reserved
    assert w["pending"] == ["ds-1", "plain-1", "wrong-effect"], w["pending"]
    assert w["reservations"] == 1, w
    assert not c["pending"], c  # control: all eight run


def _affinity(w: dict[str, Any], c: dict[str, Any]) -> None:
    # nodeSelector + In, Gt, two ORed terms (In + Lt), matchFields metadata.name, DoesNotExist, nodeName: each gets
    # the one matching node; Exists + NotIn [a, b] and an empty term stay pending
    assert w["allocs"] == {
        "gpu-zone-b": "n-gpu-b-3",
        "rack-gt-3": "n-cpu-b-4",
        "two-terms": "n-gpu-a-1",
        "by-name": "n-cpu-a-2",
        "no-rack": "n-plain",
        "node-name": "n-gpu-a-1",
    }, w["allocs"]
    assert w["pending"] == ["empty-term", "no-zone-c"], w["pending"]
    assert not c["pending"], c


def _preempt(w: dict[str, Any], c: dict[str, Any]) -> None:
    # a victim only on the gpu node; the preemptor runs there; the one that tolerates nothing preempts nothing
    assert w["victims"] == [("low-3", "svc-gpu")], w["victims"]
    assert w["allocs"] == {"svc-gpu": "node-1"}, w["allocs"]
    assert w["pending"] == ["svc-none"], w["pending"]
    # control: victims on node-0 (equal start index, lower node ID) for both
    assert c["victims"] == [("low-1", "svc-gpu"), ("low-0", "svc-none")], c["victims"]
    assert c["allocs"] == {"svc-gpu": "node-0", "svc-none": "node-0"}, c["allocs"]


def _reserve(w: dict[str, Any], c: dict[str, Any]) -> None:
    # no reservation at all: the best-scoring node (the fuller one, tainted) fails the reserve check and the other
    # node is not tried; the control reserves the tainted node
    assert not w["allocs"] and w["pending"] == ["big"] and w["reservations"] == 0, w
    assert not c["allocs"] and c["pending"] == ["big"] and c["reservations"] == 1, c


README_CLAIMS = {
    "predicates-taints": _taints,
    "predicates-affinity": _affinity,
    "predicates-preempt": _preempt,
    "predicates-reserve": _reserve,
}
EXAMPLE_FILES = sorted(EXAMPLES.glob("predicates-*.json")) if EXAMPLES.is_dir() else []


def test_every_example_has_its_readme_claim_checked() -> None:
    if not EXAMPLE_FILES:
        pytest.skip(f"no predicates-*.json under {EXAMPLES}")
    assert sorted(path.stem for path in EXAMPLE_FILES) == sorted(README_CLAIMS)


@pytest.mark.parametrize("name", sorted(README_CLAIMS))
def test_the_example_shows_what_the_readme_says(name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    scenario = json.loads(path.read_text(encoding="utf-8"))
    with_predicates = _run_example(scenario)
    assert with_predicates == _run_example(scenario), "the oracle gave two answers"
    README_CLAIMS[name](with_predicates, _run_example(_control(scenario)))
