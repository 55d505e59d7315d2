"""`yk import`'s workload.yaml: recorded jobs written line by line (a million jobs in seconds), stable text."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from yk_cli.core.config.properties import format_duration
from yk_cli.core.resources import Resource
from yk_cli.core.workload.imports import NANOS, RecordedJob
from yk_cli.report.generate_yaml import flow, scalar

CHUNK = 5_000
"""Applications per piece of text handed to the writer."""
BYTES = frozenset({"memory", "ephemeral-storage"})
"""Resources counted in bytes: written as Ki, Mi, Gi, Ti when they divide."""
BINARY = (("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10))
TASK_GROUP = "nodes"
"""The task group of a job imported as a gang (all its pods at once)."""


def quantity(name: str, amount: int) -> str | int:
    """A YuniKorn-unit amount as a workload quantity: vcore in cores (`2`) or millicores (`500m`), the rest as is."""
    if name == "vcore":
        return amount // 1000 if amount % 1000 == 0 else f"{amount}m"
    if name in BYTES and amount:
        for suffix, scale in BINARY:
            if amount % scale == 0:
                return f"{amount // scale}{suffix}"
    return amount


def resource_values(resources: Resource) -> dict[str, str | int]:
    """A resource map in workload quantities, names sorted."""
    return {name: quantity(name, resources[name]) for name in sorted(resources)}


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null"})


def name_text(value: str) -> str:
    """An id or name as YAML: plain when it starts with a letter and holds only name characters, quoted digits,
    else generate_yaml.scalar's choice."""
    if _PLAIN.fullmatch(value) and (len(value) > 5 or value.lower() not in _RESERVED):
        return value
    if value.isdigit() and value.isascii():
        return f"'{value}'"
    return scalar(value)


def when(nanos: int) -> str:
    """A time or duration as Go writes it (1h2m3s), whole seconds on a fast path."""
    seconds, rest = divmod(abs(nanos), NANOS)
    if rest:
        return format_duration(nanos)
    sign = "-" if nanos < 0 else ""
    if seconds < 60:
        return f"{sign}{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{sign}{minutes}m{seconds}s"
    hours, minutes = divmod(minutes, 60)
    return f"{sign}{hours}h{minutes}m{seconds}s"


def workload_chunks(
    header: str, nodes: Sequence[Mapping[str, Any]], jobs: Sequence[RecordedJob], origin: int = 0
) -> Iterator[str]:
    """The workload file in pieces: the header comment, nodes, then one application per job; the jobs' times are
    the trace's, `origin` (the window's start) is time 0 of the run."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    if nodes:
        lines.append("nodes:")
        lines.extend(f"  - {flow(node)}" for node in nodes)
    else:
        lines.append("nodes: []")
    if not jobs:
        lines.append("applications: []")
        yield "\n".join(lines) + "\n"
        return
    lines.append("applications:")
    durations: dict[int, str] = {}
    maps: dict[int, str] = {}
    texts: dict[str, str] = {}

    def resources_text(resources: Resource) -> str:
        key = id(resources)  # maps are shared between asks of one shape and live as long as the jobs
        text = maps.get(key)
        if text is None:
            text = maps[key] = flow(resource_values(resources))
        return text

    def cached(value: str) -> str:
        """Queue and user names (a few, repeated): scalar() once each."""
        text = texts.get(value)
        if text is None:
            text = scalar(value)
            if len(texts) < 100_000:
                texts[value] = text
        return text

    def at(moment: int) -> str:
        """A time of the trace as the run's: seconds after the window's start (`86340s`), the common case fast."""
        nanos = moment - origin
        return f"{nanos // NANOS}s" if not nanos % NANOS else format_duration(nanos)

    append = lines.append
    for number, job in enumerate(jobs, 1):
        job_id = name_text(job.id)
        append(f"  - id: {job_id}\n    queue: {cached(job.queue)}\n    submitTime: {at(job.submit)}")
        if job.user:
            append(f"    user: {cached(job.user)}")
        gang = job.gang
        if gang:
            members = sum(ask.count for ask in job.asks)
            largest = job.asks[0].resources  # the first pods take what does not divide evenly: the largest
            append("    taskGroups:")
            append(f"      - {{name: {TASK_GROUP}, minMember: {members}, minResource: {resources_text(largest)}}}")
        append("    asks:")
        for ask in job.asks:
            line = f"      - {{name: {job_id if ask.name == job.id else name_text(ask.name)}"
            if ask.priority is not None:
                line += f", priority: {ask.priority}"
            line += f", resources: {resources_text(ask.resources)}"
            if ask.count != 1:
                line += f", count: {ask.count}"
            if ask.submit != job.submit:
                line += f", submitTime: {at(ask.submit)}"
            if ask.duration is not None:
                text = durations.get(ask.duration)
                if text is None:
                    text = durations[ask.duration] = when(ask.duration)
                line += f", duration: {text}"
            if ask.start is not None:
                line += f", observedStartTime: {at(ask.start)}"
            if gang:
                line += f", taskGroupName: {TASK_GROUP}"
            append(line + "}")
        if number % CHUNK == 0:
            yield "\n".join(lines) + "\n"
            lines.clear()
    if lines:
        yield "\n".join(lines) + "\n"
