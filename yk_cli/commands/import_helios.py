"""`yk import helios`: the Helios GPU datacenter trace (cluster_log.csv) as a yk workload, its VCs as queues."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from yk_cli.commands import import_common as common
from yk_cli.commands.console import fail_usage
from yk_cli.commands.declare import argument, option, shared

SOURCE = "github.com/S-Lab-System-Group/HeliosData"
DEFAULT_NODE = "vcore=48,nvidia.com/gpu=8"
"""A Helios node as the brief of the trace describes Venus's: 8 GPUs, 48 cores."""


@dataclass(frozen=True, slots=True)
class ImportHeliosArgs:
    """`yk import helios`'s argument and options."""

    file: str = argument("FILE", "A Helios cluster_log.csv ('-' for stdin).", required=True)
    quota: Optional[str] = option(
        "--quota",
        metavar="FILE",
        help="Per-VC quotas, the queues' guaranteed resources: a CSV vc,gpu,cpu (one row per VC; cpu in cores), "
        "or Helios's cluster_gpu_number.csv (GPUs per VC per day: the day the window starts is used).",
    )
    quota_max: bool = option(
        "--quota-max", help="Also make each VC's quota its max, as Slurm's VC partitions held it.", default=False
    )
    nodes: Optional[int] = option(
        "--nodes",
        metavar="N",
        help="Nodes in the cluster (the trace has no node list). Default with --quota: enough nodes for the quota's "
        "GPUs.",
    )
    node_resources: str = option(
        "--node-resources", metavar="LIST", help="Each node's capacity, YuniKorn quantities.", default=DEFAULT_NODE
    )
    states: Optional[str] = option(
        "--states",
        metavar="LIST",
        help="Keep only jobs that ended in these states, e.g. COMPLETED,FAILED (default: all: COMPLETED, "
        "CANCELLED, FAILED, TIMEOUT, NODE_FAIL).",
    )
    keep_unstarted: bool = option(
        "--keep-unstarted",
        help="Keep jobs that never started (no start_time), without observedStartTime; by default they are left out.",
        default=False,
    )
    gang: bool = option(
        "--gang",
        help="A multi-node job's pods form one task group (minMember: its node count): they start together.",
        default=False,
    )
    since: Optional[str] = shared(common.SINCE)
    until: Optional[str] = shared(common.UNTIL)
    sample: Optional[float] = shared(common.SAMPLE)
    seed: int = shared(common.SEED, 0)
    out_dir: Optional[str] = shared(common.OUT_DIR)
    skip_bad_rows: bool = shared(common.SKIP_BAD_ROWS, False)
    quiet: bool = shared(common.QUIET, False)


HELP = """Turn the Helios trace (SenseTime's GPU datacenter, scheduled by Slurm; published at
github.com/S-Lab-System-Group/HeliosData) into a yk workload and queue config: each VC a queue root.VC guaranteed
its quota (--quota), each job an application of its user with one pod per node (its GPUs and CPUs split evenly over
them), its recorded start kept as observedStartTime.

The trace has no node list: --nodes and --node-resources (default 8 GPUs and 48 cores a node) make the cluster.
Jobs that never started are left out unless --keep-unstarted. See docs/import.md.

Example: yk import helios cluster_log.csv --quota cluster_gpu_number.csv --since 2020-09-01T00:00:00Z --until
2020-09-02T00:00:00Z --out-dir venus"""


def import_helios(args: ImportHeliosArgs) -> None:
    """`yk import helios`: read the trace and the quotas, cut them, write workload.yaml and queues.yaml."""
    with common.no_gc():
        _import(args)


