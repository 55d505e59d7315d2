"""The vocabulary of a config diff: each kind of change, with where it is in NEW and where its value came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Problem, Span
from yk_cli.core.diff.metrics_diff import MetricsChanges
from yk_cli.core.sim.trace import Summary


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a setting's value came from on one side: set here, inherited, a child template or the default."""

    source: str
    """set | inherited | template | default."""
    origin: str = ""
    """The queue the text was written on (or whose child template supplied it); '' for a default."""
    line: int = 0
    """The line of that text in the side's file (0: not in the file)."""
    fallback: bool = False
    """YuniKorn rejected the text and uses the default."""
    text: str | None = None
    """The text as written (None for a default)."""


@dataclass(frozen=True, slots=True)
class SettingChange:
    """An effective setting of one queue (or of the partition) whose value changed."""

    partition: str
    queue_path: str
    """'' for a partition-level setting."""
    key: str
    """A property key, resources.guaranteed, resources.max, maxapplications, submitacl, adminacl, kind, limits,
    childtemplate.<key>, or a partition key (placementrules, preemption.enabled, nodesortpolicy.type, ...)."""
    old: str
    new: str
    old_from: Provenance
    new_from: Provenance
    span: Span | None
    """The text in NEW that changed it; for a key removed, the place in NEW it was removed from (the mapping that
    held it, else the queue's own line)."""
    removed: bool = False
    """The text behind the old value is gone from NEW (the value is now a default)."""


@dataclass(frozen=True, slots=True)
class QueueChange:
    """A configured queue added, removed or moved (found at another path under the same name)."""

    partition: str
    kind: str
    """added | removed | moved."""
    queue_path: str
    """The path in NEW (added, moved) or in OLD (removed)."""
    old_path: str = ""
    """Moved: the path in OLD."""
    is_leaf: bool = True
    below: int = 0
    """How many queues below it came (or went, or moved) with it."""
    span: Span | None = None
    """Its line in NEW (added, moved), or its former parent's (removed)."""


@dataclass(frozen=True, slots=True)
class ProblemChanges:
    """Problems as `yk validate` reports them on each side: those only NEW has, and those only OLD had."""

    introduced: tuple[Problem, ...] = ()
    fixed: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class ConfigChanges:
    """Everything that changed in the config itself."""

    problems: ProblemChanges = field(default_factory=ProblemChanges)
    settings: tuple[SettingChange, ...] = ()
    queues: tuple[QueueChange, ...] = ()
    partitions_added: tuple[str, ...] = ()
    partitions_removed: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """Nothing changed."""
        p = self.problems
        return not (
            p.introduced or p.fixed or self.settings or self.queues or self.partitions_added or self.partitions_removed
        )


@dataclass(frozen=True, slots=True)
class PriorityChange:
    """One ask whose effective priority (as seen from root) differs, and the first step of its breakdown that does."""

    application: str
    ask: str
    queue_path: str
    """Its leaf in NEW."""
    old: int
    new: int
    step_queue: str
    """The queue of the step that changed it ('' when the ask's own priority or its path changed)."""
    old_step: str
    new_step: str
    span: Span | None = None
    """The line in NEW behind the changed step (an offset or a policy), when it is written there; for a key removed,
    the place in NEW it was removed from."""
    cause: str = ""
    """The property of the step's queue whose change made the difference (priority.policy, priority.offset, ...)."""
    removed: bool = False
    """That property is no longer written in NEW (span: where it was removed from)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where an application lands: a leaf queue, or rejected with the reason."""

    queue_path: str | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class PlacementChange:
    """An application that lands in another queue, or is now (no longer) rejected."""

    application: str
    old: Placement
    new: Placement


@dataclass(frozen=True, slots=True)
class AskRun:
    """One ask in one dry run: when and where it started, or why it still waits at the end."""

    queue_path: str
    start: int | None
    """Nanoseconds (None: pending at the end)."""
    node: str = ""
    step: int = 0
    code: str = ""
    reason: str = ""


LATER = "later"
EARLIER = "earlier"
NOW_WAITS = "now-waits"
NO_LONGER_WAITS = "no-longer-waits"
NODE = "node"
REASON = "reason"
ASK_CHANGES = (LATER, EARLIER, NOW_WAITS, NO_LONGER_WAITS, NODE, REASON)


