"""A YuniKorn state dump (`/debug/fullstatedump`, parsed JSON) as yk's two inputs, plain data: the queue config
(queues.yaml) and the workload (yk's workload file), with the JSON pointer of everything they came from, the
assumptions the dump leaves to yk, and each pending request's allocation log.

Times are relative to the dump's `timestamp` (the start of the run), in whole seconds toward it: a request the
core has held for 60.7 s is `submitTime: -60s`. Resources are the core's units turned back into quantities
(`vcore: 4000` is `4`, `memory: 4294967296` is `4Gi`). Order: applications by submission time, requests by request time,
allocations by allocation time, nodes by name; equal times by key, numbers within keys compared as numbers (`w-2`
before `w-10`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from yk_cli.core.config.properties import format_duration
from yk_cli.core.diagnostics import Path
from yk_cli.core.state.config import config_document
from yk_cli.core.state.dump import (
    DUMP_KEYS,
    StateError,
    flag,
    integer,
    items,
    obj,
    resource,
    string_map,
    strings,
    text,
)

LIVE_STATES = frozenset({"New", "Accepted", "Running", "Completing", "Resuming"})
"""Application states that still hold or ask for resources; the others (Completed, Failing, Failed, Rejected,
Expired) are left out."""
NODE_ATTRIBUTE_PREFIXES = ("si/", "si.io/")
"""Node attributes the shim and core set for themselves (partition, host name, rack); the rest are node labels."""
BINARY_SUFFIXES = (("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10))
BYTE_RESOURCES = frozenset({"memory", "ephemeral-storage"})
NANOS = 1_000_000_000


@dataclass(frozen=True, slots=True)
class AskLog:
    """One line of a pending request's allocation log: why the core could not allocate it, and how often."""

    message: str
    count: int
    last: int | None
    """Nanoseconds from the dump's time to the last occurrence (negative: before it); None when not given."""


@dataclass(frozen=True, slots=True)
class DynamicQueue:
    """A queue the core created from a child template (`isManaged: false`), as the dump shows it."""

    path: str
    is_leaf: bool
    max: dict[str, int] | None
    """`maxResource` in the core's units (None: not shown)."""
    guaranteed: dict[str, int] | None
    properties: dict[str, str]
    pointer: str


@dataclass(slots=True)
class StateDocuments:
    """A state dump as yk's inputs, plain data, with where each part came from and what yk assumed."""

    partition: str
    partitions: tuple[str, ...]
    timestamp: int
    """The dump's time, nanoseconds since the epoch: the start of the run."""
    config: dict[str, Any]
    """The scheduler config as a queues.yaml document."""
    workload: dict[str, Any]
    """The partition's nodes, applications, pending requests and running allocations as a workload document."""
    config_pointers: dict[Path, str] = field(default_factory=dict)
    workload_pointers: dict[Path, str] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)
    """What the dump cannot say and yk assumed, each a sentence: shown at the top of every output."""
    logs: dict[str, tuple[AskLog, ...]] = field(default_factory=dict)
    """The allocation log of each pending request, by its name in the workload."""
    version: str = ""
    """The YuniKorn version the shim reported (`clusterInfo[].rmBuildInformation[].buildVersion`), '' unknown."""
    dynamic_queues: list[DynamicQueue] = field(default_factory=list)
    """Queues of the partition the dump shows and its config lacks (created from templates by the core), parents
    first."""


