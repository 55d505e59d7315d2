"""The fast engine against a naive re-implementation (tests/core/sim/sim_reference.py) on random small workloads.

The engine keeps sorted structures up to date incrementally and skips subtrees and asks it can prove would fail;
the reference recomputes and re-sorts everything every cycle. Both must produce the same steps at the same
times and leave the same asks pending. YK_REF_EXAMPLES sets the number of examples (default 300).
"""

from __future__ import annotations

import json
import os
from textwrap import dedent
from typing import Any

import hypothesis
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from tests.core.sim.sim_reference import Reference
from tests.helpers.scenarios import random_case, scenario
from yk_cli.core.diagnostics import Level
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.load.workload import parse_workload

EXAMPLES = int(os.environ.get("YK_REF_EXAMPLES", "300"))


def without_preemption(config: str, workload_text: str) -> tuple[str, str]:
    """The same case where nothing can preempt (the naive reference has no preemption): the partition's
    preemption.enabled is false and required-node asks rank below every pod (so no DaemonSet preemption either)."""
    data = YAML(typ="safe").load(dedent(config))
    for partition in data["partitions"]:
        partition["preemption"] = {"enabled": False}
    work = YAML(typ="safe").load(dedent(workload_text))
    for app in work.get("applications", []):
        for ask in app.get("asks", []):
            if "requiredNode" in ask:
                ask["priority"] = -1_000_000
    return json.dumps(data), json.dumps(work)


def compare(config: str, workload_text: str, version: str, record: bool = False) -> None:
    """Engine and reference agree on every event and on the pending asks."""
    config, workload_text = without_preemption(config, workload_text)
    partition, tree, workload = scenario(config, workload_text)
    trace = simulate(partition, tree, workload, SimulationOptions(yunikorn_version=version))
    events, pending = Reference(partition, tree, workload, legacy=version == "1.5").run()
    got = [(e.type, e.time, e.application, e.ask, e.node) for e in trace.events]
    assert got == events
    assert sorted(p.ask for p in trace.pending) == pending
    if record:  # only inside @given: --hypothesis-show-statistics shows what the random cases exercised
        for kind in sorted({e.type for e in trace.events}):
            hypothesis.event(kind)
        for code in sorted({p.code for p in trace.pending}):
            hypothesis.event(f"pending {code}")


@st.composite
def busy_case(draw: st.DrawFn) -> tuple[str, str, str]:
    """A crowded cluster: more and larger asks than the nodes hold, old asks, durations, limits at every level, user
    and group limits (`limits:`) on random queues for applications of a few users and groups."""
    types = ("memory", "vcore")

    def resources(low: int, high: int) -> dict[str, int]:
        chosen = draw(st.lists(st.sampled_from(types), min_size=1, unique=True))
        return {name: draw(st.integers(low, high)) for name in sorted(chosen)}

    def queue(name: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name}
        limits: dict[str, Any] = {}
        if draw(st.integers(0, 2)) == 0:
            limits["max"] = resources(6, 30)
        if draw(st.integers(0, 2)) == 0:
            limits["guaranteed"] = resources(1, 6)
        if limits:
            out["resources"] = limits
        if draw(st.integers(0, 4)) == 0:
            out["maxapplications"] = draw(st.integers(1, 3))
        entries = []
        for who in draw(st.lists(st.sampled_from(["u:alice", "u:bob", "u:*", "g:dev", "g:ops", "g:*"]), max_size=2)):
            entry: dict[str, Any] = {"users" if who[0] == "u" else "groups": [who[2:]]}
            if draw(st.booleans()):
                entry["maxapplications"] = draw(st.integers(1, 2))
            if draw(st.booleans()):
                entry["maxresources"] = resources(4, 20)
            entries.append(entry)
        if entries:
            out["limits"] = entries
        out["properties"] = {
            "application.sort.policy": draw(st.sampled_from(["fifo", "fair", "stateaware"])),
            "application.sort.priority": draw(st.sampled_from(["enabled", "disabled"])),
            "priority.offset": str(draw(st.integers(-3, 3))),
            "priority.policy": draw(st.sampled_from(["default", "default", "fence"])),
        }
        children = draw(st.integers(0, 3)) if depth < 2 else 0
        if children:
            out["queues"] = [queue(f"{name}-{i}", depth + 1) for i in range(children)]
        return out

    top = [queue(f"q{i}", 1) for i in range(draw(st.integers(1, 3)))]
    weights = draw(st.sampled_from([None, {"memory": 1.0, "vcore": 3.0}, {"memory": 2.0}]))
    sort: dict[str, Any] = {"type": draw(st.sampled_from(["fair", "binpacking"]))}
    if weights:
        sort["resourceweights"] = weights
    config = {
        "partitions": [
            {"name": "default", "nodesortpolicy": sort, "queues": [{"name": "root", "submitacl": "*", "queues": top}]}
        ]
    }
    leaves: list[str] = []

    def collect(q: dict[str, Any], prefix: str) -> None:
        path = f"{prefix}.{q['name']}"
        for child in q.get("queues", []):
            collect(child, path)
        if "queues" not in q:
            leaves.append(path)

    for q in top:
        collect(q, "root")
    nodes = [
        {
            "name": f"n{i}",
            "resources": {"memory": draw(st.integers(4, 16)), "vcore": draw(st.integers(2, 8))},
            "schedulable": draw(st.integers(0, 6)) > 0,
        }
        for i in range(draw(st.integers(1, 5)))
    ]
    apps = []
    for a in range(draw(st.integers(1, 6))):
        app_asks = []
        for k in range(draw(st.integers(1, 6))):
            ask: dict[str, Any] = {
                "name": f"a{a}-{k}",
                "priority": draw(st.integers(-2, 2)),
                "resources": resources(1, 8),
                "submitTime": f"{draw(st.integers(-10, 12))}s",
            }
            if draw(st.integers(0, 2)):
                ask["duration"] = f"{draw(st.integers(1, 30))}s"
            if draw(st.integers(0, 9)) == 0:
                ask["requiredNode"] = draw(st.sampled_from([n["name"] for n in nodes] + ["gone"]))
            app_asks.append(ask)
        apps.append(
            {
                "id": f"app{a}",
                "queue": draw(st.sampled_from(leaves)),
                "submitTime": f"{draw(st.integers(-10, 6))}s",
                "user": draw(st.sampled_from(["alice", "bob", "carol", ""])),
                "groups": draw(st.lists(st.sampled_from(["dev", "ops", "ml"]), max_size=2, unique=True)),
                "asks": app_asks,
            }
        )
    workload = {"nodes": nodes, "applications": apps}
    return json.dumps(config), json.dumps(workload), draw(st.sampled_from(["1.5", "1.8"]))


