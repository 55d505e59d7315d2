"""`yk check`: a team's policy of named assertions, proved on the queue config or checked on a dry run; exit 1 when
one fails."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, TextIO

from yk_cli.commands.console import Exit, fail_usage, run_fast, write_stdout
from yk_cli.commands.declare import (
    CI_FORMAT,
    MAX_SIZE,
    NO_CONFIG,
    PROJECT_CONFIG,
    QUIET,
    WORKLOAD,
    argument,
    option,
    parse_plain,
    shared,
)
from yk_cli.commands.inputs import SchedulerDump, WorkloadDump
from yk_cli.commands.project import config_size, project_options
from yk_cli.core.diagnostics import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, Level, Problem, Span
from yk_cli.core.versions import LATEST_VERSION

if TYPE_CHECKING:
    from yk_cli.core.assertions.dynamic import RunFacts
    from yk_cli.core.assertions.model import Outcome, Policy
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.workload.model import Workload
    from yk_cli.load.config import LoadedConfig
    from yk_cli.report.check_common import CheckContext

FORMATS = ("text", "json", "github", "sarif")


@dataclass(frozen=True, slots=True)
class CheckArgs:
    """`yk check`'s arguments and options."""

    policy: str = argument("POLICY", "The policy file: named assertions (`yk schema policy`).", required=True)
    config: str = argument("CONFIG", "Queue config (queues.yaml, ConfigMap or List; '-' for stdin).", required=True)
    workload: Optional[str] = argument(
        "WORKLOAD", "Workload file to dry-run for the dynamic assertions (or -w/--workload)."
    )
    workload_option: Optional[str] = shared(WORKLOAD)
    cluster: Optional[str] = option(
        "--cluster",
        metavar="DUMP",
        help="A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump as the workload; its PriorityClasses also "
        "give the pod priority range when the policy declares none.",
    )
    state: Optional[str] = option(
        "--state",
        metavar="FILE",
        help="A saved YuniKorn state dump (/debug/fullstatedump) as the workload (CONFIG replaces its config); its "
        "pods' priorities give the priority range when the policy declares none.",
    )
    yunikorn: Optional[str] = option(
        "--yunikorn", metavar="URL", help="A running YuniKorn's REST API, read live as --state reads a dump."
    )
    fmt: Optional[str] = shared(CI_FORMAT)
    verbose: bool = option("--verbose", "-v", help="Print the proof of every passing check too (text).", default=False)
    partition: Optional[str] = option(
        "--partition", metavar="NAME", help="The partition (default: the policy's, else the workload's, else default)."
    )
    yunikorn_version: str = option(
        "--yunikorn-version", metavar="VERSION", help="YuniKorn to model in the dry run.", default=LATEST_VERSION
    )
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)
    project_config: Optional[str] = shared(PROJECT_CONFIG)
    no_config: bool = shared(NO_CONFIG, False)


HELP = """Check a policy of named assertions against a queue config: static ones proved on the config for every pod
priority in the policy's range, dynamic ones on the dry run of a workload.

Assertions: cannot-preempt, outranks, fenced, guaranteed-at-least, max-at-most, can-submit and cannot-submit
(static); starts-within and never-pending (dynamic; cannot-preempt and outranks are checked on the dry run too
when a workload is given). A failed assertion says why (the config lines, the counter-example pod or the
dry-run step). Exit 0 when all hold, 1 when one fails (or the inputs have errors), 2 for usage and a broken
policy file.

Example: yk check policy.yaml queues.yaml workload.yaml --format github"""


def run_check(args: CheckArgs) -> None:
    """`yk check`: run it and end with its exit status."""
    raise Exit(run_check_command(args))


