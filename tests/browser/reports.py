"""The dry runs, diffs and sweeps the HTML report's unit and browser tests render: a small run with preemption, a
pending pod and hostile names, a diff of two configs, the seeded 10,000-ask run of benchmarks/html_report.py, a
small hand-built sweep with hostile names and refused points, and a seeded 2,000-point sweep."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from benchmarks.html_report import Run, dry_run
from tests.helpers.scenarios import alloc, app, ask, q, scenario, wl
from yk_cli.core.analysis.metrics import Metrics, run_metrics
from yk_cli.core.diff.model import (
    ConfigChanges,
    Diff,
    Preemption,
    ProblemChanges,
    Provenance,
    RunChanges,
    SettingChange,
    WorkloadChanges,
)
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.objective import ranked as rank_points
from yk_cli.core.sweep.params import GUARANTEED, NODES_COUNT, PROPERTY, WORKLOAD_FILE, Target
from yk_cli.core.sweep.points import Parameter, grid

EVIL = "x</script><img src=x onerror=alert(1)>&\"'<!--"
"""An application id and ask name that would break out of the page if anything were not escaped."""
DATA = re.compile(r'<script type="application/json" id="yk-data">(.*?)</script>', re.DOTALL)


def config(*queues: dict[str, Any]) -> str:
    return json.dumps({"partitions": [{"name": "default", "queues": [
        {"name": "root", "submitacl": "*", "queues": list(queues)}]}]})


WORKLOAD = wl(
    app("B", "root.b", [alloc("b0", 5, age=20), alloc("b1", 5, age=10)]),
    app("A", "root.a", asks=[ask("a1", 5, duration="30s"),
                             ask("a2", 5, submit="10s", duration="10s", observedStartTime="20s")]),
    app(EVIL, "root.b", asks=[ask(EVIL, 50)]),
    app("C", "root.b", asks=[ask("c1", 4, submit="5s", duration="20s")]),
)
"""root.a (guaranteed 10) preempts b1 at once for a1; a2 waits for a1 (it was observed to start at 20 s, 10 s earlier
than predicted); EVIL's ask never fits; c1 waits for room."""
CONFIG = config(q("a", g=10), q("b"))
OLD_CONFIG = config(q("a"), q("b"))
"""The same queues without root.a's guarantee: nothing is preempted."""


def small_run(cfg: str = CONFIG) -> Run:
    """The small dry run on `cfg` with its metrics."""
    partition, tree, loaded = scenario(cfg, WORKLOAD)
    trace = simulate(partition, tree, loaded, SimulationOptions())
    queue_of = {a.id: a.queue for a in loaded.applications if a.queue}  # as `yk simulate` passes the placed leaves
    return Run(trace, tree, run_metrics(trace, loaded, tree, queue_of), f"queues.yaml + {EVIL}.yaml")


@cache
def large_run() -> Run:
    """benchmarks/html_report.py's seeded 10,000-ask run (once per process)."""
    return dry_run()


def small_diff() -> tuple[Diff, Metrics, Metrics]:
    """A diff of OLD_CONFIG and CONFIG with the small workload, and both runs' metrics."""
    old, new = small_run(OLD_CONFIG), small_run(CONFIG)
    setting = SettingChange("default", "root.a", "resources.guaranteed", "", "{memory: 10}",
                            Provenance("default"), Provenance("set", "root.a", 4, text="memory: 10"), None)
    hit = Preemption("preempt", 0, "A", "a1", "root.a", "B", "b1", "root.b", "n1")
    run = RunChanges(old.trace.summary, new.trace.summary, preemptions_added=(hit,))
    diff = Diff(f"old-{EVIL}.yaml", "new.yaml", ConfigChanges(ProblemChanges(), (setting,)),
                WorkloadChanges(run=run), "workload.yaml", "default")
    return diff, old.metrics, new.metrics


def embedded(page: str) -> Any:
    """The JSON document a page embeds."""
    found = DATA.search(page)
    assert found is not None
    return json.loads(found.group(1))


@dataclass(frozen=True)
class Sweep:
    """A sweep's parameters, points best first and objective, with yk tune's verdicts and best points (if any)."""

    source: str
    parameters: tuple[Parameter, ...]
    ranked: tuple[PointResult, ...]
    objective: tuple[str, str] | None
    verdicts: dict[int, Sequence[str]] | None = None
    best: tuple[int, ...] = field(default=())


VCORE = Parameter("prod vcore", "root.prod.resources.guaranteed.vcore", Target(GUARANTEED, "root.prod", "vcore"),
                  (2, 4))
DELAY = Parameter("delay", "root.prod.properties.preemption.delay", Target(PROPERTY, "root.prod", "preemption.delay"),
                  ("30s", "1m0s"))