def is_state_dump(data: Any) -> bool:
    """Whether parsed JSON looks like a full state dump (an object with any of its top-level keys)."""
    return isinstance(data, Mapping) and any(key in data for key in DUMP_KEYS)


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """A key that orders numbers within names as numbers (`w-2` before `w-10`)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part)


def quantity(name: str, amount: int) -> str | int:
    """A resource amount in the core's units as the workload writes it: vcore as cores or millicores, bytes with
    a binary suffix when exact, anything else as the number."""
    if name == "vcore":
        return amount // 1000 if amount % 1000 == 0 else f"{amount}m"
    if name in BYTE_RESOURCES and amount > 0:
        for suffix, scale in BINARY_SUFFIXES:
            if amount % scale == 0:
                return f"{amount // scale}{suffix}"
    return amount


def quantities(res: Mapping[str, int]) -> dict[str, str | int]:
    """A resource as workload quantities, names sorted."""
    return {name: quantity(name, res[name]) for name in sorted(res)}


def convert_state(dump: Mapping[str, Any], partition: str | None = None) -> StateDocuments:
    """The dump as yk's inputs for one partition (the one named; else `default`, or the dump's only one).
    Raises StateError when the dump cannot be read."""
    if not is_state_dump(dump):
        raise StateError("", "not a YuniKorn state dump: none of " + ", ".join(DUMP_KEYS) + " at the top level")
    names = _partition_names(dump)
    chosen = _choose(names, partition)
    timestamp = integer(dump, "timestamp", "", None)
    state = _Converter(chosen, timestamp)
    if timestamp is None:
        state.timestamp = _latest_time(dump)
        state.assume(
            "the dump has no `timestamp`: the start of the run is its latest request or allocation time"
            if state.timestamp
            else "the dump has no `timestamp` and no times: every request and allocation starts at 0s"
        )
    config_value = dump.get("config")
    if config_value is None:
        raise StateError("/config", "the dump has no scheduler config (`config`): yk needs the queues it runs with")
    config, pointers = config_document(obj(config_value, "/config"), "/config")
    documents = StateDocuments(chosen, names, state.timestamp, config, {}, pointers)
    documents.version = _version(dump)
    documents.workload = state.workload(dump)
    documents.workload_pointers = state.pointers
    documents.assumptions = state.assumptions
    documents.logs = state.logs
    documents.dynamic_queues = _unmanaged_queues(dump, chosen)
    return documents


def _partition_names(dump: Mapping[str, Any]) -> tuple[str, ...]:
    """The partitions the dump names (its `partitions`, else its config's), in dump order."""
    found = [text(item, "name", where) for where, item in items(dump.get("partitions"), "/partitions")]
    if not found:
        config = obj(dump.get("config"), "/config")
        found = [text(item, "Name", where) for where, item in items(config.get("Partitions"), "/config/Partitions")]
    return tuple(dict.fromkeys(name for name in found if name))


def _choose(names: tuple[str, ...], wanted: str | None) -> str:
    """The partition to read: the one asked for, else `default`, else the only one."""
    if wanted is not None:
        if names and wanted not in names:
            raise StateError("/partitions", f"the dump has no partition {wanted!r} (it has: {', '.join(names)})")
        return wanted
    if "default" in names or not names:
        return "default"
    if len(names) == 1:
        return names[0]
    raise StateError(
        "/partitions", f"the dump has {len(names)} partitions ({', '.join(names)}): choose one with --partition NAME"
    )


def _latest_time(dump: Mapping[str, Any]) -> int:
    """The latest request or allocation time in the dump (0 when there is none)."""
    latest = 0
    for where, app in items(dump.get("applications"), "/applications"):
        for key, time_key in (("requests", "requestTime"), ("allocations", "allocationTime")):
            for item_where, item in items(app.get(key), f"{where}/{key}"):
                latest = max(latest, integer(item, time_key, item_where, 0) or 0)
    return latest


def _version(dump: Mapping[str, Any]) -> str:
    """The YuniKorn version the shim reported, '' when the dump does not say."""
    for where, info in items(dump.get("clusterInfo"), "/clusterInfo"):
        for _, build in items(info.get("rmBuildInformation"), f"{where}/rmBuildInformation"):
            version = build.get("buildVersion")
            if isinstance(version, str) and version:
                return version
    return ""


def _unmanaged_queues(dump: Mapping[str, Any], partition: str) -> list[DynamicQueue]:
    """Queues of the partition that the config lacks (`isManaged: false`), tree order."""
    found: list[DynamicQueue] = []

    def walk(queue: Mapping[str, Any], where: str) -> None:
        if queue.get("isManaged") is False:
            found.append(
                DynamicQueue(
                    path=text(queue, "queuename", where),
                    is_leaf=flag(queue, "isLeaf", where, True),
                    max=resource(queue, "maxResource", where) if "maxResource" in queue else None,
                    guaranteed=resource(queue, "guaranteedResource", where) if "guaranteedResource" in queue else None,
                    properties=string_map(queue, "properties", where),
                    pointer=where,
                )
            )
        for child_where, child in items(queue.get("children"), f"{where}/children"):
            walk(child, child_where)

    for where, root in items(dump.get("queues"), "/queues"):
        if text(root, "partition", where, partition) in (partition, ""):
            walk(root, where)
    return found


class _Converter:
    """One partition's nodes and applications as a workload document, pointers and assumptions recorded."""

    def __init__(self, partition: str, timestamp: int | None) -> None:
        self.partition = partition
        self.timestamp = timestamp or 0
        self.pointers: dict[Path, str] = {}
        self.assumptions: list[str] = []
        self.logs: dict[str, tuple[AskLog, ...]] = {}
        self.names: set[str] = set()

    def assume(self, sentence: str) -> None:
        """Record an assumption once."""
        if sentence not in self.assumptions:
            self.assumptions.append(sentence)

    def at(self, nanos: int | None) -> str:
        """A time of the dump as a Go duration from its timestamp, in whole seconds toward the dump's time (the
        shim stamps a request with its pod's creationTimestamp, whole seconds, and the core compares an age with
        whole-second delays: a request 60.7 s old has not reached a 61 s preemption.delay, and has reached a 60 s
        one); the order of equal times is the document's."""
        offset = (nanos if nanos is not None else self.timestamp) - self.timestamp
        seconds = offset // NANOS if offset >= 0 else -(-offset // NANOS)
        return format_duration(seconds * NANOS)

    def workload(self, dump: Mapping[str, Any]) -> dict[str, Any]:
        """The workload document."""
        nodes = self.nodes(dump)
        apps = self.applications(dump)
        document: dict[str, Any] = {"partition": self.partition, "nodes": nodes, "applications": apps}
        self.assume("pods run until the end of the run: the dump says nothing of how long a pod runs (no `duration`)")
        self.assume(
            "every pod may be preempted and may trigger preemption: the dump does not carry "
            "yunikorn.apache.org/allow-preemption or preemptionPolicy"
        )
        self.assume(
            "node predicates are not checked: the dump carries no pod node selectors, tolerations or affinity "
            "(the shim checks them), so every node passes every pod except a required node's"
        )
        return document

    def nodes(self, dump: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The partition's nodes, by name."""
        found: list[tuple[str, str, Mapping[str, Any]]] = []
        for where, group in items(dump.get("nodes"), "/nodes"):
            if text(group, "partitionName", where, self.partition) != self.partition:
                continue
            for node_where, node in items(group.get("nodesInfo"), f"{where}/nodesInfo"):
                name = text(node, "nodeID", node_where)
                if not name:
                    raise StateError(f"{node_where}/nodeID", "a node without a nodeID")
                found.append((name, node_where, node))
        found.sort(key=lambda entry: natural_key(entry[0]))
        out = []
        foreign_preemptable = 0
        for index, (name, where, node) in enumerate(found):
            path: Path = ("nodes", index)
            self.pointers[path] = where
            entry: dict[str, Any] = {"name": name, "resources": quantities(resource(node, "capacity", where))}
            occupied = resource(node, "occupied", where)
            foreign = items(node.get("foreignAllocations"), f"{where}/foreignAllocations")
            if foreign and not occupied:
                for foreign_where, alloc in foreign:
                    for key, amount in resource(alloc, "resource", foreign_where).items():
                        occupied[key] = occupied.get(key, 0) + amount
            foreign_preemptable += sum(1 for fw, alloc in foreign if flag(alloc, "preemptable", fw))
            if any(occupied.values()):
                entry["occupied"] = quantities(occupied)
            if not flag(node, "schedulable", where, True):
                entry["schedulable"] = False
            attributes = string_map(node, "attributes", where)
            labels = {k: v for k, v in sorted(attributes.items()) if not k.startswith(NODE_ATTRIBUTE_PREFIXES)}
            if labels:
                entry["labels"] = labels
            out.append(entry)
        if foreign_preemptable:
            self.assume(
                f"{foreign_preemptable} pods of other schedulers are marked preemptable: yk never preempts "
                "them (they hold their nodes' `occupied` resources)"
            )
        return out

    def applications(self, dump: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The partition's live applications, by submission time."""
        found: list[tuple[int, str, str, Mapping[str, Any]]] = []
        left_out: dict[str, int] = {}
        for where, app in items(dump.get("applications"), "/applications"):
            if text(app, "partition", where, self.partition) != self.partition:
                continue
            app_id = text(app, "applicationID", where)
            if not app_id:
                raise StateError(f"{where}/applicationID", "an application without an applicationID")
            state = text(app, "applicationState", where, "New")
            if state not in LIVE_STATES:
                left_out[state] = left_out.get(state, 0) + 1
                continue
            submitted = integer(app, "submissionTime", where, None)
            found.append((submitted if submitted is not None else self.timestamp, app_id, where, app))
        if left_out:
            counts = ", ".join(f"{n} {state}" for state, n in sorted(left_out.items()))
            self.assume(f"applications that hold and ask for nothing any more are left out ({counts})")
        found.sort(key=lambda entry: (entry[0], natural_key(entry[1])))
        return [self.application(app, where, index) for index, (_, _, where, app) in enumerate(found)]

    def application(self, app: Mapping[str, Any], where: str, index: int) -> dict[str, Any]:
        """One application with its pending requests and running allocations."""
        path: Path = ("applications", index)
        self.pointers[path] = where
        app_id = text(app, "applicationID", where)
        queue = text(app, "queueName", where)
        if not queue:
            raise StateError(f"{where}/queueName", f"application {app_id} has no queueName")
        entry: dict[str, Any] = {"id": app_id, "queue": queue, "placed": True}
        self.pointers[(*path, "queue")] = f"{where}/queueName"
        entry["submitTime"] = self.at(integer(app, "submissionTime", where, None))
        user = text(app, "user", where)
        if user:
            entry["user"] = user
        groups = strings(app, "groups", where)
        if groups:
            entry["groups"] = groups
        groups_data = items(app.get("placeholderData"), f"{where}/placeholderData")
        task_groups = [self.task_group(group, group_where) for group_where, group in groups_data]
        task_groups.sort(key=lambda group: (self.first_placeholder(app, where, group["name"]), group["name"]))
        if task_groups:
            entry["taskGroups"] = task_groups
            self.assume(
                "gang applications use gangSchedulingStyle Soft and a 15-minute placeholder timeout: the dump "
                "does not carry yunikorn.apache.org/schedulingPolicyParameters"
            )
        requests = items(app.get("requests"), f"{where}/requests")
        allocations = items(app.get("allocations"), f"{where}/allocations")
        asks = self.asks(app_id, requests, path)
        running = self.allocations(app_id, allocations, path)
        if task_groups and not any(not ask.get("placeholder") for ask in asks) and not running:
            asks = self.held_members(app_id, task_groups, requests, entry["submitTime"])
        elif any(alloc.get("placeholder") for alloc in running):
            self.assume(
                f"gang application {app_id} is under way: its running placeholders are taken as ordinary pods, and "
                "real pods the shim still holds are not in the dump"
            )
        asks = [ask for ask in asks if not ask.pop("placeholder", False)]
        if asks:
            entry["asks"] = asks
        if running:
            entry["allocations"] = running
        return entry

    def first_placeholder(self, app: Mapping[str, Any], where: str, group: str) -> int:
        """When the core made the first placeholder of a task group (the shim makes them group by group, in the
        annotation's order; the core's placeholderData comes in map order): the earliest request time of the
        group's placeholders and pods (a pod that replaced one has its placeholder's); the largest time for none."""
        times = [
            integer(item, "requestTime", item_where, 0) or 0
            for key in ("requests", "allocations")
            for item_where, item in items(app.get(key), f"{where}/{key}")
            if text(item, "taskGroupName", item_where) == group
        ]
        return min(times, default=2**63)

    def task_group(self, group: Mapping[str, Any], where: str) -> dict[str, Any]:
        """A task group from the core's placeholder data (its size and each member's minimum)."""
        name = text(group, "taskGroupName", where)
        count = integer(group, "count", where, 0) or 0
        if not name or count < 1:
            raise StateError(where, "placeholder data without a taskGroupName and a count of at least 1")
        return {"name": name, "minMember": count, "minResource": quantities(resource(group, "minResource", where))}

    def asks(self, app_id: str, requests: list[tuple[str, Mapping[str, Any]]], app_path: Path) -> list[dict[str, Any]]:
        """Pending requests as asks, by request time (placeholders marked: yk's dry run makes its own)."""
        ordered = sorted(
            requests,
            key=lambda r: (integer(r[1], "requestTime", r[0], 0) or 0, natural_key(text(r[1], "allocationKey", r[0]))),
        )
        out: list[dict[str, Any]] = []
        real = 0
        for where, request in ordered:
            name = self.unique(text(request, "allocationKey", where), where)
            ask: dict[str, Any] = {"name": name}
            ask["priority"] = integer(request, "priority", where, 0)
            ask["resources"] = quantities(resource(request, "resource", where))
            ask["submitTime"] = self.at(integer(request, "requestTime", where, None))
            required = text(request, "requiredNodeId", where)
            if required:
                ask["requiredNode"] = required
            if flag(request, "originator", where):
                ask["originator"] = True
            group = text(request, "taskGroupName", where)
            if group:
                ask["taskGroupName"] = group
            if flag(request, "placeholder", where):
                ask["placeholder"] = True
            else:
                self.pointers[(*app_path, "asks", real)] = where
                real += 1
            log_items = items(request.get("allocationLog"), f"{where}/allocationLog")
            logs = [self.log(line, line_where) for line_where, line in log_items]
            if logs and not ask.get("placeholder"):
                self.logs[name] = tuple(logs)
            out.append(ask)
        return out

    def held_members(
        self, app_id: str, groups: list[dict[str, Any]], requests: list[tuple[str, Mapping[str, Any]]], submit: str
    ) -> list[dict[str, Any]]:
        """A gang's real pods, which the shim holds while the core has only its placeholders: minMember pods of
        minResource per task group (an assumption, stated), with the placeholders' priority (the shim gives
        placeholders their originator's), the first of them the originator."""
        priority = max((integer(r, "priority", w, 0) or 0 for w, r in requests), default=0)
        out = []
        for group in groups:
            for i in range(group["minMember"]):
                name = self.unique(f"{app_id}-{group['name']}-{i}", "")
                out.append(
                    {
                        "name": name,
                        "priority": priority,
                        "resources": dict(group["minResource"]),
                        "submitTime": submit,
                        "taskGroupName": group["name"],
                    }
                )
        if out:
            out[0]["originator"] = True
        self.assume(
            f"gang application {app_id}: the shim holds its real pods, which the dump does not show: "
            "yk assumes each task group's minMember pods of minResource (named APP-GROUP-N)"
        )
        return out

    def allocations(
        self, app_id: str, allocations: list[tuple[str, Mapping[str, Any]]], app_path: Path
    ) -> list[dict[str, Any]]:
        """Running allocations, by allocation time; ones already being preempted are left out (stated)."""
        ordered = sorted(
            allocations,
            key=lambda r: (
                integer(r[1], "allocationTime", r[0], 0) or 0,
                natural_key(text(r[1], "allocationKey", r[0])),
            ),
        )
        out: list[dict[str, Any]] = []
        for where, alloc in ordered:
            key = text(alloc, "allocationKey", where)
            if flag(alloc, "preempted", where):
                self.assume(f"allocations the core is already preempting are taken as released ({app_id}: {key})")
                continue
            node = text(alloc, "nodeId", where)
            if not node:
                raise StateError(f"{where}/nodeId", f"allocation {key} has no nodeId")
            self.pointers[(*app_path, "allocations", len(out))] = where
            entry: dict[str, Any] = {"name": self.unique(key, where), "node": node}
            entry["priority"] = integer(alloc, "priority", where, 0)
            entry["resources"] = quantities(resource(alloc, "resource", where))
            entry["startTime"] = self.at(integer(alloc, "allocationTime", where, None))
            if flag(alloc, "originator", where):
                entry["originator"] = True
            if flag(alloc, "placeholder", where):
                entry["placeholder"] = True
            out.append(entry)
        return out

    def unique(self, name: str, where: str) -> str:
        """A request or allocation key, unique in the workload."""
        if not name:
            raise StateError(f"{where}/allocationKey", "a request or allocation without an allocationKey")
        if name in self.names:
            raise StateError(f"{where}/allocationKey", f"allocation key {name} is used twice")
        self.names.add(name)
        return name

    def log(self, line: Mapping[str, Any], where: str) -> AskLog:
        """One allocation log line."""
        last = integer(line, "lastOccurrence", where, None)
        return AskLog(
            message=text(line, "message", where),
            count=integer(line, "count", where, 1) or 1,
            last=last - self.timestamp if last is not None else None,
        )
