"""Validator checks of user and group limits: each entry on its own, against its queue, and down the queue tree."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.config.model import Limit, QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Path, Problem, Rule, error
from yk_cli.core.lint.checks.validator_common import (
    fits_max_undef,
    go_limit,
    parse_map,
    partitions_with_queues,
    root_limits,
    walk,
)
from yk_cli.core.resources import Resource, component_min, format_resource, go_map, strictly_greater_than_zero

USER_NAME = re.compile(r"[_a-zA-Z][a-zA-Z0-9:#/_.@-]*\$?")
GROUP_NAME = re.compile(r"[_a-zA-Z][a-zA-Z0-9:_.-]*")
WILDCARD = "*"

_WILDCARD_ORDER = (
    "A wildcard `*` entry matches everyone not matched by an earlier entry, so it must come last: after a `*` "
    "{kind} no named {kind} may follow, in the same limit or a later one of the same queue."
)

LIMIT_EMPTY_USERS_GROUPS = error(
    "limit-empty-users-groups",
    "A limit entry without users and without groups.",
    "Every entry of `limits` must name at least one user or group (or `*`). YuniKorn refuses an entry with both "
    "lists empty with `empty user and group lists defined in limit '%v'`, printing the whole entry Go-style: "
    "`{description [users] [groups] map[maxresources] maxapplications}`.",
)
LIMIT_INVALID_USER = error(
    "limit-invalid-user",
    "A limit user name YuniKorn does not accept.",
    "Limit user names must be `*` or match `^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$`: start with a letter or `_`, "
    "then letters, digits and `: # / _ . @ -`, optionally ending in `$`. YuniKorn refuses anything else with "
    "`invalid limit user name '%s' in limit definition`.",
)
LIMIT_DUPLICATE_USER = error(
    "limit-duplicate-user",
    "A user named twice in the limits of one queue.",
    "Each user may appear only once across all limit entries of a queue; YuniKorn refuses a repeat with "
    "`duplicated user name '%s', already exists`. Merge the two entries.",
)
LIMIT_USER_AFTER_WILDCARD = error(
    "limit-user-after-wildcard",
    "A named user listed after the wildcard user.",
    _WILDCARD_ORDER.format(kind="user")
    + " YuniKorn refuses the config with `should not set no wildcard user %s after wildcard user limit`. Move "
    "the `*` entry to the end.",
)
LIMIT_INVALID_GROUP = error(
    "limit-invalid-group",
    "A limit group name YuniKorn does not accept.",
    "Limit group names must be `*` or match `^[_a-zA-Z][a-zA-Z0-9:_.-]*$` (no `@`, `/`, `#` or `$`, unlike user "
    "names). YuniKorn refuses anything else with `invalid limit group name '%s' in limit definition`.",
)
LIMIT_DUPLICATE_GROUP = error(
    "limit-duplicate-group",
    "A group named twice in the limits of one queue.",
    "Each group may appear only once across all limit entries of a queue; YuniKorn refuses a repeat with "
    "`duplicated group name '%s', already exists`. Merge the two entries.",
)
LIMIT_GROUP_AFTER_WILDCARD = error(
    "limit-group-after-wildcard",
    "A named group listed after the wildcard group.",
    _WILDCARD_ORDER.format(kind="group")
    + " YuniKorn refuses the config with `should not set no wildcard group %s after wildcard group limit`. Move "
    "the `*` entry to the end.",
)
LIMIT_ONLY_WILDCARD_GROUP = error(
    "limit-only-wildcard-group",
    "The wildcard group is the only group limit of a queue.",
    "A `*` group limit caps all users of the queue together, which without any named group is just the queue's "
    "own quota. YuniKorn therefore refuses a queue whose group limits (so far, in list order) consist of `*` "
    "alone: `should not specify only one group limit that is using the wildcard. There must be at least one "
    "limit with a group name defined ` (the trailing space is YuniKorn's). Put a named group limit before the "
    "wildcard one, or set the queue's own max resources instead.",
)
LIMIT_MAX_RESOURCES_ZERO = error(
    "limit-max-resources-zero",
    "A limit whose maxresources are all zero.",
    "When `maxresources` is given it must allow something: at least one value above zero. YuniKorn refuses an "
    "all-zero map with `MaxResources should be greater than zero in '%s' limit` (the limit's description). "
    "Remove the map to leave resources unlimited, or give real values.",
)
LIMIT_NO_VALUES = error(
    "limit-no-values",
    "A limit that sets neither maxresources nor maxapplications.",
    "A limit entry must limit something. Without `maxresources` and with `maxapplications` 0 or absent, "
    "YuniKorn refuses it with `invalid resource combination for limit %s all resource limits are null`.",
)
LIMIT_MAX_APPLICATIONS = error(
    "limit-max-applications",
    "A limit allows more applications than its queue.",
    "A limit's `maxapplications` may not exceed the `maxapplications` of the queue it is defined on (when the "
    "queue sets one). YuniKorn refuses it with `invalid MaxApplications settings for limit %s exceed current the "
    "queue MaxApplications`. Partition-level limits are checked against root.",
)
LIMIT_MAX_RESOURCES = error(
    "limit-max-resources",
    "A limit allows more resources than its queue's max.",
    "A limit's `maxresources` must fit in the queue's own `resources.max` for every type the queue limits. "
    "YuniKorn refuses it with `invalid MaxResources settings for limit %s exeecd current the queue MaxResources` "
    "(the typo is YuniKorn's). Root is not checked, as its size is the cluster's.",
)
LIMIT_HIERARCHY_RESOURCES = error(
    "limit-hierarchy-resources",
    "A user or group limit allows more resources than the same limit higher up the tree.",
    "User and group limits are inherited down the queue tree. A limit on a queue may not allow a user (group) "
    "more of any resource than the nearest ancestor limit for the same name, or, when no ancestor names it, "
    "than an ancestor's `*` limit. YuniKorn refuses it with `user %s max resource %s of queue %s is greater than "
    "immediate or ancestor parent maximum resource %s` or `... is greater than wildcard maximum resource %s of "
    "immediate or ancestor parent queue` (`group` likewise). Values are printed in internal units (vcore in "
    "millicores, memory in bytes).",
)
LIMIT_HIERARCHY_APPLICATIONS = error(
    "limit-hierarchy-applications",
    "A user or group limit allows more applications than the same limit higher up the tree.",
    "Like limit-hierarchy-resources, for `maxapplications`: a limit may not exceed the nearest ancestor limit for "
    "the same user (group), or an ancestor's `*` limit. A value of 0 (or no maxapplications at all, for a limit "
    "that only sets maxresources) means unlimited and so counts as greater than any non-zero ancestor value. "
    "YuniKorn refuses it with `user %s max applications %d of queue %s is greater than immediate or ancestor "
    "parent max applications %d` or `... greater than wildcard max applications %d of immediate or ancestor "
    "parent queue` (`group` likewise).",
)

RULES = (
    LIMIT_EMPTY_USERS_GROUPS,
    LIMIT_INVALID_USER,
    LIMIT_DUPLICATE_USER,
    LIMIT_USER_AFTER_WILDCARD,
    LIMIT_INVALID_GROUP,
    LIMIT_DUPLICATE_GROUP,
    LIMIT_GROUP_AFTER_WILDCARD,
    LIMIT_ONLY_WILDCARD_GROUP,
    LIMIT_MAX_RESOURCES_ZERO,
    LIMIT_NO_VALUES,
    LIMIT_MAX_APPLICATIONS,
    LIMIT_MAX_RESOURCES,
    LIMIT_HIERARCHY_RESOURCES,
    LIMIT_HIERARCHY_APPLICATIONS,
)


@dataclass(frozen=True, slots=True)
class _NameRules:
    """The pattern and rules for one kind of limit name (user or group)."""

    kind: str
    pattern: re.Pattern[str]
    invalid: Rule
    duplicate: Rule
    after_wildcard: Rule


_USERS = _NameRules("user", USER_NAME, LIMIT_INVALID_USER, LIMIT_DUPLICATE_USER, LIMIT_USER_AFTER_WILDCARD)
_GROUPS = _NameRules("group", GROUP_NAME, LIMIT_INVALID_GROUP, LIMIT_DUPLICATE_GROUP, LIMIT_GROUP_AFTER_WILDCARD)


def check_limit_entries(config: SchedulerConfig) -> Iterator[Problem]:
    """Each queue's limits in list order: names, wildcard order, values, and fit within the queue (checkLimits)."""
    for partition in partitions_with_queues(config):
        root = partition.root
        for visit in walk(root):
            limits = root_limits(partition) if visit.queue is root else visit.queue.limits
            yield from _check_limits(visit.queue, limits)


