"""The queue configuration as YuniKorn's config structs define it: the schema and frozen typed values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yk_cli.core.config.decode import BOOL, FLOAT64, STRING, UINT64, Decoder, ListOf, MapOf, Struct
from yk_cli.core.diagnostics import Path, Problem
from yk_cli.core.yamldoc import Node

RESOURCES = Struct("configs.Resources", {"guaranteed": MapOf(STRING), "max": MapOf(STRING)})
CHILD_TEMPLATE = Struct(
    "configs.ChildTemplate",
    {"maxapplications": UINT64, "properties": MapOf(STRING), "resources": RESOURCES},
)
LIMIT = Struct(
    "configs.Limit",
    {
        "limit": STRING,
        "users": ListOf(STRING),
        "groups": ListOf(STRING),
        "maxresources": MapOf(STRING),
        "maxapplications": UINT64,
    },
)
FILTER = Struct("configs.Filter", {"type": STRING, "users": ListOf(STRING), "groups": ListOf(STRING)})
PLACEMENT_RULE = Struct("configs.PlacementRule")
PLACEMENT_RULE.fields.update(
    {"name": STRING, "create": BOOL, "filter": FILTER, "parent": PLACEMENT_RULE, "value": STRING}
)
QUEUE = Struct("configs.QueueConfig")
QUEUE.fields.update(
    {
        "name": STRING,
        "parent": BOOL,
        "resources": RESOURCES,
        "maxapplications": UINT64,
        "properties": MapOf(STRING),
        "adminacl": STRING,
        "submitacl": STRING,
        "childtemplate": CHILD_TEMPLATE,
        "queues": ListOf(QUEUE),
        "limits": ListOf(LIMIT),
    }
)
NODE_SORT = Struct("configs.NodeSortingPolicy", {"type": STRING, "resourceweights": MapOf(FLOAT64)})
PREEMPTION = Struct("configs.PartitionPreemptionConfig", {"enabled": BOOL, "quotapreemptionenabled": BOOL})
RESOLVER = Struct("configs.UserGroupResolver", {"type": STRING})
PARTITION = Struct(
    "configs.PartitionConfig",
    {
        "name": STRING,
        "queues": ListOf(QUEUE),
        "placementrules": ListOf(PLACEMENT_RULE),
        "limits": ListOf(LIMIT),
        "preemption": PREEMPTION,
        "nodesortpolicy": NODE_SORT,
        "usergroupresolver": RESOLVER,
    },
)
SCHEDULER = Struct("configs.SchedulerConfig", {"partitions": ListOf(PARTITION), "checksum": STRING})


@dataclass(frozen=True, slots=True)
class Resources:
    """Guaranteed and max resources as written: resource name -> quantity text."""

    guaranteed: dict[str, str] = field(default_factory=dict)
    max: dict[str, str] = field(default_factory=dict)
    path: Path = ()
    guaranteed_set: bool = False
    """The `guaranteed` key holds a mapping (even an empty one): Go decodes it to a non-nil map."""
    max_set: bool = False
    """The `max` key holds a mapping (even an empty one): Go decodes it to a non-nil map."""


@dataclass(frozen=True, slots=True)
class ChildTemplate:
    """Settings a parent hands to the dynamic leaf queues placement rules create under it."""

    maxapplications: int = 0
    properties: dict[str, str] = field(default_factory=dict)
    resources: Resources = field(default_factory=Resources)
    path: Path = ()
    present: bool = False


@dataclass(frozen=True, slots=True)
class Limit:
    """A user/group limit entry."""

    limit: str
    users: tuple[str, ...]
    groups: tuple[str, ...]
    maxresources: dict[str, str]
    maxapplications: int
    path: Path


@dataclass(frozen=True, slots=True)
class Filter:
    """The user/group filter of a placement rule."""

    type: str = ""
    users: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    path: Path = ()


@dataclass(frozen=True, slots=True)
class PlacementRule:
    """One placement rule, possibly with a parent rule that decides the parent queue."""

    name: str
    create: bool
    filter: Filter
    parent: PlacementRule | None
    value: str
    path: Path


@dataclass(frozen=True, slots=True)
class QueueConfig:
    """One configured queue as written in the file."""

    name: str
    path: Path
    parent: bool = False
    resources: Resources = field(default_factory=Resources)
    maxapplications: int = 0
    properties: dict[str, str] = field(default_factory=dict)
    adminacl: str = ""
    submitacl: str = ""
    childtemplate: ChildTemplate = field(default_factory=ChildTemplate)
    queues: tuple[QueueConfig, ...] = ()
    limits: tuple[Limit, ...] = ()
    inserted: bool = False
    """True for the root YuniKorn inserts above the top-level queues when they are not a single root."""

    @property
    def is_parent(self) -> bool:
        """Whether YuniKorn builds this queue as a parent."""
        return self.parent or bool(self.queues)


@dataclass(frozen=True, slots=True)
class NodeSortingPolicy:
    """The partition's node sort policy as written."""

    type: str = ""
    resourceweights: dict[str, float] = field(default_factory=dict)
    path: Path = ()


