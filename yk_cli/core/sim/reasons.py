"""Why an ask is still pending: the first check of the scheduling walk that stops it, in words.

Stage of the core's scheduling cycle: none; the walk's checks replayed for one ask, after the run or at a halt.
"""

from __future__ import annotations

from yk_cli.core.config.properties import format_duration
from yk_cli.core.predicates.model import Failure, PodSpec
from yk_cli.core.predicates.pod_plugins import NODE_PORTS
from yk_cli.core.predicates.tracker import DynamicSize
from yk_cli.core.resources import format_resource
from yk_cli.core.sim import preconditions
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.backoff import in_backoff
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.cycle import stateaware_admitted
from yk_cli.core.sim.nodes import NodeState
from yk_cli.core.sim.placing import dynamic_passes, first_node, predicate_failure, required_passes
from yk_cli.core.sim.state import INF, PENDING, WAITING, AskState, QState, Size, passes
from yk_cli.core.sim.trace import NodeVerdict, PendingAsk
from yk_cli.core.sim.ugm import describe


def pending_asks(state: RunState, notes: dict[str, str]) -> tuple[PendingAsk, ...]:
    """Every ask not placed (or not yet arrived) at the end of the run, in workload order, with its reason."""
    out = []
    nodes = Nodes(state)
    reasons: dict[str, str] = {}
    """Each distinct reason text once: asks that wait for the same thing (most of them) share one string."""
    for ask in state.asks:
        if ask.status not in (WAITING, PENDING):
            continue
        code, reason = diagnose(state, ask, nodes)
        reason = reasons.setdefault(reason, reason)
        counts: tuple[tuple[str, int], ...] = ()
        if code in NODE_CODES and type(ask.size) is not tuple:
            counts = nodes.summary(state, ask)[1]
        where: tuple[str | int, ...] = ()
        if code in (codes.USER_MAX_APPLICATIONS, codes.USER_QUOTA):
            found = limit_failure(state, ask)
            if found is not None:
                where = found[2]
        elif code == codes.GANG_RESERVING:
            where = _placeholder_limit(state, ask, reason) or ()
        elif code == codes.BACKOFF:
            waits = in_backoff(state, ask.app)
            if waits is not None:
                where = waits[2].where
        app = ask.app
        out.append(
            PendingAsk(
                application=app.id,
                ask=ask.name,
                queue_path=app.leaf.path if app.leaf is not None else "",
                priority=ask.priority,
                resources=ask.ask.resources,
                code=code,
                reason=reason,
                submit_time=ask.created,
                where=where,
                node_reasons=counts,
            )
        )
    return tuple(out)


def _placeholder_limit(state: RunState, ask: AskState, reason: str) -> tuple[str | int, ...] | None:
    """The config path of the user or group limit that the waiting placeholder named in a held gang pod's reason
    waits for (None when it waits for something else)."""
    marker = reason.rfind(" waits: ")
    if marker < 0:
        return None
    name = reason[:marker].rpartition("; ")[2]
    for entry in ask.app.asks:
        holder: AskState = entry[-1]
        if holder.name == name:
            found = limit_failure(state, holder)
            return found[2] if found is not None and found[1] in reason else None
    return None


def resources_of(state: RunState, size: Size | list[float]) -> dict[str, int]:
    """A vector as a resource map (zero and unlimited amounts left out)."""
    return {state.types[i]: int(v) for i, v in enumerate(size) if v and v != INF}


class Nodes:
    """What diagnose needs to know about nodes, computed once per state."""

    def __init__(self, state: RunState) -> None:
        self.usable = [node for node in state.nodes if node.schedulable]
        self.reserved = [node for node in self.usable if node.reserved_by is not None]
        self._large: dict[Size, bool] = {}
        self._summaries: dict[tuple[Size, PodSpec | None], tuple[str, tuple[tuple[str, int], ...]]] = {}

    def summary(self, state: RunState, ask: AskState) -> tuple[str, tuple[tuple[str, int], ...]]:
        """kube-scheduler's FitError for the ask ("0/5 nodes are available: ..."), with its reasons and counts."""
        key = (ask.size, ask.ask.pod)
        found = self._summaries.get(key)
        if found is None:
            found = self._summaries[key] = node_summary(state, ask)
        return found

    def large_enough(self, ask: AskState) -> bool:
        """Whether some schedulable node could hold the ask when empty."""
        found = self._large.get(ask.size)
        if found is None:
            found = self._large[ask.size] = any(node.fits_capacity(ask.fit) for node in self.usable)
        return found


