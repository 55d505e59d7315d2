"""Asks grouped by the nodes their static predicates pass: a size that remembers which nodes may hold it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yk_cli.core.predicates.model import NO_EXECUTE, NO_POD_SPEC, NO_SCHEDULE, Failure, NodeFacts, PodSpec
from yk_cli.core.predicates.node_plugins import static_failure


class ConstrainedSize(tuple[int, ...]):
    """A resource vector of asks that only some nodes may take (taints, nodeSelector, node affinity, nodeName).

    It is the vector itself (the engine reads it as one), but equal vectors with other passing nodes are other
    sizes: the engine's per-size caches (the first node that fits, sizes that fit no node, failed preemption tries)
    never mix asks that different nodes accept.
    """

    passing: frozenset[int]
    """The ranks (node name order) of the nodes whose static predicates the asks pass."""
    group: int
    """Identifies the passing set: equal groups have equal passing sets."""

    def __new__(cls, values: tuple[int, ...], passing: frozenset[int], group: int) -> ConstrainedSize:
        made = super().__new__(cls, values)
        made.passing = passing
        made.group = group
        return made

    def __eq__(self, other: object) -> bool:
        return tuple.__eq__(self, other) is True and getattr(other, "group", None) == self.group

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__
    """By identity, in C: NodeGroups.size makes one object per vector and passing set, so equal sizes are the same
    object (the engine hashes sizes on every dict lookup)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (ConstrainedSize, (tuple(self), self.passing, self.group))


def passing_of(size: tuple[int, ...]) -> frozenset[int] | None:
    """The ranks of the nodes an ask of this size may go to by its static predicates; None: every node."""
    if size.__class__ is tuple:
        return None
    found: frozenset[int] | None = getattr(size, "passing", None)
    return found


class NodeGroups:
    """The static predicates (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity) of every pod spec against
    every node, evaluated once per distinct spec: which nodes each may go to, and why not elsewhere."""

    def __init__(self, nodes: Sequence[NodeFacts], schedulable: Sequence[bool]) -> None:
        self.nodes = list(nodes)
        """Indexed by rank (node name order)."""
        self._open = [rank for rank, ok in enumerate(schedulable) if ok]
        self.tainted = any(taint.effect in (NO_SCHEDULE, NO_EXECUTE) for node in self.nodes for taint in node.taints)
        """Some node has a taint that filters: every pod is then constrained by it."""
        self._specs: dict[int, tuple[PodSpec, _SpecFacts]] = {}
        """id(spec) -> the spec and what is known of it (specs are interned by the decoder: ids hit)."""
        self._by_value: dict[tuple[object, ...], _SpecFacts] = {}
        """By the static part of a spec (what static_failure reads): specs that differ only in namespace, labels or
        pod-dependent constraints share their verdicts."""
        kinds: dict[tuple[object, ...], list[int]] = {}
        for rank in self._open:
            node = self.nodes[rank]
            kinds.setdefault((node.taints, node.unschedulable), []).append(rank)
        self._kinds = list(kinds.values())
        """The schedulable nodes grouped by taints (and cordon): all a pod with tolerations only can tell apart."""
        self._groups: dict[frozenset[int], int] = {}
        self._sizes: dict[tuple[tuple[int, ...], int], ConstrainedSize] = {}

    def constrains(self, pod: PodSpec | None) -> bool:
        """Whether a pod's static predicates can fail on some node at all (cheap: before any evaluation)."""
        if pod is None:
            return self.tainted
        return self.tainted or bool(pod.node_selector or pod.required_node_affinity is not None or pod.node_name)

    def size(self, size: tuple[int, ...], pod: PodSpec | None) -> tuple[int, ...]:
        """The size an ask of this vector and pod spec takes: the vector itself when every schedulable node passes
        its static predicates, else a ConstrainedSize."""
        if not self.constrains(pod):
            return size
        spec = pod if pod is not None else NO_POD_SPEC
        facts = self._facts(spec)
        entry = facts.passing
        if not facts.computed:
            if spec.node_selector or spec.required_node_affinity is not None or spec.node_name:
                verdicts = facts.verdicts
                for rank in self._open:
                    if rank not in verdicts:
                        verdicts[rank] = static_failure(spec, self.nodes[rank])
                passing = frozenset(rank for rank in self._open if verdicts[rank] is None)
            else:  # tolerations only: one verdict per kind of node
                passing = frozenset(
                    rank for kind in self._kinds if static_failure(spec, self.nodes[kind[0]]) is None for rank in kind
                )
            if len(passing) == len(self._open):
                entry = None
            else:
                entry = (passing, self._groups.setdefault(passing, len(self._groups) + 1))
            facts.passing, facts.computed = entry, True
        if entry is None:
            return size
        key = (tuple(size), entry[1])
        found = self._sizes.get(key)
        if found is None:
            found = self._sizes[key] = ConstrainedSize(key[0], entry[0], entry[1])
        return found

    def failure(self, pod: PodSpec | None, rank: int) -> Failure | None:
        """The first static predicate the pod fails on the node of this rank (None: it passes)."""
        spec = pod if pod is not None else NO_POD_SPEC
        verdicts = self._facts(spec).verdicts
        if rank in verdicts:
            return verdicts[rank]
        found = verdicts[rank] = static_failure(spec, self.nodes[rank])
        return found

    def _facts(self, spec: PodSpec) -> _SpecFacts:
        hit = self._specs.get(id(spec))
        if hit is not None and hit[0] is spec:
            return hit[1]
        static = (spec.node_selector, spec.required_node_affinity, spec.tolerations, spec.node_name)
        facts = self._by_value.get(static)
        if facts is None:
            facts = self._by_value[static] = _SpecFacts()
        self._specs[id(spec)] = (spec, facts)
        return facts


class _SpecFacts:
    """What NodeGroups knows of one pod spec: its verdict per node rank, and its passing set once computed."""

    __slots__ = ("computed", "passing", "verdicts")

    def __init__(self) -> None:
        self.verdicts: dict[int, Failure | None] = {}
        self.passing: tuple[frozenset[int], int] | None = None
        """None: every schedulable node passes; else (passing ranks, group). Valid once computed."""
        self.computed = False
