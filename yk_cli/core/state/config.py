"""The scheduler config a state dump holds (Go field names) as the queues.yaml document YuniKorn reads it from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yk_cli.core.diagnostics import Path

MAP_FIELDS = frozenset({"Properties", "Guaranteed", "Max", "MaxResources", "ResourceWeights"})
"""Go map fields: their keys are the user's own (property names, resource names), kept as they are."""
POINTER_BOOLS = frozenset({"Enabled", "QuotaPreemptionEnabled"})
"""Go *bool fields (PartitionPreemptionConfig): written when set, false included (`Enabled: false` turns
preemption off; left out, it is on)."""
KEPT_TOP = ("Partitions",)
"""SchedulerConfig fields written to queues.yaml: `Checksum` is the core's own, not a config key."""


def config_document(config: Mapping[str, Any], pointer: str) -> tuple[dict[str, Any], dict[Path, str]]:
    """The queues.yaml document of a dump's `config` (a Go SchedulerConfig marshalled to JSON), and the JSON pointer
    into the dump of each of its document paths.

    go-yaml writes a Go field under its lower-cased name (`SubmitACL` is `submitacl`), as YuniKorn reads
    queues.yaml; empty values are left out, as the core's `omitempty` does when it writes a config."""
    pointers: dict[Path, str] = {}
    document: dict[str, Any] = {}
    for key in KEPT_TOP:
        if key in config:
            value = _value(config[key], f"{pointer}/{key}", (key.lower(),), pointers, is_map=False)
            if value is not None:
                document[key.lower()] = value
    pointers[()] = pointer
    return document, pointers


def _value(value: Any, pointer: str, path: Path, pointers: dict[Path, str], is_map: bool) -> Any:
    """One value converted (None: empty, left out), its pointer recorded. `is_map`: the value is a Go map (its
    keys and values are the user's, kept as they are)."""
    pointers[path] = pointer
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key) if is_map else str(key).lower()
            where = f"{pointer}/{_escape(str(key))}"
            if is_map:
                pointers[(*path, name)] = where
                out[name] = item
                continue
            if key in POINTER_BOOLS and isinstance(item, bool):
                pointers[(*path, name)] = where
                out[name] = item
                continue
            converted = _value(item, where, (*path, name), pointers, key in MAP_FIELDS)
            if converted is not None:
                out[name] = converted
        return out or None
    if isinstance(value, list):
        items = [_value(item, f"{pointer}/{i}", (*path, i), pointers, False) for i, item in enumerate(value)]
        return [item if item is not None else {} for item in items] or None
    if value is None or value is False or value == "" or (value == 0 and not isinstance(value, bool)):
        return None
    return value


def _escape(key: str) -> str:
    """A JSON pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def pointer_of(pointers: Mapping[Path, str], path: Path) -> str:
    """The JSON pointer of a document path, or of its nearest ancestor that has one."""
    for end in range(len(path), -1, -1):
        found = pointers.get(tuple(path[:end]))
        if found is not None:
            return found
    return ""
