"""The dry runs and diffs the HTML report's unit and browser tests render: a small run with preemption, a pending
pod and hostile names, a diff of two configs, and the seeded 10,000-ask run of benchmarks/html_report.py."""

from __future__ import annotations

import json
import re
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
