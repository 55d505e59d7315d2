"""User and group limits (`limits:`) as yunikorn-core's user-group manager applies them (pkg/scheduler/ugm).

Stage of the core's scheduling cycle: the headroom checks of the walk (the user's and group's headroom in
Application.tryAllocate, maxapplications in Queue.TryAllocate).

Which limit applies (Manager.UpdateConfig, internalProcessConfig, QueueTracker.setLimit / newQueueTracker):
* limits are keyed by the queue path as written in the config (`root` + the child names, case kept), so a queue
  whose written name has upper-case letters never matches an application's (lower-case) queue path;
* a user gets, at every level of its application's queue path, the limit that names the user there, else the
  wildcard (`*`) user limit there, else none; a named entry wins over the wildcard even when it limits nothing;
* a user's groups are the application's; an application that gives none gets the groups an earlier application
  of the user gave (the core caches them per user), else one group named after the user (the default resolver's
  primary group);
* an application has one group (ensureGroupInternal): from its leaf up to root, the first level that configures
  a group limit for one of the user's groups (in the order the config lists the groups), else a wildcard group
  limit there (the group `*`); that group's limits at every level then apply, and no other group's or wildcard's;
* `maxresources` all zero (or none) limits no resources; `maxapplications` 0 no applications; a later entry for
  the same user or group at the same queue replaces an earlier one.

How they apply (Manager.Headroom, CanRunApp, IncreaseTrackedResource, DecreaseTrackedResource):
* usage counts every allocation of the user's (the group's) applications below the level; an application counts
  as running there from its first allocation until it has neither allocations nor pending asks;
* an application that has not started (Accepted) is skipped while the user or its group runs maxapplications
  applications at some level (queue.TryAllocate, TryReservedAllocate); a started one is never held back;
* an ask that does not fit the user's or group's headroom (max minus usage, types in the max only) waits: it is
  checked before the queue's headroom and never triggers preemption (application.tryAllocate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from yk_cli.core.config.model import Limit, PartitionConfig, QueueConfig
from yk_cli.core.resources import QuantityError, parse_resource

Path = tuple[str | int, ...]

WILDCARD = "*"
DEFAULT_USER = "nobody"
"""The user of an application that names none: what the k8shim sends (as placement.DEFAULT_USER)."""
USER, GROUP = "user", "group"


@dataclass(frozen=True, slots=True)
class Rule:
    """One limit entry as it applies to one user or group at one queue."""

    kind: str
    """user | group."""
    who: str
    """The user or group named, or '*' (the wildcard entry)."""
    queue: str
    """The queue path as the core keys it (written names)."""
    max: dict[str, int] | None
    """maxresources (None: all zero or none, no resource limit)."""
    maxapps: int
    where: Path
    """The document path of the limit entry (`file:line` in reports)."""
    name: str
    """The entry's `limit` text."""

    @property
    def limiting(self) -> bool:
        """Whether the entry limits anything."""
        return self.max is not None or self.maxapps > 0


@dataclass(slots=True)
class LimitConfig:
    """The limits of a partition, per queue path: named users and groups, wildcards, configured group order."""

    users: dict[str, dict[str, Rule]] = field(default_factory=dict)
    groups: dict[str, dict[str, Rule]] = field(default_factory=dict)
    user_wildcard: dict[str, Rule] = field(default_factory=dict)
    group_order: dict[str, list[str]] = field(default_factory=dict)
    """Queue path -> the named groups with a limit there, in config order (configuredGroups)."""

    def __bool__(self) -> bool:
        return bool(self.users or self.groups or self.user_wildcard)

    def user_rule(self, user: str, path: str) -> Rule | None:
        """The user's limit at a queue path: the named one, else the wildcard one (None: not limited there)."""
        named = self.users.get(path)
        if named is not None and user in named:
            return named[user]
        return self.user_wildcard.get(path)

    def group_of(self, groups: Sequence[str], leaf: str) -> str:
        """ensureGroupInternal: the group an application of a user with these groups is tracked as ('' for none)."""
        if not groups:
            return ""
        path = leaf
        while path:
            for configured in self.group_order.get(path, ()):
                if configured in groups:
                    return configured
            if WILDCARD in self.groups.get(path, {}):
                return WILDCARD
            path = path.rpartition(".")[0]
        return ""

    def group_rule(self, group: str, path: str) -> Rule | None:
        """The group's limit at a queue path (no wildcard fallback for a named group)."""
        return self.groups.get(path, {}).get(group)


