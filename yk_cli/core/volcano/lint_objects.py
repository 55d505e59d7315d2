"""Lints of the objects of a Volcano dump: Queues, PodGroups, Volcano Jobs and PriorityClasses.

    lint_objects(objects, conf) -> [Problem]

`objects` are the loaded objects with their YAML nodes (positions) and files; `conf` is the configuration the
scheduler runs with (what capacity's and drf's enableHierarchy decide). Problems come located, in input order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import networkx as nx

from yk_cli.core.diagnostics import Level, Path, Problem, Rule
from yk_cli.core.resources import k8s_quantity
from yk_cli.core.volcano import rules as vr
from yk_cli.core.volcano.conf import SchedulerConf
from yk_cli.core.volcano.model import DEFAULT_QUEUE, QUEUE_OPEN, ROOT_QUEUE, LoadedObject
from yk_cli.core.yamldoc import Node

HIERARCHY = "volcano.sh/hierarchy"
HIERARCHY_WEIGHTS = "volcano.sh/hierarchy-weights"
_TRUE = ("true", "True", "TRUE")


def hierarchy_enabled(conf: SchedulerConf, plugin: str) -> bool:
    """Whether the first entry of `plugin` in the tiers has enableHierarchy: true (ssn.HierarchyEnabled)."""
    for option in conf.plugins():
        if option.name == plugin:
            return option.flags.get("enableHierarchy") is True
    return False


def _get(node: Node | None, *keys: str) -> Node | None:
    return node.lookup(*keys) if node is not None else None


def _key(node: Node | None, key: str) -> Node | None:
    """The key node of one entry of a mapping."""
    if node is None or node.kind != "map":
        return None
    for k, _ in node.pairs:
        if k.kind == "scalar" and k.text == key:
            return k
    return None


def _text(node: Node | None) -> str:
    return node.text if node is not None and node.kind == "scalar" else ""


def _problem(rule: Rule, obj: LoadedObject, node: Node | None, message: str, path: Path, hint: str = "") -> Problem:
    anchor = node if node is not None else obj.node
    return rule.problem(message, path, hint).located(anchor.span, obj.file)


def _shown(obj: LoadedObject) -> str:
    return f"{obj.namespace}/{obj.name}" if obj.namespace else obj.name


def _few(names: Iterable[str]) -> str:
    listed = list(names)
    return ", ".join(listed[:3]) + (f" and {len(listed) - 3} more" if len(listed) > 3 else "")


def lint_objects(objects: list[LoadedObject], conf: SchedulerConf) -> list[Problem]:
    """Every lint problem of the objects, in input order within each check."""
    queues = [o for o in objects if o.kind == "Queue"]
    groups = [o for o in objects if o.kind == "PodGroup"]
    jobs = [o for o in objects if o.kind == "Job" and not _has_pod_group(o, groups)]
    classes = [o for o in objects if o.kind == "PriorityClass"]
    capacity_tree = hierarchy_enabled(conf, "capacity")
    problems: list[Problem] = []
    for queue in queues:
        problems.extend(_queue(queue))
    problems.extend(_parents(queues, capacity_tree))
    if hierarchy_enabled(conf, "drf"):
        problems.extend(_hdrf_prefixes(queues))
    problems.extend(_jobs([*groups, *jobs], queues, capacity_tree))
    problems.extend(_priority_classes([*groups, *jobs], classes))
    problems.extend(_queue_states(queues, [*groups, *jobs]))
    return problems


def _has_pod_group(job: LoadedObject, groups: list[LoadedObject]) -> bool:
    """Whether the input holds the PodGroup Volcano's job controller made for this vcjob (its name, or name-uid)."""
    prefix = job.name + "-"
    return any(g.namespace == job.namespace and (g.name == job.name or g.name.startswith(prefix)) for g in groups)


def _int_value(node: Node | None) -> int | None:
    if node is not None and node.kind == "scalar" and node.tag == "int" and isinstance(node.value, int):
        return node.value
    return None


