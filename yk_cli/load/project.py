"""`.yk.yaml`: found upwards from the working directory (or named), read and checked key by key with positions."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from yk_cli.core.diagnostics import Level
from yk_cli.core.lint.project import (
    DISABLE,
    RULE_SETTINGS,
    IgnorePattern,
    IgnorePatternError,
    ProjectConfig,
    ignore_pattern,
    rule_setting_problem,
)
from yk_cli.core.yamldoc import Node
from yk_cli.load.source import STDIN, InputError, decode_text, parse_size, parse_yaml, read_input

CONFIG_NAMES = (".yk.yaml", ".yk.yml")
"""The names a project config may have, in the order they are looked for in each folder."""
KEYS = ("rules", "ignore", "strict", "policy-group", "max-size")
"""Every top-level key of a .yk.yaml."""
MAX_PROJECT_BYTES = 1 << 20


class ProjectConfigError(Exception):
    """A .yk.yaml that yk cannot use: each problem as `file:line:col: message`, in file order."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


def find_project_config(start: str | None = None, home: str | None = None) -> str | None:
    """The first `.yk.yaml` (or `.yk.yml`) in start (default: the working directory) or a folder above it; the
    search ends at the filesystem root or after the home folder, as yamllint's search for `.yamllint` does."""
    folder = os.path.abspath(start if start is not None else os.getcwd())
    home = os.path.abspath(home if home is not None else os.path.expanduser("~"))
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(folder)
        if folder == home or parent == folder:
            return None
        folder = parent


def shown_path(path: str) -> str:
    """A found config's path as messages name it: relative to the working directory when below or near it."""
    relative = os.path.relpath(path)
    return relative if not relative.startswith(os.pardir + os.sep + os.pardir) else path


def read_project_config(path: str, shown: str | None = None) -> ProjectConfig:
    """Read and check a .yk.yaml (ProjectConfigError for an unreadable or wrong one)."""
    shown = shown if shown is not None else path
    try:
        data = read_input(path, limit=MAX_PROJECT_BYTES)
    except InputError as err:
        message = str(err).removeprefix(f"{path}: ")
        raise ProjectConfigError([f"{shown}: {message}"]) from None
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None and problem.span is not None
        raise ProjectConfigError([f"{shown}:{problem.span.line}:{problem.span.column}: {problem.message}"])
    return parse_project_config(text, shown, os.path.dirname(os.path.abspath(path)))


def parse_project_config(text: str, shown: str, base: str) -> ProjectConfig:
    """Check the text of a .yk.yaml key by key; every problem at once, with its position."""
    parsed = parse_yaml(text)
    if parsed.problems:
        raise ProjectConfigError([_at(shown, p.span.line, p.span.column, p.message) for p in parsed.problems if p.span])
    documents = [doc for doc in parsed.documents if doc is not None]
    if len(documents) > 1:
        second = documents[1].span
        raise ProjectConfigError([_at(shown, second.line, second.column, "a .yk.yaml holds one YAML document")])
    return _Reader(shown, base).read(documents[0] if documents else None)


def _at(shown: str, line: int, column: int, message: str) -> str:
    return f"{shown}:{line}:{column}: {message}"