def diagnose(state: RunState, ask: AskState, nodes: Nodes | None = None) -> tuple[str, str]:
    """(reason code, message) for an ask that is not running, checked in the scheduler's order."""
    nodes = nodes or Nodes(state)
    app = ask.app
    if app.problem is not None:
        return app.problem
    gangs = state.gang
    if gangs is not None and app in gangs.by_app and not ask.ask.placeholder:
        found = gangs.diagnose(state, ask, diagnose)
        if found is not None:
            return found
    if not ask.fit:
        return codes.INVALID_ASK, "requests no resources: YuniKorn refuses such an ask (invalid ask added to app)"
    if ask.status == WAITING:
        return codes.NOT_SUBMITTED, f"not submitted yet: arrives at {format_duration(ask.arrival)}"
    leaf = app.leaf
    assert leaf is not None
    if not app.started:
        for queue in leaf.ancestors():
            if not queue.can_start_app():
                return codes.MAX_APPLICATIONS, (
                    f"maxapplications reached at {queue.path}: {queue.running} of {queue.maxapps} applications run"
                )
    limited = limit_failure(state, ask)
    if limited is not None and limited[0] == codes.USER_MAX_APPLICATIONS:
        return limited[0], limited[1]
    if leaf.stateaware and app not in stateaware_admitted(leaf):
        return codes.STATE_FILTER, _state_filter(leaf)
    waits = in_backoff(state, app)
    if waits is not None and ask.reserved is None:
        deadline, count, setting = waits
        code, then = _after_backoff(state, ask, nodes, limited)
        asks = f"{count} unschedulable ask{'' if count == 1 else 's'}"
        then = "it fits now and waits for the deadline" if code == codes.STOPPED else f"besides: {then}"
        return codes.BACKOFF, (
            f"application {app.id} in backoff until {format_duration(deadline)} after {asks} "
            f"(application.unschedasks.backoff {setting.threshold}, delay {format_duration(setting.delay)}); {then}"
        )
    return _after_backoff(state, ask, nodes, limited)


def _after_backoff(
    state: RunState, ask: AskState, nodes: Nodes, limited: tuple[str, str, tuple[str | int, ...]] | None
) -> tuple[str, str]:
    """The checks of the application's walk, from the user's headroom on."""
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    wanted = format_resource(ask.ask.resources)
    if limited is not None:
        return limited[0], limited[1]
    headroom = headroom_failure(state, leaf, ask)
    if headroom is not None:
        return headroom[0], headroom[1] + preemption_note(state, ask)
    if ask.reserved is not None:
        held = ask.reserved
        if not required_passes(state, ask, held) or not dynamic_passes(state, ask, held):
            which = "required" if ask.required else "reserved"
            return codes.NODE_PREDICATES, (
                f"its {which} node {held.name} fails its node predicates "
                f"({predicate_failure(state, ask, held)}): the node stays reserved for it"
            ) + ("" if ask.required else preemption_note(state, ask))
        why = f"reserved node {ask.reserved.name}: waits for {wanted} to be free there"
        return codes.RESERVED, why + preemption_note(state, ask)
    if ask.required:
        node = state.node_by_name.get(ask.required)
        if node is None:
            return codes.NO_NODE_FITS, f"its required node {ask.required} is not in the cluster"
        holder = node.reserved_by
        if isinstance(holder, AskState) and holder is not ask:
            who = f"{holder.app.id}/{holder.name}"
            return codes.NODE_RESERVED, f"its required node {node.name} is reserved by {who}, which also requires it"
        return codes.STOPPED, "fits now: the run stopped (--until or --max-steps) before its turn"
    if type(ask.size) is not tuple:
        return _constrained(state, ask, nodes)
    if not nodes.large_enough(ask):
        return codes.NODE_TOO_SMALL, f"no node is large enough for {wanted}"
    if first_node(state, ask) is not None:
        return codes.STOPPED, "fits now: the run stopped (--until or --max-steps) before its turn"
    for node in nodes.reserved:
        holder = node.reserved_by
        if holder is not None and holder is not ask and node.fits(ask.fit):
            assert isinstance(holder, AskState)
            why = f"node {node.name} has room but is reserved by {holder.app.id}/{holder.name}"
            return codes.NODE_RESERVED, why + preemption_note(state, ask)
    return codes.NO_NODE_FITS, f"no node has {wanted} free" + preemption_note(state, ask)