def _queue(queue: LoadedObject) -> list[Problem]:
    out: list[Problem] = []
    spec = _get(queue.node, "spec")
    name = queue.name
    strategy = _key(spec, "dequeueStrategy")
    if strategy is not None:
        out.append(
            _problem(
                vr.DEQUEUE_STRATEGY,
                queue,
                strategy,
                f"Queue {name}: spec.dequeueStrategy `{_text(_get(spec, 'dequeueStrategy'))}` has no effect: the "
                "scheduler never reads it, every queue is traversed",
                ("spec", "dequeueStrategy"),
                "remove it; a job that does not fit is passed over whatever it says.",
            )
        )
    class_key = _key(spec, "priorityClassName")
    if class_key is not None:
        value = _text(_get(spec, "priorityClassName"))
        queue_priority = _int_value(_get(spec, "priority"))
        out.append(
            _problem(
                vr.QUEUE_PRIORITY_CLASS,
                queue,
                class_key,
                f"Queue {name}: spec.priorityClassName `{value}` has no effect: it is the 2023 design proposal's "
                "field, not in the Queue API; Volcano orders the queue by spec.priority "
                f"({queue_priority or 0}) and its jobs inherit nothing from it",
                ("spec", "priorityClassName"),
                "set spec.priority (an integer, higher first) and a priorityClassName on each PodGroup or Job; "
                "`--proposal` shows what the design would have done.",
            )
        )
    weight = _int_value(_get(spec, "weight"))
    if weight is not None and weight < 1:
        out.append(
            _problem(
                vr.QUEUE_WEIGHT,
                queue,
                _get(spec, "weight"),
                f"Queue {name}: spec.weight {weight} is below the CRD minimum of 1: the API server refuses it",
                ("spec", "weight"),
                "give it a weight from 1 to 65535 (default 1); proportion shares the cluster by weight.",
            )
        )
    priority = _int_value(_get(spec, "priority"))
    if priority is not None and priority < 0:
        out.append(
            _problem(
                vr.QUEUE_PRIORITY,
                queue,
                _get(spec, "priority"),
                f"Queue {name}: spec.priority {priority} is negative: the CRD minimum is 0, the API server refuses it",
                ("spec", "priority"),
                "use 0 (the default) or more; higher queue priority is served first.",
            )
        )
    out.extend(_resources(queue, spec))
    out.extend(_hdrf_annotations(queue))
    return out


def _quantities(node: Node | None) -> dict[str, Node]:
    if node is None or node.kind != "map":
        return {}
    return {k.text: v for k, v in node.pairs if k.kind == "scalar" and v.kind == "scalar" and v.tag != "null"}


def _milli(node: Node) -> float | None:
    value = k8s_quantity("cpu", node.text)
    return float(value) if value is not None else None


_RESOURCE_PAIRS = (
    ("deserved", "capability", "deserved should less equal than capability"),
    ("guarantee", "capability", "guarantee should less equal than capability"),
    ("guarantee", "deserved", "guarantee should less equal than deserved"),
)


def _resources(queue: LoadedObject, spec: Node | None) -> list[Problem]:
    lists = {
        "capability": (_quantities(_get(spec, "capability")), ("spec", "capability")),
        "deserved": (_quantities(_get(spec, "deserved")), ("spec", "deserved")),
        "guarantee": (_quantities(_get(spec, "guarantee", "resource")), ("spec", "guarantee", "resource")),
    }
    for low, high, webhook in _RESOURCE_PAIRS:
        lower, lower_path = lists[low]
        upper, _ = lists[high]
        for resource, node in lower.items():
            if resource not in upper:
                continue
            below, above = _milli(node), _milli(upper[resource])
            if below is not None and above is not None and below > above:
                shown_low = "spec.guarantee.resource" if low == "guarantee" else f"spec.{low}"
                return [
                    _problem(
                        vr.QUEUE_RESOURCES,
                        queue,
                        node,
                        f"Queue {queue.name}: {shown_low} {resource} {node.text} is above spec.{high} {resource} "
                        f"{upper[resource].text}: Volcano's queue webhook refuses it ({webhook})",
                        (*lower_path, resource),
                        "keep guarantee <= deserved <= capability for every resource.",
                    )
                ]
    return []


