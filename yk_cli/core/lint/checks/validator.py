"""The checks of YuniKorn's config validator and queue builder: each one a reason YuniKorn refuses a config.

Rules are listed in the order YuniKorn's `Validate` runs them (partitions, queue structure, ACLs and limits, queue
names, resources, placement rules, node sorting, maxapplications, limit hierarchy), then the failures that only
show when the scheduler builds the queues. YuniKorn stops at the first error; these checks report every one, each
a condition YuniKorn refuses on its own. The checks live in validator_structure, validator_limits,
validator_resources and validator_placement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.diagnostics import Problem, Rule
from yk_cli.core.lint.checks import validator_common as common
from yk_cli.core.lint.checks import validator_limits as lim
from yk_cli.core.lint.checks import validator_placement as place
from yk_cli.core.lint.checks import validator_resources as res
from yk_cli.core.lint.checks import validator_structure as structure

RULES: tuple[Rule, ...] = (
    structure.DUPLICATE_PARTITION,
    structure.QUEUE_CONFIG_NOT_SET,
    structure.ROOT_RESOURCES,
    structure.LIMITS_NOT_EQUIVALENT,
    structure.ACL_TOO_MANY_FIELDS,
    lim.LIMIT_EMPTY_USERS_GROUPS,
    lim.LIMIT_INVALID_USER,
    lim.LIMIT_DUPLICATE_USER,
    lim.LIMIT_USER_AFTER_WILDCARD,
    lim.LIMIT_INVALID_GROUP,
    lim.LIMIT_DUPLICATE_GROUP,
    lim.LIMIT_GROUP_AFTER_WILDCARD,
    lim.LIMIT_ONLY_WILDCARD_GROUP,
    lim.LIMIT_MAX_RESOURCES_ZERO,
    lim.LIMIT_NO_VALUES,
    lim.LIMIT_MAX_APPLICATIONS,
    lim.LIMIT_MAX_RESOURCES,
    structure.INVALID_QUEUE_NAME,
    structure.DUPLICATE_QUEUE_NAME,
    common.INVALID_QUANTITY,
    res.GUARANTEED_OVER_MAX,
    res.CHILD_MAX_OVER_PARENT,
    res.CHILDREN_GUARANTEED_OVER_PARENT,
    res.CHILDREN_GUARANTEED_OVER_MAX,
    place.INVALID_PLACEMENT_RULE_NAME,
    place.INVALID_FILTER_TYPE,
    place.INVALID_FILTER_LIST,
    place.FIXED_RULE_QUALIFIED,
    place.PLACEMENT_RULE_NOT_LEAF,
    place.PLACEMENT_RULE_QUEUE_MISSING,
    place.PLACEMENT_RULE_UNDER_LEAF,
    structure.UNKNOWN_NODE_SORT_POLICY,
    structure.NEGATIVE_RESOURCE_WEIGHT,
    structure.CHILD_MAX_APPLICATIONS,
    structure.MAX_APPLICATIONS_UNDEFINED,
    lim.LIMIT_HIERARCHY_RESOURCES,
    lim.LIMIT_HIERARCHY_APPLICATIONS,
    structure.ROOT_NAME,
    structure.ACL_DOUBLE_SPACE,
    res.CHILDTEMPLATE_INVALID_QUANTITY,
)
CHECKS: tuple[Callable[[SchedulerConfig], Iterable[Problem]], ...] = (
    *structure.CHECKS,
    *lim.CHECKS,
    *res.CHECKS,
    *place.CHECKS,
)
