"""Gang scheduling against the real core (the oracle, ../shared/oracle/README.md "Gang scheduling").

    canonical_oracle(text, asks) -> (events, pending)     the oracle's JSON lines
    canonical_yk(trace) -> (events, pending)              a `yk simulate --format json` document
    generate(rng) -> Case                                 a seeded small gang scenario in yk's format
    UNTIL                                                 how far yk runs to match the oracle's timer budget

Both sides are reduced to the same events, in order: ("placeholder", app, task group, node), ("replace", ask,
node), ("allocate", ask, node), ("release", app, timeout|incompatible, allocated, pending) for the placeholders a
timer or an incompatible real pod released, and ("preempt", victim) with a placeholder victim written
`ph:<app>/<task group>`. Placeholder keys are left out: which placeholder of a group a real pod replaces is Go map
order in the core (the README's canonical naming). Runs of consecutive preempt events compare as sets.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.oracle.oracle_cases import Case, quantity_text

Event = tuple[Any, ...]
UNTIL = "10s"
"""The oracle waits for placeholder timers due within -gang-wait (10 s); later ones (the 15-minute default) never
fire in its run, so yk is compared up to the same point."""

_PENDING = re.compile(r"(\d+) allocated and (\d+) pending placeholder")
_UNUSED = re.compile(r"its (\d+) unused placeholder")


def _ph_group(app: str, key: str) -> str:
    """The task group of a placeholder key `tg-<app>-<group>-<i>`."""
    return key[len(f"tg-{app}-") :].rsplit("-", 1)[0]


def _sorted_runs(events: list[Event]) -> list[Event]:
    """Consecutive preempt events in a fixed order (they are a set)."""
    out: list[Event] = []
    run: list[Event] = []
    for event in [*events, ("end",)]:
        if event[0] == "preempt":
            run.append(event)
            continue
        out.extend(sorted(run))
        run = []
        if event[0] != "end":
            out.append(event)
    return out


def canonical_oracle(text: str, asks: list[str]) -> tuple[list[Event], list[str]]:
    """The oracle's lines as canonical events, and the asks it never placed (sorted)."""
    events: list[Event] = []
    placed: set[str] = set()
    releases: dict[tuple[int, str, str], list[int]] = {}
    for line in text.splitlines():
        record = json.loads(line)
        kind = record["type"]
        if kind == "error":
            raise RuntimeError(f"oracle refused the scenario: {record.get('message')}")
        app = record.get("applicationID", "")
        if kind == "allocation" and record.get("placeholder"):
            events.append(("placeholder", app, record["taskGroupName"], record["nodeID"]))
        elif kind == "allocation":
            events.append(("allocate", record["allocationKey"], record["nodeID"]))
            placed.add(record["allocationKey"])
        elif kind == "replacement":
            events.append(("replace", record["allocationKey"], record["nodeID"]))
            placed.add(record["allocationKey"])
        elif kind == "preemption":
            key = record["allocationKey"]
            events.append(("preempt", f"ph:{app}/{_ph_group(app, key)}" if record.get("placeholder") else key))
        elif kind == "placeholderReleased":
            group = (record["step"], app, record["reason"])
            if group not in releases:
                releases[group] = [0, 0]
                events.append(("release", app, record["reason"], releases[group]))
            releases[group][0 if record["allocated"] else 1] += 1
    out = [e if e[0] != "release" else (*e[:3], *e[3]) for e in events]
    return _sorted_runs(out), sorted(a for a in asks if a not in placed)


def canonical_yk(trace: dict[str, Any]) -> tuple[list[Event], list[str]]:
    """A yk JSON trace as canonical events, and its pending asks (sorted)."""
    events: list[Event] = []
    for e in trace["events"]:
        kind, app = e["type"], e["application"]
        if kind == "placeholder":
            events.append(("placeholder", app, _ph_group(app, e["ask"]), e["node"]))
        elif kind == "replace":
            events.append(("replace", e["ask"], e["node"]))
        elif kind == "allocate":
            events.append(("allocate", e["ask"], e["node"]))
        elif kind == "preempt":
            for v in e["victims"]:
                name = v["allocation"]
                victim = (
                    f"ph:{v['application']}/{_ph_group(v['application'], name)}" if name.startswith("tg-") else name
                )
                events.append(("preempt", victim))
        elif kind == "placeholder-release":
            events.append(("release", app, "incompatible", len(e["victims"]), 0))
        elif kind == "gang-timeout":
            pending = _PENDING.search(e["reason"])
            if pending is not None:
                events.append(("release", app, "timeout", int(pending[1]), int(pending[2])))
            else:
                unused = _UNUSED.search(e["reason"])
                events.append(("release", app, "timeout", int(unused[1]) if unused else 0, 0))
    return _sorted_runs(events), sorted(p["ask"] for p in trace["pending"])


