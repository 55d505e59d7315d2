"""Plain data (dicts, lists, str, int, float, bool) as stable, compact YAML text, for `yk generate`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

CONFIG_FLOW_VALUES = frozenset({"guaranteed", "max", "resourceweights", "nodesortpolicy"})
"""Queue config mappings written on one line."""
WORKLOAD_FLOW_VALUES = frozenset(
    {"groups", "labels", "nodeSelector", "tolerations", "affinity", "topologySpreadConstraints", "hostPorts"}
)
"""Workload values written on one line (an application's node-predicate fields among them)."""
WORKLOAD_FLOW_ITEMS = frozenset({"priorityClasses", "nodes", "asks", "allocations"})
"""Workload lists whose items are written one per line."""

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]*|-[A-Za-z0-9_./][A-Za-z0-9_./-]*")
_NUMBER = re.compile(
    r"[-+]?(0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+([eE][-+]?[0-9]+)?"
    r"|\.(inf|Inf|INF|nan|NaN|NAN))"
)
_DATE = re.compile(r"[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?")
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})


def scalar(value: object) -> str:
    """One scalar as YAML: strings plain when that cannot be read as anything else, else single-quoted."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    if text[:1].isalpha() and _PLAIN.fullmatch(text):
        return text if text.lower() not in _RESERVED else f"'{text}'"
    if (
        _PLAIN.fullmatch(text)
        and not _NUMBER.fullmatch(text)
        and not _DATE.match(text)
        and text.lower() not in _RESERVED
    ):
        return text
    return "'" + text.replace("'", "''") + "'"


def flow(value: object) -> str:
    """A value in flow style: {k: v, ...} and [a, b]."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def to_yaml(
    data: Mapping[str, Any],
    flow_values: frozenset[str] = frozenset(),
    flow_items: frozenset[str] = frozenset(),
    header: str = "",
) -> str:
    """Block-style YAML; values under flow_values keys and items of flow_items lists go on one line each."""
    out: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    _mapping(data, 0, out, flow_values, flow_items)
    return "\n".join(out) + "\n"


def config_yaml(config: Mapping[str, Any], header: str = "") -> str:
    """A generated queue config as queues.yaml text."""
    return to_yaml(config, CONFIG_FLOW_VALUES, frozenset(), header)


def workload_yaml(workload: Mapping[str, Any], header: str = "") -> str:
    """A generated workload as yk workload YAML text."""
    return to_yaml(workload, WORKLOAD_FLOW_VALUES, WORKLOAD_FLOW_ITEMS, header)


def _mapping(
    data: Mapping[str, Any], indent: int, out: list[str], flow_values: frozenset[str], flow_items: frozenset[str]
) -> None:
    pad = " " * indent
    for key, value in data.items():
        name = scalar(key)
        if isinstance(value, Mapping):
            if key in flow_values or not value:
                out.append(f"{pad}{name}: {flow(value)}")
            else:
                out.append(f"{pad}{name}:")
                _mapping(value, indent + 2, out, flow_values, flow_items)
        elif isinstance(value, (list, tuple)):
            if key in flow_values or not value:
                out.append(f"{pad}{name}: {flow(value)}")
            else:
                out.append(f"{pad}{name}:")
                _sequence(value, indent + 2, out, key in flow_items, flow_values, flow_items)
        else:
            out.append(f"{pad}{name}: {scalar(value)}")


def _sequence(
    items: Sequence[Any],
    indent: int,
    out: list[str],
    one_line: bool,
    flow_values: frozenset[str],
    flow_items: frozenset[str],
) -> None:
    pad = " " * indent
    if one_line:
        out.extend(f"{pad}- {flow(item)}" for item in items)
        return
    for item in items:
        if isinstance(item, Mapping) and item:
            start = len(out)
            _mapping(item, indent + 2, out, flow_values, flow_items)
            out[start] = f"{pad}- {out[start][indent + 2 :]}"
        else:
            out.append(f"{pad}- {flow(item)}")
