"""Reading YuniKorn state dumps (`--state`): read and run times and peak memory, beside yk's own files and the core."""

from __future__ import annotations

import argparse
import compileall
import gc
import hashlib
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vs_core import GNU_TIME, pending_at_start, yk_command, yk_version  # noqa: E402
from tests.helpers.oracle import DEFAULT_BINARY, to_oracle  # noqa: E402
from tests.helpers.oracle import resources as core_resources  # noqa: E402
from yk_cli.core.workload.generate import GenerateOptions, generate  # noqa: E402
from yk_cli.load.source import InputError  # noqa: E402
from yk_cli.load.state import MAX_STATE_BYTES, LoadedState, read_state, state_from_bytes  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml  # noqa: E402

SEED = 42
MB = 1024 * 1024
TIMESTAMP = 1_795_824_000_000_000_000
"""The time of a synthesized dump (2026-11-28 00:00 UTC, nanoseconds): fixed, so a synthesized dump is the same bytes
run to run."""
RM_ID = "yk-benchmark"
"""The resource manager ID a synthesized dump names (the oracle's is `oracle`)."""
PARTITION = "default"
MIN_PRIORITY = -2147483648
"""The core's `maxRequestPriority` of an application without requests (math.MinInt32)."""
ORACLE_TIMEOUT_S = 600.0
PREEMPTION_DELAY = "24h"
"""root's preemption.delay: longer than any ask of a generated workload has waited (the oldest are about 2 h)."""


@dataclass(frozen=True, slots=True)
class DumpSize:
    """One state dump to build: a generated cluster with a share of its asks already running."""

    name: str
    nodes: int
    queues: int
    apps: int
    asks: int
    running: float
    """Running allocations, as a fraction of the asks (generate's `running`)."""

    def options(self) -> GenerateOptions:
        """The generator options for this size."""
        return GenerateOptions(
            nodes=self.nodes, queues=self.queues, apps=self.apps, asks=self.asks, seed=SEED, running=self.running
        )

    def label(self) -> str:
        """Human description."""
        return (
            f"{self.nodes:,} nodes / {self.queues:,} leaf queues / {self.apps:,} apps / {self.asks:,} pending "
            f"requests / {self.running:.0%} of that running"
        )


SIZES = {
    "tiny": DumpSize("tiny", 12, 4, 8, 40, 0.1),
    "small": DumpSize("small", 1_000, 100, 1_000, 10_000, 0.05),
    "large": DumpSize("large", 5_000, 500, 5_000, 250_000, 0.05),
}
"""small: about 6 MB of dump; large: about 120 MB (the oracle writes it indented, 2 spaces, as the core does)."""
DEFAULT_SIZES = "small,large"


# --- the scenario ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scenario:
    """One generated cluster: the queue config (plain data and queues.yaml text), the workload, the core's scenario."""

    config: dict[str, Any]
    config_text: str
    workload: dict[str, Any]
    scenario: dict[str, Any]


def make_scenario(size: DumpSize) -> Scenario:
    """Generate the cluster (no node predicates, no durations, every ask pending at the start, no preemption at the
    start) and its core scenario."""
    generated = generate(size.options())
    workload = pending_at_start(generated.workload)
    config = without_early_preemption(generated.config)
    text = config_yaml(config)
    return Scenario(config, text, workload, to_oracle(text, workload))


def without_early_preemption(config: dict[str, Any]) -> dict[str, Any]:
    """The config, in place, with `preemption.delay: PREEMPTION_DELAY` on every leaf: no ask is old enough to preempt
    at the start, in the core or in yk. (`preemption: {enabled: false}` is not used: yk's reading of a dump drops a
    false `Enabled`, see docs/performance.md.)"""
    queues = [queue for partition in config.get("partitions") or [] for queue in partition.get("queues") or []]
    while queues:
        queue = queues.pop()
        if queue.get("queues"):
            queues.extend(queue["queues"])
        else:
            queue.setdefault("properties", {})["preemption.delay"] = PREEMPTION_DELAY
    return config


# --- a dump made by the real core --------------------------------------------------------------------------------


@dataclass(slots=True)
class Made:
    """How a dump was made and what making it cost."""

    how: str
    """`oracle` or `synthesized`."""
    seconds: float
    """Wall time to make it (the oracle: the whole process; synthesized: building and writing the JSON)."""
    setup_seconds: float | None = None
    """The oracle's `setupSeconds`: loading the scenario into the core and writing the dump."""
    rss: int = 0
    why: str = ""
    """Why a dump was synthesized although the oracle was asked for."""


