"""What a sweep varies: a queue setting by path, the nodes (how many, how large) or the workload's arrival rate;
each parameter parsed from its path and applied to a config and a workload."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from yk_cli.core.config.model import PartitionConfig, QueueConfig, SchedulerConfig
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.workload.model import Application, Ask, NodeSpec, Workload

GUARANTEED, MAX, PROPERTY, MAXAPPLICATIONS = "guaranteed", "max", "property", "maxapplications"
NODES_COUNT, NODES_SIZE, ARRIVALS = "nodes.count", "nodes.size", "workload.arrivals"
WORKLOAD_FILE = "workload"
"""The implicit first parameter of a sweep over several workloads: which one (by its file name)."""
FORMS = (
    "QUEUE.resources.guaranteed.TYPE, QUEUE.resources.max.TYPE, QUEUE.properties.KEY, QUEUE.maxapplications "
    "(QUEUE a path from root), nodes.count, nodes.size, nodes[LABEL=VALUE].count, nodes[LABEL=VALUE].size, "
    "workload.arrivals"
)

Value = int | float | str | bool


@dataclass(frozen=True, slots=True)
class Target:
    """What one parameter path changes."""

    kind: str
    """GUARANTEED, MAX, PROPERTY, MAXAPPLICATIONS, NODES_COUNT, NODES_SIZE or ARRIVALS."""
    queue: str = ""
    """The queue's path (queue settings)."""
    key: str = ""
    """The resource type (guaranteed, max) or property name."""
    selector: tuple[str, str] | None = None
    """nodes[LABEL=VALUE]: only the nodes with that label (None: every node)."""


def parse_path(path: str, tree: QueueTree) -> Target:
    """The target of a parameter path; ValueError saying what is wrong (the queue must exist in the config)."""
    if path in (NODES_COUNT, NODES_SIZE):
        return Target(path)
    if path == ARRIVALS:
        return Target(ARRIVALS)
    if path.startswith("nodes["):
        close = path.find("]")
        label, equals, value = path[6:close].partition("=") if close > 0 else ("", "", "")
        rest = path[close + 1 :] if close > 0 else ""
        if not (label and equals) or rest not in (".count", ".size"):
            raise ValueError(f"{path!r}: write nodes[LABEL=VALUE].count or nodes[LABEL=VALUE].size")
        return Target(NODES_COUNT if rest == ".count" else NODES_SIZE, selector=(label, value))
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        queue = tree.get(".".join(parts[:end]).lower())
        if queue is None or queue.dynamic:
            continue
        setting = parts[end:]
        if setting and setting[0] not in ("resources", "properties", "maxapplications"):
            children = ", ".join(c.name for c in queue.children) or "none"
            raise ValueError(f"{path!r}: queue {queue.path} has no child queue {setting[0]!r} (its children: "
                             f"{children}), and {setting[0]!r} is no setting (resources, properties, maxapplications)")
        if setting == ["maxapplications"]:
            return Target(MAXAPPLICATIONS, queue.path)
        if len(setting) == 3 and setting[:2] in (["resources", "guaranteed"], ["resources", "max"]):
            return Target(GUARANTEED if setting[1] == "guaranteed" else MAX, queue.path, setting[2])
        if len(setting) >= 2 and setting[0] == "properties":
            return Target(PROPERTY, queue.path, ".".join(setting[1:]))
        raise ValueError(f"{path!r}: {'.'.join(setting) or 'nothing'} is no setting of queue {queue.path}; the "
                         f"forms are {FORMS}")
    raise ValueError(f"{path!r}: no queue of the config starts it, and it is not one of {FORMS}")


def check_value(target: Target, value: Value) -> str:
    """'' when the value suits the target, else why not (the quantity's own checks run with the config's)."""
    if isinstance(value, bool) and target.kind != PROPERTY:
        return f"{value!r} is not a number"
    least = 1 if target.kind == NODES_COUNT else 0
    if target.kind in (NODES_COUNT, MAXAPPLICATIONS) and (not isinstance(value, int) or value < least):
        return f"{value!r} is not a whole number{' of at least 1' if least else ''}"
    factor = target.kind in (NODES_SIZE, ARRIVALS)
    if factor and (not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0):
        return f"{value!r} is not a positive factor"
    return ""


