"""Dry-run scenarios written inline, shared by the tests of core/sim, core/analysis and the CLI: a partition, tree and
workload from config and workload texts (scenario), their trace (run) and what to read of it (allocated, steps,
pending); the builders of tiny preemption clusters (q, alloc, ask, app, wl); random cases for hypothesis
(random_case, preempting_case)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from tests.conftest import dedent
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Level
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sim.trace import Trace
from yk_cli.core.workload.model import Workload
from yk_cli.load.source import parse_yaml
from yk_cli.load.workload import parse_workload

SECOND = 1_000_000_000



def scenario(config: str, workload: str) -> tuple[Any, QueueTree, Workload]:
    """Partition, tree and workload of inline texts (which must load without errors)."""
    decoded, problems = decode_config(parse_yaml(dedent(config)).documents[0])
    assert problems == []
    partition = decoded.partitions[0]
    loaded = parse_workload(dedent(workload))
    assert [p.message for p in loaded.problems if p.level == Level.ERROR] == []
    return partition, build_queue_tree(partition), loaded.workload



def run(config: str, workload: str, **options: Any) -> Trace:
    """Simulate inline texts; options are SimulationOptions fields (until in seconds)."""
    if options.get("until") is not None:
        options["until"] = int(options["until"] * SECOND)
    partition, tree, loaded = scenario(config, workload)
    return simulate(partition, tree, loaded, SimulationOptions(**options))



def allocated(trace: Trace) -> list[str]:
    """The asks allocated, in order."""
    return [e.ask for e in trace.events if e.type == codes.ALLOCATE]



def steps(trace: Trace) -> list[tuple[float, str, str, str]]:
    """(seconds, event type, ask, node) of every event."""
    return [(e.time / SECOND, e.type, e.ask, e.node) for e in trace.events]



def pending(trace: Trace) -> dict[str, tuple[str, str]]:
    """ask -> (reason code, reason) of every pending ask."""
    return {p.ask: (p.code, p.reason) for p in trace.pending}



RESOURCE_TYPES = ("memory", "vcore")



@st.composite
def random_case(draw: st.DrawFn) -> tuple[str, str, str]:
    """A random small config, workload and YuniKorn version (JSON texts, which are YAML)."""
    sizes = st.integers(min_value=1, max_value=12)

    def resources(allow_empty: bool = False) -> dict[str, int]:
        chosen = draw(st.lists(st.sampled_from(RESOURCE_TYPES), min_size=0 if allow_empty else 1, unique=True))
        return {name: draw(sizes) for name in sorted(chosen)}

    def queue(name: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name}
        if draw(st.integers(0, 2)) == 0:
            out["resources"] = {"max": resources()}
            if draw(st.booleans()):
                out["resources"]["guaranteed"] = resources()
        if draw(st.integers(0, 3)) == 0:
            out["maxapplications"] = draw(st.integers(1, 3))
        out["properties"] = {
            "application.sort.policy": draw(st.sampled_from(["fifo", "fair", "stateaware"])),
            "application.sort.priority": draw(st.sampled_from(["enabled", "disabled"])),
        }
        children = draw(st.integers(0, 2)) if depth < 2 else 0
        if children:
            out["queues"] = [queue(f"{name}-{i}", depth + 1) for i in range(children)]
        return out

    top = [queue(f"q{i}", 1) for i in range(draw(st.integers(1, 3)))]
    config = {
        "partitions": [
            {
                "name": "default",
                "nodesortpolicy": {"type": draw(st.sampled_from(["fair", "binpacking"]))},
                "queues": [{"name": "root", "submitacl": "*", "queues": top}],
            }
        ]
    }
    leaves: list[str] = []

    def collect(q: dict[str, Any], prefix: str) -> None:
        path = f"{prefix}.{q['name']}"
        if "queues" in q:
            for child in q["queues"]:
                collect(child, path)
        else:
            leaves.append(path)

    for q in top:
        collect(q, "root")
    nodes = [
        {
            "name": f"n{i}",
            "resources": {"memory": draw(st.integers(4, 20)), "vcore": draw(st.integers(1, 8))},
            "schedulable": draw(st.integers(0, 5)) > 0,
        }
        for i in range(draw(st.integers(1, 4)))
    ]
    apps = []
    for a in range(draw(st.integers(1, 5))):
        app_asks = [
            {
                "name": f"a{a}-{k}",
                "priority": draw(st.integers(-3, 3)),
                "resources": resources(allow_empty=True),
                "submitTime": f"{draw(st.integers(-5, 8))}s",
                **({"duration": f"{draw(st.integers(1, 40))}s"} if draw(st.booleans()) else {}),
            }
            for k in range(draw(st.integers(1, 4)))
        ]
        app: dict[str, Any] = {
            "id": f"app{a}",
            "queue": draw(st.sampled_from(leaves)),
            "submitTime": f"{draw(st.integers(-5, 5))}s",
            "asks": app_asks,
        }
        if draw(st.integers(0, 3)) == 0:
            node = draw(st.sampled_from(nodes))
            app["allocations"] = [
                {
                    "name": f"r{a}",
                    "node": node["name"],
                    "resources": {"memory": draw(st.integers(1, 4))},
                    "startTime": "-30s",
                    **({"duration": f"{draw(st.integers(1, 40))}s"} if draw(st.booleans()) else {}),
                }
            ]
        apps.append(app)
    workload = {"nodes": nodes, "applications": apps}
    version = draw(st.sampled_from(["1.5", "1.8"]))
    return json.dumps(config), json.dumps(workload), version


OLD = "-60s"
"""Submit time of asks that have waited longer than the default 30 s preemption.delay."""



def q(
    name: str,
    g: int | None = None,
    mx: int | None = None,
    kids: list[dict[str, Any]] | None = None,
    **props: Any,
) -> dict[str, Any]:
    """A queue: guaranteed / max memory, child queues, properties (keyword names with '_' for '.')."""
    out: dict[str, Any] = {"name": name}
    res: dict[str, Any] = {}
    if g is not None:
        res["guaranteed"] = {"memory": g}
    if mx is not None:
        res["max"] = {"memory": mx}
    if res:
        out["resources"] = res
    if props:
        out["properties"] = {k.replace("_", "."): str(v) for k, v in props.items()}
    if kids:
        out["queues"] = kids
    return out



def alloc(name: str, mem: int, node: str = "n1", age: int = 10, priority: int = 0, **extra: Any) -> dict[str, Any]:
    """A running pod started `age` seconds before the run (larger age = older)."""
    return {
        "name": name,
        "node": node,
        "priority": priority,
        "resources": {"memory": mem},
        "startTime": f"-{age}s",
        **extra,
    }



def ask(name: str, mem: int, priority: int = 0, submit: str = OLD, **extra: Any) -> dict[str, Any]:
    """A pending pod, by default old enough to preempt."""
    return {"name": name, "priority": priority, "resources": {"memory": mem}, "submitTime": submit, **extra}



def app(app_id: str, queue: str, allocs: list[dict[str, Any]] = (), asks: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    return {"id": app_id, "queue": queue, "allocations": list(allocs), "asks": list(asks)}



def wl(*apps: dict[str, Any], nodes: dict[str, int] | None = None, classes: list[dict[str, Any]] | None = None) -> str:
    """A workload: nodes (name -> memory, default one node n1 of 10) and applications."""
    nodes = nodes or {"n1": 10}
    out: dict[str, Any] = {"nodes": [{"name": n, "resources": {"memory": m}} for n, m in nodes.items()]}
    if classes:
        out["priorityClasses"] = classes
    out["applications"] = list(apps)
    return json.dumps(out)



@st.composite
def preempting_case(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two parents of two leaves (random guarantees, fence and disabled policies, no offsets), full nodes of
    running pods (random priority, opt-out, originator, restart, some ending during the run) and asks (mostly old,
    some DaemonSet, some Never, some running for a while)."""
    leaves: list[str] = []
    parents = []
    for p in range(2):
        kids = []
        for c in range(2):
            name = f"l{p}{c}"
            leaves.append(f"root.p{p}.{name}")
            props = {}
            if draw(st.integers(0, 5)) == 0:
                props["preemption_policy"] = "disabled"
            kids.append(q(name, g=draw(st.sampled_from([None, None, 2, 4, 8])), **props))
        props = {}
        policy = draw(st.sampled_from([None, None, "fence", "disabled"]))
        if policy:
            props["preemption_policy"] = policy
        parents.append(q(f"p{p}", g=draw(st.sampled_from([None, 6, 12])), kids=kids, **props))
    node_count = draw(st.integers(1, 3))
    nodes = {f"n{i}": draw(st.integers(4, 10)) for i in range(1, node_count + 1)}
    apps: dict[str, dict[str, Any]] = {leaf: app(f"app-{leaf.rsplit('.', 1)[1]}", leaf) for leaf in leaves}
    serial = 0
    for node, capacity in nodes.items():
        free = capacity
        while free > 0:
            size = min(free, draw(st.integers(1, 4)))
            free -= size
            serial += 1
            extra: dict[str, Any] = {}
            if draw(st.integers(0, 4)) == 0:
                extra["allowPreemption"] = False
            if draw(st.integers(0, 6)) == 0:
                extra["originator"] = True
            if draw(st.booleans()):
                extra["restartOnPreemption"] = True
            if draw(st.integers(0, 3)) == 0:  # ends during the run: later tries see a changed cluster
                extra["duration"] = f"{draw(st.integers(1, 12)) * 7}s"
            pod = alloc(f"r{serial}", size, node, draw(st.integers(1, 50)), draw(st.integers(0, 3)), **extra)
            apps[draw(st.sampled_from(leaves))]["allocations"].append(pod)
    for i in range(draw(st.integers(1, 6))):
        extra = {}
        kind = draw(st.integers(0, 7))
        if kind == 0:
            extra["requiredNode"] = draw(st.sampled_from(sorted(nodes)))
        elif kind == 1:
            extra["preemptionPolicy"] = "Never"
        submit = draw(st.sampled_from([OLD, OLD, "0s", "20s"]))
        new = ask(f"k{i}", draw(st.integers(1, 5)), draw(st.integers(0, 3)), submit=submit)
        if draw(st.integers(0, 2)) == 0:
            extra["duration"] = f"{draw(st.integers(1, 10)) * 11}s"
        apps[draw(st.sampled_from(leaves))]["asks"].append({**new, **extra})
    config = {"partitions": [{"name": "default", "queues": [{"name": "root", "submitacl": "*", "queues": parents}]}]}
    # a spare empty node now and then, so that DaemonSet asks have root headroom
    if draw(st.integers(0, 2)) == 0:
        nodes["spare"] = 5
    return config, json.loads(wl(*apps.values(), nodes=nodes))
