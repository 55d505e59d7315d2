"""Set up a dry run: resource vectors, nodes, queues, applications, running allocations and arrival events.

Stage of the core's scheduling cycle: none; the partition as it stands before the first cycle (queues, nodes,
running allocations, applications placed as AddApplication places them), and RunState, the state every stage
shares, split into its parts: the model at the top, then the clock (events.py), counters, caches and waiting asks.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.ordering import policies
from yk_cli.core.ordering.priority import PriorityCache
from yk_cli.core.predicates.classes import NodeGroups
from yk_cli.core.predicates.model import NodeFacts, PodSpec
from yk_cli.core.predicates.tracker import PodTracker
from yk_cli.core.sim.events import Clock, Reservation
from yk_cli.core.sim.nodes import Fit, NodeIndex, NodeState
from yk_cli.core.sim.state import (
    INF,
    AllocState,
    AppState,
    AskState,
    QState,
    Size,
    fit_of,
    vector,
)
from yk_cli.core.sim.trace import QUEUE_MISSING, UNPLACED, PreemptionAttempt
from yk_cli.core.sim.ugm import DEFAULT_USER, Ugm, limit_config
from yk_cli.core.workload.checks import may_create_queues
from yk_cli.core.workload.model import Application, Workload

if TYPE_CHECKING:
    from yk_cli.core.config.placement import Placement
    from yk_cli.core.sim.backoff import BackoffState
    from yk_cli.core.sim.gang import GangState


@dataclass(eq=False, slots=True)
class Counters:
    """Tallies of what the run did (the summary's figures) and the sequence numbers and change counters it keeps."""

    allocations: int = 0
    completions: int = 0
    reservations: int = 0
    preemptions: int = 0
    """Preemption outcomes (an ask's victims released and the node reserved for it)."""
    victims: int = 0
    restarts: int = 0
    """Asks created for preempted pods with restartOnPreemption."""
    steps: int = 0
    """Trace steps so far (kept by the run)."""
    nres: int = 0
    """Reservations held now."""
    res_seq: int = 0
    """Counter giving applications their reservation order."""
    alloc_seq: int = 0
    """Creation order of allocations (running ones first, in file order)."""
    gen: int = 0
    """Counts changes that can alter a preemption attempt's result: allocations, releases, reservations."""


@dataclass(eq=False, slots=True)
class Caches:
    """What the engine remembers only to save work: each entry is recomputed (or dropped) when it no longer holds."""

    fits: dict[Size, Fit] = field(default_factory=dict)
    """Size vector -> its non-zero pairs (RunState.fit)."""
    reserve_dead: set[Size] = field(default_factory=set)
    """Sizes no unreserved node is large enough for, so an old ask of that size cannot reserve."""
    vectors: dict[int, Size] = field(default_factory=dict)
    """Set-up only: resource map object id -> vector (asks expanded from one entry share their map)."""
    nodes_by_name: list[NodeState] = field(default_factory=list)
    """The nodes in name order (filled on first use by the preemption node search)."""
    search_cache: dict[tuple[object, ...], tuple[Any, ...]] = field(default_factory=dict)
    """(leaf, priority, type mask, fence) -> the last victim search there (preemption.Attempt._find_victims), valid
    while its usage scope's sver is unchanged."""
    search_kept: int = 0
    """Entries left in search_cache after its last purge of stale searches (the next purge waits for it to double)."""
    failed_attempts: dict[tuple[object, ...], tuple[Any, ...]] = field(default_factory=dict)
    """(leaf, priority, size, branch, reserved node) -> (dependency, its counter then, verdict, fence, candidates)
    of a failed attempt: a twin ask fails the same way while the counter has not moved."""
    res_maps: dict[Size, dict[str, int]] = field(default_factory=dict)
    """Size vector -> the core's resource map of it (preemption works on maps)."""
    oldest_reservation: tuple[int | None] | None = None
    """(creation time of the oldest ask holding a reservation, or None when none does); None: not known since the
    last reservation change."""


@dataclass(eq=False, slots=True)
class Waiting:
    """Asks set aside for a later stage of the cycle or a later cycle (each list's owner named below)."""

    young: list[AskState] = field(default_factory=list)
    """Asks that arrived at the current time too young to reserve (commit.schedule_old)."""
    dormant: list[AskState] = field(default_factory=list)
    """Asks whose 15 s retry wait ended while nothing changed since their last try (preconditions.py)."""
    dormant_gen: int = 0
    """Counters.gen when the dormant asks were last looked at (preconditions.py)."""
    woken: list[AskState] = field(default_factory=list)
    """Dormant asks whose queue's subtree usage changed: their next try is due (preconditions.py)."""
    required_waiting: list[AskState] = field(default_factory=list)
    """Required-node asks that reserved their node and do not fit it yet: the next cycle tries to preempt for them
    (run.Simulation._required_preemptions)."""
    expiring: list[Reservation] = field(default_factory=list)
    """(reserved ask, reservation time) past the reservation's 2 x 60 min wait: cancelled once the ask fails a headroom
    (timeouts.py)."""


@dataclass(eq=False, slots=True)
class RunState:
    """Everything a dry run mutates, built once by build_state: the model (partition, queues, nodes, applications,
    asks) at the top, and its parts: the clock, the counters, the caches, the waiting asks and the subsystems."""

    # --- the model ---
    partition: PartitionConfig
    tree: QueueTree
    types: list[str]
    width: int
    nodes: list[NodeState]
    node_by_name: dict[str, NodeState]
    index: NodeIndex
    root: QState
    queues: dict[str, QState]
    apps: list[AppState]
    asks: list[AskState]
    cache: PriorityCache
    legacy: bool
    """YuniKorn 1.5 or older: stateaware filters applications and apps pass through Starting."""
    type_index: dict[str, int] = field(default_factory=dict)
    """Resource type name -> its place in the run's vectors."""
    reserved_nodes: dict[NodeState, None] = field(default_factory=dict)
    """Nodes holding a reservation (insertion-ordered set)."""
    restart_counts: dict[tuple[str, str], int] = field(default_factory=dict)
    """(application, original pod) -> its restarts so far: restarts are numbered per pod (.r1, .r2, ...)."""
    restart_origin: dict[tuple[str, str], str] = field(default_factory=dict)
    """(application, restarted ask) -> the original pod it stands for (a restart of a restart counts for it)."""
    groups: NodeGroups | None = None
    """The static node predicates: which nodes each pod spec may go to (sizes of constrained asks carry it)."""
    tracker: PodTracker | None = None
    """The pod-dependent predicates (host ports, pod affinity, topology spread): None when no pod of the run has
    any, so nothing is tracked."""
    # --- how the run models the core (set once) ---
    preemption_enabled: bool = True
    """The partition's preemption.enabled (queue preemption; required-node preemption ignores it)."""
    max_fence: bool = False
    """YuniKorn after 1.8: a queue whose max the ask would exceed stops the victim search (YUNIKORN-3241)."""
    explain: bool = False
    """Record every candidate's verdict in each preemption attempt (yk simulate --explain-preemption)."""
    every_retry: bool = False
    """Check mode for tests: no dormant asks and no shared failed tries (every 15 s retry runs in full); the same
    steps must come out, only more tries."""
    # --- the parts ---
    clock: Clock = field(default_factory=Clock)
    """The virtual time, the event heap and the arrivals (events.py; driven by run.py)."""
    counters: Counters = field(default_factory=Counters)
    caches: Caches = field(default_factory=Caches)
    waiting: Waiting = field(default_factory=Waiting)
    attempt_log: list[PreemptionAttempt] = field(default_factory=list)
    """Every preemption try as a trace.PreemptionAttempt."""
    gang: GangState | None = None
    """Gang scheduling (gang.py): None when no application has task groups."""
    ugm: Ugm | None = None
    """The user-group manager when the partition sets user or group limits (see ugm.py)."""
    backoff: BackoffState | None = None
    """Application backoff (backoff.py): None when no leaf sets application.unschedasks.backoff."""

    @property
    def now(self) -> int:
        """The virtual time (clock.now), for readers outside the engine."""
        return self.clock.now

    def fit(self, size: Size) -> Fit:
        """The cached non-zero pairs of a size."""
        fits = self.caches.fits
        found = fits.get(size)
        if found is None:
            found = fits[size] = fit_of(size)
        return found


def _place(
    partition: PartitionConfig,
    tree: QueueTree,
    apps: tuple[Application, ...],
    known: Mapping[str, Placement] | None,
) -> dict[str, tuple[str, str]]:
    """Place every application by the partition's rules, as YuniKorn does (a named queue is only the `provided`
    rule's input); app id -> (queue path, '') or ('', why not). The known placements (every application's, made
    on this tree) are taken as they are when no rule can create a queue: then the order of placing changes
    nothing."""
    from yk_cli.core.config.placement import place_all, placement_order

    if known is None or may_create_queues(partition):
        placed = place_all(partition, tree, apps)
    else:
        placed = {app.id: known[app.id] for app in placement_order(apps)}
    return {app_id: (p.queue_path or "", p.reason) for app_id, p in placed.items()}


def _normalise(path: str) -> str:
    lowered = path.strip().lower()
    return lowered if lowered == "root" or lowered.startswith("root.") else f"root.{lowered}"


def _types(workload: Workload, tree: QueueTree) -> list[str]:
    names: set[str] = set()
    for node in workload.nodes:
        names.update(node.capacity, node.occupied)
    for app in workload.applications:
        for ask in app.asks:
            names.update(ask.resources)
        for alloc in app.allocations:
            names.update(alloc.resources)
        for group in app.task_groups:
            names.update(group.min_resource)
    for queue in tree.queues.values():
        names.update(queue.max or {}, queue.guaranteed or {})
    return sorted(names)


def build_state(
    partition: PartitionConfig,
    tree: QueueTree,
    workload: Workload,
    legacy: bool,
    placed: Mapping[str, Placement] | None = None,
) -> tuple[RunState, dict[str, str]]:
    """Build the run state at time 0 (before any arrival); also returns placement notes by application id.
    placed: every application's placement on this tree, when the caller has made them (see _place)."""
    if may_create_queues(partition):
        tree = copy.deepcopy(tree)  # placement may create dynamic queues: never touch the caller's tree
    placements = _place(partition, tree, workload.applications, placed)
    types = _types(workload, tree)
    index_of = {name: i for i, name in enumerate(types)}
    width = len(types)
    policy, weights = policies.node_policy(partition), policies.node_weights(partition)
    nodes: list[NodeState] = []
    cluster: dict[str, int] = {}
    order = sorted(range(len(workload.nodes)), key=lambda i: (workload.nodes[i].name, i))
    rank = {i: r for r, i in enumerate(order)}  # name order (file order between equal names)
    for i, spec in enumerate(workload.nodes):
        node = NodeState(
            spec.name,
            rank[i],
            vector(spec.capacity, index_of, width),
            spec.capacity,
            spec.schedulable,
            policy,
            weights,
            types,
        )
        for name, value in spec.occupied.items():
            i = index_of[name]
            node.available[i] = node.available[i] - value
        node.rescore()
        nodes.append(node)
        for name, value in spec.capacity.items():  # a cordoned node counts too (partition.go addNodeToList)
            cluster[name] = cluster.get(name, 0) + value
    by_rank = [workload.nodes[i] for i in order]
    facts = [NodeFacts(spec.name, spec.labels, spec.taints, not spec.schedulable) for spec in by_rank]
    groups = NodeGroups(facts, [spec.schedulable for spec in by_rank])
    specs = list(_pod_specs(workload))
    tracker = PodTracker(facts, workload.namespaces, specs) if PodTracker.needed(specs) else None
    cache = PriorityCache(tree)
    queues: dict[str, QState] = {}
    root = _queues(tree.root, None, 0, queues, cache, cluster, types, legacy, cluster)
    state = RunState(
        partition=partition,
        tree=tree,
        types=types,
        width=width,
        nodes=nodes,
        node_by_name={node.name: node for node in nodes},
        index=NodeIndex(width),
        root=root,
        queues=queues,
        apps=[],
        asks=[],
        cache=cache,
        legacy=legacy,
        preemption_enabled=partition.preemption_enabled is not False,
        type_index=index_of,
        groups=groups,
        tracker=tracker,
    )
    if tracker is not None:
        for spec in workload.nodes:
            for pod in spec.foreign_pods:
                tracker.add(pod, spec.name)
    limits = limit_config(partition)
    if limits:
        state.ugm = Ugm(limits, width, index_of)
    never = {pc.name for pc in workload.priority_classes if pc.preemption_policy == "Never"}
    for app in workload.applications:
        _application(state, app, placements, index_of, never)
    state.clock.sort_arrivals()
    for node in nodes:
        if node.schedulable:
            state.index.add(node)
    for queue in queues.values():
        if queue.parent is not None:
            queue.entry = queue.key()
            queue.parent.children.append(queue.entry)
    for queue in queues.values():
        queue.children.sort()
        queue.limited = queue.max is not None or queue.maxapps > 0 or state.ugm is not None
    if state.ugm is not None:  # no ask has arrived yet: only the flags
        for runtime in state.apps:
            held_by = runtime.limits
            runtime.held = held_by is not None and not runtime.started and held_by.nfull > 0
        state.ugm.flipped.clear()
    return state, {app_id: note for app_id, (_, note) in placements.items() if note}


def insert_order(app: Application) -> list[int]:
    """Where each ask lands among asks of equal priority and creation time (sorted_asks.go insert).

    The core inserts asks one by one, in arrival order, into a list sorted by priority (high first) and creation
    time (old first): an ask that sorts last of all (or ties with the last) is appended after its equals, any other
    ask goes *before* its equals. Returns the tie-breaker of each ask (by position in app.asks): negative for asks
    put in front (the later, the more in front), positive for appended ones.
    """
    asks = app.asks
    out = [0] * len(asks)
    last: tuple[int, int] | None = None
    front = back = 0
    arrivals = [max(ask.submit_time, app.submit_time, 0) for ask in asks]
    for i in sorted(range(len(asks)), key=arrivals.__getitem__):  # (a stable sort: file order between equals)
        ask = asks[i]
        key = (-ask.priority, ask.submit_time)
        if last is None or key >= last:
            back += 1
            out[i] = back
            last = key
        else:
            front += 1
            out[i] = -front
    return out


def _queues(
    queue: Queue,
    parent: QState | None,
    order: int,
    out: dict[str, QState],
    cache: PriorityCache,
    cluster: dict[str, int],
    types: list[str],
    legacy: bool,
    parent_fair_max: dict[str, int],
) -> QState:
    stateaware = legacy and queue.is_leaf and queue.setting("application.sort.policy").text == "stateaware"
    state = QState(queue, parent, order, len(types), cache.queues[queue.path], stateaware)
    own_max = cluster if parent is None else (queue.max or {})
    if parent is None or queue.max is not None:
        state.max = [float(own_max[t]) if t in own_max else INF for t in types]
    fair_max = {**parent_fair_max, **own_max}
    state.fair_dens = policies.share_denominators(types, state.guaranteed, fair_max)
    out[queue.path] = state
    for i, child in enumerate(queue.children):
        _queues(child, state, i, out, cache, cluster, types, legacy, fair_max)
    return state


def _application(
    state: RunState,
    app: Application,
    placements: dict[str, tuple[str, str]],
    index_of: dict[str, int],
    never: set[str],
) -> None:
    problem: tuple[str, str] | None = None
    path, note = placements.get(app.id, ("", "not placed"))
    leaf: QState | None = state.queues.get(path) if path else None
    if leaf is None:
        named = state.queues.get(_normalise(app.queue)) if app.queue is not None else None
        if app.queue is not None and named is None:
            problem = (QUEUE_MISSING, f"queue {_normalise(app.queue)} does not exist")
        elif named is not None and not named.is_leaf:
            problem = (QUEUE_MISSING, f"queue {named.path} is a parent queue: applications run in leaf queues")
        else:
            problem = (UNPLACED, f"rejected by the placement rules: {note}")
    width = state.width
    runtime = AppState(app, leaf, width, problem)
    if leaf is not None:
        state.cache.add_app(app.id, leaf.queue)
        runtime.prio = state.cache.apps[app.id]
        runtime.usage_dens = policies.usage_denominators(state.types, leaf.guaranteed)
        if state.ugm is not None:
            user = app.user or DEFAULT_USER
            levels = [q.path for q in reversed(leaf.ancestors())]
            runtime.limits = state.ugm.for_app(user, state.ugm.groups_of(user, app.groups), levels)
            if runtime.limits is not None:
                runtime.limits.owner = runtime
    state.apps.append(runtime)
    if leaf is not None:
        leaf.members.append(runtime)
    for alloc in app.allocations:
        node = state.node_by_name.get(alloc.node)
        if node is None:
            continue  # the workload loader reports allocations on unknown nodes
        size = _constrained(state, vector(alloc.resources, index_of, width), alloc.pod)
        for i, v in enumerate(size):
            node.available[i] = node.available[i] - v
        node.rescore()
        state.counters.alloc_seq += 1
        running = AllocState(
            alloc.name,
            runtime,
            node,
            size,
            alloc.priority,
            alloc.start_time,
            None,
            alloc.allow_preemption,
            None,
            alloc.start_time,
            alloc.originator,
            alloc.required_node,
            state.counters.alloc_seq,
            alloc.restart_on_preemption,
            alloc.priority_class not in never,
            alloc.pod,
        )
        node.allocations[alloc.name] = running
        if state.tracker is not None:
            state.tracker.add(alloc.pod, node.name)
        runtime.submit = min(runtime.submit, alloc.start_time)
        if leaf is None:
            continue
        if alloc.duration is not None:
            running.end = max(alloc.duration, 0)
            state.clock.push_complete(running.end, running)
        leaf.allocs[running] = None
        runtime.nalloc += 1
        if runtime.limits is not None:
            runtime.limits.add(size)
        for i, v in enumerate(size):
            runtime.allocated[i] = runtime.allocated[i] + v
        for queue in leaf.ancestors():
            allocated = queue.allocated
            for i, v in enumerate(size):
                allocated[i] = allocated[i] + v
        if not runtime.started:
            runtime.started = runtime.active = True
            runtime.state = "Running"
            for queue in leaf.ancestors():
                queue.running += 1
    sizes = state.caches.vectors
    orders = insert_order(app)
    for i, ask in enumerate(app.asks):
        key = id(ask.resources)
        shared = sizes.get(key)
        if shared is None:
            shared = sizes[key] = vector(ask.resources, index_of, width)
        size = _constrained(state, shared, ask.pod)
        arrival = max(ask.submit_time, app.submit_time, 0)
        runtime_ask = AskState(ask, runtime, size, state.fit(size), arrival, orders[i])
        state.asks.append(runtime_ask)
        if leaf is not None and runtime_ask.fit:  # an ask for nothing never reaches the scheduler
            state.clock.add_arrival(arrival, runtime_ask)


def _constrained(state: RunState, size: Size, pod: PodSpec | None) -> Size:
    """The size of a pod: its vector; a ConstrainedSize when some schedulable node fails its static predicates; a
    DynamicSize when its verdicts depend on the pods placed (PodTracker.dynamic)."""
    groups = state.groups
    found = size if groups is None else groups.size(size, pod)
    tracker = state.tracker
    if tracker is not None and tracker.dynamic(pod):
        return tracker.size(found, pod)
    return found


def _pod_specs(workload: Workload) -> Iterator[PodSpec]:
    """Every pod spec of the run: asks, running allocations, task groups and the pods of other schedulers."""
    for node in workload.nodes:
        yield from node.foreign_pods
    for app in workload.applications:
        for ask in app.asks:
            if ask.pod is not None:
                yield ask.pod
        for alloc in app.allocations:
            if alloc.pod is not None:
                yield alloc.pod
        for group in app.task_groups:
            if group.pod is not None:
                yield group.pod
