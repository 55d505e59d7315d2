"""Seeded scenarios with user and group limits for the oracle (the real core), in yk's case format.

    generate(rng) -> Case(queues_yaml, workload)

Small trees (root, one or two parents, two to four leaves) with `limits:` entries at random levels: named users,
named groups (in random order), the `*` wildcards, `maxresources` and `maxapplications`; a few queue `max` and
`maxapplications`; applications of three to five users with zero to two groups each; asks of mixed sizes, some old
enough to reserve (`submitTime: -10s`), some running allocations. Preemption is off in half of them; the other
half has guarantees, so asks may preempt (the core checks user quota before it).
"""

from __future__ import annotations

import random
from typing import Any

from ruamel.yaml import YAML

from tests.oracle.oracle_cases import Case

USERS = ("alice", "bob", "carol", "dave", "erin")
GROUPS = ("dev", "ops", "ml")


def _limit(rng: random.Random, index: int, taken: set[str]) -> dict[str, Any]:
    """One entry; names already limited at the queue (taken) are not repeated (the core refuses duplicates), and a
    wildcard group comes with a named one (the core refuses a lone wildcard group)."""
    entry: dict[str, Any] = {"limit": f"limit {index}"}
    kind = rng.choice(("users", "users", "groups", "groups", "both"))
    if kind in ("users", "both"):
        users = [u for u in rng.sample(("*", *USERS[:4]), rng.randint(1, 2)) if f"u:{u}" not in taken]
        if users:
            entry["users"] = users
    if kind in ("groups", "both"):
        groups = [g for g in rng.sample(("*", *GROUPS), rng.randint(1, 2)) if f"g:{g}" not in taken]
        if groups == ["*"]:
            groups = [g for g in GROUPS if f"g:{g}" not in taken][:1] + groups
        if groups:
            entry["groups"] = groups
    if "users" not in entry and "groups" not in entry:
        entry["users"] = [f"user{index}"]
    taken.update(f"u:{u}" for u in entry.get("users", ()))
    taken.update(f"g:{g}" for g in entry.get("groups", ()))
    what = rng.choice(("apps", "res", "both"))
    if what in ("apps", "both"):
        entry["maxapplications"] = rng.randint(1, 3)
    if what in ("res", "both"):
        res = {"memory": rng.choice((20, 30, 40, 60))}
        if rng.random() < 0.3:
            res["vcore"] = rng.choice((2, 4, 6))
        entry["maxresources"] = res
    return entry


def generate(rng: random.Random) -> Case:
    """One scenario."""
    preempt = rng.random() < 0.5
    leaves: list[str] = []
    limit_count = [0]

    def limits() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        taken: set[str] = set()
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            limit_count[0] += 1
            out.append(_limit(rng, limit_count[0], taken))
        for entry in out:  # the core refuses a named user or group after a wildcard one
            for key in ("users", "groups"):
                if key in entry:
                    entry[key] = sorted(entry[key], key=lambda name: name == "*")
        return sorted(out, key=lambda e: "*" in e.get("users", ()) or "*" in e.get("groups", ()))

    parents = []
    for p in range(rng.randint(1, 2)):
        children = []
        for c in range(rng.randint(1, 2)):
            leaf: dict[str, Any] = {"name": f"l{p}{c}"}
            if lim := limits():
                leaf["limits"] = lim
            if rng.random() < 0.2:
                leaf["maxapplications"] = rng.randint(1, 3)
            if rng.random() < 0.2:
                leaf.setdefault("resources", {})["max"] = {"memory": rng.choice((40, 60))}
            if preempt:
                leaf.setdefault("resources", {})["guaranteed"] = {"memory": rng.choice((10, 20, 30))}
            children.append(leaf)
            leaves.append(f"root.p{p}.l{p}{c}")
        parent: dict[str, Any] = {"name": f"p{p}", "queues": children}
        if lim := limits():
            parent["limits"] = lim
        parents.append(parent)
    root: dict[str, Any] = {"name": "root", "submitacl": "*", "queues": parents}
    lim = limits()
    if not lim and not limit_count[0]:  # every scenario limits someone
        limit_count[0] += 1
        lim = [_limit(rng, limit_count[0], set())]
    if lim:
        root["limits"] = lim
    partition: dict[str, Any] = {"name": "default", "queues": [root]}
    if not preempt:
        partition["preemption"] = {"enabled": False}
    config = {"partitions": [partition]}

    nodes = [
        {"name": f"n{i}", "resources": {"memory": rng.choice((30, 40, 60)), "vcore": rng.choice((4, 8))}}
        for i in range(rng.randint(1, 3))
    ]
    apps: list[dict[str, Any]] = []
    free = {n["name"]: dict(n["resources"]) for n in nodes}
    for a in range(rng.randint(3, 8)):
        user = rng.choice(USERS)
        # distinct whole-second ages per application: the core stamps whole seconds, so equal ones would tie
        app: dict[str, Any] = {"id": f"app{a}", "queue": rng.choice(leaves), "user": user, "submitTime": f"-{a + 1}s"}
        groups = rng.sample(GROUPS, rng.randint(0, 2))
        if groups:
            app["groups"] = groups
        if rng.random() < 0.25:
            node = rng.choice(nodes)["name"]
            size = rng.choice((5, 10))
            if free[node]["memory"] >= size and free[node]["vcore"] >= 1:
                free[node]["memory"] -= size
                free[node]["vcore"] -= 1
                app["allocations"] = [
                    {"name": f"app{a}-run", "node": node, "priority": rng.randint(0, 5),
                     "resources": {"memory": size, "vcore": 1}, "startTime": f"-{rng.randint(1, 50)}s"}
                ]  # fmt: skip
        asks = []
        for k in range(rng.randint(1, 4)):
            ask: dict[str, Any] = {
                "name": f"app{a}-{k}",
                "priority": rng.randint(0, 20),
                "resources": {"memory": rng.choice((5, 10, 10, 15, 20)), "vcore": rng.choice((1, 1, 2))},
            }
            if rng.random() < 0.3:
                ask["submitTime"] = f"-{10 + 3 * a}s"
            if preempt and rng.random() < 0.5:
                ask["submitTime"] = f"-{60 + 3 * a}s"
            asks.append(ask)
        app["asks"] = asks
        apps.append(app)
    yaml = YAML()
    yaml.default_flow_style = None
    from io import StringIO

    buffer = StringIO()
    yaml.dump(config, buffer)
    return Case(buffer.getvalue(), {"nodes": nodes, "applications": apps})


def write_limit_case(folder: Any, case: Case, result: Any) -> None:
    """A case folder in the conformance format (the workload with its users and groups)."""
    import json
    from io import StringIO

    from tests.helpers.oracle import expected_json

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queues.yaml").write_text(case.queues_yaml, encoding="utf-8")
    yaml = YAML()
    yaml.default_flow_style = None
    buffer = StringIO()
    yaml.dump(case.workload, buffer)
    (folder / "workload.yaml").write_text(buffer.getvalue(), encoding="utf-8")
    (folder / "expected.json").write_text(json.dumps(expected_json(*result), indent=1) + "\n", encoding="utf-8")
