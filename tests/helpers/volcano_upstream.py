"""Volcano's unit-test cases as yk inputs: a compact case (tests/data/volcano/upstream/README.md) turned into the
`kubectl get -o json` List and the volcano-scheduler.conf that `yk volcano simulate` reads, and the outcome of a run
read back from its JSON in the terms of Volcano's test helper (binds, evictions, pipelined jobs, PodGroup phases)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from yk_cli.core.volcano.conf import FLAGS

UPSTREAM = Path(__file__).resolve().parent.parent / "data" / "volcano" / "upstream"

CASE_KEYS = {
    "test", "name", "actions", "tiers", "actionArguments", "nodes", "queues", "podGroups", "pods", "priorityClasses",
    "expect", "xfail", "skip", "note", "refusedBy",
}
EXPECT_KEYS = {"binds", "bindsNum", "minimalBindCheck", "evicted", "evictNum", "pipelined", "status"}


@dataclass(frozen=True)
class Case:
    """One table entry of a Volcano unit test."""

    file: Path
    source: str
    commit: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.file.relative_to(UPSTREAM).with_suffix('').as_posix()}::{self.data['test']}::{self.data['name']}"


def load_cases() -> list[Case]:
    """Every case of every transcribed file, in file then table order."""
    yaml = YAML(typ="safe")
    cases: list[Case] = []
    for path in sorted(UPSTREAM.rglob("*.yaml")):
        doc = yaml.load(path.read_text(encoding="utf-8"))
        for entry in doc["cases"]:
            unknown = set(entry) - CASE_KEYS
            assert not unknown, f"{path}: case {entry.get('name')!r} has unknown keys {sorted(unknown)}"
            unknown = set(entry.get("expect", {})) - EXPECT_KEYS
            assert not unknown, f"{path}: case {entry.get('name')!r} expects unknown keys {sorted(unknown)}"
            cases.append(Case(path, doc["source"], doc["commit"], entry))
    return cases


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


def _meta(spec: dict[str, Any], namespaced: bool = False) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": spec["name"]}
    if namespaced:
        meta["namespace"] = spec["namespace"]
    if spec.get("labels"):
        meta["labels"] = dict(spec["labels"])
    if spec.get("annotations"):
        meta["annotations"] = dict(spec["annotations"])
    if "created" in spec:
        meta["creationTimestamp"] = _timestamp(spec["created"])
    return meta


def _timestamp(seconds: int) -> str:
    minutes, second = divmod(int(seconds), 60)
    hour, minute = divmod(minutes, 60)
    return f"2024-01-01T{hour:02d}:{minute:02d}:{second:02d}Z"


def _resources(spec: dict[str, Any]) -> dict[str, str]:
    out = {k: str(spec[k]) for k in ("cpu", "memory", "pods") if k in spec}
    out.update({k: str(v) for k, v in spec.get("resources", {}).items()})
    return out


def _quantities(values: dict[str, Any] | None) -> dict[str, str] | None:
    return None if values is None else {k: str(v) for k, v in values.items()}


def node_object(spec: dict[str, Any]) -> dict[str, Any]:
    resources = _resources(spec)
    obj: dict[str, Any] = {
        "apiVersion": "v1", "kind": "Node", "metadata": _meta(spec),
        "spec": {},
        "status": {
            "capacity": resources, "allocatable": dict(resources),
            "conditions": [{"type": "Ready", "status": "False" if spec.get("ready") is False else "True"}],
        },
    }
    if spec.get("unschedulable"):
        obj["spec"]["unschedulable"] = True
    if spec.get("taints"):
        obj["spec"]["taints"] = [dict(t) for t in spec["taints"]]
    return _merge(obj, spec.get("raw", {}))


def queue_object(spec: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"weight": spec.get("weight", 1)}
    for key in ("capability", "deserved", "guarantee"):
        if spec.get(key) is not None:
            quantities = _quantities(spec[key])
            body[key] = {"resource": quantities} if key == "guarantee" else quantities
    for key in ("parent", "priority", "reclaimable"):
        if key in spec:
            body[key] = spec[key]
    obj = {
        "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": _meta(spec),
        "spec": body, "status": {"state": spec.get("state", "Open")},
    }
    return _merge(obj, spec.get("raw", {}))


def pod_group_object(spec: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"minMember": spec.get("minMember", 0)}
    if "queue" in spec:
        body["queue"] = spec["queue"]
    if spec.get("minTaskMember") is not None:
        body["minTaskMember"] = dict(spec["minTaskMember"])
    if spec.get("minResources") is not None:
        body["minResources"] = _quantities(spec["minResources"])
    if spec.get("priorityClassName"):
        body["priorityClassName"] = spec["priorityClassName"]
    obj: dict[str, Any] = {
        "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup", "metadata": _meta(spec, namespaced=True),
        "spec": body,
    }
    if spec.get("phase"):
        obj["status"] = {"phase": spec["phase"]}
    return _merge(obj, spec.get("raw", {}))


def pod_object(spec: dict[str, Any]) -> dict[str, Any]:
    meta = _meta(spec, namespaced=True)
    meta["uid"] = f"{spec['namespace']}-{spec['name']}"
    meta.setdefault("annotations", {})["scheduling.k8s.io/group-name"] = spec.get("group", "")
    if spec.get("deleting"):
        meta["deletionTimestamp"] = _timestamp(0)
    body: dict[str, Any] = {
        "schedulerName": spec.get("schedulerName", "volcano"),
        "containers": [{"name": "c", "image": "i", "resources": {"requests": _resources(spec)}}],
    }
    if spec.get("node"):
        body["nodeName"] = spec["node"]
    if spec.get("nodeSelector"):
        body["nodeSelector"] = dict(spec["nodeSelector"])
    for key in ("priority", "priorityClassName", "preemptionPolicy"):
        if key in spec:
            body[key] = spec[key]
    _merge(body, spec.get("spec", {}))
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": body,
           "status": {"phase": spec.get("phase", "Pending")}}
    return _merge(obj, spec.get("raw", {}))


def priority_class_object(spec: dict[str, Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": _meta(spec),
                           "value": spec["value"]}
    if spec.get("globalDefault"):
        obj["globalDefault"] = True
    return _merge(obj, spec.get("raw", {}))


def objects(case: dict[str, Any]) -> dict[str, Any]:
    """The case's objects as one `kubectl get -o json` List."""
    items = [
        *(node_object(s) for s in case.get("nodes", [])),
        *(queue_object(s) for s in case.get("queues", [])),
        *(pod_group_object(s) for s in case.get("podGroups", [])),
        *(pod_object(s) for s in case.get("pods", [])),
        *(priority_class_object(s) for s in case.get("priorityClasses", [])),
    ]
    return {"apiVersion": "v1", "kind": "List", "items": items}