def _import(args: ImportHeliosArgs) -> None:
    from yk_cli.core.workload.imports import QueueQuotas, queue_config
    from yk_cli.load.imports.helios import GPU, STATES, HeliosOptions, read_jobs, read_quotas
    from yk_cli.load.imports.rows import TraceError, read_text
    from yk_cli.load.source import InputError

    options = common.common(
        args.since, args.until, args.sample, args.seed, args.out_dir, args.skip_bad_rows, args.quiet
    )
    capacity = common.parse_capacity(args.node_resources)
    if args.nodes is not None and args.nodes < 1:
        raise fail_usage("--nodes must be at least 1")
    states = frozenset(s.strip().upper() for s in (args.states or "").split(",") if s.strip())
    unknown = sorted(states - set(STATES))
    if unknown:
        raise fail_usage(f"--states: {', '.join(unknown)} is not a Helios state; choose from {', '.join(STATES)}")
    quotas = None
    if args.quota is not None:
        try:
            display, text = read_text(args.quota)
            quotas = read_quotas(display, text, options.skip)
        except InputError as err:
            raise fail_usage(str(err)) from None
        except TraceError as err:
            raise fail_usage(str(err)) from None
    elif args.nodes is None:
        raise fail_usage("the Helios trace has no node list: give --nodes N (or --quota FILE to size the cluster)")
    if quotas is not None and quotas.problems:
        from yk_cli.load.imports.rows import Imported

        common.report_bad_rows(Imported(quotas.file, quotas.text, problems=quotas.problems), options.quiet)
    helios = HeliosOptions(states, args.keep_unstarted, args.gang)
    imported = common.read_trace(
        args.file,
        f"importing {args.file}",
        lambda display, text, tick: read_jobs(display, text, helios, options.skip, tick),
        options.quiet,
    )
    selection = common.window_selection(imported, options.window)
    vcs = {job.queue.removeprefix("root."): None for job in selection.jobs}
    quota_values, day = quotas.at(selection.origin) if quotas is not None else ({}, "")
    for vc, values in sorted(quota_values.items()):
        if values:
            vcs.setdefault(vc)
    folded: dict[str, str] = {}
    for vc in vcs:
        if vc.lower() in folded:
            raise fail_usage(f"VCs {folded[vc.lower()]} and {vc} differ only in case: YuniKorn's queue names do not")
        folded[vc.lower()] = vc
    count = args.nodes
    if count is None:
        gpus = sum(values.get(GPU, 0) for values in quota_values.values())
        per_node = capacity.get(GPU, 0)
        if not gpus or not per_node:
            raise fail_usage("cannot size the cluster from the quota (no GPUs in it or in a node): give --nodes N")
        count = -(-gpus // per_node)
    nodes = common.node_entries(common.numbered_nodes(count), capacity)
    from yk_cli.report.import_yaml import resource_values

    tree = QueueQuotas()
    for vc, values in quota_values.items():
        if values and vc in vcs:
            tree.guaranteed[f"root.{vc}"] = resource_values(values)
            if args.quota_max:
                tree.maximum[f"root.{vc}"] = resource_values(values)
    queues = queue_config((f"root.{vc}" for vc in vcs), tree)
    command = common.command_line("helios", args)
    origin = common.clock_text(selection, imported.absolute)
    shape = ", ".join(f"{name}: {value}" for name, value in resource_values(capacity).items())
    header = (
        f"Imported by `{command}`.\n"
        "Recorded by another scheduler: Slurm on SenseTime's Helios GPU datacenter (the trace: "
        f"{SOURCE}).\nobservedStartTime is when Slurm started each job, not what YuniKorn would do. Each VC is a "
        "queue root.<vc>; a job of N nodes is N pods, its GPUs and CPUs split evenly over them.\n"
        f"The trace has no node list: {count:,} nodes of {{{shape}}} (--nodes, --node-resources).\n"
        f"Times count from {origin}."
    )
    quota_words = (
        f"guaranteed its quota{' (and max)' if args.quota_max else ''} of {quotas.file}"
        + (f" on {day}" if day else "")
        if quotas is not None
        else "no guarantees (no --quota)"
    )
    queues_header = f"Written by `{command}`: one leaf queue per Helios VC, {quota_words}."
    workload_path, queues_path = common.write_outputs(
        options.out_dir, header, nodes, selection, queues, queues_header
    )
    common.summarize(
        imported,
        selection,
        workload_path,
        len(nodes),
        queues_path,
        len(vcs),
        options.quiet,
        f"{imported.file} was recorded by another scheduler (Slurm, Helios): observedStartTime is Slurm's start of "
        "each job; yk simulate predicts YuniKorn's",
    )
