"""A `yk check` policy file: read and checked key by key, every problem at once with its position."""

from __future__ import annotations

import difflib

from yk_cli.core.assertions.model import (
    BOTH,
    CAN_SUBMIT,
    CANNOT_PREEMPT,
    CANNOT_SUBMIT,
    DYNAMIC,
    FENCE_KINDS,
    FENCED,
    GUARANTEED_AT_LEAST,
    KINDS,
    MAX_AT_MOST,
    NEVER_PENDING,
    OUTRANKS,
    STARTS_WITHIN,
    STATIC,
    Assertion,
    Policy,
    QueueRef,
)
from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.diagnostics import Span
from yk_cli.core.resources import QuantityError, Resource, parse_quantity
from yk_cli.core.yamldoc import Node
from yk_cli.load.source import InputError, parse_yaml, read_small_text, shown_name

TOP_KEYS = ("priorityRange", "partition", "assertions")
"""Every top-level key of a policy file."""
ITEM_KEYS = ("name", "description", "check")
"""The keys of an assertion besides its kind."""
ARGUMENTS: dict[str, tuple[str, ...]] = {
    CANNOT_PREEMPT: ("from", "victims"),
    OUTRANKS: ("queue", "over"),
    FENCED: ("queue", "fence"),
    GUARANTEED_AT_LEAST: ("queue", "resources"),
    MAX_AT_MOST: ("queue", "resources"),
    STARTS_WITHIN: ("queue", "application", "ask", "time"),
    NEVER_PENDING: ("queue",),
    CAN_SUBMIT: ("user", "group", "groups", "queue", "tags"),
    CANNOT_SUBMIT: ("user", "group", "groups", "queue", "tags"),
}
"""The keys each assertion kind takes."""
MAX_POLICY_BYTES = 1 << 20
INT32 = (-(2**31), 2**31 - 1)


class PolicyError(Exception):
    """A policy file yk cannot use: each problem as `file:line:col: message`, in file order; `found` holds them as
    (file, line, column, message) and `policy` the assertions that could be read (None when none could)."""

    def __init__(
        self, messages: list[str], found: list[tuple[str, int, int, str]] | None = None, policy: Policy | None = None
    ) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages
        self.found = found if found is not None else [_split(m) for m in messages]
        self.policy = policy


def _split(message: str) -> tuple[str, int, int, str]:
    """(file, line, column, message) of a `file:line:col: message` (line and column 0 for a `file: message`)."""
    parts = message.split(":", 3)
    if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
        return parts[0], int(parts[1]), int(parts[2]), parts[3].removeprefix(" ")
    file, _, rest = message.partition(": ")
    return file, 0, 0, rest or message


def read_policy(name: str) -> Policy:
    """Read and check a policy file ('-' for standard input); PolicyError for an unreadable or broken one."""
    try:
        text = read_small_text(name, MAX_POLICY_BYTES)
    except InputError as err:
        raise PolicyError([str(err)]) from None
    return parse_policy(text, shown_name(name))


def parse_policy(text: str, shown: str) -> Policy:
    """Check a policy text; every problem at once."""
    parsed = parse_yaml(text)
    if parsed.problems:
        raise PolicyError(
            [f"{shown}:{p.span.line}:{p.span.column}: {p.message}" for p in parsed.problems if p.span is not None]
        )
    documents = [doc for doc in parsed.documents if doc is not None]
    if len(documents) > 1:
        second = documents[1].span
        raise PolicyError([f"{shown}:{second.line}:{second.column}: a policy file holds one YAML document"])
    reader = _Reader(shown)
    policy = reader.read(documents[0] if documents else None)
    if reader.found or policy is None:
        found = [(shown, line, column, message) for line, column, message in sorted(reader.found)]
        raise PolicyError(reader.messages, found, policy)
    return policy