def generate(rng: random.Random) -> Case:
    """A small gang scenario: 1-3 nodes, one or two fifo leaves (maybe a max), gang and plain applications.

    Gangs have one or two task groups (a driver of 1, executors of 1-4), real pods fewer, as many or more than the
    placeholders, sometimes larger (incompatible) or smaller, Soft or Hard, a timeout of 1-2 s or none (the
    15-minute default never fires within the oracle's budget). Priorities are distinct across applications.
    """
    nodes = [
        {"name": f"node-{i}", "resources": {"memory": rng.choice((40, 60, 80, 100))}} for i in range(rng.randint(1, 3))
    ]
    leaves = ["a"] if rng.random() < 0.5 else ["a", "b"]
    maxes = {leaf: rng.choice((None, None, 30, 40, 60)) for leaf in leaves}
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'"]
    lines.append("        queues:")
    for leaf in leaves:
        lines.append(f"          - name: {leaf}")
        if maxes[leaf] is not None:
            lines.append(f"            resources: {{max: {{memory: {maxes[leaf]}}}}}")
    priorities = rng.sample(range(0, 50), 12)
    apps: list[dict[str, Any]] = []
    for i in range(rng.randint(1, 3)):
        leaf = rng.choice(leaves)
        priority = priorities[i]
        if rng.random() < 0.75:
            app: dict[str, Any] = {"id": f"gang-{i}", "queue": f"root.{leaf}", "taskGroups": []}
            groups = (
                [("driver", 1), ("exec", rng.randint(1, 4))] if rng.random() < 0.5 else [("exec", rng.randint(1, 4))]
            )
            asks = []
            for name, members in groups:
                size = rng.choice((5, 10, 15, 20))
                app["taskGroups"].append({"name": name, "minMember": members, "minResource": {"memory": size}})
                real = rng.choice((members, members, members - 1, members + 1))
                real_size = size if rng.random() < 0.75 else rng.choice((size - 5 or 5, size + 5))
                for j in range(max(real, 0)):
                    ask = {
                        "name": f"{name}-{i}-{j}",
                        "priority": priority + (5 if name == "driver" else 0),
                        "resources": {"memory": real_size},
                        "taskGroupName": name,
                    }
                    if name == "driver":
                        ask["originator"] = True
                    asks.append(ask)
            app["gangSchedulingStyle"] = rng.choice(("Soft", "Hard"))
            if rng.random() < 0.6:
                app["placeholderTimeoutInSeconds"] = rng.randint(1, 2)
            app["asks"] = asks
        else:
            app = {
                "id": f"plain-{i}",
                "queue": f"root.{leaf}",
                "asks": [
                    {"name": f"p-{i}-{j}", "priority": priority, "resources": {"memory": rng.choice((5, 10, 20))}}
                    for j in range(rng.randint(1, 3))
                ],
            }
        apps.append(app)
    return Case("\n".join(lines) + "\n", {"nodes": nodes, "applications": apps})


def workload_yaml(workload: dict[str, Any]) -> str:
    """A gang workload as YAML: one flow mapping per node, task group and ask."""
    out = ["nodes:"]
    out.extend(f"  - {_flow(node)}" for node in workload["nodes"])
    out.append("applications:")
    for app in workload["applications"]:
        out.append(f"  - id: {app['id']}")
        out.append(f"    queue: {app['queue']}")
        for key in ("gangSchedulingStyle", "placeholderTimeoutInSeconds"):
            if key in app:
                out.append(f"    {key}: {app[key]}")
        for key in ("taskGroups", "asks"):
            if app.get(key):
                out.append(f"    {key}:")
                out.extend(f"      - {_flow(item)}" for item in app[key])
    return "\n".join(out) + "\n"


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return str(value)


__all__ = ["UNTIL", "canonical_oracle", "canonical_yk", "generate", "quantity_text", "workload_yaml"]
