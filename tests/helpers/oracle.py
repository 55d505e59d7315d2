"""The real YuniKorn core as a test oracle: yk cases -> the oracle's JSON input, and its output -> check.py's shape.

The oracle is `../shared/oracle/bin/simulate` (see its README): the real scheduler core driven by a small harness.
It is never needed by the normal test run; the recorded cases under tests/data/oracle/ are what it said.

    to_oracle(queues_yaml_text, workload) -> scenario dict   (workload: workload.yaml parsed, yk's format)
    run_oracle(binary, scenario) -> (seq, pending)           (exactly check.py's `expected()` shape)
    oracle_output(binary, scenario) -> CompletedProcess      (the raw JSON lines, e.g. for gang scenarios)
    oracle_binary() -> Path | None                           ($YK_ORACLE, else ../shared/oracle/bin/simulate)

Mapping (the one the conformance cases were recorded with, checked against all of them):
* times are relative to the start of the run: an ask's `submitTime: -60s` is `ageSeconds: 60`, an allocation's
  `startTime: -4s` is `ageSeconds: 4`, an application's `submitTime` is `submitSeconds` (the default age of its
  asks). The core stamps whole seconds, so times must be whole seconds, at or before the start;
* an ask may preempt (`allowPreemptOther`) unless its `preemptionPolicy` (or its priority class's) is `Never`;
  `allowPreemption` (ask, allocation, or priority class) is `allowPreemptSelf`;
* priority: the ask's `priority`, else its `priorityClass` value, else the global default class, else 0;
* resources in the core's units: vcore in millicores (`2` is 2000, `500m` is 500), anything else as is with
  the k/Ki... multipliers;
* node predicates (the oracle README's "Node predicates"): node `labels`, `taints`, and `schedulable: false` as
  `"unschedulable": true`; `nodeSelector`, `tolerations`, `affinity` of asks, allocations and task groups (the shim
  copies a task group's into its placeholders), ask `nodeName`, all in Kubernetes' JSON shapes. An application's
  `nodeSelector`, `tolerations`, `affinity` are the defaults of its asks and allocations (not of its task groups); an
  ask's or allocation's own field wins, whole. `namespace` and `labels` of pods are dropped: only inter-pod
  affinity and topology spread read them, and those are refused. Label values, taint and toleration values and
  selector values that YAML read as integers become strings.
Node `occupied`, ask `duration`, and what the oracle does not model (`podAffinity`/`podAntiAffinity`,
`topologySpreadConstraints`, `hostPorts`, on any level) have no counterpart in the oracle: they are refused.
`maxSteps` is set high enough that the run always ends idle (run_oracle refuses a run that was cut off).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.helpers.paths import ROOT
from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.resources import QuantityError, parse_quantity

DEFAULT_BINARY = ROOT.parent / "shared" / "oracle" / "bin" / "simulate"

Event = tuple[str, ...]
"""("allocate", ask, node) or ("preempt", allocation), as check.py's `expected()` gives them."""

BUILTIN_CLASSES = {"system-cluster-critical": 2000000000, "system-node-critical": 2000001000}


MAX_STEPS_PER_ASK = 6
"""Cycle budget: an ask takes at most reserve + preempt + allocate cycles; the run stops earlier when idle."""


class ConversionError(ValueError):
    """The workload uses something the oracle cannot express."""


def oracle_binary() -> Path | None:
    """The oracle binary: $YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo; None if not built."""
    env = os.environ.get("YK_ORACLE")
    path = Path(env) if env else DEFAULT_BINARY
    return path if path.is_file() and os.access(path, os.X_OK) else None


def quantity(name: str, value: object) -> int:
    """One YuniKorn quantity in the core's units (vcore millicores), parsed as yk's workload loader does."""
    try:
        return parse_quantity(name, str(value))
    except QuantityError as err:
        raise ConversionError(f"quantity {name}: {value!r} ({err})") from None


def resources(values: Mapping[str, object] | None) -> dict[str, int]:
    """A resource map in the core's units."""
    return {name: quantity(name, value) for name, value in (values or {}).items()}