NODE_CODES = (codes.NODE_PREDICATES, codes.NODE_TOO_SMALL, codes.NODE_RESERVED, codes.NO_NODE_FITS)
"""Reason codes that a node check gives: for an ask with node predicates their text is kube-scheduler's summary."""
KUBE_RESOURCE_NAMES = {"vcore": "cpu"}
"""YuniKorn's resource names where Kubernetes calls them otherwise."""
UNSCHEDULABLE = "node(s) were unschedulable"
"""NodeUnschedulable's reason (kube-scheduler); YuniKorn never offers a cordoned node at all."""
RESERVED_FOR_OTHER = "node(s) were reserved for another pod"
"""yk's words for a node YuniKorn holds for another ask (kube-scheduler has no reservations)."""


def _constrained(state: RunState, ask: AskState, nodes: Nodes) -> tuple[str, str]:
    """The node checks for an ask that only some nodes accept, worded as kube-scheduler's FitError."""
    if first_node(state, ask) is not None:
        return codes.STOPPED, "fits now: the run stopped (--until or --max-steps) before its turn"
    message = nodes.summary(state, ask)[0]
    passing = [node for node in nodes.usable if passes(ask.size, node) and dynamic_passes(state, ask, node)]
    if not passing:
        return codes.NODE_PREDICATES, message
    if not any(node.fits_capacity(ask.fit) for node in passing):
        return codes.NODE_TOO_SMALL, message
    for node in passing:
        holder = node.reserved_by
        if holder is not None and holder is not ask and node.fits(ask.fit):
            return codes.NODE_RESERVED, message + preemption_note(state, ask)
    return codes.NO_NODE_FITS, message + preemption_note(state, ask)


def node_summary(state: RunState, ask: AskState) -> tuple[str, tuple[tuple[str, int], ...]]:
    """kube-scheduler's FitError text for the ask over every node, and its reasons with their node counts (sorted as
    kube-scheduler sorts them, as "count reason" strings)."""
    counts: dict[str, int] = {}
    for verdict in node_verdicts(state, ask):
        for reason in verdict.reasons:
            counts[reason] = counts.get(reason, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: f"{item[1]} {item[0]}")
    listed = ", ".join(f"{count} {reason}" for reason, count in ordered)
    return f"0/{len(state.nodes)} nodes are available: {listed}.", tuple(ordered)


def node_verdicts(state: RunState, ask: AskState, chosen: NodeState | None = None) -> tuple[NodeVerdict, ...]:
    """Every node's verdict on the ask now, in node name order: the first Filter that fails, in the default
    profile's order (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit with one
    reason per short resource, PodTopologySpread, InterPodAffinity), a reservation for another ask, or a fit."""
    groups, tracker = state.groups, state.tracker
    pod = ask.ask.pod
    checks = tracker.state(pod) if tracker is not None and type(ask.size) is DynamicSize else None
    order = {node: i for i, node in enumerate(state.index, 1)}
    out = []
    for node in sorted(state.nodes, key=lambda n: n.rank):
        reasons: list[str] = []
        plugin = ""
        failure: Failure | None = groups.failure(pod, node.rank) if groups is not None else None
        later: Failure | None = None
        if failure is None and checks is not None and tracker is not None:
            failure = checks.failure(tracker.facts[node.name])
            if failure is not None and failure.plugin != NODE_PORTS:
                later = failure  # PodTopologySpread and InterPodAffinity run after NodeResourcesFit
                failure = None
        if not node.schedulable:
            plugin, reasons = "NodeUnschedulable", [UNSCHEDULABLE]
        elif failure is not None:
            plugin, reasons = failure.plugin, [failure.reason]
        else:
            available = node.available
            for i, v in ask.fit:
                if available[i] < v:
                    name = state.types[i]
                    kube = KUBE_RESOURCE_NAMES.get(name, name)
                    reasons.append("Too many pods" if name == "pods" else f"Insufficient {kube}")
            if reasons:
                plugin = "NodeResourcesFit"
            elif later is not None:
                plugin, reasons = later.plugin, [later.reason]
            elif node.reserved_by is not None and node.reserved_by is not ask:
                holder = node.reserved_by
                plugin, reasons = "reservation", [RESERVED_FOR_OTHER]
                if isinstance(holder, AskState):
                    plugin = f"reserved by {holder.app.id}/{holder.name}"
        verdict = codes.NODE_CHOSEN if node is chosen else codes.NODE_FITS if not reasons else codes.NODE_FAILS
        out.append(NodeVerdict(node.name, verdict, plugin, tuple(reasons), order.get(node, 0)))
    return tuple(out)


