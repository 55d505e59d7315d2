"""Queue resources and child templates YuniKorn ignores or never uses."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config.model import Resources, SchedulerConfig
from yk_cli.core.config.queues import template_is_empty
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.placement import creates_queues, rules_usable
from yk_cli.core.lint.checks.walk import partition_trees
from yk_cli.core.resources import VCORE, QuantityError, parse_resource

ZERO_RESOURCES = warning(
    "zero-resources",
    "A guaranteed or max map of zeros is ignored (no limit); a zero vcore/memory max blocks every pod.",
    "When YuniKorn builds a queue it keeps `resources.guaranteed` and `resources.max` only when they are "
    "strictly greater than zero. A map whose values are all zero (`max: {vcore: 0}`) passes validation and "
    "is then dropped: the queue has no max at all (only its parents and the cluster limit it) or no "
    "guarantee, the opposite of what a zero limit suggests. A zero next to a positive value is kept and "
    "means 'none of that type': `max: {memory: 0, vcore: 10}` admits no pod that requests memory. Fix: "
    "remove the map (or the zero entry), or write the limit you mean; to stop a queue from running "
    "anything, set a small positive max or remove the submit ACL.",
)
CHILDTEMPLATE_ON_LEAF = warning(
    "childtemplate-on-leaf",
    "A childtemplate on a leaf queue: YuniKorn ignores it.",
    "A child template is the set of properties and resources YuniKorn gives to the dynamic leaf queues that "
    "placement rules create below a parent. Only parent queues read it: on a configured leaf the "
    "`childtemplate` is never looked at (not even its quantities are parsed), and a configured leaf never "
    "gets a template itself. Fix: move the childtemplate to the parent below which the dynamic queues are "
    "created, or add `parent: true` if dynamic queues should be created below this queue.",
)
UNUSED_CHILDTEMPLATE = warning(
    "unused-childtemplate",
    "A childtemplate in a partition whose placement rules never create a queue.",
    "A child template only matters for dynamic queues, which only a placement rule (or one of its parent "
    "rules) with `create: true` creates. Without any such rule (no placement rules at all means the "
    "implicit `provided` rule with create false), or when the placement rules cannot be built (an unknown "
    "rule name), no dynamic queue is ever created and every childtemplate in the partition is unused. Fix: "
    "add `create: true` to the rule that should create queues, or remove the template.",
)

RULES = (ZERO_RESOURCES, CHILDTEMPLATE_ON_LEAF, UNUSED_CHILDTEMPLATE)
_BLOCKING = {VCORE: "CPU", "memory": "memory"}


def check_zero_resources(config: SchedulerConfig) -> Iterator[Problem]:
    """All-zero guaranteed/max maps, and zero vcore/memory next to positive values in max (queues and templates)."""
    for _partition, tree in partition_trees(config):
        for queue in tree.queues.values():
            if queue.config is None:
                continue
            if queue.parent is not None:  # root resources are a validation error
                yield from _zero_maps(queue.config.resources, "{kind} of " + queue.path, f"{queue.path} has")
            template = queue.config.childtemplate
            if not queue.is_leaf and template.present:
                label = "childtemplate {kind} of " + queue.path
                yield from _zero_maps(template.resources, label, "the dynamic queues created from it have")


def _zero_maps(resources: Resources, label: str, subject: str) -> Iterator[Problem]:
    """Zero problems of one resources block: label names a map ({kind} filled in), subject who loses the limit."""
    for kind, values in (("guaranteed", resources.guaranteed), ("max", resources.max)):
        try:
            parsed = parse_resource(values)
        except QuantityError:
            continue  # an invalid quantity is an error elsewhere
        if not parsed:
            continue
        name_of = label.format(kind=kind)
        if not any(parsed.values()):
            them = "them" if subject.endswith(" have") else "it"
            lacks = f"no max: only parent queues and the cluster size limit {them}" if kind == "max" else "no guarantee"
            yield ZERO_RESOURCES.problem(
                f"{name_of} has only zero values: YuniKorn ignores it, so {subject} {lacks}",
                (*resources.path, kind),
                hint=f"remove {kind}, or write the amounts you mean",
                anchor="key",
            )
        elif kind == "max":
            for name in sorted(parsed):
                if parsed[name] == 0 and name in _BLOCKING:
                    who = subject.rsplit(" ", 1)[0]
                    yield ZERO_RESOURCES.problem(
                        f"{name} in the {name_of} is 0 next to positive values: YuniKorn keeps it, so no pod that "
                        f"requests {_BLOCKING[name]} can run in {who}",
                        (*resources.path, kind, name),
                        hint=f"remove the {name} entry for no {name} limit, or write a positive amount",
                    )


def check_child_templates(config: SchedulerConfig) -> Iterator[Problem]:
    """Child templates on leaves, and templates in partitions that never create a queue."""
    for partition, tree in partition_trees(config):
        creates = creates_queues(partition)
        for queue in tree.queues.values():
            if queue.config is None or not queue.config.childtemplate.present:
                continue
            if template_is_empty(queue.config.childtemplate):
                continue  # an empty template is no template: nothing is lost
            path = queue.config.childtemplate.path
            if queue.is_leaf:
                yield CHILDTEMPLATE_ON_LEAF.problem(
                    f"childtemplate on leaf queue {queue.path} is ignored: only a parent hands a template to the "
                    "dynamic queues created below it",
                    path,
                    hint=f"move it to the parent of {queue.path}, or add `parent: true` if dynamic queues should "
                    "be created below it",
                    anchor="key",
                )
            elif not creates:
                reason = (
                    "its placement rules cannot be built (unknown rule name)"
                    if not rules_usable(partition)
                    else "no placement rule has create: true"
                )
                yield UNUSED_CHILDTEMPLATE.problem(
                    f"childtemplate on {queue.path} is never used: {reason} in partition "
                    f"{partition.display_name}, so YuniKorn creates no dynamic queue",
                    path,
                    hint="add create: true to the placement rule that should create queues, or remove the template",
                    anchor="key",
                )


CHECKS = (check_zero_resources, check_child_templates)
