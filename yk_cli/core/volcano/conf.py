"""volcano-scheduler.conf as Volcano's loader reads it: yaml.v2 types, plugin flag defaults, load errors.

Follows pkg/scheduler/util.go UnmarshalSchedulerConf and pkg/scheduler/plugins/defaults.go ApplyPluginConfDefaults
(volcano-sh/volcano ed72c7c8): unknown keys are ignored (yaml.v2 is not strict), every absent enable flag becomes true
except `enableHierarchy` and `enabledClusterOrder`, an unknown action name or drf-with-hierarchy beside proportion in
one tier fails the whole load. A failed load leaves the scheduler on its previous configuration (at start-up, the
built-in default), which is what `effective` returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Path, Problem
from yk_cli.core.volcano import rules
from yk_cli.core.yamldoc import Node, SourceMap

ACTIONS = (
    "enqueue",
    "allocate",
    "preempt",
    "reclaim",
    "backfill",
    "shuffle",
    "gangpreempt",
    "gangreclaim",
)
"""Action names registered in Volcano's scheduler (pkg/scheduler/actions/factory.go, framework.RegisterAction;
checked against v1.15.1 and HEAD: `dequeue`, PR #5777, is not merged)."""
SIMULATED_ACTIONS = ("enqueue", "allocate", "preempt", "reclaim", "backfill")
"""The actions yk's dry run carries out; the others are reported as not modelled."""

DEFAULTED_FLAGS = (
    "enableJobOrder",
    "enableJobReady",
    "enableJobPipelined",
    "enableTaskOrder",
    "enablePreemptable",
    "enableReclaimable",
    "enablePreemptive",
    "enableQueueOrder",
    "enablePredicate",
    "enableBestNode",
    "enableNodeOrder",
    "enableTargetJob",
    "enableReservedNodes",
    "enableJobEnqueued",
    "enabledVictim",
    "enableJobStarving",
    "enabledOverused",
    "enabledAllocatable",
    "enabledHyperNodeOrder",
    "enabledSubJobReady",
    "enabledSubJobPipelined",
    "enabledSubJobOrder",
    "enabledHyperNodeGradient",
)
"""The 23 enable flags ApplyPluginConfDefaults sets to true when absent."""
UNDEFAULTED_FLAGS = ("enableHierarchy", "enabledClusterOrder")
"""The two flags it never touches: absent means off."""
FLAGS = DEFAULTED_FLAGS + UNDEFAULTED_FLAGS
"""Every enable flag of PluginOption, by its YAML key."""

PLUGIN_KEYS = ("name", "arguments", *FLAGS)
"""The keys of one plugin entry that yaml.v2 decodes; any other key is silently ignored."""
TOP_LEVEL_KEYS = ("actions", "tiers", "configurations", "metrics")
TIER_KEYS = ("plugins",)
CONFIGURATION_KEYS = ("name", "arguments")

DEFAULT_CONF_TEXT = """\
actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
  - name: conformance
- plugins:
  - name: overcommit
  - name: drf
  - name: predicates
  - name: proportion
  - name: nodeorder
"""
"""Volcano's built-in DefaultSchedulerConf (pkg/scheduler/util.go), used when no conf is given or it fails to load."""