def limit_config(partition: PartitionConfig) -> LimitConfig:
    """The partition's limits keyed as the user-group manager keys them (partition limits are root's when root
    sets none, as the config validator does)."""
    out = LimitConfig()
    root = partition.root
    root_limits = root.limits or partition.limits
    _collect(root, root.name, root_limits, out)
    return out


def _collect(config: QueueConfig, path: str, limits: Sequence[Limit], out: LimitConfig) -> None:
    for limit in limits:
        maximum = _max(limit.maxresources)
        for user in limit.users:
            if not user:
                continue
            rule = Rule(USER, user, path, maximum, limit.maxapplications, limit.path, limit.limit)
            if user == WILDCARD:
                out.user_wildcard[path] = rule
            else:
                out.users.setdefault(path, {})[user] = rule
        for group in limit.groups:
            if not group:
                continue
            rule = Rule(GROUP, group, path, maximum, limit.maxapplications, limit.path, limit.limit)
            out.groups.setdefault(path, {})[group] = rule
            if group != WILDCARD:
                out.group_order.setdefault(path, []).append(group)
    for child in config.queues:
        _collect(child, f"{path}.{child.name}", child.limits, out)


def _max(values: Mapping[str, str]) -> dict[str, int] | None:
    """resources.NewResourceFromConf, None when it limits nothing (IsZero: every value zero)."""
    try:
        parsed = parse_resource(values)
    except QuantityError:  # the validator refuses the config: never simulated
        return None
    return parsed if any(parsed.values()) else None


class Tracker:
    """A user's or group's usage and running applications below one queue, where it has a limit."""

    __slots__ = ("apps", "blocked", "is_full", "max", "members", "rule", "used")

    def __init__(self, rule: Rule, width: int, index: Mapping[str, int]) -> None:
        self.rule = rule
        self.used = [0] * width
        self.apps: dict[object, None] = {}
        """The applications counted as running (insertion-ordered set)."""
        self.members: list[AppLimits] = []
        """Every application this tracker applies to."""
        self.is_full = False
        """full(), kept up to date as applications are counted and uncounted."""
        self.blocked: dict[AppLimits, None] = {}
        """Members whose pending sizes all fail their headroom (AppLimits.block): re-checked when this usage drops."""
        self.max: tuple[tuple[int, int], ...] = ()
        """(type index, max) of the types the limit names that the run knows (others never matter)."""
        if rule.max is not None:
            self.max = tuple((index[t], v) for t, v in rule.max.items() if t in index)

    def full(self) -> bool:
        """canRunApp for an application not counted here yet: maxapplications reached."""
        return self.rule.maxapps > 0 and len(self.apps) + 1 > self.rule.maxapps


