"""What the config and workload use that the dry run does not model yet, named by queue or pod."""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.config import PartitionConfig
from yk_cli.core.queues import QueueTree
from yk_cli.core.workload import Workload


@dataclass(frozen=True, slots=True)
class Unmodelled:
    """One feature in use that yk ignores, what that means, and the queues or pods concerned."""

    feature: str
    """gang-scheduling (placeholder pods already in a dump); limits and backoff are modelled, never reported."""
    message: str
    queues: tuple[str, ...] = ()
    pods: tuple[str, ...] = ()


def _listed(names: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def unmodelled(partition: PartitionConfig, tree: QueueTree, workload: Workload) -> list[Unmodelled]:
    """Every feature in use that the dry run ignores: placeholder pods already in a dump (user and group limits,
    sim/ugm.py, and application backoff, sim/backoff.py, are modelled)."""
    out: list[Unmodelled] = []
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
    return out