def conf(case: dict[str, Any]) -> dict[str, Any]:
    """The case's scheduler conf: its actions and tiers, every flag the test does not set written false."""
    tiers = []
    for tier in case.get("tiers", []):
        plugins = []
        for plugin in tier:
            unknown = set(plugin) - {"name", "arguments", *FLAGS}
            assert not unknown, f"case {case['name']!r}: plugin {plugin['name']} has unknown keys {sorted(unknown)}"
            option: dict[str, Any] = {"name": plugin["name"]}
            option.update({flag: bool(plugin.get(flag, False)) for flag in FLAGS})
            if plugin.get("arguments"):
                option["arguments"] = plugin["arguments"]
            plugins.append(option)
        tiers.append({"plugins": plugins})
    out: dict[str, Any] = {"actions": ", ".join(case["actions"]), "tiers": tiers}
    if case.get("actionArguments"):
        out["configurations"] = [{"name": name, "arguments": args} for name, args in case["actionArguments"].items()]
    return out


def write_inputs(case: dict[str, Any], folder: Path) -> tuple[Path, Path]:
    """Write the case's objects.json and volcano-scheduler.conf (JSON is YAML) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    dump, conf_file = folder / "objects.json", folder / "volcano-scheduler.conf"
    dump.write_text(json.dumps(objects(case), indent=1), encoding="utf-8")
    conf_file.write_text(json.dumps(conf(case), indent=1), encoding="utf-8")
    return dump, conf_file


@dataclass(frozen=True)
class Outcome:
    """What a session did, in Volcano's test helper's terms."""

    binds: dict[str, str]
    evictions: list[str]
    pipelined: dict[str, list[str]]
    """job -> the nodes its pipelined tasks went to."""
    phases: dict[str, str]
    """job -> PodGroup phase at the end of the session, where yk reports it."""


def outcome(data: dict[str, Any]) -> Outcome:
    binds: dict[str, str] = {}
    evictions: list[str] = []
    pipelined: dict[str, list[str]] = {}
    for action in data["actions"]:
        for event in action["events"]:
            if event["type"] == "bind":
                binds[event["task"]] = event["node"]
            elif event["type"] == "evict":
                evictions.append(event["task"])
            elif event["type"] == "pipeline":
                pipelined.setdefault(event["job"], []).append(event["node"])
    phases = {job["uid"]: job["phase_after"] for job in data.get("jobs", []) if "phase_after" in job}
    return Outcome(binds, evictions, pipelined, phases)


def mismatches(expect: dict[str, Any], got: Outcome) -> list[str]:
    """Where the outcome differs from the Go case's Expect* fields, checked as uthelper's CheckAll checks them."""
    problems = []
    if "bindsNum" in expect and len(got.binds) != expect["bindsNum"]:
        problems.append(f"bind count: want {expect['bindsNum']}, got {len(got.binds)} {got.binds}")
    if not expect.get("minimalBindCheck") and got.binds != expect.get("binds", {}):
        problems.append(f"binds: want {expect.get('binds', {})}, got {got.binds}")
    if sorted(got.evictions) != sorted(expect.get("evicted", [])):
        problems.append(f"evictions: want {sorted(expect.get('evicted', []))}, got {sorted(got.evictions)}")
    if "evictNum" in expect and len(got.evictions) != expect["evictNum"]:
        problems.append(f"evict count: want {expect['evictNum']}, got {len(got.evictions)}")
    for job, nodes in expect.get("pipelined", {}).items():
        actual = got.pipelined.get(job, [])
        if not actual or any(node not in nodes for node in actual):
            problems.append(f"pipelined {job}: want on {nodes}, got {actual}")
    for job, phase in expect.get("status", {}).items():
        if got.phases.get(job) != phase:
            problems.append(f"phase of {job}: want {phase}, got {got.phases.get(job)}")
    return problems
