"""Submit and admin ACLs as YuniKorn's runtime ACL parser reads them."""

from __future__ import annotations

from collections.abc import Iterator

from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.config.placement import ACL_GROUP_NAME, ACL_USER_NAME, parse_acl
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.walk import configured_queues

NO_SUBMIT_ACL = warning(
    "no-submit-acl",
    "No queue of the partition grants submit access to anyone: every application is rejected.",
    "An application is placed only in a queue whose `submitacl` or `adminacl` (on the queue or any parent) "
    "lets its user or one of its groups in. An empty ACL, the default, denies everyone, so a partition in "
    "which no queue has a non-empty ACL that names a valid user, a valid group or `*` rejects every "
    "application. YuniKorn's built-in default config (used when the shim sends none) sets `submitacl: '*'` "
    "on root, which is why configs copied without it stop working. Fix: add `submitacl: '*'` on root, or "
    "ACLs naming the users and groups that may submit.",
)
ACL_INVALID_NAME = warning(
    "acl-invalid-name",
    "A user or group name in an ACL that YuniKorn's ACL parser ignores.",
    "At run time an ACL is split on single spaces into a user list and a group list, each split on commas. "
    "A user must match `^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$` and a group `^[_a-zA-Z][a-zA-Z0-9_-]*$`; anything "
    "else is only logged (`ignoring user in ACL definition`, `ignoring group in ACL`) and dropped, so it "
    "grants nothing. The validator does not check these names, and they are stricter than the names it "
    "accepts in limits: Kubernetes-style names with `:` (`system:serviceaccount:ns:sa`, "
    "`system:authenticated`) or `/` are dropped, and so is a `*` inside a list (`alice,*`): the wildcard only "
    "works alone. A tab between users and groups is not a separator, so `alice<TAB>devs` becomes one invalid "
    "user name. Fix: use names the parser accepts, `*` alone for everyone, and a single space between the "
    "user list and the group list.",
)

RULES = (NO_SUBMIT_ACL, ACL_INVALID_NAME)


def ignored_names(text: str) -> list[tuple[str, str]]:
    """(user|group, name) pairs that security.NewACL logs and drops; parse_acl gives who gets in."""
    fields = text.split(" ")
    if text == "" or len(fields) > 2:
        return []  # empty: nobody; more than two fields: the queue cannot be created (an error elsewhere)
    users = fields[0].split(",")
    if users == ["*"] or text.strip() == "*":
        return []  # everyone; a group list after the wildcard is not even read
    ignored = [("user", user) for user in users if user and not ACL_USER_NAME.match(user)]
    groups = fields[1].split(",") if len(fields) == 2 else []
    if groups != ["*"]:
        ignored += [("group", group) for group in groups if group and not ACL_GROUP_NAME.match(group)]
    return ignored


def _grants(text: str) -> bool:
    """Whether an ACL lets anyone at all in."""
    acl = parse_acl(text)
    return acl.everyone or bool(acl.users) or bool(acl.groups)


def check_acls(config: SchedulerConfig) -> Iterator[Problem]:
    """Dropped ACL names, and partitions where nobody may submit."""
    for partition in config.partitions:
        if partition.queues is None:
            continue
        anyone = False
        broken = False
        for path, queue in configured_queues(partition):
            for key in ("submitacl", "adminacl"):
                text: str = getattr(queue, key)
                anyone = anyone or _grants(text)
                broken = broken or len(text.split(" ")) > 2
                for kind, name in ignored_names(text):
                    yield ACL_INVALID_NAME.problem(
                        f'{kind} "{name}" in the {key} of {path} is ignored: {_why(kind, name, text)}',
                        (*queue.path, key),
                        hint=_hint(kind, name),
                    )
        if not anyone and not broken:
            root = partition.root
            where = (*root.path, "name") if not root.inserted else (*partition.path, "queues")
            yield NO_SUBMIT_ACL.problem(
                f"no queue in partition {partition.display_name} has a submitacl or adminacl that lets anyone in: "
                "YuniKorn rejects every application (an empty ACL denies everyone; only YuniKorn's built-in "
                "default config sets submitacl '*' on root)",
                where,
                hint="add submitacl: '*' to root, or ACLs that name the users and groups that may submit",
                anchor="key" if root.inserted else "value",
            )


def _why(kind: str, name: str, text: str) -> str:
    """Why YuniKorn's ACL parser drops a name."""
    if name == "*":
        return "YuniKorn's ACL parser drops it; the wildcard only works alone ('*')"
    if "\t" in name or "\t" in text:
        return "YuniKorn's ACL parser drops it (only a single space separates users from groups, not a tab)"
    pattern = ACL_USER_NAME.pattern if kind == "user" else ACL_GROUP_NAME.pattern
    return f"YuniKorn's ACL parser only accepts {kind} names matching {pattern}, so it grants nothing"


def _hint(kind: str, name: str) -> str:
    """How to write an ACL entry the parser keeps."""
    if name == "*":
        return "write '*' alone to let everyone in"
    return f"list {kind}s the parser accepts, separated by commas, with one space between users and groups"


CHECKS = (check_acls,)