def run_check_command(args: CheckArgs) -> int:
    """Parse the options that need no input, then load, check and print; the exit status. When the policy or an
    input cannot be used, the json, github and sarif reports still come out, with those problems in them."""
    policy, config, workload, cluster, fmt = args.policy, args.config, args.workload, args.cluster, args.fmt
    verbose, partition, version, quiet = args.verbose, args.partition, args.yunikorn_version, args.quiet
    max_size, project_config, no_config = args.max_size, args.project_config, args.no_config
    workload_option = args.workload_option
    from yk_cli.commands.console import UsageError, ci_format

    try:
        chosen = ci_format(fmt, FORMATS)
    except UsageError as err:
        raise fail_usage(str(err)) from None
    from yk_cli.commands.inputs import one_workload, workload_dump

    dump = workload_dump(cluster, args.state, args.yunikorn)
    workload = one_workload(workload, workload_option, dump)
    if policy == "-" and "-" in (config, workload, cluster, args.state):
        raise fail_usage("'-' (standard input) may be given only once")
    inputs = _Inputs(policy, config, workload, dump, partition, chosen)
    with project_options(project_config, no_config), config_size(max_size):
        loaded = _read_policy(inputs)
        from yk_cli.core.assertions.run import needs_workload

        if workload is None and dump is None:
            need = needs_workload(loaded)
            if need:
                listed = ", ".join(f"{a.name} ({a.kind}{'' if a.check == '' else ', check: ' + a.check})" for a in need)
                raise fail_usage(
                    f"{len(need)} assertion{'s need' if len(need) > 1 else ' needs'} a dry run: {listed}; give a "
                    "WORKLOAD, --cluster DUMP or --state FILE"
                )
        report, failed = _run(loaded, inputs, verbose, version, quiet)
    write_stdout((report,))
    return EXIT_PROBLEMS if failed else EXIT_OK


@dataclass(frozen=True, slots=True)
class _Inputs:
    """What `yk check` was given: the files, the partition asked for and the report format."""

    policy: str
    config: str
    workload: str | None
    cluster: WorkloadDump | None
    partition: str | None
    fmt: str

    def shown(self, name: str | None) -> str | None:
        from yk_cli.load.source import shown_name

        return None if name is None else shown_name(name)

    def workload_shown(self) -> str | None:
        """The workload as the reports name it (a dump: `DUMP (cluster dump)`)."""
        if isinstance(self.cluster, SchedulerDump):
            name = self.cluster.state if self.cluster.state is not None else self.cluster.yunikorn
            return f"{self.shown(name)} (YuniKorn state dump)"
        if self.cluster is not None:
            return f"{self.shown(self.cluster)} (cluster dump)"
        return self.shown(self.workload)

    def file_of(self, message: str) -> str:
        """The input a usage message is about (the queue config when it names none)."""
        dump = self.cluster if isinstance(self.cluster, str) else None
        for name in (self.policy, self.config, self.workload, dump):
            shown = self.shown(name)
            if shown is not None and message.startswith(shown):
                return shown
        return self.shown(self.config) or self.config

    def fail(self, problems: list[Problem], code: int) -> Exit:
        """Print the report of a check that could not run (json, github, sarif: the problems; text: nothing more,
        standard error has said it) and return the exit to raise."""
        if self.fmt != "text":
            write_stdout((_render_failure(self, sorted(problems, key=Problem.sort_key)),))
        return Exit(code)


def _read_policy(inputs: _Inputs) -> Policy:
    """The policy, or Exit(2) when it is broken: every problem at once, the queues it names that the config does
    not have among them (when the config can be read quietly)."""
    from yk_cli.load.policy import PolicyError, read_policy

    try:
        return read_policy(inputs.policy)
    except PolicyError as err:
        found = list(err.found)
        if err.policy is not None:
            partition = _partition_quietly(inputs, err.policy)
            if partition is not None:
                with_workload = inputs.workload is not None or inputs.cluster is not None
                found.extend(_queue_errors(err.policy, partition, with_workload))
        raise _policy_errors(inputs, found) from None


def _queue_errors(policy: Policy, partition: PartitionConfig, with_workload: bool) -> list[tuple[str, int, int, str]]:
    """The queues the policy names that the partition does not have, as policy errors."""
    from yk_cli.core.assertions.references import unknown_queues

    return [
        (policy.file, ref.span.line, ref.span.column, f"assertion {a.name!r}: {a.kind}: {ref.key} {why}")
        for a, ref, why in unknown_queues(policy, partition, with_workload)
    ]


def _policy_errors(inputs: _Inputs, found: list[tuple[str, int, int, str]]) -> Exit:
    """Print every policy error (`file:line:col: message`, in file order) and return the exit (2) to raise."""
    from yk_cli.report.check_common import POLICY_ERROR

    ordered = sorted(set(found), key=lambda item: (item[1], item[2], item[3]))
    for file, line, column, message in ordered:
        where = f"{file}:{line}:{column}: " if (line, column) != (0, 0) else f"{file}: "
        sys.stderr.write(f"yk: error: {where}{message}\n")
    problems = [
        Problem(
            POLICY_ERROR.id,
            Level.ERROR,
            message,
            span=Span(line or 1, column or 1, line or 1, (column or 1) + 1),
            file=file,
        )
        for file, line, column, message in ordered
    ]
    return inputs.fail(problems, EXIT_USAGE)