def _check_limits(queue: QueueConfig, limits: Sequence[Limit]) -> Iterator[Problem]:
    """One queue's limit list, as checkLimits walks it (names are shared across the entries)."""
    users: set[str] = set()
    groups: set[str] = set()
    only_wildcard_reported = False
    queue_max = None if queue.name == "root" else parse_map(queue.resources.max, (), [])
    for limit in limits:
        if not limit.users and not limit.groups:
            yield LIMIT_EMPTY_USERS_GROUPS.problem(
                f"empty user and group lists defined in limit '{go_limit(limit)}'",
                limit.path,
                hint="add `users:` or `groups:` (use `*` for everyone) to this limit, or remove it.",
            )
            continue
        yield from _names(limit, limit.users, "users", _USERS, users)
        yield from _names(limit, limit.groups, "groups", _GROUPS, groups)
        if groups == {WILDCARD} and not only_wildcard_reported:
            only_wildcard_reported = True
            yield LIMIT_ONLY_WILDCARD_GROUP.problem(
                "should not specify only one group limit that is using the wildcard. There must be at least one "
                "limit with a group name defined ",
                (*limit.path, "groups", limit.groups.index(WILDCARD) if WILDCARD in limit.groups else 0),
                hint="add a limit for a named group before this one, or limit the queue itself via resources.max.",
            )
        yield from _limit_values(limit, queue, queue_max)


