"""Validator checks of queue resources (checkQueueResource) and the build-time parse of child templates."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config.model import QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Path, Problem, error
from yk_cli.core.lint.checks.validator_common import (
    INVALID_QUANTITY,
    QUANTITY_HINT,
    fits_max_undef,
    is_zero,
    parse_map,
    partitions_with_queues,
    saturating_add,
    walk,
)
from yk_cli.core.resources import Resource, component_min, format_resource, go_map

GUARANTEED_OVER_MAX = error(
    "guaranteed-over-max",
    "A queue guarantees more than its own max.",
    "For every resource type a queue's `max` defines, its `guaranteed` value may not be larger. YuniKorn refuses "
    "the config with `guaranteed resource %s is larger than maximum resource %s for queue %s`, printing the maps "
    "in internal units (vcore in millicores, memory in bytes). Types missing from max are unlimited.",
)
CHILD_MAX_OVER_PARENT = error(
    "child-max-over-parent",
    "A queue's max is larger than the max of a parent or ancestor.",
    "A queue's `max` may not exceed, for any type, the smallest max set on any of its ancestors (a level "
    "without a max does not lift the limit of the levels above it). YuniKorn refuses the config with `max "
    "resource of parent %s is smaller than maximum resource %s for queue %s`, where the parent value is that "
    "component-wise minimum over the ancestors. Lower the child's max or raise the ancestor's.",
)
CHILDREN_GUARANTEED_OVER_PARENT = error(
    "children-guaranteed-over-parent",
    "The children together are guaranteed more than their parent.",
    "The sum of the guaranteed resources of a queue's children may not exceed the queue's own guarantee for any "
    "type it defines. A child without a guarantee counts with the sum of its own children. YuniKorn refuses the "
    "config with `guaranteed resource of parent %s is smaller than sum of guaranteed resources %s of the children "
    "for queue %s`. Raise the parent's guarantee or lower the children's.",
)
CHILDREN_GUARANTEED_OVER_MAX = error(
    "children-guaranteed-over-max",
    "The children together are guaranteed more than their parent's max.",
    "The sum of the children's guarantees may not exceed the queue's effective max: its own max, capped by the "
    "maxes of all its ancestors. YuniKorn refuses the config with `max resource %s is smaller than sum of "
    "guaranteed resources %s of the children for queue %s`.",
)
CHILDTEMPLATE_INVALID_QUANTITY = error(
    "childtemplate-invalid-quantity",
    "A child template quantity that cannot be parsed (build-time failure).",
    "The validator never looks at `childtemplate`, so a bad quantity there passes validation (and the admission "
    "webhook). When the scheduler builds the parent queue it parses the template and fails: `configured queue "
    "creation failed: invalid quantity` (YuniKorn puts a line break after the colon; the text may also be "
    "`invalid suffix` or `invalid quantity: overflow`), and the old config stays active. Only parent queues use "
    "a template; one on a leaf is ignored and not parsed. " + QUANTITY_HINT + ".",
)

RULES = (
    INVALID_QUANTITY,
    GUARANTEED_OVER_MAX,
    CHILD_MAX_OVER_PARENT,
    CHILDREN_GUARANTEED_OVER_PARENT,
    CHILDREN_GUARANTEED_OVER_MAX,
    CHILDTEMPLATE_INVALID_QUANTITY,
)


def check_queue_resources(config: SchedulerConfig) -> Iterator[Problem]:
    """Quantities parse, guaranteed fits max, max fits the ancestors, and the children's guarantees fit."""
    for partition in partitions_with_queues(config):
        problems: list[Problem] = []
        _queue_resources(partition.root, None, problems, is_root=True)
        yield from problems