def oracle_dump(binary: Path, scenario: Path, dump: Path, timeout: float) -> Made:
    """Have the real core load the scenario and write its state dump before the first cycle (one cycle runs)."""
    command = [str(binary), "-quiet", "-max-steps", "1", "-state-dump", str(dump), str(scenario)]
    run = run_measured(command, timeout=timeout)
    summary: dict[str, Any] = {}
    for line in run.stdout.splitlines():
        if line.strip().startswith("{"):
            record = json.loads(line)
            if record.get("type") == "error":
                raise RuntimeError(f"the core refused the scenario: {record.get('message')}")
            if record.get("type") == "summary":
                summary = record
    if run.returncode != 0 or not summary or not dump.is_file():
        raise RuntimeError(f"the oracle failed (exit {run.returncode}): {run.stderr.strip()[-500:]}")
    if summary.get("rejected"):
        raise RuntimeError(f"the core rejected {summary['rejected']} requests of the scenario")
    return Made("oracle", run.wall, float(summary["setupSeconds"]), run.rss)


# --- a dump synthesized in Python, in the shape the core writes ----------------------------------------------------

GO_NAMES = {
    "partitions": "Partitions",
    "name": "Name",
    "queues": "Queues",
    "parent": "Parent",
    "resources": "Resources",
    "guaranteed": "Guaranteed",
    "max": "Max",
    "maxapplications": "MaxApplications",
    "properties": "Properties",
    "adminacl": "AdminACL",
    "submitacl": "SubmitACL",
    "childtemplate": "ChildTemplate",
    "limits": "Limits",
    "limit": "Limit",
    "users": "Users",
    "groups": "Groups",
    "maxresources": "MaxResources",
    "placementrules": "PlacementRules",
    "create": "Create",
    "filter": "Filter",
    "type": "Type",
    "value": "Value",
    "preemption": "Preemption",
    "enabled": "Enabled",
    "nodesortpolicy": "NodeSortPolicy",
    "resourceweights": "ResourceWeights",
    "statedumpfilepath": "StateDumpFilePath",
}
"""queues.yaml keys -> the Go field names of YuniKorn's SchedulerConfig, as the dump's `config` has them."""
STRING_MAPS = frozenset({"Properties", "Guaranteed", "Max", "MaxResources"})
"""Go map[string]string fields: keys kept, values as strings (`vcore: 4` is `"4"`)."""


def go_config(config: Mapping[str, Any], config_text: str) -> dict[str, Any]:
    """A queues.yaml document as the dump's `config`: Go field names, the defaults the core fills in, a checksum."""
    partitions = [_go_partition(partition) for partition in config.get("partitions") or []]
    return {
        "Partitions": partitions,
        "Checksum": hashlib.sha256(config_text.encode("utf-8")).hexdigest().upper(),
        "Extra": {"log.level": "FATAL"},
        "DeadlockDetectionEnabled": False,
        "DeadlockTimeoutSeconds": 60,
    }


def _go_partition(partition: Mapping[str, Any]) -> dict[str, Any]:
    """One partition in Go field names, with the empty structs the core writes."""
    out: dict[str, Any] = {"Name": partition["name"]}
    out["Queues"] = [_go_queue(queue) for queue in partition.get("queues") or []]
    out.update(_go_value({k: v for k, v in partition.items() if k not in ("name", "queues")}))
    out.setdefault("Preemption", {})
    out.setdefault("NodeSortPolicy", {"Type": ""})
    out.setdefault("UserGroupResolver", {})
    return out


def _go_queue(queue: Mapping[str, Any], top: bool = True) -> dict[str, Any]:
    """One queue in Go field names: `Parent` as the core sets it (root, and where the config says so), empty
    `Resources` and child template."""
    children = [_go_queue(child, False) for child in queue.get("queues") or []]
    out: dict[str, Any] = {"Name": queue["name"]}
    if top or queue.get("parent"):
        out["Parent"] = True
    rest = _go_value({k: v for k, v in queue.items() if k not in ("name", "parent", "queues")})
    out["Resources"] = rest.pop("Resources", {})
    out.update(rest)
    out.setdefault("ChildTemplate", {"Resources": {}})
    if children:
        out["Queues"] = children
    return out


