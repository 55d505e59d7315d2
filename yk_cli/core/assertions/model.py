"""The policy a team writes (named assertions and the pod priority range) and what checking one assertion found."""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Path, Span
from yk_cli.core.resources import Resource

CANNOT_PREEMPT = "cannot-preempt"
OUTRANKS = "outranks"
FENCED = "fenced"
GUARANTEED_AT_LEAST = "guaranteed-at-least"
MAX_AT_MOST = "max-at-most"
STARTS_WITHIN = "starts-within"
NEVER_PENDING = "never-pending"
CAN_SUBMIT = "can-submit"
CANNOT_SUBMIT = "cannot-submit"

STATIC = "static"
DYNAMIC = "dynamic"
BOTH = "both"

KINDS: dict[str, tuple[str, ...]] = {
    CANNOT_PREEMPT: (STATIC, DYNAMIC),
    OUTRANKS: (STATIC, DYNAMIC),
    FENCED: (STATIC,),
    GUARANTEED_AT_LEAST: (STATIC,),
    MAX_AT_MOST: (STATIC,),
    STARTS_WITHIN: (DYNAMIC,),
    NEVER_PENDING: (DYNAMIC,),
    CAN_SUBMIT: (STATIC,),
    CANNOT_SUBMIT: (STATIC,),
}
"""Every assertion kind and the ways it can be checked: on the config alone (static), on the dry run (dynamic)."""

KIND_SUMMARIES: dict[str, str] = {
    CANNOT_PREEMPT: "no pod of one queue can preempt a pod of another",
    OUTRANKS: "every ask of one queue has a higher effective priority than any ask of another",
    FENCED: "a priority and/or preemption fence on the queue's path",
    GUARANTEED_AT_LEAST: "the queue's guarantee is at least the resources given",
    MAX_AT_MOST: "the queue can never use more than the resources given (its max or an ancestor's)",
    STARTS_WITHIN: "every ask of a queue, application or ask starts within a time of its arrival in the dry run",
    NEVER_PENDING: "every ask of the queue starts the moment it arrives in the dry run",
    CAN_SUBMIT: "a user or group can place applications in the queue (ACLs and placement rules)",
    CANNOT_SUBMIT: "a user or group cannot place applications in the queue (ACLs)",
}

FENCE_KINDS = ("priority", "preemption", "both")

DEFAULT_RANGE = (0, 1_000_000_000)
"""Pod priorities assumed when neither the policy nor a cluster dump gives a range: 0 (no PriorityClass) up to the
highest value Kubernetes lets a user PriorityClass have."""


@dataclass(frozen=True, slots=True)
class QueueRef:
    """A queue path as the policy names it: under which key, and where its value is in the policy file."""

    key: str
    """The policy key: from, victims, queue or over."""
    path: str
    span: Span


@dataclass(frozen=True, slots=True)
class Assertion:
    """One named assertion of a policy file, with the position of its entry there."""

    name: str
    kind: str
    span: Span
    """Where the assertion's entry starts in the policy file."""
    check: str = ""
    """static, dynamic or both as written; '' for the default (static, and dynamic too with a workload)."""
    queue: str = ""
    """The queue it is about (cannot-preempt: from; outranks: queue; starts-within: the queue, if by queue)."""
    other: str = ""
    """cannot-preempt: victims; outranks: over."""
    fence: str = "both"
    """fenced: which fence is required."""
    resources: Resource = field(default_factory=dict)
    """guaranteed-at-least / max-at-most, in internal units."""
    target: str = ""
    """starts-within: queue, application or ask."""
    target_name: str = ""
    time: int = 0
    """starts-within: nanoseconds."""
    user: str = ""
    groups: tuple[str, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)
    description: str = ""
    queue_refs: tuple[QueueRef, ...] = ()
    """Every queue path the assertion names, with its place in the policy file (checked against the config)."""

    def modes(self, with_workload: bool) -> tuple[str, ...]:
        """The ways this assertion is checked in a run with or without a workload."""
        supported = KINDS[self.kind]
        if len(supported) == 1:
            return supported
        if self.check == STATIC:
            return (STATIC,)
        if self.check == DYNAMIC:
            return (DYNAMIC,)
        if self.check == BOTH or with_workload:
            return (STATIC, DYNAMIC)
        return (STATIC,)


@dataclass(frozen=True, slots=True)
class Policy:
    """A policy file: its assertions, the pod priority range it declares (if any) and the partition it is about."""

    file: str
    assertions: tuple[Assertion, ...]
    priority_range: tuple[int, int] | None = None
    range_span: Span | None = None
    partition: str | None = None


@dataclass(frozen=True, slots=True)
class PriorityRange:
    """The pod priorities a static proof covers, and where the range comes from."""

    low: int
    high: int
    source: str


@dataclass(frozen=True, slots=True)
class Evidence:
    """One line of a proof, a counter-example or a dry-run finding, with the queue-config text behind it."""

    text: str
    config_path: Path | None = None
    """Document path in the queue config of the setting it rests on; None when no config text is behind it."""
    depth: int = 1
    """Indentation under the assertion's line: 1 for a finding, 2 for a step of the chain behind it."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What checking one assertion in one mode found."""

    assertion: Assertion
    mode: str
    passed: bool
    message: str
    evidence: tuple[Evidence, ...] = ()
    blame: Path | None = None
    """For a failure: the queue-config text that breaks the rule (None: the config as a whole)."""
    hint: str = ""
    counter_example: dict[str, object] | None = None
    """For a failure: the pods, asks or dry-run step that show it, as plain data (for JSON)."""
