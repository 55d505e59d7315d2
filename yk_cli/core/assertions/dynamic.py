"""Dynamic assertions: checked on the dry run of a workload (who preempted whom, when each ask started)."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from yk_cli.core.assertions.chains import carried, child_towards, common_ancestor
from yk_cli.core.assertions.model import (
    CANNOT_PREEMPT,
    DYNAMIC,
    NEVER_PENDING,
    OUTRANKS,
    STARTS_WITHIN,
    Assertion,
    Evidence,
    Outcome,
)
from yk_cli.core.assertions.scope import queue_line
from yk_cli.core.config.properties import format_duration
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.diagnostics import Path
from yk_cli.core.sim.trace import ALLOCATE, PREEMPT, Trace
from yk_cli.core.workload.model import Ask, Workload

SHOWN_OFFENDERS = 5
"""How many late or pending asks a failed starts-within or never-pending lists."""


@dataclass(slots=True)
class RunFacts:
    """A dry run and what it ran: the workload, the queue tree after placement and each application's leaf."""

    trace: Trace
    workload: Workload
    tree: QueueTree
    """The partition's queues with the dynamic ones placement created."""
    leaves: dict[str, Queue] = field(default_factory=dict)
    """Application id -> the leaf queue it was placed in (rejected applications are missing)."""


@dataclass(frozen=True, slots=True)
class _Start:
    application: str
    ask: str
    queue: str
    arrival: int
    start: int | None
    step: int
    reason: str


def check_dynamic(facts: RunFacts, assertion: Assertion) -> Outcome:
    """Check one assertion on the dry run."""
    return _CHECKS[assertion.kind](facts, assertion)


def _under(path: str, queue: str) -> bool:
    return path == queue or path.startswith(queue + ".")


def _known_queue(facts: RunFacts, path: str) -> str | None:
    """The queue's path when the config or the run has it, else None."""
    wanted = path.strip().lower()
    if facts.tree.get(wanted) is not None or wanted in facts.trace.queues:
        return wanted
    return None


def _unknown(facts: RunFacts, assertion: Assertion, what: str, name: str, known: list[str]) -> Outcome:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return Outcome(assertion, DYNAMIC, False, f"{what} {name} is not in the dry run{hint}")


def _line(facts: RunFacts, path: str) -> Path | None:
    """The config text of a queue, or of its nearest configured ancestor for a dynamic one."""
    current = path
    while current:
        queue = facts.tree.get(current)
        if queue is not None and (queue.config is not None or "." not in current):
            return queue_line(queue)
        current = current.rsplit(".", 1)[0] if "." in current else ""
    return None


def _time(nanos: int) -> str:
    return format_duration(nanos)


def _cannot_preempt(facts: RunFacts, assertion: Assertion) -> Outcome:
    source = _known_queue(facts, assertion.queue)
    victims = _known_queue(facts, assertion.other)
    for name, found in ((assertion.queue, source), (assertion.other, victims)):
        if found is None:
            return _unknown(facts, assertion, "queue", name, list(facts.trace.queues))
    assert source is not None and victims is not None
    total = 0
    for event in facts.trace.events:
        if event.type != PREEMPT:
            continue
        total += 1
        if not _under(event.queue_path, source):
            continue
        hit = [v for v in event.victims if _under(v.queue_path, victims)]
        if not hit:
            continue
        first = hit[0]
        evidence = [
            Evidence(
                f"step {event.step} at {_time(event.time)}: {event.application}/{event.ask} (P{event.priority}, "
                f"{event.queue_path}) preempted {len(hit)} pod{'s' if len(hit) > 1 else ''} of {victims}",
                _line(facts, event.queue_path),
            ),
            *(
                Evidence(f"{v.application}/{v.allocation} ({v.queue_path}, P{v.priority}) on {v.node}", None, 2)
                for v in hit
            ),
        ]
        return Outcome(
            assertion,
            DYNAMIC,
            False,
            f"{event.application}/{event.ask} of {event.queue_path} preempted {first.application}/{first.allocation} "
            f"of {first.queue_path} at step {event.step} ({_time(event.time)})",
            tuple(evidence),
            _line(facts, first.queue_path),
            "`yk explain CONFIG WORKLOAD POD` tells why the victim was eligible",
            {
                "step": event.step,
                "time": event.time / 1e9,
                "ask": {"application": event.application, "ask": event.ask, "queue": event.queue_path},
                "victims": [
                    {"application": v.application, "allocation": v.allocation, "queue": v.queue_path} for v in hit
                ],
            },
        )
    return Outcome(
        assertion,
        DYNAMIC,
        True,
        f"no pod of {source} preempted a pod of {victims} in the dry run ({total} preemption"
        f"{'' if total == 1 else 's'} in all)",
    )