# -- the config --------------------------------------------------------------------------------------------------
def apply_config(config: SchedulerConfig, partition: str, target: Target, value: Value) -> SchedulerConfig:
    """The config with one queue setting of the partition set to `value` (written as YuniKorn reads text)."""
    text = text_of(value)

    def change(queue: QueueConfig) -> QueueConfig:
        if target.kind == MAXAPPLICATIONS:
            return replace(queue, maxapplications=int(value))
        if target.kind == PROPERTY:
            return replace(queue, properties={**queue.properties, target.key: text})
        resources = queue.resources
        if target.kind == GUARANTEED:
            resources = replace(resources, guaranteed={**resources.guaranteed, target.key: text}, guaranteed_set=True)
        else:
            resources = replace(resources, max={**resources.max, target.key: text}, max_set=True)
        return replace(queue, resources=resources)

    names = target.queue.split(".")
    partitions = []
    for p in config.partitions:
        if p.display_name == partition and p.queues is not None:
            p = replace(p, queues=_changed(p, names, change))
        partitions.append(p)
    return replace(config, partitions=tuple(partitions))


Change = Callable[[QueueConfig], QueueConfig]


def _changed(partition: PartitionConfig, names: list[str], change: Change) -> tuple[QueueConfig, ...]:
    """The partition's top-level queues with the queue at `names` (root first) changed."""
    queues = partition.queues or ()
    if len(queues) == 1 and queues[0].name.lower() == "root":
        return (_walk(queues[0], names[1:], change),)
    return tuple(_walk(q, names[2:], change) if q.name.lower() == names[1].lower() else q for q in queues)


def _walk(queue: QueueConfig, below: list[str], change: Change) -> QueueConfig:
    if not below:
        return change(queue)
    children = tuple(_walk(c, below[1:], change) if c.name.lower() == below[0].lower() else c for c in queue.queues)
    return replace(queue, queues=children)


def text_of(value: Value) -> str:
    """A value as YuniKorn's config text would hold it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# -- the workload ------------------------------------------------------------------------------------------------
def apply_workload(workload: Workload, target: Target, value: Value) -> Workload:
    """The workload with its nodes counted or sized, or its arrivals sped up."""
    if target.kind == ARRIVALS:
        return _arrivals(workload, float(value))
    chosen = [n for n in workload.nodes if _selected(n, target.selector)]
    if target.kind == NODES_SIZE:
        factor = float(value)
        nodes = tuple(_sized(n, factor) if _selected(n, target.selector) else n for n in workload.nodes)
        return replace(workload, nodes=nodes)
    return _counted(workload, chosen, int(value))


def _selected(node: NodeSpec, selector: tuple[str, str] | None) -> bool:
    return selector is None or dict(node.labels).get(selector[0]) == selector[1]


def _sized(node: NodeSpec, factor: float) -> NodeSpec:
    """Every capacity but pods scaled (rounded down), as a larger or smaller machine of the same shape."""
    capacity = {k: v if k == "pods" else int(v * factor) for k, v in node.capacity.items()}
    return replace(node, capacity=capacity)


def _counted(workload: Workload, chosen: list[NodeSpec], count: int) -> Workload:
    """The chosen nodes cut to `count` (the first ones in the file), or repeated round robin as copies named
    NAME~2, NAME~3, ... Pods running on a node cut away are gone with it."""
    if count <= len(chosen):
        removed = {n.name for n in chosen[count:]}
        extra: list[NodeSpec] = []
    else:
        removed = set()
        extra = [
            replace(chosen[i % len(chosen)], name=f"{chosen[i % len(chosen)].name}~{i // len(chosen) + 1}")
            for i in range(len(chosen), count)
        ] if chosen else []
    nodes = tuple(n for n in workload.nodes if n.name not in removed) + tuple(extra)
    if not removed:
        return replace(workload, nodes=nodes)
    apps = tuple(
        replace(a, allocations=tuple(x for x in a.allocations if x.node not in removed)) for a in workload.applications
    )
    return replace(workload, nodes=nodes, applications=apps)


def _arrivals(workload: Workload, rate: float) -> Workload:
    """Every submission after the start comes `rate` times sooner (2: twice as many per hour); what was already
    there at the start stays."""
    def sooner(t: int) -> int:
        return int(t / rate) if t > 0 else t

    def ask(a: Ask) -> Ask:
        copy = Ask(**{name: getattr(a, name) for name in Ask.__dataclass_fields__})
        copy.submit_time = sooner(a.submit_time)
        return copy

    apps: list[Application] = []
    for app in workload.applications:
        apps.append(replace(app, submit_time=sooner(app.submit_time), asks=tuple(ask(a) for a in app.asks)))
    return replace(workload, applications=tuple(apps))