def _names(limit: Limit, names: Sequence[str], key: str, rules: _NameRules, seen: set[str]) -> Iterator[Problem]:
    """The user or group names of one entry: valid, not repeated, none named after the wildcard."""
    for i, name in enumerate(names):
        path: Path = (*limit.path, key, i)
        if name != WILDCARD and not rules.pattern.fullmatch(name):
            yield rules.invalid.problem(
                f"invalid limit {rules.kind} name '{name}' in limit definition",
                path,
                hint=f"{rules.kind} names start with a letter or _ and use only the allowed characters; "
                "use `*` for everyone.",
            )
            continue
        if name in seen:
            yield rules.duplicate.problem(
                f"duplicated {rules.kind} name '{name}', already exists",
                path,
                hint=f"{rules.kind} {name} already has a limit on this queue: merge the two entries.",
            )
            continue
        seen.add(name)
        if WILDCARD in seen and name != WILDCARD:
            yield rules.after_wildcard.problem(
                f"should not set no wildcard {rules.kind} {name} after wildcard {rules.kind} limit",
                path,
                hint=f"move the limit for {rules.kind} `*` after every named {rules.kind}.",
            )


def _limit_values(limit: Limit, queue: QueueConfig, queue_max: Resource | None) -> Iterator[Problem]:
    """The values of one entry: parsable, non-zero, something set, within the queue's own limits."""
    problems: list[Problem] = []
    parsed = parse_map(limit.maxresources, (*limit.path, "maxresources"), problems)
    yield from problems
    if limit.maxresources and parsed is not None and not strictly_greater_than_zero(parsed):
        yield LIMIT_MAX_RESOURCES_ZERO.problem(
            f"MaxResources should be greater than zero in '{limit.limit}' limit",
            (*limit.path, "maxresources"),
            hint="give at least one resource a value above zero, or drop maxresources to leave it unlimited.",
            anchor="key",
        )
    if not limit.maxresources and limit.maxapplications == 0:
        yield LIMIT_NO_VALUES.problem(
            f"invalid resource combination for limit {limit.limit} all resource limits are null",
            limit.path,
            hint="set maxresources, maxapplications (above 0), or both.",
        )
    if queue.maxapplications != 0 and queue.maxapplications < limit.maxapplications:
        yield LIMIT_MAX_APPLICATIONS.problem(
            f"invalid MaxApplications settings for limit {limit.limit} exceed current the queue MaxApplications",
            (*limit.path, "maxapplications"),
            hint=f"queue {queue.name} allows {queue.maxapplications} applications; this limit allows "
            f"{limit.maxapplications}.",
        )
    if queue_max is not None and parsed is not None and not fits_max_undef(queue_max, parsed):
        yield LIMIT_MAX_RESOURCES.problem(
            f"invalid MaxResources settings for limit {limit.limit} exeecd current the queue MaxResources",
            (*limit.path, "maxresources"),
            hint=f"the limit allows {format_resource(parsed)} but queue {queue.name} has max "
            f"{format_resource(queue_max)}.",
            anchor="key",
        )


