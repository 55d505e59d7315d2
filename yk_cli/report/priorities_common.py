"""What `yk priorities` renders: queue priorities from the cache and the breakdown of every pending ask."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yk_cli.core.analysis.snapshot import Absent
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.ordering.priority import AskBreakdown, PriorityCache, Step
from yk_cli.core.sim.unmodelled import Unmodelled
from yk_cli.core.workload.model import Application
from yk_cli.report.tree_common import Locate, cause_text, nowhere


@dataclass(frozen=True, slots=True)
class PriorityView:
    """Everything `yk priorities` shows."""

    tree: QueueTree
    partition: str
    cache: PriorityCache
    asks: Sequence[AskBreakdown]
    rejected: Sequence[tuple[Application, str]] = ()
    locate: Locate = nowhere
    unmodelled: Sequence[Unmodelled] = ()
    """Features in use that yk does not model (shown at the top)."""
    at: int = 0
    """The virtual time the priorities are those of (nanoseconds from the start of the run)."""
    steps: int = 0
    """Steps of the dry run before that time."""
    absent: Sequence[Absent] = ()
    """Asks of placed applications not pending then: arriving later, requesting nothing, held by the shim."""


def sorts_by(queue: Queue) -> str:
    """How a queue orders what it holds: its children (parent) or its applications (leaf)."""
    second = queue.sort_policy if queue.is_leaf else "fairness"
    return f"priority, then {second}" if queue.sort_priority else f"{second}, then priority"


def step_causes(view: PriorityView, step: Step) -> str:
    """`priority.offset 10: set here (f:28); ...` for the causes of a step ('' when none)."""
    return "; ".join(cause_text(c, view.locate, view.tree.queues, step.queue_path) for c in step.causes)
