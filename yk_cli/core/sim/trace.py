"""The simulator's vocabulary: trace events, why an ask is still pending, and the trace of a whole run.

Stage of the core's scheduling cycle: none; what the run records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.ordering.priority import PriorityChange
from yk_cli.core.resources import Resource
from yk_cli.core.sim.unmodelled import Unmodelled

ALLOCATE = "allocate"
"""An ask was placed on a node (YuniKorn's Allocated or AllocatedReserved)."""
COMPLETE = "complete"
"""An allocation finished (its duration ran out) and gave its resources back."""
RESERVE = "reserve"
"""An ask older than 2 s that fits no node reserved the best-fitting node (YuniKorn's Reserved)."""
UNRESERVE = "unreserve"
"""A reservation was removed without an allocation on that node."""
PREEMPT = "preempt"
"""Allocations were preempted to make room for an ask; the node is reserved for it until they are gone."""
QUOTA_PREEMPT = "quota-preempt"
"""Quota preemption (YuniKorn 1.8+): allocations of a queue's subtree were preempted to bring it under its max."""
PLACEHOLDER = "placeholder"
"""Gang scheduling: a placeholder of a task group was placed on a node (an allocation of the shim's placeholder pod)."""
REPLACE = "replace"
"""Gang scheduling: a real pod took the place of one of its task group's placeholders (tryPlaceholderAllocate)."""
PLACEHOLDER_RELEASE = "placeholder-release"
"""Gang scheduling: a real pod larger than its task group's placeholders had them released unused."""
GANG_TIMEOUT = "gang-timeout"
"""Gang scheduling: an application's placeholder timeout ran out; its placeholders were released (`victims`)."""
GANG_TYPES = (PLACEHOLDER, REPLACE, PLACEHOLDER_RELEASE, GANG_TIMEOUT)
REPLACES = "takes the place of placeholder "
"""How a REPLACE step's reason starts: `takes the place of placeholder <name> (task group <group>)...`."""
EVENT_TYPES = (ALLOCATE, COMPLETE, RESERVE, UNRESERVE, PREEMPT, QUOTA_PREEMPT, *GANG_TYPES)
ARRIVE = "arrive"
"""An ask reached the scheduler after the start of the run: a row of the reports, not a step (see Arrival)."""

# Why an ask is still pending: stable codes, with the message built by `PendingAsk`.
NOT_SUBMITTED = "not-submitted"
"""The ask (or its application) arrives after the end of the run."""
UNPLACED = "unplaced"
"""The application has no queue: placement rules rejected it or none could run."""
INVALID_ASK = "invalid-ask"
"""The ask requests no resources: YuniKorn refuses it (`invalid ask added to app`)."""
QUEUE_MISSING = "queue-missing"
"""The application names a queue that does not exist or is not a leaf."""
MAX_APPLICATIONS = "max-applications"
"""The application has not started and a queue on its path runs maxapplications applications."""
USER_MAX_APPLICATIONS = "user-max-applications"
"""The application has not started and its user or group runs its maxapplications applications (`limits:`)."""
USER_QUOTA = "user-quota"
"""The ask does not fit its user's or group's headroom (`limits:` maxresources minus usage)."""
STATE_FILTER = "state-filter"
"""stateaware (YuniKorn 1.5 and older) lets only one new application start at a time."""
BACKOFF = "backoff"
"""Its application is in backoff (application.unschedasks.backoff): skipped until its deadline."""
QUEUE_MAX = "queue-max"
"""The ask does not fit the headroom (max minus allocated) of a queue on its path."""
CLUSTER_FULL = "cluster-full"
"""The ask does not fit what is left of the whole cluster (root's max: the sum of the nodes, minus what runs)."""
NODE_TOO_SMALL = "node-too-small"
"""No schedulable node is large enough, even empty."""
NODE_RESERVED = "node-reserved"
"""A node with room for the ask is reserved by another ask."""
NO_NODE_FITS = "no-node-fits"
"""No unreserved node has enough free resources."""
NODE_PREDICATES = "node-predicates"
"""No schedulable node passes the ask's node predicates (taints, nodeSelector, node affinity, nodeName)."""
RESERVED = "reserved"
"""The ask holds a reservation and waits for that node to free up."""
STOPPED = "stopped"
"""The ask could be placed, but the run stopped first (--until or --max-steps)."""
GANG_REJECTED = "gang-rejected"
"""Its gang application was rejected: placeholders larger than the queue's max, or a queue that is not fifo."""
GANG_RESERVING = "gang-reserving"
"""The shim holds the real pod back while its gang's placeholders are being placed."""
GANG_FAILED = "gang-failed"
"""Its gang (gangSchedulingStyle Hard) timed out and failed: the shim never schedules its pods."""
REASON_CODES = (
    NOT_SUBMITTED,
    UNPLACED,
    INVALID_ASK,
    QUEUE_MISSING,
    MAX_APPLICATIONS,
    USER_MAX_APPLICATIONS,
    STATE_FILTER,
    BACKOFF,
    USER_QUOTA,
    QUEUE_MAX,
    CLUSTER_FULL,
    NODE_TOO_SMALL,
    NODE_RESERVED,
    NO_NODE_FITS,
    NODE_PREDICATES,
    RESERVED,
    STOPPED,
    GANG_REJECTED,
    GANG_RESERVING,
    GANG_FAILED,
)


@dataclass(frozen=True, slots=True)
class Victim:
    """An allocation preempted to make room for an ask (or to bring a queue under its max)."""

    allocation: str
    application: str
    queue_path: str
    node: str
    priority: int = 0
    resources: Resource = field(default_factory=dict)
    restarted_as: str = ""
    """restartOnPreemption: the name of the fresh ask submitted for it ('' when it does not restart)."""


@dataclass(slots=True)
class TraceEvent:
    """One thing that happened in the run, in order: an allocation, a completion, a reservation, ...

    Treat it as immutable. It is not a frozen dataclass only because a run creates hundreds of thousands and a
    frozen one takes five times longer to build.
    """

    step: int
    """1-based position in the trace."""
    time: int
    """Nanoseconds from the start of the run."""
    type: str
    """One of EVENT_TYPES."""
    queue_path: str
    application: str
    ask: str
    """The ask (allocate, reserve, unreserve, preempt) or allocation (complete) name."""
    priority: int | None
    """The ask's own priority (None where it does not apply)."""
    node: str
    resources: Resource = field(default_factory=dict)
    priority_changes: tuple[PriorityChange, ...] = ()
    """Queue priorities that changed because of this event, leaf first; root is never listed."""
    victims: tuple[Victim, ...] = ()
    reason: str = ""
    """A short explanation: reserved node, reservation moved, ..."""


@dataclass(frozen=True, slots=True)
class Arrival:
    """An ask that reached the scheduler after the start of the run (its or its application's submitTime).

    Not a step: steps are scheduling outcomes, and their numbers (--max-steps, yk explain, preemption loops) keep
    their meaning. Asks there at the start (time 0) are not listed; neither are the fresh asks of restarted
    victims, which their preempt step names.
    """

    time: int
    """Nanoseconds from the start of the run (> 0)."""
    after_step: int
    """How many steps the trace had when the ask arrived: it comes between steps after_step and after_step + 1."""
    application: str
    ask: str
    queue_path: str
    priority: int
    resources: Resource = field(default_factory=dict)
    priority_changes: tuple[PriorityChange, ...] = ()
    """Queue priorities the arrival raised, leaf first; root is never listed."""


@dataclass(frozen=True, slots=True)
class PendingAsk:
    """An ask still waiting when the run ends, with the reason it waits."""

    application: str
    ask: str
    queue_path: str
    """The leaf queue ('' when the application has none)."""
    priority: int
    resources: Resource
    code: str
    """One of REASON_CODES."""
    reason: str
    """The reason in words, naming the queue, node or ask responsible."""
    submit_time: int = 0
    where: tuple[str | int, ...] = ()
    """The config document path of the limit entry the reason names (reports add its `file:line`), else ()."""
    node_reasons: tuple[tuple[str, int], ...] = ()
    """For an ask with node predicates: kube-scheduler's reasons with the number of nodes each stopped it on, in
    the order of its message ("0/5 nodes are available: ..."); () otherwise."""


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts over the whole run."""

    allocations: int = 0
    completions: int = 0
    reservations: int = 0
    preemptions: int = 0
    pending: int = 0
    steps: int = 0
    end_time: int = 0
    """Nanoseconds: the virtual time of the last event processed."""
    nodes: int = 0
    applications: int = 0
    asks: int = 0
    stopped_by: str = "idle"
    """idle (nothing left to do), until, or max-steps."""


# What kept a running allocation from being a victim of one preemption attempt (or made it one).
VICTIM = "victim"
"""Preempted for the ask."""
SAME_QUEUE = "same-queue"
"""Law 3 (stronger in the core): never a victim of an ask in its own leaf queue."""
OUTSIDE_FENCE = "outside-fence"
"""Law 7: outside the subtree of the ask's preemption fence (preemption.policy fence, root, or a full max)."""
PREEMPTION_DISABLED = "preemption-disabled"
"""Its leaf's preemption.policy is disabled (inherited by static children): its pods are never victims."""
NOT_OVER_GUARANTEE = "queue-not-over-guarantee"
"""Law 5: its leaf is not over its guarantee (remaining guarantee >= 0 in every type)."""
HIGHER_PRIORITY = "higher-priority"
"""Law 6: its priority is above the ask's, after offsets and priority fences on the way."""
PRIORITY_FENCED = "priority-fenced"
"""Below a priority.policy fence queue whose offset is above the ask's priority."""
REQUIRED_NODE = "required-node"
"""A DaemonSet pod (required node): never a victim of queue preemption."""
NO_SHARED_RESOURCE = "no-shared-resource"
"""It holds none of the resource types the ask wants."""
NODE_UNAVAILABLE = "node-unavailable"
"""Its node is unschedulable, reserved by another ask, or too small for the ask."""
ASK_QUEUE_GUARANTEE = "ask-queue-guarantee"
"""Law 4: the ask's queue would go over its guarantee (the attempt failed the queue guarantees check)."""
NOT_NEEDED = "not-needed"
"""Eligible, but the victims chosen before it already made room (or its queue would no longer be over guarantee)."""
OTHER_NODE = "other-node"
"""Eligible, but another node was chosen (fewer victims, or no opted-out pods and originators among them)."""
DOES_NOT_HELP = "does-not-help"
"""Eligible, but no node could be freed with the eligible victims: the attempt failed."""
CANDIDATE_VERDICTS = (
    VICTIM,
    SAME_QUEUE,
    OUTSIDE_FENCE,
    PREEMPTION_DISABLED,
    NOT_OVER_GUARANTEE,
    HIGHER_PRIORITY,
    PRIORITY_FENCED,
    REQUIRED_NODE,
    NO_SHARED_RESOURCE,
    NODE_UNAVAILABLE,
    ASK_QUEUE_GUARANTEE,
    NOT_NEEDED,
    OTHER_NODE,
    DOES_NOT_HELP,
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One running allocation an attempt looked at, and its verdict."""

    allocation: str
    application: str
    queue_path: str
    node: str
    priority: int
    verdict: str
    """One of CANDIDATE_VERDICTS."""
    detail: str = ""
    """The numbers behind the verdict; a note where the core departs from the design's laws."""


@dataclass(frozen=True, slots=True)
class PreemptionAttempt:
    """One preemption try of an ask (its preconditions passed), successful or not."""

    time: int
    after_step: int
    """The number of trace steps before the try (the preempt step itself is after_step + 1 when it succeeds)."""
    application: str
    ask: str
    queue_path: str
    priority: int
    branch: str
    """headroom (the ask did not fit a queue's headroom), node (no node fits) or required-node (DaemonSet)."""
    fence: str
    """The queue whose subtree the victim search covers (root, a preemption fence or a full max)."""
    outcome: str
    """preempted, or the core's reason for failing (its allocation-log words)."""
    node: str = ""
    candidates: tuple[Candidate, ...] = ()
    """Every running allocation looked at (only with explain_preemption)."""


NODE_CHOSEN, NODE_FITS, NODE_FAILS = "chosen", "fits", "fails"
"""NodeVerdict.verdict: the node the pod went to, a node that could have taken it too, a node that could not."""


@dataclass(frozen=True, slots=True)
class NodeVerdict:
    """One node's verdict on a pod at one moment (yk explain POD)."""

    node: str
    verdict: str
    """NODE_CHOSEN, NODE_FITS or NODE_FAILS."""
    plugin: str = ""
    """What stopped it: a Filter plugin (kube-scheduler's name), or `reserved by app/ask`; '' when it fits."""
    reasons: tuple[str, ...] = ()
    """kube-scheduler's reason texts (one per short resource for NodeResourcesFit)."""
    order: int = 0
    """Its place in the partition's node order then (1 first: the order nodes are tried in); 0 when it is not
    tried at all (cordoned, or reserved for another ask)."""


@dataclass(frozen=True, slots=True)
class NodeView:
    """Every node's verdict on one pod: when it was placed (or reserved a node), else at the end of the run."""

    application: str
    ask: str
    time: int
    step: int
    """The step that placed it (0 when it is still pending: the view is the end of the run's)."""
    event: str
    """allocate, replace, reserve, or '' for the end of the run."""
    nodes: tuple[NodeVerdict, ...]


@dataclass(frozen=True, slots=True)
class Trace:
    """The result of a dry run: the ordered events, what is still pending and a summary."""

    events: tuple[TraceEvent, ...]
    pending: tuple[PendingAsk, ...]
    summary: Summary
    partition: str = "default"
    attempts: tuple[PreemptionAttempt, ...] = ()
    """Every preemption try, in order."""
    explained: bool = False
    """The attempts carry every candidate's verdict (explain_preemption)."""
    notes: tuple[str, ...] = ()
    """What the reader must know about the run as a whole (e.g. a queue that stays over its max)."""
    unmodelled: tuple[Unmodelled, ...] = ()
    """Features the config or workload use that the dry run ignores, with the queues or pods concerned."""
    arrivals: tuple[Arrival, ...] = ()
    """Asks that arrived after the start, in order."""
    queues: tuple[str, ...] = ()
    """Every queue path of the partition at the end of the run (dynamic queues included), root first."""
    node_view: NodeView | None = None
    """The watched pod's node verdicts (SimulationOptions.watch_nodes), if any."""


def replaced_placeholder(event: TraceEvent) -> str:
    """The placeholder a REPLACE step's real pod took the place of ("" for any other step)."""
    if event.type != REPLACE or not event.reason.startswith(REPLACES):
        return ""
    return event.reason[len(REPLACES) :].split(" ", 1)[0]
