"""Seeded random preemption scenarios for the real-core oracle (tests/helpers/oracle.py), in yk's case format.

    generate(rng, big=False) -> Case                       one scenario: queues.yaml text + workload (yk's format)
    stable_result(binary, case, runs) -> Result | None     the oracle's answer, None unless identical on every run
    write_case(folder, case, result)                       queues.yaml, workload.yaml, expected.json

A scenario is a small cluster (1-4 nodes; `big`: 10-30 nodes, 50-200 running allocations), memory and sometimes
vcore, mostly full of running allocations; a 2-3 level queue tree with guarantees (leaves and parents), some
maxes, `preemption.policy` fence/disabled/default, `priority.policy: fence`, `priority.offset`,
`preemption.delay`; running allocations with distinct start times, some opted out (`allowPreemption: false`),
some originators; asks mostly 60 s old (past the default 30 s delay), some 5 s or 20 s old, some with
`preemptionPolicy: Never` (directly or through a priority class), some DaemonSet-style `requiredNode` asks;
priorities overlap between asks and allocations (equal ones included).

Complete ties the core breaks at random (Go map order) are avoided where they are cheap to avoid: asks have
distinct priorities across the scenario (except, rarely, inside one application, where the core's order is
deterministic), applications sharing a leaf have distinct ask ages, sibling fenced queues distinct offsets,
and sibling queues with pending asks distinct initial priorities. What is left is caught by `stable_result`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.oracle import Event, run_oracle, to_oracle

MEMORY_SIZES = (5, 10, 15, 20)
VCORE_SIZES = (250, 500, 1000, 2000)
DELAYS = ("3s", "10s", "45s", "90s")
"""preemption.delay values kept away from the ask ages (5, 20, 60 s and a few seconds more) by >= 2 s."""


@dataclass
class Queue:
    name: str
    path: str
    children: list[Queue] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    guaranteed: dict[str, int] = field(default_factory=dict)
    max: dict[str, int] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    """Running allocations' total in this queue's subtree (core units)."""

    def leaves(self) -> list[Queue]:
        return [self] if not self.children else [leaf for child in self.children for leaf in child.leaves()]


@dataclass
class Case:
    queues_yaml: str
    workload: dict[str, Any]

    def scenario(self) -> dict[str, Any]:
        return to_oracle(self.queues_yaml, self.workload)


Result = tuple[list[Event], list[str]]


def _rounded(kind: str, value: float) -> int:
    """A guarantee or max: memory in steps of 5, vcore in steps of 250m (never 0)."""
    step = 5 if kind == "memory" else 250
    return max(step, round(value / step) * step)


def _add(total: dict[str, int], res: dict[str, int]) -> None:
    for key, value in res.items():
        total[key] = total.get(key, 0) + value


def quantity_text(name: str, value: int) -> str:
    """A core-unit value as a workload/config quantity: vcore in cores when whole, else millicores."""
    if name == "vcore":
        return str(value // 1000) if value % 1000 == 0 else f"{value}m"
    return str(value)


def _flow(res: dict[str, int]) -> str:
    return "{" + ", ".join(f"{k}: {quantity_text(k, v)}" for k, v in sorted(res.items())) + "}"


def _resources_yaml(res: dict[str, int]) -> dict[str, Any]:
    """Workload resources: memory as an int, vcore as cores (int) or a millicore string."""
    out: dict[str, Any] = {}
    for key, value in sorted(res.items()):
        text = quantity_text(key, value)
        out[key] = int(text) if text.lstrip("-").isdigit() else text
    return out


class _Generator:
    def __init__(self, rng: random.Random, big: bool) -> None:
        self.rng = rng
        self.big = big
        self.vcore = rng.random() < 0.35
        self.ask_priorities = rng.sample(range(-40, 150), 150)

    # -- queues -----------------------------------------------------------------------------------------------
    def tree(self) -> Queue:
        rng = self.rng
        root = Queue("root", "root")
        for i in range(rng.randint(3, 5) if self.big else rng.randint(2, 4)):
            if rng.random() < 0.5:
                top = Queue(f"g{i}", f"root.g{i}")
                for j in range(rng.randint(2, 3) if self.big else rng.randint(1, 3)):
                    top.children.append(Queue(f"q{i}{j}", f"{top.path}.q{i}{j}"))
            else:
                top = Queue(f"q{i}", f"root.q{i}")
            root.children.append(top)
        return root

    def properties(self, root: Queue, ask_leaves: list[Queue]) -> None:
        rng = self.rng
        for parent in [root, *[q for q in root.children if q.children]]:
            fenced_offsets: set[int] = set()
            for queue in parent.children:
                props = queue.properties
                roll = rng.random() * (1.0 if queue.children else 2.0)  # fences mostly on parents
                if roll < 0.15:
                    props["preemption.policy"] = "fence"
                elif roll < 0.25:
                    props["preemption.policy"] = "disabled"
                elif roll < 0.3:
                    props["preemption.policy"] = "default"
                if rng.random() < 0.35:
                    props["priority.offset"] = str(rng.choice([-20, -10, -5, -1, 1, 3, 5, 10, 20, 50]))
                if rng.random() < 0.1:
                    offset = int(props.get("priority.offset", "0"))
                    if offset not in fenced_offsets:
                        fenced_offsets.add(offset)
                        props["priority.policy"] = "fence"
                if rng.random() < (0.2 if queue in ask_leaves or queue.children else 0.05):
                    props["preemption.delay"] = rng.choice(DELAYS)
                if not queue.children and rng.random() < 0.08:
                    props["application.sort.policy"] = "fair"
        if rng.random() < 0.05:
            # queue sorting by fair share first at one parent (priority second)
            parents = [q for q in root.children if q.children]
            if parents:
                rng.choice(parents).properties["application.sort.priority"] = "disabled"

    def guarantees(self, root: Queue, ask_leaves: list[Queue], asked: dict[str, dict[str, int]]) -> None:
        rng = self.rng
        types = ["memory", "vcore"] if self.vcore and rng.random() < 0.5 else ["memory"]

        def visit(queue: Queue) -> None:
            for child in queue.children:
                visit(child)
            if not queue.children:
                want = asked.get(queue.path, {})
                if queue in ask_leaves and rng.random() < 0.8:
                    factor = rng.choice([0.5, 1.0, 1.0, 1.5, 2.0])
                    for t in types:
                        base = queue.usage.get(t, 0) + factor * want.get(t, 0)
                        queue.guaranteed[t] = _rounded(t, base)
                elif queue not in ask_leaves and rng.random() < 0.6:
                    factor = rng.choice([0.3, 0.5, 0.8, 1.0, 1.2])
                    for t in types:
                        used = queue.usage.get(t, 0)
                        if used:
                            queue.guaranteed[t] = _rounded(t, used * factor)
            elif queue.path != "root" and rng.random() < 0.45:
                for t in types:
                    children = sum(child.guaranteed.get(t, 0) for child in queue.children)
                    base = children or queue.usage.get(t, 0) * rng.choice([0.5, 1.0, 1.5])
                    if base:
                        extra = rng.choice([0, 0, 5, 10]) * (1 if t == "memory" else 100)
                        value = _rounded(t, base) + extra
                        queue.guaranteed[t] = max(value, children)

        visit(root)

    def maxes(self, root: Queue) -> None:
        rng = self.rng

        def visit(queue: Queue) -> int:
            """Set maxes bottom-up; return the largest memory max set in this subtree (0: none)."""
            below = max((visit(child) for child in queue.children), default=0)
            if queue.path == "root" or rng.random() >= 0.22:
                return below
            floor = max(
                queue.usage.get("memory", 0),
                queue.guaranteed.get("memory", 0),
                sum(child.guaranteed.get("memory", 0) for child in queue.children),
                below,
            )
            queue.max["memory"] = max(5, floor + rng.choice([0, 5, 5, 10, 20]))
            return queue.max["memory"]

        visit(root)

    # -- cluster ----------------------------------------------------------------------------------------------
    def nodes(self) -> list[dict[str, Any]]:
        rng = self.rng
        count = rng.randint(10, 30) if self.big else rng.randint(1, 4)
        same = rng.random() < 0.5
        memory = rng.choice([40, 50, 60, 80, 100])
        cores = rng.choice([4, 8])
        out = []
        for i in range(count):
            res = {"memory": memory if same else rng.choice([40, 50, 60, 80, 100])}
            if self.vcore:
                res["vcore"] = (cores if same else rng.choice([4, 8])) * 1000
            out.append({"name": f"node-{i}", "resources": res})
        return out

    def pod(self) -> dict[str, int]:
        res = {"memory": self.rng.choice(MEMORY_SIZES)}
        if self.vcore:
            res["vcore"] = self.rng.choice(VCORE_SIZES)
        return res


def _fits(free: dict[str, int], res: dict[str, int]) -> bool:
    return all(free.get(k, 0) >= v for k, v in res.items())


def _usage_up(root: Queue, path: str, res: dict[str, int]) -> None:
    queue = root
    _add(queue.usage, res)
    for part in path.split(".")[1:]:
        queue = next(child for child in queue.children if child.name == part)
        _add(queue.usage, res)


def _queues_yaml(root: Queue, nodesort: str | None, preemption_off: bool) -> str:
    lines = ["partitions:", "  - name: default"]
    if nodesort:
        lines += ["    nodesortpolicy:", f"      type: {nodesort}"]
    if preemption_off:
        lines += ["    preemption:", "      enabled: false"]
    lines += ["    queues:", "      - name: root", "        submitacl: '*'"]

    def emit(queue: Queue, indent: int) -> None:
        pad = " " * indent
        lines.append(f"{pad}- name: {queue.name}")
        if queue.properties:
            lines.append(f"{pad}  properties:")
            lines.extend(f"{pad}    {k}: '{v}'" for k, v in queue.properties.items())
        if queue.guaranteed or queue.max:
            lines.append(f"{pad}  resources:")
            if queue.guaranteed:
                lines.append(f"{pad}    guaranteed: {_flow(queue.guaranteed)}")
            if queue.max:
                lines.append(f"{pad}    max: {_flow(queue.max)}")
        if queue.children:
            lines.append(f"{pad}  queues:")
            for child in queue.children:
                emit(child, indent + 4)

    lines.append("        queues:")
    for child in root.children:
        emit(child, 10)
    return "\n".join(lines) + "\n"


def _effective_priority(leaf_priority: dict[str, int], queue: Queue) -> int | None:
    """The queue's initial priority (None: no pending asks), as section 4 of the semantics computes it."""
    if not queue.children:
        raw = leaf_priority.get(queue.path)
    else:
        values = [p for p in (_effective_priority(leaf_priority, c) for c in queue.children) if p is not None]
        raw = max(values) if values else None
    if raw is None:
        return None
    offset = int(queue.properties.get("priority.offset", "0"))
    return offset if queue.properties.get("priority.policy") == "fence" else raw + offset