def _go_float(text: str) -> float | None:
    """strconv.ParseFloat(text, 64), near enough: no surrounding blanks, no underscores."""
    if text != text.strip() or "_" in text or not text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _hdrf_annotations(queue: LoadedObject) -> list[Problem]:
    annotations = _get(queue.node, "metadata", "annotations")
    path_node, weights_node = _get(annotations, HIERARCHY), _get(annotations, HIERARCHY_WEIGHTS)
    path, weights = _text(path_node), _text(weights_node)
    if not path and not weights:
        return []
    parts, values = path.split("/"), weights.split("/")
    anchor = path_node if path_node is not None else weights_node
    if len(parts) != len(values):
        return [
            _problem(
                vr.HDRF_ANNOTATIONS,
                queue,
                anchor,
                f"Queue {queue.name}: {HIERARCHY} `{path}` has {len(parts)} part{'s' if len(parts) != 1 else ''} "
                f"but {HIERARCHY_WEIGHTS} `{weights}` has {len(values)}: the queue webhook refuses it (must have "
                "the same length)",
                ("metadata", "annotations", HIERARCHY if path_node is not None else HIERARCHY_WEIGHTS),
                "give one weight per level of the path, e.g. root/eng/team-a with 1/2/1.",
            )
        ]
    for value in values:
        number = _go_float(value)
        if number is None or number <= 0:
            why = "is not a number" if number is None else "must be larger than 0"
            return [
                _problem(
                    vr.HDRF_ANNOTATIONS,
                    queue,
                    weights_node,
                    f"Queue {queue.name}: weight `{value}` in {HIERARCHY_WEIGHTS} `{weights}` {why}: the queue "
                    "webhook refuses it",
                    ("metadata", "annotations", HIERARCHY_WEIGHTS),
                    "every weight is a number above 0 (HDRF raises weights below 1 to 1).",
                )
            ]
    return []


def _parents(queues: list[LoadedObject], capacity_tree: bool) -> list[Problem]:
    names = {q.name for q in queues}
    graph = nx.DiGraph()
    order = {q.name: i for i, q in enumerate(queues)}
    by_name = {q.name: q for q in queues}
    out: list[Problem] = []
    for queue in queues:
        node = _get(queue.node, "spec", "parent")
        parent = _text(node)
        if not parent or parent == ROOT_QUEUE:
            continue
        graph.add_edge(queue.name, parent)
        if parent not in names:
            out.append(
                _problem(
                    vr.MISSING_PARENT,
                    queue,
                    node,
                    f"Queue {queue.name}: spec.parent `{parent}` is not a queue of the input: Volcano's queue webhook "
                    "refuses it (failed to get parent queue)",
                    ("spec", "parent"),
                    "create the parent queue first, or leave spec.parent out (the parent is then root).",
                )
            )
    cycles = [sorted(c, key=lambda n: order[n]) for c in nx.simple_cycles(graph)]
    for cycle in sorted(cycles, key=lambda c: order[c[0]]):
        first = by_name[cycle[0]]
        chain = _chain(cycle[0], by_name)
        self_parent = len(cycle) == 1
        level = Level.ERROR if self_parent or capacity_tree else Level.WARNING
        if self_parent:
            why = "names itself as parent: Volcano's queue webhook refuses it"
        elif capacity_tree:
            why = "never reaches root: capacity's enableHierarchy cannot build the queue tree"
        else:
            why = "never reaches root (spec.parent is read only by capacity with enableHierarchy)"
        problem = _problem(
            vr.PARENT_CYCLE,
            first,
            _get(first.node, "spec", "parent"),
            f"Queue {first.name}: the spec.parent chain {' -> '.join(chain)} {why}",
            ("spec", "parent"),
            "point one queue of the loop at root (or leave its spec.parent out).",
        )
        out.append(_with_level(problem, level))
    return out


def _with_level(problem: Problem, level: Level) -> Problem:
    return replace(problem, level=level)


def _chain(start: str, by_name: dict[str, LoadedObject]) -> list[str]:
    chain = [start]
    current = start
    while True:
        parent = _text(_get(by_name[current].node, "spec", "parent"))
        chain.append(parent)
        if parent == start or parent not in by_name or len(chain) > len(by_name) + 1:
            return chain
        current = parent


def _hdrf_prefixes(queues: list[LoadedObject]) -> list[Problem]:
    below: dict[str, str] = {}
    paths: list[tuple[LoadedObject, Node, str]] = []
    for queue in queues:
        node = _get(queue.node, "metadata", "annotations", HIERARCHY)
        path = _text(node)
        if node is None or not path:
            continue
        paths.append((queue, node, path))
        parts = path.split("/")
        for i in range(1, len(parts)):
            below.setdefault("/".join(parts[:i]), queue.name)
    out: list[Problem] = []
    for queue, node, path in paths:
        if path in below:
            other = below[path]
            out.append(
                _problem(
                    vr.HDRF_PREFIX,
                    queue,
                    node,
                    f"Queue {queue.name}: {HIERARCHY} `{path}` is a prefix of queue {other}'s path: under drf's "
                    f"enableHierarchy {path} is both a leaf with jobs and an inner node",
                    ("metadata", "annotations", HIERARCHY),
                    "give every queue its own leaf path (e.g. root/eng/default for the parent's own jobs).",
                )
            )
    return out


