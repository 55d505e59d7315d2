"""The not-modelled notice shared by simulate, explain and priorities: text lines and JSON objects."""

from __future__ import annotations

from collections.abc import Iterable

from yk_cli.core.sim.unmodelled import Unmodelled


def unmodelled_lines(items: Iterable[Unmodelled]) -> list[str]:
    """`Not modelled: ...` lines, followed by a blank line when there are any."""
    lines = [f"Not modelled: {u.message}" for u in items]
    return [*lines, ""] if lines else []


def unmodelled_dicts(items: Iterable[Unmodelled]) -> list[dict[str, object]]:
    """The JSON form: feature, message, and the queues and pods concerned."""
    return [{"feature": u.feature, "message": u.message, "queues": list(u.queues), "pods": list(u.pods)} for u in items]
