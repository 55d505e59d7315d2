"""What `yk import csv`, `helios` and `pods` share: their common options, reading with a progress bar, bad rows,
the window and sample, the nodes, and writing workload.yaml (and queues.yaml) with a one-line summary."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import MISSING, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yk_cli.commands.console import Exit, echo_error, fail_usage
from yk_cli.commands.declare import Param, declared
from yk_cli.core.diagnostics import EXIT_PROBLEMS, Level

if TYPE_CHECKING:
    from yk_cli.core.resources import Resource
    from yk_cli.core.workload.imports import Selection, Window
    from yk_cli.load.imports.rows import Imported, Tick

SINCE = Param(
    ("--since",),
    "TIME",
    "Keep jobs submitted at or after TIME: a Go duration after the first submission (36h) or an RFC 3339 time "
    "(2020-06-09T00:00:00Z). Output times count from here (default: the first submission).",
)
UNTIL = Param(
    ("--until",), "TIME", "Keep jobs submitted before TIME (a Go duration after the first submission, or RFC 3339)."
)
SAMPLE = Param(("--sample",), "FRACTION", "Keep this fraction of the jobs in the window (0 to 1), drawn with --seed.")
SEED = Param(("--seed",), "N", "Random seed of --sample: the same input and seed keep the same jobs.")
OUT_DIR = Param(("--out-dir",), "DIR", "Write DIR/workload.yaml (and DIR/queues.yaml); DIR is created.")
SKIP_BAD_ROWS = Param(
    ("--skip-bad-rows",), "", "Leave bad rows out with a warning each, instead of stopping with exit status 1."
)
NODES = Param(("--nodes",), "N", "Nodes in the cluster, named node-0000, node-0001, ...")
NODE_RESOURCES = Param(
    ("--node-resources",),
    "LIST",
    "Each node's capacity as YuniKorn quantities, e.g. vcore=48,nvidia.com/gpu=8,memory=512Gi.",
)
QUIET = Param(("--quiet", "-q"), "", "No notes on standard error (what was left out, where the trace came from).")


@dataclass(frozen=True, slots=True)
class Common:
    """The options every import takes, checked."""

    window: Window
    out_dir: Path
    skip: bool
    quiet: bool


def common(
    since: str | None, until: str | None, sample: float | None, seed: int, out_dir: str | None, skip: bool, quiet: bool
) -> Common:
    """The window, sample and output folder, or a usage error."""
    from yk_cli.core.workload.imports import Window, WindowError, parse_bound

    if out_dir is None:
        raise fail_usage("say where to write: --out-dir DIR")
    try:
        window = Window(
            parse_bound("--since", since) if since is not None else None,
            parse_bound("--until", until) if until is not None else None,
            sample if sample is not None else 1.0,
            seed,
        )
        if not 0.0 < window.sample <= 1.0:
            raise WindowError(f"--sample must be a fraction above 0 and at most 1, got {window.sample!r}")
    except WindowError as err:
        raise fail_usage(str(err)) from None
    return Common(window, Path(out_dir), skip, quiet)


def command_line(name: str, args: object) -> str:
    """The command as given, for the files' header: `yk import NAME FILE --opt value ...` (defaults left out)."""
    words = [f"yk import {name}"]
    positional = []
    for f, param, _ in declared(type(args)):
        value = getattr(args, f.name)
        if not param.flags:
            positional.append(str(value))
            continue
        if value is None or value is False or (f.default is not MISSING and value == f.default):
            continue
        if param in (OUT_DIR, QUIET):
            continue  # not what the files hold: the same input gives the same files wherever they are written
        flag = param.flags[0]
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            words.extend(f"{flag} {item}" for item in value)
        else:
            words.append(f"{flag} {value}")
    return " ".join([words[0], *positional, *words[1:]])