def generate(rng: random.Random, big: bool = False) -> Case:
    """One random scenario (see the module docstring); `big` ones hold 50-200 running allocations."""
    while True:
        case, allocations = _generate(rng, big)
        if not big or allocations >= 50:
            return case


def _generate(rng: random.Random, big: bool) -> tuple[Case, int]:
    gen = _Generator(rng, big)
    root = gen.tree()
    leaves = root.leaves()
    rng.shuffle(leaves)
    ask_count = rng.randint(2, 4) if big else rng.randint(1, 2)
    ask_leaves = leaves[:ask_count]
    victim_leaves = leaves[ask_count:] or leaves[:1]
    nodes = gen.nodes()

    # running allocations: fill most nodes up (to 80-100 %)
    pods: list[tuple[str, dict[str, Any]]] = []
    limit = rng.randint(50, 200) if big else 10**9
    for node in nodes:
        cap = node["resources"]
        free = dict(cap)
        target = cap["memory"] * rng.choice([1.0, 1.0, 0.95, 0.9, 0.8])
        misses = 0
        while len(pods) < limit and misses < 4:
            res = gen.pod()
            if not _fits(free, res) or cap["memory"] - free["memory"] + res["memory"] > target:
                misses += 1
                continue
            for k, v in res.items():
                free[k] -= v
            leaf = rng.choice(victim_leaves) if rng.random() < 0.85 else rng.choice(ask_leaves)
            pods.append((leaf.path, {"node": node["name"], "resources": res}))
    rng.shuffle(pods)
    ask_priorities = gen.ask_priorities
    allocations: dict[str, list[dict[str, Any]]] = {}
    # allocation priorities overlap the asks' (equal ones included)
    alloc_pool = [0, 0, 0, -10, 5, 10, 20, 50, 100, *ask_priorities[:12]]
    for index, (path, pod) in enumerate(pods):
        pod["name"] = f"alloc-{index}"
        pod["priority"] = rng.choice(alloc_pool) if rng.random() < 0.7 else rng.randint(-50, 120)
        pod["startTime"] = f"-{len(pods) - index}s"
        if rng.random() < 0.12:
            pod["allowPreemption"] = False
        if rng.random() < 0.06:
            pod["originator"] = True
        allocations.setdefault(path, []).append(pod)
        _usage_up(root, path, pod["resources"])

    # asks
    asks: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {}
    asked: dict[str, dict[str, int]] = {}
    never_class = rng.random() < 0.15
    next_priority = iter(ask_priorities)
    ask_number = 0
    for leaf in ask_leaves:
        apps = []
        bases = [60, 60, 60, 60, 20, 5]
        for a in range(1 if rng.random() < 0.75 else 2):
            base = rng.choice(bases) + 2 * a  # apps in one leaf: distinct ask ages
            app_asks = []
            for _ in range(rng.randint(1, 4) if big else rng.randint(1, 3)):
                res = gen.pod()
                if rng.random() < 0.3:
                    res["memory"] = rng.choice([15, 20, 25, 30])
                # rarely equal to the previous ask of the app (the core's order there is deterministic)
                priority = app_asks[-1]["priority"] if app_asks and rng.random() < 0.1 else next(next_priority)
                ask: dict[str, Any] = {
                    "name": f"ask-{ask_number}",
                    "priority": priority,
                    "resources": res,
                    "submitTime": f"-{base + (rng.choice([0, 0, 0, 1]) if base >= 20 else 0)}s",
                }
                ask_number += 1
                if rng.random() < 0.12:
                    # through a class: its value is the ask's priority (Kubernetes refuses a pod whose priority
                    # differs from its class's), its preemptionPolicy Never
                    if never_class:
                        ask["priorityClass"] = f"never-{priority}"
                    else:
                        ask["preemptionPolicy"] = "Never"
                if rng.random() < 0.08:
                    ask["allowPreemption"] = False
                if not app_asks and rng.random() < 0.15:
                    ask["originator"] = True
                app_asks.append(ask)
                _add(asked.setdefault(leaf.path, {}), res)
            apps.append((f"app-{leaf.name}-{a}", app_asks))
        asks[leaf.path] = apps

    daemon: tuple[str, dict[str, Any]] | None = None
    if rng.random() < (0.5 if big else 0.2):
        leaf = rng.choice(leaves)
        res = gen.pod()
        daemon = (
            leaf.path,
            {
                "name": "ds-0",
                "priority": rng.choice([next(next_priority), 1000, -45]),
                "resources": res,
                "submitTime": f"-{rng.choice([60, 5])}s",
                "requiredNode": rng.choice(nodes)["name"],
            },
        )

    gen.properties(root, ask_leaves)
    gen.guarantees(root, ask_leaves, asked)
    gen.maxes(root)

    # sibling queues with pending asks: distinct initial priorities (queue ties are broken at random)
    leaf_priority: dict[str, int] = {}
    for path, apps in asks.items():
        for _, app_asks in apps:
            for ask in app_asks:
                p = ask["priority"]
                leaf_priority[path] = max(leaf_priority.get(path, p), p)
    if daemon is not None:
        p = daemon[1]["priority"]
        leaf_priority[daemon[0]] = max(leaf_priority.get(daemon[0], p), p)
    for parent in [root, *[q for q in root.children if q.children]]:
        seen: set[int] = set()
        for child in parent.children:
            p = _effective_priority(leaf_priority, child)
            if p is None:
                continue
            while p in seen:
                offset = int(child.properties.get("priority.offset", "0")) + 1
                child.properties["priority.offset"] = str(offset)
                p = _effective_priority(leaf_priority, child)
                assert p is not None
            seen.add(p)

    # the workload, in yk's format
    workload: dict[str, Any] = {}
    all_asks = [ask for apps in asks.values() for _, app_asks in apps for ask in app_asks]
    classes = sorted({ask["priority"] for ask in all_asks if "priorityClass" in ask})
    if classes:
        workload["priorityClasses"] = [
            {"name": f"never-{value}", "value": value, "preemptionPolicy": "Never"} for value in classes
        ]
    workload["nodes"] = [{"name": n["name"], "resources": _resources_yaml(n["resources"])} for n in nodes]
    applications: list[dict[str, Any]] = []
    by_path = {leaf.path: leaf for leaf in leaves}
    for path in sorted(allocations, key=lambda p: allocations[p][0]["name"]):
        pods_out = []
        for pod in sorted(allocations[path], key=lambda pod: int(pod["name"].split("-")[1])):
            out = {k: pod[k] for k in ("name", "node", "priority") if k in pod}
            out["resources"] = _resources_yaml(pod["resources"])
            out["startTime"] = pod["startTime"]
            for k in ("allowPreemption", "originator"):
                if k in pod:
                    out[k] = pod[k]
            pods_out.append(out)
        applications.append({"id": f"run-{by_path[path].name}", "queue": path, "allocations": pods_out})
    for path, apps in asks.items():
        for app_id, app_asks in apps:
            asks_out = []
            for ask in app_asks:
                out = {"name": ask["name"]}
                if "priorityClass" in ask:
                    out["priorityClass"] = ask["priorityClass"]
                else:
                    out["priority"] = ask["priority"]
                out["resources"] = _resources_yaml(ask["resources"])
                out["submitTime"] = ask["submitTime"]
                for k in ("preemptionPolicy", "allowPreemption", "originator"):
                    if k in ask:
                        out[k] = ask[k]
                asks_out.append(out)
            applications.append({"id": app_id, "queue": path, "asks": asks_out})
    if daemon is not None:
        path, ask = daemon
        ask = {**ask, "resources": _resources_yaml(ask["resources"])}
        applications.append({"id": "daemonset", "queue": path, "asks": [ask]})
    workload["applications"] = applications
    nodesort = rng.choice([None] * 8 + ["binpacking", "fair"])
    preemption_off = rng.random() < 0.04
    return Case(_queues_yaml(root, nodesort, preemption_off), workload), len(pods)


