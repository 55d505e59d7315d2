"""Dry-run warnings about node constraints: what a workload (a workload file or a `--cluster` dump) asks of nodes
that cannot work, or that YuniKorn does not do.

    lint_predicates(workload) -> list[Problem]     (warnings, addressed by workload document path)

* pod-matches-no-node: a pod's nodeSelector, required node affinity or nodeName matches no node at all;
* toleration-matches-no-taint: a toleration that tolerates no taint, while a taint with a similar key (or the same
  key with another value or effect) exists;
* soft-constraint-ignored: preferred (anti-)affinity, ScheduleAnyway spread constraints, PreferNoSchedule taints;
* task-group-predicates-differ: a gang task group whose placeholders are constrained otherwise than its pods.

Pure and cheap: pods are grouped by their PodSpec object (equal specs are interned to one object), and a workload
whose pods carry no node constraints costs one pass of C-level iteration over its asks.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar

from yk_cli.core.diagnostics import Path, Problem, Rule, warning
from yk_cli.core.predicates.model import (
    EQUAL,
    EXISTS,
    NO_EXECUTE,
    NO_POD_SPEC,
    PREFER_NO_SCHEDULE,
    SCHEDULE_ANYWAY,
    Labels,
    NodeFacts,
    PodSpec,
    Taint,
    Toleration,
)

if TYPE_CHECKING:
    from yk_cli.core.workload.model import Application, Ask, NodeSpec, TaskGroup, Workload

_SORT_ORDER = (
    "the first node in its node sort order (the partition's nodesortpolicy: fair by default, or binpacking) that "
    "passes the Filters"
)

POD_MATCHES_NO_NODE = warning(
    "pod-matches-no-node",
    "A pod's nodeSelector, required node affinity or nodeName matches no node of the workload: it can run on none "
    "of them.",
    "NodeAffinity passes only the nodes that carry every label of a pod's `nodeSelector` and match one of the terms "
    "of its required node affinity (`requiredDuringSchedulingIgnoredDuringExecution`: terms ORed, a term's "
    "expressions ANDed); NodeName passes only the node `nodeName` names. yk compares an ask's and a task group's "
    "(its placeholders') constraints with the labels and names of every node of the workload or dump, whatever "
    "their taints and whether they are cordoned: when none matches, the pod waits for ever (kube-scheduler: `0/N "
    "nodes are available: N node(s) didn't match Pod's node affinity/selector`), or until a matching node joins "
    "(a node group the cluster autoscaler scaled to zero). The message says which part matches nothing, the hint "
    "which label the nodes lack and the values they have (did you mean). One warning per application and set of "
    "constraints, naming the number of pods.",
)
TOLERATION_MATCHES_NO_TAINT = warning(
    "toleration-matches-no-taint",
    "A toleration tolerates no taint of any node, while a taint with a similar key, or with its key and another "
    "value or effect, exists.",
    "A toleration tolerates a taint when their keys are equal (an empty key with `operator: Exists` tolerates every "
    "taint), its effect is empty or the taint's, and with `operator: Equal` (the default) their values are equal. "
    "A toleration whose key is a near miss of a taint's key (`nvidia.com/gpus` for `nvidia.com/gpu`, `gpu` for "
    "`nvidia.com/gpu`), or whose value or effect is not the taint's, tolerates nothing: the pod is kept off the "
    "nodes it was meant for (`node(s) had untolerated taint(s)`). yk reports it with a did-you-mean, unless another "
    "toleration of the pod tolerates that taint. Tolerations of the taints Kubernetes sets itself "
    "(`node.kubernetes.io/*`, `node.cloudprovider.kubernetes.io/*`: not-ready, unreachable, unschedulable, "
    "pressure) are never reported: every pod may carry them. One warning per application and toleration.",
)
SOFT_CONSTRAINT_IGNORED = warning(
    "soft-constraint-ignored",
    "A preferred node or pod (anti-)affinity, a ScheduleAnyway spread constraint or a PreferNoSchedule taint, which "
    "YuniKorn ignores.",
    "kube-scheduler scores the nodes that pass its Filters and takes the best: it prefers the nodes a pod's "
    "`preferredDuringSchedulingIgnoredDuringExecution` node affinity matches, the nodes near (or away from) the pods "
    "of its preferred pod (anti-)affinity, the nodes that reduce the skew of a `whenUnsatisfiable: ScheduleAnyway` "
    "spread constraint, and the nodes without a `PreferNoSchedule` taint it does not tolerate. YuniKorn runs the "
    "Filters only, never a Score plugin: it places each pod on " + _SORT_ORDER + ", so these constraints change "
    "nothing, in the dry run as in the cluster. Make a constraint required (requiredDuringScheduling..., "
    "DoNotSchedule, NoSchedule) if it must hold. One warning per application and kind of constraint, naming the "
    "number of pods (placeholders included), and one per PreferNoSchedule taint, naming the number of nodes.",
)
TASK_GROUP_PREDICATES_DIFFER = warning(
    "task-group-predicates-differ",
    "A gang task group whose nodeSelector, tolerations, affinity or topologySpreadConstraints differ from those of "
    "its pods.",
    "The shim creates a task group's placeholders with the group's own nodeSelector, tolerations, affinity and "
    "topologySpreadConstraints (yunikorn.apache.org/task-groups), not with those of the pods that name the group "
    "(yunikorn.apache.org/task-group-name). When they differ, placeholders reserve nodes the real pods may not "
    "use: a real pod then does not replace a placeholder on its node but goes to another node, or waits, while the "
    "placeholder holds the resources until it times out. Give the task group exactly the constraints of its pods. "
    "The tolerations the API server adds to every pod (node.kubernetes.io/not-ready and unreachable, NoExecute) "
    "are left out of the comparison.",
)

PREDICATE_LINT_RULES: tuple[Rule, ...] = (
    POD_MATCHES_NO_NODE,
    TOLERATION_MATCHES_NO_TAINT,
    SOFT_CONSTRAINT_IGNORED,
    TASK_GROUP_PREDICATES_DIFFER,
)

_K = TypeVar("_K")
_POD = attrgetter("pod")
_KUBERNETES_TAINTS = ("node.kubernetes.io/", "node.cloudprovider.kubernetes.io/")
"""Prefixes of the taints Kubernetes sets itself (node conditions, cordon, cloud initialisation)."""
_ADMISSION_TOLERATIONS = frozenset({"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"})
"""DefaultTolerationSeconds admission: the API server adds these (NoExecute, 300 s) to every pod."""
_SOFT = {
    "preferred node affinity": (
        ("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
        "kube-scheduler would prefer the nodes its terms match (NodeAffinity score)",
    ),
    "preferred pod affinity": (
        ("affinity", "podAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
        "kube-scheduler would prefer the nodes near the pods its terms match (InterPodAffinity score)",
    ),
    "preferred pod anti-affinity": (
        ("affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
        "kube-scheduler would prefer the nodes away from the pods its terms match (InterPodAffinity score)",
    ),
    "topology spread ScheduleAnyway": (
        ("topologySpreadConstraints",),
        "kube-scheduler would prefer the nodes that lower the skew (PodTopologySpread score)",
    ),
}
"""PodSpec.soft names: the field they come from (below a pod's path) and what kube-scheduler does with them."""
_SOFT_HINT = (
    "make it required (requiredDuringSchedulingIgnoredDuringExecution, whenUnsatisfiable: DoNotSchedule) if it "
    "must hold, or drop it."
)


def lint_predicates(workload: Workload) -> list[Problem]:
    """The node-constraint warnings of a workload, addressed by document path (an ask's, task group's or node's)."""
    problems = _prefer_no_schedule(workload.nodes)
    lint: _Lint | None = None
    gang_pods = frozenset(workload.gang_pods)
    for app in workload.applications:
        asks = app.asks
        if not app.task_groups and not any(map(_POD, asks)):
            continue  # the common case: no ask carries a PodSpec at all
        if lint is None:
            lint = _Lint(workload.nodes)
        problems.extend(lint.application(app, gang_pods))
    return problems


# ---- the pods of an application --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Carrier:
    """Pods of one application with one PodSpec: the first ask (or the task group) and how many pods."""

    pod: PodSpec
    name: str
    """`ask NAME` or `task group NAME`."""
    path: Path
    count: int
    group: bool = False


@dataclass(slots=True)
class _Tally:
    """Pods of an application that share something worth a warning: the first one and how many in all."""

    first: _Carrier
    pods: int = 0
    carriers: int = 0


def _carriers(app: Application, wanted: Callable[[PodSpec], bool]) -> list[_Carrier]:
    """The distinct PodSpecs of an application's asks that are wanted (with the first ask and the number of asks),
    then those of its task groups (with the number of placeholders), asks in file order. Pods are told apart by
    object (equal PodSpecs are interned to one): C-level passes over the asks, a Python one over distinct PodSpecs."""
    asks = app.asks
    out: list[_Carrier] = []
    pods = list(map(_POD, asks))
    distinct = dict(zip(map(id, pods), pods, strict=True))
    keys = {key for key, pod in distinct.items() if pod is not None and wanted(pod)}
    if keys:
        firsts = dict(zip(map(id, reversed(pods)), reversed(asks), strict=True))  # the first ask per PodSpec object
        counts = Counter(map(id, pods)) if len(distinct) > 1 else {id(pods[0]): len(pods)}
        for key in sorted(keys, key=lambda k: firsts[k].seq):
            ask = firsts[key]
            assert ask.pod is not None
            out.append(_Carrier(ask.pod, f"ask {ask.name}", ask.path, counts[key]))
    out.extend(
        _Carrier(group.pod, f"task group {group.name}", group.path, group.min_member, group=True)
        for group in app.task_groups
        if group.pod is not None and wanted(group.pod)
    )
    return out


def _who(tally: _Tally) -> str:
    """`ask web-0`, `the 4 placeholders of task group workers`, or `3 pods (first: ask web-0)`."""
    first, pods = tally.first, tally.pods
    if tally.carriers == 1 and first.group:
        return f"the {pods} placeholder{'s' if pods != 1 else ''} of {first.name}"
    if tally.carriers == 1 and pods == 1:
        return first.name
    return f"{pods} pods (first: {first.name})"


class _Lint:
    """The checks of one workload's applications, with what they share: the nodes' labels and taints."""

    def __init__(self, nodes: Sequence[NodeSpec]) -> None:
        self.nodes = nodes
        self._label_index: dict[tuple[str, str], list[NodeFacts]] | None = None
        self.taints = tuple(dict.fromkeys(t for n in nodes for t in n.taints))
        self.taints_by_key: dict[str, list[Taint]] = {}
        for taint in self.taints:
            self.taints_by_key.setdefault(taint.key, []).append(taint)
        self.fits: dict[tuple[object, ...], bool] = {}
        self.misses: dict[Toleration, _Miss | None] = {}

    @cached_property
    def facts(self) -> list[NodeFacts]:
        """The nodes' names and labels only (pod-matches-no-node ignores taints and cordons); made when a pod has a
        nodeSelector, node affinity or nodeName."""
        return [NodeFacts(n.name, n.labels) for n in self.nodes]

    @cached_property
    def by_name(self) -> dict[str, NodeFacts]:
        return {f.name: f for f in self.facts}

    def wanted(self, pod: PodSpec) -> bool:
        """Whether a pod may be worth a warning: it has node constraints or soft ones, or a toleration (of a taint
        Kubernetes does not set itself) that tolerates no taint."""
        if pod.node_selector or pod.required_node_affinity is not None or pod.node_name or pod.soft:
            return True
        if self.taints:
            prefixes = _KUBERNETES_TAINTS
            for toleration in pod.tolerations:  # inlined _miss's first test: this runs for every pod of a dump
                key = toleration.key
                if key and not key.startswith(prefixes) and self._miss(toleration) is not None:
                    return True
        return False

    def application(self, app: Application, gang_pods: frozenset[str]) -> list[Problem]:
        carriers = _carriers(app, self.wanted)
        problems: list[Problem] = []
        no_node: dict[tuple[object, ...], _Tally] = {}
        missed: dict[Toleration, _Tally] = {}
        soft: dict[str, _Tally] = {}
        for carrier in carriers:
            pod = carrier.pod
            if self.nodes and (pod.node_selector or pod.required_node_affinity is not None or pod.node_name):
                key = (pod.node_selector, pod.required_node_affinity, pod.node_name)
                fits = self.fits.get(key)
                if fits is None:
                    fits = self.fits[key] = self._fits_some(pod)
                if not fits:
                    _tally(no_node, key, carrier)
            if self.taints and pod.tolerations:
                for toleration in dict.fromkeys(pod.tolerations):
                    miss = self._miss(toleration)
                    if miss is not None and not any(_tolerated(pod.tolerations, taint) for taint in miss.suggested):
                        _tally(missed, toleration, carrier)
            for kind in pod.soft:
                _tally(soft, kind, carrier)
        for tally in no_node.values():
            problems.append(self._no_node(app, tally))
        for toleration, tally in missed.items():
            problems.append(self._missed(app, toleration, tally))
        for kind, tally in soft.items():
            problems.append(_soft(app, kind, tally))
        if app.task_groups:
            problems.extend(_task_groups(app, gang_pods))
        return problems

    # ---- pod-matches-no-node -------------------------------------------------------------------------------------

    def _label_nodes(self, pair: tuple[str, str]) -> list[NodeFacts]:
        if self._label_index is None:
            index: dict[tuple[str, str], list[NodeFacts]] = {}
            for facts in self.facts:
                for label in facts.labels:
                    index.setdefault(label, []).append(facts)
            self._label_index = index
        return self._label_index.get(pair, [])

    def _selected(self, selector: Labels) -> list[NodeFacts]:
        """The nodes that carry every label of a nodeSelector."""
        if not selector:
            return self.facts
        lists = sorted((self._label_nodes(pair) for pair in selector), key=len)
        if not lists[0]:
            return []
        rest = [set(map(id, nodes)) for nodes in lists[1:]]
        return [f for f in lists[0] if all(id(f) in ids for ids in rest)]

    def _fits_some(self, pod: PodSpec) -> bool:
        """Whether some node passes the pod's NodeName and NodeAffinity (labels and names only)."""
        from yk_cli.core.predicates.node_plugins import static_failure

        candidates = self._selected(pod.node_selector)
        if pod.node_name:
            candidates = [f for f in candidates if f.name == pod.node_name]
        return any(static_failure(pod, facts) is None for facts in candidates)

    def _no_node(self, app: Application, tally: _Tally) -> Problem:
        from yk_cli.core.predicates.node_plugins import affinity_node_names, matches_node_affinity

        carrier = tally.first
        pod = carrier.pod
        who = _who(tally)
        where: tuple[str | int, ...]
        selected = self._selected(pod.node_selector)
        if pod.node_name and pod.node_name not in self.by_name:
            what = f"its nodeName {pod.node_name} is not a node of the workload"
            hint = _did_you_mean(pod.node_name, list(self.by_name), "node") or _listed("nodes", self.by_name)
            where = ("nodeName",)
        elif not selected:
            what = f"no node has all the labels of its nodeSelector {_labels(pod.node_selector)}"
            hint = self._selector_hint(pod.node_selector)
            where = ("nodeSelector",)
        elif pod.node_name and not any(f.name == pod.node_name for f in selected):
            what = f"node {pod.node_name}, which its nodeName names, does not have the labels of its nodeSelector"
            hint = f"node {pod.node_name} has labels {_labels(self.by_name[pod.node_name].labels) or '(none)'}."
            where = ("nodeSelector",)
        else:
            alone = PodSpec(required_node_affinity=pod.required_node_affinity)
            names = affinity_node_names(alone)
            where = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
            hint = (
                "its terms are ORed and the expressions of a term ANDed; compare the keys and values with the "
                "nodes' labels."
            )
            if names is not None and not names:
                what = "the terms of its required node affinity name no node in common (matchFields metadata.name)"
            elif not any(matches_node_affinity(alone, facts) for facts in self.facts):
                what = "no node matches its required node affinity"
                if names is not None:
                    missing = sorted(names - set(self.by_name))
                    if missing:
                        hint = f"not nodes of the workload: {', '.join(missing[:8])}."
            elif pod.node_name:
                what = f"node {pod.node_name}, which its nodeName names, does not match its required node affinity"
            else:
                what = (
                    f"no node both has the labels of its nodeSelector {_labels(pod.node_selector)} and matches its "
                    "required node affinity"
                )
        nodes = (
            "cannot run on the only node" if len(self.facts) == 1 else f"can run on none of the {len(self.facts)} nodes"
        )
        return POD_MATCHES_NO_NODE.problem(
            f"application {app.id}: {who} {nodes}: {what}",
            (*carrier.path, *where),
            hint=hint,
        )

    def _selector_hint(self, selector: Labels) -> str:
        """For the first nodeSelector label no node has: the values nodes give its key (with a did-you-mean), or
        the key nodes have that is closest to it."""
        for key, value in selector:
            if self._label_nodes((key, value)):
                continue
            values = sorted({v for f in self.facts for k, v in f.labels if k == key})
            if values:
                close = difflib.get_close_matches(value, values, n=1, cutoff=0.75)
                if close:
                    return f"no node has label {key}={value}; did you mean {key}={close[0]}?"
                return f"no node has label {key}={value}; nodes label {key} with: {_some(values)}."
            keys = sorted({k for f in self.facts for k, _ in f.labels})
            close_key = _similar_key(key, keys)
            if close_key is not None:
                return f"no node has a label {key}; did you mean {close_key}?"
            return f"no node has a label {key}."
        return "each of its labels is on some node, but no node has them all."

    # ---- toleration-matches-no-taint -----------------------------------------------------------------------------

    def _miss(self, toleration: Toleration) -> _Miss | None:
        """_toleration_miss, memoised; a toleration of a taint Kubernetes sets itself (every pod of a dump carries
        two) is let go before any hashing."""
        key = toleration.key
        if not key or key.startswith(_KUBERNETES_TAINTS):
            return None
        misses = self.misses
        if toleration in misses:
            return misses[toleration]
        miss = misses[toleration] = _toleration_miss(toleration, self.taints, self.taints_by_key)
        return miss

    def _missed(self, app: Application, toleration: Toleration, tally: _Tally) -> Problem:
        miss = self.misses[toleration]
        assert miss is not None
        carrier = tally.first
        index = carrier.pod.tolerations.index(toleration)
        return TOLERATION_MATCHES_NO_TAINT.problem(
            f"application {app.id}: toleration {_toleration(toleration)} of {_who(tally)} tolerates no taint of any "
            f"node: {miss.what}",
            (*carrier.path, "tolerations", index),
            hint=miss.hint,
        )


def _tally(tallies: dict[_K, _Tally], key: _K, carrier: _Carrier) -> None:
    tally = tallies.get(key)
    if tally is None:
        tally = tallies[key] = _Tally(carrier)
    tally.pods += carrier.count
    tally.carriers += 1


# ---- toleration-matches-no-taint ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Miss:
    """Why a toleration tolerates no taint, the did-you-mean, and the taints it was probably meant for."""

    what: str
    hint: str
    suggested: tuple[Taint, ...]


def _kubernetes_taint(key: str) -> bool:
    return key.startswith(_KUBERNETES_TAINTS)


def _tolerates(toleration: Toleration, taint: Taint) -> bool:
    from yk_cli.core.predicates.node_plugins import tolerates

    return tolerates(toleration, taint)


def _tolerated(tolerations: Iterable[Toleration], taint: Taint) -> bool:
    return any(_tolerates(t, taint) for t in tolerations)


def _toleration_miss(t: Toleration, taints: Sequence[Taint], by_key: dict[str, list[Taint]]) -> _Miss | None:
    """Why t tolerates none of the taints, when a taint close to it exists; None when it tolerates one, when no
    taint is close, or when it is not worth a word (an empty key, a taint Kubernetes sets itself, an operator the
    API server refuses)."""
    if not t.key or t.operator not in (EQUAL, EXISTS) or _kubernetes_taint(t.key):
        return None
    if any(_tolerates(t, taint) for taint in taints):
        return None
    same = by_key.get(t.key)
    if same:
        by_value = [x for x in same if t.operator == EXISTS or x.value == t.value]
        if by_value:  # so the effect differs
            effects = sorted({x.effect for x in by_value})
            return _Miss(
                f"the taint{'s' if len(by_value) > 1 else ''} {', '.join(_taint(x) for x in by_value)} "
                f"{'have' if len(by_value) > 1 else 'has'} effect {' or '.join(effects)}, not {t.effect}",
                f"did you mean effect: {effects[0]}? (leave effect out to tolerate every effect)",
                tuple(by_value),
            )
        by_effect = [x for x in same if not t.effect or x.effect == t.effect] or same
        values = sorted({x.value for x in by_effect})
        close = difflib.get_close_matches(t.value, values, n=1, cutoff=0.75)
        shown = ", ".join(v or '""' for v in values)
        what = f"the taints with key {t.key} have value{'s' if len(values) > 1 else ''} {shown}"
        if close:
            return _Miss(
                what,
                f"did you mean value: {_some(close)}? (operator: Exists tolerates every value)",
                tuple(x for x in by_effect if x.value == close[0]),
            )
        return _Miss(what, "operator: Exists tolerates every value.", tuple(by_effect))
    keys = sorted(k for k in by_key if not _kubernetes_taint(k))
    similar = _similar_key(t.key, keys)
    if similar is None:
        return None
    shown = ", ".join(_taint(x) for x in by_key[similar][:3])
    return _Miss(
        f"no node has a taint with key {t.key}", f"did you mean {similar}? nodes have {shown}.", tuple(by_key[similar])
    )


def _similar_key(key: str, keys: Sequence[str]) -> str | None:
    """The closest of keys to a label or taint key: by the whole key, else by the name after the prefix
    (`gpu` and `nvidia.com/gpu`)."""
    close = difflib.get_close_matches(key, keys, n=1, cutoff=0.75)
    if close:
        return close[0]
    names: dict[str, str] = {}
    for k in keys:
        names.setdefault(k.rpartition("/")[2], k)
    close = difflib.get_close_matches(key.rpartition("/")[2], list(names), n=1, cutoff=0.8)
    if close and names[close[0]] != key:
        return names[close[0]]
    return None


# ---- soft-constraint-ignored -------------------------------------------------------------------------------------


def _soft(app: Application, kind: str, tally: _Tally) -> Problem:
    field_path, kube = _SOFT.get(kind, ((), "kube-scheduler would score the nodes by it"))
    carrier = tally.first
    path: tuple[str | int, ...] = (*carrier.path, *field_path)
    if kind == "topology spread ScheduleAnyway":
        index = next(
            (i for i, c in enumerate(carrier.pod.topology_spread) if c.when_unsatisfiable == SCHEDULE_ANYWAY), None
        )
        if index is not None:
            path = (*path, index)
    verb = "carries" if tally.pods == 1 and not carrier.group else "carry"
    return SOFT_CONSTRAINT_IGNORED.problem(
        f"application {app.id}: {_who(tally)} {verb} {kind}, which YuniKorn ignores: {kube}; YuniKorn runs no Score "
        f"plugin and places each pod on {_SORT_ORDER}",
        path,
        hint=_SOFT_HINT,
    )


def _prefer_no_schedule(nodes: Sequence[NodeSpec]) -> list[Problem]:
    """One warning per distinct PreferNoSchedule taint (key and value), at its first node, naming how many nodes
    carry it."""
    found: dict[tuple[str, str], tuple[NodeSpec, int, int]] = {}
    for node in nodes:
        for i, taint in enumerate(node.taints):
            if taint.effect == PREFER_NO_SCHEDULE:
                pair = (taint.key, taint.value)
                seen = found.get(pair)
                found[pair] = (node, i, 1) if seen is None else (seen[0], seen[1], seen[2] + 1)
    problems = []
    for (key, value), (node, index, count) in found.items():
        who = f"node {node.name}" if count == 1 else f"{count} nodes (first: {node.name})"
        shown = _taint(Taint(key, value, PREFER_NO_SCHEDULE))
        problems.append(
            SOFT_CONSTRAINT_IGNORED.problem(
                f"{who} {'has' if count == 1 else 'have'} taint {shown}, which YuniKorn ignores: kube-scheduler "
                "would put the pods that do not tolerate it on other nodes when it can (TaintToleration score); "
                "YuniKorn runs no Score plugin, treats the node as untainted and places each pod on " + _SORT_ORDER,
                (*node.path, "taints", index),
                hint="use effect NoSchedule to keep pods that do not tolerate it off the node, or drop the taint.",
            )
        )
    return problems


# ---- task-group-predicates-differ --------------------------------------------------------------------------------


def _task_groups(app: Application, gang_pods: frozenset[str]) -> list[Problem]:
    """Each task group against the pods that name it (placeholders already in a dump left out)."""
    members: dict[str, dict[int, tuple[Ask, int]]] = {}
    names = {group.name for group in app.task_groups}
    for ask in app.asks:
        group_name = ask.task_group
        if group_name in names and not ask.placeholder and ask.name not in gang_pods:
            specs = members.setdefault(group_name, {})
            key = id(ask.pod)
            seen = specs.get(key)
            specs[key] = (ask, 1) if seen is None else (seen[0], seen[1] + 1)
    problems = []
    for group in app.task_groups:
        placeholders = _Constraints.of(group.pod)
        differing: list[tuple[Ask, list[str], _Constraints]] = []
        pods = 0
        for ask, count in members.get(group.name, {}).values():
            real = _Constraints.of(ask.pod)
            fields = placeholders.differences(real)
            if fields:
                differing.append((ask, fields, real))
                pods += count
        if differing:
            problems.append(_differ(app, group, differing, pods))
    return problems


def _differ(
    app: Application, group: TaskGroup, differing: list[tuple[Ask, list[str], _Constraints]], pods: int
) -> Problem:
    ask, fields, real = differing[0]
    placeholders = _Constraints.of(group.pod)
    who = f"its pod {ask.name}" if pods == 1 else f"its {pods} pods (first: {ask.name})"
    hint = ""
    for name, mine, theirs in (
        ("nodeSelector", _labels(placeholders.node_selector), _labels(real.node_selector)),
        ("tolerations", _tolerations(placeholders.tolerations), _tolerations(real.tolerations)),
    ):
        if name in fields:
            hint += f"{name}: {mine or '(none)'} in the task group, {theirs or '(none)'} in {ask.name}; "
    hint += "give the task group exactly the nodeSelector, tolerations, affinity and topologySpreadConstraints of "
    hint += "its pods."
    return TASK_GROUP_PREDICATES_DIFFER.problem(
        f"application {app.id}: task group {group.name} differs from {who} in {_and(fields)}: its "
        "placeholders may reserve nodes the real pods cannot use, and a real pod then goes to another node or waits",
        (*group.path, fields[0]),
        hint=hint,
    )


@dataclass(frozen=True, slots=True)
class _Constraints:
    """What placeholders and their pods must share, in a form equal when the constraints are (order aside)."""

    node_selector: Labels
    tolerations: frozenset[Toleration]
    affinity: tuple[object, ...]
    spread: frozenset[object]

    @classmethod
    def of(cls, pod: PodSpec | None) -> _Constraints:
        pod = pod or NO_POD_SPEC
        tolerations = frozenset(
            t
            for t in pod.tolerations
            if not (t.key in _ADMISSION_TOLERATIONS and t.operator == EXISTS and t.effect == NO_EXECUTE)
        )
        affinity = (pod.required_node_affinity, frozenset(pod.pod_affinity), frozenset(pod.pod_anti_affinity))
        return cls(pod.node_selector, tolerations, affinity, frozenset(pod.topology_spread))

    def differences(self, other: _Constraints) -> list[str]:
        """The workload field names that differ, in the order of the format."""
        fields = []
        if self.node_selector != other.node_selector:
            fields.append("nodeSelector")
        if self.tolerations != other.tolerations:
            fields.append("tolerations")
        if self.affinity != other.affinity:
            fields.append("affinity")
        if self.spread != other.spread:
            fields.append("topologySpreadConstraints")
        return fields


# ---- words ---------------------------------------------------------------------------------------------------------


def _labels(labels: Labels) -> str:
    return ", ".join(f"{k}={v}" for k, v in labels)


def _taint(taint: Taint) -> str:
    """kubectl's taint syntax: key=value:effect (key:effect without a value)."""
    return f"{taint.key}{'=' + taint.value if taint.value else ''}:{taint.effect}"


def _toleration(t: Toleration) -> str:
    """A toleration as a YAML flow mapping of the fields it sets."""
    parts = [f"key: {t.key}"] if t.key else []
    parts.append(f"operator: {t.operator}")
    if t.value:
        parts.append(f"value: {t.value}")
    if t.effect:
        parts.append(f"effect: {t.effect}")
    return "{" + ", ".join(parts) + "}"


def _tolerations(tolerations: Iterable[Toleration]) -> str:
    return ", ".join(sorted(_toleration(t) for t in tolerations))


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _some(values: Sequence[str]) -> str:
    shown = ", ".join(v or '""' for v in values[:8])
    return shown + (" ..." if len(values) > 8 else "")


def _listed(what: str, names: Iterable[str]) -> str:
    listed = sorted(names)
    return f"the workload's {what}: {_some(listed)}." if listed else f"the workload has no {what}."


def _did_you_mean(word: str, known: Sequence[str], what: str) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"did you mean {what} {close[0]}?" if close else ""
