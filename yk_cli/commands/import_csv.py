"""`yk import csv`: a CSV of recorded jobs, its columns named by flags, written as a yk workload."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from yk_cli.commands import import_common as common
from yk_cli.commands.console import fail_usage
from yk_cli.commands.declare import argument, option, shared


@dataclass(frozen=True, slots=True)
class ImportCsvArgs:
    """`yk import csv`'s argument and options."""

    file: str = argument("FILE", "The CSV of jobs, one job a row, a header row first ('-' for stdin).", required=True)
    submit: Optional[str] = option(
        "--submit",
        metavar="COLUMN",
        help="Submit time (default submit_time): a number (seconds, see --time-unit), an RFC 3339 time or a Go "
        "duration; one kind for the whole file.",
    )
    duration: Optional[str] = option(
        "--duration",
        metavar="COLUMN",
        help="Run time (default duration, if present): a number (seconds) or a Go duration; empty: still running.",
    )
    start: Optional[str] = option(
        "--start",
        metavar="COLUMN",
        help="When the recorded scheduler started the job (default start_time, if present), as the submit time: "
        "written as observedStartTime.",
    )
    resource: Optional[list[str]] = option(
        "--resource",
        metavar="NAME=COLUMN[:UNIT]",
        help="A resource each pod requests, repeatable: vcore=cpu (cores, or 500m), memory=mem (bytes, or 4Gi), "
        "memory=mem_mb:Mi (a unit for plain numbers), nvidia.com/gpu=gpus. Default: the columns cpu, memory "
        "and gpu that the header has.",
    )
    count: Optional[str] = option(
        "--count", metavar="COLUMN", help="Pods per job, each with the row's resources (default count, if present)."
    )
    queue: Optional[str] = option("--queue", metavar="COLUMN", help="The queue (default queue, if present).")
    namespace: Optional[str] = option(
        "--namespace",
        metavar="COLUMN",
        help="The namespace, for rows without a queue: queue root.NAMESPACE (default namespace, if present; "
        "else root.default).",
    )
    user: Optional[str] = option("--user", metavar="COLUMN", help="The user (default user, if present).")
    priority: Optional[str] = option(
        "--priority", metavar="COLUMN", help="The pods' priority, an int32 (default priority, if present)."
    )
    id: Optional[str] = option(
        "--id", metavar="COLUMN", help="The job id (default job_id, if present; else job-LINE)."
    )
    time_unit: str = option(
        "--time-unit", metavar="UNIT", help="What a plain number in a time column counts: ns, us, ms, s, m, h.",
        default="s",
    )
    delimiter: str = option("--delimiter", metavar="CHAR", help="The field delimiter.", default=",")
    queues: bool = option(
        "--queues", help="Also write DIR/queues.yaml: every queue of the jobs as a leaf under root.", default=False
    )
    nodes: Optional[int] = shared(common.NODES)
    node_resources: Optional[str] = shared(common.NODE_RESOURCES)
    since: Optional[str] = shared(common.SINCE)
    until: Optional[str] = shared(common.UNTIL)
    sample: Optional[float] = shared(common.SAMPLE)
    seed: int = shared(common.SEED, 0)
    out_dir: Optional[str] = shared(common.OUT_DIR)
    skip_bad_rows: bool = shared(common.SKIP_BAD_ROWS, False)
    quiet: bool = shared(common.QUIET, False)


HELP = """Turn a CSV of recorded jobs into a yk workload: one application a row, its pods (count) with the row's
resources, submit time, run time and, when the trace has it, the time the recorded scheduler started it
(observedStartTime), so that a dry run can be compared with what really happened.

Columns are named by flags (each has a default name); a header row is required. Bad rows are reported at their
file:line and stop the import (exit 1) unless --skip-bad-rows. --since, --until and --sample cut a long trace;
times in the output count from the window's start. See docs/import.md.

Example: yk import csv jobs.csv --resource vcore=cpu --resource memory=mem_gb:Gi --nodes 20 --node-resources
vcore=32,memory=128Gi --queues --until 24h --out-dir replay"""


def import_csv(args: ImportCsvArgs) -> None:
    """`yk import csv`: read the CSV, cut it, and write the workload (and the queues)."""
    with common.no_gc():
        _import(args)


def _import(args: ImportCsvArgs) -> None:
    from yk_cli.load.imports.csv_jobs import CsvColumns, parse_resource_flag, read_jobs

    options = common.common(
        args.since, args.until, args.sample, args.seed, args.out_dir, args.skip_bad_rows, args.quiet
    )
    try:
        resources = tuple(parse_resource_flag(text) for text in args.resource or ())
    except ValueError as err:
        raise fail_usage(str(err)) from None
    if (args.nodes is None) != (args.node_resources is None):
        raise fail_usage("give --nodes N and --node-resources LIST together")
    capacity = common.parse_capacity(args.node_resources) if args.node_resources is not None else {}
    if args.nodes is not None and args.nodes < 1:
        raise fail_usage("--nodes must be at least 1")
    if len(args.delimiter) != 1:
        raise fail_usage(f"--delimiter must be one character, got {args.delimiter!r}")
    columns = CsvColumns(
        id=args.id,
        submit=args.submit,
        duration=args.duration,
        start=args.start,
        count=args.count,
        queue=args.queue,
        namespace=args.namespace,
        user=args.user,
        priority=args.priority,
        resources=resources,
        time_unit=args.time_unit,
        delimiter=args.delimiter,
    )
    imported = common.read_trace(
        args.file,
        f"importing {args.file}",
        lambda display, text, tick: read_jobs(display, text, columns, options.skip, tick),
        options.quiet,
    )
    selection = common.window_selection(imported, options.window)
    nodes = common.node_entries(common.numbered_nodes(args.nodes or 0), capacity)
    common.write_plain(
        common.command_line("csv", args),
        imported,
        selection,
        nodes,
        options,
        args.queues,
        "jobs",
        f"Recorded jobs of {imported.file}: observedStartTime is when the scheduler that ran them started each one, "
        "not what YuniKorn would do.",
        f"{imported.file} was recorded by another scheduler: observedStartTime is its start of each job, and yk "
        "simulate predicts YuniKorn's",
    )