def _job_label(obj: LoadedObject) -> str:
    return f"PodGroup {_shown(obj)}" if obj.kind == "PodGroup" else f"Volcano Job {_shown(obj)}"


def _jobs(jobs: list[LoadedObject], queues: list[LoadedObject], capacity_tree: bool) -> list[Problem]:
    if not queues:
        return []
    names = {q.name for q in queues} | {ROOT_QUEUE, DEFAULT_QUEUE}  # Volcano creates `default` and never deletes it
    children: dict[str, list[str]] = {}
    for queue in queues:
        parent = _text(_get(queue.node, "spec", "parent")) or ROOT_QUEUE
        if parent != queue.name:
            children.setdefault(parent, []).append(queue.name)
    out: list[Problem] = []
    for job in jobs:
        node = _get(job.node, "spec", "queue")
        target = _text(node) or DEFAULT_QUEUE
        anchor = node if node is not None else _get(job.node, "metadata", "name")
        if target not in names:
            # A warning: Volcano runs the session without the job (its snapshot leaves out a job whose queue it does
            # not know), and so do yk volcano simulate and explain, with a note.
            out.append(
                _problem(
                    vr.UNKNOWN_QUEUE,
                    job,
                    anchor,
                    f"{_job_label(job)}: queue `{target}` is not in the input: Volcano leaves the job out of its "
                    "sessions, so it never runs",
                    ("spec", "queue"),
                    "create the queue, or set spec.queue to an existing one.",
                )
            )
        elif capacity_tree and target in children:
            out.append(
                _problem(
                    vr.JOB_IN_PARENT_QUEUE,
                    job,
                    anchor,
                    f"{_job_label(job)} is in queue `{target}`, which has child queues "
                    f"({_few(children[target])}): with capacity's enableHierarchy this blocks the whole plugin, so "
                    "no job of any queue is scheduled",
                    ("spec", "queue"),
                    "move the job to a leaf queue.",
                )
            )
    return out


def _priority_classes(jobs: list[LoadedObject], classes: list[LoadedObject]) -> list[Problem]:
    values: dict[str, int] = {}
    defaults: list[LoadedObject] = []
    for pc in classes:
        value = _int_value(_get(pc.node, "value"))
        values[pc.name] = value if value is not None else 0
        if _text(_get(pc.node, "globalDefault")) in _TRUE:
            defaults.append(pc)
    out: list[Problem] = []
    winner = defaults[-1] if defaults else None
    for pc in defaults[:-1]:
        assert winner is not None
        out.append(
            _problem(
                vr.GLOBAL_DEFAULT,
                pc,
                _get(pc.node, "globalDefault"),
                f"PriorityClass {pc.name} is globalDefault, and so is {winner.name} later in the input: Volcano keeps "
                f"the last one seen, {winner.name} (value {values[winner.name]}), as every job's default priority",
                ("globalDefault",),
                "mark a single PriorityClass globalDefault.",
            )
        )
    fallback = (
        f"{values[winner.name]} (the value of the globalDefault class {winner.name})"
        if winner is not None
        else "0 (no PriorityClass of the input is globalDefault)"
    )
    for job in jobs:
        node = _get(job.node, "spec", "priorityClassName")
        name = _text(node)
        if name and name not in values:
            hint = "create the PriorityClass, or correct the name."
            if not classes:
                hint = "the input holds no PriorityClass: add `kubectl get priorityclasses` to the dump if it exists."
            out.append(
                _problem(
                    vr.UNKNOWN_PRIORITY_CLASS,
                    job,
                    node,
                    f"{_job_label(job)}: priorityClassName `{name}` names no PriorityClass of the input: the job's "
                    f"priority is {fallback}",
                    ("spec", "priorityClassName"),
                    hint,
                )
            )
    return out


def _queue_states(queues: list[LoadedObject], jobs: list[LoadedObject]) -> list[Problem]:
    out: list[Problem] = []
    for queue in queues:
        node = _get(queue.node, "status", "state")
        state = _text(node)
        if not state or state == QUEUE_OPEN:
            continue
        count = sum(1 for j in jobs if (_text(_get(j.node, "spec", "queue")) or DEFAULT_QUEUE) == queue.name)
        jobs_text = f"{count} job{'s' if count != 1 else ''} of the input"
        out.append(
            _problem(
                vr.QUEUE_NOT_OPEN,
                queue,
                node,
                f"Queue {queue.name} is {state}: proportion and capacity enqueue and allocate none of its jobs "
                f"({jobs_text} in it)",
                ("status", "state"),
                "open the queue (vcctl queue operate -a open) if its jobs should run.",
            )
        )
    return out
