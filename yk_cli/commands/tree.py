"""`yk tree`: a partition's resolved queue hierarchy, every setting with where it came from (and, with a workload,
what each queue holds and its current priority). Also the input handling `yk priorities` shares."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from yk_cli.cli import (
    QUIET_FLAGS,
    Exit,
    check_format,
    config_size,
    echo_error,
    fail_usage,
    plain_arguments,
    run_fast,
    write_stdout,
)
from yk_cli.commands.project import CONFIG_FLAGS, CONFIG_OPTIONS, project_options
from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level, Path, Problem
from yk_cli.core.lint.loader_rules import NO_QUEUE_CONFIG

if TYPE_CHECKING:
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.config.queues import Queue, QueueTree
    from yk_cli.core.workload.model import Application, Workload
    from yk_cli.load.config import LoadedConfig, LoadResult

TREE_FORMATS = ("text", "json", "markdown", "mermaid")


@dataclass(slots=True)
class Inputs:
    """A checked queue config and workload: the partition's tree and where each application was placed."""

    config: LoadedConfig
    partition: PartitionConfig
    tree: QueueTree
    workload: Workload | None = None
    placed: list[tuple[Application, Queue]] = field(default_factory=list)
    rejected: list[tuple[Application, str]] = field(default_factory=list)
    source: str = ""
    """What the inputs are, as reports name them ('' when the commands name the files themselves)."""
    locator: Callable[[Path], str] | None = None
    """`file:line` of a document path when the config is not the one loaded here (--cluster)."""

    def locate(self, path: Path) -> str:
        """`file:line` of a document path in the queue config ('' when it is not there)."""
        if self.locator is not None:
            return self.locator(path)
        if not path:
            return ""
        span = self.config.source_map.span(path, "value")
        return f"{self.config.file}:{span.line}" if span is not None else ""


def builtin_default(result: LoadResult) -> LoadedConfig | None:
    """YuniKorn's built-in default queue config, when a file makes YuniKorn use it (empty, or a yunikorn-configs
    ConfigMap without the queue config key: the no-queue-config warning says so); else None."""
    from yk_cli.core.config.model import SchedulerConfig
    from yk_cli.core.config.placement import default_partition
    from yk_cli.core.yamldoc import SourceMap
    from yk_cli.load.config import LoadedConfig
    from yk_cli.load.unclassified import DEFAULT_CONFIG

    if any(p.level == Level.ERROR for p in result.problems):
        return None
    if not any(p.rule == NO_QUEUE_CONFIG.id and p.message.endswith(DEFAULT_CONFIG) for p in result.problems):
        return None
    config = SchedulerConfig(partitions=(default_partition(),))
    return LoadedConfig(result.file, "YuniKorn's built-in default", None, config, SourceMap(), True)