def _asks_under(facts: RunFacts, path: str) -> list[tuple[Ask, Queue]]:
    out: list[tuple[Ask, Queue]] = []
    for app in facts.workload.applications:
        leaf = facts.leaves.get(app.id)
        if leaf is not None and _under(leaf.path, path):
            out.extend((ask, leaf) for ask in app.asks)
    return out


def _outranks(facts: RunFacts, assertion: Assertion) -> Outcome:
    upper_path = _known_queue(facts, assertion.queue)
    lower_path = _known_queue(facts, assertion.other)
    for name, found in ((assertion.queue, upper_path), (assertion.other, lower_path)):
        if found is None:
            return _unknown(facts, assertion, "queue", name, list(facts.trace.queues))
    assert upper_path is not None and lower_path is not None
    upper, lower = facts.tree.get(upper_path), facts.tree.get(lower_path)
    assert upper is not None and lower is not None
    meet = common_ancestor(upper, lower)
    if meet is None:
        return Outcome(assertion, DYNAMIC, False, f"{upper.path} and {lower.path} overlap (one is inside the other)")
    side_up, side_down = child_towards(meet, upper), child_towards(meet, lower)
    ups = [(carried(leaf, ask.priority, side_up), ask, leaf) for ask, leaf in _asks_under(facts, upper.path)]
    downs = [(carried(leaf, ask.priority, side_down), ask, leaf) for ask, leaf in _asks_under(facts, lower.path)]
    if not ups or not downs:
        empty = upper.path if not ups else lower.path
        return Outcome(
            assertion, DYNAMIC, True, f"no ask of {empty} in the workload: nothing to compare (vacuously true)"
        )
    (value_up, steps_up), ask_up, leaf_up = min(ups, key=lambda item: item[0][0])
    (value_down, steps_down), ask_down, leaf_down = max(downs, key=lambda item: item[0][0])
    evidence = (
        Evidence(
            f"lowest: {ask_up.application}/{ask_up.name} (P{ask_up.priority}, {leaf_up.path}) counts as {value_up} at "
            f"{side_up.path}"
        ),
        *steps_up,
        Evidence(
            f"highest: {ask_down.application}/{ask_down.name} (P{ask_down.priority}, {leaf_down.path}) counts as "
            f"{value_down} at {side_down.path}"
        ),
        *steps_down,
    )
    if value_up > value_down:
        return Outcome(
            assertion,
            DYNAMIC,
            True,
            f"every ask of {upper.path} ({len(ups)}) outranks every ask of {lower.path} ({len(downs)}) in the "
            f"workload ({value_up} > {value_down} at {meet.path})",
            evidence,
        )
    return Outcome(
        assertion,
        DYNAMIC,
        False,
        f"{ask_up.application}/{ask_up.name} of {leaf_up.path} counts as {value_up}, not above "
        f"{ask_down.application}/{ask_down.name} of {leaf_down.path} at {value_down} (compared at {meet.path})",
        evidence,
        _line(facts, side_up.path),
        "",
        {
            "ask": {
                "application": ask_up.application,
                "ask": ask_up.name,
                "queue": leaf_up.path,
                "effective": value_up,
            },
            "over": {
                "application": ask_down.application,
                "ask": ask_down.name,
                "queue": leaf_down.path,
                "effective": value_down,
            },
            "comparedAt": meet.path,
        },
    )


def _starts(facts: RunFacts) -> list[_Start]:
    """Every ask of the run (restarted victims included) with its arrival, its start (or why it never started)."""
    arrivals: dict[tuple[str, str], tuple[int, str]] = {}
    for app in facts.workload.applications:
        leaf = facts.leaves.get(app.id)
        for ask in app.asks:
            arrivals[app.id, ask.name] = (max(0, ask.submit_time), leaf.path if leaf is not None else "")
    starts: dict[tuple[str, str], tuple[int, int]] = {}
    for event in facts.trace.events:
        if event.type == ALLOCATE:
            starts.setdefault((event.application, event.ask), (event.time, event.step))
        elif event.type == PREEMPT:
            for victim in event.victims:
                if victim.restarted_as:
                    arrivals.setdefault((victim.application, victim.restarted_as), (event.time, victim.queue_path))
    pending = {(p.application, p.ask): p for p in facts.trace.pending}
    out: list[_Start] = []
    for key, (arrival, queue) in arrivals.items():
        started = starts.get(key)
        waiting = pending.get(key)
        queue = queue or (waiting.queue_path if waiting is not None else "")
        if started is not None:
            out.append(_Start(key[0], key[1], queue, arrival, started[0], started[1], ""))
        else:
            reason = waiting.reason if waiting is not None else "never allocated"
            out.append(_Start(key[0], key[1], queue, arrival, None, 0, reason))
    return out


