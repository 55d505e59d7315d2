"""State dumps compared regardless of list order: what tests of load.yunikorn_rest check the assembled state with."""

from __future__ import annotations

import json
from typing import Any

from tests.helpers.paths import DATA

STATE = DATA / "state"
"""Real state dumps and REST answers of the YuniKorn core (tests/data/state/README.md)."""
COMPARED = ("partitions", "applications", "nodes", "clusterInfo", "queues", "config", "placementRules")
"""The dump's keys the assembled state has too (`timestamp` differs: the Date header, to the second)."""
ORDERED = frozenset({"rules", "stateLog", "allocationLog"})
"""Lists whose order means something (placement rules, logs): never sorted."""


def unordered(value: Any, key: str = "") -> Any:
    """`value` with every list sorted (by its elements' JSON) but those in ORDERED: the core builds many of them from
    Go maps, in an order that differs from call to call."""
    if isinstance(value, dict):
        return {name: unordered(item, name) for name, item in value.items()}
    if isinstance(value, list):
        items = [unordered(item) for item in value]
        return items if key in ORDERED else sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    return value


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """The COMPARED keys of a state (an empty list where the core left one out), lists unordered."""
    return {key: unordered(data.get(key, []), key) for key in COMPARED}