def did_you_mean(word: str, known: list[str] | tuple[str, ...]) -> str:
    """` (did you mean 'x'?)` for the closest known word, or ''."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.lower().replace("_", "-"), list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _null(node: Node) -> bool:
    return node.kind == "scalar" and node.tag == "null"


def _text(node: Node) -> str | None:
    """A non-empty plain string (a scalar that is a string, or a number written as a name)."""
    if node.kind != "scalar" or node.tag not in ("str", "int") or not node.text.strip():
        return None
    return node.text.strip()


class _Reader:
    """Reads one policy file, collecting a message for everything wrong."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.found: list[tuple[int, int, str]] = []
        self.refs: list[QueueRef] = []
        """The queue paths of the assertion being read."""

    @property
    def messages(self) -> list[str]:
        """Every problem so far, in file order."""
        return [f"{self.shown}:{line}:{column}: {message}" for line, column, message in sorted(self.found)]

    def fail(self, node: Node, message: str) -> None:
        self.found.append((node.span.line, node.span.column, message))

    def mapping(self, node: Node, allowed: tuple[str, ...], what: str) -> dict[str, tuple[Node, Node]]:
        """The entries of a mapping with known keys (key node, value node); unknown or repeated keys reported."""
        values: dict[str, tuple[Node, Node]] = {}
        for key, value in node.pairs:
            name = key.text if key.kind == "scalar" else ""
            if name in values:
                self.fail(key, f"{what}: {name!r} is given twice (first at line {values[name][0].span.line})")
            elif name not in allowed:
                self.fail(
                    key, f"{what}: unknown key {name!r}{did_you_mean(name, allowed)}; it takes {', '.join(allowed)}"
                )
            else:
                values[name] = (key, value)
        return values

    def read(self, root: Node | None) -> Policy | None:
        if root is None or _null(root):
            self.found.append((1, 1, "the policy file is empty: give `assertions:`, a list of named assertions"))
            return None
        if root.kind != "map":
            self.fail(root, f"a policy file is a mapping ({', '.join(TOP_KEYS)}), not {root.in_words()}")
            return None
        values = self.mapping(root, TOP_KEYS, "policy")
        priority_range, range_span = self.priority_range(values.get("priorityRange"))
        partition = None
        if "partition" in values:
            partition = _text(values["partition"][1])
            if partition is None:
                self.fail(values["partition"][1], "partition must be a partition name such as default")
        assertions: list[Assertion] = []
        if "assertions" not in values:
            self.fail(root, "no `assertions:` list: a policy file names the assertions to check")
        else:
            assertions = self.assertions(values["assertions"][1])
        return Policy(self.shown, tuple(assertions), priority_range, range_span, partition)

    def priority_range(self, entry: tuple[Node, Node] | None) -> tuple[tuple[int, int] | None, Span | None]:
        if entry is None:
            return None, None
        node = entry[1]
        ok = node.kind == "seq" and len(node.items) == 2
        ok = ok and all(i.kind == "scalar" and i.tag == "int" and isinstance(i.value, int) for i in node.items)
        if not ok:
            self.fail(node, f"priorityRange is two whole numbers [lowest, highest], not {node.in_words()}")
            return None, None
        low, high = (int(i.value) for i in node.items if isinstance(i.value, int))
        if not (INT32[0] <= low <= INT32[1] and INT32[0] <= high <= INT32[1]):
            self.fail(node, "priorityRange: pod priorities are int32 (-2147483648 to 2147483647)")
            return None, None
        if low > high:
            self.fail(node, f"priorityRange: the lowest priority {low} is above the highest {high}")
            return None, None
        return (low, high), node.span

    def assertions(self, node: Node) -> list[Assertion]:
        if node.kind != "seq" or not node.items:
            self.fail(node, "assertions is a non-empty list of named assertions (`- name: ...` and one kind)")
            return []
        out: list[Assertion] = []
        names: dict[str, int] = {}
        for index, item in enumerate(node.items):
            name_node = item.get("name") if item.kind == "map" else None
            name = _text(name_node) if name_node is not None else None
            if name is not None and name in names:
                self.fail(item, f"assertion name {name!r} is used twice (first at line {names[name]})")
                continue
            if name is not None:
                names[name] = item.span.line
            assertion = self.assertion(item, index)
            if assertion is not None:
                out.append(assertion)
        return out

    def assertion(self, item: Node, index: int) -> Assertion | None:
        where = f"assertions[{index}]"
        if item.kind != "map":
            self.fail(item, f"{where} is a mapping with a name and one assertion kind, not {item.in_words()}")
            return None
        allowed = (*ITEM_KEYS, *KINDS)
        before = len(self.found)
        values = self.mapping(item, allowed, where)
        misspelt = len(self.found) > before
        kinds = [k for k in values if k in KINDS]
        name_entry = values.get("name")
        name = _text(name_entry[1]) if name_entry is not None else None
        label = f"assertion {name!r}" if name else where
        if name_entry is None:
            self.fail(item, f"{where}: no name (each assertion has a `name:` the report uses)")
        elif name is None:
            self.fail(name_entry[1], f"{where}: name must be a non-empty string")
        if not kinds:
            if not misspelt:  # an unknown key (a misspelt kind) is reported already
                self.fail(item, f"{label}: no assertion kind; give one of {', '.join(KINDS)}")
            return None
        if len(kinds) > 1:
            self.fail(values[kinds[1]][0], f"{label}: one kind per assertion ({kinds[0]} and {kinds[1]} given)")
            return None
        kind = kinds[0]
        check = ""
        if "check" in values:
            check_node = values["check"][1]
            check = check_node.text if check_node.kind == "scalar" else ""
            supported = KINDS[kind]
            if check not in (STATIC, DYNAMIC, BOTH):
                self.fail(
                    check_node,
                    f"{label}: check is static, dynamic or both{did_you_mean(check, (STATIC, DYNAMIC, BOTH))}",
                )
            elif len(supported) == 1 and check != supported[0]:
                self.fail(
                    check_node, f"{label}: {kind} is only checked {_mode_words(supported[0])} (check: {supported[0]})"
                )
        description = ""
        if "description" in values:
            desc = values["description"][1]
            description = desc.text if desc.kind == "scalar" and desc.tag == "str" else ""
        body = values[kind][1]
        start = item.span
        self.refs = []
        fields = self.arguments(kind, body, f"{label}: {kind}")
        if fields is None or name is None:
            return None
        refs = tuple(self.refs)
        return Assertion(
            name=name,
            kind=kind,
            span=start,
            check=check,
            description=description,
            queue_refs=refs,
            **fields,  # type: ignore[arg-type]
        )

    def arguments(self, kind: str, body: Node, what: str) -> dict[str, object] | None:
        allowed = ARGUMENTS[kind]
        if kind in (FENCED, NEVER_PENDING) and body.kind == "scalar":
            queue = _text(body)
            if queue is None:
                self.fail(body, f"{what}: give a queue path such as root.tenants")
                return None
            out: dict[str, object] = {"queue": queue}
            self.refs.append(QueueRef("queue", queue, body.span))
            if kind == NEVER_PENDING:
                out.update(target="queue", target_name=queue)
            return out
        if body.kind != "map":
            self.fail(body, f"{what} takes a mapping of {', '.join(allowed)}, not {body.in_words()}")
            return None
        before = len(self.found)
        values = self.mapping(body, allowed, what)
        misspelt = len(self.found) > before  # then a missing key is most likely the misspelt one: said once
        out = {}

        def queue_path(key: str, field: str = "queue") -> None:
            entry = values.get(key)
            if entry is None:
                if not misspelt:
                    self.fail(body, f"{what}: {key} is missing (a queue path such as root.tenants)")
                return
            path = _text(entry[1])
            if path is None:
                self.fail(
                    entry[1], f"{what}: {key} must be a queue path such as root.tenants, not {entry[1].in_words()}"
                )
                return
            if not path.lower().startswith("root"):
                self.fail(entry[1], f"{what}: {key} {path!r} is not a full queue path (it starts with root)")
                return
            out[field] = path
            self.refs.append(QueueRef(key, path, entry[1].span))

        if kind == CANNOT_PREEMPT:
            queue_path("from")
            queue_path("victims", "other")
        elif kind == OUTRANKS:
            queue_path("queue")
            queue_path("over", "other")
        elif kind == FENCED:
            queue_path("queue")
            if "fence" in values:
                fence = values["fence"][1]
                if fence.kind != "scalar" or fence.text not in FENCE_KINDS:
                    self.fail(
                        fence, f"{what}: fence is {', '.join(FENCE_KINDS)}{did_you_mean(fence.text, FENCE_KINDS)}"
                    )
                else:
                    out["fence"] = fence.text
        elif kind in (GUARANTEED_AT_LEAST, MAX_AT_MOST):
            queue_path("queue")
            out["resources"] = self.resources(values.get("resources"), body, what)
        elif kind == STARTS_WITHIN:
            targets = [k for k in ("queue", "application", "ask") if k in values]
            if len(targets) != 1:
                self.fail(body, f"{what}: give exactly one of queue, application or ask")
            else:
                target = targets[0]
                if target == "queue":
                    queue_path("queue")
                    name = out.get("queue")
                else:
                    name = _text(values[target][1])
                    if name is None:
                        self.fail(values[target][1], f"{what}: {target} must be a name")
                out.update(target=target, target_name=name or "")
            if "time" not in values:
                self.fail(body, f"{what}: time is missing (a duration such as 10m or 1h30m)")
            else:
                node = values["time"][1]
                nanos = parse_go_duration(node.text.strip()) if node.kind == "scalar" else None
                if nanos is None or nanos < 0:
                    self.fail(node, f"{what}: time must be a duration such as 90s, 10m or 1h30m, not {node.in_words()}")
                else:
                    out["time"] = nanos
        elif kind == NEVER_PENDING:
            queue_path("queue")
            out.update(target="queue", target_name=out.get("queue", ""))
        else:
            self.submitter(values, body, what, out)
            queue_path("queue")
        if len(self.found) > before:
            return None
        return out

    def resources(self, entry: tuple[Node, Node] | None, body: Node, what: str) -> Resource:
        if entry is None:
            self.fail(body, f"{what}: resources is missing (e.g. {{vcore: 4, memory: 16Gi}})")
            return {}
        node = entry[1]
        if node.kind != "map" or not node.pairs:
            self.fail(node, f"{what}: resources is a mapping of resource name to quantity, not {node.in_words()}")
            return {}
        out: Resource = {}
        for key, value in node.pairs:
            name = key.text if key.kind == "scalar" else ""
            if value.kind != "scalar" or value.tag not in ("str", "int"):
                self.fail(value, f"{what}: resources.{name} must be a quantity such as 4, 500m or 16Gi")
                continue
            try:
                out[name] = parse_quantity(name, value.text)
            except QuantityError as err:
                self.fail(value, f"{what}: resources.{name} {value.text!r}: {err} (YuniKorn's quantity syntax)")
        return out

    def submitter(self, values: dict[str, tuple[Node, Node]], body: Node, what: str, out: dict[str, object]) -> None:
        groups: list[str] = []
        if "user" in values:
            user = _text(values["user"][1])
            if user is None:
                self.fail(values["user"][1], f"{what}: user must be a user name")
            else:
                out["user"] = user
        if "group" in values:
            group = _text(values["group"][1])
            if group is None:
                self.fail(values["group"][1], f"{what}: group must be a group name")
            else:
                groups.append(group)
        if "groups" in values:
            node = values["groups"][1]
            names = [_text(i) for i in node.items] if node.kind == "seq" else [None]
            if not names or any(n is None for n in names):
                self.fail(node, f"{what}: groups is a list of group names")
            else:
                groups.extend(n for n in names if n is not None)
        if "user" not in values and not groups and "group" not in values and "groups" not in values:
            self.fail(body, f"{what}: give a user or a group (or both)")
        out["groups"] = tuple(groups)
        if "tags" in values:
            node = values["tags"][1]
            if node.kind != "map" or any(k.kind != "scalar" or v.kind != "scalar" for k, v in node.pairs):
                self.fail(node, f"{what}: tags is a mapping of tag name to value (e.g. {{namespace: payments}})")
            else:
                out["tags"] = {k.text: v.text for k, v in node.pairs}


def _mode_words(mode: str) -> str:
    return "on the config alone" if mode == STATIC else "on the dry run of a workload"
