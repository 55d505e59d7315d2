"""Preemption settings that cannot take effect: switched off on the partition, fenced leaves, no guarantee."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.config.properties import Source
from yk_cli.core.config.queues import Queue
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.walk import partition_trees, property_entries, subtree
from yk_cli.core.resources import QuantityError, parse_resource

PREEMPTION_FENCE_ON_LEAF = warning(
    "preemption-fence-on-leaf",
    "preemption.policy fence on a leaf: asks in that queue can never preempt.",
    "A preemption fence stops the upward search for victims: an ask only looks for victims below the first "
    "fenced queue on its path. YuniKorn never preempts inside the asking queue itself (a leaf is skipped "
    "when it is the ask's own queue), so a fence on a leaf leaves no queue to take victims from: pods in a "
    "fenced leaf can never preempt. The fence is one-way, so pods of other queues can still preempt the "
    "fenced leaf's pods. The same holds for dynamic leaves created from a childtemplate that sets the fence. "
    "Fix: put the fence on the parent whose subtree should keep preemption inside, or use "
    "`preemption.policy: disabled` to protect the leaf's pods.",
)
PREEMPTION_DISABLED = warning(
    "preemption-disabled",
    "A queue preemption setting in a partition with preemption.enabled: false.",
    "With `preemption: {enabled: false}` on the partition (YuniKorn 1.4+; before 1.4 the flag was not used "
    "at all) the scheduler never preempts to restore queue guarantees, so `preemption.delay` and "
    "`preemption.policy` on its queues have no effect. Only DaemonSet pods that must run on one node still "
    "preempt, and that path ignores queues, guarantees, fences and preemption policies. Fix: remove the "
    "settings, or enable preemption on the partition.",
)
QUOTA_PREEMPTION_DISABLED = warning(
    "quota-preemption-disabled",
    "quota.preemption.delay set while the partition does not enable quota preemption.",
    "Quota preemption (YuniKorn 1.8+) preempts pods of a queue whose usage stays above its max for longer "
    "than its `quota.preemption.delay`. It only runs when the partition sets "
    "`preemption: {quotapreemptionenabled: true}`; the default is false, and then the delay has no effect. "
    "Fix: enable quota preemption on the partition, or remove the property.",
)
PREEMPTION_DELAY_NO_GUARANTEE = warning(
    "preemption-delay-no-guarantee",
    "preemption.delay on queues without any guarantee: their asks never preempt.",
    "YuniKorn only preempts for an ask whose queue is (and stays) within a guarantee: the ask must fit the "
    "remaining guarantee of its leaf or of a parent. When neither the leaf nor any parent has "
    "`resources.guaranteed` (a map of zeros counts as none), that check always fails, so no ask in the "
    "queue ever triggers preemption and the `preemption.delay` set for it has no effect. Fix: give the "
    "queue (or a parent) a guarantee, or remove the delay.",
)

RULES = (PREEMPTION_FENCE_ON_LEAF, PREEMPTION_DISABLED, QUOTA_PREEMPTION_DISABLED, PREEMPTION_DELAY_NO_GUARANTEE)


def check_preemption_enabled(config: SchedulerConfig) -> Iterator[Problem]:
    """Preemption properties in partitions that switch preemption (or quota preemption) off."""
    for entry in property_entries(config):
        partition = entry.partition
        if entry.key in (props.PREEMPTION_DELAY, props.PREEMPTION_POLICY) and partition.preemption_enabled is False:
            if entry.key == props.PREEMPTION_POLICY and _policy(entry.text) == "default":
                continue
            yield PREEMPTION_DISABLED.problem(
                f'{entry.key} "{entry.text}" has no effect: partition {partition.display_name} sets '
                "preemption.enabled: false, so YuniKorn never preempts for queue guarantees (only DaemonSet pods "
                "still preempt, and that ignores queue settings)",
                entry.path,
                hint="remove it, or set preemption.enabled: true on the partition",
            )
        if entry.key == props.QUOTA_PREEMPTION_DELAY and partition.quota_preemption_enabled is not True:
            parsed = props.parse_property(entry.key, entry.text)
            if not parsed.ok:
                continue  # invalid-property-value: quota preemption is off for this queue anyway
            state = "false" if partition.quota_preemption_enabled is False else "not set"
            yield QUOTA_PREEMPTION_DISABLED.problem(
                f'quota.preemption.delay "{entry.text}" has no effect: quota preemption is off in partition '
                f"{partition.display_name} (preemption.quotapreemptionenabled is {state})",
                entry.path,
                hint="set preemption.quotapreemptionenabled: true on the partition (YuniKorn 1.8+)",
            )


def _policy(text: str) -> str:
    """The preemption policy YuniKorn uses for a text."""
    return str(props.parse_property(props.PREEMPTION_POLICY, text).value)


def check_fenced_leaves(config: SchedulerConfig) -> Iterator[Problem]:
    """preemption.policy fence on configured leaves and in child templates (dynamic leaves)."""
    trees = {id(p): t for p, t in partition_trees(config)}
    for entry in property_entries(config):
        if entry.key != props.PREEMPTION_POLICY or _policy(entry.text) != "fence":
            continue
        if entry.partition.preemption_enabled is False:
            continue  # preemption-disabled says it all
        tree = trees.get(id(entry.partition))
        queue = tree.get(entry.queue) if tree else None
        if queue is None or queue.config is None or queue.config.path != entry.config.path:
            continue
        if entry.template:
            if queue.is_leaf:
                continue  # the template is ignored: childtemplate-on-leaf
            where = f"the childtemplate of {queue.path} fences every dynamic leaf created from it"
        elif queue.is_leaf:
            where = f"preemption.policy fence on leaf {queue.path} stops the victim search at the leaf itself"
        else:
            continue
        yield PREEMPTION_FENCE_ON_LEAF.problem(
            f"{where}, and YuniKorn never preempts inside the asking queue: its asks can never preempt (only "
            "DaemonSet pods tied to a node still do; its pods can still be preempted from outside)",
            entry.path,
            hint="put the fence on the parent whose subtree should keep preemption inside, or use disabled to "
            "protect the pods",
        )


def check_delay_without_guarantee(config: SchedulerConfig) -> Iterator[Problem]:
    """preemption.delay that applies only to leaves with no guarantee anywhere on their path."""
    for partition, tree in partition_trees(config):
        if partition.preemption_enabled is False:
            continue
        for queue in tree.queues.values():
            if queue.config is None or props.PREEMPTION_DELAY not in queue.config.properties:
                continue
            leaves = [q for q in subtree(queue) if q.is_leaf and not q.dynamic and _delay_from(q, queue)]
            if not leaves or any(_guaranteed(leaf) or _unreadable_guarantee(leaf) for leaf in leaves):
                continue
            yield _no_guarantee_problem(queue, leaves)


def _delay_from(leaf: Queue, origin: Queue) -> bool:
    """Whether a leaf's preemption.delay comes from origin (its own setting or inherited from it)."""
    setting = leaf.setting(props.PREEMPTION_DELAY)
    return setting.origin == origin.path and setting.source in (Source.SET, Source.INHERITED)


