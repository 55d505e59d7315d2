"""Placement rules as the placement manager builds them: unknown rule names, and where dynamic queues appear."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from yk_cli.core.config.model import PartitionConfig, PlacementRule, SchedulerConfig
from yk_cli.core.config.placement import KNOWN_RULES, build_rules
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.walk import partition_trees

_IDENTIFIER = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_]*$")
_NO_RULES = (
    "loads with no placement rules at all, so every application is rejected (`application rejected: no placement "
    "rule matched`); a reload with this config is refused"
)

UNKNOWN_PLACEMENT_RULE = warning(
    "unknown-placement-rule",
    "A placement rule name YuniKorn does not know: the partition ends up with no placement rules at all.",
    "YuniKorn's config validator only checks that a rule name is an identifier, so `name: namespace` "
    "passes validation. Building the placement manager then fails (`unknown rule name specified namespace, "
    "failing placement rule config`). When the partition is first created this is only logged and the "
    "placement manager runs with an empty rule list (not even the implicit `provided` rule or the "
    "internal recovery rule), so every application is rejected with `application rejected: no placement "
    "rule matched`. On a config reload the same error makes YuniKorn refuse the new config and keep the old "
    "one. Known rules (case-insensitive): provided, user, fixed, tag; `recovery` is internal and cannot be "
    "configured. Fix: use a known rule, e.g. `name: tag` with `value: namespace` to place by namespace.",
)
PLACEMENT_RULE_INCOMPLETE = warning(
    "placement-rule-incomplete",
    "A tag or fixed rule YuniKorn cannot build (no value, or a qualified fixed queue under a parent rule).",
    "Some placement rules pass the config validator but fail when the placement manager builds them: a `tag` "
    "rule without `value` (`a tag queue rule must have a tag name set`), a `fixed` rule without `value` whose "
    "rule has `create: true` (with create false the validator already refuses it), and a fixed rule with a "
    "fully qualified queue (`root.x`) below a non-fixed parent rule (`cannot have a fixed queue rule with "
    "qualified queue name ... and a parent rule`). As with an unknown rule name, the partition is then built "
    "with no placement rules at all and every application is rejected; a reload with such a config is "
    "refused. Fix: give the rule its value (`value: namespace` for a tag rule), or drop the parent rule of a "
    "fully qualified fixed rule.",
)

RULES = (UNKNOWN_PLACEMENT_RULE, PLACEMENT_RULE_INCOMPLETE)


@dataclass(frozen=True, slots=True)
class DynamicTarget:
    """A configured parent queue directly below which a placement rule can create dynamic queues."""

    queue: str
    rule: str
    """The rule chain that creates them, e.g. fixed->tag."""


def rule_chain(rule: PlacementRule) -> list[PlacementRule]:
    """A rule and its parent rules, outermost parent first (the order YuniKorn resolves them)."""
    chain = [rule]
    while chain[0].parent is not None:
        chain.insert(0, chain[0].parent)
    return chain


def unknown_rules(partition: PartitionConfig) -> list[PlacementRule]:
    """Rules (parents included) whose name the placement manager does not know, in file order."""
    found = []
    for rule in partition.placementrules:
        for link in reversed(rule_chain(rule)):
            if _IDENTIFIER.match(link.name) and link.name.lower() not in KNOWN_RULES:
                found.append(link)
    return found


def incomplete_rules(partition: PartitionConfig) -> list[tuple[PlacementRule, str]]:
    """Known rules the placement manager cannot build although the validator accepts them, and why."""
    found = []
    for rule in partition.placementrules:
        chain = rule_chain(rule)
        for index, link in enumerate(chain):
            kind = link.name.lower()
            if kind == "tag" and not link.value:
                found.append((link, "`a tag queue rule must have a tag name set`"))
            elif kind == "fixed" and not link.value and rule.create:
                found.append((link, "`a fixed queue rule must have a queue name set`"))
            elif kind == "fixed" and link.value.lower().startswith("root") and _dynamic_before(chain, index):
                found.append((link, "a fixed rule with a fully qualified queue cannot have a parent rule"))
    return found


def _dynamic_before(chain: list[PlacementRule], index: int) -> bool:
    """Whether a non-fixed rule precedes position index (compared case-sensitively, as the validator does).

    With only fixed rules before it, the validator already refuses a qualified fixed rule (illegal fully qualified).
    """
    return any(parent.name != "fixed" for parent in chain[:index])


def rules_usable(partition: PartitionConfig) -> bool:
    """Whether the placement manager builds the partition's rules (it runs with none when that fails)."""
    return not build_rules(partition)[1]


