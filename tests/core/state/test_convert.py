"""core.state: a state dump's JSON as yk's queue config and workload documents (units, times, order, gangs,
what is left out and assumed, and the errors of a dump yk cannot read)."""

from __future__ import annotations

from typing import Any

import pytest

from yk_cli.core.state.config import config_document, pointer_of
from yk_cli.core.state.convert import convert_state, natural_key, quantity
from yk_cli.core.state.dump import StateError

NOW = 1_000_000 * 1_000_000_000
"""The dump's timestamp: second 1,000,000 since the epoch."""


def dump(**parts: Any) -> dict[str, Any]:
    """A minimal dump: one partition, root with one leaf, and the given parts."""
    base: dict[str, Any] = {
        "timestamp": NOW,
        "partitions": [{"name": "default"}],
        "config": {"Partitions": [{"Name": "default", "Queues": [{"Name": "root", "Queues": [{"Name": "a"}]}]}]},
        "nodes": [{"partitionName": "default", "nodesInfo": []}],
        "applications": [],
    }
    base.update(parts)
    return base


def app(app_id: str, **fields: Any) -> dict[str, Any]:
    return {"applicationID": app_id, "partition": "default", "queueName": "root.a", "applicationState": "Running",
            "submissionTime": NOW, **fields}


def test_quantities_in_the_workloads_units() -> None:
    assert quantity("vcore", 4000) == 4
    assert quantity("vcore", 1500) == "1500m"
    assert quantity("memory", 4 << 30) == "4Gi"
    assert quantity("memory", 1536 << 20) == "1536Mi"
    assert quantity("memory", 1000) == 1000
    assert quantity("nvidia.com/gpu", 2) == 2


def test_natural_order_of_keys() -> None:
    assert sorted(["w-10", "w-2", "w-1"], key=natural_key) == ["w-1", "w-2", "w-10"]


def test_config_keys_lower_cased_map_keys_kept_empty_values_left_out() -> None:
    config = {
        "Partitions": [
            {
                "Name": "default",
                "Queues": [
                    {
                        "Name": "root",
                        "Parent": True,
                        "Resources": {},
                        "SubmitACL": "*",
                        "MaxApplications": 0,
                        "Properties": {"priority.policy": "fence", "x": ""},
                        "Queues": [{"Name": "a", "Resources": {"Max": {"memory": "10G"}}}],
                    }
                ],
                "NodeSortPolicy": {"Type": ""},
                "Preemption": {},
            }
        ],
        "Checksum": "ABC",
    }
    document, pointers = config_document(config, "/config")
    assert document == {
        "partitions": [
            {
                "name": "default",
                "queues": [
                    {
                        "name": "root",
                        "parent": True,
                        "submitacl": "*",
                        "properties": {"priority.policy": "fence", "x": ""},
                        "queues": [{"name": "a", "resources": {"max": {"memory": "10G"}}}],
                    }
                ],
            }
        ]
    }
    path = ("partitions", 0, "queues", 0, "properties", "priority.policy")
    assert pointer_of(pointers, path) == "/config/Partitions/0/Queues/0/Properties/priority.policy"
    assert pointer_of(pointers, (*path, "deeper")) == "/config/Partitions/0/Queues/0/Properties/priority.policy"


def test_preemption_switched_off_is_kept() -> None:
    """`Preemption.Enabled` is a Go *bool: false turns preemption off and must be written (other false values are
    Go's omitempty defaults)."""
    partition = {"Name": "default", "Queues": [{"Name": "root"}], "Preemption": {"Enabled": False}}
    config = {"Partitions": [{**partition, "PlacementRules": [{"Name": "provided", "Create": False}]}]}
    document, pointers = config_document(config, "/config")
    assert document["partitions"][0]["preemption"] == {"enabled": False}
    assert document["partitions"][0]["placementrules"] == [{"name": "provided"}]
    assert pointers[("partitions", 0, "preemption", "enabled")] == "/config/Partitions/0/Preemption/Enabled"


def test_times_relative_to_the_dump_rounded_to_seconds_and_ordered() -> None:
    requests = [
        {"allocationKey": "r-10", "requestTime": NOW - 60 * 10**9, "priority": "5", "resource": {"vcore": 1000}},
        {"allocationKey": "r-2", "requestTime": NOW - 60 * 10**9, "priority": "5", "resource": {"vcore": 1000}},
        {"allocationKey": "r-0", "requestTime": NOW - 400_000_000, "priority": "-3", "originator": True},
    ]
    allocations = [{"allocationKey": "x", "nodeId": "n", "allocationTime": NOW - 90 * 10**9, "priority": "0",
                    "resource": {"memory": 1 << 30}}]
    docs = convert_state(dump(applications=[app("a1", submissionTime=NOW - 120 * 10**9, requests=requests,
                                                  allocations=allocations, user="u", groups=["g"])]))
    [entry] = docs.workload["applications"]
    assert entry["submitTime"] == "-2m0s" and entry["placed"] is True and entry["queue"] == "root.a"
    assert [(a["name"], a["submitTime"], a["priority"]) for a in entry["asks"]] == [
        ("r-2", "-1m0s", 5), ("r-10", "-1m0s", 5), ("r-0", "0s", -3)
    ]
    assert entry["asks"][2]["originator"] is True
    assert entry["allocations"] == [
        {"name": "x", "node": "n", "priority": 0, "resources": {"memory": "1Gi"}, "startTime": "-1m30s"}
    ]
    assert docs.workload_pointers[("applications", 0, "asks", 1)] == "/applications/0/requests/0"


