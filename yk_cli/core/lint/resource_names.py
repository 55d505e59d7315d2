"""Resource names that look like typos: a name no node has, close to one YuniKorn or the nodes know (did you mean).

YuniKorn compares resources by name and never says when a name is unknown: `max: {vcpu: 4}` on a queue limits a
resource no pod requests (so nothing), and an ask of `{vcpu: 1}` waits for ever for a node with vcpu. The checks
here report such names with the closest known one:

    resource_typo(name, known) -> str | None        the known name a name is probably a typo of
    check_config_resource_names(config)             queue configs: guaranteed, max, limits, child templates
    lint_workload_resource_names(workload)          workloads and dumps: asks, allocations, task groups, nodes
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING

from yk_cli.core.config.model import QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Path, Problem, warning

if TYPE_CHECKING:
    from yk_cli.core.workload.model import Workload

WELL_KNOWN = ("vcore", "memory", "pods", "ephemeral-storage", "nvidia.com/gpu", "amd.com/gpu")
"""The resource names the Kubernetes shim reports for nodes and pods (cpu is reported as vcore)."""
ALIASES = {
    "cpu": "vcore",
    "cpus": "vcore",
    "vcpu": "vcore",
    "vcpus": "vcore",
    "core": "vcore",
    "cores": "vcore",
    "vcores": "vcore",
    "mem": "memory",
    "ram": "memory",
    "pod": "pods",
    "gpu": "nvidia.com/gpu",
    "gpus": "nvidia.com/gpu",
    "storage": "ephemeral-storage",
}
"""Names people write for a well-known resource that no tool translates."""
FAMILIES = ("hugepages-",)
"""Prefixes of resource names that come in many sizes: never a typo of one another."""
CUTOFF = 0.8
"""difflib similarity above which a name counts as a near miss of a known one."""

_DOC_TAIL = (
    "yk reports a name that is not one of the names the Kubernetes shim reports (vcore, memory, pods, "
    "ephemeral-storage, nvidia.com/gpu, amd.com/gpu) and not one any node of the workload has, when it is close to "
    "one of those (`vcpu` and `cpu` for vcore, `mem` for memory, `nvidia.com/gpus` for nvidia.com/gpu, a name in "
    "another case): the hint names the one you probably meant. Names of other extended resources are left alone."
)
RESOURCE_NAME_TYPO = warning(
    "resource-name-typo",
    "A queue resource name that looks like a misspelt one (`vcpu` for vcore): the limit or guarantee applies to a "
    "resource no pod requests.",
    "YuniKorn keys resources by name and accepts any name in `resources.guaranteed`, `resources.max`, a limit's "
    "`maxresources` and a child template. A name the nodes and pods do "
    "not use is never compared with anything: `max: {vcpu: 4}` sets no CPU limit at all, and `guaranteed: {cpu: 2}` "
    "guarantees nothing (the shim reports CPU as `vcore`). " + _DOC_TAIL,
)
WORKLOAD_RESOURCE_NAME_TYPO = warning(
    "workload-resource-name-typo",
    "An ask, allocation, task group or node of a workload or dump names a resource that looks misspelt: no node "
    "has it.",
    "An ask that requests a resource no node has waits for ever (`no node is large enough`), and a node that lists "
    "a misspelt name offers a resource no pod requests. In a kubectl dump the API server accepts any extended "
    "resource name with a domain (`nvidia.com/gpus`), so a typo there reaches the scheduler too. " + _DOC_TAIL,
)
RULES = (RESOURCE_NAME_TYPO, WORKLOAD_RESOURCE_NAME_TYPO)


def resource_typo(name: str, known: Collection[str]) -> str | None:
    """The known name `name` is probably a misspelling of, or None (known itself, or not close to any)."""
    if name in known or name.startswith(FAMILIES):
        return None
    lowered = name.lower()
    alias = ALIASES.get(lowered)
    if alias is not None and alias in known:
        return alias
    same = sorted(k for k in known if k.lower() == lowered)
    if same:
        return same[0]
    candidates = sorted(k for k in known if not k.startswith(FAMILIES))
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=CUTOFF)
    return close[0] if close else None


def _hint(name: str, meant: str) -> str:
    return f"did you mean `{meant}`? YuniKorn matches resource names exactly; `{name}` is another resource."


# --- queue configs -------------------------------------------------------------------------------------------------


def check_config_resource_names(config: SchedulerConfig) -> Iterator[Problem]:
    """Near-miss resource names in every resource map of a config (against the well-known names); the node sort
    policy's resourceweights are node-sort-weights' (checks/properties)."""
    for partition in config.partitions:
        for limit in partition.limits:
            yield from _names(
                limit.maxresources, (*limit.path, "maxresources"), f"limits of partition {partition.display_name}"
            )
        for queue in partition.queues or ():
            yield from _queue(queue, "")


def _queue(queue: QueueConfig, parent: str) -> Iterator[Problem]:
    path = f"{parent}.{queue.name}" if parent else queue.name
    resources = queue.resources
    yield from _names(resources.guaranteed, (*resources.path, "guaranteed"), f"guaranteed of {path}")
    yield from _names(resources.max, (*resources.path, "max"), f"max of {path}")
    template = queue.childtemplate.resources
    yield from _names(template.guaranteed, (*template.path, "guaranteed"), f"childtemplate guaranteed of {path}")
    yield from _names(template.max, (*template.path, "max"), f"childtemplate max of {path}")
    for limit in queue.limits:
        yield from _names(limit.maxresources, (*limit.path, "maxresources"), f"limits of {path}")
    for child in queue.queues:
        yield from _queue(child, path)


def _names(values: Iterable[str], path: Path, where: str) -> Iterator[Problem]:
    for name in values:
        meant = resource_typo(name, WELL_KNOWN)
        if meant is not None:
            yield RESOURCE_NAME_TYPO.problem(
                f"resource `{name}` in the {where} is not a resource the Kubernetes shim reports: it applies to "
                f"nothing (did you mean `{meant}`?)",
                (*path, name),
                hint=_hint(name, meant),
                anchor="key",
            )


# --- workloads and dumps -------------------------------------------------------------------------------------------


def lint_workload_resource_names(workload: Workload) -> list[Problem]:
    """Near-miss resource names of asks, allocations and task groups (against the well-known names and every name a
    node has) and of nodes (against the well-known names): one warning per application and name, one per node name."""
    offered = {name for node in workload.nodes for name in node.capacity}
    known = {*WELL_KNOWN, *offered}
    problems: list[Problem] = []
    reported: set[str] = set()
    for node in workload.nodes:
        for name in node.capacity:
            meant = resource_typo(name, WELL_KNOWN)
            if meant is not None and name not in reported:
                reported.add(name)
                holders = sum(1 for other in workload.nodes if name in other.capacity)
                others = f" (and {holders - 1} more nodes)" if holders > 1 else ""
                problems.append(
                    WORKLOAD_RESOURCE_NAME_TYPO.problem(
                        f"node {node.name}{others} offers `{name}`, which is not a resource the Kubernetes shim "
                        f"reports (did you mean `{meant}`?): pods that request `{meant}` cannot use it",
                        (*node.path, "resources", name),
                        hint=_hint(name, meant),
                        anchor="key",
                    )
                )
    for app in workload.applications:
        seen: dict[str, list[tuple[str, Path, str]]] = {}
        for what, name_of, resources, path, key in (
            *(
                ("ask", a.name, a.resources, a.path, "resources")
                for a in app.asks
                if not a.placeholder and not offered.issuperset(a.resources)  # (only names not offered count)
            ),
            *(("allocation", a.name, a.resources, a.path, "resources") for a in app.allocations),
            *(("task group", g.name, g.min_resource, g.path, "minResource") for g in app.task_groups),
        ):
            for name in resources:
                if name not in offered:
                    seen.setdefault(name, []).append((f"{what} {name_of}", (*path, key, name), what))
        for name, uses in seen.items():
            meant = resource_typo(name, known)
            if meant is None:
                continue
            first, path, _ = uses[0]
            more = f" (and {len(uses) - 1} more of its pods)" if len(uses) > 1 else ""
            problems.append(
                WORKLOAD_RESOURCE_NAME_TYPO.problem(
                    f"application {app.id}: {first}{more} requests `{name}`, which no node has: it can never be "
                    f"placed (did you mean `{meant}`?)",
                    path,
                    hint=_hint(name, meant),
                    anchor="key",
                )
            )
    return problems
