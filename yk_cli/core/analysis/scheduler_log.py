"""The core's own words beside yk's: a pending request's allocation log (a state dump's `allocationLog`) next to
what yk's dry run does with the request, and whether the two tell the same story.

The core logs why it could not allocate a request (application.go, preemption.go, node.go): `Not enough queue
quota`, `Not enough user quota`, the preemption messages of common/errors.go, and the shim's predicate failures
(any other text). Each line counts how often it happened and when it last did. The log is history: a line from
before the dump may no longer hold, which is what a disagreement with the dry run usually means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.config.properties import format_duration
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.trace import Trace
from yk_cli.core.state.convert import AskLog

QUEUE_QUOTA = "Not enough queue quota"
USER_QUOTA = "Not enough user quota"
PREEMPTION_PREFIXES = ("Preemption", "No fit on required node", "Victims picked earlier")
"""common/errors.go's preemption messages."""

QUEUE_QUOTA_CODES = frozenset({codes.QUEUE_MAX})
USER_QUOTA_CODES = frozenset({codes.USER_QUOTA, codes.USER_MAX_APPLICATIONS})


def log_kind(message: str) -> str:
    """What a log line is about: queue-quota, user-quota, preemption, or node (a predicate or fit the shim or a
    node refused)."""
    if message == QUEUE_QUOTA:
        return "queue-quota"
    if message == USER_QUOTA:
        return "user-quota"
    if message.startswith(PREEMPTION_PREFIXES):
        return "preemption"
    return "node"


@dataclass(frozen=True, slots=True)
class LogComparison:
    """One request's allocation log beside yk's outcome for it, and what a disagreement means ('' when none)."""

    ask: str
    lines: tuple[AskLog, ...]
    outcome: str
    """yk's dry run in words: `allocated at 0s on node-1`, or `still pending: <reason>`."""
    disagreement: str


def compare_logs(trace: Trace, logs: Mapping[str, tuple[AskLog, ...]], asks: Sequence[str]) -> list[LogComparison]:
    """The comparison for each of `asks` that has an allocation log, in the order given."""
    out = []
    for ask in asks:
        lines = logs.get(ask)
        if lines:
            out.append(_compare(trace, ask, lines))
    return out


def _compare(trace: Trace, ask: str, lines: tuple[AskLog, ...]) -> LogComparison:
    kinds = {log_kind(line.message) for line in lines}
    allocated = next((e for e in trace.events if e.type == "allocate" and e.ask == ask), None)
    if allocated is not None:
        preempted = any(e.type == "preempt" and e.ask == ask and e.time <= allocated.time for e in trace.events)
        how = " after preempting for it" if preempted else ""
        outcome = f"allocated at {format_duration(allocated.time)} on {allocated.node}{how}"
        disagreement = ""
        if kinds & {"queue-quota", "user-quota"} and allocated.time == 0 and not preempted:
            disagreement = (
                "the core logged that a quota held it back, yet yk allocates it at once: the quota has room now "
                "(something was released or the config changed since the log's last line), or yk's model "
                "differs here"
            )
        elif kinds == {"node"}:
            disagreement = (
                "the core's log names node predicates or fit, which yk does not check from a dump (it carries no "
                "pod node constraints): the pod may not fit where yk puts it"
            )
        return LogComparison(ask, lines, outcome, disagreement)
    pending = next((p for p in trace.pending if p.ask == ask), None)
    if pending is None:
        return LogComparison(ask, lines, "not in the dry run", "")
    outcome = f"still pending: {pending.reason}"
    disagreement = ""
    if "queue-quota" in kinds and pending.code in USER_QUOTA_CODES:
        disagreement = "the core logged the queue's quota, yk's dry run a user or group limit"
    elif "user-quota" in kinds and pending.code in QUEUE_QUOTA_CODES:
        disagreement = "the core logged a user or group limit, yk's dry run the queue's quota"
    return LogComparison(ask, lines, outcome, disagreement)
