"""Validator checks of placement rules: names, filters, and the static queue path of each rule chain."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from yk_cli.core.config.go_regexp import go_compile_error, go_regexp_compiles
from yk_cli.core.config.model import Filter, PartitionConfig, PlacementRule, QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Problem, error
from yk_cli.core.lint.checks.validator_limits import GROUP_NAME, USER_NAME

RULE_NAME = re.compile(r"[_a-zA-Z][a-zA-Z0-9_]*")
SPECIAL = re.compile(r"[\^$*+?()\[{}|]")

INVALID_PLACEMENT_RULE_NAME = error(
    "invalid-placement-rule-name",
    "A placement rule (or parent rule) name that is not an identifier.",
    "Rule names must match `^[_a-zA-Z][a-zA-Z0-9_]*$`; YuniKorn refuses anything else, also in `parent` rules, "
    "with `invalid rule name %s, a name must be a valid identifier`. The known rules are provided, user, tag and "
    "fixed (any case). A well-formed but unknown name such as `namespace` passes this check: the scheduler then "
    "logs an error and runs without any placement rules.",
)
INVALID_FILTER_TYPE = error(
    "invalid-filter-type",
    "A placement rule filter type other than allow or deny.",
    "`filter.type` must be empty (allow), `allow` or `deny` in any case. YuniKorn refuses anything else with "
    "`invalid rule filter type %s, filter type  must be either '', allow or deny` (two spaces, as in YuniKorn).",
)
INVALID_FILTER_LIST = error(
    "invalid-filter-list",
    "A one-entry filter user or group list that is neither a valid name nor a regular expression.",
    "A filter list with a single entry is either a name or a regular expression. It must be a valid user name "
    "(`^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$`) or group name (`^[_a-zA-Z][a-zA-Z0-9:_.-]*$`), or else compile as a "
    "Go (RE2) regular expression that contains at least one of `^ $ * + ? ( ) [ { } |`. Otherwise YuniKorn "
    "refuses it with `invalid rule filter user list is not a proper list or regexp: %v` (or `group list`). "
    "Lists with two or more entries are not checked: invalid names in them are silently ignored.",
)
FIXED_RULE_QUALIFIED = error(
    "fixed-rule-qualified",
    "A fixed rule after the first one in a chain uses a fully qualified queue name.",
    "In a chain of rules (a rule with `parent` rules) only the first `fixed` rule may give a fully qualified "
    "name starting with `root`; later ones add a level below it. YuniKorn refuses the config with `illegal "
    "fully qualified 'fixed' rule with value %s`. Drop the `root.` prefix from the later value.",
)
PLACEMENT_RULE_NOT_LEAF = error(
    "placement-rule-not-leaf",
    "A placement rule's fixed path ends at the wrong kind of queue.",
    "YuniKorn follows the static part of each rule chain (the fixed rules up to the first dynamic rule) through "
    "the configured queues. A purely static path must end at a leaf, and a static path followed by a dynamic "
    "rule (user, tag, provided) must end at a parent (`parent: true`). Both cases are refused with the same "
    "text: `placement rule no. #%d (%s) references a queue (%s) which is not a leaf`. The validator only looks "
    "at the explicit `parent: true` flag here (root always counts as a parent), so a queue that has children "
    "but no `parent: true` counts as a leaf.",
)
PLACEMENT_RULE_QUEUE_MISSING = error(
    "placement-rule-queue-missing",
    "A placement rule's fixed path names queues that do not exist and create is false.",
    "When the static part of a rule chain names a queue that is not configured, the rule must have "
    "`create: true`. Otherwise YuniKorn refuses the config with `placement rule no. #%d (%s) references "
    "non-existing queues (%s) and create is 'false'`. Queue names in the path are lower-cased and compared "
    "with the configured names as written, so a queue configured as `Dev` never matches.",
)
PLACEMENT_RULE_UNDER_LEAF = error(
    "placement-rule-under-leaf",
    "A placement rule's fixed path continues below a leaf queue.",
    "Queues cannot be created below a leaf. When the static part of a rule chain goes past a configured queue "
    "without children and without `parent: true`, YuniKorn refuses the config with `placement rule no. #%d (%s) "
    "references non-existing queues (%s) which cannot be created because the last queue (%s) in the hierarchy "
    "is a leaf`. Mark that queue `parent: true` or change the rule's value.",
)

RULES = (
    INVALID_PLACEMENT_RULE_NAME,
    INVALID_FILTER_TYPE,
    INVALID_FILTER_LIST,
    FIXED_RULE_QUALIFIED,
    PLACEMENT_RULE_NOT_LEAF,
    PLACEMENT_RULE_QUEUE_MISSING,
    PLACEMENT_RULE_UNDER_LEAF,
)


class _Result(Enum):
    """Outcome of following a static path through the configured queues."""

    OK = "ok"
    MISSING = "missing"
    NOT_LEAF = "not-leaf"
    UNDER_LEAF = "under-leaf"


@dataclass(frozen=True, slots=True)
class _StaticPath:
    """The longest static queue path of a rule chain, as getLongestStaticPath computes it."""

    path: str
    chain: str
    dynamic: bool
    rule: PlacementRule | None
    """The fixed rule that gave the last part of the path (where problems are reported)."""


def check_rule_syntax(config: SchedulerConfig) -> Iterator[Problem]:
    """Every rule and parent rule has an identifier name and a valid filter."""
    for partition in config.partitions:
        for rule in partition.placementrules:
            for link in _chain(rule):
                yield from _rule_syntax(link)


def _chain(rule: PlacementRule) -> list[PlacementRule]:
    """The rules of a chain, outermost parent first."""
    chain = [rule]
    while chain[0].parent is not None:
        chain.insert(0, chain[0].parent)
    return chain


def _rule_syntax(rule: PlacementRule) -> Iterator[Problem]:
    """checkPlacementRule for one link of a chain: its name and its filter."""
    if not RULE_NAME.fullmatch(rule.name):
        yield INVALID_PLACEMENT_RULE_NAME.problem(
            f"invalid rule name {rule.name}, a name must be a valid identifier",
            (*rule.path, "name"),
            hint="use one of provided, user, tag or fixed.",
        )
    flt = rule.filter
    if flt.type and flt.type.lower() not in ("allow", "deny"):
        yield INVALID_FILTER_TYPE.problem(
            f"invalid rule filter type {flt.type}, filter type  must be either '', allow or deny",
            (*flt.path, "type"),
            hint="use allow or deny (or leave type out, which means allow).",
        )
    yield from _filter_list(flt, "users", flt.users, USER_NAME)
    yield from _filter_list(flt, "groups", flt.groups, GROUP_NAME)


def _filter_list(flt: Filter, key: str, names: Sequence[str], pattern: re.Pattern[str]) -> Iterator[Problem]:
    """checkPlacementFilter for a one-entry user or group list (longer lists are not checked)."""
    if len(names) != 1:
        return
    entry = names[0]
    if pattern.fullmatch(entry) or (SPECIAL.search(entry) and go_regexp_compiles(entry)):
        return
    kind = key[:-1]
    yield INVALID_FILTER_LIST.problem(
        f"invalid rule filter {kind} list is not a proper list or regexp: [{entry}]",
        (*flt.path, key, 0),
        hint=_list_hint(entry, kind),
    )


def _list_hint(entry: str, kind: str) -> str:
    """Why a one-entry list is neither a name nor a regular expression."""
    reason = go_compile_error(entry) if SPECIAL.search(entry) else None
    if reason is not None:
        return f"{entry!r} is not a valid {kind} name, and Go's regexp (RE2 syntax) refuses it: {reason}."
    return (
        f"{entry!r} is neither a valid {kind} name nor a regular expression (one needs at least one of "
        "^ $ * + ? ( ) [ { } |)."
    )


def check_rule_paths(config: SchedulerConfig) -> Iterator[Problem]:
    """The static path of each rule chain must fit the configured queue tree."""
    for partition in config.partitions:
        if partition.queues is None:
            continue
        for number, rule in enumerate(partition.placementrules):
            yield from _rule_path(partition, number, rule)


def _rule_path(partition: PartitionConfig, number: int, rule: PlacementRule) -> Iterator[Problem]:
    """The static path of one top-level rule checked against the queue tree."""
    static, problem = _static_path(rule)
    if problem is not None:
        yield problem
        return
    if static is None or not static.path.startswith("root"):
        return
    parts = static.path.lower().split(".")
    result, last = _follow(parts, rule.create, static.dynamic, (partition.root,), None)
    if result is _Result.OK:
        return
    where = (*static.rule.path, "value") if static.rule is not None else rule.path
    head = f"placement rule no. #{number} ({static.chain}) references"
    if result is _Result.NOT_LEAF:
        yield PLACEMENT_RULE_NOT_LEAF.problem(
            f"{head} a queue ({static.path}) which is not a leaf",
            where,
            hint=f"{static.path} is followed by a dynamic rule, so it must be a parent: set `parent: true` on it "
            "(having children is not enough for this check)."
            if static.dynamic
            else f"{static.path} is a parent queue and applications go to leaves: name a leaf, or let a dynamic "
            "rule (user, tag, provided) follow this one.",
        )
    elif result is _Result.MISSING:
        yield PLACEMENT_RULE_QUEUE_MISSING.problem(
            f"{head} non-existing queues ({static.path}) and create is 'false'",
            where,
            hint="configure the queue (names are matched lower-cased), or set `create: true` on the rule.",
        )
    else:
        yield PLACEMENT_RULE_UNDER_LEAF.problem(
            f"{head} non-existing queues ({static.path}) which cannot be created because the last queue "
            f"({last}) in the hierarchy is a leaf",
            where,
            hint=f"mark {last} as `parent: true`, or point the rule at another queue.",
        )


def _static_path(rule: PlacementRule) -> tuple[_StaticPath | None, Problem | None]:
    """getLongestStaticPath: fixed values up to the first dynamic rule, qualified with root."""
    path = ""
    names: list[str] = []
    dynamic = False
    last: PlacementRule | None = None
    for link in _chain(rule):
        names.append(link.name)
        if dynamic:
            continue
        if link.name.lower() != "fixed":
            path = path or "<dynamic>"
            dynamic = True
            continue
        if link.value.startswith("root"):
            if path:
                return None, FIXED_RULE_QUALIFIED.problem(
                    f"illegal fully qualified 'fixed' rule with value {link.value}",
                    (*link.path, "value"),
                    hint=f"only the first fixed rule of a chain may start with root: write the value relative to "
                    f"{path}.",
                )
            path = link.value
        else:
            path = f"{path or 'root'}.{link.value}"
        last = link
    return _StaticPath(path, "->".join(names), dynamic, last), None


def _follow(
    parts: list[str], create: bool, dynamic: bool, queues: Sequence[QueueConfig], parent: QueueConfig | None
) -> tuple[_Result, str]:
    """checkQueueHierarchyForPlacement: walk the path parts down the configured queues (names as written)."""
    while True:
        if not queues:
            if parent is not None and not parent.parent:
                return _Result.UNDER_LEAF, parent.name
            return (_Result.OK if create else _Result.MISSING), ""
        match = next((q for q in queues if q.name == parts[0]), None)
        if match is None:
            return (_Result.OK if create else _Result.MISSING), ""
        if len(parts) == 1:
            if dynamic:
                return (_Result.OK if match.parent else _Result.NOT_LEAF), ""
            return (_Result.NOT_LEAF if match.parent else _Result.OK), ""
        parts, queues, parent = parts[1:], match.queues, match


CHECKS = (check_rule_syntax, check_rule_paths)