def test_finished_applications_and_preempted_allocations_are_left_out_and_said() -> None:
    allocations = [{"allocationKey": "v", "nodeId": "n", "preempted": True, "resource": {}}]
    docs = convert_state(dump(applications=[app("done", applicationState="Completed"),
                                            app("r", allocations=allocations)]))
    assert [a["id"] for a in docs.workload["applications"]] == ["r"]
    assert "allocations" not in docs.workload["applications"][0]
    assert any("(1 Completed)" in s for s in docs.assumptions)
    assert any("already preempting are taken as released (r: v)" in s for s in docs.assumptions)


def test_a_gang_the_shim_holds_gets_its_members_assumed() -> None:
    placeholders = [
        {"allocationKey": f"tg-g-w-{i}", "placeholder": True, "taskGroupName": "w", "priority": "7",
         "resource": {"vcore": 500}} for i in range(2)
    ]
    data = [{"taskGroupName": "w", "count": 2, "minResource": {"vcore": 500}}]
    docs = convert_state(dump(applications=[app("g", applicationState="Accepted", requests=placeholders,
                                                 placeholderData=data)]))
    [entry] = docs.workload["applications"]
    assert entry["taskGroups"] == [{"name": "w", "minMember": 2, "minResource": {"vcore": "500m"}}]
    assert [(a["name"], a["priority"], a["taskGroupName"], a.get("originator")) for a in entry["asks"]] == [
        ("g-w-0", 7, "w", True), ("g-w-1", 7, "w", None)
    ]
    assert any(s.startswith("gang application g: the shim holds its real pods") for s in docs.assumptions)


def test_nodes_labels_occupied_and_cordoned() -> None:
    nodes = [{"partitionName": "default", "nodesInfo": [
        {"nodeID": "n-10", "capacity": {"vcore": 4000}, "schedulable": True},
        {"nodeID": "n-2", "capacity": {"vcore": 4000}, "schedulable": False,
         "attributes": {"si/node-partition": "[x]default", "zone": "a"},
         "foreignAllocations": [{"allocationKey": "f", "resource": {"vcore": 500}, "preemptable": True}]},
    ]}]
    docs = convert_state(dump(nodes=nodes))
    assert docs.workload["nodes"] == [
        {"name": "n-2", "resources": {"vcore": 4}, "occupied": {"vcore": "500m"}, "schedulable": False,
         "labels": {"zone": "a"}},
        {"name": "n-10", "resources": {"vcore": 4}},
    ]
    assert any("1 pods of other schedulers are marked preemptable" in s for s in docs.assumptions)


def test_partitions_and_version() -> None:
    two = dump(partitions=[{"name": "a"}, {"name": "b"}])
    with pytest.raises(StateError, match=r"the dump has 2 partitions \(a, b\): choose one"):
        convert_state(two)
    assert convert_state(two, "b").partition == "b"
    with pytest.raises(StateError, match="the dump has no partition 'c'"):
        convert_state(two, "c")
    info = [{"rmBuildInformation": [{"buildVersion": "1.7.0", "rmId": "x"}]}]
    assert convert_state(dump(clusterInfo=info)).version == "1.7.0"


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"applications": "x"}, "/applications: expected a list, found a string"),
        ({"applications": [app("a", requests=[{"allocationKey": "k", "priority": "abc"}])]},
         "/applications/0/requests/0/priority: expected an integer, found a string 'abc'"),
        ({"applications": [app("a", queueName="")]}, "/applications/0/queueName: application a has no queueName"),
        ({"applications": [app("a", allocations=[{"allocationKey": "k", "nodeId": "n"}] * 2)]},
         "/applications/0/allocations/1/allocationKey: allocation key k is used twice"),
        ({"nodes": [{"partitionName": "default", "nodesInfo": [{"nodeID": "n", "capacity": {"vcore": "4"}}]}]},
         "/nodes/0/nodesInfo/0/capacity/vcore: expected an integer quantity, found a string"),
    ],
)
def test_what_cannot_be_read_says_where(parts: dict[str, Any], message: str) -> None:
    with pytest.raises(StateError) as caught:
        convert_state(dump(**parts))
    assert str(caught.value) == message


def test_not_a_dump_and_no_config() -> None:
    with pytest.raises(StateError, match="not a YuniKorn state dump"):
        convert_state({"kind": "List"})
    without = dump()
    del without["config"]
    with pytest.raises(StateError, match="the dump has no scheduler config"):
        convert_state(without)
