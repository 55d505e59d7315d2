"""Problems for what a config file holds besides queue configs: other Kubernetes objects, empty input."""

from __future__ import annotations

from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.lint.loader_rules import NO_QUEUE_CONFIG, NOT_A_QUEUE_CONFIG, SKIPPED_DOCUMENT
from yk_cli.core.yamldoc import Node

EXPECTED = (
    "yk reads a queue config (partitions: ...), a ConfigMap holding queues.yaml, a List of those, "
    "or Helm values with yunikornDefaults"
)
DEFAULT_CONFIG = (
    "YuniKorn uses its built-in default queue config (partition default, root with submitacl '*', "
    "a tag rule on namespace with create: true)"
)


def _text(node: Node | None) -> str:
    return node.text if node is not None and node.kind == "scalar" and node.tag != "null" else ""


def describe_object(node: Node) -> str:
    """A Kubernetes object as `a Deployment (apps/v1) "web"`."""
    kind = _text(node.get("kind")) or "object without kind"
    api = _text(node.get("apiVersion"))
    meta = node.get("metadata")
    name = _text(meta.get("name")) if meta is not None and meta.kind == "map" else ""
    return f"a Kubernetes {kind}" + (f" ({api})" if api else "") + (f' "{name}"' if name else "")


def _key_span(node: Node, *keys: str) -> Span:
    for key in keys:
        for k, _ in node.pairs:
            if k.kind == "scalar" and k.text == key:
                return k.span
    return node.span


def kubernetes_object(node: Node, alone: bool) -> Problem:
    """A Kubernetes object that is neither a ConfigMap nor a List: an error when the file holds nothing else."""
    what = describe_object(node)
    if alone:
        return Problem(
            rule=NOT_A_QUEUE_CONFIG.id,
            level=Level.ERROR,
            message=f"{what} is not a queue config: {EXPECTED}; nothing in this file was checked",
            hint="pass the queues.yaml file or the yunikorn-configs ConfigMap instead.",
            span=_key_span(node, "kind", "apiVersion"),
        )
    return Problem(
        rule=SKIPPED_DOCUMENT.id,
        level=Level.WARNING,
        message=f"{what} is not a queue config: yk skipped it ({EXPECTED})",
        hint="keep the queue config in a file of its own, or ignore this warning.",
        span=_key_span(node, "kind", "apiVersion"),
    )


def list_without_config(node: Node, kinds: list[str]) -> Problem:
    """A Kubernetes List with no ConfigMap and no queue config among its items."""
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    held = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no items"
    return Problem(
        rule=NOT_A_QUEUE_CONFIG.id,
        level=Level.ERROR,
        message=f"a Kubernetes List ({held}) holds no queue config: {EXPECTED}; nothing in this file was checked",
        hint="pass the queues.yaml file or the yunikorn-configs ConfigMap instead.",
        span=_key_span(node, "kind"),
    )


def configmap_without_key(node: Node, name: str, key: str, yunikorn: bool) -> Problem:
    """A ConfigMap with no queue config key."""
    if yunikorn:
        message = f"ConfigMap {name} has no {key} key: {DEFAULT_CONFIG}"
    else:
        message = (
            f"ConfigMap {name} has no {key} key: nothing in this file was checked "
            "(YuniKorn reads its queue config from the yunikorn-configs and yunikorn-defaults ConfigMaps)"
        )
    return Problem(
        rule=NO_QUEUE_CONFIG.id,
        level=Level.WARNING,
        message=message,
        hint=f"add a `{key}: |` entry under data, or pass --policy-group if your config uses another key.",
        span=_key_span(node, "data", "kind"),
    )


def helm_without_key(node: Node, key: str) -> Problem:
    """Helm values whose yunikornDefaults has no queue config key."""
    return Problem(
        rule=NO_QUEUE_CONFIG.id,
        level=Level.WARNING,
        message=f"Helm values without yunikornDefaults {key}: nothing in this file was checked (the chart's "
        f"yunikorn-defaults ConfigMap gets no queue config; without one in yunikorn-configs, {DEFAULT_CONFIG})",
        hint=f'add `"{key}": |` under yunikornDefaults, or check the yunikorn-configs ConfigMap instead.',
        span=_key_span(node, "yunikornDefaults"),
    )


def empty_config(where: str, span: Span) -> Problem:
    """An empty queue config text: YuniKorn runs its built-in default."""
    return Problem(
        rule=NO_QUEUE_CONFIG.id,
        level=Level.WARNING,
        message=f"{where} is empty: {DEFAULT_CONFIG}",
        hint="write the queue config, or delete the file if the default is what you want.",
        span=span,
    )
