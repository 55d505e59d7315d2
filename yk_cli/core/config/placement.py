"""Placement rules: the queue YuniKorn's placement manager puts an application in, and why (or why not).

Follows yunikorn-core `pkg/scheduler/placement` and `PartitionContext.AddApplication`:

* the configured rules are tried in order, then the hidden `recovery` rule; an empty rule list means one
  `provided` rule with `create: false`. If the last rule gives nothing, `root.default` is tried when it exists;
* a rule that names a queue is accepted when the queue is a leaf the user may submit to (submitacl or adminacl of
  the queue or an ancestor); for a queue that does not exist yet the ACLs of its nearest existing ancestor decide;
  otherwise the next rule is tried;
* a rule *error* (an invalid queue name, a parent rule that returns a leaf) rejects the application at once, and so
  does a queue that would have to be created below a leaf;
* missing queues are created as dynamic queues (`QueueTree.add_dynamic`): only the parent's child template applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from yk_cli.core.config import properties as props
from yk_cli.core.config.go_regexp import GoRegexp, go_compile
from yk_cli.core.config.model import Filter, PartitionConfig, PlacementRule, QueueConfig
from yk_cli.core.config.properties import QueueProperties, Source
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.resources import Resource, strictly_greater_than_zero

if TYPE_CHECKING:
    from yk_cli.core.workload.model import Application  # for annotations only: `yk validate` never loads a workload

ROOT = "root"
DOT_REPLACE = "_dot_"
DEFAULT_QUEUE = "root.default"
"""Tried when no rule places the application (only if that queue exists)."""
RECOVERY_QUEUE = "root.@recovery@"
"""Where the hidden recovery rule puts already-running applications no other rule accepts."""
DEFAULT_USER = "nobody"
"""The user the k8shim sends when a pod names none; also used for applications without a user."""
TAG_CREATE_FORCE = "application.create.force"
PLACED_BY_SCHEDULER = "placed by the scheduler"
"""The rule label of an application the scheduler has already placed (a state dump): its queue is taken as is."""
TAG_QUOTA = "namespace.resourcequota"
TAG_GUARANTEED = "namespace.resourceguaranteed"
TAG_MAX_APPS = "namespace.resourcemaxapps"
KNOWN_RULES = ("provided", "user", "fixed", "tag", "test")

DEFAULT_QUEUES_YAML = """\
partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
    queues:
      - name: root
        submitacl: '*'
"""
"""YuniKorn's built-in configuration, used when the shim sends no queues.yaml."""

QUEUE_NAME = re.compile(r"^[a-zA-Z0-9_:#/@-]{1,64}$")
USER_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$")
GROUP_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9:_.-]*$")
REGEX_SPECIAL = re.compile(r"[\^$*+?()\[{}|]")
ACL_USER_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$")
"""security.NewACL is stricter than the config validator: no ':', '#' or '/' in ACL user names."""
ACL_GROUP_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_-]*$")
QUEUE_NAME_RULE = "max 64 characters consisting of alphanumeric characters and '-', '_', '#', '@', '/', ':'"

_GO_TRUE = {"1", "t", "T", "TRUE", "true", "True"}


@dataclass(frozen=True, slots=True)
class Placement:
    """Where an application was placed, by which rule, and why it was rejected when it was not placed."""

    queue_path: str | None
    """The leaf queue (lower-cased full path), or None when the application is rejected."""
    rule: str
    """The rule that placed it, e.g. `tag (namespace)`, `provided`, `default queue`, `recovery`; '' if rejected."""
    created: bool = False
    """True when placing it created dynamic queues."""
    reason: str = ""
    """Why the application was rejected (empty when placed)."""
    created_queues: tuple[str, ...] = ()
    """The dynamic queues created, parents first."""
    trace: tuple[str, ...] = ()
    """One line per rule that was tried and passed over, in order."""

    @property
    def placed(self) -> bool:
        """Whether the application got a queue."""
        return self.queue_path is not None


class _RuleError(Exception):
    """A rule failure that rejects the application outright (YuniKorn returns an error, not 'no match')."""


class _BuildError(Exception):
    """A rule list YuniKorn cannot build: the placement manager then runs without rules."""


