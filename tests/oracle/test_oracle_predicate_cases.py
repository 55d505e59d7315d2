"""What the real YuniKorn core did on generated node-predicate scenarios: tests/data/oracle-predicates/ (recorded by
`python -m tests.oracle.oracle_predicate_cases`, see its README). One test per case, compared in the shape its
expected.json takes (tests/oracle/oracle_predicate_cases.py's `agree`): a scenario without gangs as the conformance
cases are (allocations in order with their nodes, victims before an allocation as a set, the pending set), one with a
gang in tests/oracle/gang_oracle.py's canonical form. No oracle needed; the live version is
tests/oracle/test_oracle_predicates.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.helpers import paths
from tests.helpers.oracle import to_oracle
from tests.oracle.oracle_predicate_cases import agree, has_gang

DATA = paths.DATA / "oracle-predicates"
CASES = sorted(p for p in DATA.iterdir() if (p / "expected.json").is_file()) if DATA.is_dir() else []


def _workload(case: Path) -> dict[str, Any]:
    return YAML(typ="safe").load((case / "workload.yaml").read_text(encoding="utf-8")) or {}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_oracle_predicate_case(case: Path) -> None:
    agree(case)


def test_the_recorded_set() -> None:
    """About 40 cases; every predicate field in use; some preempt, some hold a gang, and the oracle's conversion
    accepts every one."""
    assert len(CASES) >= 35
    seen: set[str] = set()
    preempting = gangs = 0
    for case in CASES:
        workload = _workload(case)
        scenario = to_oracle((case / "queues.yaml").read_text(encoding="utf-8"), workload)
        assert len(scenario["nodes"]) <= 6 and len(scenario["asks"]) <= 25, case.name
        for node in scenario["nodes"]:
            seen.update(key for key in ("labels", "taints", "unschedulable") if key in node)
        for pod in [*scenario["asks"], *scenario["allocations"]]:
            seen.update(
                key for key in ("nodeSelector", "tolerations", "affinity", "nodeName", "requiredNode") if key in pod
            )
        events = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
        if has_gang(workload):
            gangs += 1
            preempting += any(event[0] == "preempt" for event in events)
        else:
            preempting += any(event["type"] == "preempt" for event in events)
    assert seen == {"labels", "taints", "unschedulable", "nodeSelector", "tolerations", "affinity", "nodeName",
                    "requiredNode"}  # fmt: skip
    assert preempting >= 5 and gangs >= 3, (preempting, gangs)


def test_to_oracle_carries_the_predicates() -> None:
    """tests/helpers/oracle.py's mapping of the predicate fields (no oracle needed, but it belongs with them)."""
    from tests.helpers.oracle import ConversionError

    selector = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "rack", "operator": "Gt", "values": [3]}]}]}
    workload = {
        "nodes": [
            {"name": "a", "resources": {"memory": 10}, "labels": {"pool": "gpu", "rack": 4},
             "taints": [{"key": "gpu", "value": "true", "effect": "NoExecute"}]},
            {"name": "b", "resources": {"memory": 10}, "schedulable": False},
            {"name": "c", "resources": {"memory": 10}, "schedulable": True, "labels": {}},
        ],
        "applications": [
            {
                "id": "app", "queue": "root.q", "namespace": "ns", "labels": {"app": "x"},
                "nodeSelector": {"pool": "gpu"}, "tolerations": [{"operator": "Exists"}],
                "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": selector}},
                "taskGroups": [{"name": "tg", "minMember": 1, "minResource": {"memory": 1},
                                "nodeSelector": {"zone": "a"}}],
                "allocations": [{"name": "r", "node": "a", "resources": {"memory": 1}}],
                "asks": [
                    {"name": "x", "resources": {"memory": 1}, "count": 2, "nodeName": "a"},
                    {"name": "y", "resources": {"memory": 1}, "nodeSelector": {}, "tolerations": [
                        {"key": "gpu", "operator": "Equal", "value": "true", "effect": "NoExecute",
                         "tolerationSeconds": 5}], "affinity": {"podAffinity": {}}, "labels": {"role": "w"}},
                ],
            },
            {"id": "plain", "queue": "root.q", "asks": [{"name": "z", "resources": {"memory": 1}}]},
        ],
    }  # fmt: skip
    scenario = to_oracle("", workload)
    a, b, c = scenario["nodes"]
    assert a["labels"] == {"pool": "gpu", "rack": "4"}  # YAML's integers as the strings Kubernetes has
    assert a["taints"] == [{"key": "gpu", "value": "true", "effect": "NoExecute"}]
    assert b == {"id": "b", "resources": {"memory": 10}, "unschedulable": True}
    assert c == {"id": "c", "resources": {"memory": 10}}
    (tg,) = scenario["apps"][0]["taskGroups"]
    assert tg["nodeSelector"] == {"zone": "a"} and "tolerations" not in tg  # no application defaults for a group
    want_affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [{"key": "rack", "operator": "Gt", "values": ["3"]}]}]
            }
        }
    }
    (r,) = scenario["allocations"]
    assert r["nodeSelector"] == {"pool": "gpu"} and r["affinity"] == want_affinity
    x0, x1, y, z = scenario["asks"]
    for x in (x0, x1):
        assert x["nodeName"] == "a" and x["nodeSelector"] == {"pool": "gpu"}
        assert x["tolerations"] == [{"operator": "Exists"}] and x["affinity"] == want_affinity
    # the ask's own fields win, whole: an empty nodeSelector clears the default, an affinity without node affinity
    # leaves none
    assert "nodeSelector" not in y and "affinity" not in y and "labels" not in y
    assert y["tolerations"] == [
        {"key": "gpu", "operator": "Equal", "value": "true", "effect": "NoExecute", "tolerationSeconds": 5}
    ]
    assert set(z) == {"key", "app", "priority", "resources", "allowPreemptOther", "allowPreemptSelf"}

    def app_with(**fields: Any) -> dict[str, Any]:
        return {"applications": [{"id": "a", "queue": "root.q", **fields}]}

    pod_terms = {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "zone"}]}
    refused = [
        app_with(asks=[{"name": "p", "affinity": {"podAntiAffinity": pod_terms}}]),
        app_with(affinity={"podAffinity": pod_terms}, asks=[{"name": "p"}]),
        app_with(asks=[{"name": "p", "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone"}]}]),
        app_with(hostPorts=[{"port": 80}], allocations=[{"name": "r", "node": "n"}]),
        app_with(taskGroups=[{"name": "tg", "minMember": 1, "minResource": {},
                              "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone"}]}]),
        {"nodes": [{"name": "n", "resources": {}, "occupied": {"memory": 1}}]},
    ]  # fmt: skip
    for bad in refused:
        with pytest.raises(ConversionError):
            to_oracle("", bad)
