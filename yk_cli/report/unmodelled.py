"""The not-modelled notice shared by simulate, explain and priorities: text lines and JSON objects."""

from __future__ import annotations

from collections.abc import Iterable

from yk_cli.core.sim.unmodelled import ASSUMED, Unmodelled


def unmodelled_lines(items: Iterable[Unmodelled]) -> list[str]:
    """`Assumed: ...` (what a state dump could not say) and `Not modelled: ...` lines, followed by a blank line
    when there are any."""
    lines = [f"{unmodelled_label(u)}: {u.message}" for u in items]
    return [*lines, ""] if lines else []


def unmodelled_label(item: Unmodelled) -> str:
    """`Assumed` for what a state dump could not say, else `Not modelled`."""
    return "Assumed" if item.feature == ASSUMED else "Not modelled"


def unmodelled_dicts(items: Iterable[Unmodelled]) -> list[dict[str, object]]:
    """The JSON form: feature, message, and the queues and pods concerned."""
    return [{"feature": u.feature, "message": u.message, "queues": list(u.queues), "pods": list(u.pods)} for u in items]