def age_seconds(when: object, what: str) -> int:
    """A point in time relative to the start of the run (`-60s`) as an age in whole seconds (60)."""
    nanos = parse_go_duration(str(when).strip())
    if nanos is None:
        raise ConversionError(f"{what}: duration {when!r}")
    if nanos > 0 or nanos % 10**9:
        raise ConversionError(f"{what}: {when!r} is not a whole number of seconds at or before the start")
    return -nanos // 10**9


class _Classes:
    """The workload's priority classes (with the built-in ones) and the global default."""

    def __init__(self, workload: Mapping[str, Any]) -> None:
        self.classes: dict[str, Mapping[str, Any]] = {
            name: {"name": name, "value": value} for name, value in BUILTIN_CLASSES.items()
        }
        defaults: list[Mapping[str, Any]] = []
        for pc in workload.get("priorityClasses") or []:
            self.classes[pc["name"]] = pc
            if pc.get("globalDefault"):
                defaults.append(pc)
        self.default = min(defaults, key=lambda pc: pc["value"]) if defaults else None

    def of(self, pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
        name = pod.get("priorityClass")
        if name is None:
            return self.default
        if name not in self.classes:
            raise ConversionError(f"{pod.get('name')}: unknown priority class {name!r}")
        return self.classes[name]

    def priority(self, pod: Mapping[str, Any]) -> int:
        if pod.get("priority") is not None:
            return int(pod["priority"])
        pc = self.of(pod)
        return int(pc["value"]) if pc is not None else 0

    def field(self, pod: Mapping[str, Any], key: str, default: Any) -> Any:
        if pod.get(key) is not None:
            return pod[key]
        pc = self.of(pod)
        return pc.get(key, default) if pc is not None and pc.get(key) is not None else default


# -- node predicates ---------------------------------------------------------------------------------------------

POD_PREDICATE_FIELDS = ("nodeSelector", "tolerations", "affinity")
"""The pod fields the oracle's predicates read (besides an ask's `nodeName`), and the application-level defaults."""
UNMODELLED_POD_FIELDS = ("topologySpreadConstraints", "hostPorts")
"""Pod fields yk reads that the oracle does not model (PodTopologySpread, NodePorts): refused."""
UNMODELLED_AFFINITY = ("podAffinity", "podAntiAffinity")


def _text(value: object, what: str) -> str:
    """A string field of Kubernetes JSON; an integer YAML read from a plain scalar (`rack: 3`) becomes "3"."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise ConversionError(f"{what}: {value!r} is not a string")


def _string_map(values: object, what: str) -> dict[str, str]:
    if not isinstance(values, Mapping):
        raise ConversionError(f"{what}: not a mapping")
    return {_text(key, what): _text(value, f"{what}.{key}") for key, value in values.items()}


def _taints(values: object, what: str) -> list[dict[str, str]]:
    if not isinstance(values, list):
        raise ConversionError(f"{what}: not a list")
    out = []
    for taint in values:
        if not isinstance(taint, Mapping):
            raise ConversionError(f"{what}: {taint!r} is not a mapping")
        entry = {key: _text(taint[key], f"{what}.{key}") for key in ("key", "value", "effect") if key in taint}
        unknown = set(taint) - {"key", "value", "effect", "timeAdded"}
        if unknown:
            raise ConversionError(f"{what}: unknown taint fields {sorted(unknown)}")
        out.append(entry)
    return out


def _tolerations(values: object, what: str) -> list[dict[str, Any]]:
    if not isinstance(values, list):
        raise ConversionError(f"{what}: not a list")
    out = []
    for toleration in values:
        if not isinstance(toleration, Mapping):
            raise ConversionError(f"{what}: {toleration!r} is not a mapping")
        unknown = set(toleration) - {"key", "operator", "value", "effect", "tolerationSeconds"}
        if unknown:
            raise ConversionError(f"{what}: unknown toleration fields {sorted(unknown)}")
        entry: dict[str, Any] = {
            key: _text(toleration[key], f"{what}.{key}")
            for key in ("key", "operator", "value", "effect")
            if toleration.get(key) is not None
        }
        if toleration.get("tolerationSeconds") is not None:
            entry["tolerationSeconds"] = int(toleration["tolerationSeconds"])
        out.append(entry)
    return out


def _requirements(values: object, what: str) -> list[dict[str, Any]]:
    if not isinstance(values, list):
        raise ConversionError(f"{what}: not a list")
    out = []
    for requirement in values:
        if not isinstance(requirement, Mapping):
            raise ConversionError(f"{what}: {requirement!r} is not a mapping")
        entry: dict[str, Any] = {
            key: _text(requirement[key], f"{what}.{key}") for key in ("key", "operator") if key in requirement
        }
        if requirement.get("values") is not None:
            entry["values"] = [_text(value, f"{what}.values") for value in requirement["values"]]
        out.append(entry)
    return out


def _node_selector(selector: object, what: str) -> dict[str, Any]:
    """A NodeSelector (`nodeSelectorTerms`) as plain JSON."""
    if not isinstance(selector, Mapping):
        raise ConversionError(f"{what}: not a mapping")
    return {"nodeSelectorTerms": [_term(term, what) for term in selector.get("nodeSelectorTerms") or []]}


def _term(term: object, what: str) -> dict[str, Any]:
    """A NodeSelectorTerm as plain JSON (a term with neither part is `{}`: it matches nothing)."""
    if not isinstance(term, Mapping):
        raise ConversionError(f"{what}: term {term!r} is not a mapping")
    parts = ("matchExpressions", "matchFields")
    return {key: _requirements(term[key], f"{what}.{key}") for key in parts if term.get(key)}


def _affinity(affinity: object, what: str) -> dict[str, Any] | None:
    """Kubernetes' affinity object, node affinity only (pod (anti-)affinity is refused); None when it holds nothing."""
    if not isinstance(affinity, Mapping):
        raise ConversionError(f"{what}: not a mapping")
    for key in UNMODELLED_AFFINITY:
        if affinity.get(key):
            raise ConversionError(f"{what}: {key} is not modelled by the oracle")
    unknown = set(affinity) - {"nodeAffinity", *UNMODELLED_AFFINITY}
    if unknown:
        raise ConversionError(f"{what}: unknown affinity fields {sorted(unknown)}")
    node = affinity.get("nodeAffinity")
    if not node:
        return None
    if not isinstance(node, Mapping):
        raise ConversionError(f"{what}.nodeAffinity: not a mapping")
    out: dict[str, Any] = {}
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is not None:
        out["requiredDuringSchedulingIgnoredDuringExecution"] = _node_selector(required, f"{what} required")
    preferred = node.get("preferredDuringSchedulingIgnoredDuringExecution")
    if preferred:  # never scored by YuniKorn; passed on as given (the oracle only checks its shape)
        out["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": int(item.get("weight", 1)), "preference": _term(item.get("preference"), f"{what} preferred")}
            for item in preferred
        ]
    return {"nodeAffinity": out} if out else None