@contextmanager
def no_gc() -> Iterator[None]:
    """Without the cyclic garbage collector: an import builds millions of long-lived objects and no cycles (the
    collector's passes over them would take a third of the time), as the dry run does."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_trace(
    name: str, label: str, reader: Callable[[str, str, Tick], Imported], quiet: bool
) -> Imported:
    """Read a trace with a progress bar (a terminal only, after 2 s), then report its bad rows: with errors, every
    one and exit 1; with warnings alone (--skip-bad-rows), every one unless quiet. Usage errors exit 2."""
    from yk_cli.commands.progress import progress
    from yk_cli.load.imports.rows import Tick, TraceError, read_text
    from yk_cli.load.source import InputError

    try:
        display, text = read_text(name)
    except InputError as err:
        raise fail_usage(str(err)) from None
    tick = Tick(total=text.count("\n"))
    try:
        with progress(label, tick.total, lambda: (tick.done, f"{tick.done:,} rows")):
            imported = reader(display, text, tick)
    except TraceError as err:
        raise fail_usage(str(err)) from None
    report_bad_rows(imported, quiet)
    return imported


def report_bad_rows(imported: Imported, quiet: bool) -> None:
    """The bad rows on standard error as `yk validate` prints problems; exit 1 when one is an error."""
    problems = imported.problems
    if not problems:
        return
    failing = any(p.level == Level.ERROR for p in problems)
    if quiet and not failing:
        return
    from yk_cli.core.diagnostics import Problem
    from yk_cli.report.problems import render_problems

    texts = {imported.file: imported.text}
    sys.stderr.write(render_problems("text", sorted(problems, key=Problem.sort_key), texts, 1))
    if imported.hidden:
        echo_error(f"… and {imported.hidden:,} more bad rows (the first {len(problems)} are shown)")
    if failing:
        echo_error("yk: nothing written: fix the rows, or leave them out with --skip-bad-rows")
        raise Exit(EXIT_PROBLEMS)
    skipped = len(problems) + imported.hidden
    imported.notes.insert(0, f"{skipped:,} bad row{'s' if skipped != 1 else ''} left out (--skip-bad-rows)")


def window_selection(imported: Imported, window: Window) -> Selection:
    """The jobs in the window and the sample, times from the window's start; a usage error for a bad window."""
    from yk_cli.core.workload.imports import WindowError, select

    try:
        return select(imported.jobs, window)
    except WindowError as err:
        raise fail_usage(str(err)) from None


def parse_capacity(text: str) -> Resource:
    """`vcore=48,nvidia.com/gpu=8` as YuniKorn units; a usage error for a bad entry."""
    from yk_cli.core.resources import QuantityError, parse_quantity

    out: Resource = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not item.strip():
            continue
        if not sep or not name.strip():
            raise fail_usage(f"--node-resources {text!r}: write NAME=QUANTITY,..., e.g. vcore=48,nvidia.com/gpu=8")
        try:
            out[name.strip()] = parse_quantity(name.strip(), value.strip())
        except QuantityError as err:
            raise fail_usage(
                f"--node-resources: {name.strip()}={value.strip()} is not a YuniKorn quantity ({err})"
            ) from None
    return out


def node_entries(names: Iterable[str], capacity: Resource) -> list[dict[str, Any]]:
    """Workload nodes of one capacity."""
    from yk_cli.report.import_yaml import resource_values

    values = resource_values(capacity)
    return [{"name": name, "resources": values} for name in names]


def numbered_nodes(count: int) -> list[str]:
    """node-0000, node-0001, ... (wider when there are more)."""
    width = max(4, len(str(count - 1)))
    return [f"node-{i:0{width}d}" for i in range(count)]