class AppLimits:
    """The trackers that apply to one application, user ones first (root to leaf), then its group's."""

    __slots__ = (
        "counted",
        "group",
        "gver",
        "headroom_cache",
        "nfull",
        "owner",
        "quota_blocked",
        "sizes",
        "trackers",
        "ugm",
        "user",
        "uver",
        "with_max",
    )

    def __init__(self, ugm: Ugm, user: str, group: str, trackers: list[Tracker]) -> None:
        self.ugm = ugm
        self.user = user
        self.group = group
        self.trackers = trackers
        self.nfull = sum(t.is_full for t in trackers)
        """How many of its trackers run their maxapplications applications (is_full)."""
        self.owner: object = None
        """The run's AppState (set by the builder): reported in Ugm.flipped when nfull changes."""
        for t in trackers:
            t.members.append(self)
        self.with_max = [t for t in trackers if t.max]
        self.counted = False
        """Counted as running in the trackers (from its first allocation until nothing runs or waits)."""
        self.quota_blocked = False
        """No unreserved pending size of the application fits its headroom (see block)."""
        self.sizes: Mapping[tuple[int, ...], int] = {}
        """The application's unreserved pending asks by size (the engine's own dict, given to block)."""
        self.headroom_cache: tuple[int, int, list[float] | None] = (-1, -1, None)
        self.uver = ugm.version_of(USER, user)
        """Bumped whenever a tracker of the user changes (only the user's applications change them)."""
        self.gver = ugm.version_of(GROUP, group)
        """Bumped whenever a tracker of the group changes (only applications tracked as the group change them)."""

    def can_run(self) -> bool:
        """CanRunApp for an application that has not started."""
        return self.counted or self.nfull == 0

    def full_tracker(self) -> Tracker | None:
        """The first tracker (user before group, leaf first) whose maxapplications holds the application back."""
        if self.counted:
            return None
        for t in _leaf_first(self.trackers):
            if t.full():
                return t
        return None

    def headroom(self) -> list[float] | None:
        """Manager.Headroom as a vector (inf where unlimited), None when no tracker limits resources."""
        if not self.with_max:
            return None
        uver, gver, cached = self.headroom_cache
        if uver == self.uver[0] and gver == self.gver[0]:
            return cached
        room = [float("inf")] * self.ugm.width
        for t in self.with_max:
            used = t.used
            for i, v in t.max:
                left = v - used[i]
                if left < room[i]:
                    room[i] = left
        self.headroom_cache = (self.uver[0], self.gver[0], room)
        return room

    def short_tracker(self, fit: Sequence[tuple[int, int]]) -> Tracker | None:
        """The tracker (user before group, leaf first) whose headroom is too small for the ask, None when it fits."""
        for t in _leaf_first(self.with_max):
            limits = dict(t.max)
            for i, v in fit:
                if i in limits and limits[i] - t.used[i] < v:
                    return t
        return None

    def block(self, sizes: Mapping[tuple[int, ...], int]) -> None:
        """The walk found that none of the application's pending sizes fits its headroom: it is counted apart (held)
        so that the walk skips it, until a usage of one of its trackers drops so that a size fits again (remove) or it
        gets another pending ask (the engine calls unblock). Headroom only shrinks while neither happens."""
        if self.quota_blocked:
            return
        self.quota_blocked = True
        self.sizes = sizes
        for t in self.with_max:
            t.blocked[self] = None
        self.ugm.flipped.append(self)

    def unblock(self) -> None:
        """Walk the application again (its asks count as pending, not held)."""
        if not self.quota_blocked:
            return
        self.quota_blocked = False
        for t in self.with_max:
            t.blocked.pop(self, None)
        self.ugm.flipped.append(self)

    def _fits_any(self) -> bool:
        """Whether one of its pending sizes fits its headroom now."""
        room = self.headroom()
        if room is None:
            return True
        return any(all(room[i] >= v for i, v in enumerate(size) if v) for size in self.sizes)

    def add(self, size: Sequence[int]) -> None:
        """IncreaseTrackedResource: an allocation of the application."""
        self.ugm.version += 1
        self.uver[0] = self.uver[0] + 1
        self.gver[0] = self.gver[0] + 1
        for t in self.trackers:
            used = t.used
            for i, v in enumerate(size):
                used[i] = used[i] + v
            if not self.counted:
                t.apps[self] = None
                self.ugm.refresh(t)
        self.counted = True

    def remove(self, size: Sequence[int], remove_app: bool) -> None:
        """DecreaseTrackedResource: an allocation gone; remove_app when the application has nothing left."""
        self.ugm.version += 1
        self.uver[0] = self.uver[0] + 1
        self.gver[0] = self.gver[0] + 1
        for t in self.trackers:
            used = t.used
            for i, v in enumerate(size):
                used[i] = used[i] - v
            if remove_app:
                t.apps.pop(self, None)
                self.ugm.refresh(t)
        if remove_app:
            self.counted = False
        for t in self.with_max:
            if t.blocked:
                for member in [m for m in t.blocked if m._fits_any()]:
                    member.unblock()


