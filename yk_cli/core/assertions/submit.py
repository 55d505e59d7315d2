"""can-submit / cannot-submit: a user or group against the submit and admin ACLs and the placement rules."""

from __future__ import annotations

from yk_cli.core.assertions.model import CAN_SUBMIT, STATIC, Assertion, Evidence, Outcome
from yk_cli.core.assertions.scope import Scope
from yk_cli.core.config.placement import RECOVERY_QUEUE, parse_acl, place
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Path
from yk_cli.core.workload.model import Application

GROUP_MEMBER = "yk-member-of-{group}"
"""The user of a group assertion: a name no ACL lists, so that only the group can let it in."""


def who(assertion: Assertion) -> str:
    """The user or group the assertion is about, in words."""
    if assertion.user:
        groups = f" (groups {', '.join(assertion.groups)})" if assertion.groups else ""
        return f"user {assertion.user}{groups}"
    return f"a member of group{'s' if len(assertion.groups) > 1 else ''} {', '.join(assertion.groups)}"


def _user(assertion: Assertion) -> str:
    return assertion.user or GROUP_MEMBER.format(group=assertion.groups[0] if assertion.groups else "none")


def _nearest(tree: QueueTree, path: str) -> Queue:
    current = path.lower()
    while True:
        queue = tree.get(current)
        if queue is not None:
            return queue
        if "." not in current:
            return tree.root
        current = current.rsplit(".", 1)[0]


def _grant(queue: Queue, user: str, groups: tuple[str, ...]) -> tuple[Queue, str] | None:
    """The queue and ACL key (submitacl or adminacl) that let the user in, nearest first (Queue.CheckSubmitAccess)."""
    for q in queue.ancestors():
        if q.config is None:
            continue
        for key in ("submitacl", "adminacl"):
            if parse_acl(getattr(q.config, key)).allows(user, groups):
                return q, key
    return None


def _acl_lines(queue: Queue) -> list[Evidence]:
    out: list[Evidence] = []
    for q in queue.ancestors():
        if q.config is None:
            continue
        for key in ("submitacl", "adminacl"):
            text: str = getattr(q.config, key)
            path: Path = (*q.config.path, key) if text else (*q.config.path, "name")
            shown = f"{key} {text!r}" if text else f"no {key} (nobody)"
            out.append(Evidence(f"{q.path}: {shown}", path, 2))
    return out


def check_submit(scope: Scope, assertion: Assertion) -> Outcome:
    """Whether the user (or a member of the groups) can place an application in the queue: the ACLs on its path
    (for a queue placement may create, on the nearest existing one) and the placement rules for an application
    that asks for the queue."""
    can = assertion.kind == CAN_SUBMIT
    target = assertion.queue.strip().lower()
    tree = build_queue_tree(scope.partition)
    user, groups = _user(assertion), assertion.groups
    person = who(assertion)
    existing = tree.get(target)
    checked = existing if existing is not None else _nearest(tree, target)
    grant = _grant(checked, user, groups) if checked.path != RECOVERY_QUEUE else None
    where = target if existing is not None else f"{checked.path} (the nearest existing queue above {target})"
    if grant is None:
        lines = [Evidence(f"no submitacl or adminacl from {where} up to root lets {person} in"), *_acl_lines(checked)]
        blame = _acl_blame(checked)
        if can:
            return Outcome(
                assertion,
                STATIC,
                False,
                f"{person} cannot submit to {target}: the ACLs do not let them in",
                tuple(lines),
                blame,
                f"add the {'user' if assertion.user else 'group'} to the submitacl of {checked.path} (users, a space, "
                "then groups)",
                {"user": user, "groups": list(groups), "queue": target, "placed": None},
            )
        return Outcome(assertion, STATIC, True, f"{person} cannot submit to {target}", tuple(lines))
    holder, key = grant
    acl_text: str = getattr(holder.config, key)
    acl_path: Path | None = (*holder.config.path, key) if holder.config is not None else None
    granted = Evidence(f"the {key} {acl_text!r} of {holder.path} lets {person} in", acl_path)
    app = Application(
        id="yk-check", queue=target, submit_time=0, seq=0, user=user, groups=groups, tags=dict(assertion.tags)
    )
    placement = place(scope.partition, tree, app)
    placed_here = placement.queue_path == target
    if placed_here:
        made = " (creating it)" if placement.created else ""
        placed = Evidence(f"placement: rule {placement.rule} puts an application asking for {target} there{made}")
    elif placement.queue_path:
        placed = Evidence(
            f"placement: an application asking for {target} goes to {placement.queue_path} (rule {placement.rule})"
        )
    else:
        placed = Evidence(f"placement: an application asking for {target} is rejected: {placement.reason}")
    tried = tuple(Evidence(line, None, 2) for line in placement.trace)
    example: dict[str, object] = {"user": user, "groups": list(groups), "queue": target, "placed": placement.queue_path}
    if can:
        if placed_here:
            return Outcome(assertion, STATIC, True, f"{person} can submit to {target}", (granted, placed, *tried))
        return Outcome(
            assertion,
            STATIC,
            False,
            f"{person} may submit to {target} by its ACLs, but the placement rules do not put an application "
            "asking for it there",
            (granted, placed, *tried),
            (*scope.partition.path, "placementrules") if scope.partition.placementrules else acl_path,
            "a provided rule (first) places applications in the queue they name when it exists",
            example,
        )
    return Outcome(
        assertion,
        STATIC,
        False,
        f"{person} can submit to {target}: the {key} of {holder.path} lets them in",
        (granted, placed, *tried),
        acl_path,
        f"remove the user or group from the {key} of {holder.path} (ACLs of every queue above {target} count)",
        example,
    )


def _acl_blame(queue: Queue) -> Path | None:
    if queue.config is None:
        return None
    if queue.config.submitacl:
        return (*queue.config.path, "submitacl")
    return (*queue.config.path, "name")