def _partition_quietly(inputs: _Inputs, policy: Policy) -> PartitionConfig | None:
    """The partition the check would run on, read without a word (None when the config cannot be read, has errors
    or lacks it): to check the queues a broken policy names, reported with its other errors."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import load_config
    from yk_cli.load.source import InputError

    if inputs.config == "-":
        return None
    try:
        result = load_config(inputs.config, active_project().policy_group or "queues")
    except InputError:
        return None
    decoded = [c for c in result.configs if c.decoded and c.config.partitions]
    if not decoded or any(p.level == Level.ERROR for p in result.problems):
        return None
    partitions = {p.display_name: p for p in decoded[0].config.partitions}
    name = inputs.partition or policy.partition
    if name is None:
        name = "default" if "default" in partitions or len(partitions) != 1 else next(iter(partitions))
    return partitions.get(name)


def _run(policy: Policy, inputs: _Inputs, verbose: bool, version: str, quiet: bool) -> tuple[str, int]:
    from yk_cli.core.assertions.model import DEFAULT_RANGE, PriorityRange
    from yk_cli.core.assertions.run import check_policy, range_of_cluster
    from yk_cli.report.check_common import CheckContext

    config, workload, cluster = inputs.config, inputs.workload, inputs.cluster
    partition_name = inputs.partition or policy.partition
    captured = _ErrorLines(sys.stderr)
    try:
        with contextlib.redirect_stderr(captured):
            partition, source, text, loaded_workload = _load(config, workload, cluster, partition_name, quiet)
    except Exit as done:
        if done.exit_code and inputs.fmt != "text":
            raise inputs.fail(_input_problems(inputs, captured.lines), done.exit_code) from None
        raise
    shown_workload = inputs.workload_shown()
    unknown = _queue_errors(policy, partition, loaded_workload is not None)
    if unknown:
        raise _policy_errors(inputs, unknown)
    if policy.priority_range is not None:
        span = policy.range_span
        where = f"{policy.file}:{span.line}" if span is not None else policy.file
        priorities = PriorityRange(*policy.priority_range, f"declared in the policy, {where}")
    elif cluster is not None and loaded_workload is not None:
        low, high = range_of_cluster(loaded_workload)
        if isinstance(cluster, SchedulerDump):
            named = inputs.shown(cluster.state if cluster.state is not None else cluster.yunikorn)
        else:
            named = "<stdin>" if cluster == "-" else cluster
        priorities = PriorityRange(low, high, f"the PriorityClasses and pods of {named}")
    else:
        priorities = PriorityRange(
            *DEFAULT_RANGE, "default: 0, a pod without PriorityClass, up to 1000000000, the highest user PriorityClass"
        )
    facts = _dry_run(partition, loaded_workload, version) if loaded_workload is not None else None
    outcomes = check_policy(policy, partition, priorities, facts)
    context = CheckContext(
        policy.file, source.file, text, source.source_map, partition.display_name, priorities, shown_workload
    )
    if facts is not None:
        from yk_cli.core.sim.unmodelled import ASSUMED

        context.notes.extend(
            f"{'assumed' if item.feature == ASSUMED else 'not modelled'} by the dry run: {item.message}"
            for item in facts.trace.unmodelled
        )
    return _render(inputs.fmt, outcomes, context, verbose), sum(1 for o in outcomes if not o.passed)


def _load(
    config: str, workload: str | None, cluster: WorkloadDump | None, partition_name: str | None, quiet: bool
) -> tuple[PartitionConfig, LoadedConfig, str, Workload | None]:
    """The partition, the loaded queue config, its text and the workload (Exit when an input cannot be used,
    what is wrong printed on standard error)."""
    from yk_cli.commands.inputs import checked_inputs

    inputs = checked_inputs(config, workload, cluster, partition_name, quiet, place=cluster is None)
    if cluster is not None:
        source, text = _config_source(config)
        return inputs.partition, source, text, inputs.workload
    return inputs.partition, inputs.config, _reread(config), inputs.workload


class _ErrorLines(io.TextIOBase):
    """Standard error as it is, keeping the `yk: error: ` lines written to it (the usage errors of the loaders)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lines: list[str] = []
        self._partial = ""

    def write(self, text: str) -> int:
        self.out.write(text)
        *complete, self._partial = (self._partial + text).split("\n")
        self.lines.extend(line.removeprefix("yk: error: ") for line in complete if line.startswith("yk: error: "))
        return len(text)

    def flush(self) -> None:
        self.out.flush()


