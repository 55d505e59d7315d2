"""Properties set where they do not act as written: on root, leaf-only ones on parents, and dynamic queues."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.config.properties import Source
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.placement import DynamicTarget, dynamic_targets
from yk_cli.core.lint.checks.walk import describe_queues, partition_trees, property_path, subtree

PROPERTY_ON_ROOT = warning(
    "property-on-root",
    "priority.policy, priority.offset or preemption.policy fence on root: root's priority is never compared.",
    "Root has no siblings, so its own priority is never compared with another queue: a root "
    "`priority.offset` or `priority.policy: fence` does not change the order in which queues or "
    "applications are scheduled (the seed design says they have no effect). They are not completely inert "
    "in the real core, though: when an ask looks for preemption victims, YuniKorn walks up from its leaf "
    "adding each queue's offset to the ask's priority (or replacing it with the offset at a priority fence) "
    "up to the preemption fence, which is root unless a `preemption.policy: fence` is met first. A root "
    "offset is therefore added to every such ask, letting it preempt pods in other top-level queues up to "
    "that much above (or only that much below) its own priority, and a root priority fence replaces every "
    "ask's priority by root's offset. `preemption.policy: fence` on root has no effect at all: root already "
    "ends every victim search. (`preemption.policy: disabled` on root is not flagged here: it is inherited "
    "by every configured queue and protects all their pods.) Fix: remove the property from root; set "
    "offsets and fences on the queues below it.",
)
LEAF_PROPERTY_ON_PARENT = warning(
    "leaf-property-on-parent",
    "application.sort.policy or preemption.delay on a parent: only its static leaves use it.",
    "`application.sort.policy` and `preemption.delay` are only applied on leaf queues: a parent always sorts "
    "its child queues fair and has no asks of its own. The seed documents say such a setting on a parent "
    "has no effect. The real core does something else: a configured child inherits every property of its "
    "parent (except priority.policy, priority.offset and a non-disabled preemption.policy), so the value "
    "becomes the setting of every static leaf below that does not set its own. Dynamic queues created "
    "under the parent by placement rules inherit nothing: they only get the parent's childtemplate "
    "properties, so they use the default (fifo, 30s) unless the template sets the key. Fix: set the "
    "property on the leaves that need it, and in the parent's childtemplate for dynamic queues.",
)
NOT_INHERITED_BY_DYNAMIC = warning(
    "not-inherited-by-dynamic",
    "A property that configured children inherit but the dynamic queues placement rules create do not.",
    "Configured (static) queues inherit their parent's properties: `preemption.policy: disabled`, "
    "`application.sort.priority: disabled`, the backoff settings and so on reach the whole static subtree. "
    "Dynamic queues, created by a placement rule with `create: true`, inherit none of them: YuniKorn gives "
    "a dynamic leaf only the properties of the nearest childtemplate, and otherwise the defaults (priority "
    "sorting on, preemption policy default, ...). The seed design says properties are fully supported for "
    "dynamic queues; that only holds through the childtemplate. yk reports this when a rule whose parent "
    "chain is fixed (or absent) can create queues under a parent that has such a property in effect and no "
    "childtemplate entry for it. Fix: repeat the property in that parent's childtemplate.properties.",
)

RULES = (PROPERTY_ON_ROOT, LEAF_PROPERTY_ON_PARENT, NOT_INHERITED_BY_DYNAMIC)

_LEAF_ONLY = (props.SORT_POLICY, props.PREEMPTION_DELAY)
_NOT_INHERITED = (props.PRIORITY_POLICY, props.PRIORITY_OFFSET, props.QUOTA_PREEMPTION_DELAY)
_ON_PARENT = {
    props.SORT_POLICY: "a parent always sorts its child queues fair",
    props.PREEMPTION_DELAY: "a parent has no asks of its own",
}


def check_root_properties(config: SchedulerConfig) -> Iterator[Problem]:
    """Priority settings and a preemption fence on root."""
    for _partition, tree in partition_trees(config):
        root = tree.root
        own = root.config.properties if root.config else {}
        offset = root.setting(props.PRIORITY_OFFSET)
        if props.PRIORITY_OFFSET in own and not offset.fallback and offset.value != 0:
            value = int(offset.value)  # type: ignore[call-overload]
            reach = f"up to {value} above" if value > 0 else f"only {-value} or more below"
            yield PROPERTY_ON_ROOT.problem(
                f"priority.offset {value} on root does not change scheduling order (root's priority is never "
                f"compared); it is only added to the priority of every ask whose preemption victim search "
                f"reaches root, which may then preempt pods in other top-level queues {reach} its own priority",
                property_path(root, props.PRIORITY_OFFSET),
                hint="remove it; give the top-level queues offsets instead",
            )
        if props.PRIORITY_POLICY in own and root.priority_fence:
            yield PROPERTY_ON_ROOT.problem(
                "priority.policy fence on root does not change scheduling order (root's priority is never "
                f"compared); it only replaces the priority of every ask whose preemption victim search reaches "
                f"root by root's offset ({root.priority_offset}), whatever the ask's own priority",
                property_path(root, props.PRIORITY_POLICY),
                hint="remove it; fence the top-level queues that should be priority fences",
            )
        if props.PREEMPTION_POLICY in own and root.preemption_policy == "fence":
            yield PROPERTY_ON_ROOT.problem(
                "preemption.policy fence on root has no effect: root already ends every preemption victim search",
                property_path(root, props.PREEMPTION_POLICY),
                hint="remove it; fence the queues whose subtree should keep preemption inside",
            )


def check_leaf_properties_on_parents(config: SchedulerConfig) -> Iterator[Problem]:
    """application.sort.policy / preemption.delay on a parent: where the value really goes."""
    for partition, tree in partition_trees(config):
        for queue in tree.queues.values():
            if queue.is_leaf or queue.config is None:
                continue
            for key in _LEAF_ONLY:
                if key not in queue.config.properties:
                    continue
                if key == props.PREEMPTION_DELAY and partition.preemption_enabled is False:
                    continue  # preemption-disabled: the delay matters nowhere
                setting = queue.setting(key)
                if not setting.fallback and setting.value == props.DEFINITIONS[key].default:
                    continue  # the default: nothing is lost anywhere
                yield _leaf_property_problem(tree, queue, key, setting.text or "")


def _leaf_property_problem(tree: QueueTree, queue: Queue, key: str, text: str) -> Problem:
    """Where a leaf-only property set on a parent really applies."""
    inheriting = [q.path for q in subtree(queue) if q.is_leaf and not q.dynamic and _inherits(q, key, queue)]
    template = queue.template is not None and key in queue.template.properties
    dynamic = (
        "dynamic queues created under it get the childtemplate value instead"
        if template
        else "dynamic queues created under it get nothing (only childtemplate properties), so they use "
        f"{props.DEFINITIONS[key].default_text}"
    )
    head = f'{key} "{text}" on parent {queue.path}'
    if inheriting:
        count = "its static leaf" if len(inheriting) == 1 else f"{len(inheriting)} static leaves"
        message = (
            f"{head} does not apply to the parent itself ({_ON_PARENT[key]}); YuniKorn passes it down to "
            f"{count}: {describe_queues(inheriting)}; but {dynamic}"
        )
        hint = f"set {key} on the leaves that need it (and in the childtemplate for dynamic queues)"
    else:
        leaves = "every static leaf below sets its own value" if _has_static_leaf(queue) else "it has no static leaf"
        message = (
            f"{head} has no effect: it does not apply to the parent itself ({_ON_PARENT[key]}), {leaves}, and {dynamic}"
        )
        hint = f"remove it, or move it into the childtemplate of {queue.path} for dynamic queues"
    return LEAF_PROPERTY_ON_PARENT.problem(message, property_path(queue, key), hint=hint)


def _inherits(queue: Queue, key: str, parent: Queue) -> bool:
    """Whether a queue's value of key is inherited from the given parent."""
    setting = queue.setting(key)
    return setting.source == Source.INHERITED and setting.origin == parent.path


