"""Submit and admin ACLs as YuniKorn's runtime ACL parser reads them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from yk_cli.core.checks.walk import configured_queues
from yk_cli.core.config import SchedulerConfig
from yk_cli.core.diagnostics import Problem
from yk_cli.core.rules import warning

USER_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$")
"""pkg/common/security/acl.go userNameRegExp: stricter than the limit-name check of the validator."""
GROUP_NAME = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_-]*$")
"""pkg/common/security/acl.go groupRegExp."""

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


@dataclass(slots=True)
class ParsedACL:
    """An ACL as security.NewACL builds it: who it lets in, and the names it drops."""

    everyone: bool = False
    users: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    """(kind, name) pairs the parser logs and drops, kind being user or group."""
    broken: bool = False
    """More than two space-separated fields: the queue cannot be created (an error, reported elsewhere)."""

    @property
    def grants(self) -> bool:
        """Whether anyone at all gets in."""
        return self.everyone or bool(self.users) or bool(self.groups)


def parse_acl(text: str) -> ParsedACL:
    """Parse an ACL exactly like yunikorn-core security.NewACL (runtime, not the validator)."""
    acl = ParsedACL()
    if text == "":
        return acl
    fields = text.split(" ")
    if len(fields) > 2:
        acl.broken = True
        return acl
    acl.everyone = text.strip() == "*"
    users = fields[0].split(",")
    if users == ["*"]:
        acl.everyone = True
    else:
        for user in users:
            if user and USER_NAME.match(user):
                acl.users.append(user)
            elif user:
                acl.ignored.append(("user", user))
    if len(fields) == 2 and not acl.everyone:
        groups = fields[1].split(",")
        if groups == ["*"]:
            acl.everyone = True
            acl.users = []
        else:
            for group in groups:
                if group and GROUP_NAME.match(group):
                    acl.groups.append(group)
                elif group:
                    acl.ignored.append(("group", group))
    return acl


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
                acl = parse_acl(text)
                anyone = anyone or acl.grants
                broken = broken or acl.broken
                for kind, name in acl.ignored:
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
    pattern = USER_NAME.pattern if kind == "user" else GROUP_NAME.pattern
    return f"YuniKorn's ACL parser only accepts {kind} names matching {pattern}, so it grants nothing"


def _hint(kind: str, name: str) -> str:
    """How to write an ACL entry the parser keeps."""
    if name == "*":
        return "write '*' alone to let everyone in"
    return f"list {kind}s the parser accepts, separated by commas, with one space between users and groups"


CHECKS = (check_acls,)
