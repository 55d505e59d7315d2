"""Recorded jobs (`yk import`) as a workload: the jobs, their time window and sample, and the queue config."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.resources import Resource

NANOS = 1_000_000_000
MIN_DURATION = NANOS
"""A recorded run of 0 s (or less than this) runs this long: a workload's `duration` is positive."""
EARLIEST, LATEST = -(2**61), 2**62
"""Times yk reads, in nanoseconds (1897 to 2116 as Unix time): any two differ by less than Go's largest duration."""
_EPOCH_DAY = datetime(1970, 1, 1).toordinal()


@dataclass(slots=True)
class RecordedAsk:
    """Pods of a recorded job that share one shape: an ask entry of the workload (expanded by `count`)."""

    name: str
    submit: int
    """Nanoseconds on the trace's clock (Unix time, or the trace's own zero)."""
    resources: Resource
    count: int = 1
    duration: int | None = None
    """Nanoseconds the pods ran; None: still running when recorded (runs forever in the dry run)."""
    start: int | None = None
    """When the recorded scheduler started them, on the trace's clock; None: never started."""
    priority: int | None = None


@dataclass(slots=True)
class RecordedJob:
    """A recorded job: one application of the workload, with the line (or position) it came from."""

    id: str
    line: int
    submit: int
    queue: str
    asks: list[RecordedAsk]
    user: str = ""
    gang: bool = False
    """Its asks form one task group (minMember: all its pods): all-or-nothing, as the recorded scheduler ran it."""


@dataclass(frozen=True, slots=True)
class TimeBound:
    """`--since`/`--until`: nanoseconds after the first submission, or an absolute time (Unix nanoseconds)."""

    nanos: int
    absolute: bool
    text: str


class WindowError(ValueError):
    """A time bound or sample fraction that cannot be used; the message says why."""


def parse_bound(flag: str, text: str) -> TimeBound:
    """A Go duration (after the first submission: `24h`) or an RFC 3339 time (`2020-06-09T00:00:00Z`)."""
    relative = parse_go_duration(text.strip())
    if relative is not None:
        return TimeBound(relative, False, text)
    absolute = timestamp_nanos(text.strip())
    if absolute is None:
        raise WindowError(
            f"{flag} {text!r} is neither a Go duration after the first submission (24h, 90m) nor an RFC 3339 time "
            "(2020-06-09T00:00:00Z)"
        )
    return TimeBound(absolute, True, text)


_DAYS: dict[str, int] = {}


def timestamp_nanos(text: str) -> int | None:
    """An ISO 8601 / RFC 3339 time as Unix nanoseconds (a time without a zone is taken as UTC), or None.

    `2020-06-09 18:41:01` and `2020-06-09T18:41:01Z` take a fast path: the day is parsed once and cached.
    """
    if len(text) in (19, 20) and text[10] in "T " and text[13] == ":" and text[16] == ":" and text[19:] in ("", "Z"):
        day = _DAYS.get(text[:10])
        if day is None:
            try:
                day = (datetime.fromisoformat(text[:10]).toordinal() - _EPOCH_DAY) * 86400
            except ValueError:
                return None
            _DAYS[text[:10]] = day
        hh, mm, ss = text[11:13], text[14:16], text[17:19]
        clock = hh + mm + ss
        if clock.isascii() and clock.isdigit() and int(hh) < 24 and int(mm) < 60 and int(ss) < 61:
            nanos = (day + int(hh) * 3600 + int(mm) * 60 + int(ss)) * NANOS
            return nanos if EARLIEST <= nanos < LATEST else None
        return None
    if len(text) < 10 or not text[:4].isdigit() or text[4] != "-":
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    nanos = (delta.days * 86400 + delta.seconds) * NANOS + delta.microseconds * 1000
    return nanos if EARLIEST <= nanos < LATEST else None


@dataclass(frozen=True, slots=True)
class Window:
    """Which recorded jobs to keep: submitted in [since, until), then a seeded sample of them."""

    since: TimeBound | None = None
    until: TimeBound | None = None
    sample: float = 1.0
    seed: int = 0


