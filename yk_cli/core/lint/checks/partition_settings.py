"""Partition settings YuniKorn accepts but reads differently: node sort weights and the group resolver."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.resources import VCORE

RESOLVERS = ("os", "ldap", "test")
"""usergroupresolver types YuniKorn 1.8+ knows (case-sensitive)."""

NODE_SORT_WEIGHTS = warning(
    "node-sort-weights",
    "nodesortpolicy.resourceweights that leave vcore and memory out of node sorting.",
    "Node sorting scores a node by the weighted average of its usage shares. Without resourceweights the "
    "weights are vcore 1 and memory 1; once resourceweights is set, only the listed types count and every "
    "other type has no weight. Resource names are YuniKorn's: CPU is `vcore` (the shim converts the "
    "Kubernetes `cpu` to vcore), names are case-sensitive, so a weight for `cpu` or `Memory` matches no "
    "node resource and is ignored. When no listed type has a positive weight every node scores the same "
    "and nodes are simply tried in node-ID order. Fix: use `vcore` and `memory` (and other resource names "
    "exactly as nodes report them), with at least one positive weight.",
)
UNKNOWN_USER_GROUP_RESOLVER = warning(
    "unknown-user-group-resolver",
    "usergroupresolver type YuniKorn does not know: no group resolution.",
    "YuniKorn 1.8 added `usergroupresolver: {type: ...}` on the partition with the types `os`, `ldap` "
    "(reads its settings from /run/secrets/ldap) and `test`, matched case-sensitively. Any other value is "
    "accepted by the validator and silently means no resolver: YuniKorn uses only the groups the shim "
    "sends with each application, so group ACLs and group limits may not match what the resolver was "
    "meant to supply. Fix: write `os` or `ldap`, or remove the setting.",
)

RULES = (NODE_SORT_WEIGHTS, UNKNOWN_USER_GROUP_RESOLVER)
_BASE = (VCORE, "memory")


def check_node_sort_weights(config: SchedulerConfig) -> Iterator[Problem]:
    """Weights for names no node reports, and weight sets that give vcore and memory nothing."""
    for partition in config.partitions:
        policy = partition.nodesortpolicy
        weights = policy.resourceweights
        if not weights or any(w < 0 for w in weights.values()):
            continue  # absent: defaults; negative: a validation error
        path = (*policy.path, "resourceweights")
        misnamed = False
        for name, weight in weights.items():
            meant = _meant(name)
            if meant and meant not in weights:
                misnamed = True
                yield NODE_SORT_WEIGHTS.problem(
                    f'resourceweights "{name}" matches no node resource (YuniKorn calls it "{meant}"): this weight '
                    f"of {weight:g} is ignored",
                    (*path, name),
                    hint=f'write "{meant}"',
                    anchor="key",
                )
        if not any(w > 0 for w in weights.values()):
            yield NODE_SORT_WEIGHTS.problem(
                f"resourceweights of partition {partition.display_name} has no positive weight: every node "
                "scores the same, so nodes are tried in node-ID order",
                path,
                hint="give vcore and memory positive weights, or remove resourceweights for vcore 1, memory 1",
                anchor="key",
            )
        elif not misnamed and not any(weights.get(name, 0) > 0 for name in _BASE):
            listed = ", ".join(sorted(weights))
            yield NODE_SORT_WEIGHTS.problem(
                f"resourceweights of partition {partition.display_name} gives no weight to vcore or memory: once "
                f"weights are set only the listed types ({listed}) count, so node sorting ignores CPU and memory "
                "usage",
                path,
                hint="add vcore and memory weights (without resourceweights both weigh 1)",
                anchor="key",
            )


def _meant(name: str) -> str:
    """The base resource name a weight key was probably meant as, or ''."""
    lowered = name.lower()
    if lowered in ("cpu", "cpus", "vcores") or (lowered == VCORE and name != VCORE):
        return VCORE
    if name in _BASE:
        return ""
    matches = difflib.get_close_matches(lowered, ["memory"], n=1, cutoff=0.7)
    return matches[0] if matches else ""


def check_user_group_resolver(config: SchedulerConfig) -> Iterator[Problem]:
    """Resolver types YuniKorn does not know."""
    for partition in config.partitions:
        kind = partition.usergroupresolver
        if not kind or kind in RESOLVERS or kind.lower() in ("none", "no"):
            continue
        suggestion = kind.lower() if kind.lower() in RESOLVERS else ""
        yield UNKNOWN_USER_GROUP_RESOLVER.problem(
            f'usergroupresolver type "{kind}" is unknown (os, ldap; case-sensitive): YuniKorn resolves no groups '
            "and uses only the groups the shim sends",
            (*partition.path, "usergroupresolver", "type"),
            hint=f'write "{suggestion}"' if suggestion else "write os or ldap, or remove usergroupresolver",
        )


CHECKS = (check_node_sort_weights, check_user_group_resolver)