def prepare_inputs(
    config_name: str, workload_name: str | None, partition_name: str | None, quiet: bool = False
) -> Inputs:
    """Load and check both inputs (exit 1 on errors, 2 unreadable); errors go to stderr in full as `yk validate`
    shows them, warnings alone as one summary line (none when quiet). The project config (.yk.yaml) gives the
    ConfigMap key (policy-group) and hides what it disables or ignores."""
    from yk_cli.commands.project import active_project
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.workload.checks import may_create_queues
    from yk_cli.load.config import load_config
    from yk_cli.load.source import InputError
    from yk_cli.load.unclassified import DEFAULT_CONFIG
    from yk_cli.load.workload import read_workload

    if config_name == "-" and workload_name == "-":
        raise fail_usage("'-' (standard input) may be given only once")
    policy_group = active_project().policy_group or "queues"
    try:
        result = load_config(config_name, policy_group)
    except InputError as err:
        raise fail_usage(str(err)) from None
    texts = {result.file: result.text}
    problems: list[Problem] = list(result.problems)
    config_problems = list(problems)

    def report(problems: list[Problem], texts: dict[str, str], files: int) -> None:
        report_problems(problems, texts, files, config_problems, quiet)

    if _has_errors(problems):
        report(problems, texts, 1)
        raise Exit(EXIT_PROBLEMS)
    configs = [c for c in result.configs if c.decoded and c.config.partitions]
    if not configs:
        default = builtin_default(result)
        if default is None:
            report(problems, texts, 1)
            echo_error(f"yk: error: {result.file} defines no partition")
            raise Exit(EXIT_PROBLEMS)
        configs = [default]
        if not quiet:
            echo_error(f"yk: note: {result.file} holds no queue config: {DEFAULT_CONFIG}")
    config = configs[0]
    partitions = {p.display_name: p for p in config.config.partitions}
    loaded = None
    if workload_name is not None:
        try:
            loaded = read_workload(workload_name)
        except InputError as err:
            report(problems, texts, 1)
            raise fail_usage(str(err)) from None
        texts[loaded.file] = loaded.text
        problems.extend(loaded.problems)
    files = len(texts)
    if partition_name is not None:
        partition = partitions.get(partition_name)
        if partition is None:
            report(problems, texts, files)
            raise fail_usage(f"{result.file} has no partition {partition_name!r} (it has: {', '.join(partitions)})")
        if loaded is not None:
            problems.extend(loaded.check(build_queue_tree(partition), may_create_queues(partition)))
    elif loaded is not None:
        partition, found = loaded.check_config(partitions)
        problems.extend(found)
    else:
        name = "default" if "default" in partitions or len(partitions) != 1 else next(iter(partitions))
        if name not in partitions:
            known = ", ".join(partitions)
            raise fail_usage(f"{result.file} has no partition 'default' (it has: {known}); use --partition")
        partition = partitions[name]
    problems.sort(key=Problem.sort_key)
    if problems:
        report(problems, texts, files)
    if _has_errors(problems) or partition is None:
        raise Exit(EXIT_PROBLEMS)
    inputs = Inputs(config, partition, build_queue_tree(partition))
    if loaded is not None:
        _place_workload(inputs, loaded.workload)
    return inputs


def _place_workload(inputs: Inputs, workload: Workload) -> None:
    """Place every application of the workload in the inputs' tree (a warning for each one that is not placed)."""
    from yk_cli.core.config.placement import place

    inputs.workload = workload
    for application in workload.applications:
        placement = place(inputs.partition, inputs.tree, application)
        leaf = inputs.tree.get(placement.queue_path) if placement.queue_path else None
        if leaf is None:
            reason = placement.reason or "no queue"
            inputs.rejected.append((application, reason))
            echo_error(f"yk: warning: application {application.id} is not placed: {reason}")
        else:
            inputs.placed.append((application, leaf))


def cluster_inputs(dump: str, config: str | None, partition_name: str | None, quiet: bool = False) -> Inputs:
    """A kubectl dump as the workload, with CONFIG, else its yunikorn-configs ConfigMap's queue config, else
    YuniKorn's built-in default: loaded and checked exactly as `yk simulate --cluster` does (Exit on problems)."""
    from yk_cli.commands.simulate import load_cluster_scenario
    from yk_cli.core.config.model import SchedulerConfig
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.yamldoc import SourceMap
    from yk_cli.load.config import LoadedConfig

    scenario = load_cluster_scenario(dump, config, partition_name, quiet)
    shown = "<stdin>" if dump == "-" else dump
    config_of = SchedulerConfig(partitions=(scenario.partition,))
    loaded = LoadedConfig(shown, "--cluster", None, config_of, SourceMap(), True)
    inputs = Inputs(loaded, scenario.partition, build_queue_tree(scenario.partition), source=scenario.source)
    inputs.locator = scenario.locate or (lambda path: "")
    _place_workload(inputs, scenario.workload)
    return inputs


WORKLOAD_TWICE = "give the workload once: WORKLOAD or -w/--workload PATH, not both"
CLUSTER_AND_WORKLOAD = "give WORKLOAD or --cluster DUMP, not both"


