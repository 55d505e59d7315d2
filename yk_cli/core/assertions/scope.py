"""What a static proof quantifies over: the queues of a partition, the dynamic ones placement may create, lookups."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from yk_cli.core.assertions.model import PriorityRange
from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Path
from yk_cli.core.ordering.priority import setting_config_path
from yk_cli.core.workload.checks import may_create_queues

DYNAMIC_NAME = "*"
"""The name of the stand-in for every dynamic leaf placement rules may create under a parent."""


@dataclass(slots=True)
class Scope:
    """The partition, its queue tree with a dynamic stand-in under every parent (when queues may be created), and
    the pod priority range."""

    partition: PartitionConfig
    tree: QueueTree
    priorities: PriorityRange
    creates: bool
    """Some placement rule has create: true, so dynamic leaves may appear under any parent."""

    @classmethod
    def of(cls, partition: PartitionConfig, priorities: PriorityRange) -> Scope:
        """The scope of a partition: dynamic stand-ins are added under every configured parent when rules create."""
        tree = build_queue_tree(partition)
        creates = may_create_queues(partition)
        if creates:
            for queue in [q for q in tree.queues.values() if not q.is_leaf]:
                tree.add_dynamic(f"{queue.path}.{DYNAMIC_NAME}")
        return cls(partition, tree, priorities, creates)

    def find(self, path: str) -> Queue | None:
        """A configured queue by path (case-insensitive, as YuniKorn); never a dynamic stand-in."""
        queue = self.tree.get(path.strip())
        return queue if queue is not None and not is_stand_in(queue) else None

    def unknown(self, path: str) -> str:
        """Why a queue named in the policy is not found, with the closest configured path."""
        known = [p for p, q in self.tree.queues.items() if not is_stand_in(q)]
        close = difflib.get_close_matches(path.lower(), known, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"queue {path} is not in the queue config{hint}"

    def leaves(self, queue: Queue) -> list[Queue]:
        """The leaves at or below a queue in configuration order, dynamic stand-ins included."""
        if queue.is_leaf:
            return [queue]
        out: list[Queue] = []
        stack = [queue]
        while stack:
            current = stack.pop()
            if current.is_leaf:
                out.append(current)
            stack.extend(reversed(current.children))
        return out


def is_stand_in(queue: Queue) -> bool:
    """Whether the queue is the dynamic stand-in of a parent."""
    return queue.dynamic and queue.name == DYNAMIC_NAME


def shown(queue: Queue) -> str:
    """A queue as proofs name it (a stand-in says what it stands for)."""
    if is_stand_in(queue) and queue.parent is not None:
        return f"{queue.path} (any queue placement rules may create below {queue.parent.path})"
    return queue.path


def queue_line(queue: Queue) -> Path | None:
    """The config text that defines a queue: its name (a stand-in: its parent's child template, else the parent)."""
    if queue.config is not None:
        return (*queue.config.path, "name") if not queue.config.inserted else queue.config.path
    parent = queue.parent
    if parent is None:
        return None
    if parent.template is not None:
        owner = next((q for q in parent.ancestors() if q.path == parent.template_origin), None)
        if owner is not None and owner.config is not None:
            return owner.config.childtemplate.path
    while parent is not None and parent.config is None:
        parent = parent.parent
    return (*parent.config.path, "name") if parent is not None and parent.config is not None else None


def property_line(queue: Queue, key: str) -> Path | None:
    """The config text of a queue property in effect (None for a default)."""
    path = setting_config_path(queue, queue.setting(key))
    return path if path else None


def is_under(queue: Queue, ancestor: Queue) -> bool:
    """Whether queue is ancestor or below it."""
    return any(q is ancestor for q in queue.ancestors())
