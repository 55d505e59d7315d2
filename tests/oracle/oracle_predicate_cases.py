"""Seeded random node-predicate scenarios for the real-core oracle (tests/helpers/oracle.py), in yk's case format.

    generate(rng) -> Case                                  one scenario: queues.yaml text + workload (yk's format)
    strip_predicates(case) -> Case                         the same scenario without any predicate field (control)
    stable_result(binary, case, runs) -> Outcome | None    the oracle's answer, None unless identical on every run
    write_case(folder, case, outcome)                      queues.yaml, workload.yaml, expected.json
    agree(folder)                                          assert yk does what the recorded expected.json says
    python -m tests.oracle.oracle_predicate_cases --count 40 --seed 1 --out tests/data/oracle-predicates  (record)

A scenario is a small cluster (2-6 nodes) whose nodes carry random labels (`pool`, `zone`, `rack`, numeric `gen`;
some missing), random `NoSchedule`/`NoExecute`/`PreferNoSchedule` taints, sometimes one cordoned node; 1-3 leaf
queues; 3-25 asks with random `nodeSelector`s, tolerations (Equal, Exists, empty-key Exists, empty effect, wrong
value or effect), required node affinity (In, NotIn, Exists, DoesNotExist, Gt, Lt, ORed terms, matchFields on
`metadata.name`), sometimes `nodeName`; application-level defaults an ask may override; DaemonSet (`requiredNode`)
asks; old asks (60 s: they reserve), 5 s old and fresh ones; running allocations; some scenarios preempt
(a queue over its guarantee, higher-priority asks in a queue under its guarantee, `preemption.delay` 3 s or 10 s
sometimes); some hold one gang whose task group carries a node selector, tolerations or affinity.

Two shapes of result, as the recorded sets store them: a scenario without gangs is compared as the conformance
cases are (tests/oracle/test_conformance.py's `agree`: `yk simulate --until 0s`, allocations in order with their nodes,
victims before an allocation as a set, the pending set; expected.json `{"events": [{"type": ...}], "pending"}`);
a scenario with a gang in tests/oracle/gang_oracle.py's canonical form (`yk simulate --until 10s`; expected.json
`{"events": [[...]], "pending"}`), as tests/data/oracle-gang/ does.

Ties the core breaks at random are avoided where it is cheap: ask priorities are distinct across the scenario (so
are the leaves' pending priorities), applications have distinct ask ages, running allocations distinct start
times; what is left is caught by `stable_result`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: `python -m tests.oracle.oracle_predicate_cases` imports the tests package from it."""

if __name__ == "__main__" and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers import paths  # noqa: E402
from tests.helpers.oracle import expected_json, oracle_output, parse_output  # noqa: E402
from tests.oracle.gang_oracle import UNTIL as GANG_UNTIL  # noqa: E402
from tests.oracle.gang_oracle import canonical_oracle  # noqa: E402
from tests.oracle.oracle_cases import Case  # noqa: E402

Outcome = tuple[list[Any], list[str]]
"""(events, pending): check.py's (seq, pending) for a scenario without gangs, tests/oracle/gang_oracle.py's canonical
(events, pending) for one with a gang."""

MEMORY_SIZES = (5, 10, 15, 20)
NODE_MEMORY = (40, 60, 80, 100)
POOLS = ("cpu", "gpu", "mem")
ZONES = ("a", "b", "c")
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"