def one_workload(
    positional: str | None, option: str | None, cluster: str | None = None, with_cluster: str = CLUSTER_AND_WORKLOAD
) -> str | None:
    """The workload given as the positional WORKLOAD or as -w/--workload (a usage error when both are, or when a
    --cluster DUMP is given too: with_cluster is that message)."""
    if positional is not None and option is not None:
        raise fail_usage(WORKLOAD_TWICE)
    workload = positional if positional is not None else option
    if cluster is not None and workload is not None:
        raise fail_usage(with_cluster)
    return workload


def load_inputs(
    config: str | None, workload: str | None, cluster: str | None, partition: str | None, quiet: bool = False
) -> Inputs:
    """The inputs of tree, priorities and explain: CONFIG with an optional workload, or a --cluster DUMP with an
    optional CONFIG."""
    if cluster is not None:
        return cluster_inputs(cluster, config, partition, quiet)
    if config is None:
        raise fail_usage("give a queue config (CONFIG), or --cluster DUMP")
    return prepare_inputs(config, workload, partition, quiet)


def is_file_argument(name: str) -> bool:
    """Whether a positional argument names an input file ('-' is standard input) rather than, say, an ask."""
    return name == "-" or os.path.isfile(name)


def _has_errors(problems: list[Problem]) -> bool:
    return any(p.level == Level.ERROR for p in problems)