def creates_queues(partition: PartitionConfig) -> bool:
    """Whether any placement rule (or parent rule) can create a queue: create: true and buildable rules."""
    if not rules_usable(partition):
        return False
    return any(link.create for rule in partition.placementrules for link in rule_chain(rule))


def dynamic_targets(partition: PartitionConfig, tree: QueueTree) -> list[DynamicTarget]:
    """Configured parents below which a rule with create: true can create dynamic leaf queues.

    Only what is certain from the config: rules whose parent chain is made of fixed rules (or empty). A rule
    under a tag/user/provided parent rule can create queues below parents that are only known at run time.
    """
    if not rules_usable(partition):
        return []
    targets: list[DynamicTarget] = []
    for rule in partition.placementrules:
        if not rule.create:
            continue
        chain = rule_chain(rule)
        if any(link.name.lower() != "fixed" for link in chain[:-1]):
            continue
        base = "root"
        for link in chain[:-1]:
            base = _fixed_path(base, link.value)
        names = "->".join(link.name for link in chain)
        if rule.name.lower() == "fixed":
            if not rule.value:
                continue
            full = _fixed_path(base, rule.value)
            if tree.get(full) is not None:
                continue
            parent = _existing_ancestor(tree, full.rsplit(".", 1)[0])
        elif rule.name.lower() in ("provided", "user", "tag"):
            parent = _existing_ancestor(tree, base)
        else:
            continue
        if parent and not any(t.queue == parent and t.rule == names for t in targets):
            targets.append(DynamicTarget(parent, names))
    return targets


def _fixed_path(base: str, value: str) -> str:
    """The queue path a fixed rule names: a value starting with root is fully qualified."""
    value = value.lower()
    return value if value.startswith("root") else f"{base}.{value}"


def _existing_ancestor(tree: QueueTree, path: str) -> str:
    """The nearest configured parent queue at or above path, or '' when that is a leaf."""
    while path:
        queue = tree.get(path)
        if queue is not None:
            return "" if queue.is_leaf else queue.path
        path = path.rsplit(".", 1)[0] if "." in path else ""
    return ""


def check_placement_rules(config: SchedulerConfig) -> Iterator[Problem]:
    """Rules the placement manager cannot build: unknown names and incomplete tag/fixed rules."""
    for partition, _tree in partition_trees(config):
        for rule in unknown_rules(partition):
            yield _unknown_rule_problem(partition, rule)
        for rule, error in incomplete_rules(partition):
            yield PLACEMENT_RULE_INCOMPLETE.problem(
                f"{rule.name} rule cannot be built ({error}): partition {partition.display_name} {_NO_RULES}",
                (*rule.path, "name"),
                hint="add `value: namespace` (or the tag to place by)"
                if rule.name.lower() == "tag"
                else "give the fixed rule a queue name"
                if not rule.value
                else "remove the parent rule: a fully qualified fixed queue needs none",
            )


def _unknown_rule_problem(partition: PartitionConfig, rule: PlacementRule) -> Problem:
    """The problem for one unknown rule name, with a suggestion."""
    name = rule.name
    if name.lower() == "recovery":
        hint = "remove it: YuniKorn always appends the recovery rule itself"
    elif name.lower() in ("namespace", "namespaces"):
        hint = "to place by namespace write `name: tag` with `value: namespace`"
    else:
        hint = "use one of: provided, user, fixed, tag"
    if name.lower() == "recovery":
        message = f'placement rule "{name}" is internal and cannot be configured: partition {partition.display_name}'
        message += f" {_NO_RULES}"
    else:
        message = (
            f'placement rule "{name}" does not exist: partition {partition.display_name} {_NO_RULES} (`unknown rule '
            f"name specified {name}, failing placement rule config`)"
        )
    return UNKNOWN_PLACEMENT_RULE.problem(
        message,
        (*rule.path, "name"),
        hint=hint,
    )


CHECKS = (check_placement_rules,)