TAINTS: tuple[dict[str, str], ...] = (
    {"key": "dedicated", "value": "team-x", "effect": "NoSchedule"},
    {"key": "dedicated", "value": "team-y", "effect": "NoSchedule"},
    {"key": "gpu", "value": "true", "effect": "NoExecute"},
    {"key": "gpu", "value": "true", "effect": "NoSchedule"},
    {"key": "maintenance", "effect": "NoSchedule"},
    {"key": "spot", "value": "yes", "effect": "PreferNoSchedule"},
    {"key": "dedicated", "value": "team-x", "effect": "PreferNoSchedule"},
)
TOLERATIONS: tuple[dict[str, Any], ...] = (
    {"key": "dedicated", "operator": "Equal", "value": "team-x", "effect": "NoSchedule"},
    {"key": "dedicated", "operator": "Exists"},  # empty effect: every effect
    {"key": "dedicated", "value": "team-y"},  # no operator: Equal
    {"key": "dedicated", "operator": "Equal", "value": "team-x", "effect": "NoExecute"},  # the wrong effect
    {"key": "gpu", "operator": "Exists", "effect": "NoExecute"},
    {"key": "gpu", "operator": "Equal", "value": "true"},
    {"key": "gpu", "operator": "Equal", "value": "false"},  # the wrong value
    {"key": "gpu", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
    {"key": "maintenance", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "spot", "operator": "Exists"},  # a PreferNoSchedule taint never mattered
    {"operator": "Exists"},  # empty key: every taint
    {"operator": "Exists", "effect": "NoSchedule"},  # empty key: every NoSchedule taint
    {"key": UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule"},
)
DELAYS = ("3s", "10s")
"""preemption.delay of an ask leaf: asks are fresh, 5-8 s or 60-70 s old (>= 2 s away from both)."""

NODE_PREDICATE_FIELDS = ("labels", "taints", "schedulable")
POD_PREDICATE_FIELDS = ("nodeSelector", "tolerations", "affinity", "nodeName", "namespace", "labels")


# -- the scenario -------------------------------------------------------------------------------------------------


class _Generator:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.priorities = iter(rng.sample(range(1, 300), 120))
        """Distinct ask priorities (never 0: a gang's placeholders without an originator have priority 0)."""
        self.nodes: list[dict[str, Any]] = []

    # -- nodes --------------------------------------------------------------------------------------------------
    def make_nodes(self) -> None:
        rng = self.rng
        count = rng.randint(2, 6)
        cordoned = rng.randrange(count) if rng.random() < 0.2 else None
        for i in range(count):
            labels: dict[str, str] = {}
            if rng.random() < 0.95:
                labels["pool"] = rng.choice(POOLS)
            if rng.random() < 0.9:
                labels["zone"] = rng.choice(ZONES)
            if rng.random() < 0.8:
                labels["rack"] = str(rng.randint(1, 4))
            if rng.random() < 0.8:
                labels["gen"] = str(rng.randint(1, 5))
            node: dict[str, Any] = {"name": f"node-{i}", "resources": {"memory": rng.choice(NODE_MEMORY)}}
            if labels:
                node["labels"] = labels
            if rng.random() < 0.3:
                taints: list[dict[str, str]] = []
                for taint in rng.sample(TAINTS, rng.choice((1, 1, 1, 2))):
                    if all((t["key"], t["effect"]) != (taint["key"], taint["effect"]) for t in taints):
                        taints.append(dict(taint))
                node["taints"] = taints
            if i == cordoned:
                node["schedulable"] = False
            self.nodes.append(node)

    def label_values(self, key: str) -> list[str]:
        return sorted({node["labels"][key] for node in self.nodes if key in node.get("labels", {})})

    # -- pod constraints ----------------------------------------------------------------------------------------
    def node_selector(self) -> dict[str, str]:
        rng = self.rng
        out: dict[str, str] = {}
        for key in rng.sample(("pool", "zone", "rack", "gen"), rng.choice((1, 1, 2))):
            values = self.label_values(key)
            if values and rng.random() < 0.85:
                out[key] = rng.choice(values)
            else:  # on no node (or on a node only by chance)
                out[key] = rng.choice({"pool": POOLS, "zone": ZONES}.get(key, ("1", "2", "3", "4", "5")))
        return out

    def tolerations(self) -> list[dict[str, Any]]:
        rng = self.rng
        # mostly tolerations of the taints that are there
        present = [t for node in self.nodes for t in node.get("taints", [])]
        out: list[dict[str, Any]] = []
        for _ in range(rng.choice((1, 1, 2))):
            if present and rng.random() < 0.65:
                taint = rng.choice(present)
                toleration: dict[str, Any] = {"key": taint["key"]}
                if rng.random() < 0.5:
                    toleration["operator"] = "Exists"
                else:
                    toleration["operator"] = "Equal"
                    toleration["value"] = taint.get("value", "")
                if rng.random() < 0.6:
                    toleration["effect"] = taint["effect"]
            else:
                toleration = dict(rng.choice(TOLERATIONS))
            if toleration not in out:
                out.append(toleration)
        return out

    def requirement(self) -> dict[str, Any]:
        rng = self.rng
        key = rng.choice(("pool", "zone", "rack", "gen", "gen"))
        values = self.label_values(key)
        universe = {"pool": POOLS, "zone": ZONES}.get(key, ("1", "2", "3", "4", "5"))
        numeric = key in ("rack", "gen")
        operators = ["In", "In", "NotIn", "Exists", "DoesNotExist"] + (["Gt", "Lt", "Gt", "Lt"] if numeric else [])
        operator = rng.choice(operators)
        if operator in ("Exists", "DoesNotExist"):
            return {"key": key, "operator": operator}
        if operator in ("Gt", "Lt"):
            return {"key": key, "operator": operator, "values": [str(rng.randint(1, 4))]}
        pool = values if values and rng.random() < 0.8 else list(universe)
        chosen = rng.sample(pool, min(len(pool), rng.choice((1, 1, 2))))
        return {"key": key, "operator": operator, "values": sorted(chosen)}

    def affinity(self) -> dict[str, Any]:
        rng = self.rng
        terms: list[dict[str, Any]] = []
        for _ in range(rng.choice((1, 1, 1, 2))):
            term: dict[str, Any] = {}
            if rng.random() < 0.15:
                operator = rng.choice(("In", "In", "NotIn"))
                name = rng.choice(self.nodes)["name"]
                term["matchFields"] = [{"key": "metadata.name", "operator": operator, "values": [name]}]
                if rng.random() < 0.3:
                    term["matchExpressions"] = [self.requirement()]
            else:
                term["matchExpressions"] = [self.requirement() for _ in range(rng.choice((1, 1, 2)))]
            terms.append(term)
        node_affinity: dict[str, Any] = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}
        if rng.random() < 0.1:  # never scored by YuniKorn
            node_affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": 10, "preference": {"matchExpressions": [self.requirement()]}}
            ]
        return {"nodeAffinity": node_affinity}

    def constrain(self, pod: dict[str, Any], scale: float = 1.0) -> None:
        """Random predicate fields on an ask (or an application's defaults, a task group)."""
        rng = self.rng
        if rng.random() < 0.25 * scale:
            pod["nodeSelector"] = self.node_selector()
        if rng.random() < 0.4 * scale:
            pod["tolerations"] = self.tolerations()
        if rng.random() < 0.3 * scale:
            pod["affinity"] = self.affinity()

    def pod(self) -> dict[str, int]:
        return {"memory": self.rng.choice(MEMORY_SIZES)}


