"""What the config and workload use that the dry run does not model yet, named by queue or pod.

Stage of the core's scheduling cycle: none; read before the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.workload.model import Workload


@dataclass(frozen=True, slots=True)
class Unmodelled:
    """One feature in use that yk ignores, what that means, and the queues or pods concerned."""

    feature: str
    """gang-scheduling (placeholder pods already in a dump), volume-topology and dynamic-resources (node predicates
    of pending pods yk does not run), state-dump (what a state dump could not say and yk assumed); limits and
    backoff are modelled, never reported."""
    message: str
    queues: tuple[str, ...] = ()
    pods: tuple[str, ...] = ()


ASSUMED = "state-dump"
"""The feature name of what a state dump could not say and yk assumed (Workload.assumptions)."""


def _listed(names: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def unmodelled(partition: PartitionConfig, tree: QueueTree, workload: Workload) -> list[Unmodelled]:
    """Every feature in use that the dry run ignores: placeholder pods already in a dump, and the node predicates
    yk cannot evaluate for pending pods (PodSpec.unmodelled: volume topology, DRA claims). User and group limits,
    sim/ugm.py, and application backoff, sim/backoff.py, are modelled."""
    out = [Unmodelled(ASSUMED, sentence) for sentence in workload.assumptions]
    if workload.gang_pods:
        pods = workload.gang_pods
        out.append(
            Unmodelled(
                "gang-scheduling",
                f"{len(pods)} gang placeholder pod{'s' if len(pods) != 1 else ''} already in the dump "
                f"({_listed(pods)}): the dry run treats them as ordinary pods (YuniKorn's recovery of a gang in "
                "progress is not modelled)",
                pods=pods,
            )
        )
    out.extend(_pod_predicates(workload))
    return out


POD_PREDICATES = (
    (
        "volume-topology",
        "VolumeBinding/VolumeZone/NodeVolumeLimits",
        "volume topology and attach limits are not modelled: yk places {them} as if every node could mount {their} "
        "volumes",
    ),
    (
        "dynamic-resources",
        "DynamicResources",
        "DRA resource claims are not modelled: yk places {them} as if every node had the claimed devices",
    ),
)
"""(feature, the Filter plugins PodSpec.unmodelled names, what the dry run does instead)."""


def _pod_predicates(workload: Workload) -> list[Unmodelled]:
    """The Filter plugins yk does not run that pending pods need, with the pods and what they carry."""
    found: dict[str, list[tuple[str, str]]] = {}
    for app in workload.applications:
        for ask in app.asks:
            if ask.pod is None or not ask.pod.unmodelled:
                continue
            for item in ask.pod.unmodelled:
                plugins, _, what = item.partition(" (")
                found.setdefault(plugins, []).append((ask.name, what.removesuffix(")")))
    out: list[Unmodelled] = []
    for feature, plugins, instead in POD_PREDICATES:
        entries = found.get(plugins)
        if not entries:
            continue
        pods = tuple(dict.fromkeys(name for name, _ in entries))
        one = len(pods) == 1
        words = {"them": "it" if one else "them", "their": "its" if one else "their"}
        details = tuple(f"pod {name} {what}" if what else f"pod {name}" for name, what in entries)
        out.append(Unmodelled(feature, f"{plugins} ({_listed(details)}): {instead.format(**words)}", pods=pods))
    return out
