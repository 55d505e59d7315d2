"""Workload rules and the checks of a loaded workload: names, nodes, capacity, and queues against the queue tree."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Path, Problem, Rule, error, format_path, warning
from yk_cli.core.lint.resource_names import WORKLOAD_RESOURCE_NAME_TYPO, lint_workload_resource_names
from yk_cli.core.resources import format_quantity
from yk_cli.core.workload.predicate_lint import lint_predicates

if TYPE_CHECKING:
    from yk_cli.core.workload.model import (
        Workload,  # annotations only: `yk validate` lists these rules, loads no workload
    )

UNKNOWN_KEY = error(
    "workload-unknown-key",
    "A key the workload format does not have.",
    "Every mapping of a workload file has a fixed set of keys (see schemas/workload.schema.json); keys are "
    "camelCase and case-sensitive: `submitTime`, `priorityClass`, `allowPreemption`. A misspelt key would "
    "otherwise be silently ignored and the ask would run with a default you did not mean.",
)
WRONG_TYPE = error(
    "workload-wrong-type",
    "A workload value of the wrong type or outside its allowed values.",
    "A list where a mapping belongs, a string where a number belongs, a priority outside int32, a "
    "preemptionPolicy other than PreemptLowerPriority or Never, a count below 1: the value does not fit "
    "the workload schema.",
)
MISSING_KEY = error(
    "workload-missing-key",
    "A required workload key is missing.",
    "Applications need an `id`, asks a `name`, allocations a `name` and a `node`, nodes a `name` and "
    "`resources`, priority classes a `name` and a `value`.",
)
DUPLICATE_NAME = error(
    "workload-duplicate-name",
    "Two applications, asks/allocations, nodes or priority classes share a name.",
    "Application ids, node names and priority class names must be unique, and so must ask and allocation "
    "names across the whole workload (an allocation is a placed ask; the dry run names both in its trace). "
    "`count: N` expands an ask into `<name>-0 .. <name>-(N-1)`, which may collide with another ask.",
)
BAD_QUANTITY = error(
    "workload-bad-quantity",
    "A resource quantity YuniKorn cannot parse.",
    "YuniKorn quantities are whole numbers with an optional suffix: `m` (milli, vcore only), k M G T P E "
    "(powers of 10) or Ki Mi Gi Ti Pi Ei (powers of 2). `vcore: 2` is two cores, `vcore: 500m` half a "
    "core; memory is in bytes (`memory: 1Gi`). Decimals (`0.5`) and negative values are refused.",
)
BAD_DURATION = error(
    "workload-bad-duration",
    "A time or duration that is not a Go duration (or a duration that is not positive).",
    "Times are Go durations such as `0s`, `-60s`, `1m30s`, `1500ms`, relative to the start of the run; a "
    "number needs a unit (only `0` may go without). `submitTime` and `startTime` may be negative (the ask "
    "has already waited, the allocation started before the run); a `duration` must be positive.",
)
BAD_POD_SPEC = error(
    "workload-bad-pod-spec",
    "A label, taint, toleration, selector, affinity, spread constraint or host port the Kubernetes API server "
    "refuses.",
    "The node constraints of a workload use Kubernetes' own fields and are validated as the API server validates "
    "them: label keys and values, taint effects (NoSchedule, PreferNoSchedule, NoExecute), toleration operators "
    "(Equal, Exists; an empty key needs Exists, Exists takes no value, tolerationSeconds needs NoExecute), node "
    "selector operators and their values (In/NotIn need values, Exists/DoesNotExist none, Gt/Lt one integer), "
    "matchFields on metadata.name only, maxSkew of at least 1, host ports from 1 to 65535. Kubernetes would "
    "refuse such a pod or node, so the dry run cannot say where it goes.",
)
UNKNOWN_PRIORITY_CLASS = error(
    "workload-unknown-priority-class",
    "An ask or allocation names a PriorityClass the workload does not define.",
    "Kubernetes refuses a pod whose priorityClassName does not exist. Define the class under "
    "`priorityClasses` (the built-in system-cluster-critical and system-node-critical are always known).",
)
PRIORITY_MISMATCH = warning(
    "workload-priority-mismatch",
    "An ask or allocation gives both a priority and a PriorityClass with a different value.",
    "Kubernetes' priority admission refuses a pod whose spec.priority differs from its class's value. yk "
    "uses the explicit `priority`; drop one of the two.",
)
UNKNOWN_NODE = error(
    "workload-unknown-node",
    "An allocation runs on, or an ask requires, a node the workload does not define.",
    "Every `node` of an allocation and every `requiredNode` of an ask must be the name of a node under `nodes`.",
)
NODE_OVERFLOW = error(
    "workload-node-overflow",
    "The allocations on a node use more than its capacity.",
    "The running allocations placed on a node (plus what its `occupied` resources hold) must fit its "
    "capacity in every resource type; a type the node does not list has capacity 0. The cluster could "
    "not be in that state.",
)
UNKNOWN_QUEUE = error(
    "workload-unknown-queue",
    "An application names a queue that does not exist in the queue config.",
    "A queue name is matched case-insensitively; a name without `root.` is taken relative to root, like "
    "YuniKorn does. When no placement rule may create queues (`create: true`), YuniKorn rejects such an "
    "application. Leave `queue` out to let the placement rules decide.",
)
PARENT_QUEUE = error(
    "workload-parent-queue",
    "An application names a parent queue.",
    "Applications run in leaf queues only: YuniKorn rejects an application submitted to a parent queue. "
    "Name one of its leaf queues.",
)
UNKNOWN_PARTITION = error(
    "workload-unknown-partition",
    "The workload's partition is not in the queue config.",
    "`partition` must name a partition of the queue config (YuniKorn on Kubernetes has one, `default`).",
)

BAD_TASK_GROUP = error(
    "workload-bad-task-group",
    "A gang's task groups are inconsistent: a repeated task group name, or an ask naming a task group its "
    "application does not define.",
    "Task group names must be unique within an application (yunikorn.apache.org/task-groups), and an ask's "
    "`taskGroupName` (yunikorn.apache.org/task-group-name) must be one of its application's `taskGroups`: the shim "
    "cannot place a pod of an unknown task group.",
)

MAX_COUNT = 1_000_000
"""Largest `count` of one ask entry (the schema's maximum)."""
MAX_ASKS = 1_000_000
"""Most asks a workload may expand to (counts included): beyond it a dry run would not end in reasonable time."""
TOO_MANY_ASKS = error(
    "workload-too-many-asks",
    "The asks of a workload, counts expanded, are more than yk simulates.",
    f"`count: N` expands an ask into N asks. yk refuses a workload that expands to more than {MAX_ASKS:,} asks "
    f"in all (and a single `count` above {MAX_COUNT:,}) instead of running out of memory: split the scenario "
    "or lower the counts.",
)


def too_many_asks(path: Path) -> Problem:
    """The problem at the `count` that takes a workload past MAX_ASKS."""
    return TOO_MANY_ASKS.problem(
        f"this count takes the workload past {MAX_ASKS:,} asks in all, more than yk simulates",
        path,
        hint="split the scenario or lower the counts.",
    )


WORKLOAD_RULES: tuple[Rule, ...] = (
    UNKNOWN_KEY,
    WRONG_TYPE,
    MISSING_KEY,
    DUPLICATE_NAME,
    BAD_QUANTITY,
    BAD_DURATION,
    UNKNOWN_PRIORITY_CLASS,
    PRIORITY_MISMATCH,
    UNKNOWN_NODE,
    NODE_OVERFLOW,
    UNKNOWN_QUEUE,
    TOO_MANY_ASKS,
    PARENT_QUEUE,
    UNKNOWN_PARTITION,
    BAD_TASK_GROUP,
    BAD_POD_SPEC,
    WORKLOAD_RESOURCE_NAME_TYPO,
)


def qualify_queue(name: str) -> str:
    """The full lower-cased path YuniKorn looks up for a queue name: a name without `root.` is under root."""
    lowered = name.strip().lower()
    if lowered == "root" or lowered.startswith("root."):
        return lowered
    return f"root.{lowered}"


def _task_groups(problems: list[Problem], workload: Workload) -> None:
    """Gang applications: unique task group names, asks naming one of their application's task groups."""
    for app in workload.applications:
        names: set[str] = set()
        for group in app.task_groups:
            if group.name in names:
                problems.append(
                    BAD_TASK_GROUP.problem(
                        f"task group {group.name} appears twice in application {app.id}",
                        (*group.path, "name"),
                        hint="give every task group of an application its own name.",
                    )
                )
            names.add(group.name)
        for ask in app.asks:
            if ask.task_group and ask.task_group not in names:
                known = f"its task groups: {', '.join(sorted(names))}." if names else "it defines no `taskGroups`."
                problems.append(
                    BAD_TASK_GROUP.problem(
                        f"ask {ask.name} names task group {ask.task_group}, which application {app.id} does not "
                        "define",
                        (*ask.path, "taskGroupName"),
                        hint=known,
                    )
                )
                break  # one per application: a count expands one entry into many asks


def check_names_and_nodes(workload: Workload) -> list[Problem]:
    """Tree-independent checks: duplicate names, unknown nodes, allocations overflowing their node; the node-constraint
    warnings of core.workload.predicate_lint."""
    problems: list[Problem] = []
    _duplicates(problems, "priority class", ((pc.name, pc.path) for pc in workload.priority_classes))
    _duplicates(problems, "node", ((node.name, node.path) for node in workload.nodes))
    _duplicates(problems, "application", ((app.id, app.path) for app in workload.applications))
    names = [ask.name for app in workload.applications for ask in app.asks]
    names += [alloc.name for app in workload.applications for alloc in app.allocations]
    if len(set(names)) < len(names):  # (a set as long as the list: no name twice, and nothing to report)
        pods: list[tuple[str, Path]] = []
        for app in workload.applications:
            pods.extend((ask.name, ask.path) for ask in app.asks)
            pods.extend((alloc.name, alloc.path) for alloc in app.allocations)
        _duplicates(problems, "ask or allocation", pods)
    _task_groups(problems, workload)
    nodes = {node.name: node for node in workload.nodes}
    used: dict[str, dict[str, int]] = {name: dict(node.occupied) for name, node in nodes.items()}
    reported: set[str] = set()
    for app in workload.applications:
        for ask in app.asks:
            if ask.required_node and ask.required_node not in nodes:
                problems.append(
                    UNKNOWN_NODE.problem(
                        f"ask {ask.name} requires node {ask.required_node}, which is not under `nodes`",
                        (*ask.path, "requiredNode"),
                        hint=_known("nodes", nodes),
                    )
                )
        for alloc in app.allocations:
            node = nodes.get(alloc.node)
            if node is None:
                if alloc.node:  # a missing `node` is a schema problem already
                    problems.append(
                        UNKNOWN_NODE.problem(
                            f"allocation {alloc.name} runs on node {alloc.node}, which is not under `nodes`",
                            (*alloc.path, "node"),
                            hint=_known("nodes", nodes),
                        )
                    )
                continue
            usage = used[node.name]
            for key, value in alloc.resources.items():
                usage[key] = usage.get(key, 0) + value
            over = sorted(k for k, v in usage.items() if v > node.capacity.get(k, 0))
            if over and node.name not in reported:
                reported.add(node.name)
                detail = ", ".join(
                    f"{k} {format_quantity(k, usage[k])} of {format_quantity(k, node.capacity.get(k, 0))}" for k in over
                )
                problems.append(
                    NODE_OVERFLOW.problem(
                        f"node {node.name} is over capacity once allocation {alloc.name or format_path(alloc.path)} "
                        f"is placed: {detail}",
                        (*alloc.path, "node"),
                        hint="give the node more capacity or move allocations to another node; "
                        "a resource type the node does not list has capacity 0.",
                    )
                )
    problems.extend(lint_predicates(workload))
    problems.extend(lint_workload_resource_names(workload))
    return problems


def check_workload(tree: QueueTree, workload: Workload, dynamic_queues: bool = False) -> list[Problem]:
    """Queue checks against a partition's tree: every named queue exists (unless rules may create it) and is a leaf."""
    problems: list[Problem] = []
    for app in workload.applications:
        if app.queue is None:
            continue
        path = qualify_queue(app.queue)
        queue = tree.get(path)
        where = (*app.path, "queue")
        if queue is None:
            if dynamic_queues or app.placed:  # the core created it; placing it again shows whether yk can
                continue
            leaves = [q.path for q in tree.leaves()]
            problems.append(
                UNKNOWN_QUEUE.problem(
                    f"application {app.id}: queue {path} does not exist in partition {workload.partition}",
                    where,
                    hint=_suggest(path, leaves),
                )
            )
        elif not queue.is_leaf:
            leaves = [q.path for q in tree.leaves() if q.path.startswith(queue.path + ".")]
            problems.append(
                PARENT_QUEUE.problem(
                    f"application {app.id}: {queue.path} is a parent queue; applications run in leaf queues",
                    where,
                    hint=f"its leaf queues: {', '.join(leaves[:8])}{' ...' if len(leaves) > 8 else ''}."
                    if leaves
                    else "",
                )
            )
    return problems


def may_create_queues(partition: PartitionConfig) -> bool:
    """Whether a placement rule (or one of its parent rules) of the partition may create queues: then the workload
    may name queues the config lacks, and a dry run places on a copy of the queue tree (sim/build.py)."""
    rules = list(partition.placementrules)
    while rules:
        rule = rules.pop()
        if rule.create:
            return True
        if rule.parent is not None:
            rules.append(rule.parent)
    return False


def partition_problem(workload: Workload, partitions: Iterable[str]) -> Problem | None:
    """A problem when the workload's partition is not one of the config's partitions."""
    names = list(partitions)
    if workload.partition in names:
        return None
    return UNKNOWN_PARTITION.problem(
        f"partition {workload.partition} is not in the queue config",
        ("partition",),
        hint=f"the config has: {', '.join(names)}." if names else "the config defines no partition.",
    )


def _duplicates(problems: list[Problem], what: str, items: Iterable[tuple[str, tuple[str | int, ...]]]) -> None:
    first: dict[str, tuple[str | int, ...]] = {}
    for name, path in items:
        if not name:
            continue  # a missing name is a schema problem already
        if name in first:
            problems.append(
                DUPLICATE_NAME.problem(
                    f"{what} name {name} is used twice (first at {format_path(first[name])})",
                    (*path, "id" if what == "application" else "name"),
                    hint="names must be unique; with `count: N` an ask expands into <name>-0 .. <name>-(N-1).",
                )
            )
        else:
            first[name] = path


def _known(what: str, names: Iterable[str]) -> str:
    listed = sorted(names)
    if not listed:
        return f"the workload defines no {what}."
    return f"known {what}: {', '.join(listed[:8])}{' ...' if len(listed) > 8 else ''}."


def _suggest(path: str, leaves: list[str]) -> str:
    close = difflib.get_close_matches(path, leaves, n=1, cutoff=0.8)
    if close:
        return f"did you mean {close[0]}?"
    return f"leaf queues: {', '.join(leaves[:8])}{' ...' if len(leaves) > 8 else ''}."