def clock_text(selection: Selection, absolute: bool) -> str:
    """Where time 0 is: an RFC 3339 time for a trace of timestamps, else the trace's own clock."""
    from datetime import UTC, datetime

    from yk_cli.core.config.properties import format_duration
    from yk_cli.core.workload.imports import NANOS

    if absolute:
        moment = datetime.fromtimestamp(selection.origin // NANOS, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    else:
        moment = f"{format_duration(selection.origin)} on the trace's clock"
    which = "the first submission" if selection.origin == selection.first else "--since"
    return f"{moment} ({which})"


def write_outputs(
    out_dir: Path,
    header: str,
    nodes: Sequence[Mapping[str, Any]],
    selection: Selection,
    queues: Mapping[str, Any] | None,
    queues_header: str,
) -> tuple[Path, Path | None]:
    """Write workload.yaml (with a progress bar for a large one) and queues.yaml when given; exit 2 when a file
    cannot be written."""
    from yk_cli.commands.progress import progress
    from yk_cli.report.generate_yaml import config_yaml
    from yk_cli.report.import_yaml import CHUNK, workload_chunks

    workload_path = out_dir / "workload.yaml"
    queues_path = out_dir / "queues.yaml" if queues is not None else None
    written = [0]
    total = len(selection.jobs)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with (
            progress("writing " + str(workload_path), total, lambda: (written[0], f"{written[0]:,} applications")),
            workload_path.open("w", encoding="utf-8", newline="\n") as handle,
        ):
            for chunk in workload_chunks(header, nodes, selection.jobs, selection.origin):
                handle.write(chunk)
                written[0] = min(written[0] + CHUNK, total)
        if queues_path is not None and queues is not None:
            with queues_path.open("w", encoding="utf-8", newline="\n") as handle:
                handle.write(config_yaml(queues, queues_header))
    except OSError as err:
        raise fail_usage(f"cannot write {err.filename or ''}: {err.strerror or err}") from None
    return workload_path, queues_path


def write_plain(
    command: str,
    imported: Imported,
    selection: Selection,
    nodes: Sequence[Mapping[str, Any]],
    options: Common,
    with_queues: bool,
    what: str,
    recorded: str,
    origin_note: str,
    noun: str = "rows",
) -> None:
    """Write an import without quotas (csv, pods): the workload under its header, queues.yaml with one leaf per queue
    of the `what` when asked, then the notes and the summary."""
    from yk_cli.core.workload.imports import queue_config

    origin = clock_text(selection, imported.absolute)
    header = f"Imported by `{command}`.\n{recorded}\nTimes count from {origin}."
    leaves = sorted({job.queue for job in selection.jobs})
    queues = queue_config(leaves) if with_queues else None
    queues_header = f"Written by `{command}`: one leaf queue per queue of the {what}, no guarantees or limits."
    workload_path, queues_path = write_outputs(options.out_dir, header, nodes, selection, queues, queues_header)
    summarize(imported, selection, workload_path, len(nodes), queues_path, len(leaves), options.quiet, origin_note,
              noun)


def summarize(
    imported: Imported,
    selection: Selection,
    workload_path: Path,
    nodes: int,
    queues_path: Path | None,
    leaves: int,
    quiet: bool,
    origin_note: str,
    noun: str = "rows",
) -> None:
    """The notes on standard error (where the trace came from, what was left out), then the summary on stdout."""
    from yk_cli.commands.inputs import echo_notes
    from yk_cli.core.workload.checks import MAX_ASKS

    asks = sum(ask.count for job in selection.jobs for ask in job.asks)
    notes = [origin_note, *imported.notes]
    if selection.outside:
        notes.append(f"{selection.outside:,} jobs submitted outside the window left out")
    if selection.sampled_out:
        notes.append(f"{selection.sampled_out:,} jobs left out by --sample")
    if not nodes:
        notes.append("the workload has no nodes, nothing can run: give --nodes N --node-resources LIST")
    if asks > MAX_ASKS:
        notes.append(
            f"{asks:,} asks: yk simulate refuses more than {MAX_ASKS:,}; cut the trace with --until or --sample"
        )
    echo_notes(notes, quiet)
    if queues_path is not None:
        _echo(f"wrote {queues_path}: {leaves:,} leaf queue{'s' if leaves != 1 else ''}")
    _echo(
        f"wrote {workload_path}: {_count(nodes, 'node')}, {_count(len(selection.jobs), 'application')}, "
        f"{_count(asks, 'ask')} (from {imported.rows:,} {noun} of {imported.file})"
    )


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'s' if number != 1 else ''}"


def _echo(line: str) -> None:
    sys.stdout.write(line + "\n")