def _go_value(value: Any, field_name: str = "") -> Any:
    """A queues.yaml value in Go field names (maps of the user's own keys kept as they are)."""
    if isinstance(value, Mapping):
        if field_name in STRING_MAPS:
            return {str(k): str(value[k]) for k in sorted(value)}
        if field_name == "ResourceWeights":
            return {str(k): _number(value[k]) for k in sorted(value)}
        out = {}
        for key, item in value.items():
            if key not in GO_NAMES:
                raise ValueError(f"no Go field name known for the config key {key!r}")
            out[GO_NAMES[key]] = _go_value(item, GO_NAMES[key])
        return out
    if isinstance(value, list):
        return [_go_value(item, field_name) for item in value]
    return value


def _number(value: Any) -> Any:
    """A float as Go's encoding/json writes it: a whole number without a fraction."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _added(into: dict[str, int], res: Mapping[str, int]) -> None:
    """Add a resource into another, in place."""
    for name, amount in res.items():
        into[name] = into.get(name, 0) + amount


def _sorted(res: Mapping[str, int]) -> dict[str, int]:
    """A resource with its names sorted (Go marshals maps so), zero amounts left out."""
    return {name: res[name] for name in sorted(res) if res[name]}


def _created(entry: Mapping[str, Any], app: Mapping[str, Any], now_s: int) -> int | None:
    """The creation time (Unix seconds) the shim would tag a pod with: its age, else its application's; None: now."""
    age = entry.get("ageSeconds", app.get("submitSeconds"))
    return now_s - int(age) if age is not None else None


