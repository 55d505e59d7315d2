"""Reading a state dump's JSON values by their field names: typed, with the JSON pointer of what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DUMP_KEYS = ("partitions", "applications", "nodes", "queues", "config")
"""Top-level keys of `/debug/fullstatedump` (AggregatedStateInfo) yk reads; a JSON object with none is no dump."""


class StateError(ValueError):
    """The dump cannot be read: a value of the wrong type at a JSON pointer (the message says which)."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer


def escape(key: str) -> str:
    """A JSON pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def kind(value: Any) -> str:
    """A JSON value's type in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def obj(value: Any, pointer: str) -> Mapping[str, Any]:
    """An object (absent: empty)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise StateError(pointer, f"expected an object, found {kind(value)}")
    return value


def items(value: Any, pointer: str) -> list[tuple[str, Mapping[str, Any]]]:
    """A list of objects with each one's pointer (absent: empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise StateError(pointer, f"expected a list, found {kind(value)}")
    return [(f"{pointer}/{i}", obj(item, f"{pointer}/{i}")) for i, item in enumerate(value)]


def text(parent: Mapping[str, Any], key: str, pointer: str, default: str = "") -> str:
    """A string field."""
    value = parent.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise StateError(f"{pointer}/{escape(key)}", f"expected a string, found {kind(value)}")
    return value


def integer(parent: Mapping[str, Any], key: str, pointer: str, default: int | None = None) -> int | None:
    """An integer field (Go int64; the core writes `priority` as a string of digits)."""
    value = parent.get(key)
    if value is None:
        return default
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.lstrip("-").isdigit():
            return int(stripped)
    elif isinstance(value, int) and not isinstance(value, bool):
        return value
    raise StateError(f"{pointer}/{escape(key)}", f"expected an integer, found {kind(value)} {value!r}")


def flag(parent: Mapping[str, Any], key: str, pointer: str, default: bool = False) -> bool:
    """A boolean field."""
    value = parent.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise StateError(f"{pointer}/{escape(key)}", f"expected true or false, found {kind(value)}")
    return value


def strings(parent: Mapping[str, Any], key: str, pointer: str) -> list[str]:
    """A list of strings."""
    value = parent.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise StateError(f"{pointer}/{escape(key)}", f"expected a list of strings, found {kind(value)}")
    return list(value)


def string_map(parent: Mapping[str, Any], key: str, pointer: str) -> dict[str, str]:
    """An object of strings (allocation tags, node attributes)."""
    value = obj(parent.get(key), f"{pointer}/{escape(key)}")
    out: dict[str, str] = {}
    for name, item in value.items():
        if not isinstance(item, str):
            raise StateError(f"{pointer}/{escape(key)}/{escape(name)}", f"expected a string, found {kind(item)}")
        out[name] = item
    return out


def resource(parent: Mapping[str, Any], key: str, pointer: str) -> dict[str, int]:
    """A resource in the core's units (`{"memory": bytes, "vcore": millicores, ...}`)."""
    value = obj(parent.get(key), f"{pointer}/{escape(key)}")
    out: dict[str, int] = {}
    for name, amount in value.items():
        if not isinstance(amount, int) or isinstance(amount, bool):
            where = f"{pointer}/{escape(key)}/{escape(name)}"
            raise StateError(where, f"expected an integer quantity, found {kind(amount)}")
        out[name] = amount
    return out
