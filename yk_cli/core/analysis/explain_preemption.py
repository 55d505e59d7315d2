"""Why a pod was (or was not) preempted, and by whom: read from a dry run's preemption tries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yk_cli.core.config import properties as props
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Path
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.trace import Candidate, NodeView, PendingAsk, PreemptionAttempt, Trace, TraceEvent

LAWS = {
    codes.VICTIM: "",
    codes.SAME_QUEUE: "law 3: never a pod of the asking queue (the core: the same leaf queue, not only the same app)",
    codes.OUTSIDE_FENCE: "law 7: a preemption fence keeps the victim search inside",
    codes.PREEMPTION_DISABLED: "preemption.policy disabled protects the queue's pods",
    codes.NOT_OVER_GUARANTEE: "law 5: only a queue over its guarantee gives victims",
    codes.HIGHER_PRIORITY: "law 6: only pods of lower or equal priority, after offsets and fences",
    codes.PRIORITY_FENCED: "law 6: a priority fence with a higher offset shields the subtree",
    codes.REQUIRED_NODE: "DaemonSet pods are never victims of queue preemption",
    codes.NO_SHARED_RESOURCE: "a victim must hold one of the ask's resource types",
    codes.NODE_UNAVAILABLE: "only schedulable nodes large enough and not reserved by another ask",
    codes.ASK_QUEUE_GUARANTEE: "law 4: the asking queue may reach its guarantee, never go over it",
    codes.NOT_NEEDED: "the core stops once the victims before it make room",
    codes.OTHER_NODE: "victims come from the one node chosen",
    codes.DOES_NOT_HELP: "the try failed",
}
"""The design's law (or the core's rule) behind each candidate verdict."""


class UnknownPod(LookupError):
    """No allocation or ask of the run has that name."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """The pod as one preemption try saw it."""

    attempt: PreemptionAttempt
    candidate: Candidate
    law: str
    config: Path
    """The config line behind the verdict (a document path; () when none applies)."""


@dataclass(frozen=True, slots=True)
class PodStory:
    """What preemption did to (or for) one pod over a run."""

    application: str
    name: str
    queue_path: str
    preempted_by: TraceEvent | None
    """The preempt step that took the pod, if one did."""
    sightings: tuple[Sighting, ...]
    """Every try that looked at the pod as a running allocation, in order."""
    tries: tuple[PreemptionAttempt, ...]
    """The pod's own tries, when it is an ask."""
    pending: PendingAsk | None
    """Its pending reason at the end, when it is an ask still waiting."""
    nodes: NodeView | None = None
    """Every node's verdict on it when it was placed (or reserved a node), else at the end: when it is an ask."""


def pods_named(name: str, pods: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (application, pod) pairs `name` names, sorted: `application/pod` when it names any, else a bare pod name
    (a pod of a kubectl dump is `namespace/pod`, its application/pod `application/namespace/pod`)."""
    known = set(pods)
    full = sorted((a, n) for a, n in known if f"{a}/{n}" == name)
    return full or sorted((a, n) for a, n in known if n == name)


def pod_story(trace: Trace, tree: QueueTree, name: str) -> PodStory:
    """Everything the run's preemption did about the pod named `name` or `application/name`."""
    known = {(e.application, e.ask) for e in trace.events} | {(p.application, p.ask) for p in trace.pending}
    known |= {(c.application, c.allocation) for a in trace.attempts for c in a.candidates}
    known |= {(v.application, v.allocation) for e in trace.events for v in e.victims}
    matches = pods_named(name, known)
    if not matches:
        raise UnknownPod(f"no allocation or ask named {name!r} in the run")
    if len(matches) > 1:
        raise UnknownPod(f"{name!r} is ambiguous: " + ", ".join(f"{a}/{n}" for a, n in matches))

    def named(application: str, candidate: str) -> bool:
        return (application, candidate) == matches[0]

    preempted_by = next(
        (
            e
            for e in trace.events
            for v in e.victims
            if e.type in (codes.PREEMPT, codes.QUOTA_PREEMPT) and named(v.application, v.allocation)
        ),
        None,
    )
    sightings = tuple(
        Sighting(a, c, LAWS.get(c.verdict, ""), config_path(tree, a, c))
        for a in trace.attempts
        for c in a.candidates
        if named(c.application, c.allocation)
    )
    tries = tuple(a for a in trace.attempts if named(a.application, a.ask))
    pending = next((p for p in trace.pending if named(p.application, p.ask)), None)
    application, pod = matches[0]
    queue = ""
    if preempted_by is not None:
        queue = next(v.queue_path for v in preempted_by.victims if named(v.application, v.allocation))
    elif sightings:
        queue = sightings[0].candidate.queue_path
    elif tries:
        queue = tries[0].queue_path
    elif pending is not None:
        queue = pending.queue_path
    else:
        queue = next((e.queue_path for e in trace.events if named(e.application, e.ask)), "")
    view = trace.node_view
    nodes = view if view is not None and (view.application, view.ask) == (application, pod) else None
    return PodStory(application, pod, queue, preempted_by, sightings, tries, pending, nodes)


def config_path(tree: QueueTree, attempt: PreemptionAttempt, candidate: Candidate) -> Path:
    """The config entry that decided a verdict: the property or guarantee of the queue concerned (() if none)."""
    verdict = candidate.verdict
    if verdict == codes.PREEMPTION_DISABLED:
        return _property(tree, candidate.queue_path, props.PREEMPTION_POLICY)
    if verdict == codes.OUTSIDE_FENCE:
        return _property(tree, attempt.fence, props.PREEMPTION_POLICY) or _resource(tree, attempt.fence, "max")
    if verdict == codes.NOT_OVER_GUARANTEE:
        return _resource(tree, candidate.queue_path, "guaranteed")
    if verdict == codes.ASK_QUEUE_GUARANTEE:
        return _resource(tree, attempt.queue_path, "guaranteed")
    if verdict in (codes.HIGHER_PRIORITY, codes.PRIORITY_FENCED):
        return _property(tree, candidate.queue_path, props.PRIORITY_OFFSET) or _property(
            tree, attempt.queue_path, props.PRIORITY_OFFSET
        )
    return ()


def _property(tree: QueueTree, path: str, key: str) -> Path:
    """Where the queue's effective value of a property is written (its own line or the ancestor it inherits)."""
    queue = tree.get(path) if path else None
    if queue is None:
        return ()
    origin = tree.get(queue.setting(key).origin) if queue.setting(key).origin else None
    if origin is None or origin.config is None or key not in origin.config.properties:
        return ()
    return (*origin.config.path, "properties", key)


def _resource(tree: QueueTree, path: str, kind: str) -> Path:
    """Where the nearest queue on the path (the queue, then its parents) sets guaranteed or max."""
    queue = tree.get(path) if path else None
    while queue is not None:
        config = queue.config
        if config is not None and getattr(config.resources, kind, None):
            return (*(config.resources.path or (*config.path, "resources")), kind)
        queue = queue.parent
    return ()