def _pod_predicates(pod: Mapping[str, Any], defaults: Mapping[str, Any], what: str) -> dict[str, Any]:
    """The oracle's predicate fields of one pod (ask, allocation or task group): its own field, else the default."""
    for key in UNMODELLED_POD_FIELDS:
        value = pod.get(key) if pod.get(key) is not None else defaults.get(key)
        if value:
            raise ConversionError(f"{what}: {key} is not modelled by the oracle")
    out: dict[str, Any] = {}
    for key in POD_PREDICATE_FIELDS:
        value = pod.get(key) if pod.get(key) is not None else defaults.get(key)
        if value is None:
            continue
        if key == "nodeSelector":
            if value:
                out[key] = _string_map(value, f"{what} nodeSelector")
        elif key == "tolerations":
            if value:
                out[key] = _tolerations(value, f"{what} tolerations")
        else:
            affinity = _affinity(value, f"{what} affinity")
            if affinity is not None:
                out[key] = affinity
    return out


def to_oracle(queues_yaml_text: str, workload: Mapping[str, Any] | None) -> dict[str, Any]:
    """The oracle's scenario for one yk case: queues.yaml text and workload.yaml parsed (yk's workload format)."""
    workload = workload or {}
    if workload.get("partition", "default") != "default":
        raise ConversionError("the oracle runs the partition 'default' only")
    classes = _Classes(workload)
    nodes = []
    for node in workload.get("nodes") or []:
        if node.get("occupied"):
            raise ConversionError(f"node {node['name']}: occupied resources are not supported")
        entry: dict[str, Any] = {"id": node["name"], "resources": resources(node.get("resources"))}
        if node.get("labels"):
            entry["labels"] = _string_map(node["labels"], f"node {node['name']} labels")
        if node.get("taints"):
            entry["taints"] = _taints(node["taints"], f"node {node['name']} taints")
        if node.get("schedulable") is False:  # cordoned: the shim leaves it draining in the core
            entry["unschedulable"] = True
        nodes.append(entry)
    apps: list[dict[str, Any]] = []
    allocations: list[dict[str, Any]] = []
    asks: list[dict[str, Any]] = []
    for app in workload.get("applications") or []:
        if app.get("queue") is None:
            raise ConversionError(f"application {app['id']}: no queue (placement rules are not converted)")
        entry = {"id": app["id"], "queue": app["queue"]}
        if app.get("user") is not None:
            entry["user"] = app["user"]
        if app.get("groups"):
            entry["groups"] = list(app["groups"])
        if app.get("submitTime") is not None:
            entry["submitSeconds"] = age_seconds(app["submitTime"], f"application {app['id']} submitTime")
        if app.get("taskGroups"):  # gang scheduling: the shim's annotations, as the oracle harness reads them
            entry["taskGroups"] = [
                {
                    "name": tg["name"],
                    "minMember": tg["minMember"],
                    "minResource": resources(tg.get("minResource")),
                    **_pod_predicates(tg, {}, f"application {app['id']} task group {tg['name']}"),
                }
                for tg in app["taskGroups"]
            ]
            entry["gangSchedulingStyle"] = app.get("gangSchedulingStyle", "Soft")
            if app.get("placeholderTimeoutInSeconds") is not None:
                entry["placeholderTimeoutSeconds"] = app["placeholderTimeoutInSeconds"]
        apps.append(entry)
        for alloc in app.get("allocations") or []:
            if alloc.get("duration") is not None:
                raise ConversionError(f"allocation {alloc['name']}: duration is not supported")
            out: dict[str, Any] = {
                "key": alloc["name"],
                "app": app["id"],
                "node": alloc["node"],
                "resources": resources(alloc.get("resources")),
                "priority": classes.priority(alloc),
                "allowPreemptSelf": bool(classes.field(alloc, "allowPreemption", True)),
            }
            if alloc.get("originator"):
                out["originator"] = True
            if alloc.get("startTime") is not None:
                out["ageSeconds"] = age_seconds(alloc["startTime"], f"allocation {alloc['name']} startTime")
            out.update(_pod_predicates(alloc, app, f"allocation {alloc['name']}"))
            allocations.append(out)
        for ask in app.get("asks") or []:
            if ask.get("duration") is not None:
                raise ConversionError(f"ask {ask['name']}: duration is not supported")
            count = ask.get("count")
            names = [ask["name"]] if count is None else [f"{ask['name']}-{i}" for i in range(int(count))]
            for name in names:
                out = {
                    "key": name,
                    "app": app["id"],
                    "priority": classes.priority(ask),
                    "resources": resources(ask.get("resources")),
                    "allowPreemptOther": classes.field(ask, "preemptionPolicy", "PreemptLowerPriority") != "Never",
                    "allowPreemptSelf": bool(classes.field(ask, "allowPreemption", True)),
                }
                if ask.get("originator"):
                    out["originator"] = True
                if ask.get("submitTime") is not None:
                    out["ageSeconds"] = age_seconds(ask["submitTime"], f"ask {name} submitTime")
                if ask.get("requiredNode") is not None:
                    out["requiredNode"] = ask["requiredNode"]
                if ask.get("taskGroupName") is not None:
                    out["taskGroupName"] = ask["taskGroupName"]
                out.update(_pod_predicates(ask, app, f"ask {name}"))
                if ask.get("nodeName"):
                    out["nodeName"] = _text(ask["nodeName"], f"ask {name} nodeName")
                asks.append(out)
    return {
        "config": queues_yaml_text,
        "nodes": nodes,
        "apps": apps,
        "allocations": allocations,
        "asks": asks,
        "maxSteps": MAX_STEPS_PER_ASK * (len(asks) + _placeholders(workload)) + 20,
    }