# -- YAML out ---------------------------------------------------------------------------------------------------


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_scalar(v)}" for k, v in value.items()) + "}"
    return str(value)


def workload_yaml(workload: dict[str, Any]) -> str:
    """The workload as YAML in the conformance cases' style (one flow mapping per node, ask or allocation)."""
    lines: list[str] = []
    if workload.get("priorityClasses"):
        lines.append("priorityClasses:")
        lines.extend(f"  - {_scalar(pc)}" for pc in workload["priorityClasses"])
    lines.append("nodes:")
    lines.extend(f"  - {_scalar(node)}" for node in workload["nodes"])
    lines.append("applications:")
    for app in workload["applications"]:
        lines.append(f"  - id: {app['id']}")
        lines.append(f"    queue: {app['queue']}")
        for key in ("allocations", "asks"):
            if app.get(key):
                lines.append(f"    {key}:")
                lines.extend(f"      - {_scalar(item)}" for item in app[key])
    return "\n".join(lines) + "\n"


def preempts(result: Result) -> bool:
    return any(event[0] == "preempt" for event in result[0])


def stable_result(binary: Path, case: Case, runs: int = 3) -> Result | None:
    """The oracle's (seq, pending) for a case, or None when two of `runs` runs (-procs 1) differ."""
    scenario = case.scenario()
    first = run_oracle(binary, scenario)
    for _ in range(runs - 1):
        if run_oracle(binary, scenario) != first:
            return None
    return first


def write_case(folder: Path, case: Case, result: Result) -> None:
    """A case folder in the conformance format."""
    from tests.helpers.oracle import expected_json

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queues.yaml").write_text(case.queues_yaml, encoding="utf-8")
    (folder / "workload.yaml").write_text(workload_yaml(case.workload), encoding="utf-8")
    (folder / "expected.json").write_text(json.dumps(expected_json(*result), indent=1) + "\n", encoding="utf-8")
