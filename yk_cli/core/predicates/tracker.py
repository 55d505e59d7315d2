"""The pod-dependent predicates during a dry run: the pods placed so far, and which pods the placed ones constrain.

NodePorts, PodTopologySpread and InterPodAffinity read the pods already on the nodes, so their verdict on a node
changes as the run places and releases pods. A pod is *dynamic* when such a verdict can fail for it: it carries host
ports, required pod (anti-)affinity or a DoNotSchedule spread constraint, or a pod anywhere in the run carries a
required anti-affinity term that it matches (the symmetric rule). Every other pod never needs them, and a run in
which no pod is dynamic keeps no tracker at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from yk_cli.core.predicates.classes import passing_of
from yk_cli.core.predicates.model import NO_POD_SPEC, Failure, Namespace, NodeFacts, PodSpec
from yk_cli.core.predicates.placed import PlacedPods, Term, _term
from yk_cli.core.predicates.pod_plugins import PodState, prepare


class DynamicSize(tuple[int, ...]):
    """The resource vector of asks whose node verdicts depend on the pods placed so far.

    Never cached by the engine's node index: each try walks the nodes. `base` is the vector the static predicates
    give (a plain vector or a ConstrainedSize): when no node fits it, none fits the dynamic size either.
    """

    base: tuple[int, ...]
    spec: PodSpec
    passing: frozenset[int] | None
    """The base's static passing nodes (None: every node)."""

    def __new__(cls, base: tuple[int, ...], spec: PodSpec) -> DynamicSize:
        made = super().__new__(cls, base)
        made.base = base
        made.spec = spec
        made.passing = passing_of(base)
        return made

    def __eq__(self, other: object) -> bool:
        return (
            tuple.__eq__(self, other) is True
            and isinstance(other, DynamicSize)
            and other.base == self.base
            and other.spec == self.spec
        )

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__
    """By identity, in C: PodTracker.size makes one object per base vector and pod spec."""

    def __reduce__(self) -> tuple[object, ...]:
        return (DynamicSize, (self.base, self.spec))


class PodTracker:
    """The placed pods (PlacedPods) and the dynamic test of pod specs, for one run."""

    def __init__(self, nodes: Sequence[NodeFacts], namespaces: Sequence[Namespace], specs: Iterable[PodSpec]) -> None:
        self.placed = PlacedPods(nodes, namespaces)
        self.facts = {node.name: node for node in nodes}
        self._namespace_labels = {ns.name: ns.labels for ns in namespaces}
        self._anti: tuple[Term, ...] = tuple(
            dict.fromkeys(_term(term, spec.namespace) for spec in specs for term in spec.pod_anti_affinity)
        )
        self._dynamic: dict[PodSpec, bool] = {}
        self._sizes: dict[tuple[tuple[int, ...], int], tuple[PodSpec, DynamicSize]] = {}

    def size(self, base: tuple[int, ...], pod: PodSpec | None) -> DynamicSize:
        """The one DynamicSize of a base size and pod spec."""
        spec = pod if pod is not None else NO_POD_SPEC
        key = (base, id(spec))
        hit = self._sizes.get(key)
        if hit is None or hit[0] is not spec:
            hit = self._sizes[key] = (spec, DynamicSize(base, spec))
        return hit[1]

    @staticmethod
    def needed(specs: Iterable[PodSpec]) -> bool:
        """Whether any pod of a run is dynamic (only then does a run keep a tracker)."""
        return any(spec.dynamic for spec in specs)

    def dynamic(self, pod: PodSpec | None) -> bool:
        """Whether the pod's verdict on a node can depend on the pods placed so far."""
        spec = pod if pod is not None else NO_POD_SPEC
        found = self._dynamic.get(spec)
        if found is None:
            labels = self._namespace_labels.get(spec.namespace, ())
            found = self._dynamic[spec] = spec.dynamic or any(
                term.matches(spec.namespace, spec.labels, labels) for term in self._anti
            )
        return found

    def add(self, pod: PodSpec | None, node: str) -> None:
        """A pod was placed on the node."""
        self.placed.add(pod if pod is not None else NO_POD_SPEC, node)

    def remove(self, pod: PodSpec | None, node: str) -> None:
        """A pod left the node."""
        self.placed.remove(pod if pod is not None else NO_POD_SPEC, node)

    def state(self, pod: PodSpec | None, removed: Sequence[tuple[PodSpec | None, str]] = ()) -> PodState:
        """The pod's PreFilter now (removed: pods treated as gone); then .failure(facts) per node."""
        gone = [(p if p is not None else NO_POD_SPEC, node) for p, node in removed]
        return prepare(pod if pod is not None else NO_POD_SPEC, self.placed, gone)

    def failure(
        self, pod: PodSpec | None, node: str, removed: Sequence[tuple[PodSpec | None, str]] = ()
    ) -> Failure | None:
        """The first pod-dependent Filter the pod fails on the node now (None: it passes)."""
        return self.state(pod, removed).failure(self.facts[node])