def synthesize_dump(config: Mapping[str, Any], config_text: str, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The state dump the core would write for the scenario before its first cycle, built in Python (the shape of
    tests/data/state/statedump-preempt.json: core units, Go field names in `config`, times in nanoseconds)."""
    now = TIMESTAMP
    now_s = now // 1_000_000_000
    apps = {app["id"]: app for app in scenario.get("apps") or []}
    if any(app.get("taskGroups") for app in apps.values()):
        raise ValueError("gang applications are not synthesized")
    asks: dict[str, list[dict[str, Any]]] = {app_id: [] for app_id in apps}
    allocations: dict[str, list[dict[str, Any]]] = {app_id: [] for app_id in apps}
    on_node: dict[str, list[dict[str, Any]]] = {}
    for ask in scenario.get("asks") or []:
        app = apps[ask["app"]]
        created = _created(ask, app, now_s)
        request: dict[str, Any] = {"allocationKey": ask["key"]}
        if created is not None:
            request["allocationTags"] = {"creationTime": str(created)}
        request["requestTime"] = created * 1_000_000_000 if created is not None else now
        request["resource"] = _sorted(ask["resources"])
        request["priority"] = str(ask.get("priority", 0))
        if ask.get("requiredNode"):
            request["requiredNodeId"] = ask["requiredNode"]
        request["applicationId"] = ask["app"]
        if ask.get("originator"):
            request["originator"] = True
        asks[ask["app"]].append(request)
    for alloc in scenario.get("allocations") or []:
        app = apps[alloc["app"]]
        created = _created(alloc, app, now_s)
        when = created * 1_000_000_000 if created is not None else now
        entry: dict[str, Any] = {"allocationKey": alloc["key"]}
        if created is not None:
            entry["allocationTags"] = {"creationTime": str(created)}
        entry.update(requestTime=when, allocationTime=when, resource=_sorted(alloc["resources"]))
        entry.update(priority=str(alloc.get("priority", 0)), nodeId=alloc["node"], applicationId=alloc["app"])
        if alloc.get("originator"):
            entry["originator"] = True
        allocations[alloc["app"]].append(entry)
        on_node.setdefault(alloc["node"], []).append(entry)
    queue_use: dict[str, tuple[dict[str, int], dict[str, int], set[str]]] = {}
    app_out, states = [], {"Accepted": 0, "Running": 0}
    for app_id, app in apps.items():
        pending: dict[str, int] = {}
        used: dict[str, int] = {}
        for request in asks[app_id]:
            _added(pending, request["resource"])
        for entry in allocations[app_id]:
            _added(used, entry["resource"])
        # the core's submission time: its oldest request or allocation (submitSeconds only ages the requests)
        times = [r["requestTime"] for r in asks[app_id]] + [a["allocationTime"] for a in allocations[app_id]]
        state = "Running" if allocations[app_id] else "Accepted"
        states[state] += 1
        out: dict[str, Any] = {"applicationID": app_id}
        if used:
            out.update(usedResource=_sorted(used), maxUsedResource=_sorted(used))
        if pending:
            out["pendingResource"] = _sorted(pending)
        out.update(partition=PARTITION, queueName=app["queue"], submissionTime=min(times, default=now))
        if asks[app_id]:
            out["requests"] = asks[app_id]
        if allocations[app_id]:
            out["allocations"] = allocations[app_id]
        out.update(applicationState=state, user=app.get("user") or "testuser")
        if app.get("groups"):
            out["groups"] = list(app["groups"])
        log = [{"time": now, "applicationState": "Accepted"}]
        if state == "Running":
            log.append({"time": now, "applicationState": "Running"})
        priorities = [int(r["priority"]) for r in asks[app_id]]
        out.update(stateLog=log, maxRequestPriority=max(priorities, default=MIN_PRIORITY))
        out.update(startTime=now // 1_000_000 if state == "Running" else -62135596800000, resourceHistory={})
        app_out.append(out)
        queue = queue_use.setdefault(app["queue"], ({}, {}, set()))
        _added(queue[0], pending)
        _added(queue[1], used)
        if state == "Running":
            queue[2].add(app_id)
    nodes_out: list[dict[str, Any]] = []
    capacity: dict[str, int] = {}
    allocated_total: dict[str, int] = {}
    for node in scenario.get("nodes") or []:
        cap = dict(node["resources"])
        allocated: dict[str, int] = {}
        for entry in on_node.get(node["id"], []):
            _added(allocated, entry["resource"])
        _added(capacity, cap)
        _added(allocated_total, allocated)
        attributes = {"si/node-partition": f"[{RM_ID}]{PARTITION}", **dict(node.get("labels") or {})}
        info: dict[str, Any] = {"nodeID": node["id"], "attributes": attributes, "capacity": _sorted(cap)}
        if allocated:
            info["allocated"] = _sorted(allocated)
        available = {name: amount - allocated.get(name, 0) for name, amount in cap.items()}
        if any(available.values()):
            info["available"] = _sorted(available)
        if allocated:
            info["utilized"] = _sorted({n: allocated[n] * 100 // cap[n] for n in allocated if cap.get(n)})
        if on_node.get(node["id"]):
            info["allocations"] = on_node[node["id"]]
        info.update(schedulable=not node.get("unschedulable"), isReserved=False)
        nodes_out.append(info)
    partition_config = next(p for p in config.get("partitions") or [] if p.get("name") == PARTITION)
    sort_policy = partition_config.get("nodesortpolicy") or {}
    preemption = (partition_config.get("preemption") or {}).get("enabled", True)
    weights = {str(k): _number(v) for k, v in sorted((sort_policy.get("resourceweights") or {}).items())}
    running_allocations = sum(len(entries) for entries in allocations.values())
    partition_info: dict[str, Any] = {
        "clusterId": RM_ID,
        "name": PARTITION,
        "capacity": {
            "capacity": _sorted(capacity),
            "usedCapacity": _sorted(allocated_total),
            "utilization": _sorted(
                {n: allocated_total[n] * 100 // capacity[n] for n in allocated_total if capacity.get(n)}
            ),
        },
        "nodeSortingPolicy": {
            "type": sort_policy.get("type") or "fair",
            "resourceWeights": weights or {"memory": 1, "vcore": 1},
        },
        "preemptionEnabled": bool(preemption),
        "quotaPreemptionEnabled": False,
        "totalNodes": len(nodes_out),
        "applications": {**{k: v for k, v in states.items() if v}, "total": len(app_out)},
        "totalContainers": running_allocations,
        "state": "Active",
        "lastStateTransitionTime": now,
    }
    rules = [
        {"name": rule.get("name"), "parameters": {"create": "true" if rule.get("create") else "false"}}
        for rule in partition_config.get("placementrules") or [{"name": "provided"}]
    ]
    rules.append({"name": "recovery", "parameters": {"queue": "root.@recovery@"}})
    roots = [_queue_info(queue, "", queue_use) for queue in partition_config.get("queues") or []]
    return {
        "timestamp": now,
        "partitions": [partition_info],
        "applications": app_out,
        "nodes": [{"partitionName": PARTITION, "nodesInfo": nodes_out}],
        "clusterInfo": [
            {
                "startTime": now,
                "rmBuildInformation": [{"synthesized": "benchmarks/state.py", "rmId": RM_ID}],
                "partition": PARTITION,
                "clusterName": "kubernetes",
            }
        ],
        "queues": roots,
        "rmDiagnostics": {"empty": "Resource Manager did not register callback"},
        "logLevel": "fatal",
        "config": go_config(config, config_text),
        "placementRules": [{"partition": PARTITION, "rules": rules}],
    }


def _queue_info(
    queue: Mapping[str, Any], parent: str, use: Mapping[str, tuple[dict[str, int], dict[str, int], set[str]]]
) -> dict[str, Any]:
    """One queue of the dump's `queues` tree (PartitionQueueDAOInfo), its usage summed from its leaves."""
    name = f"{parent}.{queue['name']}" if parent else str(queue["name"])
    children = [_queue_info(child, name, use) for child in queue.get("queues") or []]
    own_pending, own_allocated, own_running = use.get(name, ({}, {}, set()))
    pending, allocated, running = dict(own_pending), dict(own_allocated), len(own_running)
    for child in children:
        _added(pending, child.get("pendingResource") or {})
        _added(allocated, child.get("allocatedResource") or {})
        running += int(child.get("runningApps") or 0)
    out: dict[str, Any] = {"queuename": name, "status": "Active", "partition": "" if parent else PARTITION}
    if any(pending.values()):
        out["pendingResource"] = _sorted(pending)
    limits = queue.get("resources") or {}
    for key, dao in (("max", "maxResource"), ("guaranteed", "guaranteedResource")):
        if limits.get(key):
            out[dao] = _sorted(core_resources(limits[key]))
    if any(allocated.values()):
        out["allocatedResource"] = _sorted(allocated)
    out.update(isLeaf=not children, isManaged=True)
    if queue.get("properties"):
        out["properties"] = {str(k): str(v) for k, v in queue["properties"].items()}
    if parent:
        out["parent"] = parent
    if children:
        out["children"] = children
        out["childNames"] = [child["queuename"] for child in children]
    if running:
        out["runningApps"] = running
    return out


def write_dump(dump: Mapping[str, Any], path: Path) -> None:
    """Write a dump as the core does: indented JSON (2 spaces) and a newline."""
    with path.open("w", encoding="utf-8") as out:
        json.dump(dump, out, indent=2)
        out.write("\n")


def make_dump(
    size: DumpSize, folder: Path, oracle: Path | None, why: str, timeout: float, log: Callable[[str], None]
) -> Made:
    """Write folder/statedump.json (and the core's input, folder/scenario.json): by the real core when it is given,
    else (`why` says why not) or when it fails, synthesized in Python."""
    folder.mkdir(parents=True, exist_ok=True)
    built = make_scenario(size)
    scenario_path, dump_path = folder / "scenario.json", folder / "statedump.json"
    scenario_path.write_text(json.dumps(built.scenario) + "\n", encoding="utf-8")
    if oracle is not None:
        log(f"{size.name}: the core loads the scenario and writes the dump ...")
        try:
            return oracle_dump(oracle, scenario_path, dump_path, timeout)
        except (RuntimeError, subprocess.TimeoutExpired) as err:
            why = f"the oracle did not write it: {err}"
            log(f"{size.name}: {why}; synthesizing it")
    started = time.perf_counter()
    write_dump(synthesize_dump(built.config, built.config_text, built.scenario), dump_path)
    return Made("synthesized", time.perf_counter() - started, why=why)


# --- processes ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Measured:
    """One finished child process."""

    wall: float
    cpu: float
    """user + sys seconds."""
    rss: int
    """Peak resident set size in bytes."""
    returncode: int
    stdout: str = ""
    stderr: str = ""


def run_measured(
    command: Sequence[str], stdin: Path | None = None, stdout: Path | None = None, timeout: float | None = None
) -> Measured:
    """Run a command (under GNU time for its own peak RSS when present, else getrusage of the children), stdout to
    a file, /dev/null, or captured (stdout None and no file wanted: captured)."""
    with tempfile.TemporaryDirectory(prefix="yk-state-run-") as tmp:
        measured = Path(tmp) / "time"
        wrapper = [str(GNU_TIME), "-f", "%U %S %M", "-o", str(measured)] if GNU_TIME.is_file() else []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with (
            stdin.open("rb") if stdin is not None else open(os.devnull, "rb") as source,
            stdout.open("wb") if stdout is not None else open(Path(tmp) / "out", "wb") as out,
            open(Path(tmp) / "err", "wb") as err,
        ):
            started = time.perf_counter()
            done = subprocess.run([*wrapper, *command], stdin=source, stdout=out, stderr=err, timeout=timeout)
            wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rss = after.ru_maxrss * 1024
        if wrapper and measured.is_file():
            # GNU time writes "Command exited with non-zero status N" first when the command failed
            fields = measured.read_text(encoding="utf-8").split()[-3:]
            cpu, rss = float(fields[0]) + float(fields[1]), int(fields[2]) * 1024
        text = (Path(tmp) / "out").read_text(encoding="utf-8", errors="replace") if stdout is None else ""
        error = (Path(tmp) / "err").read_text(encoding="utf-8", errors="replace")
    return Measured(wall, cpu, rss, done.returncode, text, error)


DEVNULL = Path(os.devnull)
TOO_LARGE = "yk reads"
"""What yk says when it refuses an input for its size."""


@dataclass(slots=True)
class Row:
    """The runs of one command on one dump."""

    label: str
    runs: list[Measured] = field(default_factory=list)
    note: str = ""

    def median(self, what: str) -> float:
        """The median of one figure over the runs (nan without runs)."""
        return statistics.median(getattr(run, what) for run in self.runs) if self.runs else float("nan")


def state_command(dump: Path, words: Sequence[str], via_stdin: bool) -> tuple[list[str], Path | None]:
    """`yk WORDS...` with `--state DUMP` (or `--state -` and the dump on standard input)."""
    name = "-" if via_stdin else str(dump)
    return [*yk_command(), *[name if w == "{dump}" else w for w in words]], dump if via_stdin else None


def run_yk(row: Row, dump: Path, words: Sequence[str], stdout: Path, state: dict[str, bool]) -> None:
    """One run of a yk command on the dump; a path refused for its size is retried (and from then on run) with the
    dump on standard input, and the row says so."""
    command, stdin = state_command(dump, words, state["stdin"])
    run = run_measured(command, stdin=stdin, stdout=stdout)
    if run.returncode != 0 and TOO_LARGE in run.stderr and not state["stdin"]:
        state["stdin"] = True
        state["refused"] = True
        command, stdin = state_command(dump, words, True)
        run = run_measured(command, stdin=stdin, stdout=stdout)
    if state["stdin"]:
        row.note = "dump on standard input (`--state -`): the path is refused, see below"
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()[-800:]}")
    row.runs.append(run)