@dataclass(slots=True)
class _Inherited:
    """The user and group limits in force at a queue: (kind, name) -> max resources / max applications."""

    resources: dict[tuple[str, str], Resource]
    applications: dict[tuple[str, str], int]

    def copy(self) -> _Inherited:
        """A copy a child can extend without touching its parent's view."""
        return _Inherited(dict(self.resources), dict(self.applications))


def check_limit_hierarchy(config: SchedulerConfig) -> Iterator[Problem]:
    """Limits inherited down the tree: a limit may not exceed the ancestor limit (or wildcard) for that name."""
    for partition in partitions_with_queues(config):
        yield from _hierarchy(partition.root, root_limits(partition), _Inherited({}, {}))


def _hierarchy(queue: QueueConfig, limits: Sequence[Limit], parent: _Inherited) -> Iterator[Problem]:
    """checkLimitResource and checkLimitMaxApplications for one queue and, recursively, its children."""
    current = parent.copy()
    for limit in limits:
        parsed = parse_map(limit.maxresources, (), [])
        for kind, names in (("user", limit.users), ("group", limit.groups)):
            for i, name in enumerate(names):
                path: Path = (*limit.path, f"{kind}s", i)
                if parsed is not None:
                    yield from _resource_step(queue, (kind, name), parsed, parent, current, path)
                yield from _applications_step(queue, (kind, name), limit.maxapplications, parent, current, path)
    for child in queue.queues:
        yield from _hierarchy(child, child.limits, current)


def _inherited_key(key: tuple[str, str], inherited: Mapping[tuple[str, str], object]) -> tuple[str, str] | None:
    """The ancestor entry that applies to a name: its own, else the wildcard of its kind (not for `*` itself)."""
    if key in inherited:
        return key
    wildcard = (key[0], WILDCARD)
    if key[1] != WILDCARD and wildcard in inherited:
        return wildcard
    return None


def _resource_step(
    queue: QueueConfig,
    key: tuple[str, str],
    parsed: Resource,
    parent: _Inherited,
    current: _Inherited,
    path: Path,
) -> Iterator[Problem]:
    """Compare one name's maxresources with the inherited limit and record what the children inherit."""
    found = _inherited_key(key, parent.resources)
    if found is None:
        current.resources[key] = parsed
        return
    inherited = parent.resources[found]
    current.resources[key] = component_min(parsed, inherited) or {}
    if fits_max_undef(inherited, parsed):
        return
    kind, name = key
    head = f"{kind} {name} max resource {go_map(parsed)} of queue {queue.name} is greater than"
    message = (
        f"{head} immediate or ancestor parent maximum resource {go_map(inherited)}"
        if found == key
        else f"{head} wildcard maximum resource {go_map(inherited)} of immediate or ancestor parent queue"
    )
    yield LIMIT_HIERARCHY_RESOURCES.problem(
        message,
        path,
        hint=f"an ancestor limits {kind} {found[1]} to {format_resource(inherited)}; stay within it for every "
        "resource type.",
    )


def _applications_step(
    queue: QueueConfig,
    key: tuple[str, str],
    value: int,
    parent: _Inherited,
    current: _Inherited,
    path: Path,
) -> Iterator[Problem]:
    """Compare one name's maxapplications with the inherited limit and record what the children inherit."""
    found = _inherited_key(key, parent.applications)
    if found is None:
        current.applications[key] = value
        return
    inherited = parent.applications[found]
    current.applications[key] = min(value, inherited)
    if inherited == 0 or (value != 0 and value <= inherited):
        return
    kind, name = key
    head = f"{kind} {name} max applications {value} of queue {queue.name} is greater than"
    message = (
        f"{head} immediate or ancestor parent max applications {inherited}"
        if found == key
        else f"{head} wildcard max applications {inherited} of immediate or ancestor parent queue"
    )
    unlimited = " (0 or no maxapplications means unlimited)" if value == 0 else ""
    yield LIMIT_HIERARCHY_APPLICATIONS.problem(
        message,
        path,
        hint=f"an ancestor limits {kind} {found[1]} to {inherited} applications{unlimited}; "
        f"set maxapplications between 1 and {inherited}.",
    )


CHECKS = (check_limit_entries, check_limit_hierarchy)