def _queue_resources(
    queue: QueueConfig, parent_max: Resource | None, problems: list[Problem], is_root: bool = False
) -> Resource | None:
    """Check one queue and its subtree; return the guarantee it passes up (None when a quantity did not parse)."""
    path = queue.resources.path
    guaranteed: Resource | None = {}
    maximum: Resource | None = {}
    if not is_root:  # root resources are refused on their own (root-resources)
        guaranteed = parse_map(queue.resources.guaranteed, (*path, "guaranteed"), problems)
        maximum = parse_map(queue.resources.max, (*path, "max"), problems)
    problems.extend(_own_limits(queue, guaranteed, maximum, parent_max))
    effective = component_min(maximum, parent_max)
    total: Resource = {}
    known = True
    for child in queue.queues:
        passed = _queue_resources(child, effective, problems)
        if passed is None:
            known = False
        else:
            total = saturating_add(total, passed)
    if known:
        problems.extend(_children_sum(queue, guaranteed, effective, total))
    if guaranteed is None:
        return None
    if is_zero(guaranteed):
        return total if known else None
    return guaranteed


def _own_limits(
    queue: QueueConfig, guaranteed: Resource | None, maximum: Resource | None, parent_max: Resource | None
) -> Iterator[Problem]:
    """checkResourceConfig and the parent-max check for one queue."""
    path = queue.resources.path
    if guaranteed is not None and maximum is not None and not fits_max_undef(maximum, guaranteed):
        yield GUARANTEED_OVER_MAX.problem(
            f"guaranteed resource {go_map(guaranteed)} is larger than maximum resource {go_map(maximum)} "
            f"for queue {queue.name}",
            (*path, "guaranteed"),
            hint=f"lower the guarantee of {queue.name} to at most its max, type by type, or raise the max.",
            anchor="key",
        )
    if maximum is not None and not fits_max_undef(parent_max, maximum):
        yield CHILD_MAX_OVER_PARENT.problem(
            f"max resource of parent {go_map(parent_max or {})} is smaller than maximum resource {go_map(maximum)} "
            f"for queue {queue.name}",
            (*path, "max"),
            hint=f"the ancestors of {queue.name} cap it at {format_resource(parent_max or {})}; lower its max "
            "accordingly.",
            anchor="key",
        )


def _children_sum(
    queue: QueueConfig, guaranteed: Resource | None, effective: Resource | None, total: Resource
) -> Iterator[Problem]:
    """The children's summed guarantees against the queue's guarantee and effective max."""
    path = queue.resources.path
    if guaranteed is not None and not fits_max_undef(guaranteed, total):
        yield CHILDREN_GUARANTEED_OVER_PARENT.problem(
            f"guaranteed resource of parent {go_map(guaranteed)} is smaller than sum of guaranteed resources "
            f"{go_map(total)} of the children for queue {queue.name}",
            (*path, "guaranteed"),
            hint=f"the children of {queue.name} are guaranteed {format_resource(total)} together; raise the parent's "
            "guarantee or lower theirs.",
            anchor="key",
        )
    if not fits_max_undef(effective, total):
        where: Path = (*path, "max") if queue.resources.max_set else (*queue.path, "queues")
        yield CHILDREN_GUARANTEED_OVER_MAX.problem(
            f"max resource {go_map(effective or {})} is smaller than sum of guaranteed resources {go_map(total)} "
            f"of the children for queue {queue.name}",
            where,
            hint=f"the children of {queue.name} are guaranteed {format_resource(total)} together, more than the "
            f"{format_resource(effective or {})} it may use (its max capped by its ancestors').",
            anchor="key",
        )


def template_quantity(text: str, name: str, value: str, path: Path) -> Problem:
    """The childtemplate-invalid-quantity problem for one value the queue builder cannot parse."""
    return CHILDTEMPLATE_INVALID_QUANTITY.problem(
        f"configured queue creation failed: {text}",
        path,
        hint=f"{name}: {value!r} in the child template is refused when the queue is built; {QUANTITY_HINT}.",
    )


def check_child_templates(config: SchedulerConfig) -> Iterator[Problem]:
    """The queue builder parses the child template of every parent queue (the validator does not)."""
    for partition in partitions_with_queues(config):
        for visit in walk(partition.root):
            template = visit.queue.childtemplate
            if not template.present or not visit.queue.is_parent:
                continue
            problems: list[Problem] = []
            for key in ("guaranteed", "max"):
                values = getattr(template.resources, key)
                parse_map(values, (*template.resources.path, key), problems, report=template_quantity)
            yield from problems


CHECKS = (check_queue_resources, check_child_templates)