def _input_problems(inputs: _Inputs, messages: list[str]) -> list[Problem]:
    """The problems of inputs that stopped the check, for the json, github and sarif reports: each input's own (as
    `yk validate` finds them, what the project config disables left out) and an input-error for each usage error
    the loaders printed."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import LoadResult, load_config
    from yk_cli.load.inputs import lint_cluster, lint_workload
    from yk_cli.load.project import is_ignored
    from yk_cli.load.source import InputError
    from yk_cli.report.problems import input_problem

    project = active_project()
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    unreadable: list[tuple[str, str]] = []
    result: LoadResult | str = inputs.config
    try:
        result = load_config(inputs.config, project.policy_group or "queues")
        problems.extend(result.problems)
    except InputError as err:
        unreadable.append((inputs.shown(inputs.config) or inputs.config, str(err)))
    if inputs.workload is not None:
        lint_workload(inputs.workload, result, inputs.partition, problems, texts, unreadable)
    if isinstance(inputs.cluster, str):
        lint_cluster(inputs.cluster, problems, texts, unreadable)
    shown = [p for p in project.shown(problems) if p.level == Level.ERROR or not is_ignored(project, p.file)]
    said = list(dict.fromkeys([*messages, *(message for _, message in unreadable)]))
    return [*dict.fromkeys(shown), *(input_problem(inputs.file_of(m), m) for m in said)]


def _render_failure(inputs: _Inputs, problems: list[Problem]) -> str:
    from yk_cli import __version__
    from yk_cli.report import check_ci, check_json

    if inputs.fmt == "json":
        return check_json.render_failure(
            inputs.shown(inputs.policy) or inputs.policy,
            inputs.shown(inputs.config) or inputs.config,
            inputs.workload_shown(),
            problems,
        )
    if inputs.fmt == "github":
        return check_ci.render_failure_github(problems, os.getcwd())
    return check_ci.render_failure_sarif(problems, __version__, os.getcwd())


def _config_source(config: str) -> tuple[LoadedConfig, str]:
    """The queue config given with --cluster as loaded (for its source map) and its text."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.config import load_config
    from yk_cli.load.source import InputError

    try:
        result = load_config(config, active_project().policy_group or "queues", check=False)
    except InputError as err:
        raise fail_usage(str(err)) from None
    found = [c for c in result.configs if c.decoded]
    if not found:
        raise fail_usage(f"{result.file} holds no queue config")
    return found[0], result.text


def _reread(config: str) -> str:
    """The text of a queue config file already loaded and checked (for the excerpts; '' for standard input)."""
    from yk_cli.load.source import InputError, decode_text, read_input

    if config == "-":
        return ""
    try:
        return decode_text(read_input(config))[0] or ""
    except InputError:
        return ""


def _dry_run(partition: PartitionConfig, workload: Workload, version: str) -> RunFacts:
    from yk_cli.core.assertions.dynamic import RunFacts
    from yk_cli.core.config.placement import place_all
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.sim.run import SimulationOptions, simulate, version_tuple

    try:
        version_tuple(version)
    except ValueError as err:
        raise fail_usage(str(err)) from None
    trace = simulate(partition, build_queue_tree(partition), workload, SimulationOptions(yunikorn_version=version))
    tree = build_queue_tree(partition)
    placements = place_all(partition, tree, workload.applications)
    leaves = {}
    for app_id, placement in placements.items():
        leaf = tree.get(placement.queue_path) if placement.queue_path else None
        if leaf is not None:
            leaves[app_id] = leaf
    return RunFacts(trace, workload, tree, leaves)


def _render(fmt: str, outcomes: list[Outcome], context: CheckContext, verbose: bool) -> str:
    from yk_cli import __version__
    from yk_cli.report import check_ci, check_json, check_text

    if fmt == "json":
        return check_json.render(outcomes, context)
    if fmt == "github":
        return check_ci.render_github(outcomes, context, os.getcwd())
    if fmt == "sarif":
        return check_ci.render_sarif(outcomes, context, __version__, os.getcwd())
    return check_text.render(outcomes, context, verbose)


def fast_path(args: Sequence[str]) -> int | None:
    """Run `yk check POLICY CONFIG [WORKLOAD] [options]` without typer's parameter machinery: the exit status, or
    None when the arguments need typer (help, odd options, a wrong number of arguments)."""
    parsed = parse_plain(CheckArgs, args)
    return None if parsed is None else run_fast(run_check, parsed)
