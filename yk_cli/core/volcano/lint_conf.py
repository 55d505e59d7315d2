"""Lints of volcano-scheduler.conf: what Volcano's loader accepts but ignores or does not do as written.

    lint_conf(root) -> [Problem]

`root` is the parsed conf (spans already in the file the user sees). Problems carry their span but no file name.
Nodes of an unexpected type are skipped: the loader reports them (volcano-conf-type).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Path, Problem, Rule
from yk_cli.core.volcano import registry
from yk_cli.core.volcano import rules as vr
from yk_cli.core.volcano.conf import (
    ACTIONS,
    CONFIGURATION_KEYS,
    DEFAULTED_FLAGS,
    FLAGS,
    PLUGIN_KEYS,
    TIER_KEYS,
    TOP_LEVEL_KEYS,
    YAML11_TRUE,
)
from yk_cli.core.yamldoc import Node

FLAG_SPELLING = (
    "Volcano's flag names mix `enable` and `enabled`: enableQueueOrder and enableJobOrder, but enabledOverused and "
    "enabledAllocatable (`yk rules volcano-unknown-key` lists them all)."
)


@dataclass(slots=True)
class _Lint:
    problems: list[Problem] = field(default_factory=list)

    def add(self, rule: Rule, node: Node, message: str, path: Path, hint: str = "", key: bool = False) -> None:
        problem = rule.problem(message, path, hint, anchor="key" if key else "value")
        self.problems.append(problem.located(node.span, ""))


def _is_map(node: Node | None) -> bool:
    return node is not None and node.kind == "map"


def _scalar_pairs(node: Node) -> list[tuple[Node, Node]]:
    return [(k, v) for k, v in node.pairs if k.kind == "scalar"]


def _where(path: Path) -> str:
    """`tier 2, plugin 4` for ("tiers", 1, "plugins", 3)."""
    parts: list[str] = []
    names = {"tiers": "tier", "plugins": "plugin", "configurations": "configuration"}
    for i in range(0, len(path) - 1, 2):
        head, index = path[i], path[i + 1]
        if isinstance(head, str) and head in names and isinstance(index, int):
            parts.append(f"{names[head]} {index + 1}")
    return ", ".join(parts)


def _proposal(lint: _Lint, key: Node, path: Path, where: str) -> None:
    lint.add(
        vr.PROPOSAL_KEY,
        key,
        f"`{key.text}` ({where}) has no effect: a 2023 design proposal, not in any Volcano release",
        path,
        "Volcano orders queues by the proportion or capacity queue order (spec.priority, then share); no action "
        "reads QueueScoreOrder keys. Remove it.",
        key=True,
    )


def _unknown_key(lint: _Lint, key: Node, known: tuple[str, ...], path: Path, where: str) -> None:
    if registry.PROPOSAL_KEY.search(key.text):
        _proposal(lint, key, path, where)
        return
    guess = registry.closest(key.text, known)
    message = f"unknown key `{key.text}` ({where}): Volcano ignores it"
    hint = f"The keys here are: {', '.join(known)}."
    if guess is not None and guess in FLAGS:
        default = "its default of true" if guess in DEFAULTED_FLAGS else "its default, off"
        message = f"unknown key `{key.text}` ({where}): Volcano ignores it, so `{guess}` keeps {default}"
        hint = f"did you mean `{guess}`? {FLAG_SPELLING}"
    elif guess is not None:
        hint = f"did you mean `{guess}`? " + hint
    lint.add(vr.UNKNOWN_KEY, key, message, path, hint, key=True)


def lint_conf(root: Node | None) -> list[Problem]:
    """Every lint problem of one parsed conf, in document order."""
    lint = _Lint()
    if not _is_map(root):
        return lint.problems
    assert root is not None
    actions: list[str] = []
    for key, value in _scalar_pairs(root):
        if key.text not in TOP_LEVEL_KEYS:
            _unknown_key(lint, key, TOP_LEVEL_KEYS, (key.text,), "top level")
        elif key.text == "actions" and value.kind == "scalar":
            actions = _actions(lint, value)
        elif key.text == "tiers" and value.kind == "seq":
            _tiers(lint, value)
    for key, value in _scalar_pairs(root):
        if key.text == "configurations" and value.kind == "seq":
            _configurations(lint, value, actions)
    return lint.problems


def _actions(lint: _Lint, value: Node) -> list[str]:
    names = [part.strip() for part in value.text.split(",")]
    seen: set[str] = set()
    for name in names:
        if name in seen and name in ACTIONS:
            lint.add(
                vr.DUPLICATE_ACTION,
                value,
                f"action `{name}` is listed more than once in `actions`: it runs that many times every session",
                ("actions",),
                "list each action once.",
            )
        seen.add(name)
    return names


def _tiers(lint: _Lint, tiers: Node) -> None:
    first_seen: dict[str, str] = {}
    for i, tier in enumerate(tiers.items):
        path: Path = ("tiers", i)
        plugins: Node | None = None
        if _is_map(tier):
            for key, value in _scalar_pairs(tier):
                if key.text in TIER_KEYS:
                    plugins = value
                else:
                    _unknown_key(lint, key, TIER_KEYS, (*path, key.text), _where((*path, "x")))
        elif tier.kind != "scalar" or tier.tag != "null":
            continue
        if plugins is None or plugins.kind != "seq" or not plugins.items:
            anchor = plugins if plugins is not None else tier.pairs[0][0] if tier.pairs else tier
            lint.add(
                vr.EMPTY_TIER,
                anchor,
                f"tier {i + 1} has no plugins: it orders, filters and admits nothing",
                path,
                "remove the tier, or check the indentation of its `plugins:` list.",
            )
            continue
        for j, entry in enumerate(plugins.items):
            if _is_map(entry):
                _plugin(lint, entry, (*path, "plugins", j), first_seen)


def _hierarchy_on(key: Node, value: Node) -> bool:
    return key.text == "enableHierarchy" and value.kind == "scalar" and value.text in YAML11_TRUE


def _plugin(lint: _Lint, entry: Node, path: Path, first_seen: dict[str, str]) -> None:
    where = _where((*path, "x"))
    name_node = entry.get("name")
    name = name_node.text if name_node is not None and name_node.kind == "scalar" else ""
    for key, value in _scalar_pairs(entry):
        if key.text not in PLUGIN_KEYS:
            _unknown_key(lint, key, PLUGIN_KEYS, (*path, key.text), f"{where}, {name or 'no name'}")
        elif key.text == "arguments" and _is_map(value):
            for arg, _ in _scalar_pairs(value):
                if registry.PROPOSAL_KEY.search(arg.text):
                    _proposal(lint, arg, (*path, "arguments", arg.text), f"{where}, {name} arguments")
        elif _hierarchy_on(key, value) and name and name not in registry.HIERARCHY_PLUGINS:
            lint.add(
                vr.HIERARCHY_IGNORED,
                key,
                f"enableHierarchy on plugin `{name}` ({where}) has no effect: only drf and capacity read it",
                (*path, key.text),
                "remove it; for hierarchical queues enable it on capacity (spec.parent) or drf (HDRF).",
                key=True,
            )
    if name_node is None or name_node.kind != "scalar":
        return
    if name and name not in registry.PLUGINS:
        guess = registry.closest(name, registry.PLUGINS)
        hint = f"did you mean `{guess}`? " if guess else ""
        lint.add(
            vr.UNKNOWN_PLUGIN,
            name_node,
            f"unknown plugin `{name}` ({where}): Volcano logs `Failed to get plugin {name}` and runs the session "
            "without it",
            (*path, "name"),
            hint + "A custom plugin from the scheduler's plugins directory is fine: silence this line with "
            "`# yk: disable=volcano-unknown-plugin`.",
        )
    if name in first_seen:
        lint.add(
            vr.DUPLICATE_PLUGIN,
            name_node,
            f"plugin `{name}` is listed again ({where}; first at {first_seen[name]}): Volcano builds it once, with "
            "the arguments of its last entry, and consults it at both places",
            (*path, "name"),
            "keep one entry for each plugin.",
        )
    elif name:
        first_seen[name] = where


def _configurations(lint: _Lint, configurations: Node, actions: list[str]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(configurations.items):
        path: Path = ("configurations", i)
        if not _is_map(item):
            continue
        where = _where((*path, "x"))
        name_node = item.get("name")
        name = name_node.text if name_node is not None and name_node.kind == "scalar" else ""
        for key, _ in _scalar_pairs(item):
            if key.text not in CONFIGURATION_KEYS:
                _unknown_key(lint, key, CONFIGURATION_KEYS, (*path, key.text), f"{where}, {name or 'no name'}")
        anchor = name_node if name_node is not None else item
        unused = _unused(name, actions, seen)
        seen.add(name)
        if unused:
            label = f"`{name}`" if name else "without a name"
            message = f"configuration {label} ({where}) {unused[0]}"
            lint.add(vr.UNUSED_CONFIGURATION, anchor, message, (*path, "name"), unused[1])
        arguments = item.get("arguments")
        if _is_map(arguments):
            assert arguments is not None
            _arguments(lint, arguments, name, (*path, "arguments"), where)


def _unused(name: str, actions: list[str], seen: set[str]) -> tuple[str, str] | None:
    """(why, hint) when this configuration entry is never read, else None."""
    if name not in ACTIONS:
        guess = registry.closest(name, ACTIONS)
        hint = f"did you mean `{guess}`? " if guess else ""
        return "names no Volcano action: its arguments are never read", hint + f"actions are: {', '.join(ACTIONS)}."
    if name in seen:
        return "repeats an earlier entry: an action reads only its first one", "merge the arguments into one entry."
    if name not in actions:
        return (
            f"configures an action that is not in `actions`: `{name}` never runs, so its arguments are never read",
            f"add `{name}` to `actions`, or remove this entry.",
        )
    return None


def _arguments(lint: _Lint, arguments: Node, action: str, path: Path, where: str) -> None:
    known = registry.ACTION_ARGUMENTS.get(action)
    for key, _ in _scalar_pairs(arguments):
        if registry.PROPOSAL_KEY.search(key.text):
            _proposal(lint, key, (*path, key.text), f"{where}, {action} arguments")
        elif known is not None and key.text not in known:
            guess = registry.closest(key.text, known)
            hint = f"did you mean `{guess}`? " if guess else ""
            lint.add(
                vr.UNKNOWN_ARGUMENT,
                key,
                f"action `{action}` reads no argument `{key.text}` ({where}): it is ignored",
                (*path, key.text),
                hint + f"{action} reads: {', '.join(known)}.",
                key=True,
            )
