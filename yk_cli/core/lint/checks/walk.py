"""Shared walks for the warning checks: partitions with their resolved trees, and every property as written."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from yk_cli.core.config.model import PartitionConfig, QueueConfig, SchedulerConfig
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Path


@dataclass(frozen=True, slots=True)
class PropertyEntry:
    """One property as written in the file: on a configured queue or in its child template."""

    partition: PartitionConfig
    queue: str
    """Dotted path of the queue that carries it, e.g. root.tenants."""
    config: QueueConfig
    key: str
    text: str
    path: Path
    """Document path of the property: the queue's (or its childtemplate's) properties plus the key."""
    template: bool


_last_trees: tuple[SchedulerConfig, list[tuple[PartitionConfig, QueueTree]]] | None = None


def partition_trees(config: SchedulerConfig) -> Iterator[tuple[PartitionConfig, QueueTree]]:
    """Every partition that has a queue list, with its resolved queue tree (built once per config; read-only)."""
    global _last_trees
    if _last_trees is None or _last_trees[0] is not config:
        built = [(p, build_queue_tree(p)) for p in config.partitions if p.queues is not None]
        _last_trees = (config, built)
    yield from _last_trees[1]


def configured_queues(partition: PartitionConfig) -> Iterator[tuple[str, QueueConfig]]:
    """Every configured queue of a partition with its dotted path, depth first in file order (root first)."""
    stack: list[tuple[str, QueueConfig]] = [("root", partition.root)]
    while stack:
        path, queue = stack.pop()
        yield path, queue
        children = [(f"{path}.{child.name.lower()}", child) for child in queue.queues if child.name]
        stack.extend(reversed(children))


def property_entries(config: SchedulerConfig) -> Iterator[PropertyEntry]:
    """Every property written on a configured queue or a child template, in file order."""
    for partition in config.partitions:
        if partition.queues is None:
            continue
        for path, queue in configured_queues(partition):
            for key, text in queue.properties.items():
                yield PropertyEntry(partition, path, queue, key, text, (*queue.path, "properties", key), False)
            template = queue.childtemplate
            if not queue.is_parent and path != "root":
                continue  # a configured leaf never reads its childtemplate (childtemplate-on-leaf)
            for key, text in template.properties.items():
                yield PropertyEntry(partition, path, queue, key, text, (*template.path, "properties", key), True)


def property_path(queue: Queue, key: str) -> Path:
    """Document path of a property set on a configured queue."""
    assert queue.config is not None
    return (*queue.config.path, "properties", key)


def subtree(queue: Queue) -> Iterator[Queue]:
    """A queue and all queues below it, depth first."""
    stack = [queue]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def describe_queues(paths: list[str], limit: int = 4) -> str:
    """A short list of queue paths: all of them when few, else the first ones and a count."""
    if len(paths) <= limit:
        return ", ".join(paths)
    return f"{', '.join(paths[:limit])} and {len(paths) - limit} more"