def read_in_process(dump: Path) -> tuple[float, LoadedState, bool]:
    """read_state on the dump in this process: seconds, the result, and whether the path was refused for its size
    (then the same function's work after the read: state_from_bytes of the file's bytes)."""
    gc.collect()
    started = time.perf_counter()
    try:
        loaded = read_state(str(dump), limit=MAX_STATE_BYTES)
        refused = False
    except InputError as err:
        if TOO_LARGE not in str(err):
            raise
        started = time.perf_counter()
        loaded = state_from_bytes(dump.read_bytes(), str(dump))
        refused = True
    return time.perf_counter() - started, loaded, refused


# --- one size ----------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Result:
    """Everything measured on one dump."""

    size: DumpSize
    made: Made
    dump_bytes: int
    files_bytes: int
    counts: str
    rows: list[Row]
    load: tuple[float, float]
    refused: bool
    same_events: bool | None = None


def measure(size: DumpSize, folder: Path, made: Made, runs: int, compare: bool, log: Callable[[str], None]) -> Result:
    """Time every command on the dump `runs` times, interleaved, and (with compare) check that --state and the
    files `yk state` writes give the same events."""
    dump = folder / "statedump.json"
    files = folder / "files"
    load_before = os.getloadavg()[0]
    reader = Row("read_state (in process)")
    tree_state, tree_files = Row("yk tree --state"), Row("yk tree queues.yaml -w workload.yaml")
    sim_state = Row("yk simulate --state --until 0s --format json")
    sim_files = Row("yk simulate queues.yaml workload.yaml --until 0s --format json")
    writer = Row("yk state --out-dir (dump -> yk files)")
    state = {"stdin": False, "refused": False}
    loaded_counts = ""
    queues, workload = files / "queues.yaml", files / "workload.yaml"
    for number in range(runs):
        seconds, loaded, refused = read_in_process(dump)
        reader.runs.append(Measured(seconds, seconds, 0, 0))
        state["refused"] |= refused
        if refused:
            reader.note = "state_from_bytes after reading the file: read_state refuses the path, see below"
        w = loaded.workload.workload
        loaded_counts = (
            f"{len(w.nodes):,} nodes, {len(w.applications):,} apps, "
            f"{sum(len(a.asks) for a in w.applications):,} requests, "
            f"{sum(len(a.allocations) for a in w.applications):,} running"
        )
        del loaded, w
        gc.collect()
        log(f"  run {number + 1}/{runs} read_state: {seconds:.2f} s")
        run_yk(writer, dump, ["state", "{dump}", "--out-dir", str(files), "--force", "--quiet"], DEVNULL, state)
        for row, words in (
            (tree_state, ["tree", "--state", "{dump}"]),
            (sim_state, ["simulate", "--state", "{dump}", "--until", "0s", "--format", "json"]),
        ):
            run_yk(row, dump, words, DEVNULL, state)
            log(f"  run {number + 1}/{runs} {row.label}: {row.runs[-1].wall:.2f} s, {row.runs[-1].rss / MB:.0f} MB")
        for row, command in (
            (tree_files, [*yk_command(), "tree", str(queues), "-w", str(workload)]),
            (sim_files, [*yk_command(), "simulate", str(queues), str(workload), "--until", "0s", "--format", "json"]),
        ):
            run = run_measured(command, stdout=DEVNULL)
            if run.returncode != 0:
                raise RuntimeError(f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()[-800:]}")
            row.runs.append(run)
            log(f"  run {number + 1}/{runs} {row.label}: {run.wall:.2f} s, {run.rss / MB:.0f} MB")
    files_bytes = queues.stat().st_size + workload.stat().st_size
    result = Result(
        size,
        made,
        dump.stat().st_size,
        files_bytes,
        loaded_counts,
        [reader, tree_state, tree_files, sim_state, sim_files, writer],
        (load_before, os.getloadavg()[0]),
        state["refused"],
    )
    if compare:
        log(f"{size.name}: comparing the events of --state and of the yk files ...")
        result.same_events = same_events(dump, files, folder, via_stdin=state["stdin"])
    return result


