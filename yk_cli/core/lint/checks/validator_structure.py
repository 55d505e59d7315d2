"""Validator checks of partitions, queue tree, ACLs, node sorting and maxapplications, with build-time twins."""

from __future__ import annotations

import re
from collections.abc import Iterator

from yk_cli.core.config.model import Limit, PartitionConfig, QueueConfig, SchedulerConfig
from yk_cli.core.diagnostics import Problem, error
from yk_cli.core.lint.checks.validator_common import partitions_with_queues, walk

QUEUE_NAME = re.compile(r"[a-zA-Z0-9_:#/@-]{1,64}")

DUPLICATE_PARTITION = error(
    "duplicate-partition",
    "Two partitions with the same name.",
    "YuniKorn compares partition names case-insensitively, after turning an empty name or any spelling of "
    "`default` into `default`, and refuses the config with `duplicate partition name found with name %s`. "
    "Give every partition a unique name (a Kubernetes cluster uses only the partition `default`).",
)
QUEUE_CONFIG_NOT_SET = error(
    "queue-config-not-set",
    "A partition without a `queues` key.",
    "Every partition needs a `queues` list; without it YuniKorn refuses the config with `queue config is not "
    "set`. A misindented `queues:` (a sibling of `partitions` or of the partition list) has the same effect. "
    "`queues: []` is allowed and gives a bare root queue.",
)
ROOT_RESOURCES = error(
    "root-resources",
    "The root queue sets guaranteed or max resources.",
    "The root queue always has the size of the cluster (the sum of the registered nodes), so YuniKorn refuses "
    "`resources.guaranteed` or `resources.max` on root with `root queue must not have resource limits set`, "
    "even when the map is empty (`max: {}`). Remove them, or put a parent queue under root and limit that "
    "one instead.",
)
LIMITS_NOT_EQUIVALENT = error(
    "limits-not-equivalent",
    "Partition limits and root queue limits are both set and differ.",
    "Limits at partition level are copied to the root queue when root has none. When both are set they must be "
    "identical, otherwise YuniKorn refuses the config with `partition limits and root queue limits are not "
    "equivalent`. Keep one of the two lists (the root queue's is the usual place).",
)
ACL_TOO_MANY_FIELDS = error(
    "acl-too-many-fields",
    "An ACL with more than two space-separated parts.",
    "An ACL is `users groups`: a comma-separated user list, one space, a comma-separated group list (`*` allows "
    "everyone, empty denies everyone). After trimming, YuniKorn splits it on whitespace and refuses more than "
    "two parts with `multiple spaces found in ACL: '%s'`. Separate names with commas, not spaces: "
    "`alice,bob devs,ops`.",
)
INVALID_QUEUE_NAME = error(
    "invalid-queue-name",
    "A queue name YuniKorn does not accept.",
    "Queue names must match `^[a-zA-Z0-9_:#/@-]{1,64}$`: 1 to 64 letters, digits and `- _ # @ / :`. No dots "
    "(a dot separates levels in a queue path), no spaces, not empty. YuniKorn refuses anything else with "
    "`invalid queue name, max 64 characters consisting of alphanumeric characters and '-', '_', '#', '@', '/', "
    "':' allowed`. The name of root itself is not checked.",
)
DUPLICATE_QUEUE_NAME = error(
    "duplicate-queue-name",
    "Two children of one queue with the same name (case-insensitively).",
    "Queue names are stored lower-cased, so `Dev` and `dev` under the same parent are the same queue. YuniKorn "
    "refuses the config with `duplicate child name found with name '%s', level %d`, naming the second "
    "occurrence; the level is 1 for children of root, 2 for their children and so on. Rename or merge them.",
)
UNKNOWN_NODE_SORT_POLICY = error(
    "unknown-node-sort-policy",
    "A node sort policy other than `fair` or `binpacking`.",
    "`nodesortpolicy.type` must be empty, `fair` or `binpacking`, spelled exactly so (the match is "
    "case-sensitive: `Fair` and `BinPacking` fail). YuniKorn refuses anything else with `undefined policy: %s`.",
)
NEGATIVE_RESOURCE_WEIGHT = error(
    "negative-resource-weight",
    "A negative node sorting resource weight.",
    "`nodesortpolicy.resourceweights` values must be zero or positive; YuniKorn refuses a negative one with "
    "`negative resource weight for %s is not allowed`.",
)
CHILD_MAX_APPLICATIONS = error(
    "child-max-applications",
    "A queue allows more applications than its parent.",
    "When a queue sets `maxapplications`, no child may set a higher value. YuniKorn refuses the config with "
    "`parent maxApplications must be larger than child maxApplications` (equal values are fine). Lower the "
    "child's value or raise the parent's.",
)
MAX_APPLICATIONS_UNDEFINED = error(
    "max-applications-undefined",
    "A parent sets maxapplications but a child does not.",
    "Once a queue sets `maxapplications`, every direct child must set a non-zero value too (0 would mean "
    "unlimited, which is more than the parent allows). YuniKorn refuses the config with `maxApplications is "
    "either undefined or zero, which is not allowed when parent queue's maxApplications is defined`. Give the "
    "child a value no larger than its parent's. This also applies to root's own maxapplications.",
)
ROOT_NAME = error(
    "root-name",
    "The root queue is not spelled `root` (build-time failure).",
    "The validator accepts a single top-level queue called `ROOT` or `Root` as the root queue, but building "
    "the partition needs the exact name `root`, so applying the config fails with `partition cannot be created "
    "without root queue` (the admission webhook lets it through; the scheduler keeps its old config). Write "
    "`root` in lower case.",
)
ACL_DOUBLE_SPACE = error(
    "acl-double-space",
    "An ACL with more than one single space (build-time failure).",
    "The validator trims an ACL and splits it on runs of whitespace, but the queue builder splits the untrimmed "
    "text on every single space. `alice  devs` (two spaces) or `alice devs ` (trailing space) passes "
    "validation and then fails when the queue is created: `configured queue creation failed: multiple spaces "
    "found in ACL: '%s'` (YuniKorn puts a line break after the colon). The webhook accepts such a config but "
    "the scheduler refuses to apply it. Use exactly one space between the user and the group list; a single "
    "leading space (` devs`) is the way to give only groups.",
)

