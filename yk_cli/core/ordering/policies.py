"""Sort keys of YuniKorn's scheduling loop: child queues, applications, asks and nodes, with stable tie-breakers.

Every key is a plain tuple, smaller first, ending with a unique tie-breaker so that two different objects never
compare equal. Where YuniKorn itself leaves a complete tie to Go's random map order, yk uses:

* child queues: configuration order (depth first, as written; dynamic queues in creation order);
* applications: submission time, then file order;
* asks: priority, creation time, file order (the same as YuniKorn, which is deterministic here);
* nodes: node name (the same as YuniKorn).

The simulator and `yk explain` both use these functions, so an explanation can never disagree with a trace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import neg
from typing import Any, TypeVar

from yk_cli.core.config.model import PartitionConfig

FIFO = "fifo"
FAIR = "fair"
BINPACKING = "binpacking"
DEFAULT_WEIGHTS: dict[str, float] = {"memory": 1.0, "vcore": 1.0}
"""Node sort weights when the partition sets none (YuniKorn's defaultResourceWeights)."""

QUEUE_FIELDS_PRIORITY = ("priority", "fair share", "pending", "configuration order")
"""Child queue key fields when the parent's application.sort.priority is enabled."""
QUEUE_FIELDS_FAIRNESS = ("fair share", "priority", "pending", "configuration order")
"""Child queue key fields when the parent's application.sort.priority is disabled."""
ASK_FIELDS = ("priority", "creation time", "file order")

T = TypeVar("T")

SortKey = tuple[Any, ...]
"""A sort entry: the ordering fields (of mixed types), often followed by the item sorted."""


def node_policy(partition: PartitionConfig) -> str:
    """The partition's node sort policy: binpacking when written exactly so, else fair (YuniKorn's default)."""
    return BINPACKING if partition.nodesortpolicy.type == BINPACKING else FAIR


def node_weights(partition: PartitionConfig) -> dict[str, float]:
    """Resource weights for node sorting: the configured ones, or vcore and memory at 1.0 when none are set."""
    weights = dict(partition.nodesortpolicy.resourceweights)
    return weights if weights else dict(DEFAULT_WEIGHTS)


def node_weighting(
    types: Sequence[str], capacity: Mapping[str, int], weights: Mapping[str, float]
) -> tuple[tuple[tuple[int, float, float], ...], float]:
    """The (type index, capacity, weight) triples that count for a node's usage, and their total weight.

    Types without weight, and types whose capacity is 0 (a NaN share in YuniKorn, skipped), do not count.
    """
    out = []
    total = 0.0
    for i, name in enumerate(types):
        weight = weights.get(name, 0.0)
        cap = capacity.get(name, 0)
        if weight != 0.0 and cap != 0:
            out.append((i, float(cap), weight))
            total += weight
    return tuple(out), total


def weighted_usage(available: Sequence[int], weighting: tuple[tuple[tuple[int, float, float], ...], float]) -> float:
    """Weighted average of the usage shares 1 - available/capacity (YuniKorn's absResourceUsage)."""
    triples, total = weighting
    usage = 0.0
    for i, cap, weight in triples:
        usage += (1.0 - available[i] / cap) * weight
    return usage / total if total else 0.0


def node_usage(capacity: Mapping[str, int], available: Mapping[str, int], weights: Mapping[str, float]) -> float:
    """Weighted average of the node's usage shares (1 - available/capacity) over weighted capacity types."""
    types = sorted(capacity)
    return weighted_usage([available.get(t, 0) for t in types], node_weighting(types, capacity, weights))


def node_score(policy: str, usage: float) -> float:
    """Node sort score, ascending: fair sorts least used first, binpacking most used first."""
    return 1.0 - usage if policy == BINPACKING else usage


def node_key(score: float, name: str) -> tuple[float, str]:
    """Node order: score ascending, then node name (YuniKorn's own tie-breaker)."""
    return (score, name)


def fit_in_score_of(size: Sequence[int], available: Sequence[int]) -> float:
    """YuniKorn's FitInScore on vectors: per type with free > 0, 1 if the ask wants none, else the leftover share."""
    score = 0.0
    for wanted, free in zip(size, available, strict=True):
        if free <= 0:
            continue
        if wanted <= 0:
            score += 1.0
        elif free > wanted:
            score += (free - wanted) / free
    return score


def fit_in_score(ask: Mapping[str, int], available: Mapping[str, int]) -> float:
    """FitInScore of an ask in a node's free resources: lower is a tighter fit (the node an old ask reserves)."""
    types = sorted(available)
    return fit_in_score_of([ask.get(t, 0) for t in types], [available[t] for t in types])


def share_denominators(
    types: Sequence[str], guaranteed: Mapping[str, int] | None, fair_max: Mapping[str, int] | None
) -> tuple[tuple[int, int], ...]:
    """Per type index, the fair-share denominator: the guarantee when set for the type, else the fair max."""
    out = []
    for i, name in enumerate(types):
        if guaranteed is not None and name in guaranteed:
            out.append((i, guaranteed[name]))
        elif fair_max is not None and name in fair_max:
            out.append((i, fair_max[name]))
    return tuple(out)


def fair_share_of(allocated: Sequence[int], denominators: tuple[tuple[int, int], ...]) -> float:
    """YuniKorn's getFairShare on vectors: the largest used/denominator; a denominator <= 0 gives 1 if used."""
    best = 0.0
    for i, den in denominators:
        used = allocated[i]
        if used < 0:
            continue
        share = (1.0 if used > 0 else 0.0) if den <= 0 else used / den
        if share > best:
            best = share
    return best


def fair_share(
    allocated: Mapping[str, int], guaranteed: Mapping[str, int] | None, fair_max: Mapping[str, int] | None
) -> float:
    """A queue's fair share: the largest over used types of used/guaranteed, or used/fair-max without guarantee.

    Types with neither a guarantee nor a fair max are ignored; fair max is the nearest max up the tree, root's
    being the cluster capacity.
    """
    types = sorted(allocated)
    return fair_share_of([allocated[t] for t in types], share_denominators(types, guaranteed, fair_max))


def usage_denominators(types: Sequence[str], guaranteed: Mapping[str, int] | None) -> tuple[int, ...]:
    """Per type index, the leaf's guarantee (0 when it has none for the type) for CompUsageRatio."""
    return tuple((guaranteed or {}).get(name, 0) for name in types)


def usage_shares_of(allocated: Sequence[int], denominators: Sequence[int]) -> tuple[float, ...]:
    """CompUsageRatio's key on vectors: shares largest first, zero-padded to the vector width.

    A type the leaf does not guarantee contributes its raw amount (YuniKorn's quirk), so unguaranteed memory in
    bytes outweighs every guaranteed share.
    """
    shares = [float(u) if d == 0 else u / d for u, d in zip(allocated, denominators, strict=True) if u != 0]
    shares.sort(reverse=True)
    return (*shares, *([0.0] * (len(allocated) - len(shares))))


def usage_shares(allocated: Mapping[str, int], guaranteed: Mapping[str, int] | None, width: int) -> tuple[float, ...]:
    """usage_shares_of for resource maps, padded to width."""
    types = sorted(allocated)
    shares = usage_shares_of([allocated[t] for t in types], usage_denominators(types, guaranteed))
    return (*shares, *([0.0] * (width - len(shares))))


def pending_key(pending: Sequence[int]) -> tuple[int, ...]:
    """'More pending first': negated amounts in resource-name order.

    YuniKorn puts a queue first when its pending minus the other's is >= 0 in every type and > 0 in one; that
    is a partial order (incomparable queues keep Go's random map order). The lexicographic order used here
    agrees with it wherever it decides, and breaks the rest by resource name.
    """
    return tuple(map(neg, pending))


def queue_key(
    priority_first: bool, priority: int, share: float, pending: tuple[int, ...], order: int, item: object = None
) -> SortKey:
    """Child queue order under a parent: priority/fair share in the parent's order, then pending, then config.

    The last element is item (the queue itself in the engine's sorted lists); order is unique among siblings, so
    item is never compared.
    """
    if priority_first:
        return (-priority, share, pending, order, item)
    return (share, -priority, pending, order, item)


def queue_fields(priority_first: bool) -> tuple[str, ...]:
    """Names of queue_key's fields, in order."""
    return QUEUE_FIELDS_PRIORITY if priority_first else QUEUE_FIELDS_FAIRNESS


def app_key(
    policy: str,
    priority_first: bool,
    priority: int,
    submit: int,
    usage: tuple[float, ...],
    seq: int,
    item: object = None,
) -> SortKey:
    """Application order in a leaf: fifo by submission time, fair by usage ratio; priority first when enabled.

    Equal submission times keep file order before priority: YuniKorn creates applications one after another, so
    their nanosecond submission times never tie and fifo without priority is plain arrival order. The last
    element is item (never compared: seq is unique).
    """
    if policy == FAIR:
        if priority_first:
            return (-priority, usage, submit, seq, item)
        return (usage, -priority, submit, seq, item)
    if priority_first:
        return (-priority, submit, seq, item)
    return (submit, seq, -priority, item)


def app_fields(policy: str, priority_first: bool) -> tuple[str, ...]:
    """Names of app_key's fields, in order."""
    if policy == FAIR:
        if priority_first:
            return ("priority", "usage ratio", "submission time", "file order")
        return ("usage ratio", "priority", "submission time", "file order")
    if priority_first:
        return ("priority", "submission time", "file order")
    return ("submission time", "file order", "priority")


def ask_key(priority: int, created: int, seq: int, item: object = None) -> SortKey:
    """Ask order inside an application: priority descending, creation time ascending, then file order (and item)."""
    return (-priority, created, seq, item)


def first_difference(left: SortKey, right: SortKey) -> int:
    """Index of the first field where two keys differ (-1 when equal); leave the trailing item out of the keys."""
    for i, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            return i
    return -1


def stateaware_admitted(
    apps: Iterable[T],
    state: Callable[[T], str],
    has_pending: Callable[[T], bool],
    submit_order: Callable[[T], SortKey],
) -> set[T]:
    """YuniKorn <= 1.5 stateaware filter: running and starting apps, else the oldest accepted one.

    Any Starting application (pending or not) keeps every Accepted one out.
    """
    admitted: set[T] = set()
    oldest: T | None = None
    starting = False
    for app in apps:
        current = state(app)
        if current == "Starting":
            starting = True
        if not has_pending(app):
            continue
        if current == "Accepted":
            if oldest is None or submit_order(app) < submit_order(oldest):
                oldest = app
            continue
        admitted.add(app)
    if oldest is not None and not starting:
        admitted.add(oldest)
    return admitted
