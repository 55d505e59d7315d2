"""Indented JSON text, byte for byte what `json.dumps(value, indent=2, ensure_ascii=False)` writes, made by orjson.

The standard library's indenting encoder is pure Python (about 20x slower than orjson on yk's traces). orjson's
OPT_INDENT_2 text is the same for the values yk writes, except: floats below 1e-4 (`0.00001` and `1e-7` where
Python writes `1e-05` and `1e-07`), NaN and infinities (`null` where Python writes `NaN`, `Infinity`), keys that
are not strings and integers beyond 64 bits (orjson refuses them), and subclasses, dataclasses and dates (refused
here so that the standard library decides, as it always did). So orjson's bytes are kept only when they hold no
small-float text and, if they hold a `null`, read back to the value itself; anything else is written by the
standard library. Without orjson installed, or with YK_JSON=stdlib in the environment, the standard library writes
everything.
"""

from __future__ import annotations

import json
import marshal
import os
import re
from collections.abc import Sequence
from types import ModuleType
from typing import Any


def _orjson() -> ModuleType | None:
    if os.environ.get("YK_JSON") == "stdlib":
        return None
    try:
        import orjson
    except ImportError:
        return None
    return orjson


_LATER: Any = object()

orjson: Any = _LATER
"""The fast encoder, or None for the standard library alone (tests set it); looked up on first use (start-up time)."""

_NON_FINITE = (b"f\x03nan", b"f\x03inf", b"f\x04-inf")
"""How marshal's version 1 writes NaN, infinity and minus infinity (a length byte, then the float's repr)."""

_SMALL_FLOAT = re.compile(rb"e-[1-9](?:[,\n]|\Z)")
"""orjson's `1e-7` for Python's `1e-07` (its `0.00001` for `1e-05` is found by a plain search for `0.0000`)."""


def _fast(value: Any) -> bytes | None:
    """orjson's indented text of value when it is the standard library's, else None."""
    global orjson
    if orjson is _LATER:
        orjson = _orjson()
    fast = orjson
    if fast is None:
        return None
    try:
        # Version 1 accepts only the exact built-in types (no subclass, enum, dataclass or date, which orjson
        # writes and the standard library refuses or writes otherwise) and writes floats as their repr.
        plain = marshal.dumps(value, 1)
        out: bytes = fast.dumps(value, option=fast.OPT_INDENT_2)
    except (ValueError, TypeError):  # orjson.JSONEncodeError is a TypeError: a non-str key, an int past 64 bits
        return None
    if any(bad in plain for bad in _NON_FINITE) or b"0.0000" in out or _SMALL_FLOAT.search(out) is not None:
        return None  # false alarms (the same bytes inside a string) only cost speed
    return out


def dumps(value: Any) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`."""
    out = _fast(value)
    if out is None:
        return json.dumps(value, indent=2, ensure_ascii=False)
    return out.decode()


def document(value: Any) -> str:
    """A whole JSON report: the indented text and a final newline."""
    return dumps(value) + "\n"


def nested(value: Any, depth: int) -> str:
    """The indented text of value as it stands `depth` spaces deep in a larger document (depth even): every line
    but the first indented by `depth` more spaces."""
    if depth == 0:
        return dumps(value)
    levels = depth // 2
    for _ in range(levels):
        value = [value]
    return _inside(dumps(value), levels)


def items(values: Sequence[Any], depth: int) -> str:
    """The elements of an array `depth` spaces deep (depth even, at least 2), as `nested` writes each, joined by
    `,\n` and `depth` spaces: the text between `[\n` + `depth` spaces and `\n]`, from one encoder call."""
    if not values:
        return ""
    levels = depth // 2
    value: Any = values if isinstance(values, list) else list(values)
    for _ in range(levels - 1):
        value = [value]
    return _inside(dumps(value), levels)


def _inside(text: str, levels: int) -> str:
    """What stands inside `levels` brackets, each the only element of the one around it: `[\n  [\n    X\n  ]\n]`."""
    return text[levels * levels + 3 * levels : -(levels * levels + levels)]
