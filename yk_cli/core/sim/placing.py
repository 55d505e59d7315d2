"""Which nodes an ask may go to now: free resources and the node predicates, as the core's tryNodes asks the shim.

Stage of the core's scheduling cycle: node iteration, the check of one node (tryNode: the fit, then the shim's
predicates).
"""

from __future__ import annotations

from yk_cli.core.predicates.tracker import DynamicSize
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.nodes import NodeState
from yk_cli.core.sim.state import AskState, passes


def first_node(state: RunState, ask: AskState) -> NodeState | None:
    """The first node in node order that holds the ask and passes its predicates (tryNodes without reserving).

    Asks whose verdicts depend on the pods placed (a DynamicSize) are never cached by the node index: the nodes that
    hold their static size are walked in order (the index skips the others) with one PreFilter.
    """
    size = ask.size
    if type(size) is not DynamicSize:
        return state.index.first_fit(size, ask.fit)
    base: tuple[int, ...] = getattr(size, "base")  # noqa: B009 - a subclass mypyc does not know
    tracker = state.tracker
    assert tracker is not None
    checks = tracker.state(ask.ask.pod)
    facts = tracker.facts
    for node in state.index.fitting(base, ask.fit):
        if checks.failure(facts[node.name]) is None:
            return node
    return None


def dynamic_passes(state: RunState, ask: AskState, node: NodeState) -> bool:
    """Whether the ask passes the pod-dependent predicates (host ports, spread, pod affinity) on the node now."""
    tracker = state.tracker
    if tracker is None or type(ask.size) is not DynamicSize:
        return True
    return tracker.failure(ask.ask.pod, node.name) is None


def required_passes(state: RunState, ask: AskState, node: NodeState) -> bool:
    """Whether an ask passes its node predicates on a node it must run on (tryRequiredNode offers a cordoned node
    too: the shim's NodeUnschedulable then decides)."""
    if node.schedulable:
        return passes(ask.size, node)
    groups = state.groups
    return groups is None or groups.failure(ask.ask.pod, node.rank) is None


def predicate_failure(state: RunState, ask: AskState, node: NodeState) -> str:
    """The node predicate the ask fails on the node, as "Plugin: reason" ('' when it passes)."""
    failure = None
    if not (node.schedulable and passes(ask.size, node)) and state.groups is not None:
        failure = state.groups.failure(ask.ask.pod, node.rank)
    tracker = state.tracker
    if failure is None and tracker is not None and type(ask.size) is DynamicSize:
        failure = tracker.failure(ask.ask.pod, node.name)
    return "" if failure is None else f"{failure.plugin}: {failure.reason}"