@dataclass(frozen=True, slots=True)
class _Filter:
    allow: bool
    empty: bool
    users: frozenset[str]
    groups: frozenset[str]
    user_exp: GoRegexp | None
    group_exp: GoRegexp | None

    def allows(self, user: str, groups: Iterable[str]) -> bool:
        """Filter.allowUser: a listed (or matching) user or group gets the filter type, anyone else the opposite."""
        if self.empty:
            return self.allow
        if self._user_hit(user) or any(self._group_hit(group) for group in groups):
            return self.allow
        return not self.allow

    def _user_hit(self, user: str) -> bool:
        if self.user_exp is not None:
            return self.user_exp.search(user) is not None
        return user in self.users

    def _group_hit(self, group: str) -> bool:
        if self.group_exp is not None:
            return self.group_exp.search(group) is not None
        return group in self.groups


def _names(entries: tuple[str, ...], valid: re.Pattern[str]) -> tuple[frozenset[str], GoRegexp | None]:
    if len(entries) == 1:
        entry = entries[0]
        if REGEX_SPECIAL.search(entry):
            return frozenset(), go_compile(entry)
        return (frozenset({entry}) if valid.match(entry) else frozenset()), None
    return frozenset(e for e in entries if valid.match(e)), None


def _filter(conf: Filter) -> _Filter:
    users, user_exp = _names(conf.users, USER_NAME)
    groups, group_exp = _names(conf.groups, GROUP_NAME)
    return _Filter(
        allow=conf.type != "deny",
        empty=not conf.users and not conf.groups,
        users=users,
        groups=groups,
        user_exp=user_exp,
        group_exp=group_exp,
    )


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    create: bool
    filter: _Filter
    parent: _Rule | None
    value: str
    qualified: bool = False

    @property
    def label(self) -> str:
        own = f"{self.kind} ({self.value})" if self.kind in ("fixed", "tag") else self.kind
        return f"{own}, parent {self.parent.label}" if self.parent is not None else own


_RECOVERY = _Rule("recovery", False, _Filter(True, True, frozenset(), frozenset(), None, None), None, "")


def _build(conf: PlacementRule) -> _Rule:
    kind = conf.name.lower()
    if kind == "recovery":
        raise _BuildError("recovery rule cannot be part of the config, failing placement rule config")
    if kind not in KNOWN_RULES:
        raise _BuildError(f"unknown rule name specified {conf.name}, failing placement rule config")
    value = conf.value.lower() if kind in ("fixed", "tag") else conf.value
    if kind == "fixed" and not value:
        raise _BuildError("a fixed queue rule must have a queue name set")
    if kind == "tag" and not value:
        raise _BuildError("a tag queue rule must have a tag name set")
    qualified = kind == "fixed" and value.startswith(ROOT)
    if qualified and conf.parent is not None:
        raise _BuildError(f"cannot have a fixed queue rule with qualified queue name {value} and a parent rule")
    parent = _build(conf.parent) if conf.parent is not None else None
    return _Rule(kind, conf.create, _filter(conf.filter), parent, value, qualified)


def build_rules(partition: PartitionConfig) -> tuple[tuple[str, ...], str]:
    """The rule chain YuniKorn runs for a partition (labels, recovery last), or () and the reason it has none."""
    try:
        rules = _rules(partition)
    except _BuildError as err:
        return (), str(err)
    return tuple(r.label for r in rules), ""


def _rules(partition: PartitionConfig) -> list[_Rule]:
    configured = partition.placementrules or (
        PlacementRule(name="provided", create=False, filter=Filter(), parent=None, value="", path=()),
    )
    return [*(_build(conf) for conf in configured), _RECOVERY]


@dataclass(slots=True)
class _Context:
    tree: QueueTree
    app: Application
    user: str
    groups: tuple[str, ...]
    forced: bool


def _valid_name(name: str, where: str) -> None:
    if not QUEUE_NAME.match(name):
        raise _RuleError(f"invalid queue name {name!r} {where}: {QUEUE_NAME_RULE} allowed")


def _tag(tags: Mapping[str, str], name: str) -> str:
    """Application.GetTag: tag names compare case-insensitively."""
    if name in tags:
        return tags[name]
    for key in sorted(tags):
        if key.lower() == name.lower():
            return tags[key]
    return ""