def _guaranteed(leaf: Queue) -> bool:
    """Whether the leaf or any parent has a (non-zero) guarantee."""
    return any(q.guaranteed for q in leaf.ancestors())


def _unreadable_guarantee(leaf: Queue) -> bool:
    """Whether the leaf or a parent writes a guarantee yk cannot read (an invalid-quantity error): whether it has
    one is then not known."""
    for queue in leaf.ancestors():
        if queue.config is not None and queue.config.resources.guaranteed:
            try:
                parse_resource(queue.config.resources.guaranteed)
            except QuantityError:
                return True
    return False


def _no_guarantee_problem(queue: Queue, leaves: list[Queue]) -> Problem:
    """The problem for a delay whose queues can never preempt."""
    text = queue.properties.entries[props.PREEMPTION_DELAY][0]
    subject = leaves[0].path if len(leaves) == 1 else f"the {len(leaves)} leaves it applies to"
    assert queue.config is not None
    return PREEMPTION_DELAY_NO_GUARANTEE.problem(
        f'preemption.delay "{text}" on {queue.path} has no effect: YuniKorn preempts only for asks whose queue or '
        f"a parent has a guarantee, and neither {subject} nor any parent has resources.guaranteed",
        (*queue.config.path, "properties", props.PREEMPTION_DELAY),
        hint=f"give {queue.path} (or a parent) resources.guaranteed, or remove the delay",
    )


CHECKS = (check_preemption_enabled, check_fenced_leaves, check_delay_without_guarantee)