def _did_you_mean(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word.lower().replace("_", "-"), known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class _Reader:
    """Reads the settings of one .yk.yaml, collecting a message for everything wrong."""

    def __init__(self, shown: str, base: str) -> None:
        self.shown = shown
        self.base = base
        self.found: list[tuple[int, int, str]] = []

    @property
    def messages(self) -> list[str]:
        """Every problem so far, in file order."""
        return [_at(self.shown, line, column, message) for line, column, message in sorted(self.found)]

    def fail(self, node: Node, message: str) -> None:
        self.found.append((node.span.line, node.span.column, message))

    def read(self, root: Node | None) -> ProjectConfig:
        config = ProjectConfig(path=self.shown, base=self.base)
        if root is None or (root.kind == "scalar" and root.tag == "null"):
            return config  # an empty file: nothing set
        if root.kind != "map":
            self.fail(root, f"a .yk.yaml is a mapping of settings ({', '.join(KEYS)}), not {root.describe()}")
            raise ProjectConfigError(self.messages)
        values: dict[str, Node] = {}
        for key, value in root.pairs:
            name = key.text if key.kind == "scalar" else ""
            if name in values:
                self.fail(key, f"{name!r} is given twice (first at line {values[name].span.line})")
            elif name not in KEYS:
                hint = _did_you_mean(name, list(KEYS))
                self.fail(key, f"unknown key {name!r}{hint}; a .yk.yaml may set {', '.join(KEYS)}")
            else:
                values[name] = value
        disabled, levels = self.rules(values.get("rules"))
        ignore = self.ignore(values.get("ignore"))
        strict = self.strict(values.get("strict"))
        policy_group = self.policy_group(values.get("policy-group"))
        max_size = self.max_size(values.get("max-size"))
        if self.messages:
            raise ProjectConfigError(self.messages)
        return ProjectConfig(
            path=self.shown,
            base=self.base,
            disabled=frozenset(disabled),
            levels=levels,
            ignore=ignore,
            strict=strict,
            policy_group=policy_group,
            max_size=max_size,
        )

    def rules(self, node: Node | None) -> tuple[set[str], dict[str, Level]]:
        disabled: set[str] = set()
        levels: dict[str, Level] = {}
        if node is None or _null(node):
            return disabled, levels
        if node.kind != "map":
            self.fail(node, f"rules is a mapping of rule id to {', '.join(RULE_SETTINGS)}, not {node.describe()}")
            return disabled, levels
        from yk_cli.core.volcano.rules import volcano_rules

        volcano = volcano_rules()
        from yk_cli.core.lint.catalogue import all_rules

        known = {**all_rules(), **volcano}  # the rules of `yk validate` and of `yk volcano validate`
        seen: dict[str, int] = {}
        for key, value in node.pairs:
            rule_id = key.text if key.kind == "scalar" else ""
            if rule_id in seen:
                self.fail(key, f"rules: {rule_id!r} is given twice (first at line {seen[rule_id]})")
                continue
            seen[rule_id] = key.span.line
            rule = known.get(rule_id)
            if rule is None:
                hint = _did_you_mean(rule_id, sorted(known))
                self.fail(key, f"rules: {rule_id!r} is no yk rule{hint}; `yk rules` lists them all")
                continue
            if value.kind != "scalar" or value.tag != "str":
                self.fail(value, f"rules: {rule_id}: give one of {', '.join(RULE_SETTINGS)}, not {value.describe()}")
                continue
            scheduler = "Volcano" if rule_id in volcano else "YuniKorn"
            problem = rule_setting_problem(rule_id, rule.level, value.text, scheduler)
            if problem is not None:
                self.fail(value, f"rules: {problem}")
            elif value.text == DISABLE:
                disabled.add(rule_id)
            elif value.text != rule.level.value:
                levels[rule_id] = Level(value.text)
        return disabled, levels

    def ignore(self, node: Node | None) -> tuple[IgnorePattern, ...]:
        if node is None or _null(node):
            return ()
        patterns: list[tuple[str, Node, str]] = []
        """(pattern, the node it is in, its name in messages)."""
        if node.kind == "scalar" and node.tag == "str":  # yamllint's form: one pattern a line
            patterns = [(line.strip(), node, "ignore") for line in node.text.splitlines() if line.strip()]
        elif node.kind == "seq":
            for index, item in enumerate(node.items):
                if item.kind != "scalar" or item.tag != "str" or not item.text.strip():
                    self.fail(
                        item, f"ignore[{index}] must be a glob pattern such as 'vendor/**', not {item.describe()}"
                    )
                else:
                    patterns.append((item.text.strip(), item, f"ignore[{index}]"))
        else:
            self.fail(
                node, f"ignore is a list of glob patterns (relative to {self.shown}'s folder), not {node.describe()}"
            )
        out: list[IgnorePattern] = []
        for text, where, name in patterns:
            if text.startswith("#"):
                continue
            try:
                out.append(ignore_pattern(text))
            except IgnorePatternError as err:
                self.fail(where, f"{name}: {err}")
        return tuple(out)

    def strict(self, node: Node | None) -> bool | None:
        if node is None or _null(node):
            return None
        if node.kind != "scalar" or node.tag != "bool":
            self.fail(node, f"strict must be true or false, not {node.describe()}")
            return None
        return bool(node.value)

    def policy_group(self, node: Node | None) -> str | None:
        if node is None or _null(node):
            return None
        if node.kind != "scalar" or node.tag != "str" or not node.text.strip():
            self.fail(
                node,
                f"policy-group must be a name such as queues (the ConfigMap key <group>.yaml), not {node.describe()}",
            )
            return None
        return node.text

    def max_size(self, node: Node | None) -> str | None:
        if node is None or _null(node):
            return None
        if node.kind != "scalar" or node.tag not in ("str", "int") or not parse_size(node.text):
            self.fail(node, f"max-size must be a size such as 16MiB, 20MB or a number of bytes, not {node.describe()}")
            return None
        return node.text


def _null(node: Node) -> bool:
    return node.kind == "scalar" and node.tag == "null"


def relative_to_base(config: ProjectConfig, file: str) -> str | None:
    """A file's path relative to the config's folder with `/` separators, or None when it is outside it."""
    if not config.base or file in ("-", STDIN):
        return None
    relative = os.path.relpath(os.path.abspath(file), config.base)
    if relative == os.curdir or relative.startswith(os.pardir):
        return None
    return relative.replace(os.sep, "/")


def is_ignored(config: ProjectConfig, file: str) -> bool:
    """Whether the config's ignore patterns cover this file (standard input never is)."""
    relative = relative_to_base(config, file)
    return relative is not None and config.ignores(relative)


_ACTIVE: ContextVar[ProjectConfig | None] = ContextVar("yk_project_config", default=None)


@contextmanager
def project_config_set(config: ProjectConfig) -> Iterator[None]:
    """The project config in force inside the block (what --config / --no-config chose)."""
    token = _ACTIVE.set(config)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active_project_config() -> ProjectConfig:
    """The config set by project_config_set, else the .yk.yaml found upwards from the working directory, else none
    (ProjectConfigError for a broken one)."""
    chosen = _ACTIVE.get()
    if chosen is not None:
        return chosen
    found = find_project_config()
    return read_project_config(found, shown_path(found)) if found is not None else ProjectConfig()