def _run(rule: _Rule, ctx: _Context) -> tuple[str, str]:
    """One rule: (fully qualified queue, '') when it matches, ('', why not) when it does not."""
    if rule.kind == "recovery":
        if ctx.forced:
            return RECOVERY_QUEUE, ""
        return "", "only applications already running when YuniKorn starts may use the recovery queue"
    if rule.kind == "test":
        return "", "the test rule exists only for YuniKorn's own tests"
    if rule.kind == "provided":
        requested = ctx.app.queue or ""
        if not requested:
            return "", "the application names no queue"
        return _qualify(rule, ctx, requested, "requested by the application")
    if rule.kind == "tag":
        value = _tag(ctx.app.tags, rule.value)
        if not value:
            return "", f"the application has no {rule.value!r} tag"
        return _qualify(rule, ctx, value, f"from tag {rule.value!r}")
    if not rule.filter.allows(ctx.user, ctx.groups):
        return "", f"user {ctx.user!r} is filtered out"
    if rule.kind == "user":
        child = ctx.user.replace(".", DOT_REPLACE)
        _valid_name(child, f"made from user {ctx.user!r}")
        parent, note = _parent(rule, ctx)
        return _existing(rule, ctx, f"{parent}.{child}") if parent else ("", note)
    # fixed
    if rule.qualified:
        name = rule.value
    else:
        parent, note = _parent(rule, ctx)
        if not parent:
            return "", note
        child = rule.value.replace(".", DOT_REPLACE)
        _valid_name(child, "in the fixed rule")
        name = f"{parent}.{child}"
    parts = name.split(".")
    if parts[0] != ROOT:
        raise _RuleError(f"invalid queue path {name!r}: a qualified queue starts with 'root.'")
    for part in parts[1:]:
        _valid_name(part, f"in {name!r}")
    return _existing(rule, ctx, name)


def _qualify(rule: _Rule, ctx: _Context, requested: str, origin: str) -> tuple[str, str]:
    """The provided and tag rules: a name starting with `root.` is used as is, anything else goes below the parent."""
    if not rule.filter.allows(ctx.user, ctx.groups):
        return "", f"user {ctx.user!r} is filtered out"
    if requested.startswith(ROOT + "."):
        for part in requested.split("."):
            _valid_name(part, f"in {requested!r} ({origin})")
        return _existing(rule, ctx, requested)
    child = requested.replace(".", DOT_REPLACE)
    _valid_name(child, f"({origin})")
    parent, note = _parent(rule, ctx)
    if not parent:
        return "", note
    return _existing(rule, ctx, f"{parent}.{child}")


def _parent(rule: _Rule, ctx: _Context) -> tuple[str, str]:
    """The parent queue a rule's queue goes under: root, or the parent rule's result (which may not be a leaf)."""
    if rule.parent is None:
        return ROOT, ""
    name, note = _run(rule.parent, ctx)
    if not name:
        return "", f"parent rule {rule.parent.label} did not match: {note}"
    if not name.startswith(ROOT + "."):
        name = f"{ROOT}.{name}"
    queue = ctx.tree.get(name)
    if queue is not None and queue.is_leaf:
        raise _RuleError(f"parent rule returned a leaf queue: {name}")
    return name, ""


def _existing(rule: _Rule, ctx: _Context, name: str) -> tuple[str, str]:
    if not rule.create and ctx.tree.get(name) is None:
        return "", f"{name.lower()} does not exist and create is false"
    return name, ""


@dataclass(frozen=True, slots=True)
class _Acl:
    everyone: bool
    users: frozenset[str]
    groups: frozenset[str]

    def allows(self, user: str, groups: Iterable[str]) -> bool:
        return self.everyone or user in self.users or any(g in self.groups for g in groups)


@lru_cache(maxsize=1024)
def parse_acl(text: str) -> _Acl:
    """security.NewACL: `users groups`, comma-separated, `*` for everyone, empty for nobody; bad names ignored."""
    if text == "":
        return _Acl(False, frozenset(), frozenset())
    fields = text.split(" ")
    if len(fields) > 2:
        return _Acl(False, frozenset(), frozenset())  # YuniKorn refuses the queue: multiple spaces found in ACL
    everyone = text.strip() == "*"
    user_list = fields[0].split(",")
    users: frozenset[str] = frozenset()
    if user_list == ["*"]:
        everyone = True
    else:
        users = frozenset(u for u in user_list if u and ACL_USER_NAME.match(u))
    groups: frozenset[str] = frozenset()
    if len(fields) == 2 and not everyone:
        group_list = fields[1].split(",")
        if group_list == ["*"]:
            everyone, users = True, frozenset()
        else:
            groups = frozenset(g for g in group_list if g and ACL_GROUP_NAME.match(g))
    return _Acl(everyone, users, groups)


