"""Go's `regexp` (RE2 syntax) for placement filters: compiled by the real RE2 engine, as YuniKorn compiles them."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

GO_ONLY_REJECTS = ("\\C",)
"""Escapes C++ RE2 accepts but Go's regexp/syntax refuses (`\\C`, any byte: `invalid escape sequence`)."""


@lru_cache(maxsize=1)
def _engine() -> tuple[Any, Any]:
    """The re2 module and its options, imported on the first pattern (start-up time: most configs have none)."""
    import re2

    options = re2.Options()
    options.log_errors = False  # a bad pattern is reported by yk, not logged by RE2 on stderr
    return re2, options


class GoRegexp(Protocol):
    """A compiled pattern: `search` is Go's `MatchString` (unanchored, leftmost-first)."""

    def search(self, text: str) -> object | None:
        """A match anywhere in the text, or None."""
        ...


@lru_cache(maxsize=512)
def go_compile(pattern: str) -> GoRegexp | None:
    """The pattern as Go's `regexp.Compile` builds it, or None where Go returns an error."""
    if _go_only_reject(pattern):
        return None
    re2, options = _engine()
    try:
        compiled: GoRegexp = re2.compile(pattern, options)
    except re2.error:
        return None
    return compiled


def go_regexp_compiles(pattern: str) -> bool:
    """Whether Go's `regexp.Compile` accepts the pattern."""
    return go_compile(pattern) is not None


def go_compile_error(pattern: str) -> str | None:
    """Why Go's `regexp.Compile` refuses the pattern (RE2's words), or None when it compiles."""
    if go_compile(pattern) is not None:
        return None
    if _go_only_reject(pattern):
        return "invalid escape sequence: \\C"
    re2, options = _engine()
    try:
        re2.compile(pattern, options)
    except re2.error as err:
        reason = err.args[0] if err.args else err
        return reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
    return None  # pragma: no cover


def _go_only_reject(pattern: str) -> bool:
    """Whether an escape outside `\\Q...\\E` is one Go refuses although C++ RE2 takes it."""
    i = 0
    while i < len(pattern) - 1:
        if pattern[i] != "\\":
            i += 1
            continue
        pair = pattern[i : i + 2]
        if pair == "\\Q":
            end = pattern.find("\\E", i + 2)
            if end < 0:
                return False
            i = end + 2
            continue
        if pair in GO_ONLY_REJECTS:
            return True
        i += 2
    return False
