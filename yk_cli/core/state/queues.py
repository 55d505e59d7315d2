"""The queues a state dump shows that the config lacks, made in yk's tree as the core made them: from their
parent's child template, then with the limits and properties the dump shows (the core keeps what a dynamic queue
was created with; a template changed since does not change it)."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.config import properties as props
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.resources import Resource, format_resource
from yk_cli.core.state.convert import DynamicQueue


def restore_dynamic_queues(tree: QueueTree, queues: Sequence[DynamicQueue], file: str) -> list[str]:
    """Create each dynamic queue of the dump in the tree (parents first) and give it the dump's max, guaranteed and
    properties where they differ from its template's; one note per difference, and per queue that cannot be made
    (its parent is a leaf in the config now, or it is a leaf where the config has a parent)."""
    notes: list[str] = []
    for found in queues:
        path = found.path.lower()
        existing = tree.get(path)
        if existing is None:
            parent = tree.get(path.rsplit(".", 1)[0]) if "." in path else None
            if parent is not None and parent.is_leaf:
                notes.append(f"dynamic queue {path} cannot be made: its parent is a leaf queue in the config")
                continue
            existing = tree.add_dynamic(path)
        if not existing.dynamic or not existing.is_leaf or not found.is_leaf:
            continue
        where = f"{file}#{found.pointer}"
        if found.max is not None and _limit(found.max) != existing.max:
            notes.append(_differs(path, "max", found.max, existing.max, where))
            existing.max = _limit(found.max)
        if found.guaranteed is not None and _limit(found.guaranteed) != existing.guaranteed:
            notes.append(_differs(path, "guaranteed", found.guaranteed, existing.guaranteed, where))
            existing.guaranteed = _limit(found.guaranteed)
        template = {key: value for key, (value, _, _) in existing.properties.entries.items()}
        shown = {key: value for key, value in found.properties.items() if key and value}
        if shown != template:
            notes.append(
                f"dynamic queue {path}: the core created it with properties {_words(shown)}, its parent's child "
                f"template gives {_words(template)} now: yk uses the dump's ({where})"
            )
            origin = existing.parent.path if existing.parent is not None else ""
            existing.properties = props.from_template(shown, origin)  # the template as it was then
    return notes


def _limit(values: Resource) -> Resource | None:
    """A resource as the tree keeps it: None when empty or all zero."""
    kept = {key: value for key, value in values.items() if value}
    return kept or None


def _differs(path: str, what: str, shown: Resource, template: Resource | None, where: str) -> str:
    now = format_resource(template) if template else "none"
    return (
        f"dynamic queue {path}: the core created it with {what} {format_resource(shown)}, its parent's child "
        f"template gives {now} now: yk uses the dump's ({where})"
    )


def _words(properties: dict[str, str]) -> str:
    """Properties as `{key: value, ...}` ('none' when empty)."""
    return "{" + ", ".join(f"{k}: {v}" for k, v in sorted(properties.items())) + "}" if properties else "none"
