"""`yk import helios`: the Helios (SenseTime, Venus) trace `cluster_log.csv` and a per-VC quota file -> recorded
jobs, one queue per virtual cluster (VC).

The trace: github.com/S-Lab-System-Group/HeliosData (columns job_id, user, vc, gpu_num, cpu_num, node_num, state,
submit_time, start_time, end_time, duration, queue; times `2020-06-09 18:41:01`, durations in seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yk_cli.core.diagnostics import Problem
from yk_cli.core.resources import Resource, k8s_quantity
from yk_cli.core.workload.imports import LATEST, MIN_DURATION, NANOS, RecordedAsk, RecordedJob, timestamp_nanos
from yk_cli.core.workload.imports_rules import BAD_ROW
from yk_cli.load.imports.rows import BadRows, Imported, Tick, TraceError, header_of, records, width_problem

GPU = "nvidia.com/gpu"
COLUMNS = (
    "job_id",
    "user",
    "vc",
    "gpu_num",
    "cpu_num",
    "node_num",
    "state",
    "submit_time",
    "start_time",
    "end_time",
    "duration",
)
"""The columns yk reads (the trace's `queue`, the time the job waited, is recomputed from the times)."""
STATES = ("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL")
NOT_STARTED = frozenset({"", "none", "nan", "nat", "null"})
"""How a start time the trace does not have is written."""


@dataclass(frozen=True, slots=True)
class HeliosOptions:
    """What to keep: the states (empty: all), jobs that never started, and multi-node jobs as gangs."""

    states: frozenset[str] = frozenset()
    keep_unstarted: bool = False
    gang: bool = False


def read_jobs(display: str, text: str, options: HeliosOptions, skip: bool, tick: Tick | None = None) -> Imported:
    """Every row of cluster_log.csv as a job of queue root.<vc> (file order); TraceError for a missing column."""
    header, reader, _ = header_of(text, display, ",")
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        raise TraceError(
            f"{display} is not a Helios cluster_log.csv: it has no column {', '.join(missing)} (its columns: "
            f"{', '.join(header)})"
        )
    return _Rows(display, header, options, skip).read(reader, text, tick)


class _Rows:
    """The row loop of a Helios trace and its counts of what it left out."""

    def __init__(self, display: str, header: list[str], options: HeliosOptions, skip: bool) -> None:
        self.display = display
        self.header = header
        self.at = {name: header.index(name) for name in COLUMNS}
        self.options = options
        self.bad = BadRows(display, BAD_ROW, skip)
        self.maps: dict[tuple[int, int], Resource] = {}

    def read(self, reader: Any, text: str, tick: Tick | None) -> Imported:
        out = Imported(self.display, text)
        at, bad, options = self.at, self.bad, self.options
        width = len(self.header)
        i_id, i_user, i_vc, i_gpu, i_cpu, i_nodes, i_state, i_submit, i_start = (at[name] for name in COLUMNS[:9])
        if tick is not None:
            tick.total = max(text.count("\n") - reader.line_num, 1)
        seen: dict[str, int] = {}
        rows = unstarted = other_state = short = 0
        for line, row in records(reader, bad):
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            rows += 1
            if tick is not None and not rows & 4095:
                tick.done = rows
            if len(row) != width:
                bad.add(line, -1, width_problem(len(row), width))
                continue
            state = row[i_state].strip()
            if options.states and state.upper() not in options.states:
                other_state += 1
                continue
            job_id = row[i_id].strip()
            if not job_id:
                bad.add(line, i_id, "job_id is empty")
                continue
            if job_id in seen:
                bad.add(line, i_id, f"job_id {job_id} repeats the one on line {seen[job_id]}")
                continue
            vc = row[i_vc].strip()
            if not vc or "." in vc:
                bad.add(line, i_vc, f"vc {vc!r} is not a queue name" if vc else "vc is empty: a job needs its VC")
                continue
            submit = timestamp_nanos(row[i_submit].strip())
            if submit is None:
                bad.add(line, i_submit, f"submit_time {row[i_submit].strip()!r} is not a time (2020-06-09 18:41:01)")
                continue
            start_text = row[i_start].strip()
            start = None if start_text.lower() in NOT_STARTED else timestamp_nanos(start_text)
            if start is None and start_text.lower() not in NOT_STARTED:
                bad.add(line, i_start, f"start_time {start_text!r} is not a time (2020-06-09 18:41:01)")
                continue
            if start is not None and start < submit:
                bad.add(line, i_start, f"start_time {start_text} is before submit_time {row[i_submit].strip()}")
                continue
            duration = self.duration(row, line, start)
            if duration is False:
                continue
            if start is None:
                unstarted += 1
                if not options.keep_unstarted:
                    continue
                duration = max(duration or 0, MIN_DURATION)
            elif duration is not None and duration < MIN_DURATION:
                short += 1
                duration = MIN_DURATION
            counts = [self.count(row, i, line) for i in (i_gpu, i_cpu, i_nodes)]
            if None in counts:
                continue
            gpus, cpus, nodes = (c or 0 for c in counts)
            if nodes < 1:
                bad.add(line, i_nodes, f"node_num {nodes} is not a node count: a job runs on at least 1 node")
                continue
            seen[job_id] = line
            asks = self.asks(job_id, submit, gpus, cpus, nodes, duration, start)
            out.jobs.append(
                RecordedJob(job_id, line, submit, f"root.{vc}", asks, row[i_user].strip(), options.gang and nodes > 1)
            )
        out.rows = rows
        if tick is not None:
            tick.done = rows
        if other_state:
            out.notes.append(f"{_jobs(other_state)} in other states than {', '.join(sorted(options.states))} left out")
        if unstarted:
            out.notes.append(
                f"{_jobs(unstarted)} that never started (no start_time) "
                + (
                    "kept: no observedStartTime, they run their duration (at least 1s)"
                    if options.keep_unstarted
                    else "left out (--keep-unstarted keeps them)"
                )
            )
        if short:
            out.notes.append(f"{_jobs(short)} ran less than 1s: they run 1s (a duration must be positive)")
        out.problems = bad.problems(text)
        out.hidden = bad.hidden()
        return out

    def duration(self, row: list[str], line: int, start: int | None) -> int | bool | None:
        """The run time in nanoseconds: `duration` (seconds), else end_time − start_time; None when unknown, False
        when bad (reported)."""
        text = row[self.at["duration"]].strip()
        if text and text.lower() not in NOT_STARTED:
            try:
                seconds = float(text)
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds * NANOS < LATEST:
                self.bad.add(line, self.at["duration"], f"duration {text!r} is not a number of seconds, 0 or more")
                return False
            return round(seconds * NANOS)
        end_text = row[self.at["end_time"]].strip()
        end = timestamp_nanos(end_text) if end_text.lower() not in NOT_STARTED else None
        if start is None or end is None:
            return None
        if end < start:
            self.bad.add(line, self.at["end_time"], f"end_time {end_text} is before start_time")
            return False
        return end - start

    def count(self, row: list[str], i: int, line: int) -> int | None:
        """A whole number, 0 or more (GPUs, CPUs, nodes); None when bad (reported)."""
        text = row[i].strip()
        if text.isascii() and text.isdigit():
            return int(text)
        try:
            number = float(text)
        except ValueError:
            number = -1.0
        if number.is_integer() and 0 <= number < 1e9:
            return int(number)
        self.bad.add(line, i, f"{self.header[i]} {text!r} is not a whole number, 0 or more")
        return None

    def asks(
        self, job_id: str, submit: int, gpus: int, cpus: int, nodes: int, duration: int | None, start: int | None
    ) -> list[RecordedAsk]:
        """One pod per node, the job's GPUs and CPUs split evenly (the first nodes take what does not divide)."""
        shapes: list[tuple[tuple[int, int], int]] = []
        for k in range(nodes):
            shape = (gpus // nodes + (k < gpus % nodes), cpus // nodes + (k < cpus % nodes))
            if shapes and shapes[-1][0] == shape:
                shapes[-1] = (shape, shapes[-1][1] + 1)
            else:
                shapes.append((shape, 1))
        asks = []
        for k, (shape, count) in enumerate(shapes):
            resources = self.maps.get(shape)
            if resources is None:
                resources = self.maps[shape] = {
                    name: amount for name, amount in ((GPU, shape[0]), ("vcore", shape[1] * 1000)) if amount
                }
            name = job_id if len(shapes) == 1 else f"{job_id}-{'abc'[k]}"  # at most 3: two remainders
            asks.append(RecordedAsk(name, submit, resources, count, duration, start))
        return asks


@dataclass(slots=True)
class Quotas:
    """Per-VC resources from a quota file: one table (vc,gpu,cpu) or Helios's daily cluster_gpu_number.csv."""

    file: str
    by_day: list[tuple[int, dict[str, Resource]]] = field(default_factory=list)
    """(day as Unix nanoseconds, VC -> resources) in file order; one entry of day 0 for a plain table."""
    problems: list[Problem] = field(default_factory=list)
    text: str = ""

    def at(self, moment: int) -> tuple[dict[str, Resource], str]:
        """The quotas in force at a time on the trace's clock (the last day at or before it, else the first), and
        the day used ('' for a plain table)."""
        if not self.by_day:
            return {}, ""
        chosen = self.by_day[0]
        for day, values in self.by_day:
            if day <= moment:
                chosen = (day, values)
        if len(self.by_day) == 1 and chosen[0] == 0:
            return chosen[1], ""
        from datetime import UTC, datetime

        return chosen[1], datetime.fromtimestamp(chosen[0] // NANOS, UTC).strftime("%Y-%m-%d")


QUOTA_NAMES = {"gpu": GPU, "gpus": GPU, "gpu_num": GPU, "cpu": "vcore", "cpus": "vcore", "cpu_num": "vcore"}
"""Quota table columns and the YuniKorn resources they give (any other column is a resource of its own name)."""


def read_quotas(display: str, text: str, skip: bool) -> Quotas:
    """A quota file: `vc,gpu,cpu[,memory,...]` (one row per VC; cpu in cores, memory a Kubernetes quantity), or
    Helios's `date,<vc>...,total` (GPUs per VC per day); TraceError when it is neither."""
    header, reader, _ = header_of(text, display, ",")
    bad = BadRows(display, BAD_ROW, skip)
    quotas = Quotas(display, text=text)
    folded = [name.lower() for name in header]
    if folded[0] == "date":
        vcs = [(i, name) for i, name in enumerate(header) if i and name.lower() != "total"]
        for line, row in records(reader, bad):
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                bad.add(line, -1, width_problem(len(row), len(header)))
                continue
            day = timestamp_nanos(row[0].strip() + " 00:00:00")
            if day is None:
                bad.add(line, 0, f"date {row[0].strip()!r} is not a day (2020-06-09)")
                continue
            values: dict[str, Resource] = {}
            for i, vc in vcs:
                cell = row[i].strip()
                if not (cell.isascii() and cell.isdigit()):
                    bad.add(line, i, f"{vc} {cell!r} is not a number of GPUs")
                    break
                values[vc] = {GPU: int(cell)} if int(cell) else {}
            else:
                quotas.by_day.append((day, values))
    elif "vc" in folded:
        i_vc = folded.index("vc")
        resources = [(i, QUOTA_NAMES.get(name.lower(), name)) for i, name in enumerate(header) if i != i_vc]
        table: dict[str, Resource] = {}
        for line, row in records(reader, bad):
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                bad.add(line, -1, width_problem(len(row), len(header)))
                continue
            vc = row[i_vc].strip()
            if not vc or vc in table:
                bad.add(line, i_vc, f"vc {vc} repeats" if vc else "vc is empty")
                continue
            values_of: Resource = {}
            for i, name in resources:
                cell = row[i].strip()
                amount = k8s_quantity("cpu" if name == "vcore" else name, cell) if cell else 0
                if amount is None or amount < 0:
                    bad.add(line, i, f"{header[i]} {cell!r} is not a quantity")
                    break
                if amount:
                    values_of[name] = amount
            else:
                table[vc] = values_of
        quotas.by_day.append((0, table))
    else:
        raise TraceError(
            f"{display} is not a quota file: write a CSV with a `vc` column and one column per resource (vc,gpu,cpu), "
            "or give Helios's cluster_gpu_number.csv (date,<vc>...,total)"
        )
    quotas.problems = bad.problems(text)
    return quotas


def _jobs(count: int) -> str:
    return f"{count:,} job{'s' if count != 1 else ''}"