def submit_allowed(queue: Queue, user: str, groups: Iterable[str]) -> bool:
    """Queue.CheckSubmitAccess: the submitacl or adminacl of the queue or any ancestor lets the user in."""
    if queue.path == RECOVERY_QUEUE:
        return False
    group_list = tuple(groups)
    for q in queue.ancestors():
        config = q.config
        if config is None:
            continue
        if parse_acl(config.submitacl).allows(user, group_list) or parse_acl(config.adminacl).allows(user, group_list):
            return True
    return False


def _nearest(tree: QueueTree, name: str) -> Queue:
    """The deepest existing queue on a path."""
    current = name
    while True:
        queue = tree.get(current)
        if queue is not None:
            return queue
        if "." not in current:
            return tree.root
        current = current.rsplit(".", 1)[0]


def is_forced(app: Application) -> bool:
    """application.create.force: the shim sets it when the application's first pod is already bound to a node.

    Without the tag (a workload file), an application with running allocations counts as already running.
    """
    if TAG_CREATE_FORCE in app.tags:
        return app.tags[TAG_CREATE_FORCE] in _GO_TRUE
    return bool(app.allocations)


def _who(ctx: _Context) -> str:
    groups = f" (groups {', '.join(ctx.groups)})" if ctx.groups else ""
    return f"user {ctx.user!r}{groups}"


def place(partition: PartitionConfig, tree: QueueTree, app: Application) -> Placement:
    """Place one application as YuniKorn does, creating the dynamic queues it needs in the tree."""
    try:
        rules = _rules(partition)
    except _BuildError as err:
        return Placement(None, "", reason=f"the placement manager has no rules ({err}): every application is rejected")
    ctx = _Context(tree, app, app.user or DEFAULT_USER, tuple(app.groups), is_forced(app))
    if app.placed and app.queue:
        return _add(tree, ctx, app.queue.lower(), PLACED_BY_SCHEDULER, ())
    trace: list[str] = []
    name = ""
    label = ""
    for index, rule in enumerate(rules):
        label = rule.label
        try:
            name, note = _run(rule, ctx)
        except _RuleError as err:
            return Placement(None, "", reason=f"rule {label} failed: {err}", trace=tuple(trace))
        if index == len(rules) - 1 and not name and tree.get(DEFAULT_QUEUE) is not None:
            name, label = DEFAULT_QUEUE, "default queue"
        if not name:
            if rule.kind != "recovery":
                trace.append(f"{label}: {note}")
            continue
        if name == RECOVERY_QUEUE and ctx.forced:
            break
        queue = tree.get(name)
        if queue is None:
            nearest = _nearest(tree, name)
            if not submit_allowed(nearest, ctx.user, ctx.groups):
                trace.append(f"{label}: {_who(ctx)} may not submit to {nearest.path} (needed to create {name.lower()})")
                name = ""
                continue
        elif not queue.is_leaf:
            trace.append(f"{label}: {queue.path} is a parent queue, applications go to leaf queues")
            name = ""
            continue
        elif not submit_allowed(queue, ctx.user, ctx.groups):
            trace.append(f"{label}: {_who(ctx)} may not submit to {queue.path} (no submitacl/adminacl up to root)")
            name = ""
            continue
        break
    if not name:
        return Placement(None, "", reason="no placement rule matched: " + "; ".join(trace), trace=tuple(trace))
    return _add(tree, ctx, name, label, tuple(trace))


def _add(tree: QueueTree, ctx: _Context, name: str, label: str, trace: tuple[str, ...]) -> Placement:
    """PartitionContext.AddApplication: create the queue when needed, then apply namespace tags to dynamic leaves."""
    queue = tree.get(name)
    created: list[str] = []
    if queue is None:
        if name == RECOVERY_QUEUE:
            queue = _recovery_queue(tree)
            created.append(queue.path)
        else:
            nearest = _nearest(tree, name)
            if nearest.is_leaf:
                return Placement(
                    None,
                    "",
                    reason=f"rule {label} gave {name.lower()}, which cannot be created: "
                    f"its parent {nearest.path} is a leaf queue",
                    trace=trace,
                )
            known = set(tree.queues)
            queue = tree.add_dynamic(name)
            created.extend(path for path in tree.queues if path not in known)
    if not queue.is_leaf:
        return Placement(None, "", reason=f"rule {label} gave {queue.path}, which is not a leaf queue", trace=trace)
    if queue.dynamic and queue.path != RECOVERY_QUEUE:
        _apply_namespace_tags(queue, ctx.app.tags)
    return Placement(queue.path, label, created=bool(created), created_queues=tuple(created), trace=trace)