def _has_static_leaf(queue: Queue) -> bool:
    """Whether a configured leaf exists below a queue."""
    return any(q.is_leaf and not q.dynamic for q in subtree(queue) if q is not queue)


def check_dynamic_inheritance(config: SchedulerConfig) -> Iterator[Problem]:
    """Properties in effect on a parent that dynamic queues created below it will not get."""
    for partition, tree in partition_trees(config):
        found: dict[tuple[str, str], list[DynamicTarget]] = {}
        for target in dynamic_targets(partition, tree):
            parent = tree.get(target.queue)
            assert parent is not None
            template = parent.template.properties if parent.template is not None else {}
            for key, (text, _source, origin) in parent.properties.entries.items():
                if template.get(key) or not _dynamic_loses(key, text):
                    continue
                if key == props.PREEMPTION_POLICY and partition.preemption_enabled is False:
                    continue  # preemption-disabled: the policy matters nowhere
                found.setdefault((origin, key), []).append(target)
        for (origin, key), targets in found.items():
            queue = tree.get(origin)
            assert queue is not None
            yield _dynamic_problem(tree, queue, key, targets)


def _dynamic_loses(key: str, text: str) -> bool:
    """Whether a dynamic leaf misses something by not inheriting this property (it differs from the default)."""
    if key in _NOT_INHERITED or key in _LEAF_ONLY or key not in props.DEFINITIONS:
        return False  # not inherited anyway, reported by leaf-property-on-parent, or ignored everywhere
    if key == props.PREEMPTION_POLICY:
        return text.lower() == "disabled"
    parsed = props.parse_property(key, text)
    return parsed.ok and parsed.value != props.DEFINITIONS[key].default


def _dynamic_problem(tree: QueueTree, origin: Queue, key: str, targets: list[DynamicTarget]) -> Problem:
    """A property that dynamic queues created under the given parents do not inherit."""
    text = origin.properties.entries[key][0]
    parents = describe_queues(sorted({t.queue for t in targets}))
    chains = ", ".join(sorted({t.rule for t in targets}))
    if key == props.PREEMPTION_POLICY:
        effect = "so their pods can be preempted"
    else:
        effect = f"so they use the default {props.DEFINITIONS[key].default_text}"
    template_owner = tree.get(targets[0].queue)
    owner = template_owner.template_origin if template_owner and template_owner.template_origin else targets[0].queue
    return NOT_INHERITED_BY_DYNAMIC.problem(
        f'{key} "{text}" on {origin.path} reaches only configured queues: the dynamic queues that placement rule '
        f"{chains} can create under {parents} inherit no properties (YuniKorn gives them only childtemplate "
        f"properties), {effect}",
        property_path(origin, key),
        hint=f'add `{key}: "{text}"` to the childtemplate.properties of {owner}',
    )


CHECKS = (check_root_properties, check_leaf_properties_on_parents, check_dynamic_inheritance)