@dataclass(frozen=True, slots=True)
class AskRunChange:
    """An ask present in both dry runs whose start, node or pending reason differs."""

    application: str
    ask: str
    old: AskRun
    new: AskRun
    changes: tuple[str, ...]
    """Some of ASK_CHANGES: later / earlier (both start), now-waits / no-longer-waits, node, reason (both wait)."""

    @property
    def shift(self) -> int | None:
        """Nanoseconds the start moved (positive: later); None unless it starts in both runs."""
        if self.old.start is None or self.new.start is None:
            return None
        return self.new.start - self.old.start


@dataclass(frozen=True, slots=True)
class OrderChange:
    """A leaf queue whose asks (those that start in both runs, there) start in another order."""

    queue_path: str
    asks: int
    """How many asks are compared."""
    moved: int
    """How many of them are at another position."""
    first: int
    """0-based position of the first difference."""
    old: tuple[str, ...]
    """Up to five asks from that position on, in OLD's order."""
    new: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reorder:
    """An ask that now starts ahead of asks it used to follow, or behind asks it used to lead, among the asks that
    start at the same virtual time as it in each run (when the times differ, the shift says it all)."""

    application: str
    ask: str
    old: AskRun
    new: AskRun
    ahead: tuple[str, ...]
    """`application/ask` of asks it used to follow and now starts ahead of: the first few, in NEW's order."""
    ahead_total: int
    behind: tuple[str, ...]
    """`application/ask` of asks it used to lead and now starts behind: the first few, in NEW's order."""
    behind_total: int


@dataclass(frozen=True, slots=True)
class Preemption:
    """One victim of one preemption step: who asked (for quota preemption: the queue over its max) and who was hit."""

    type: str
    """preempt or quota-preempt (or a newer step kind that has victims; gang placeholder releases are not counted)."""
    time: int
    preemptor_application: str
    preemptor_ask: str
    preemptor_queue: str
    victim_application: str
    victim_allocation: str
    victim_queue: str
    node: str


@dataclass(frozen=True, slots=True)
class EventKindChange:
    """Steps of one kind (complete, reserve, unreserve, or a kind this version does not know) on each side."""

    type: str
    old_count: int
    new_count: int
    added: tuple[str, ...]
    """`application/ask` of steps only NEW has (the first ten)."""
    removed: tuple[str, ...]
    added_total: int = 0
    removed_total: int = 0


@dataclass(frozen=True, slots=True)
class RunChanges:
    """The two dry runs compared."""

    old_summary: Summary
    new_summary: Summary
    asks: tuple[AskRunChange, ...] = ()
    orders: tuple[OrderChange, ...] = ()
    preemptions_added: tuple[Preemption, ...] = ()
    preemptions_removed: tuple[Preemption, ...] = ()
    events: tuple[EventKindChange, ...] = ()
    only_old: int = 0
    """Asks of the OLD run that NEW never had (fresh asks of preempted pods)."""
    only_new: int = 0
    reorders: tuple[Reorder, ...] = ()
    """Asks in another start order at the same virtual time, the ones that moved most first."""

    @property
    def empty(self) -> bool:
        """The runs agree on every ask, order, preemption and step."""
        return not (
            self.asks
            or self.orders
            or self.reorders
            or self.preemptions_added
            or self.preemptions_removed
            or self.events
        )


@dataclass(frozen=True, slots=True)
class WorkloadChanges:
    """What the config change does to one workload: placements, effective priorities and the dry run."""

    placements: tuple[PlacementChange, ...] = ()
    priorities: tuple[PriorityChange, ...] = ()
    run: RunChanges | None = None
    """None when a side could not run (YuniKorn would refuse its config)."""
    skipped: str = ""
    """Why the dry runs were not compared."""
    metrics: MetricsChanges | None = None
    """Both runs' metrics (yk diff --metrics, a metrics --fail-on condition, or the HTML report)."""


@dataclass(frozen=True, slots=True)
class Diff:
    """The whole diff of OLD and NEW (and, with a workload, what changes for it)."""

    old: str
    new: str
    config: ConfigChanges
    workload: WorkloadChanges | None = None
    workload_source: str = ""
    partition: str = ""
    """The partition the workload ran in."""

    @property
    def empty(self) -> bool:
        """No change at all."""
        w = self.workload
        workload_empty = w is None or not (w.placements or w.priorities or (w.run is not None and not w.run.empty))
        return self.config.empty and workload_empty
