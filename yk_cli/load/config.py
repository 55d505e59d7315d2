"""load_config: a file (or stdin) -> located problems and decoded queue configs, ready for the core."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.config.model import SchedulerConfig, decode_config
from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.lint.checks import run_checks
from yk_cli.core.lint.loader_rules import CONFIG_TOO_LARGE
from yk_cli.core.yamldoc import Node, SourceMap
from yk_cli.load.configmap import find_queue_configs
from yk_cli.load.source import InputTooLarge, config_limit, decode_text, format_size, read_input, shown_name
from yk_cli.load.suppress import unsuppressed


@dataclass(slots=True)
class LoadedConfig:
    """One queue config document of a file: decoded (when it could be) with its source map."""

    file: str
    origin: str
    root: Node | None
    config: SchedulerConfig
    source_map: SourceMap
    decoded: bool
    """False when YAML syntax problems kept the document from being read."""


@dataclass(slots=True)
class LoadResult:
    """Everything found in one input file: its configs and every located problem."""

    file: str
    configs: list[LoadedConfig] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    text: str = ""


def load_config(name: str, policy_group: str = "queues", stdin: bytes | None = None, check: bool = True) -> LoadResult:
    """Read, parse, decode and (with check) validate every queue config in a file. Raises InputError if unreadable."""
    display = shown_name(name)
    result = LoadResult(file=display)
    try:
        data = read_input(name, stdin, config_limit())
    except InputTooLarge as err:
        result.problems.append(too_large_problem(err).located(None, display))
        return result
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None
        result.problems.append(problem.located(None, display))
        return result
    result.text = text
    contents = find_queue_configs(text, policy_group)
    result.problems.extend(p.located(None, display) for p in contents.problems)
    for doc in contents.documents:
        source_map = SourceMap.of(doc.root)
        result.problems.extend(p.located(None, display) for p in doc.problems)
        if doc.root is None and any(p.level == Level.ERROR for p in doc.problems):
            result.configs.append(LoadedConfig(display, doc.origin, None, SchedulerConfig(), source_map, decoded=False))
            continue
        config, decode_problems = decode_config(doc.root)
        problems = decode_problems + (run_checks(config) if check else [])
        for p in problems:
            span = p.span if p.span is not None else source_map.span(p.path, p.anchor)
            result.problems.append(p.located(span, display))
        result.configs.append(LoadedConfig(display, doc.origin, doc.root, config, source_map, decoded=True))
    result.problems = unsuppressed(result.problems, text, display, _rule_ids)
    result.problems.sort(key=Problem.sort_key)
    return result


def too_large_problem(err: InputTooLarge) -> Problem:
    """The config-too-large problem of a queue config refused unread."""
    if err.size is None:
        size = "standard input"
    else:
        size = f"{err.size:,} bytes" + (f" ({format_size(err.size)})" if err.size >= 1024 else "")
    return Problem(
        rule=CONFIG_TOO_LARGE.id,
        level=Level.ERROR,
        message=f"{size} is more than the {format_size(err.limit)} yk reads from a queue config; "
        "Kubernetes stores at most 1 MiB in a ConfigMap",
        hint=f"not parsed. If the file is meant to be this large, raise the limit: --max-size {_suggest(err)}.",
        span=Span(1, 1, 1, 2),
    )


def _suggest(err: InputTooLarge) -> str:
    """A --max-size value that would let the input in (a power of two MiB)."""
    need = max(err.size or err.limit * 2, err.limit + 1)
    mib = 1
    while mib << 20 < need:
        mib *= 2
    return f"{mib}MiB"


def _rule_ids() -> set[str]:
    """Every rule id yk validate knows (the catalogue imports every rule module: only when a comment names one)."""
    from yk_cli.core.lint.catalogue import all_rules

    return set(all_rules())
