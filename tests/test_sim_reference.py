"""The fast engine against a naive re-implementation (tests/sim_reference.py) on random small workloads.

The engine keeps sorted structures up to date incrementally and skips subtrees and asks it can prove would fail;
the reference recomputes and re-sorts everything every cycle. Both must produce the same steps at the same
times and leave the same asks pending. YK_REF_EXAMPLES sets the number of examples (default 300).
"""

from __future__ import annotations

import json
import os
from typing import Any

import hypothesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.sim_reference import Reference
from tests.test_simulation import random_case, scenario
from yk_cli.core.diagnostics import Level
from yk_cli.core.simulation import SimulationOptions, simulate
from yk_cli.load.workload import parse_workload

EXAMPLES = int(os.environ.get("YK_REF_EXAMPLES", "300"))


def compare(config: str, workload_text: str, version: str) -> None:
    """Engine and reference agree on every event and on the pending asks."""
    partition, tree, workload = scenario(config, workload_text)
    trace = simulate(partition, tree, workload, SimulationOptions(yunikorn_version=version))
    events, pending = Reference(partition, tree, workload, legacy=version == "1.5").run()
    got = [(e.type, e.time, e.application, e.ask, e.node) for e in trace.events]
    assert got == events
    assert sorted(p.ask for p in trace.pending) == pending
    for kind in sorted({e.type for e in trace.events}):
        hypothesis.event(kind)


@st.composite
def busy_case(draw: st.DrawFn) -> tuple[str, str, str]:
    """A crowded cluster: more and larger asks than the nodes hold, old asks, durations, limits at every level."""
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
            app_asks.append(ask)
        apps.append(
            {
                "id": f"app{a}",
                "queue": draw(st.sampled_from(leaves)),
                "submitTime": f"{draw(st.integers(-10, 6))}s",
                "asks": app_asks,
            }
        )
    workload = {"nodes": nodes, "applications": apps}
    return json.dumps(config), json.dumps(workload), draw(st.sampled_from(["1.5", "1.8"]))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_case())
def test_engine_matches_the_naive_reference(case: tuple[str, str, str]) -> None:
    config, workload, version = case
    assume(not any(p.level == Level.ERROR for p in parse_workload(workload).problems))
    compare(config, workload, version)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(busy_case())
def test_engine_matches_the_naive_reference_in_a_crowded_cluster(case: tuple[str, str, str]) -> None:
    config, workload, version = case
    assume(not any(p.level == Level.ERROR for p in parse_workload(workload).problems))
    compare(config, workload, version)
