"""`yk import pods`: a `kubectl get pods -A -o yaml` history replayed as a yk workload."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from yk_cli.commands import import_common as common
from yk_cli.commands.console import fail_usage
from yk_cli.commands.declare import argument, option, shared


@dataclass(frozen=True, slots=True)
class ImportPodsArgs:
    """`yk import pods`'s argument and options."""

    file: str = argument(
        "FILE", "The pods: `kubectl get pods -A -o yaml` (or -o json) output ('-' for stdin).", required=True
    )
    nodes_from: Optional[str] = option(
        "--nodes-from",
        metavar="DUMP",
        help="The nodes: `kubectl get nodes -o yaml` output (capacity from status.allocatable, labels, taints).",
    )
    node_resources: Optional[str] = option(
        "--node-resources",
        metavar="LIST",
        help="Without --nodes-from: each node the pods ran on (spec.nodeName) gets this capacity, e.g. "
        "vcore=32,memory=128Gi (pods=110 unless given).",
    )
    skip_pending: bool = option(
        "--skip-pending", help="Leave out pods that never started (by default they are asks that wait).", default=False
    )
    queues: bool = option(
        "--queues", help="Also write DIR/queues.yaml: every queue of the pods as a leaf under root.", default=False
    )
    since: Optional[str] = shared(common.SINCE)
    until: Optional[str] = shared(common.UNTIL)
    sample: Optional[float] = shared(common.SAMPLE)
    seed: int = shared(common.SEED, 0)
    out_dir: Optional[str] = shared(common.OUT_DIR)
    skip_bad_rows: bool = shared(common.SKIP_BAD_ROWS, False)
    quiet: bool = shared(common.QUIET, False)


HELP = """Replay a day of pods: every pod of a `kubectl get pods -A -o yaml` history becomes an ask submitted at its
creationTimestamp, running from its start to its containers' finishedAt, grouped into its YuniKorn application;
its queue is the yunikorn.apache.org/queue label or annotation (or the queue label), else root.NAMESPACE, and its
user that of yunikorn.apache.org/user.info. When it was scheduled (PodScheduled, else status.startTime) is kept as
observedStartTime.

Nodes come from --nodes-from (a `kubectl get nodes -o yaml` dump), or are the pods' spec.nodeName values with
--node-resources. --sample draws whole applications. See docs/import.md.

Example: yk import pods pods.yaml --nodes-from nodes.yaml --queues --since 2024-05-01T00:00:00Z --until
2024-05-02T00:00:00Z --out-dir replay"""


def import_pods(args: ImportPodsArgs) -> None:
    """`yk import pods`: read the pods (and the nodes), cut them, write the workload (and the queues)."""
    with common.no_gc():
        _import(args)


def _import(args: ImportPodsArgs) -> None:
    from yk_cli.load.imports.pods import PodsOptions, read_jobs

    options = common.common(
        args.since, args.until, args.sample, args.seed, args.out_dir, args.skip_bad_rows, args.quiet
    )
    if args.nodes_from is not None and args.node_resources is not None:
        raise fail_usage("give --nodes-from DUMP or --node-resources LIST, not both")
    capacity = common.parse_capacity(args.node_resources) if args.node_resources is not None else {}
    if capacity and "pods" not in capacity:
        capacity["pods"] = 110  # Kubernetes' default max pods: every pod asks for pods: 1
    dumped = _dumped_nodes(args.nodes_from, options.quiet) if args.nodes_from is not None else None
    pods = PodsOptions(keep_pending=not args.skip_pending)
    imported = common.read_trace(
        args.file,
        f"importing {args.file}",
        lambda display, text, tick: read_jobs(display, text, pods, options.skip, tick),
        options.quiet,
    )
    selection = common.window_selection(imported, options.window)
    if dumped is not None:
        nodes = dumped
    elif imported.node_names and not capacity:
        raise fail_usage(
            "the pods ran on nodes the history does not describe: give --nodes-from DUMP (kubectl get nodes -o "
            "yaml) or --node-resources LIST"
        )
    else:
        nodes = common.node_entries(sorted(imported.node_names), capacity)
    common.write_plain(
        common.command_line("pods", args),
        imported,
        selection,
        nodes,
        options,
        args.queues,
        "pods",
        f"Recorded pods of {imported.file}: observedStartTime is when the cluster's scheduler bound each pod, not "
        "what yk predicts.",
        f"{imported.file} was recorded by the cluster's scheduler: observedStartTime is its start of each pod; yk "
        "simulate predicts YuniKorn's",
        "pods",
    )


def _dumped_nodes(name: str, quiet: bool) -> list[dict[str, Any]]:
    """The nodes of a kubectl dump as workload entries (capacity, labels, taints, cordon); its errors stop."""
    from yk_cli.commands.console import Exit
    from yk_cli.commands.inputs import report_problems
    from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level
    from yk_cli.load.imports.rows import read_text
    from yk_cli.load.kubernetes import cluster_from_bytes
    from yk_cli.load.source import InputError
    from yk_cli.report.import_yaml import resource_values

    try:
        display, text = read_text(name)
    except InputError as err:
        raise fail_usage(str(err)) from None
    workload, _, problems = cluster_from_bytes(text.encode("utf-8"), display)
    report_problems(problems, {display: text}, 1, [], quiet)
    if any(p.level == Level.ERROR for p in problems):
        raise Exit(EXIT_PROBLEMS)
    if not workload.nodes:
        raise fail_usage(f"{display} holds no Node: dump them with `kubectl get nodes -o yaml`")
    out: list[dict[str, Any]] = []
    for node in workload.nodes:
        entry: dict[str, Any] = {"name": node.name, "resources": resource_values(node.capacity)}
        if not node.schedulable:
            entry["schedulable"] = False
        if node.labels:
            entry["labels"] = dict(node.labels)
        if node.taints:
            entry["taints"] = [{"key": t.key, "value": t.value, "effect": t.effect} for t in node.taints]
        out.append(entry)
    return out