def _queues_yaml(leaves: list[dict[str, Any]], nodesort: str | None) -> str:
    lines = ["partitions:", "  - name: default"]
    if nodesort:
        lines += ["    nodesortpolicy:", f"      type: {nodesort}"]
    lines += ["    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    for leaf in leaves:
        lines.append(f"          - name: {leaf['name']}")
        if leaf.get("properties"):
            lines.append("            properties:")
            lines.extend(f"              {k}: '{v}'" for k, v in leaf["properties"].items())
        if leaf.get("guaranteed") or leaf.get("max"):
            lines.append("            resources:")
            for kind in ("guaranteed", "max"):
                if leaf.get(kind):
                    lines.append(f"              {kind}: {{memory: {leaf[kind]}}}")
    return "\n".join(lines) + "\n"


def _round5(value: float) -> int:
    return max(5, -(-int(value) // 5) * 5)


def generate(rng: random.Random) -> Case:
    """One random scenario (see the module docstring)."""
    gen = _Generator(rng)
    gen.make_nodes()
    nodes = gen.nodes
    leaf_count = rng.choice((1, 2, 2, 3, 3))
    leaves: list[dict[str, Any]] = [{"name": f"q{i}", "properties": {}} for i in range(leaf_count)]
    preempt = leaf_count >= 2 and rng.random() < 0.4
    gang = not preempt and rng.random() < 0.25
    victim_leaf = leaves[-1] if preempt else None
    ask_leaves = leaves[:-1] if preempt else leaves

    # running allocations: preempting scenarios fill most nodes (80-100 %) from the victim leaf at low priority;
    # the others fill some (0-70 %)
    running: dict[str, list[dict[str, Any]]] = {}
    fill = [n for n in nodes if rng.random() < (0.9 if preempt else 0.5)]
    pods: list[tuple[str, dict[str, Any]]] = []
    for node in fill:
        cap = node["resources"]["memory"]
        target = cap * (rng.choice((1.0, 1.0, 0.9, 0.8)) if preempt else rng.choice((0.3, 0.5, 0.7)))
        used = 0
        misses = 0
        while misses < 3:
            res = gen.pod()
            if used + res["memory"] > target:
                misses += 1
                continue
            used += res["memory"]
            leaf = victim_leaf if victim_leaf is not None and rng.random() < 0.85 else rng.choice(leaves)
            pods.append((leaf["name"], {"node": node["name"], "resources": res}))
    rng.shuffle(pods)
    for index, (leaf_name, pod) in enumerate(pods):
        out: dict[str, Any] = {"name": f"alloc-{index}", "node": pod["node"]}
        out["priority"] = rng.choice((0, 0, 5, 10, 20)) if preempt else rng.randint(-10, 120)
        out["resources"] = pod["resources"]
        out["startTime"] = f"-{len(pods) - index + 100}s"
        if rng.random() < 0.1:
            out["allowPreemption"] = False
        if rng.random() < 0.2:  # pods already running satisfy their node's taints; no predicate re-checks them
            out["tolerations"] = [{"operator": "Exists"}]
        running.setdefault(leaf_name, []).append(out)

    # asks: applications in the ask leaves, distinct ages
    total = rng.randint(3, 20)  # DaemonSet and gang asks come on top: 25 at most
    ages = iter(rng.sample(range(60, 71), 11))
    young = iter(rng.sample(range(5, 9), 4))
    applications: list[dict[str, Any]] = []
    asked: dict[str, int] = {}
    number = 0
    app_number = 0
    while number < total:
        leaf = rng.choice(ask_leaves)
        app: dict[str, Any] = {"id": f"app-{app_number}", "queue": f"root.{leaf['name']}"}
        app_number += 1
        roll = rng.random()
        if roll < (0.7 if preempt else 0.55):
            age = next(ages, None)
        elif roll < (1.0 if preempt else 0.75):
            age = next(young, None)
        else:
            age = None  # fresh: too young to reserve or preempt
        if rng.random() < 0.2:  # application-level defaults: the asks' own fields win
            gen.constrain(app, 1.5)
        if rng.random() < 0.1:
            app["namespace"] = rng.choice(("team-a", "team-b"))
            app["labels"] = {"app": app["id"]}
        asks = []
        for _ in range(min(rng.randint(1, 5), total - number)):
            ask: dict[str, Any] = {"name": f"ask-{number}", "priority": next(gen.priorities)}
            number += 1
            ask["resources"] = gen.pod()
            if rng.random() < 0.15:
                ask["resources"]["memory"] = rng.choice((25, 30))
            if age is not None:
                ask["submitTime"] = f"-{age}s"
            gen.constrain(ask)
            if rng.random() < 0.05:
                ask["nodeName"] = rng.choice(nodes)["name"]
            if rng.random() < 0.05:
                ask["labels"] = {"role": "worker"}
            if preempt and rng.random() < 0.12:
                ask["preemptionPolicy"] = "Never"
            asks.append(ask)
            asked[leaf["name"]] = asked.get(leaf["name"], 0) + ask["resources"]["memory"]
        app["asks"] = asks
        applications.append(app)

    # DaemonSet asks: each tied to one node (which it may not tolerate, or which may be cordoned)
    if rng.random() < 0.3:
        leaf = rng.choice(leaves)
        asks = []
        for node in rng.sample(nodes, min(len(nodes), rng.choice((1, 1, 2)))):
            ask = {"name": f"ds-{len(asks)}", "priority": next(gen.priorities), "resources": gen.pod()}
            age = next(ages, None)
            if age is not None:
                ask["submitTime"] = f"-{age}s"
            ask["requiredNode"] = node["name"]
            roll = rng.random()
            if roll < 0.4:
                ask["tolerations"] = [{"operator": "Exists"}]
            elif roll < 0.6:
                ask["tolerations"] = [{"key": UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule"}]
            elif roll < 0.7:
                ask["nodeSelector"] = gen.node_selector()
            asks.append(ask)
        applications.append({"id": "daemonset", "queue": f"root.{leaf['name']}", "asks": asks})

    # one gang: the task group's constraints are its placeholders' (the real pods carry the same)
    if gang:
        leaf = rng.choice(leaves)
        members = rng.randint(1, 3)
        size = rng.choice((5, 10, 15))
        group: dict[str, Any] = {"name": "exec", "minMember": members, "minResource": {"memory": size}}
        if rng.random() < 0.7:
            gen.constrain(group, 1.5)
        constraints = {k: group[k] for k in ("nodeSelector", "tolerations", "affinity") if k in group}
        real = [
            {
                "name": f"exec-{j}",
                "priority": next(gen.priorities),
                "resources": {"memory": size},
                "taskGroupName": "exec",
                **json.loads(json.dumps(constraints)),
            }
            for j in range(rng.choice((members, members, max(1, members - 1))))
        ]
        applications.append(
            {"id": "gang", "queue": f"root.{leaf['name']}", "gangSchedulingStyle": "Soft", "taskGroups": [group],
             "asks": real}
        )  # fmt: skip

    # queues: preemption needs the ask leaves under their guarantee and the victim leaf over its own
    for leaf in leaves:
        if preempt and leaf is victim_leaf:
            used = sum(p["resources"]["memory"] for p in running.get(leaf["name"], []))
            if rng.random() < 0.4 and used:
                leaf["guaranteed"] = _round5(used * rng.choice((0.3, 0.5)))
        elif preempt:
            leaf["guaranteed"] = _round5(asked.get(leaf["name"], 0) * rng.choice((1.0, 1.0, 1.5)) + 1)
            if rng.random() < 0.4:
                leaf["properties"]["preemption.delay"] = rng.choice(DELAYS)
        elif rng.random() < 0.2:
            used = sum(p["resources"]["memory"] for p in running.get(leaf["name"], []))
            leaf["max"] = _round5(used + asked.get(leaf["name"], 0) * rng.choice((0.5, 0.8)))
    nodesort = rng.choice((None, None, None, None, "binpacking", "fair"))

    # the workload, in yk's format
    run_apps = [
        {"id": f"run-{name}", "queue": f"root.{name}", "allocations": pods_}
        for name, pods_ in sorted(running.items(), key=lambda item: item[1][0]["name"])
    ]
    workload = {"nodes": nodes, "applications": run_apps + applications}
    return Case(_queues_yaml(leaves, nodesort), workload)


def strip_predicates(case: Case) -> Case:
    """The scenario without any node-predicate field (labels, taints, cordons, selectors, tolerations, affinity,
    nodeName, namespaces, pod labels): what yk already did before the predicates (the control)."""
    workload = json.loads(json.dumps(case.workload))
    for node in workload.get("nodes") or []:
        for key in NODE_PREDICATE_FIELDS:
            node.pop(key, None)
    for app in workload.get("applications") or []:
        for item in [app, *(app.get("asks") or []), *(app.get("allocations") or []), *(app.get("taskGroups") or [])]:
            for key in POD_PREDICATE_FIELDS:
                item.pop(key, None)
    return Case(case.queues_yaml, workload)


def has_gang(workload: dict[str, Any]) -> bool:
    return any(app.get("taskGroups") for app in workload.get("applications") or [])


# -- the oracle's answer ------------------------------------------------------------------------------------------


def oracle_result(binary: Path, case: Case) -> Outcome:
    """What the oracle did (-procs 1), in the shape expected.json stores for this scenario."""
    scenario = case.scenario()
    done = oracle_output(binary, scenario)
    keys = [ask["key"] for ask in scenario["asks"]]
    if has_gang(case.workload):
        return canonical_oracle(done.stdout, keys)
    return parse_output(done.stdout, keys, scenario.get("maxSteps"))


def stable_result(binary: Path, case: Case, runs: int = 3) -> Outcome | None:
    """The oracle's outcome for a case, or None when two of `runs` runs differ (a tie the core breaks at random)."""
    first = oracle_result(binary, case)
    for _ in range(runs - 1):
        if oracle_result(binary, case) != first:
            return None
    return first


def eligible_nodes(binary: Path, case: Case) -> dict[str, list[str]]:
    """Per ask, the nodes passing its predicates (the oracle's `-trace-predicates` `eligible` lines; placeholders
    included). Only for statistics: which asks the predicates restrict."""
    done = oracle_output(binary, case.scenario(), extra=("-trace-predicates",))
    out: dict[str, list[str]] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"eligible ask=(\S+) nodes=\[(.*)\]$", line)
        if match:
            out[match[1]] = match[2].split()
    return out


# -- case folders -------------------------------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z0-9_./-]+")
_NOT_A_STRING = re.compile(r"[-+]?(\d[\d_]*)?\.?\d*([eE][-+]?\d+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|~")
_KEYWORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def _flow(value: Any) -> str:
    """A value as a YAML flow node that reads back as the same value (strings quoted where YAML would not keep
    them strings, e.g. label values "3" or "true")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    text = str(value)
    if _PLAIN.fullmatch(text) and not _NOT_A_STRING.fullmatch(text) and text.lower() not in _KEYWORDS:
        return text
    return json.dumps(text)


APP_FIELDS = ("id", "queue", "namespace", "labels", "nodeSelector", "tolerations", "affinity", "gangSchedulingStyle")


def workload_yaml(workload: dict[str, Any]) -> str:
    """The workload as YAML: one flow mapping per node, allocation, ask and task group."""
    lines = ["nodes:"]
    lines.extend(f"  - {_flow(node)}" for node in workload["nodes"])
    lines.append("applications:")
    for app in workload["applications"]:
        lines.append(f"  - id: {_flow(app['id'])}")
        lines.extend(f"    {key}: {_flow(app[key])}" for key in APP_FIELDS[1:] if key in app)
        for key in ("taskGroups", "allocations", "asks"):
            if app.get(key):
                lines.append(f"    {key}:")
                lines.extend(f"      - {_flow(item)}" for item in app[key])
    return "\n".join(lines) + "\n"


def expected_document(case: Case, outcome: Outcome) -> dict[str, Any]:
    """expected.json: the conformance format, or tests/oracle/gang_oracle.py's canonical one for a gang scenario."""
    events, pending = outcome
    if has_gang(case.workload):
        return {"events": [list(event) for event in events], "pending": sorted(pending)}
    return expected_json(events, pending)


def write_case(folder: Path, case: Case, outcome: Outcome) -> None:
    """A case folder: queues.yaml, workload.yaml (checked to read back as the workload), expected.json."""
    from ruamel.yaml import YAML

    text = workload_yaml(case.workload)
    if YAML(typ="safe").load(text) != case.workload:
        raise AssertionError("workload_yaml does not read back as the workload")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queues.yaml").write_text(case.queues_yaml, encoding="utf-8")
    (folder / "workload.yaml").write_text(text, encoding="utf-8")
    document = expected_document(case, outcome)
    (folder / "expected.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def agree(folder: Path) -> None:
    """Assert yk does on a case folder what its expected.json says the core did (the comparison its shape takes)."""
    from ruamel.yaml import YAML

    workload = YAML(typ="safe").load((folder / "workload.yaml").read_text(encoding="utf-8")) or {}
    if not has_gang(workload):
        from tests.oracle.conformance import agree as agree_conformance

        agree_conformance(folder, "1.9")  # the core the oracle runs (be3bb487): yk's 1.9
        return
    from tests.oracle.gang_oracle import canonical_yk
    from yk_cli.commands.run_options import options_from
    from yk_cli.commands.simulate import simulation_report

    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    report = "".join(
        simulation_report(
            str(folder / "queues.yaml"), str(folder / "workload.yaml"), "json", options_from(GANG_UNTIL, None, "1.9")
        )
    )
    events, pending = canonical_yk(json.loads(report))
    assert [list(e) for e in events] == expected["events"], f"{folder.name}: the gang trace differs from the core"
    assert pending == expected["pending"], f"{folder.name}: the pending set differs from the core"


# -- recording ----------------------------------------------------------------------------------------------------

CASE_NAME = re.compile(r"^pred-\d{4}$")


def case_rng(seed: str | int, index: int) -> random.Random:
    """The generator's rng of case `index` under `seed` (the live test's and the recorder's: seed 1 live = the
    recorded set, the unstable ones aside)."""
    return random.Random(f"{seed}-{index}")


def record(binary: Path, out: Path, count: int, seed: str, runs: int) -> int:
    """Write `count` stable cases pred-0001.. to `out` (replacing the pred-NNNN folders there)."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if CASE_NAME.match(old.name):
            shutil.rmtree(old)
    kept = index = 0
    while kept < count:
        case = generate(case_rng(seed, index))
        index += 1
        outcome = stable_result(binary, case, runs)
        if outcome is None:
            print(f"scenario {seed}-{index - 1}: unstable, dropped", file=sys.stderr)
            continue
        kept += 1
        folder = out / f"pred-{kept:04d}"
        write_case(folder, case, outcome)
        kind = "gang" if has_gang(case.workload) else "plain"
        print(f"{folder.name} ({seed}-{index - 1}, {kind}): {len(outcome[0])} events, {len(outcome[1])} pending")
    return 0


def main() -> int:
    from tests.helpers.oracle import oracle_binary

    parser = argparse.ArgumentParser(description="Record node-predicate cases from the real YuniKorn core.")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=paths.DATA / "oracle-predicates")
    parser.add_argument("--oracle", type=Path, default=None)
    args = parser.parse_args()
    binary = args.oracle or oracle_binary()
    if binary is None:
        print("no oracle binary: build ../shared/oracle (see its README) or pass --oracle", file=sys.stderr)
        return 2
    return record(binary, args.out, args.count, args.seed, args.runs)


if __name__ == "__main__":
    sys.exit(main())