def _recovery_queue(tree: QueueTree) -> Queue:
    """The recovery queue: a dynamic leaf under root with fifo sorting and preemption disabled."""
    entries = {
        props.SORT_POLICY: ("fifo", Source.SET, RECOVERY_QUEUE),
        props.PREEMPTION_POLICY: ("disabled", Source.SET, RECOVERY_QUEUE),
    }
    queue = Queue(
        name=RECOVERY_QUEUE.split(".", 1)[1],
        path=RECOVERY_QUEUE,
        parent=tree.root,
        is_leaf=True,
        dynamic=True,
        properties=QueueProperties(entries),
    )
    tree.root.children.append(queue)
    tree.queues[RECOVERY_QUEUE] = queue
    return queue


def _si_resource(text: str) -> Resource | None:
    """A JSON-marshalled si.Resource tag (`{"resources": {"vcore": {"value": 1000}}}`) as a resource."""
    import json  # here, not at the top: only an application tag in that form needs it

    try:
        raw = json.loads(text)
    except ValueError:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("resources"), dict):
        return None
    out: Resource = {}
    for key, quantity in raw["resources"].items():
        value = quantity.get("value", 0) if isinstance(quantity, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            out[str(key)] = value
    return out


def _apply_namespace_tags(queue: Queue, tags: Mapping[str, str]) -> None:
    """Namespace quota/guarantee/max-apps tags set the limits of a dynamic leaf (both limits are replaced)."""
    quota = _si_resource(_tag(tags, TAG_QUOTA)) if _tag(tags, TAG_QUOTA) else None
    guaranteed = _si_resource(_tag(tags, TAG_GUARANTEED)) if _tag(tags, TAG_GUARANTEED) else None
    max_apps_text = _tag(tags, TAG_MAX_APPS)
    max_apps = int(max_apps_text) if max_apps_text.isdigit() else 0
    if max_apps:
        queue.maxapplications = max_apps
    if quota is not None or guaranteed is not None:
        queue.max = quota if quota is not None and strictly_greater_than_zero(quota) else None
        queue.guaranteed = guaranteed if guaranteed is not None and strictly_greater_than_zero(guaranteed) else None


def placement_order(applications: Iterable[Application]) -> list[Application]:
    """The applications in the order YuniKorn sees them (submit time, then file order)."""
    return sorted(applications, key=lambda a: (a.submit_time, a.seq, a.id))


def place_all(partition: PartitionConfig, tree: QueueTree, applications: Iterable[Application]) -> dict[str, Placement]:
    """Place applications in the order YuniKorn sees them (placement_order); by application id."""
    return {app.id: place(partition, tree, app) for app in placement_order(applications)}


def default_partition() -> PartitionConfig:
    """The built-in default partition: root with submitacl '*' and a tag rule on namespace with create true."""
    path = ("partitions", 0)
    return PartitionConfig(
        name="default",
        path=path,
        queues=(QueueConfig(name="root", path=(*path, "queues", 0), submitacl="*"),),
        placementrules=(
            PlacementRule(
                name="tag",
                create=True,
                filter=Filter(path=(*path, "placementrules", 0, "filter")),
                parent=None,
                value="namespace",
                path=(*path, "placementrules", 0),
            ),
        ),
    )


@dataclass(frozen=True, slots=True)
class PlacementSummary:
    """Counts over many placements (for reports)."""

    placed: int = 0
    rejected: int = 0
    created_queues: tuple[str, ...] = field(default_factory=tuple)


def summarize(placements: Mapping[str, Placement]) -> PlacementSummary:
    """How many applications were placed or rejected and which dynamic queues were created, in creation order."""
    created: list[str] = []
    for placement in placements.values():
        created.extend(q for q in placement.created_queues if q not in created)
    placed = sum(1 for p in placements.values() if p.placed)
    return PlacementSummary(placed=placed, rejected=len(placements) - placed, created_queues=tuple(created))
