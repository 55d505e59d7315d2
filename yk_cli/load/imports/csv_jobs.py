"""`yk import csv`: a CSV of jobs, one job a row, its columns named by flags -> recorded jobs and bad rows."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.resources import Resource, k8s_quantity
from yk_cli.core.workload.imports import (
    EARLIEST,
    LATEST,
    MIN_DURATION,
    NANOS,
    RecordedAsk,
    RecordedJob,
    timestamp_nanos,
)
from yk_cli.core.workload.imports_rules import BAD_ROW
from yk_cli.load.imports.rows import (
    BadRows,
    Imported,
    Tick,
    TraceError,
    column,
    header_of,
    optional_column,
    records,
    width_problem,
)

INT32 = (-(2**31), 2**31 - 1)
TIME_UNITS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": NANOS, "m": 60 * NANOS, "h": 3600 * NANOS}
"""What a plain number in a time or duration column counts (`--time-unit`)."""
DEFAULT_RESOURCES = (("vcore", "cpu", ""), ("memory", "memory", ""), ("nvidia.com/gpu", "gpu", ""))
"""Resource columns used when no --resource is given and the header has them: cores, bytes, GPUs."""


@dataclass(frozen=True, slots=True)
class CsvColumns:
    """Which column holds what (None: the default name, used when the header has it), and the units."""

    id: str | None = None
    submit: str | None = None
    duration: str | None = None
    start: str | None = None
    count: str | None = None
    queue: str | None = None
    namespace: str | None = None
    user: str | None = None
    priority: str | None = None
    resources: tuple[tuple[str, str, str], ...] = ()
    """(YuniKorn resource name, column, unit suffix) from `--resource NAME=COLUMN[:UNIT]`."""
    time_unit: str = "s"
    delimiter: str = ","


DEFAULT_NAMES = {
    "id": "job_id",
    "submit": "submit_time",
    "duration": "duration",
    "start": "start_time",
    "count": "count",
    "queue": "queue",
    "namespace": "namespace",
    "user": "user",
    "priority": "priority",
}
FLAGS = {
    "id": "--id",
    "submit": "--submit",
    "duration": "--duration",
    "start": "--start",
    "count": "--count",
    "queue": "--queue",
    "namespace": "--namespace",
    "user": "--user",
    "priority": "--priority",
}
WHAT = {
    "id": "the job id",
    "submit": "the submit time",
    "duration": "the run time",
    "start": "the observed start time",
    "count": "the pods per job",
    "queue": "the queue",
    "namespace": "the namespace",
    "user": "the user",
    "priority": "the priority",
}


def parse_resource_flag(text: str) -> tuple[str, str, str]:
    """`vcore=cpu`, `memory=mem_mb:Mi`: (resource, column, unit suffix); ValueError with the reason."""
    name, sep, rest = text.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise ValueError(f"--resource {text!r}: write NAME=COLUMN or NAME=COLUMN:UNIT, e.g. vcore=cpu, memory=mem:Mi")
    col, _, unit = rest.rpartition(":") if ":" in rest else (rest, "", "")
    unit = unit.strip()
    if unit and k8s_quantity("memory", "1" + unit) is None:
        raise ValueError(f"--resource {text!r}: unit {unit!r} is not a Kubernetes suffix (m, k, M, G, Ki, Mi, Gi, ...)")
    return name.strip(), col.strip(), unit


def read_jobs(display: str, text: str, columns: CsvColumns, skip: bool, tick: Tick | None = None) -> Imported:
    """Every row of the CSV as a job (file order); TraceError when a named (or the submit) column is missing."""
    header, reader, _ = header_of(text, display, columns.delimiter)
    index: dict[str, int | None] = {}
    for key, default in DEFAULT_NAMES.items():
        named = getattr(columns, key)
        index[key] = (
            column(header, named, display, WHAT[key], FLAGS[key]) if named else optional_column(header, default)
        )
    if index["submit"] is None:
        column(header, DEFAULT_NAMES["submit"], display, WHAT["submit"], FLAGS["submit"])  # raises
    resources = (
        [
            (name, column(header, col, display, f"resource {name}", "--resource NAME="))
            for name, col, _ in columns.resources
        ]
        if columns.resources
        else [(name, i) for name, col, _ in DEFAULT_RESOURCES if (i := optional_column(header, col)) is not None]
    )
    units = [unit for _, _, unit in columns.resources] if columns.resources else [""] * len(resources)
    if columns.time_unit not in TIME_UNITS:
        raise TraceError(f"--time-unit {columns.time_unit!r}: choose one of {', '.join(TIME_UNITS)}")
    reading = _Rows(display, header, index, resources, units, TIME_UNITS[columns.time_unit], skip)
    out = reading.read(reader, text, tick)
    out.problems = reading.bad.problems(text, columns.delimiter)
    out.hidden = reading.bad.hidden()
    return out


class _Rows:
    """The row loop and its caches (equal quantities and resource maps are parsed once)."""

    def __init__(
        self,
        display: str,
        header: list[str],
        index: dict[str, int | None],
        resources: list[tuple[str, int]],
        units: list[str],
        unit: int,
        skip: bool,
    ) -> None:
        self.display = display
        self.header = header
        self.index = index
        self.resources = resources
        self.units = units
        self.unit = unit
        self.bad = BadRows(display, BAD_ROW, skip)
        self.quantities: dict[tuple[int, str], int | None] = {}
        self.maps: dict[tuple[int, ...], Resource] = {}
        self.clock_kind: bool | None = None
        """Whether the first submit time was a timestamp (the others must be alike)."""
        self.clock_line = 0
        self.short = 0

    def read(self, reader: Any, text: str, tick: Tick | None) -> Imported:
        out = Imported(self.display, text)
        jobs = out.jobs
        bad = self.bad
        width = len(self.header)
        i_id, i_submit, i_duration, i_start = (self.index[k] for k in ("id", "submit", "duration", "start"))
        i_count, i_queue, i_ns, i_user, i_prio = (
            self.index[k] for k in ("count", "queue", "namespace", "user", "priority")
        )
        assert i_submit is not None
        seen: dict[str, int] = {}
        time = self.time
        unit = self.unit
        pick = itemgetter(*(i for _, i in self.resources)) if self.resources else None
        raw_maps: dict[object, Resource] = {}
        """The requests of each distinct row text of the resource columns (a trace repeats a few shapes)."""
        if tick is not None:
            tick.total = max(text.count("\n") - reader.line_num, 1)
        rows = 0
        for line, row in records(reader, bad):
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            rows += 1
            if tick is not None and not rows & 4095:
                tick.done = rows
            if len(row) != width:
                bad.add(line, -1, width_problem(len(row), width))
                continue
            job_id = row[i_id].strip() if i_id is not None else f"job-{line}"
            if not job_id:
                bad.add(line, i_id if i_id is not None else -1, f"{self.header[i_id or 0]} is empty: a job needs an id")
                continue
            if job_id in seen:
                bad.add(line, i_id or 0, f"job id {job_id} repeats the one on line {seen[job_id]}")
                continue
            try:  # the common case first: whole numbers of the time unit
                submit = int(row[i_submit]) * unit
                if self.clock_kind is not False or not EARLIEST <= submit < LATEST:
                    raise ValueError
            except ValueError:
                checked = time(row, i_submit, line, True)
                if checked is None:
                    continue
                submit = checked
            duration = None
            if i_duration is not None and (text := row[i_duration]):
                try:
                    duration = int(text) * unit
                    if not MIN_DURATION <= duration < LATEST:
                        raise ValueError
                except ValueError:
                    duration = self.duration(row, i_duration, line) if text.strip() else None
                    if duration is None and text.strip():
                        continue
            start = None
            if i_start is not None and (text := row[i_start]):
                try:
                    start = int(text) * unit
                    if self.clock_kind is not False or not EARLIEST <= start < LATEST:
                        raise ValueError
                except ValueError:
                    start = time(row, i_start, line, False) if text.strip() else None
                    if start is None and text.strip():
                        continue
                if start is not None and start < submit:
                    bad.add(line, i_start, f"{self.header[i_start]} {row[i_start].strip()} is before the submit time")
                    continue
            count = 1
            if i_count is not None and row[i_count] != "1" and row[i_count].strip():
                count_text = row[i_count].strip()
                if not (count_text.isascii() and count_text.isdigit()) or not 1 <= int(count_text) <= 1_000_000:
                    bad.add(line, i_count, f"{self.header[i_count]} {count_text!r} is not a pod count (1 to 1000000)")
                    continue
                count = int(count_text)
            priority = None
            if i_prio is not None and (text := row[i_prio].strip()):
                try:
                    priority = int(text)
                except ValueError:
                    priority = INT32[1] + 1
                if not INT32[0] <= priority <= INT32[1]:
                    bad.add(line, i_prio, f"{self.header[i_prio]} {text!r} is not a whole number within int32")
                    continue
            raw = pick(row) if pick is not None else ()
            resources = raw_maps.get(raw)
            if resources is None:
                resources = self.resource_map(row, line)
                if resources is None:
                    continue
                if len(raw_maps) < 100_000:
                    raw_maps[raw] = resources
            queue = row[i_queue].strip() if i_queue is not None else ""
            if not queue:
                namespace = row[i_ns].strip() if i_ns is not None else ""
                queue = f"root.{namespace}" if namespace else "root.default"
            seen[job_id] = line
            jobs.append(
                RecordedJob(
                    job_id,
                    line,
                    submit,
                    queue,
                    [RecordedAsk(job_id, submit, resources, count, duration, start, priority)],
                    row[i_user].strip() if i_user is not None else "",
                )
            )
        out.rows = rows
        out.absolute = bool(self.clock_kind)
        if tick is not None:
            tick.done = rows
        if self.short:
            out.notes.append(f"{_jobs(self.short)} ran less than 1s: they run 1s (a duration must be positive)")
        return out

    def time(self, row: list[str], i: int, line: int, submit: bool) -> int | None:
        """A submit or start time in nanoseconds on the trace's clock: a number (in --time-unit), an RFC 3339
        time, or a Go duration; one kind of clock for the whole file (timestamps, or not)."""
        text = row[i].strip()
        name = self.header[i]
        if not text:
            self.bad.add(line, i, f"{name} is empty: a job needs a submit time")
            return None
        stamp = False
        try:
            nanos: int | None = int(text) * self.unit
        except ValueError:
            try:
                number = float(text)
                nanos = round(number * self.unit) if number == number and abs(number) < 1e12 else None
            except ValueError:
                nanos = timestamp_nanos(text)
                stamp = nanos is not None
                if nanos is None:
                    nanos = parse_go_duration(text)
        if nanos is not None and not EARLIEST <= nanos < LATEST:
            nanos = None
        if nanos is None:
            self.bad.add(
                line,
                i,
                f"{name} {text!r} is not a time",
                "write a number (seconds, or --time-unit), an RFC 3339 time (2020-06-09T18:41:01Z) or a Go duration.",
            )
            return None
        if self.clock_kind is None:
            self.clock_kind, self.clock_line = stamp, line
        elif stamp != self.clock_kind:
            kind = "a timestamp" if stamp else "not a timestamp"
            other = "is" if self.clock_kind else "is not"
            self.bad.add(line, i, f"{name} {text!r} is {kind} while line {self.clock_line}'s {other}")
            return None
        return nanos

    def duration(self, row: list[str], i: int, line: int) -> int | None:
        """A run time in nanoseconds: a number (in --time-unit) or a Go duration, not negative; 0 runs 1s."""
        text = row[i].strip()
        try:
            nanos: int | None = int(text) * self.unit
        except ValueError:
            try:
                number = float(text)
                nanos = round(number * self.unit) if number == number and abs(number) < 1e12 else None
            except ValueError:
                nanos = parse_go_duration(text)
        if nanos is None or not 0 <= nanos < LATEST:
            self.bad.add(
                line,
                i,
                f"{self.header[i]} {text!r} is not a run time",
                "write a number of seconds (or --time-unit) or a Go duration (1h30m), not negative.",
            )
            return None
        if nanos < MIN_DURATION:
            self.short += 1
            return MIN_DURATION
        return nanos

    def resource_map(self, row: list[str], line: int) -> Resource | None:
        """The row's requests in YuniKorn units, one shared dict per distinct map; None when a value is bad."""
        amounts = []
        cache = self.quantities
        for k, (name, i) in enumerate(self.resources):
            text = row[i]
            amount: int | None = cache.get((k, text), -1)
            if amount == -1:
                amount = cache[k, text] = self.quantity(k, name, text)
            if amount is None:
                unit = self.units[k]
                hint = (
                    "cores (2, 0.5, 500m)"
                    if name == "vcore"
                    else "bytes or a Kubernetes quantity (4Gi, 512M)"
                    if name == "memory"
                    else "a number or a Kubernetes quantity"
                )
                self.bad.add(
                    line,
                    i,
                    f"{self.header[i]} {text.strip()!r} is not a {name} quantity" + (f" in {unit}" if unit else ""),
                    f"write {hint}, not negative.",
                )
                return None
            amounts.append(amount)
        key = tuple(amounts)
        known = self.maps.get(key)
        if known is None:
            known = self.maps[key] = {
                name: amount for (name, _), amount in zip(self.resources, amounts, strict=True) if amount
            }
        return known

    def quantity(self, k: int, name: str, text: str) -> int | None:
        """One value in YuniKorn units: vcore from cores (millicores), the rest by value; '' is 0."""
        text = text.strip()
        if not text:
            return 0
        unit = self.units[k]
        if unit and text[-1:].isdigit():
            text += unit
        amount = k8s_quantity("cpu" if name == "vcore" else name, text)
        return amount if amount is not None and amount >= 0 else None


def _jobs(count: int) -> str:
    return f"{count:,} job{'s' if count != 1 else ''}"
