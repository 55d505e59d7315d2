"""The one input pipeline: a queue config with a workload file, a kubectl dump (`--cluster`), or a config alone,
read, checked and built once into Inputs, going down: read the config, check it, choose the partition, build its
queue tree once, check the workload against that tree, place the applications.

Commands give an InputRequest and get Inputs, or InputsRefused: either way what is wrong is in the value (problems,
the texts to quote them from, notes), and the command decides how to show it. Nothing here prints.

The partition a command runs in (choose_partition, the one rule): the one `--partition` names, else the one the
workload names (its `partition:`, `default` when it names none; a kubectl dump names none), else `default`; the name
`default` also stands for the only partition of a config that has just one. A name the config does not have is a
usage error naming the partitions it has, except when it comes from a workload file's own `partition:`: that is
the workload's unknown-partition problem, at its line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from yk_cli.core.config.model import PartitionConfig, SchedulerConfig
from yk_cli.core.config.placement import Placement, default_partition, place
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import EXIT_PROBLEMS, EXIT_USAGE, Level, Path, Problem
from yk_cli.core.lint.loader_rules import NO_QUEUE_CONFIG
from yk_cli.core.workload.checks import check_workload, may_create_queues, partition_problem
from yk_cli.core.workload.model import Application, Workload
from yk_cli.core.yamldoc import SourceMap
from yk_cli.load.config import LoadedConfig, LoadResult, load_config
from yk_cli.load.source import InputError, config_limit, config_limit_set, decode_text, read_input, shown_name
from yk_cli.load.unclassified import DEFAULT_CONFIG

if TYPE_CHECKING:
    from yk_cli.load.state import LoadedState
    from yk_cli.load.volcano import VolcanoInputs
    from yk_cli.load.workload import LoadedWorkload

DEFAULT_PARTITION = "default"
"""The partition YuniKorn schedules in unless told otherwise (and the one a workload names by default)."""

Locator = Callable[[Path], str]
"""`file:line` of a document path in the queue config ('' when it is not there)."""


@dataclass(frozen=True, slots=True)
class InputRequest:
    """What a command was given: a queue config, a workload file or a kubectl dump, a partition."""

    config: str | None
    """A path, '-' for standard input; None with a --cluster dump that holds its own queue config (or none)."""
    workload: str | None = None
    cluster: str | None = None
    """A kubectl dump (`kubectl get nodes,pods,priorityclasses,configmaps -A -o yaml`) read as the workload."""
    partition: str | None = None
    """--partition (None: the workload's, else `default`)."""
    policy_group: str = "queues"
    """The ConfigMap key prefix (`<policy-group>.yaml`), from the project config."""
    state: str | None = None
    """A saved YuniKorn state dump (`/debug/fullstatedump`; '-' for standard input): config and workload at once."""
    yunikorn: str | None = None
    """A running YuniKorn's REST API base URL: its state read live, as --state reads a saved one."""


@dataclass(slots=True)
class InputReport:
    """What the pipeline found for the user to read: problems with the texts they quote, and notes."""

    problems: list[Problem] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    """Each input file's text by the name problems give it (for source excerpts)."""
    config_problems: list[Problem] = field(default_factory=list)
    """The problems `yk validate` reports on the queue config too (a warning summary names it as their source)."""
    notes: list[str] = field(default_factory=list)
    """Lines shown before the problems (`yk: note: ...`)."""

    @property
    def has_errors(self) -> bool:
        """Whether any problem is an error (YuniKorn refuses the input)."""
        return any(p.level == Level.ERROR for p in self.problems)


class InputsRefused(Exception):
    """The inputs cannot be used: the report says why, then the message (a usage error when status is 2)."""

    def __init__(self, report: InputReport, message: str = "", status: int = EXIT_PROBLEMS) -> None:
        super().__init__(message or "the inputs have errors")
        self.report = report
        self.message = message
        self.status = status


@dataclass(slots=True)
class Inputs:
    """A checked queue config and workload: the partition, its tree built once, and what the checks found."""

    config: LoadedConfig
    partition: PartitionConfig
    tree: QueueTree
    workload: Workload | None
    report: InputReport
    source: str = ""
    """What the inputs are, as reports name them: `CONFIG + WORKLOAD`, or what a --cluster run read."""
    locator: Locator | None = None
    """`file:line` of a document path when the config is not the one loaded from a file (--cluster)."""
    placed: list[tuple[Application, Queue]] = field(default_factory=list)
    """Each application the placement rules put in a leaf queue, with the leaf (after place())."""
    rejected: list[tuple[Application, str]] = field(default_factory=list)
    """Each application the placement rules did not place, with why (after place())."""
    placements: dict[str, Placement] | None = None
    """Every application's placement by id, in file order (after place(); None before): a dry run takes them as
    they are when no rule can create a queue."""
    state: LoadedState | None = None
    """The state dump the inputs came from (--state, --yunikorn): its allocation logs, assumptions, pointers."""

    def locate(self, path: Path) -> str:
        """`file:line` of a document path in the queue config ('' when it is not there)."""
        if self.locator is not None:
            return self.locator(path)
        if not path:
            return ""
        span = self.config.source_map.span(path, "value")
        return f"{self.config.file}:{span.line}" if span is not None else ""

    def place(self) -> None:
        """Place every application of the workload by the partition's placement rules (placed, rejected, placements)."""
        self.placed, self.rejected = [], []
        self.placements = placements = {}
        for application in self.workload.applications if self.workload is not None else ():
            placement = placements[application.id] = place(self.partition, self.tree, application)
            leaf = self.tree.get(placement.queue_path) if placement.queue_path else None
            if leaf is None:
                self.rejected.append((application, placement.reason or "no queue"))
            else:
                self.placed.append((application, leaf))


def choose_partition(partitions: Mapping[str, PartitionConfig], name: str) -> PartitionConfig | None:
    """The partition of that name (see the module docstring: `default` also names a config's only partition), or
    None when the config has none of that name."""
    found = partitions.get(name)
    if found is None and name == DEFAULT_PARTITION and len(partitions) == 1:
        return next(iter(partitions.values()))
    return found


def missing_partition(label: str, name: str, partitions: Mapping[str, PartitionConfig], given: bool) -> str:
    """The usage error for a partition the config does not have (`use --partition` unless --partition named it)."""
    hint = "" if given else "; use --partition"
    return f"{label} has no partition {name!r} (it has: {', '.join(partitions) or 'none'}){hint}"


def builtin_default(result: LoadResult) -> LoadedConfig | None:
    """YuniKorn's built-in default queue config, when a file makes YuniKorn use it (empty, or a yunikorn-configs
    ConfigMap without the queue config key: the no-queue-config warning says so); else None."""
    if any(p.level == Level.ERROR for p in result.problems):
        return None
    if not any(p.rule == NO_QUEUE_CONFIG.id and p.message.endswith(DEFAULT_CONFIG) for p in result.problems):
        return None
    config = SchedulerConfig(partitions=(default_partition(),))
    return LoadedConfig(result.file, "YuniKorn's built-in default", None, config, SourceMap(), True)


def read_inputs(request: InputRequest) -> Inputs:
    """Read and check what the request names (raises InputsRefused): the config with its workload, or a --cluster
    dump with the config given, its own ConfigMap's, or YuniKorn's built-in default."""
    if request.config == "-" and (request.workload == "-" or request.cluster == "-" or request.state == "-"):
        raise InputsRefused(InputReport(), "'-' (standard input) may be given only once", EXIT_USAGE)
    sources = [f for f, v in (("--state", request.state), ("--yunikorn", request.yunikorn)) if v is not None]
    if sources:
        given = [*sources, *(f for f, v in (("--cluster", request.cluster), ("WORKLOAD", request.workload)) if v)]
        if len(given) > 1:
            raise InputsRefused(
                InputReport(), f"give one of {' and '.join(given)}: each is a whole workload", EXIT_USAGE
            )
        return _state_inputs(request)
    if request.cluster is not None:
        return _cluster_inputs(request, request.cluster)
    if request.config is None:
        raise InputsRefused(InputReport(), "give a queue config (CONFIG), or --cluster DUMP", EXIT_USAGE)
    return _file_inputs(request, request.config)


def _file_inputs(request: InputRequest, config_name: str) -> Inputs:
    """A queue config file and, optionally, a workload file."""
    from yk_cli.load.workload import read_workload

    report = InputReport()
    try:
        result = load_config(config_name, request.policy_group)
    except InputError as err:
        raise InputsRefused(report, str(err), EXIT_USAGE) from None
    report.texts[result.file] = result.text
    report.problems.extend(result.problems)
    report.config_problems.extend(result.problems)
    if report.has_errors:
        raise InputsRefused(report)
    configs = [c for c in result.configs if c.decoded and c.config.partitions]
    if not configs:
        default = builtin_default(result)
        if default is None:
            raise InputsRefused(report, f"{result.file} defines no partition")
        configs = [default]
        report.notes.append(f"{result.file} holds no queue config: {DEFAULT_CONFIG}")
    config = configs[0]
    partitions = {p.display_name: p for p in config.config.partitions}
    loaded = None
    if request.workload is not None:
        try:
            loaded = read_workload(request.workload)
        except InputError as err:
            raise InputsRefused(report, str(err), EXIT_USAGE) from None
        report.texts[loaded.file] = loaded.text
        report.problems.extend(loaded.problems)
    name = request.partition or (loaded.workload.partition if loaded is not None else DEFAULT_PARTITION)
    partition = choose_partition(partitions, name)
    if partition is None:
        if request.partition is None and loaded is not None:  # the workload's own partition: its problem
            report.problems.extend(_partition_problems(loaded, partitions))
            report.problems.sort(key=Problem.sort_key)
            raise InputsRefused(report)
        raise InputsRefused(
            report, missing_partition(result.file, name, partitions, request.partition is not None), EXIT_USAGE
        )
    tree = build_queue_tree(partition)
    if loaded is not None:
        report.problems.extend(loaded.check(tree, may_create_queues(partition)))
    report.problems.sort(key=Problem.sort_key)
    if report.has_errors:
        raise InputsRefused(report)
    source = f"{shown_name(config_name)} + {shown_name(request.workload)}" if request.workload is not None else ""
    return Inputs(config, partition, tree, loaded.workload if loaded is not None else None, report, source)


@dataclass(slots=True)
class Dump:
    """A kubectl dump read as a workload: its bytes and text, the workload, its yunikorn-configs queues.yaml (None
    without one) and its problems, node-constraint lint included (a dump's pods have no line)."""

    file: str
    data: bytes
    text: str
    workload: Workload
    queues_yaml: str | None
    problems: list[Problem]


def read_dump(name: str) -> Dump:
    """Read a kubectl dump ('-' for standard input) as `yk simulate --cluster` does. Raises InputError if
    unreadable."""
    from yk_cli.core.workload.predicate_lint import lint_predicates
    from yk_cli.load.kubernetes import cluster_from_bytes

    data = read_input(name)
    shown = shown_name(name)
    workload, queues_yaml, found = cluster_from_bytes(data, shown)
    problems = [*found, *(p.located(None, shown) for p in lint_predicates(workload))]
    return Dump(shown, data, decode_text(data)[0] or "", workload, queues_yaml, problems)


def _partition_problems(loaded: LoadedWorkload, partitions: Mapping[str, PartitionConfig]) -> list[Problem]:
    """The workload's unknown-partition problem, at its `partition:` line (none when the config has it)."""
    missing = partition_problem(loaded.workload, partitions)
    return loaded.locate([missing] if missing is not None else [])


def _cluster_inputs(request: InputRequest, dump: str) -> Inputs:
    """A kubectl dump as the workload, with CONFIG, else its yunikorn-configs ConfigMap's queue config, else
    YuniKorn's built-in default."""
    report = InputReport()
    try:
        read = read_dump(dump)
    except InputError as err:
        raise InputsRefused(report, str(err), EXIT_USAGE) from None
    shown, data, workload, queues_yaml = read.file, read.data, read.workload, read.queues_yaml
    report.problems.extend(read.problems)
    report.texts[shown] = read.text
    config = request.config
    partitions: dict[str, PartitionConfig] = {}
    locator: Locator | None = None
    if config is None and queues_yaml is None:
        partitions = {DEFAULT_PARTITION: default_partition()}
        source = f"{shown} (no yunikorn-configs ConfigMap: YuniKorn's built-in default queue config)"
    else:
        try:
            loaded, origin = cluster_config(config, dump, data, queues_yaml)
        except InputError as err:
            raise InputsRefused(report, str(err), EXIT_USAGE) from None
        report.texts[loaded.file] = loaded.text
        report.config_problems.extend(loaded.problems)
        report.problems.extend(p for p in loaded.problems if p not in report.problems)
        decoded = [c for c in loaded.configs if c.decoded and c.config.partitions]
        if decoded:
            chosen = next((c for c in decoded if c.origin.startswith(f"{origin},")), decoded[0])
            partitions = {p.display_name: p for p in chosen.config.partitions}
            locator = _locator(chosen)
        origin_note = f"{shown} (queue config from its ConfigMap)"
        source = f"{shown_name(config)} + {shown}" if config is not None else origin_note
    report.problems.sort(key=Problem.sort_key)
    if report.has_errors:
        raise InputsRefused(report)
    if not partitions:
        raise InputsRefused(report, f"{shown_name(config or dump)} defines no partition")
    name = request.partition or workload.partition
    partition = choose_partition(partitions, name)
    if partition is None:
        raise InputsRefused(report, missing_partition("the queue config", name, partitions, False), EXIT_USAGE)
    loaded_config = LoadedConfig(shown, "--cluster", None, SchedulerConfig(partitions=(partition,)), SourceMap(), True)
    tree = build_queue_tree(partition)
    return Inputs(loaded_config, partition, tree, workload, report, source, locator or (lambda path: ""))


def _state_inputs(request: InputRequest) -> Inputs:
    """A YuniKorn state dump (saved, or read live over the REST API) as the config and the workload; with CONFIG,
    that config replaces the dump's (what the dump's workload would do under it)."""
    from yk_cli.core.state.queues import restore_dynamic_queues
    from yk_cli.load.state import POINTER_NOTE, scheduler_state

    report = InputReport()
    try:
        state = scheduler_state(request.state, request.yunikorn, request.partition)
    except InputError as err:
        raise InputsRefused(report, str(err), EXIT_USAGE) from None
    report.notes.extend(state.notes)
    shown = state.file
    report.texts[shown] = ""  # named in the count of files checked; its problems point into it, no line to quote
    if request.config is not None:
        try:
            result = load_config(request.config, request.policy_group)
        except InputError as err:
            raise InputsRefused(report, str(err), EXIT_USAGE) from None
        report.texts[result.file] = result.text
        source = f"{shown_name(request.config)} + {shown} (the dump's workload)"
    else:
        result = state.config
        if result.problems:
            report.notes.append(POINTER_NOTE.format(file=shown))
        source = f"{shown} (YuniKorn state dump)"
    report.problems.extend(result.problems)
    report.config_problems.extend(result.problems)
    report.problems.extend(state.workload.problems)
    report.problems.sort(key=Problem.sort_key)
    if report.has_errors:
        raise InputsRefused(report)
    decoded = [c for c in result.configs if c.decoded and c.config.partitions]
    if not decoded:
        raise InputsRefused(report, f"{result.file} defines no partition")
    partitions = {p.display_name: p for p in decoded[0].config.partitions}
    name = state.documents.partition
    partition = choose_partition(partitions, name)
    if partition is None:
        raise InputsRefused(report, missing_partition(result.file, name, partitions, False), EXIT_USAGE)
    tree = build_queue_tree(partition)
    report.notes.extend(restore_dynamic_queues(tree, state.documents.dynamic_queues, shown))
    report.problems.extend(state.locate_workload(check_workload(tree, state.workload.workload, False)))
    report.problems.sort(key=Problem.sort_key)
    if report.has_errors:
        raise InputsRefused(report)
    locator = _locator(decoded[0]) if request.config is not None else state.locate_config
    inputs = Inputs(decoded[0], partition, tree, state.workload.workload, report, source, locator)
    inputs.state = state
    return inputs


def _locator(loaded: LoadedConfig) -> Locator:
    """`file:line` of a document path in one loaded queue config."""

    def locate(path: Path) -> str:
        span = loaded.source_map.span(path, "value") if path else None
        return f"{loaded.file}:{span.line}" if span is not None else ""

    return locate


def cluster_config(config: str | None, dump: str, data: bytes, queues_yaml: str | None) -> tuple[LoadResult, str]:
    """The queue config of a --cluster run (CONFIG, else the dump's own ConfigMap, located in the dump as
    `yk validate DUMP` reports it; yunikorn-configs wins) and the ConfigMap origin to prefer among its documents."""
    if config is not None:
        return load_config(config), ""
    assert queues_yaml is not None
    if len(queues_yaml.encode("utf-8")) > config_limit():  # refused like a queue config file of that size
        return _relabelled(load_config("-", stdin=queues_yaml.encode("utf-8")), f"{shown_name(dump)}[queues.yaml]"), ""
    with config_limit_set(max(config_limit(), len(data))):  # the dump is the workload: only its queues.yaml counts
        loaded = load_config(dump, stdin=data)
    for origin in ("ConfigMap yunikorn-configs", "ConfigMap yunikorn-defaults"):
        if any(c.decoded and c.origin.startswith(f"{origin},") for c in loaded.configs):
            return loaded, origin
    # Another policy group's key: check the merged text the loader found, named after the dump.
    label = f"{shown_name(dump)}[queues.yaml]"
    loaded = _relabelled(load_config("-", stdin=queues_yaml.encode("utf-8")), label)
    for item in loaded.configs:
        item.file = label
    return loaded, ""


def _relabelled(loaded: LoadResult, label: str) -> LoadResult:
    """A config read from standard input, named (with its problems) as the part of the dump it came from."""
    loaded.file = label
    loaded.problems = [replace(p, file=label) for p in loaded.problems]
    return loaded


def read_volcano_inputs(
    dumps: list[str], conf: str | None, shown: Callable[[list[Problem]], list[Problem]]
) -> tuple[VolcanoInputs, list[Problem]]:
    """Volcano mode's inputs: the dumps (one cluster) and the scheduler conf, checked as `yk volcano validate
    --one-cluster` checks them, with the problems `shown` keeps (the project config's filter). Read first by the
    fast loader; read again with positions when it cannot, or when there are errors to print. Raises InputsRefused
    for a bad request and InputError for an unreadable input."""
    from yk_cli.load.source import collector_paused
    from yk_cli.load.volcano import load_volcano
    from yk_cli.load.volcano_check import lint_inputs
    from yk_cli.load.volcano_fast import load_volcano_fast

    if dumps.count("-") + (conf == "-") > 1:
        raise InputsRefused(InputReport(), "'-' (standard input) may be given only once", EXIT_USAGE)
    with collector_paused():  # a YAML dump of 50,000 pods is millions of nodes: 2.5x faster without the collector
        inputs = load_volcano_fast(dumps, conf)
        problems = shown(lint_inputs(inputs)) if inputs is not None else []
        if inputs is None or any(p.level == Level.ERROR for p in problems):  # printed in full: with positions
            inputs = load_volcano(dumps, conf)
            problems = shown(lint_inputs(inputs))
    return inputs, problems


def lint_workload(
    name: str,
    config: LoadResult | str | None,
    partition: str | None,
    problems: list[Problem],
    texts: dict[str, str],
    unreadable: list[tuple[str, str]],
) -> str | None:
    """For `yk validate` and `yk check`: add a workload's problems (its own, and against the queue config's
    partition, chosen by choose_partition from --partition or the workload's, when a config without errors is
    given; `config`: the loaded config, the name of one that could not be checked, or None) to `problems`, its text
    to `texts`, or (name, message) to `unreadable`; the note to print when it is not checked against a config."""
    from yk_cli.load.workload import read_workload

    try:
        loaded = read_workload(name)
    except InputError as err:
        unreadable.append((shown_name(name), str(err)))
        return None
    texts[loaded.file] = loaded.text
    problems.extend(loaded.problems)
    if config is None or isinstance(config, str):
        why = "no queue config given" if config is None else f"{shown_name(config)} could not be checked"
        return (
            f"{why}: the queues of {loaded.file} are not checked against one "
            f"(yk validate CONFIG --workload {loaded.file})"
        )
    decoded = [c for c in config.configs if c.decoded and c.config.partitions]
    if any(p.level == Level.ERROR for p in config.problems) or not decoded:
        return f"{config.file} has errors: the queues of {loaded.file} are not checked against it"
    partitions = {p.display_name: p for p in decoded[0].config.partitions}
    name = partition if partition is not None and partition in partitions else loaded.workload.partition
    chosen = choose_partition(partitions, name)
    if chosen is None:
        problems.extend(_partition_problems(loaded, partitions))
    else:
        problems.extend(loaded.check(build_queue_tree(chosen), may_create_queues(chosen)))
    return None


def lint_state(
    name: str, partition: str | None, problems: list[Problem], texts: dict[str, str], unreadable: list[tuple[str, str]]
) -> None:
    """For `yk validate`: add a YuniKorn state dump's problems (its scheduler config's, checked as a file's, and its
    workload's, each located by a JSON pointer) to `problems` and its name to `texts`, or (name, message) to
    `unreadable`."""
    from yk_cli.load.state import scheduler_state

    try:
        state = scheduler_state(name, None, partition)
    except InputError as err:
        unreadable.append((shown_name(name), str(err)))
        return
    problems.extend([*state.config.problems, *state.workload.problems])
    texts.setdefault(state.file, "")  # no excerpt: the problems name JSON pointers, not lines


def looks_like_state_dump(name: str) -> bool:
    """Whether a file given to `yk validate` is a YuniKorn state dump (a JSON object with the dump's `config` in Go
    field names, or its applications and nodes) rather than a queue config."""
    import json

    if name == "-" or not name.endswith(".json"):
        return False
    try:
        with open(name, "rb") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    config = data.get("config")
    return (isinstance(config, dict) and "Partitions" in config) or ("applications" in data and "nodes" in data)


def lint_cluster(name: str, problems: list[Problem], texts: dict[str, str], unreadable: list[tuple[str, str]]) -> None:
    """For `yk validate` and `yk check`: add a cluster dump's problems, as `yk simulate --cluster` finds them
    (its queue config is what `yk validate DUMP` checks), to `problems`, its text to `texts`, or (name, message) to
    `unreadable`."""
    try:
        read = read_dump(name)
    except InputError as err:
        unreadable.append((shown_name(name), str(err)))
        return
    problems.extend(read.problems)
    texts.setdefault(read.file, read.text)