RULES = (
    DUPLICATE_PARTITION,
    QUEUE_CONFIG_NOT_SET,
    ROOT_RESOURCES,
    LIMITS_NOT_EQUIVALENT,
    ACL_TOO_MANY_FIELDS,
    INVALID_QUEUE_NAME,
    DUPLICATE_QUEUE_NAME,
    UNKNOWN_NODE_SORT_POLICY,
    NEGATIVE_RESOURCE_WEIGHT,
    CHILD_MAX_APPLICATIONS,
    MAX_APPLICATIONS_UNDEFINED,
    ROOT_NAME,
    ACL_DOUBLE_SPACE,
)


def check_partitions(config: SchedulerConfig) -> Iterator[Problem]:
    """Partition names must be unique (case-insensitively) and every partition needs a `queues` key."""
    seen: set[str] = set()
    for partition in config.partitions:
        name = partition.display_name
        if name.lower() in seen:
            yield DUPLICATE_PARTITION.problem(
                f"duplicate partition name found with name {name}",
                (*partition.path, "name"),
                hint="rename one of the partitions; names are compared case-insensitively and '' means default.",
            )
        seen.add(name.lower())
        if partition.queues is None:
            yield QUEUE_CONFIG_NOT_SET.problem(
                "queue config is not set",
                partition.path,
                hint="add a `queues:` list to this partition (check its indentation), e.g. `queues: [{name: root}]`.",
            )


def check_root(config: SchedulerConfig) -> Iterator[Problem]:
    """Root must carry no resources, be spelled `root`, and agree with the partition on limits."""
    for partition in partitions_with_queues(config):
        root = partition.root
        if not root.inserted:
            yield from _root_resources(root)
            if root.name != "root":
                yield ROOT_NAME.problem(
                    "partition cannot be created without root queue",
                    (*root.path, "name"),
                    hint=f"write the root queue's name as `root`, not `{root.name}`.",
                )
        if root.limits and partition.limits and not _same_limits(root, partition):
            yield LIMITS_NOT_EQUIVALENT.problem(
                "partition limits and root queue limits are not equivalent",
                (*partition.path, "limits"),
                hint="keep the limits in one place (the root queue), or make both lists identical.",
                anchor="key",
            )


def _root_resources(root: QueueConfig) -> Iterator[Problem]:
    """A present (even empty) guaranteed or max map on root."""
    resources = root.resources
    for key, present in (("guaranteed", resources.guaranteed_set), ("max", resources.max_set)):
        if present:
            yield ROOT_RESOURCES.problem(
                "root queue must not have resource limits set",
                (*resources.path, key),
                hint=f"remove `{key}` from root: root always has the size of the cluster; limit a child instead.",
                anchor="key",
            )


def _same_limits(root: QueueConfig, partition: PartitionConfig) -> bool:
    """reflect.DeepEqual of the two limit lists (paths aside)."""
    return [_limit_key(lim) for lim in root.limits] == [_limit_key(lim) for lim in partition.limits]


def _limit_key(limit: Limit) -> tuple[object, ...]:
    """The fields reflect.DeepEqual compares for a limit entry."""
    return (limit.limit, limit.users, limit.groups, limit.maxresources, limit.maxapplications)