def simulate_events(command: Sequence[str], stdin: Path | None, output: Path) -> list[Any]:
    """The events of one `yk simulate --format json` run."""
    run = run_measured(command, stdin=stdin, stdout=output)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()[-800:]}")
    events = json.loads(output.read_bytes())["events"]
    assert isinstance(events, list)
    return events


def same_events(dump: Path, files: Path, folder: Path, via_stdin: bool = False) -> bool:
    """Whether `yk simulate --state DUMP` and `yk simulate` of the files `yk state` wrote give the same events."""
    command, stdin = state_command(
        dump, ["simulate", "--state", "{dump}", "--until", "0s", "--format", "json"], via_stdin
    )
    from_state = simulate_events(command, stdin, folder / "simulate-state.json")
    from_files = simulate_events(
        [
            *yk_command(),
            "simulate",
            str(files / "queues.yaml"),
            str(files / "workload.yaml"),
            "--until",
            "0s",
            "--format",
            "json",
        ],
        None,
        folder / "simulate-files.json",
    )
    return bool(from_state == from_files)


# --- report ------------------------------------------------------------------------------------------------------


def _commit() -> str:
    """The commit measured, marked when the working tree has changes."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, cwd=ROOT
        )
    except OSError:
        return "unknown"
    return (rev.stdout.strip() or "unknown") + (" (uncommitted changes)" if dirty.stdout.strip() else "")


def report(results: Iterable[Result], args: argparse.Namespace) -> str:
    """The header, one table of every figure, the comparisons and the notes, as text (the table in Markdown)."""
    results = list(results)
    lines = [
        f"yk reading YuniKorn state dumps: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {_commit()}, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, median of {args.runs} runs per figure",
        f"`yk --version`: {yk_version()}",
        f"s: wall seconds of a fresh process, spawn to exit, stdout to /dev/null (CPU = user+sys); MB: its peak RSS "
        f"({'GNU time %M' if GNU_TIME.is_file() else 'getrusage of the children'}); read_state: wall seconds in this "
        "process, import excluded",
        "",
        "| dump | made by | dump MB | command | s (CPU) | peak MB |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for result in results:
        label = f"{result.size.name}: {result.counts}"
        made, size = result.made.how, f"{result.dump_bytes / MB:.1f}"
        for row in result.rows:
            wall, cpu = row.median("wall"), row.median("cpu")
            figures = f"{wall:.2f}" if row.label.startswith("read_state") else f"{wall:.2f} ({cpu:.2f})"
            peak = "-" if row.label.startswith("read_state") else f"{row.median('rss') / MB:.0f}"
            star = " *" if row.note else ""
            lines.append(f"| {label} | {made} | {size} | {row.label}{star} | {figures} | {peak} |")
            label, made, size = "", "", ""
        if result.made.how == "oracle":
            lines.append(
                f"| | | | the core: load the scenario and write the dump (setupSeconds; process wall) |"
                f" {result.made.setup_seconds:.2f}; {result.made.seconds:.2f} | {result.made.rss / MB:.0f} |"
            )
    lines.append("")
    for result in results:
        rows = {row.label: row for row in result.rows}
        sim_state = rows["yk simulate --state --until 0s --format json"].median("wall")
        sim_files = rows["yk simulate queues.yaml workload.yaml --until 0s --format json"].median("wall")
        tree_state = rows["yk tree --state"].median("wall")
        tree_files = rows["yk tree queues.yaml -w workload.yaml"].median("wall")
        lines.append(
            f"{result.size.name} ({result.size.label()}): dump {result.dump_bytes / MB:.1f} MB, yk files "
            f"{result.files_bytes / MB:.1f} MB; reading the dump instead of yk's files: simulate "
            f"{sim_state - sim_files:+.2f} s ({sim_state / sim_files:.2f}x), tree {tree_state - tree_files:+.2f} s "
            f"({tree_state / tree_files:.2f}x); load {result.load[0]:.1f} -> {result.load[1]:.1f}"
        )
        if result.made.how == "synthesized":
            lines.append(f"  dump synthesized in Python ({result.made.why}), {result.made.seconds:.1f} s")
        else:
            lines.append(f"  dump written by the real core (oracle -state-dump), {result.made.seconds:.1f} s")
        if result.same_events is not None:
            verdict = "yes" if result.same_events else "NO: the outputs are kept beside the dump"
            lines.append(f"  same events from --state and from the files `yk state` wrote: {verdict}")
        if result.refused:
            lines.append(
                f"  * the dump's path is refused for its size ({result.dump_bytes:,} bytes; yk reads files of at most "
                "64 MiB although --state allows 256 MiB): timed with the dump on standard input instead"
            )
    return "\n".join(lines)


# --- main --------------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; `sizes` becomes a list of DumpSize, `oracle` a Path or None (`oracle_missing` says why)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated, from {', '.join(SIZES)}")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command per dump (median reported)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the dumps (and yk files) to DIR and keep them")
    parser.add_argument("--oracle", type=Path, help="the core's binary (default: ../shared/oracle/bin/simulate)")
    parser.add_argument(
        "--synthesize", action="store_true", help="synthesize the dumps in Python, even with the oracle"
    )
    parser.add_argument(
        "--oracle-timeout", type=float, default=ORACLE_TIMEOUT_S, help="seconds the core may take per dump"
    )
    parser.add_argument("--no-compare", action="store_true", help="skip the check that --state and yk files agree")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sizes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SIZES]
    if unknown or not names:
        parser.error(f"unknown size {unknown[0]!r}: use {', '.join(SIZES)}" if unknown else "no --sizes")
    if args.runs < 1 or args.oracle_timeout <= 0:
        parser.error("--runs must be at least 1 and --oracle-timeout positive")
    args.sizes = [SIZES[n] for n in names]
    default = Path(os.environ["YK_ORACLE"]) if os.environ.get("YK_ORACLE") else DEFAULT_BINARY
    path = args.oracle or default
    args.oracle_missing = ""
    if args.synthesize:
        args.oracle_missing = "--synthesize"
        args.oracle = None
    elif not (path.is_file() and os.access(path, os.X_OK)):
        args.oracle_missing = f"no oracle binary at {path} (see ../shared/oracle/README.md to build it)"
        args.oracle = None
    else:
        args.oracle = path
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Build each dump, measure it, print the figures; 1 when --state and the yk files disagree, else 0."""
    args = parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.oracle is None:
        log(f"dumps are synthesized: {args.oracle_missing}")
    # An editable install leaves yk's modules uncompiled, and PYTHONDONTWRITEBYTECODE keeps it so: every timed run
    # would compile them again.
    compileall.compile_dir(str(ROOT / "yk_cli"), quiet=1)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="yk-state-bench-") as tmp:
        base = args.keep if args.keep is not None else Path(tmp)
        for size in args.sizes:
            log(f"{size.name}: generating {size.label()} ...")
            folder = base / size.name
            made = make_dump(size, folder, args.oracle, args.oracle_missing, args.oracle_timeout, log)
            results.append(measure(size, folder, made, args.runs, not args.no_compare, log))
        print(report(results, args))
    return 1 if any(result.same_events is False for result in results) else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