_YAML11_TRUE = frozenset({"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
_YAML11_FALSE = frozenset({"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})
YAML11_TRUE = _YAML11_TRUE
"""The plain scalars yaml.v2 decodes as true into a bool field."""


@dataclass(frozen=True, slots=True)
class PluginOption:
    """One plugin of a tier with its enable flags after defaulting (None: absent and never defaulted = off)."""

    name: str
    flags: Mapping[str, bool | None]
    arguments: Mapping[str, object] = field(default_factory=dict)

    def enabled(self, flag: str) -> bool:
        """Whether this plugin's function behind `flag` takes part (isEnabled: nil counts as off)."""
        return self.flags.get(flag) is True


@dataclass(frozen=True, slots=True)
class Tier:
    """A tier: plugins consulted in order; for victims, the first tier with an answer decides."""

    plugins: tuple[PluginOption, ...]


@dataclass(frozen=True, slots=True)
class SchedulerConf:
    """A loaded scheduler configuration: actions in order, tiers, per-action arguments and where it came from."""

    actions: tuple[str, ...]
    tiers: tuple[Tier, ...]
    configurations: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    """Action name -> its arguments (the first configuration of that name; Volcano's GetArgOfActionFromConf)."""
    origin: str = "Volcano's built-in default configuration"

    def plugins(self) -> tuple[PluginOption, ...]:
        """Every plugin of every tier, in tier order."""
        return tuple(p for tier in self.tiers for p in tier.plugins)

    def action_arguments(self, action: str) -> Mapping[str, object]:
        """The arguments configured for one action ({} when none)."""
        return self.configurations.get(action, {})


@dataclass(frozen=True, slots=True)
class ConfLoad:
    """The result of loading a conf: the conf Volcano runs with, whether the given one loaded, and the problems."""

    effective: SchedulerConf
    loaded: bool
    problems: tuple[Problem, ...] = ()
    error: str = ""
    """Volcano's own load error text when the conf was refused ("" when it loaded)."""


class _TypeErrors:
    """yaml.v2 collects every type error of one Unmarshal and fails with all of them."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, node: Node, expected: str, path: Path) -> None:
        shown = node.describe() if node.kind == "scalar" else f"!!{node.tag}"
        problem = rules.CONF_TYPE.problem(f"cannot unmarshal {shown} into {expected}", path)
        self.problems.append(problem.located(node.span, ""))


def _is_null(node: Node | None) -> bool:
    return node is None or (node.kind == "scalar" and node.tag == "null")


def _string(node: Node, path: Path, errors: _TypeErrors) -> str | None:
    """A Go string field: any plain or quoted scalar decodes (yaml.v2 turns numbers and bools into their text)."""
    if _is_null(node):
        return ""
    if node.kind != "scalar":
        errors.add(node, "string", path)
        return None
    return node.text


def _bool(node: Node, path: Path, errors: _TypeErrors) -> bool | None:
    """A *bool field: YAML 1.1 booleans of yaml.v2 (yes/no/on/off too); null leaves it unset."""
    if node.kind == "scalar" and node.style == "":
        if node.text in _YAML11_TRUE:
            return True
        if node.text in _YAML11_FALSE:
            return False
    errors.add(node, "bool", path)
    return None


def _plain_value(node: Node) -> object:
    """An arguments value as plain data (interface{} in Go): yaml.v2 decodes an unquoted YAML 1.1 boolean (yes, no,
    on, off, ...) into a bool there."""
    if node.kind == "map":
        return {k.text: _plain_value(v) for k, v in node.pairs}
    if node.kind == "seq":
        return [_plain_value(item) for item in node.items]
    if node.style != "":
        return node.text
    if node.kind == "scalar" and node.text in _YAML11_TRUE:
        return True
    if node.kind == "scalar" and node.text in _YAML11_FALSE:
        return False
    return node.value


def _arguments(node: Node, path: Path, errors: _TypeErrors) -> dict[str, object]:
    if _is_null(node):
        return {}
    if node.kind != "map":
        errors.add(node, "map[string]interface {}", path)
        return {}
    return {k.text: _plain_value(v) for k, v in node.pairs if k.kind == "scalar"}


def _pairs(node: Node) -> list[tuple[str, Node]]:
    """A mapping's entries by key text; for a repeated key yaml.v2 keeps the last value."""
    return [(k.text, v) for k, v in node.pairs if k.kind == "scalar"]


def _plugin(node: Node, path: Path, errors: _TypeErrors) -> PluginOption | None:
    if _is_null(node):
        return PluginOption(name="", flags=_defaulted({}))
    if node.kind != "map":
        errors.add(node, "conf.PluginOption", path)
        return None
    name = ""
    flags: dict[str, bool | None] = {}
    arguments: dict[str, object] = {}
    for key, value in _pairs(node):
        where = (*path, key)
        if key == "name":
            name = _string(value, where, errors) or ""
        elif key == "arguments":
            arguments = _arguments(value, where, errors)
        elif key in FLAGS:
            flags[key] = None if _is_null(value) else _bool(value, where, errors)
    return PluginOption(name=name, flags=_defaulted(flags), arguments=arguments)


def _defaulted(flags: Mapping[str, bool | None]) -> dict[str, bool | None]:
    """ApplyPluginConfDefaults: every absent defaulted flag becomes true; the other two stay as written."""
    out: dict[str, bool | None] = {}
    for flag in DEFAULTED_FLAGS:
        value = flags.get(flag)
        out[flag] = True if value is None else value
    for flag in UNDEFAULTED_FLAGS:
        out[flag] = flags.get(flag)
    return out


def _sequence(node: Node, expected: str, path: Path, errors: _TypeErrors) -> list[Node]:
    if _is_null(node):
        return []
    if node.kind != "seq":
        errors.add(node, expected, path)
        return []
    return node.items


def _tiers(node: Node, errors: _TypeErrors) -> list[Tier]:
    tiers: list[Tier] = []
    for i, item in enumerate(_sequence(node, "[]conf.Tier", ("tiers",), errors)):
        plugins: list[PluginOption] = []
        if item.kind == "map":
            for key, value in _pairs(item):
                if key == "plugins":
                    plugins = []
                    for j, entry in enumerate(_sequence(value, "[]conf.PluginOption", ("tiers", i, "plugins"), errors)):
                        plugin = _plugin(entry, ("tiers", i, "plugins", j), errors)
                        if plugin is not None:
                            plugins.append(plugin)
        elif not _is_null(item):
            errors.add(item, "conf.Tier", ("tiers", i))
        tiers.append(Tier(tuple(plugins)))
    return tiers


def _configurations(node: Node, errors: _TypeErrors) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for i, item in enumerate(_sequence(node, "[]conf.Configuration", ("configurations",), errors)):
        if _is_null(item):
            continue
        if item.kind != "map":
            errors.add(item, "conf.Configuration", ("configurations", i))
            continue
        name = ""
        arguments: dict[str, object] = {}
        for key, value in _pairs(item):
            if key == "name":
                name = _string(value, ("configurations", i, "name"), errors) or ""
            elif key == "arguments":
                arguments = _arguments(value, ("configurations", i, "arguments"), errors)
        out.setdefault(name, arguments)
    return out


def load_conf(root: Node | None, origin: str, fallback: SchedulerConf | None = None) -> ConfLoad:
    """Load a parsed volcano-scheduler.conf as Volcano does; on a load error Volcano keeps `fallback` (default: the
    built-in configuration). Problems carry document paths and spans but no file name (the caller locates them)."""
    errors = _TypeErrors()
    actions_text = ""
    tiers: list[Tier] = []
    configurations: dict[str, dict[str, object]] = {}
    if root is not None and not _is_null(root):
        if root.kind != "map":
            errors.add(root, "conf.SchedulerConfiguration", ())
        else:
            for key, value in _pairs(root):
                if key == "actions":
                    actions_text = _string(value, ("actions",), errors) or ""
                elif key == "tiers":
                    tiers = _tiers(value, errors)
                elif key == "configurations":
                    configurations = _configurations(value, errors)
                elif key == "metrics" and not _is_null(value) and value.kind != "map":
                    errors.add(value, "map[string]string", ("metrics",))
    previous = fallback if fallback is not None else default_conf()
    located = SourceMap.of(root)

    def at(problem: Problem) -> Problem:
        return problem.located(located.span(problem.path, problem.anchor), "")

    if errors.problems:
        return ConfLoad(previous, False, tuple(errors.problems), "yaml: unmarshal errors")
    for i, tier in enumerate(tiers):
        names = [p.name for p in tier.plugins]
        hdrf = [j for j, p in enumerate(tier.plugins) if p.name == "drf" and p.flags.get("enableHierarchy") is True]
        if hdrf and "proportion" in names:
            message = "proportion and drf with hierarchy enabled conflicts"
            problem = rules.HIERARCHY_CONFLICT.problem(
                f"{message} (tier {i + 1})",
                ("tiers", i, "plugins", hdrf[0], "enableHierarchy"),
                "move proportion or the hierarchical drf to another tier, or use one of them.",
                anchor="key",
            )
            return ConfLoad(previous, False, (at(problem),), message)
    actions: list[str] = []
    for index, raw in enumerate(actions_text.split(",")):
        name = raw.strip()
        if name not in ACTIONS:
            message = f"failed to find Action {raw}"
            hint = _action_hint(name, index)
            problem = rules.UNKNOWN_ACTION.problem(message, ("actions",), hint)
            return ConfLoad(previous, False, (at(problem),), message)
        actions.append(name)
    conf = SchedulerConf(tuple(actions), tuple(tiers), configurations, origin)
    return ConfLoad(conf, True)


def _action_hint(name: str, index: int) -> str:
    import difflib

    if not name:
        return "an empty action name: check for a stray comma, or an empty `actions`."
    close = difflib.get_close_matches(name, ACTIONS, n=1)
    known = ", ".join(ACTIONS)
    return f"did you mean `{close[0]}`? Actions are: {known}." if close else f"actions are: {known}."


def default_conf() -> SchedulerConf:
    """Volcano's built-in default configuration, loaded like any other."""
    tiers = (
        Tier(tuple(PluginOption(n, _defaulted({})) for n in ("priority", "gang", "conformance"))),
        Tier(
            tuple(
                PluginOption(n, _defaulted({})) for n in ("overcommit", "drf", "predicates", "proportion", "nodeorder")
            )
        ),
    )
    return SchedulerConf(("enqueue", "allocate", "backfill"), tiers, {}, "Volcano's built-in default configuration")