def _leaf_first(trackers: list[Tracker]) -> list[Tracker]:
    users = [t for t in trackers if t.rule.kind == USER]
    groups = [t for t in trackers if t.rule.kind == GROUP]
    return users[::-1] + groups[::-1]


class Ugm:
    """The run's user-group manager: trackers per (user or group, queue) with a limit."""

    def __init__(self, config: LimitConfig, width: int, index: Mapping[str, int]) -> None:
        self.config = config
        self.width = width
        self.index = index
        self.trackers: dict[tuple[str, str, str], Tracker] = {}
        self.version = 0
        """Bumped by every usage change (headroom caches compare it)."""
        self.user_groups: dict[str, tuple[str, ...]] = {}
        """The core's user group cache: user -> the groups its applications are tracked by."""
        self.versions: dict[tuple[str, str], list[int]] = {}
        self.flipped: list[AppLimits] = []
        """Applications whose nfull changed since the engine last looked (it keeps its held counts in step)."""
        self.waiters: list[object] = []
        """Reserved asks whose last try failed their user's or group's headroom (woken when a usage drops)."""

    def version_of(self, kind: str, who: str) -> list[int]:
        """The shared change counter of a user's (a group's) trackers."""
        return self.versions.setdefault((kind, who), [0])

    def refresh(self, tracker: Tracker) -> None:
        """Keep is_full and the members' nfull in step after the tracker's running applications changed."""
        full = tracker.full()
        if full == tracker.is_full:
            return
        tracker.is_full = full
        delta = 1 if full else -1
        for member in tracker.members:
            member.nfull += delta
            self.flipped.append(member)

    def groups_of(self, user: str, groups: Sequence[str]) -> tuple[str, ...]:
        """UserGroupCache.ConvertUGI with the default resolver, applications taken in submission order: the groups
        given (remembered for the user), else the groups last given for the user by an earlier application, else
        the user's primary group, named after the user (GetUserGroupNoResolve)."""
        if groups:
            self.user_groups[user] = tuple(groups)
        return self.user_groups.setdefault(user, (user,))

    def for_app(self, user: str, groups: Sequence[str], path: Sequence[str]) -> AppLimits | None:
        """The limits of an application of this user and groups in the leaf whose queue path (root first) is
        given; None when nothing limits it."""
        config = self.config
        trackers: list[Tracker] = []
        for queue in path:
            rule = config.user_rule(user, queue)
            if rule is not None and rule.limiting:
                trackers.append(self._tracker(USER, user, queue, rule))
        group = config.group_of(groups, path[-1]) if path else ""
        if group:
            for queue in path:
                rule = config.group_rule(group, queue)
                if rule is not None and rule.limiting:
                    trackers.append(self._tracker(GROUP, group, queue, rule))
        if not trackers:
            return None
        return AppLimits(self, user, group, trackers)

    def _tracker(self, kind: str, who: str, queue: str, rule: Rule) -> Tracker:
        key = (kind, who, queue)
        found = self.trackers.get(key)
        if found is None:
            found = self.trackers[key] = Tracker(rule, self.width, self.index)
        return found


def describe(tracker: Tracker, user: str) -> tuple[str, str]:
    """Who a tracker limits, and a note for wildcard entries: ('user alice', ''), ('group dev of user carol', ''),
    ('user alice', ' (the limit for every user, *)'), ('user erin', ' (the limit for every group, *)')."""
    rule = tracker.rule
    if rule.kind == USER:
        return f"user {user}", " (the limit for every user, *)" if rule.who == WILDCARD else ""
    if rule.who == WILDCARD:
        return f"user {user}", " (the limit for every group, *)"
    return f"group {rule.who} of user {user}", ""
