"""The resolved queue tree of a partition: every queue with its effective settings, as YuniKorn builds it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import SupportsInt, cast

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import ChildTemplate, PartitionConfig, QueueConfig
from yk_cli.core.config.properties import QueueProperties, Setting
from yk_cli.core.resources import QuantityError, Resource, parse_resource


@dataclass(eq=False)
class Queue:
    """One queue of the resolved tree: structure, limits and the settings YuniKorn applies to it."""

    name: str
    """Lower-cased name, as YuniKorn stores it."""
    path: str
    """Full dotted path from root, e.g. root.tenants.tenant-a."""
    parent: Queue | None
    is_leaf: bool
    dynamic: bool
    properties: QueueProperties
    config: QueueConfig | None = None
    """The configured queue (None for a dynamic one)."""
    guaranteed: Resource | None = None
    """None when unset or all zero (YuniKorn keeps only maps strictly greater than zero)."""
    max: Resource | None = None
    maxapplications: int = 0
    template: ChildTemplate | None = None
    """The child template dynamic leaves below this queue receive (a dynamic parent copies its parent's)."""
    template_origin: str = ""
    children: list[Queue] = field(default_factory=list)

    def setting(self, key: str) -> Setting:
        """The effective setting of a known property with its provenance."""
        return self.properties.setting(key)

    @property
    def sort_policy(self) -> str:
        """Application sort policy: the property on a leaf; parents always sort their children fair."""
        return str(self.setting(props.SORT_POLICY).value) if self.is_leaf else "fair"

    @property
    def sort_priority(self) -> bool:
        """application.sort.priority: whether priority sorts children (parent) or applications (leaf) first."""
        return bool(self.setting(props.SORT_PRIORITY).value)

    @property
    def priority_fence(self) -> bool:
        """priority.policy is fence."""
        return self.setting(props.PRIORITY_POLICY).value == "fence"

    @property
    def priority_offset(self) -> int:
        """priority.offset (int32)."""
        return int(cast(SupportsInt, self.setting(props.PRIORITY_OFFSET).value))

    @property
    def preemption_policy(self) -> str:
        """default, fence or disabled."""
        return str(self.setting(props.PREEMPTION_POLICY).value)

    @property
    def preemption_delay(self) -> int:
        """Nanoseconds an ask must wait before it may preempt (applied on leaves only; 30s elsewhere)."""
        if not self.is_leaf:
            return 30 * props.NANOS_PER_SECOND
        return int(cast(SupportsInt, self.setting(props.PREEMPTION_DELAY).value))

    def ancestors(self) -> Iterator[Queue]:
        """This queue, then its parent, up to root."""
        queue: Queue | None = self
        while queue is not None:
            yield queue
            queue = queue.parent


@dataclass
class QueueTree:
    """All queues of a partition by path, in depth-first configuration order."""

    root: Queue
    queues: dict[str, Queue] = field(default_factory=dict)

    def get(self, path: str) -> Queue | None:
        """A queue by its full path, matched case-insensitively like YuniKorn."""
        return self.queues.get(path.lower())

    def leaves(self) -> list[Queue]:
        """Every leaf queue in depth-first order."""
        return [q for q in self.queues.values() if q.is_leaf]

    def add_dynamic(self, path: str) -> Queue:
        """Create the missing queues of a path as dynamic queues (a placement rule with create: true).

        Dynamic parents get no properties and copy their parent's child template; the dynamic leaf gets only
        the template's properties, maxapplications, guaranteed and max.
        """
        parts = path.lower().split(".")
        queue = self.root
        for depth, name in enumerate(parts[1:], start=1):
            full = ".".join(parts[: depth + 1])
            existing = self.queues.get(full)
            if existing is not None:
                queue = existing
                continue
            leaf = depth == len(parts) - 1
            template = queue.template
            child = Queue(
                name=name,
                path=full,
                parent=queue,
                is_leaf=leaf,
                dynamic=True,
                properties=props.from_template(template.properties, queue.template_origin)
                if leaf and template is not None
                else QueueProperties(),
                template=None if leaf else template,
                template_origin="" if leaf else queue.template_origin,
            )
            if leaf and template is not None:
                child.guaranteed = _limit(template.resources.guaranteed)
                child.max = _limit(template.resources.max)
                child.maxapplications = template.maxapplications
            queue.children.append(child)
            self.queues[full] = child
            queue = child
        return queue


def _limit(values: Mapping[str, str]) -> Resource | None:
    """A guaranteed/max map as YuniKorn keeps it: None when unparsable, empty or all zero."""
    try:
        parsed = parse_resource(values)
    except QuantityError:
        return None
    if not any(v > 0 for v in parsed.values()):
        return None
    return parsed


def template_is_empty(template: ChildTemplate) -> bool:
    """YuniKorn's isChildTemplateEmpty: no maxapplications and no entry with both key and value (then no template)."""
    maps = (template.properties, template.resources.guaranteed, template.resources.max)
    return template.maxapplications == 0 and not any(k and v for m in maps for k, v in m.items())


def build_queue_tree(partition: PartitionConfig) -> QueueTree:
    """Resolve a partition's configured queues: names, leaf/parent, inherited properties, limits, templates."""
    root_config = partition.root
    root = _build(root_config, None, "root")
    tree = QueueTree(root=root)
    stack = [root]
    order: list[Queue] = []
    while stack:
        queue = stack.pop()
        order.append(queue)
        stack.extend(reversed(queue.children))
    tree.queues = {q.path: q for q in order}
    return tree


def _build(config: QueueConfig, parent: Queue | None, path: str) -> Queue:
    is_leaf = not config.is_parent and parent is not None
    queue = Queue(
        name=path.rsplit(".", 1)[-1],
        path=path,
        parent=parent,
        is_leaf=is_leaf,
        dynamic=False,
        properties=props.inherit(parent.properties if parent else None, config.properties, path),
        config=config,
        guaranteed=None if parent is None else _limit(config.resources.guaranteed),
        max=None if parent is None else _limit(config.resources.max),
        maxapplications=config.maxapplications,
    )
    if not is_leaf:
        if config.childtemplate.present and not template_is_empty(config.childtemplate):
            queue.template, queue.template_origin = config.childtemplate, path
        elif parent is not None:
            queue.template, queue.template_origin = parent.template, parent.template_origin
    seen: set[str] = set()
    for child in config.queues:
        name = child.name.lower()
        if not name or name in seen:
            continue  # invalid or duplicate names are validation errors; keep the first
        seen.add(name)
        queue.children.append(_build(child, queue, f"{path}.{name}"))
    return queue