@settings(max_examples=EXAMPLES)
@given(random_case())
def test_engine_matches_the_naive_reference(case: tuple[str, str, str]) -> None:
    config, workload, version = case
    assume(not any(p.level == Level.ERROR for p in parse_workload(workload).problems))
    compare(config, workload, version, record=True)


@settings(max_examples=EXAMPLES)
@given(busy_case())
def test_engine_matches_the_naive_reference_in_a_crowded_cluster(case: tuple[str, str, str]) -> None:
    config, workload, version = case
    assume(not any(p.level == Level.ERROR for p in parse_workload(workload).problems))
    compare(config, workload, version, record=True)


# --- required-node asks (DaemonSet pods): tryRequiredNode --------------------------------------------------------

REQUIRED_CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: leaf
"""


def test_required_node_cancels_another_reservation_and_reserves_at_once() -> None:
    """A required-node ask cancels the reservation another ask holds on its node; one that does not fit its node
    reserves it at once (no 2 s delay) and runs there as soon as the node frees up."""
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}}
      - {name: n2, resources: {memory: 10}}
    applications:
      - id: run
        queue: root.leaf
        allocations:
          - {name: r1, node: n1, priority: 1, resources: {memory: 5}, startTime: -60s, duration: 20s}
          - {name: r2, node: n2, resources: {memory: 5}, startTime: -60s, duration: 30s}
      - id: big
        queue: root.leaf
        submitTime: -30s
        asks:
          - {name: b1, resources: {memory: 9}, submitTime: -30s}
      - id: ds
        queue: root.leaf
        submitTime: 5s
        asks:
          - {name: d1, resources: {memory: 4}, requiredNode: n1}
          - {name: d2, resources: {memory: 6}, requiredNode: n1}
    """
    partition, tree, loaded = scenario(REQUIRED_CONFIG, workload)
    trace = simulate(partition, tree, loaded)
    seconds = 1_000_000_000
    got = [(e.time // seconds, e.type, e.ask, e.node) for e in trace.events]
    assert got == [
        (0, "reserve", "b1", "n1"),  # 9 fits the cluster's 10 free but no node: best fit, ties to n1
        (5, "unreserve", "b1", "n1"),  # d1 requires n1
        (5, "allocate", "d1", "n1"),
        (5, "reserve", "d2", "n1"),  # 6 does not fit n1's 1 left: reserved at once (b1 now fails root headroom);
        # r1 (priority 1) outranks d2, so DaemonSet preemption finds no victim
        (20, "complete", "r1", "n1"),
        (20, "allocate", "d2", "n1"),  # the reservation pass
        (30, "complete", "r2", "n2"),
        (30, "allocate", "b1", "n2"),
    ]
    assert trace.events[1].reason == "cancelled: ds/d1 requires the node"
    assert trace.pending == ()
    compare(REQUIRED_CONFIG, workload, "1.8")


def test_required_node_may_be_unschedulable_and_missing_nodes_are_reasons() -> None:
    """tryRequiredNode does not look at schedulability (DaemonSet pods run on cordoned nodes); an unknown node
    leaves the ask pending with that reason."""
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}, schedulable: false}
      - {name: n2, resources: {memory: 10}}
    applications:
      - id: ds
        queue: root.leaf
        asks:
          - {name: d1, resources: {memory: 4}, requiredNode: n1}
          - {name: d2, resources: {memory: 4}}
    """
    trace = simulate(*scenario(REQUIRED_CONFIG, workload))
    assert [(e.ask, e.node) for e in trace.events] == [("d1", "n1"), ("d2", "n2")]
