"""`yk state`: a YuniKorn state dump (or a live scheduler's state) written as yk's own queue config and workload."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from yk_cli.commands.console import fail_usage
from yk_cli.commands.declare import MAX_SIZE, QUIET, YUNIKORN, argument, option, shared
from yk_cli.commands.project import config_size


@dataclass(frozen=True, slots=True)
class StateArgs:
    """`yk state`'s arguments and options."""

    dump: Optional[str] = argument(
        "DUMP", "A saved state dump (GET /debug/fullstatedump; '-' for stdin), or give --yunikorn URL."
    )
    yunikorn: Optional[str] = shared(YUNIKORN)
    partition: Optional[str] = option(
        "--partition", metavar="NAME", help="The partition to write (default: default, or the dump's only one)."
    )
    out_dir: Optional[str] = option(
        "--out-dir", metavar="DIR", help="Write DIR/queues.yaml and DIR/workload.yaml (DIR is created)."
    )
    config: Optional[str] = option("--queues-out", metavar="PATH", help="Write the queue config to this file.")
    workload: Optional[str] = option("--workload-out", metavar="PATH", help="Write the workload to this file.")
    force: bool = option("--force", help="Overwrite files that exist.", default=False)
    max_size: Optional[str] = shared(MAX_SIZE)
    quiet: bool = shared(QUIET, False)


HELP = """Write the scheduler's own state as yk's two input files: the queue config it runs with (queues.yaml)
and what it holds and is asked for (workload.yaml: nodes, applications placed in their queues, running
allocations, pending requests with their priorities and ages).

Edit a copy of queues.yaml, then `yk diff queues.yaml new.yaml workload.yaml` shows what the change would do to
the live cluster. `yk simulate queues.yaml workload.yaml` is the same dry run as `yk simulate --state DUMP`.
What the dump cannot say (pod runtimes, preemption opt-outs, gang settings) is written at the top of
workload.yaml as the assumptions yk made. See docs/state.md.

Example: yk state fullstatedump.json --out-dir live"""


def write_state(args: StateArgs) -> None:
    """`yk state`: read the dump (or the live scheduler), convert it and write the two files."""
    from yk_cli.commands.inputs import echo_notes, report_problems
    from yk_cli.load.source import InputError
    from yk_cli.load.state import scheduler_state
    from yk_cli.report.generate_yaml import config_yaml, workload_yaml

    if (args.dump is None) == (args.yunikorn is None):
        raise fail_usage("give a state dump (DUMP) or --yunikorn URL, one of them")
    if args.out_dir is not None and (args.config is not None or args.workload is not None):
        raise fail_usage("give either --out-dir or --queues-out and --workload-out, not both")
    if args.out_dir is None and (args.config is None or args.workload is None):
        raise fail_usage("say where to write: --out-dir DIR, or both --queues-out FILE and --workload-out FILE")
    if args.out_dir is not None:
        paths = Path(args.out_dir) / "queues.yaml", Path(args.out_dir) / "workload.yaml"
    else:
        assert args.config is not None and args.workload is not None
        paths = Path(args.config), Path(args.workload)
    if paths[0].resolve() == paths[1].resolve():
        raise fail_usage("--queues-out and --workload-out must be different files")
    existing = [str(path) for path in paths if path.exists()]
    if existing and not args.force:
        raise fail_usage(f"{' and '.join(existing)} exist{'s' if len(existing) == 1 else ''}: use --force to overwrite")
    with config_size(args.max_size):
        try:
            state = scheduler_state(args.dump, args.yunikorn, args.partition)
        except InputError as err:
            raise fail_usage(str(err)) from None
    echo_notes(state.notes, args.quiet)
    report_problems(
        [*state.config.problems, *state.workload.problems], {}, 0, state.config.problems, args.quiet
    )
    documents = state.documents
    origin = f"Written by `yk state` from {state.file}, partition {documents.partition}"
    if documents.version:
        origin += f" (YuniKorn {documents.version})"
    queues_header = f"{origin}: the scheduler config YuniKorn runs with, as queues.yaml."
    assumed = "".join(f"\n- {sentence}" for sentence in documents.assumptions)
    workload_header = (
        f"{origin}: the nodes, the applications where the scheduler placed them, their running allocations "
        f"and pending requests. Times are relative to the dump's time.\nWhat the dump cannot say, assumed:"
        f"{assumed}\nRun: yk simulate {paths[0]} {paths[1]}"
    )
    try:
        if args.out_dir is not None:
            Path(args.out_dir).mkdir(parents=True, exist_ok=True)
        _write(paths[0], config_yaml(documents.config, queues_header))
        _write(paths[1], workload_yaml(documents.workload, workload_header))
    except OSError as err:
        raise fail_usage(f"cannot write {err.filename or ''}: {err.strerror or err}") from None
    workload = state.workload.workload
    asks = sum(len(app.asks) for app in workload.applications)
    running = sum(len(app.allocations) for app in workload.applications)
    partitions = len(documents.config.get("partitions", []))
    _echo(f"wrote {paths[0]}: {partitions} partition{'s' if partitions != 1 else ''}")
    counts = (
        (len(workload.nodes), "node"),
        (len(workload.applications), "application"),
        (asks, "pending request"),
        (running, "running allocation"),
    )
    _echo(f"wrote {paths[1]}: " + ", ".join(f"{n:,} {word}{'' if n == 1 else 's'}" for n, word in counts))


def _write(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _echo(line: str) -> None:
    sys.stdout.write(line + "\n")