PREEMPTION_VERDICTS = {
    "Preemption queue guarantees check failed": "the queue guarantees check failed: its queue's remaining guarantee "
    "cannot take the ask, even with every eligible victim gone",
    "Preemption does not help": "preemption does not help: no node can be freed for it by eligible victims",
    "Preemption helped but short of resources": "preemption helped but short of resources: the chosen node's victims "
    "add up to less than the ask (the core does not count the node's free space)",
}


def preemption_note(state: RunState, ask: AskState) -> str:
    """Why a waiting ask does not preempt (or did and still waits), as '; ...' ('' when preemption never applies)."""
    leaf = ask.app.leaf
    if leaf is None or ask.required:
        return ""
    if ask.triggered:
        return "; it preempted once already (an ask preempts at most once)"
    if not preconditions.guarded(leaf):
        if any(queue.guaranteed for queue in state.queues.values()):  # silent where nobody uses guarantees
            return f"; no preemption: no guarantee on {leaf.path} or its parents"
        return ""
    if not state.preemption_enabled:
        return "; no preemption: the partition sets preemption.enabled false"
    if not ask.ask.preempt_other:
        return "; may not preempt: its preemptionPolicy is Never"
    left = preconditions.delay_left(state, ask)
    if left:
        delay = format_duration(leaf.queue.preemption_delay)
        return f"; waits for preemption.delay {delay} before it may preempt: {format_duration(left)} left"
    if ask.pverdict:
        return "; " + PREEMPTION_VERDICTS.get(ask.pverdict, ask.pverdict)
    return ""


def headroom_failure(state: RunState, leaf: QState, ask: AskState) -> tuple[str, str] | None:
    """(code, message) for the queue, nearest the leaf, whose max minus usage is too small for the ask (None: fits):
    queue-max, or cluster-full when it is root (whose max is the cluster)."""
    for queue in leaf.ancestors():
        if queue.max is None:
            continue
        short = [i for i, v in ask.fit if queue.max[i] != INF and queue.max[i] - queue.allocated[i] < v]
        if not short:
            continue
        used = format_resource({state.types[i]: queue.allocated[i] for i in short})
        limit = format_resource({state.types[i]: int(queue.max[i]) for i in short})
        wanted = format_resource({state.types[i]: ask.size[i] for i in short})
        if queue.parent is None:
            return codes.CLUSTER_FULL, f"the cluster is full: {used} of {limit} in use, the ask needs {wanted}"
        message = f"queue max reached at {queue.path}: {used} of max {limit} in use, the ask needs {wanted}"
        return codes.QUEUE_MAX, message
    return None


def limit_failure(state: RunState, ask: AskState) -> tuple[str, str, tuple[str | int, ...]] | None:
    """(code, message, config path of the limit entry) when a user or group limit holds the ask: its application
    may not start (maxapplications), or the ask does not fit the user's or group's headroom; None otherwise."""
    app = ask.app
    limits = app.limits
    if limits is None:
        return None
    if not app.started:
        full = limits.full_tracker()
        if full is not None:
            rule = full.rule
            who, note = describe(full, limits.user)
            message = (
                f"{who} at maxapplications {rule.maxapps} of {rule.queue}{note}: "
                f"{len(full.apps)} of {rule.maxapps} applications run"
            )
            return codes.USER_MAX_APPLICATIONS, message, rule.where
    short = limits.short_tracker(ask.fit)
    if short is None:
        return None
    rule = short.rule
    limit = dict(short.max)
    types = [i for i, v in ask.fit if i in limit and limit[i] - short.used[i] < v]
    who, note = describe(short, limits.user)
    used = format_resource({state.types[i]: short.used[i] for i in types})
    top = format_resource({state.types[i]: limit[i] for i in types})
    wanted = format_resource({state.types[i]: ask.size[i] for i in types})
    message = f"{who} at maxresources {top} of {rule.queue}{note}: {used} in use, the ask needs {wanted}"
    return codes.USER_QUOTA, message, rule.where


def _state_filter(leaf: QState) -> str:
    starting = [a for a in leaf.members if a.state == "Starting"]
    if starting:
        return f"stateaware: application {starting[0].id} is still Starting, so no new application may start"
    admitted = stateaware_admitted(leaf)
    first = next((a for a in admitted if a.state == "Accepted"), None)
    who = f"application {first.id} was submitted earlier" if first is not None else "another application goes first"
    return f"stateaware: one new application at a time and {who}"