WORKLOADS = Parameter(EVIL, "workload", Target(WORKLOAD_FILE), ("monday.yaml", f"{EVIL}.yaml"))
REFUSAL = f"guaranteed resource {EVIL} exceeds the max"


def _point(index: int, values: tuple[object, ...], **numbers: float | None) -> PointResult:
    keys = {"p95": "p95-wait", "prod": "p95-wait:queue=root.prod", "pending": "pending", "mem": "utilization:memory",
            "gap": "fairness-gap:root.prod"}
    return PointResult(index, values, (), tuple(sorted((keys[k], v) for k, v in numbers.items())))


def small_sweep(tune: bool = False) -> Sweep:
    """Three parameters (a number, a duration, a workload named EVIL), eight points: five measured (one measured
    nothing in root.prod, one has no fairness gap), three refused by YuniKorn (EVIL in the reason). With `tune`,
    yk tune's verdicts (one point misses a constraint named EVIL) and its best and runner-up."""
    measured = [
        _point(5, (4, "30s", f"{EVIL}.yaml"), p95=20.0, prod=10.0, pending=0.0, mem=0.75, gap=5.0),
        _point(1, (2, "30s", f"{EVIL}.yaml"), p95=90.0, prod=30.0, pending=1.0, mem=0.9, gap=60.0),
        _point(0, (2, "30s", "monday.yaml"), p95=30.0, prod=45.5, pending=2.0, mem=0.5, gap=None),
        _point(4, (4, "30s", "monday.yaml"), p95=4000.0, prod=75.0, pending=0.0, mem=0.95),
        _point(2, (2, "1m0s", "monday.yaml"), p95=12.5, prod=None, pending=3.0, mem=0.25, gap=0.0),
    ]
    refused = [PointResult(i, v, (REFUSAL, "second reason")) for i, v in (
        (3, (2, "1m0s", f"{EVIL}.yaml")), (6, (4, "1m0s", "monday.yaml")), (7, (4, "1m0s", f"{EVIL}.yaml")))]
    verdicts: dict[int, Sequence[str]] | None = None
    best: tuple[int, ...] = ()
    if tune:
        verdicts = {5: [], 1: [f"p95-wait < 60s {EVIL}"], 0: [], 4: [], 2: []}
        best = (5, 0)
    return Sweep(f"queues.yaml + {EVIL}.yaml", (VCORE, DELAY, WORKLOADS), (*measured, *refused),
                 ("minimize", "p95-wait:queue=root.prod"), verdicts, best)


def large_sweep(count: int = 2000) -> Sweep:
    """A seeded sweep of `count` points (nodes 1..20 by delay 10s..1m40s by memory 8Gi..): the metrics of a real
    sweep's shape (waits per queue and user, pending, utilization, work lost, gaps, makespan), every 97th point
    refused, ranked by the queue's p95 wait."""
    nodes = Parameter("nodes.count", "nodes.count", Target(NODES_COUNT), tuple(range(1, 21)))
    delays = Parameter("delay", DELAY.path, DELAY.target, tuple(f"{s // 60}m{s % 60}s" if s >= 60 else f"{s}s"
                                                                 for s in range(10, 110, 10)))
    memory = Parameter("prod memory", "root.prod.resources.guaranteed.memory",
                       Target(GUARANTEED, "root.prod", "memory"),
                       tuple(f"{8 * i}Gi" for i in range(1, count // 200 + 1)))
    rng = random.Random(7)
    results = []
    for point in grid((nodes, delays, memory))[:count]:
        if point.index % 97 == 3:
            results.append(PointResult(point.index, point.values, (f"point {point.index}: {REFUSAL}",)))
            continue
        numbers: dict[str, float | None] = {}
        for scope in ("", ":queue=root.prod", ":queue=root.batch", ":user=alice"):
            base = rng.uniform(0, 600)
            for i, which in enumerate(("p50", "p90", "p95", "p99", "max")):
                numbers[f"{which}-wait{scope}"] = base * (1 + i / 4) if rng.random() > 0.02 else None
            numbers[f"pending{scope}"] = float(rng.randint(0, 40))
        for kind in ("memory", "vcore"):
            numbers[f"utilization:{kind}"] = rng.uniform(0.2, 1.0)
            numbers[f"lost:{kind}"] = rng.uniform(0, 1e13)
        numbers["fairness-gap:root.prod"] = rng.uniform(0, 3600)
        numbers["preemptions"] = float(rng.randint(0, 100))
        numbers["makespan"] = rng.uniform(3600, 86400)
        results.append(PointResult(point.index, point.values, (), tuple(sorted(numbers.items()))))
    objective = ("minimize", "p95-wait:queue=root.prod")
    return Sweep("queues.yaml + monday.yaml", (nodes, delays, memory), tuple(rank_points(results, objective)),
                 objective)