def report_problems(
    problems: list[Problem], texts: dict[str, str], files: int, config_problems: list[Problem], quiet: bool = False
) -> None:
    """On standard error: with an error, every problem exactly as `yk validate` prints them; with warnings alone,
    one summary line (nothing when quiet). config_problems are those `yk validate` reports too. What the project
    config (.yk.yaml) disables, and warnings in files it ignores, are left out; levels stay as they are: only what
    YuniKorn refuses stops a command."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.project import is_ignored

    project = active_project()
    problems = [
        p for p in project.shown(problems) if p.level == Level.ERROR or not (p.file and is_ignored(project, p.file))
    ]
    if not problems:
        return
    if _has_errors(problems):
        from yk_cli.report.problems import render_problems

        sys.stderr.write(render_problems("text", sorted(problems, key=Problem.sort_key), texts, files))
    elif not quiet:
        sys.stderr.write(warning_summary(problems, list(texts), config_problems) + "\n")


def warning_summary(warnings: list[Problem], files: list[str], config_problems: list[Problem]) -> str:
    """One line for warnings an earlier `yk validate` (or the workload's author) has seen: how many in which file,
    and where to read them: `3 warnings in queues.yaml: run yk validate queues.yaml`; for the workload, which rules
    at which lines: `1 warning in workload.yaml: workload-priority-mismatch (line 10)`."""
    import os

    parts = []
    for file in [*files, *sorted({p.file for p in warnings} - set(files))]:
        mine = [p for p in warnings if p.file == file]
        if not mine:
            continue
        hints = []
        if any(p in config_problems for p in mine):
            hints.append(f"run yk validate {file}" if os.path.isfile(file) else "run yk validate")
        lines: dict[str, list[int]] = {}
        for problem in sorted((p for p in mine if p not in config_problems), key=Problem.sort_key):
            found = lines.setdefault(problem.rule, [])
            if problem.span is not None and problem.span.line not in found:
                found.append(problem.span.line)
        for rule, numbers in lines.items():
            shown = ", ".join(map(str, numbers[:5])) + (", …" if len(numbers) > 5 else "")
            hints.append(f"{rule} (line{'s' if len(numbers) > 1 else ''} {shown})" if numbers else rule)
        count = f"{len(mine)} warning{'s' if len(mine) != 1 else ''}"
        parts.append(f"{count} in {file}: {', '.join(hints)}")
    return "; ".join(parts)


def color_wanted() -> bool:
    """Colour only when standard output is a terminal, and never under NO_COLOR or TERM=dumb (no-color.org), as
    `yk validate` and `yk diff` decide."""
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def print_tree(
    config: str | None,
    workload: str | None,
    partition: str | None,
    fmt: str,
    max_size: str | None = None,
    quiet: bool = False,
    set_only: bool = False,
    project_config: str | None = None,
    no_config: bool = False,
    at: str | None = None,
    cluster: str | None = None,
    positional_workload: str | None = None,
) -> None:
    """Check the format and the inputs given, load, print (Exit on problems)."""
    from yk_cli.commands.priorities import at_time
    from yk_cli.load.source import collector_paused

    check_format(fmt, TREE_FORMATS)
    workload = one_workload(positional_workload, workload, cluster)
    if config is None and cluster is None:
        raise fail_usage("give a queue config (CONFIG), or --cluster DUMP")
    if at is not None and workload is None and cluster is None:
        raise fail_usage("--at needs a workload (--workload W or --cluster DUMP): it is the time of its dry run")
    when = at_time(at)
    with project_options(project_config, no_config), config_size(max_size), collector_paused():
        color = color_wanted()
        text = run_tree(config, workload, partition, fmt, color, quiet, set_only, when, cluster)
        write_stdout((text,))


_VALUE_OPTIONS = {
    "--workload": "workload",
    "-w": "workload",
    "--cluster": "cluster",
    "--partition": "partition",
    "--format": "fmt",
    "-f": "fmt",
    "--max-size": "max_size",
    "--at": "at",
    **CONFIG_OPTIONS,
}


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk tree [CONFIG] [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or None
    when the arguments need typer (help, odd options, no file or more than two)."""
    parsed = plain_arguments(args, _VALUE_OPTIONS, {**QUIET_FLAGS, **CONFIG_FLAGS, "--set-only": "set_only"})
    if parsed is None or len(parsed[0]) > 2 or not (parsed[0] or "cluster" in parsed[1]):
        return None
    positional, options = parsed
    files: list[str | None] = [*positional, None, None]

    def text(name: str) -> str | None:
        value = options.get(name)
        return value if isinstance(value, str) else None

    flags = [options.get(name) is True for name in ("quiet", "set_only")]
    project = text("project_config"), options.get("no_config") is True
    return run_fast(
        print_tree,
        files[0],
        text("workload"),
        text("partition"),
        text("fmt") or "text",
        text("max_size"),
        *flags,
        *project,
        text("at"),
        text("cluster"),
        files[1],
    )


def run_tree(
    config: str | None,
    workload: str | None,
    partition: str | None,
    fmt: str,
    color: bool = False,
    quiet: bool = False,
    set_only: bool = False,
    at: int = 0,
    cluster: str | None = None,
) -> str:
    """Load, check and render the tree; with a workload (or a --cluster dump), what is pending and running and the
    priorities at the virtual time `at` (nanoseconds from the start; see core.analysis.snapshot). Problems go to stderr
    like `yk validate` (Exit on errors)."""
    from yk_cli.core.analysis.snapshot import state_at
    from yk_cli.core.config.guarantees import queue_guarantees
    from yk_cli.core.workload.model import queue_usage
    from yk_cli.report.tree_common import TreeView

    inputs = load_inputs(config, workload, cluster, partition, quiet)
    partition = inputs.partition.display_name
    if inputs.workload is None:
        view = TreeView(inputs.tree, partition, inputs.locate, rejected=inputs.rejected, set_only=set_only)
    else:
        snapshot = state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, at)
        usage = queue_usage((app, leaf.path) for app, leaf in snapshot.placed)
        guarantees = queue_guarantees(snapshot.tree, {path: u.allocated_resource for path, u in usage.items()})
        view = TreeView(
            snapshot.tree,
            partition,
            inputs.locate,
            usage,
            snapshot.cache,
            inputs.rejected,
            guarantees,
            set_only,
            snapshot.at,
            snapshot.steps,
            snapshot.absent,
        )
    if fmt == "json":
        from yk_cli.report import tree_json

        return tree_json.render(view)
    if fmt == "markdown":
        from yk_cli.report import tree_markdown

        return tree_markdown.render(view)
    if fmt == "mermaid":
        from yk_cli.report import tree_mermaid

        return tree_mermaid.render(view)
    from yk_cli.report import tree_text

    return tree_text.render(view, color=color)