@dataclass(slots=True)
class Selection:
    """The jobs kept, sorted by submission (file order between equal times); their times stay the trace's: the
    run's time 0 is `origin`, the window's start."""

    jobs: list[RecordedJob]
    origin: int
    """The window's start on the trace's clock."""
    first: int
    """The first submission on the trace's clock (0 when there is no job)."""
    outside: int = 0
    """Jobs submitted outside the window."""
    sampled_out: int = 0
    """Jobs in the window the sample left out."""


def select(jobs: list[RecordedJob], window: Window) -> Selection:
    """Cut the jobs to the window and the sample, sorted by submission; the window's start is the run's time 0.

    Times are the trace's clock: a relative bound counts from the first submission; an absolute one is Unix time
    (it matches a trace whose times are timestamps or Unix seconds). The sample draws one number per job in the
    window, in file order, from random.Random(seed): the same input and seed keep the same jobs.
    """
    if not 0.0 < window.sample <= 1.0:
        raise WindowError(f"--sample must be a fraction above 0 and at most 1, got {window.sample!r}")
    first = min((job.submit for job in jobs), default=0)
    origin = _resolve(window.since, first) if window.since is not None else first
    until = _resolve(window.until, first) if window.until is not None else None
    if until is not None and until <= origin:
        assert window.until is not None
        relative = "" if window.until.absolute else " (a duration counts from the first submission: give a time)"
        raise WindowError(f"--until {window.until.text} is not after the window's start{relative}")
    kept: list[RecordedJob] = []
    outside = sampled_out = 0
    draw = random.Random(window.seed).random if window.sample < 1.0 else None
    for job in jobs:
        if job.submit < origin or (until is not None and job.submit >= until):
            outside += 1
            continue
        if draw is not None and draw() >= window.sample:
            sampled_out += 1
            continue
        kept.append(job)
    kept.sort(key=lambda job: job.submit)
    return Selection(kept, origin, first, outside, sampled_out)


def _resolve(bound: TimeBound, first: int) -> int:
    return bound.nanos if bound.absolute else first + bound.nanos


@dataclass(slots=True)
class QueueQuotas:
    """Leaf queues by full path (`root.a.b`) with optional guaranteed and max resources, for queues.yaml."""

    guaranteed: dict[str, Mapping[str, str | int]] = field(default_factory=dict)
    maximum: dict[str, Mapping[str, str | int]] = field(default_factory=dict)


def queue_config(leaves: Iterable[str], quotas: QueueQuotas | None = None) -> dict[str, object]:
    """A queues.yaml document (plain data) with every leaf under root, parents made as needed, in sorted order.

    Leaves are full paths (`root.team.a`); a leaf's guaranteed and max resources come from `quotas`. Placement:
    none (YuniKorn's default, the `provided` rule): each application names its queue.
    """
    quotas = quotas or QueueQuotas()
    children: _Tree = {}
    for leaf in sorted(set(leaves)):
        parts = leaf.split(".")
        if parts[0] != "root":
            parts = ["root", *parts]
        node = children
        for part in parts[1:]:
            node = node.setdefault(part, {})
    return {"partitions": [{"name": "default", "queues": [_queue("root", children, "root", quotas)]}]}


_Tree = dict[str, "_Tree"]


def _queue(name: str, children: _Tree, path: str, quotas: QueueQuotas) -> dict[str, object]:
    out: dict[str, object] = {"name": name}
    if name == "root":
        out["submitacl"] = "*"
    resources: dict[str, object] = {}
    if path in quotas.guaranteed:
        resources["guaranteed"] = dict(quotas.guaranteed[path])
    if path in quotas.maximum:
        resources["max"] = dict(quotas.maximum[path])
    if resources:
        out["resources"] = resources
    if children:
        out["queues"] = [_queue(child, grand, f"{path}.{child}", quotas) for child, grand in children.items()]
    return out
