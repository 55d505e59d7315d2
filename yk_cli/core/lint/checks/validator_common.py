"""Helpers shared by the validator checks: queue walks, Go-style value printing and quantity parsing with problems."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.config.model import Limit, PartitionConfig, QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Path, Problem, error
from yk_cli.core.resources import INT64_MAX, QuantityError, Resource, parse_quantity

QUANTITY_HINT = (
    "a YuniKorn quantity is a whole number with an optional suffix: k M G T P E (powers of 1000) or "
    "Ki Mi Gi Ti Pi Ei (powers of 1024); no sign, no decimals, no exponent. Only vcore takes `m` (millicores)"
)

INVALID_QUANTITY = error(
    "invalid-quantity",
    "A resource quantity YuniKorn cannot parse (queue resources or limit maxresources).",
    "YuniKorn parses every value of `resources.guaranteed`, `resources.max` and `limits[].maxresources` with "
    "the regular expression `^[0-9]+\\s*([mkKMGTPE]i?)?$` after trimming spaces. Anything else is refused with "
    "`invalid quantity`: decimals (`0.5G`), signs (`-1`), exponents (`1e9`), Kubernetes-only forms. A suffix that "
    "matches the pattern but has no multiplier (`K`, `ki`, `mi`, or `m` on anything but `vcore`) gives "
    "`invalid suffix`, and a value beyond a signed 64-bit integer after scaling (vcore is counted in millicores) "
    "gives `invalid quantity: overflow`. Write the value as a whole number in a smaller unit, e.g. `512Mi` "
    "instead of `0.5Gi`, `1500m` vcore instead of `1.5`.",
)


@dataclass(frozen=True, slots=True)
class Visit:
    """A queue met during a depth-first walk, with its parent and YuniKorn's level number (root = 1)."""

    queue: QueueConfig
    parent: QueueConfig | None
    level: int


def partitions_with_queues(config: SchedulerConfig) -> Iterator[PartitionConfig]:
    """Partitions that have a `queues` key (the others are refused with `queue config is not set`)."""
    return (p for p in config.partitions if p.queues is not None)


def walk(root: QueueConfig) -> Iterator[Visit]:
    """Every queue under (and including) root, depth first in file order."""
    stack: list[Visit] = [Visit(root, None, 1)]
    while stack:
        item = stack.pop()
        yield item
        stack.extend(Visit(child, item.queue, item.level + 1) for child in reversed(item.queue.queues))


def root_limits(partition: PartitionConfig) -> tuple[Limit, ...]:
    """The limits YuniKorn checks on root: root's own, or the partition's copied down when root has none."""
    return partition.root.limits or partition.limits


def go_list(items: Sequence[str]) -> str:
    """Print a []string like Go's %v: `[a b]`."""
    return "[" + " ".join(items) + "]"


def go_string_map(values: Mapping[str, str]) -> str:
    """Print a map[string]string like Go's %v (keys sorted): `map[memory:1G vcore:1]`."""
    return "map[" + " ".join(f"{k}:{values[k]}" for k in sorted(values)) + "]"


def go_limit(limit: Limit) -> str:
    """Print a configs.Limit struct like Go's %v: `{name [users] [groups] map[...] maxapplications}`."""
    parts = (limit.limit, go_list(limit.users), go_list(limit.groups), go_string_map(limit.maxresources))
    return "{" + " ".join(parts) + f" {limit.maxapplications}" + "}"


QuantityProblem = Callable[[str, str, str, Path], Problem]
"""Builds the problem for one bad quantity from (YuniKorn's error text, resource name, value, path)."""


def invalid_quantity(text: str, name: str, value: str, path: Path) -> Problem:
    """The invalid-quantity problem for one value YuniKorn cannot parse."""
    return INVALID_QUANTITY.problem(text, path, hint=f"{name}: {value!r} is refused; {QUANTITY_HINT}.", anchor="value")


def parse_map(
    values: Mapping[str, str], path: Path, problems: list[Problem], report: QuantityProblem = invalid_quantity
) -> Resource | None:
    """Parse a quantity map like NewResourceFromConf; each bad value adds a problem and the result is None."""
    parsed: Resource = {}
    ok = True
    for name, value in values.items():
        try:
            parsed[name] = parse_quantity(name, value)
        except QuantityError as err:
            problems.append(report(str(err), name, value, (*path, name)))
            ok = False
    return parsed if ok else None


def fits_max_undef(maximum: Mapping[str, int] | None, smaller: Mapping[str, int] | None) -> bool:
    """Go's FitInMaxUndef: every type of smaller is within maximum; types maximum does not define are unlimited."""
    if maximum is None or smaller is None:
        return True
    return all(v <= max(maximum[k], 0) for k, v in smaller.items() if k in maximum)


def saturating_add(left: Mapping[str, int], right: Mapping[str, int]) -> Resource:
    """Component-wise sum that stops at the int64 maximum like Go's addVal."""
    out = dict(left)
    for k, v in right.items():
        out[k] = min(out.get(k, 0) + v, INT64_MAX)
    return out


def is_zero(resource: Mapping[str, int] | None) -> bool:
    """Go's IsZero: nil, empty or every value zero."""
    return resource is None or all(v == 0 for v in resource.values())