def check_queue_names(config: SchedulerConfig) -> Iterator[Problem]:
    """Child names must match YuniKorn's pattern and be unique per parent, compared lower-cased."""
    for partition in partitions_with_queues(config):
        for visit in walk(partition.root):
            seen: set[str] = set()
            for child in visit.queue.queues:
                if not QUEUE_NAME.fullmatch(child.name):
                    yield INVALID_QUEUE_NAME.problem(
                        "invalid queue name, max 64 characters consisting of alphanumeric characters and "
                        "'-', '_', '#', '@', '/', ':' allowed",
                        (*child.path, "name"),
                        hint=f"rename {child.name!r}: use 1-64 letters, digits or - _ # @ / : (no dots or spaces).",
                    )
                    continue
                if child.name.lower() in seen:
                    yield DUPLICATE_QUEUE_NAME.problem(
                        f"duplicate child name found with name '{child.name}', level {visit.level}",
                        (*child.path, "name"),
                        hint=f"{visit.queue.name} already has a child named {child.name.lower()!r} "
                        "(names are compared lower-cased); rename or merge them.",
                    )
                seen.add(child.name.lower())


def check_acls(config: SchedulerConfig) -> Iterator[Problem]:
    """ACLs: at most two whitespace-separated parts (validator), and at most one single space (queue builder)."""
    for partition in partitions_with_queues(config):
        for visit in walk(partition.root):
            for key in ("adminacl", "submitacl"):
                yield from _acl(visit.queue, key)


def _acl(queue: QueueConfig, key: str) -> Iterator[Problem]:
    """checkACL (validator) and NewACL (queue builder) for one ACL of a queue."""
    acl: str = getattr(queue, key)
    trimmed = acl.strip()
    fields = 0 if trimmed in ("", "*") else len(trimmed.split())
    if fields > 2:
        yield ACL_TOO_MANY_FIELDS.problem(
            f"multiple spaces found in ACL: '{trimmed}'",
            (*queue.path, key),
            hint="write `users groups` with comma-separated names and a single space between the two lists.",
        )
    elif acl and len(acl.split(" ")) > 2:
        yield ACL_DOUBLE_SPACE.problem(
            f"configured queue creation failed: multiple spaces found in ACL: '{acl}'",
            (*queue.path, key),
            hint="the queue builder splits on every single space: remove the extra or trailing spaces.",
        )


def check_node_sort_policy(config: SchedulerConfig) -> Iterator[Problem]:
    """The node sort policy must be '', fair or binpacking, and no resource weight may be negative."""
    for partition in config.partitions:
        policy = partition.nodesortpolicy
        if policy.type not in ("", "fair", "binpacking"):
            close = policy.type.lower() if policy.type.lower() in ("fair", "binpacking") else "fair or binpacking"
            yield UNKNOWN_NODE_SORT_POLICY.problem(
                f"undefined policy: {policy.type}",
                (*policy.path, "type"),
                hint=f"use {close} (the value is case-sensitive).",
            )
        for name, weight in policy.resourceweights.items():
            if weight < 0:
                yield NEGATIVE_RESOURCE_WEIGHT.problem(
                    f"negative resource weight for {name} is not allowed",
                    (*policy.path, "resourceweights", name),
                    hint="use 0 to ignore a resource type, or a positive weight.",
                )


def check_max_applications(config: SchedulerConfig) -> Iterator[Problem]:
    """A parent with maxapplications needs every child to set a non-zero value no larger than its own."""
    for partition in partitions_with_queues(config):
        for visit in walk(partition.root):
            parent = visit.queue
            if parent.maxapplications == 0:
                continue
            for child in parent.queues:
                yield from _child_max_applications(parent, child)


def _child_max_applications(parent: QueueConfig, child: QueueConfig) -> Iterator[Problem]:
    """checkQueueMaxApplications for one child of a queue that sets maxapplications."""
    if child.maxapplications == 0:
        yield MAX_APPLICATIONS_UNDEFINED.problem(
            "maxApplications is either undefined or zero, which is not allowed when parent queue's "
            "maxApplications is defined",
            (*child.path, "maxapplications"),
            hint=f"give {child.name} a maxapplications between 1 and {parent.maxapplications} "
            f"(its parent {parent.name} sets {parent.maxapplications}).",
        )
    elif child.maxapplications > parent.maxapplications:
        yield CHILD_MAX_APPLICATIONS.problem(
            "parent maxApplications must be larger than child maxApplications",
            (*child.path, "maxapplications"),
            hint=f"{child.name} allows {child.maxapplications} applications but its parent {parent.name} only "
            f"{parent.maxapplications}: lower the child's value or raise the parent's.",
        )


CHECKS = (
    check_partitions,
    check_root,
    check_queue_names,
    check_acls,
    check_node_sort_policy,
    check_max_applications,
)
