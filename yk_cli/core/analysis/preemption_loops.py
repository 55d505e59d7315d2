"""Preemption loops of a dry run: restarted pods whose replacements preempt, around a ring, their own preemptor."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yk_cli.core.sim.trace import PREEMPT, Trace, TraceEvent, Victim

if TYPE_CHECKING:
    import networkx as nx

Lineage = tuple[str, str]
"""A pod lineage: (application, name of the original ask or allocation); its restarts all map back to it."""


@dataclass(frozen=True, slots=True)
class Preemption:
    """One preemptor -> victim pair of a preempt event, as the names the trace gives them."""

    step: int
    preemptor: str
    """The ask that preempted (the original or one of its replacements)."""
    victim: str
    """The allocation preempted."""


@dataclass(frozen=True, slots=True)
class PreemptionLoop:
    """A ring of pod lineages each of which preempted the next, the last preempting the first."""

    lineages: tuple[str, ...]
    """'application/name' of each lineage in cycle order, starting with the preemptor of the earliest step."""
    steps: tuple[int, ...]
    """Every preempt step on the ring's edges, sorted."""
    message: str


def _events(trace_or_events: Trace | Iterable[TraceEvent]) -> Iterable[TraceEvent]:
    return trace_or_events.events if isinstance(trace_or_events, Trace) else trace_or_events


def lineages(trace_or_events: Trace | Iterable[TraceEvent]) -> dict[Lineage, str]:
    """(application, restarted_as) -> original name, for every restarted ask (restarts of restarts included)."""
    edges = _edges(_events(trace_or_events))
    return {
        (victim.application, victim.restarted_as): target[1] for _, target, _, victim in edges if victim.restarted_as
    }


def preemption_graph(trace_or_events: Trace | Iterable[TraceEvent]) -> nx.DiGraph:
    """Who preempted whom: nodes are lineages, an edge preemptor -> victim has `preemptions` (list of Preemption).

    Nodes are added in the order they first appear, edges in the order of their first preemption.
    """
    import networkx as nx  # here, not at the top: a run without preemption never needs it (start-up time)

    graph = nx.DiGraph()
    for source, target, event, victim in _edges(_events(trace_or_events)):
        if not graph.has_edge(source, target):
            graph.add_edge(source, target, preemptions=[])
        graph.edges[source, target]["preemptions"].append(Preemption(event.step, event.ask, victim.allocation))
    return graph


def _edges(events: Iterable[TraceEvent]) -> Iterator[tuple[Lineage, Lineage, TraceEvent, Victim]]:
    """(preemptor lineage, victim lineage, preempt event, victim) for every victim, in order; restarts map back."""
    origin: dict[Lineage, str] = {}
    for event in events:
        if event.type != PREEMPT:
            continue
        source = (event.application, origin.get((event.application, event.ask), event.ask))
        for victim in event.victims:
            target = (victim.application, origin.get((victim.application, victim.allocation), victim.allocation))
            if victim.restarted_as:
                origin[(victim.application, victim.restarted_as)] = target[1]
            yield source, target, event, victim


def _may_loop(events: list[TraceEvent]) -> bool:
    """Whether the preemption graph has a cycle: what is left after peeling off, again and again, every lineage
    that preempted nobody or was preempted by nobody (no such lineage can be on a cycle)."""
    successors: dict[Lineage, set[Lineage]] = {}
    predecessors: dict[Lineage, set[Lineage]] = {}
    for source, target, _, _ in _edges(events):
        successors.setdefault(source, set()).add(target)
        predecessors.setdefault(target, set()).add(source)
        successors.setdefault(target, set())
        predecessors.setdefault(source, set())
    peel = [node for node in successors if not successors[node] or not predecessors[node]]
    left = len(successors)
    while peel:
        node = peel.pop()
        if node not in successors:
            continue
        left -= 1
        for after in successors.pop(node):
            if after in predecessors:
                predecessors[after].discard(node)
                if not predecessors[after]:
                    peel.append(after)
        for before in predecessors.pop(node):
            if before in successors:
                successors[before].discard(node)
                if not successors[before]:
                    peel.append(before)
    return left > 0


def _label(lineage: Lineage) -> str:
    return f"{lineage[0]}/{lineage[1]}"


def _loop(graph: nx.DiGraph, cycle: list[Lineage]) -> PreemptionLoop:
    """The loop of one simple cycle, rotated to start at its earliest preemption, with a causal message."""
    size = len(cycle)
    edges = [(cycle[i], cycle[(i + 1) % size]) for i in range(size)]
    first = [min(p.step for p in graph.edges[edge]["preemptions"]) for edge in edges]
    start = min(range(size), key=lambda i: (first[i], i))
    edges = edges[start:] + edges[:start]
    parts: list[str] = []
    previous = 0
    steps: set[int] = set()
    for index, (source, target) in enumerate(edges):
        found: list[Preemption] = sorted(graph.edges[source, target]["preemptions"], key=lambda p: p.step)
        steps.update(p.step for p in found)
        later = [p for p in found if p.step > previous]
        chosen = later[0] if later else found[0]
        previous = chosen.step
        replaced = chosen.preemptor != source[1]
        if index == 0:
            who = _label(source) + (f" (replacement {chosen.preemptor})" if replaced else "")
        elif replaced:
            who = f"whose replacement {chosen.preemptor}"
        else:
            who = f"and {_label(source)}"
        parts.append(f"{who} preempts {_label(target)} (step {chosen.step})")
    return PreemptionLoop(
        tuple(_label(source) for source, _ in edges),
        tuple(sorted(steps)),
        "preemption loop: " + ", ".join(parts),
    )


def find_loops(trace_or_events: Trace | Iterable[TraceEvent]) -> list[PreemptionLoop]:
    """Every preemption loop of the run (one per simple cycle of the preemption graph), ordered by first step."""
    events = list(_events(trace_or_events))
    if not _may_loop(events):
        return []  # the common case: networkx (about 20 MB and 0.2 s to import) only for a graph that has a cycle
    import networkx as nx

    graph = preemption_graph(events)
    loops = [_loop(graph, cycle) for cycle in nx.simple_cycles(graph)]
    return sorted(loops, key=lambda loop: (loop.steps[0], loop.lineages))
