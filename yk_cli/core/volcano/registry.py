"""What Volcano's scheduler registers: plugin names and the arguments each action reads (volcano-sh/volcano HEAD).

Plugin names are those of pkg/scheduler/plugins/factory.go (framework.RegisterPluginBuilder, each plugin's
PluginName); action arguments are the keys each action's parseArguments reads through GetArgOfActionFromConf.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

PLUGINS = (
    "binpack",
    "capacity",
    "cdp",
    "conformance",
    "deviceshare",
    "drf",
    "extender",
    "gang",
    "network-topology-aware",
    "nodegroup",
    "nodeorder",
    "numa-aware",
    "overcommit",
    "pdb",
    "predicates",
    "priority",
    "proportion",
    "rescheduling",
    "resource-strategy-fit",
    "resourcequota",
    "sla",
    "task-topology",
    "tdm",
    "usage",
)
"""Every plugin name the scheduler binary registers; any other name is only found as a custom plugin (.so)."""

HIERARCHY_PLUGINS = ("drf", "capacity")
"""The plugins that read enableHierarchy (drf: HDRF; capacity: spec.parent queues)."""

PREDICATE_CACHE = "predicateErrorCacheEnable"
ACTION_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "allocate": (PREDICATE_CACHE, "gateRemovalWorkerNum"),
    "backfill": (PREDICATE_CACHE,),
    "reclaim": (PREDICATE_CACHE,),
    "preempt": (
        PREDICATE_CACHE,
        "enableTopologyAwarePreemption",
        "topologyAwarePreemptWorkerNum",
        "minCandidateNodesPercentage",
        "minCandidateNodesAbsolute",
        "maxCandidateNodesAbsolute",
    ),
    "gangpreempt": ("maxDomains", "allowWholeBundle"),
    "gangreclaim": ("maxDomains", "allowWholeBundle"),
}
"""The argument keys each action reads; actions absent here (enqueue, shuffle) are not checked."""

PROPOSAL_KEY = re.compile(r"queuescoreorder", re.IGNORECASE)
"""Keys of the 2023 queue-priority design (`QueueScoreOrderEnable`, `QueueScoreOrder.<plugin>.weight`,
`enableQueueScoreOrder`): never merged, read by no Volcano release."""


def _normal(name: str) -> str:
    """Lower case, with the `enabled` prefix folded into `enable` (Volcano mixes the two)."""
    lowered = name.lower()
    return "enable" + lowered[len("enabled") :] if lowered.startswith("enabled") else lowered


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` most likely misspells: equal but for case or enable/enabled first, else a close match."""
    options = list(candidates)
    folded = {_normal(c): c for c in options}
    if _normal(name) in folded and folded[_normal(name)] != name:
        return folded[_normal(name)]
    lowered = {c.lower(): c for c in options}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close and lowered[close[0]] != name else None
