"""`yk explain` as text: the answer, the two asks, the sort key compared at their common queue, the breakdowns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.analysis.explain import (
    BOTH_PENDING,
    RESERVATION,
    SORTED_FIRST,
    AskFacts,
    Comparison,
    Explanation,
    PrioritySide,
)
from yk_cli.core.config.properties import Source, format_duration
from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering.priority import show
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.unmodelled import Unmodelled
from yk_cli.report.tree_common import Locate, cause_text, nowhere
from yk_cli.report.unmodelled import unmodelled_lines

MARK = "<- first difference"
NOT_PENDING = (
    codes.NOT_SUBMITTED,
    codes.UNPLACED,
    codes.QUEUE_MISSING,
    codes.GANG_REJECTED,
    codes.GANG_RESERVING,
    codes.GANG_FAILED,
)
"""Reasons that keep an ask out of the scheduler altogether."""


def outcome(facts: AskFacts) -> str:
    """`allocated at step 4 (0s) on node-1`, or why it is never allocated."""
    if facts.step is not None and facts.time is not None:
        return f"allocated at step {facts.step} ({format_duration(facts.time)}) on {facts.node}"
    return f"never allocated: {facts.reason}" if facts.reason else "never allocated"


def table(rows: Sequence[tuple[str, ...]], indent: str = "  ") -> list[str]:
    """Left-aligned columns separated by two spaces, trailing blanks removed."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(row))).rstrip() for row in rows]


def asks_table(explanation: Explanation) -> list[str]:
    """One row per ask: application, queue, priority, submission, what happens to it."""
    rows = [("ASK", "APPLICATION", "QUEUE", "PRIORITY", "SUBMITTED", "OUTCOME")]
    for facts in explanation.asks:
        rows.append(
            (
                facts.ask,
                facts.application,
                facts.queue_path or "-",
                f"P{facts.priority}",
                format_duration(facts.submit_time),
                outcome(facts),
            )
        )
    return table(rows)


def comparison_lines(explanation: Explanation, comparison: Comparison) -> list[str]:
    """How the common queue sorts the two branches, and every key field on both sides."""
    asks = explanation.asks
    names = comparison.names
    heads = (f"{names[0]} ({asks[0].ask})", f"{names[1]} ({asks[1].ask})") if comparison.level != "ask" else names
    rows = [("KEY", heads[0], heads[1], "")]
    for i, field in enumerate(comparison.fields):
        rows.append((field.name, field.texts[0], field.texts[1], MARK if i == comparison.deciding else ""))
    when = f"At step {explanation.step} ({format_duration(explanation.time or 0)}) both asks were pending."
    meet = {
        "queue": f"Their branches meet at {comparison.at}",
        "application": f"Both are in the leaf queue {comparison.at}",
        "ask": "Both belong to one application",
    }[comparison.level]
    out = [f"{when} {meet}: {comparison.order}.", ""]
    out.extend(table(rows))
    if comparison.tie:
        out.append("")
        out.append(
            f"  Every field before {comparison.deciding_field.name} is equal: YuniKorn would pick at random (Go map "
            f"order); yk uses {comparison.deciding_field.name}."
        )
    return out


def breakdown_lines(
    comparison: Comparison, side: int, queues: Mapping[str, Queue], locate: Locate = nowhere
) -> list[str]:
    """`Priority of root.tenants: 0, from child-a-1/a1-p8` and the steps that make it."""
    priority: PrioritySide = comparison.priorities[side]
    name = comparison.names[side]
    what = {"queue": "Priority of", "application": "Priority of application", "ask": "Priority of ask"}
    out = [f"{what[comparison.level]} {name}: {show(priority.value)}, from {priority.driver}"]
    if not priority.steps:
        return out
    width = max(11, *(len(_label(step.kind, step.queue_path)) for step in priority.steps))
    indent = " " * (2 + width + 1 + 11 + 2)
    for step in priority.steps:
        line = f"  {_label(step.kind, step.queue_path):<{width}} {show(step.value):>11}  {step.detail}"
        if step.causes and all(c.setting.source == Source.DEFAULT for c in step.causes):
            out.append(line + " (default)")
            continue
        out.append(line)
        if step.causes:
            causes = "; ".join(cause_text(c, locate, queues, step.queue_path) for c in step.causes)
            out.append(f"{indent}from {causes}")
    return out


def _label(kind: str, queue_path: str) -> str:
    return kind if kind in ("ask", "application") else queue_path.rsplit(".", 1)[-1]


def render(
    explanation: Explanation,
    source: str,
    partition: str,
    queues: Mapping[str, Queue],
    locate: Locate = nowhere,
    unmodelled: Sequence[Unmodelled] = (),
) -> str:
    """The whole text report."""
    out = [f"yk explain: {source}; partition {partition}", "", *unmodelled_lines(unmodelled), explanation.summary, ""]
    out.extend(asks_table(explanation))
    comparison = explanation.comparison
    if comparison is not None:
        out.append("")
        out.extend(comparison_lines(explanation, comparison))
        if comparison.deciding_field.name == "priority":
            for side in (0, 1):
                out.append("")
                out.extend(breakdown_lines(comparison, side, queues, locate))
    if explanation.verdict == RESERVATION and explanation.reserved_node:
        out.append("")
        since = f" at step {explanation.reserved_at}" if explanation.reserved_at is not None else ""
        if explanation.reserved_time is not None:
            since += f" ({format_duration(explanation.reserved_time)})"
        winner = explanation.asks[explanation.winner or 0].ask
        out.append(
            f"{winner} reserved node {explanation.reserved_node}{since}: it had waited more than 2s and no node had "
            "room for it. A reserved node takes no other ask until the reservation is used."
        )
    if explanation.other_reason and explanation.winner is not None and explanation.verdict != BOTH_PENDING:
        other = explanation.asks[1 - explanation.winner]
        when = f"At step {explanation.step} ({format_duration(explanation.time or 0)})"
        if explanation.other_code in NOT_PENDING:
            state = "was not pending"
        elif explanation.verdict == SORTED_FIRST:
            state = "could not have been placed either"
        else:
            state = "could not be placed"
        out.append("")
        out.append(f"{when} {other.ask} {state}: {explanation.other_reason} ({explanation.other_code}).")
    return "\n".join(out) + "\n"