def _placeholders(workload: Mapping[str, Any]) -> int:
    """How many placeholder asks the shim creates for the workload's gangs."""
    return sum(tg["minMember"] for app in workload.get("applications") or [] for tg in app.get("taskGroups") or [])


def parse_output(text: str, asks: list[str], max_steps: int | None = None) -> tuple[list[Event], list[str]]:
    """The oracle's JSON lines -> (seq, pending): allocations and victims in the order the core made them, and the
    sorted names of the asks (of `asks`) it never allocated. An ask allocated and later preempted is not pending
    (the summary line counts it as pending: it is no longer allocated). A run that used up `max_steps` is refused."""
    seq: list[Event] = []
    allocated: set[str] = set()
    preempted: set[str] = set()
    summary: dict[str, Any] | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        kind = record.get("type")
        if kind == "error":
            raise RuntimeError(f"oracle refused the scenario: {record.get('message')}")
        if kind == "allocation":
            seq.append(("allocate", record["allocationKey"], record["nodeID"]))
            allocated.add(record["allocationKey"])
        elif kind == "preemption":
            seq.append(("preempt", record["allocationKey"]))
            preempted.add(record["allocationKey"])
        elif kind == "summary":
            summary = record
        elif kind in ("appRejected", "nodeRejected"):
            raise RuntimeError(f"oracle rejected part of the input: {line}")
    if summary is None:
        raise RuntimeError("oracle output has no summary line")
    pending = sorted(name for name in asks if name not in allocated)
    not_running = len(pending) + len(allocated & preempted)
    if summary.get("pending") is not None and summary["pending"] != not_running:
        raise RuntimeError(f"oracle summary says {summary['pending']} pending, the lines say {not_running}")
    if max_steps is not None and summary.get("steps", 0) >= max_steps:
        raise RuntimeError(f"oracle run cut off at maxSteps {max_steps}: raise it")
    return seq, pending