def _selected(facts: RunFacts, assertion: Assertion) -> tuple[list[_Start], str] | Outcome:
    starts = _starts(facts)
    name = assertion.target_name
    if assertion.target == "queue":
        path = _known_queue(facts, name)
        if path is None:
            return _unknown(facts, assertion, "queue", name, list(facts.trace.queues))
        return [s for s in starts if _under(s.queue, path)], f"queue {path}"
    if assertion.target == "application":
        ids = [app.id for app in facts.workload.applications]
        if name not in ids:
            return _unknown(facts, assertion, "application", name, ids)
        return [s for s in starts if s.application == name], f"application {name}"
    chosen = [s for s in starts if s.ask == name or f"{s.application}/{s.ask}" == name]
    if not chosen:
        known = sorted({s.ask for s in starts} | {f"{s.application}/{s.ask}" for s in starts})
        return _unknown(facts, assertion, "ask", name, known)
    return chosen, f"ask {name}"


def _wait_check(facts: RunFacts, assertion: Assertion, limit: int) -> Outcome:
    found = _selected(facts, assertion)
    if isinstance(found, Outcome):
        return found
    starts, what = found
    never = [s for s in starts if s.start is None]
    late = sorted(
        (s for s in starts if s.start is not None and s.start - s.arrival > limit),
        key=lambda s: (-(s.start or 0) + s.arrival, s.application, s.ask),
    )
    bound = "at once" if limit == 0 else f"within {_time(limit)}"
    if not starts:
        return Outcome(assertion, DYNAMIC, True, f"no ask of {what} in the workload: nothing to check (vacuously true)")
    if not never and not late:
        longest = max((s.start or 0) - s.arrival for s in starts)
        return Outcome(
            assertion,
            DYNAMIC,
            True,
            f"every ask of {what} ({len(starts)}) starts {bound} of its arrival (longest wait {_time(longest)})",
        )
    offenders = [*never, *late]
    evidence: list[Evidence] = []
    for s in offenders[:SHOWN_OFFENDERS]:
        if s.start is None:
            evidence.append(
                Evidence(
                    f"{s.application}/{s.ask} ({s.queue}) arrived at {_time(s.arrival)} and never started: {s.reason}",
                    _line(facts, s.queue),
                )
            )
        else:
            evidence.append(
                Evidence(
                    f"{s.application}/{s.ask} ({s.queue}) arrived at {_time(s.arrival)}, started at {_time(s.start)} "
                    f"(step {s.step}): waited {_time(s.start - s.arrival)}",
                    _line(facts, s.queue),
                )
            )
    if len(offenders) > SHOWN_OFFENDERS:
        evidence.append(Evidence(f"... and {len(offenders) - SHOWN_OFFENDERS} more"))
    first = offenders[0]
    if first.start is None:
        message = f"{first.application}/{first.ask} of {what} never starts in the dry run"
    else:
        message = f"{first.application}/{first.ask} of {what} waits {_time(first.start - first.arrival)}"
    counts = []
    if never:
        counts.append(f"{len(never)} never start")
    if late:
        counts.append(f"{len(late)} start later")
    return Outcome(
        assertion,
        DYNAMIC,
        False,
        f"{message} ({' and '.join(counts)} of {len(starts)}; wanted {bound})",
        tuple(evidence),
        _line(facts, first.queue),
        "",
        {
            "application": first.application,
            "ask": first.ask,
            "queue": first.queue,
            "arrival": first.arrival / 1e9,
            "start": None if first.start is None else first.start / 1e9,
            "step": first.step or None,
            "reason": first.reason or None,
        },
    )


def _starts_within(facts: RunFacts, assertion: Assertion) -> Outcome:
    return _wait_check(facts, assertion, assertion.time)


def _never_pending(facts: RunFacts, assertion: Assertion) -> Outcome:
    return _wait_check(facts, assertion, 0)


_CHECKS: dict[str, Callable[[RunFacts, Assertion], Outcome]] = {
    CANNOT_PREEMPT: _cannot_preempt,
    OUTRANKS: _outranks,
    STARTS_WITHIN: _starts_within,
    NEVER_PENDING: _never_pending,
}
