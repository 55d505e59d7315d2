"""Hooks into the actions for explanations: what the allocate loop popped and every victim selection, as it happened.

An `Observer` given to `Actions` is called at the exact moments of the loop, with the live heaps, so that whoever
listens can read the session's state then (queue shares move as the loop goes). The default methods do nothing;
without an observer the actions run exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from yk_cli.core.volcano.framework import Framework, VictimStep
from yk_cli.core.volcano.heap import PriorityQueue
from yk_cli.core.volcano.scoring import NodeScore
from yk_cli.core.volcano.session import JobInfo, QueueInfo, Session, TaskInfo


@dataclass(slots=True)
class VictimSelection:
    """One try to make room for `preemptor` on `node`: the candidates, what each plugin answered, the victim set, the
    victim order (BuildVictimsPriorityQueue, first evicted first) and what was evicted in this try."""

    action: str
    preemptor: TaskInfo
    node: str
    excluded: list[tuple[TaskInfo, str]] = field(default_factory=list)
    """Tasks on the node that were never candidates, with the action's reason."""
    candidates: list[TaskInfo] = field(default_factory=list)
    trail: list[VictimStep] = field(default_factory=list)
    victims: list[TaskInfo] | None = None
    order: list[TaskInfo] = field(default_factory=list)
    evicted: list[TaskInfo] = field(default_factory=list)
    outcome: str = ""


class Observer:
    """Called by the actions; subclass and override what you need."""

    def opened(self, ssn: Session, fw: Framework) -> None:
        """The session is open and its plugins built; no action has run yet."""

    def allocate_dropped(self, step: int, queue: QueueInfo, queues: PriorityQueue[QueueInfo]) -> None:
        """allocate popped `queue`, found it Overused and dropped it for the rest of the action."""

    def allocate_popped(
        self, step: int, queue: QueueInfo, job: JobInfo, queues: PriorityQueue[QueueInfo], jobs: PriorityQueue[JobInfo]
    ) -> None:
        """allocate popped `queue`, then `job` from it (`queues` and `jobs` hold the others, at this moment)."""

    def allocate_task(self, step: int, job: JobInfo, task: TaskInfo) -> None:
        """allocate popped `task` of `job` (the pop numbered `step`)."""

    def victims(self, selection: VictimSelection) -> None:
        """reclaim or preempt finished one victim selection on one node."""

    def no_node(self, action: str, task: TaskInfo, verdicts: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        """allocate or backfill found no node for `task`: every node with the reasons it fails the task
        (Insufficient <resource>, or the predicates' statuses in kube-scheduler's words)."""

    def watching(self, task: TaskInfo) -> bool:
        """Whether node_chosen wants every candidate's scores for `task` (costly: asked once per choice)."""
        return False

    def node_chosen(self, action: str, task: TaskInfo, pipelined: bool, scores: Sequence[NodeScore]) -> None:
        """allocate, backfill or preempt chose a node for a watched task: every candidate of the gradient it was
        chosen from with its scores, best first (the chosen node first; equal totals in name order)."""