def oracle_output(
    binary: Path, scenario: Mapping[str, Any], *, timeout: float = 300, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run `binary -procs 1 [extra] FILE` on one scenario: the finished process (stdout: the JSON lines; stderr:
    e.g. `-trace-predicates`). A non-zero exit is raised."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        json.dump(scenario, handle)
        path = handle.name
    try:
        done = subprocess.run(
            [str(binary), "-procs", "1", *extra, path], capture_output=True, text=True, timeout=timeout, check=False
        )
    finally:
        os.unlink(path)
    if done.returncode != 0:
        raise RuntimeError(f"oracle exit {done.returncode}: {(done.stdout + done.stderr).strip()[-500:]}")
    return done


def run_oracle(
    binary: Path, scenario: Mapping[str, Any], *, timeout: float = 300, extra: tuple[str, ...] = ()
) -> tuple[list[Event], list[str]]:
    """Run `binary -procs 1 FILE` on one scenario: (seq, pending) in check.py's `expected()` shape."""
    done = oracle_output(binary, scenario, timeout=timeout, extra=extra)
    return parse_output(done.stdout, [ask["key"] for ask in scenario.get("asks", [])], scenario.get("maxSteps"))


def expected_json(seq: list[Event], pending: list[str]) -> dict[str, Any]:
    """An expected.json document (the conformance format) for an oracle result."""
    events: list[dict[str, str]] = []
    for event in seq:
        if event[0] == "allocate":
            events.append({"type": "allocate", "ask": event[1], "node": event[2]})
        else:
            events.append({"type": "preempt", "allocation": event[1]})
    return {"events": events, "pending": sorted(pending)}