@dataclass(frozen=True, slots=True)
class PartitionConfig:
    """One partition as written."""

    name: str
    path: Path
    queues: tuple[QueueConfig, ...] | None
    """None when the `queues` key is absent (YuniKorn: queue config is not set)."""
    placementrules: tuple[PlacementRule, ...] = ()
    limits: tuple[Limit, ...] = ()
    preemption_enabled: bool | None = None
    quota_preemption_enabled: bool | None = None
    nodesortpolicy: NodeSortingPolicy = field(default_factory=NodeSortingPolicy)
    usergroupresolver: str = ""

    @property
    def display_name(self) -> str:
        """The name YuniKorn uses: '' and any case of 'default' become 'default'."""
        return "default" if self.name == "" or self.name.lower() == "default" else self.name

    @property
    def root(self) -> QueueConfig:
        """The root queue, with YuniKorn's root insertion applied when the top level is not a single root."""
        queues = self.queues or ()
        if len(queues) == 1 and queues[0].name.lower() == "root":
            only = queues[0]
            return only if only.parent else _with_parent_flag(only)
        return QueueConfig(name="root", path=(*self.path, "queues"), parent=True, queues=queues, inserted=True)


def _with_parent_flag(queue: QueueConfig) -> QueueConfig:
    from dataclasses import replace

    return replace(queue, parent=True)


@dataclass(frozen=True, slots=True)
class SchedulerConfig:
    """A whole queues.yaml document."""

    partitions: tuple[PartitionConfig, ...] = ()
    checksum: str = ""


def decode_config(root: Node | None) -> tuple[SchedulerConfig, list[Problem]]:
    """Strictly decode a document into a SchedulerConfig, with every problem yaml.v3 would raise."""
    decoder = Decoder()
    raw = decoder.decode(root, SCHEDULER) or {}
    partitions = tuple(_partition(p, ("partitions", i)) for i, p in _decoded(raw.get("partitions")))
    return SchedulerConfig(partitions=partitions, checksum=raw.get("checksum") or ""), decoder.problems


def _decoded(items: list[Any] | None) -> list[tuple[int, Any]]:
    """Sequence items with their YAML index; like yaml.v3, items that are null or failed to decode are dropped."""
    return [(i, item) for i, item in enumerate(items or []) if item is not None]


def _partition(raw: dict[str, Any], path: Path) -> PartitionConfig:
    queues_raw = raw.get("queues")
    sort = raw.get("nodesortpolicy") or {}
    preemption = raw.get("preemption") or {}
    return PartitionConfig(
        name=raw.get("name") or "",
        path=path,
        queues=None if queues_raw is None else tuple(_queue(q, (*path, "queues", i)) for i, q in _decoded(queues_raw)),
        placementrules=tuple(_rule(r, (*path, "placementrules", i)) for i, r in _decoded(raw.get("placementrules"))),
        limits=tuple(_limit(lim, (*path, "limits", i)) for i, lim in _decoded(raw.get("limits"))),
        preemption_enabled=preemption.get("enabled"),
        quota_preemption_enabled=preemption.get("quotapreemptionenabled"),
        nodesortpolicy=NodeSortingPolicy(
            type=sort.get("type") or "",
            resourceweights=dict(sort.get("resourceweights") or {}),
            path=(*path, "nodesortpolicy"),
        ),
        usergroupresolver=(raw.get("usergroupresolver") or {}).get("type") or "",
    )


def _resources(raw: dict[str, Any] | None, path: Path) -> Resources:
    raw = raw or {}
    return Resources(
        guaranteed={k: str(v) for k, v in (raw.get("guaranteed") or {}).items()},
        max={k: str(v) for k, v in (raw.get("max") or {}).items()},
        path=path,
        guaranteed_set=raw.get("guaranteed") is not None,
        max_set=raw.get("max") is not None,
    )


def _queue(raw: dict[str, Any], path: Path) -> QueueConfig:
    template = raw.get("childtemplate")
    return QueueConfig(
        name=raw.get("name") or "",
        path=path,
        parent=bool(raw.get("parent")),
        resources=_resources(raw.get("resources"), (*path, "resources")),
        maxapplications=raw.get("maxapplications") or 0,
        properties={k: str(v) for k, v in (raw.get("properties") or {}).items()},
        adminacl=raw.get("adminacl") or "",
        submitacl=raw.get("submitacl") or "",
        childtemplate=ChildTemplate(
            maxapplications=(template or {}).get("maxapplications") or 0,
            properties={k: str(v) for k, v in ((template or {}).get("properties") or {}).items()},
            resources=_resources((template or {}).get("resources"), (*path, "childtemplate", "resources")),
            path=(*path, "childtemplate"),
            present=template is not None,
        ),
        queues=tuple(_queue(q, (*path, "queues", i)) for i, q in _decoded(raw.get("queues"))),
        limits=tuple(_limit(lim, (*path, "limits", i)) for i, lim in _decoded(raw.get("limits"))),
    )


def _limit(raw: dict[str, Any], path: Path) -> Limit:
    return Limit(
        limit=raw.get("limit") or "",
        users=tuple(raw.get("users") or ()),
        groups=tuple(raw.get("groups") or ()),
        maxresources={k: str(v) for k, v in (raw.get("maxresources") or {}).items()},
        maxapplications=raw.get("maxapplications") or 0,
        path=path,
    )


def _rule(raw: dict[str, Any], path: Path) -> PlacementRule:
    flt = raw.get("filter") or {}
    parent = raw.get("parent")
    return PlacementRule(
        name=raw.get("name") or "",
        create=bool(raw.get("create")),
        filter=Filter(
            type=flt.get("type") or "",
            users=tuple(flt.get("users") or ()),
            groups=tuple(flt.get("groups") or ()),
            path=(*path, "filter"),
        ),
        parent=_rule(parent, (*path, "parent")) if parent is not None else None,
        value=raw.get("value") or "",
        path=path,
    )
