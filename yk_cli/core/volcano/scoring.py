"""Volcano's node scores: the binpack and nodeorder plugins' node order functions, summed as util.PrioritizeNodes
sums them, and the best node among the candidates (tests/data/volcano/upstream/SCORING.md has the formulas and the
revisions read).

A node's total is the float sum of every enabled plugin's score (tiers in order, `enableNodeOrder` on): binpack's
packing score times `binpack.weight`; nodeorder's kube-scheduler scorers times their weights (LeastAllocated,
MostAllocated, BalancedAllocation, NodeAffinity's preferred terms, ImageLocality per node; TaintToleration's
PreferNoSchedule count normalised over the candidates). Volcano picks at random among equal best totals; yk takes the
smallest node name and says the pick was a tie.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.predicates.model import PREFER_NO_SCHEDULE
from yk_cli.core.predicates.node_plugins import node_affinity_term_matches, tolerates
from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.conf import SchedulerConf
from yk_cli.core.volcano.session import RELEASING, NodeInfo, TaskInfo

MAX_NODE_SCORE = 100
DEFAULT_MILLI_CPU_REQUEST = 100
"""schedutil.DefaultMilliCPURequest: what LeastAllocated and MostAllocated count for a pod without a cpu request."""
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024
"""schedutil.DefaultMemoryRequest (200 MiB)."""
GPU = "nvidia.com/gpu"

NODEORDER_WEIGHTS: dict[str, int] = {
    "leastrequested": 1,
    "mostrequested": 0,
    "balancedresource": 1,
    "nodeaffinity": 2,
    "podaffinity": 2,
    "tainttoleration": 3,
    "imagelocality": 1,
    "podtopologyspread": 2,
}
"""nodeorder's `<scorer>.weight` arguments and their defaults (nodeorder.go, calculateWeight)."""

UNMODELLED_SCORERS = {
    "podaffinity": "preferred pod (anti-)affinity terms are not scored (InterPodAffinity adds 0 to every node)",
    "podtopologyspread": "ScheduleAnyway spread constraints are not scored (PodTopologySpread adds 0 to every node)",
    "imagelocality": "node images are not read (ImageLocality adds 0 to every node)",
}


def _int_argument(arguments: Mapping[str, object], key: str, default: int) -> int:
    """framework.Arguments.GetInt: an integer value, else the default."""
    raw = arguments.get(key)
    if isinstance(raw, bool):
        return default
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return default


@dataclass(frozen=True, slots=True)
class Binpack:
    """binpack's arguments: the plugin weight and the weight of each packed resource (by dimension index)."""

    weight: int
    resources: tuple[tuple[int, float], ...]

    @classmethod
    def from_arguments(cls, arguments: Mapping[str, object], dims: Sequence[str]) -> Binpack:
        weight = _int_argument(arguments, "binpack.weight", 1)
        cpu = _int_argument(arguments, "binpack.cpu", 1)
        memory = _int_argument(arguments, "binpack.memory", 1)
        weights: dict[str, float] = {"cpu": cpu if cpu >= 0 else 1, "memory": memory if memory >= 0 else 1}
        listed = arguments.get("binpack.resources")
        for name in str(listed).split(",") if isinstance(listed, str) else ():
            name = name.strip()
            if name:
                w = _int_argument(arguments, f"binpack.resources.{name}", 1)
                weights[name] = w if w >= 0 else 1
        return cls(weight, tuple((dims.index(n), w) for n, w in weights.items() if n in dims))

    def score(self, task: TaskInfo, node: NodeInfo) -> float:
        """BinPackingScore: Σ (used + request) × w / allocatable over the requested, weighted resources, / Σ w, × 100
        × weight; 0 for the whole node when one of them does not fit (the newest binpack.go)."""
        total = 0.0
        weights = 0.0
        request = task.resreq
        for index, w in self.resources:
            asked = request[index]
            if asked < res.MIN_RESOURCE:
                continue
            capacity = node.allocatable[index]
            used = capacity - node.idle[index]
            if capacity == 0 or w == 0:
                part = 0.0
            elif used + asked > capacity:
                return 0.0
            else:
                part = (used + asked) * w / capacity
            total += part
            weights += w
        if weights > 0:
            total /= weights
        return total * float(MAX_NODE_SCORE * self.weight)


@dataclass(frozen=True, slots=True)
class NodeOrder:
    """nodeorder's scorer weights."""

    weights: tuple[tuple[str, int], ...]

    @classmethod
    def from_arguments(cls, arguments: Mapping[str, object]) -> NodeOrder:
        return cls(tuple((k, _int_argument(arguments, f"{k}.weight", d)) for k, d in NODEORDER_WEIGHTS.items()))

    def weight(self, scorer: str) -> int:
        return dict(self.weights)[scorer]


@dataclass(frozen=True, slots=True)
class NodeScore:
    """A candidate node's total and its parts (plugin or plugin/scorer name, weighted value), in conf order."""

    node: NodeInfo
    total: float
    parts: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class _Requested:
    """What the kube-scheduler scorers read of a node: its pods' non-zero cpu and memory and their actual requests."""

    version: int
    nonzero_cpu: float
    nonzero_memory: float
    actual: tuple[float, ...]


def _nonzero(request: Sequence[float]) -> tuple[float, float]:
    """schedutil.GetNonzeroRequests of a pod: cpu and memory, with 100m and 200Mi for an absent request (yk has the
    pod's summed request, so a pod counts the default only when no container asks for the resource)."""
    cpu = request[res.CPU] or DEFAULT_MILLI_CPU_REQUEST
    memory = request[res.MEMORY] or DEFAULT_MEMORY_REQUEST
    return cpu, memory


class NodeScorer:
    """The node order functions of a session's conf, and the best node among candidates."""

    def __init__(
        self, conf: SchedulerConf, dims: Sequence[str], nodes: Sequence[NodeInfo], pending: Sequence[TaskInfo] = ()
    ) -> None:
        self.dims = tuple(dims)
        self.plugins: list[Binpack | NodeOrder] = []
        for tier in conf.tiers:
            for option in tier.plugins:
                if not option.enabled("enableNodeOrder"):
                    continue
                if option.name == "binpack":
                    binpack = Binpack.from_arguments(option.arguments, self.dims)
                    if binpack.weight != 0:
                        self.plugins.append(binpack)
                elif option.name == "nodeorder":
                    self.plugins.append(NodeOrder.from_arguments(option.arguments))
        self.gpu = self.dims.index(GPU) if GPU in self.dims else None
        self.prefer_taints = any(t.effect == PREFER_NO_SCHEDULE for n in nodes for t in n.node.taints)
        self._requested: dict[str, _Requested] = {}
        tasks = [t for n in nodes for t in n.tasks.values()] + list(pending)
        self.defaults_apply = any(t.resreq[res.CPU] == 0 or t.resreq[res.MEMORY] == 0 for t in tasks)
        """Whether a pod on a node or one that may be placed (`pending`) asks for no cpu or no memory: then the
        non-zero requests need a walk over the node's pods."""
        self._deleting: dict[str, res.Vec] = {}
        """Per node, the requests of the pods already being deleted at session open (Releasing, still in the kube
        NodeInfo, unlike the pods this session evicts)."""
        for node in nodes:
            for task in node.tasks.values():
                if task.status == RELEASING and task.pod.deleting:
                    res.iadd(self._deleting.setdefault(node.name, [0.0] * len(self.dims)), task.resreq)
        self._constant = 0.0
        """What TaintToleration adds to every node when no candidate has a PreferNoSchedule taint."""
        self._fast: list[tuple[int, float, float, float]] = []
        """Per nodeorder plugin, (0, least, most, balanced weights); per binpack plugin (1, weight, 0, 0)."""
        for plugin in self.plugins:
            if isinstance(plugin, NodeOrder):
                weights = dict(plugin.weights)
                self._fast.append((0, float(weights["leastrequested"]), float(weights["mostrequested"]),
                                   float(weights["balancedresource"])))
                if weights["tainttoleration"]:
                    self._constant += float(MAX_NODE_SCORE * weights["tainttoleration"])
            else:
                self._fast.append((1, 0.0, 0.0, 0.0))

    @property
    def active(self) -> bool:
        """Whether any node order function is registered (else every node scores 0)."""
        return bool(self.plugins)

    def unmodelled(self, soft: Sequence[str]) -> list[str]:
        """What the enabled scorers cannot see, for the notes: ImageLocality always (node images are not read),
        InterPodAffinity and PodTopologySpread when a pod carries what they would score (`soft`: the pods'
        PodSpec.soft markers)."""
        wanted = {
            "imagelocality": True,
            "podaffinity": any(m.startswith("preferred pod") for m in soft),
            "podtopologyspread": "topology spread ScheduleAnyway" in soft,
        }
        out = []
        for plugin in self.plugins:
            if isinstance(plugin, NodeOrder):
                out += [
                    f"nodeorder {k}.weight {plugin.weight(k)}: {why}"
                    for k, why in UNMODELLED_SCORERS.items()
                    if plugin.weight(k) != 0 and wanted[k]
                ]
        return out

    def resource_only(self, task: TaskInfo) -> bool:
        """Whether the task's scores depend on nothing but each node's resources (then a node's score changes only
        when the node does): no preferred node affinity scored, no PreferNoSchedule taint in the cluster."""
        for plugin in self.plugins:
            if isinstance(plugin, NodeOrder):
                if plugin.weight("nodeaffinity") and task.pod.spec.preferred_node_affinity:
                    return False
                if plugin.weight("tainttoleration") and self.prefer_taints:
                    return False
        return True

    # -- scores ----------------------------------------------------------------------------------------------------
    def _node_requested(self, node: NodeInfo) -> _Requested:
        """The requests of the pods Volcano's kube NodeInfo holds: every task on the node but those evicted in
        this session (nodeorder's event handlers remove them)."""
        cached = self._requested.get(node.name)
        if cached is not None and cached.version == node.version:
            return cached
        if self.defaults_apply:
            cpu = memory = 0.0
            actual = [0.0] * len(self.dims)
            for task in node.tasks.values():
                if task.status == RELEASING and not task.pod.deleting:
                    continue
                c, m = _nonzero(task.resreq)
                cpu += c
                memory += m
                res.iadd(actual, task.resreq)
        else:
            # used (idle's complement: every task but pipelined ones) + pipelined - what this session evicted
            deleting = self._deleting.get(node.name)
            actual = [
                a - i + p - r for a, i, p, r in zip(node.allocatable, node.idle, node.pipelined, node.releasing,
                                                      strict=True)
            ]
            if deleting is not None:
                res.iadd(actual, deleting)
            cpu, memory = actual[res.CPU], actual[res.MEMORY]
        found = self._requested[node.name] = _Requested(node.version, cpu, memory, tuple(actual))
        return found

    def per_node(self, task: TaskInfo, node: NodeInfo) -> list[tuple[str, float]]:
        """The node order functions' scores of one node (nodeOrderFn: not normalised)."""
        parts: list[tuple[str, float]] = []
        for plugin in self.plugins:
            if isinstance(plugin, Binpack):
                parts.append(("binpack", plugin.score(task, node)))
                continue
            requested = self._node_requested(node)
            for scorer, weight in plugin.weights:
                if weight == 0 or scorer in ("tainttoleration", "podaffinity", "podtopologyspread"):
                    continue
                if scorer == "leastrequested":
                    raw = self._least(task, node, requested)
                elif scorer == "mostrequested":
                    raw = self._most(task, node, requested)
                elif scorer == "balancedresource":
                    raw = self._balanced(task, node, requested)
                elif scorer == "nodeaffinity":
                    raw = self._node_affinity(task, node)
                else:
                    raw = 0  # imagelocality: node images are not read
                parts.append((f"nodeorder/{scorer}", float(raw) * float(weight)))
        return parts

    @staticmethod
    def _allocated(task: TaskInfo, node: NodeInfo, requested: _Requested) -> tuple[tuple[int, int], ...]:
        """(allocatable, requested with the pod) of cpu and memory, non-zero requests: what NodeResourcesFit reads."""
        cpu, memory = _nonzero(task.resreq)
        return (
            (int(node.allocatable[res.CPU]), int(requested.nonzero_cpu + cpu)),
            (int(node.allocatable[res.MEMORY]), int(requested.nonzero_memory + memory)),
        )

    def _least(self, task: TaskInfo, node: NodeInfo, requested: _Requested) -> int:
        """NodeResourcesFit LeastAllocated: cpu and memory (weight 50 each), integer arithmetic."""
        pairs = [(alloc, req) for alloc, req in self._allocated(task, node, requested) if alloc]
        score = sum((0 if req > alloc else ((alloc - req) * MAX_NODE_SCORE) // alloc) * 50 for alloc, req in pairs)
        return score // (50 * len(pairs)) if pairs else 0

    def _most(self, task: TaskInfo, node: NodeInfo, requested: _Requested) -> int:
        """NodeResourcesFit MostAllocated: cpu and memory (weight 1 each), integer arithmetic."""
        pairs = [(alloc, req) for alloc, req in self._allocated(task, node, requested) if alloc]
        score = sum((min(req, alloc) * MAX_NODE_SCORE) // alloc for alloc, req in pairs)
        return score // len(pairs) if pairs else 0

    def _balanced(self, task: TaskInfo, node: NodeInfo, requested: _Requested) -> int:
        """NodeResourcesBalancedAllocation on cpu, memory and nvidia.com/gpu, actual requests (0 for a pod that asks
        for nothing)."""
        request = task.resreq
        if request[res.CPU] < res.MIN_RESOURCE and request[res.MEMORY] < res.MIN_RESOURCE and all(
            v < res.MIN_RESOURCE for i, v in enumerate(request) if i != res.PODS
        ):
            return 0
        fractions = []
        for i in (res.CPU, res.MEMORY) if self.gpu is None or request[self.gpu] < res.MIN_RESOURCE else (
            res.CPU, res.MEMORY, self.gpu
        ):
            alloc = node.allocatable[i]
            if alloc == 0:
                continue
            fractions.append(min((requested.actual[i] + request[i]) / alloc, 1.0))
        if len(fractions) == 2:
            std = abs(fractions[0] - fractions[1]) / 2
        elif len(fractions) > 2:
            mean = sum(fractions) / len(fractions)
            std = math.sqrt(sum((f - mean) ** 2 for f in fractions) / len(fractions))
        else:
            std = 0.0
        return int((1 - std) * MAX_NODE_SCORE)

    @staticmethod
    def _node_affinity(task: TaskInfo, node: NodeInfo) -> int:
        """NodeAffinity's raw score: the weights of the preferred terms the node matches (not normalised)."""
        terms = task.pod.spec.preferred_node_affinity
        if not terms:
            return 0
        labels = node.node.labels
        return sum(w for w, term in terms if node_affinity_term_matches(term, labels, node.name))

    def batch(self, task: TaskInfo, nodes: Sequence[NodeInfo]) -> list[list[tuple[str, float]]]:
        """The batch scores (batchNodeOrderFn) of the candidates: TaintToleration normalised over them."""
        out: list[list[tuple[str, float]]] = [[] for _ in nodes]
        for plugin in self.plugins:
            if not isinstance(plugin, NodeOrder):
                continue
            weight = plugin.weight("tainttoleration")
            if weight == 0:
                continue
            tolerations = [t for t in task.pod.spec.tolerations if t.effect in ("", PREFER_NO_SCHEDULE)]
            raw = [
                sum(
                    1
                    for taint in node.node.taints
                    if taint.effect == PREFER_NO_SCHEDULE and not any(tolerates(t, taint) for t in tolerations)
                )
                for node in nodes
            ]
            top = max(raw, default=0)
            for i, count in enumerate(raw):
                normal = MAX_NODE_SCORE if top == 0 else MAX_NODE_SCORE - (MAX_NODE_SCORE * count) // top
                out[i].append(("nodeorder/tainttoleration", float(normal * weight)))
        return out

    def scores(self, task: TaskInfo, nodes: Sequence[NodeInfo]) -> list[NodeScore]:
        """Every candidate's total and parts (PrioritizeNodes), best first; equal totals in node name order."""
        batch = self.batch(task, nodes)
        out = []
        for node, extra in zip(nodes, batch, strict=True):
            parts = self.per_node(task, node) + extra
            out.append(NodeScore(node, sum(v for _, v in parts), tuple(parts)))
        out.sort(key=lambda s: (-s.total, s.node.name))
        return out

    def total(self, task: TaskInfo, node: NodeInfo) -> float:
        """A node's total when the task's scores are resource-only (see resource_only): total_of(task)(node)."""
        return self.total_of(task)(node)

    def total_of(self, task: TaskInfo) -> Callable[[NodeInfo], float]:
        """The total of any node for this task when its scores are resource-only (see resource_only): the same number
        as `scores` gives (the same parts added in the same order; tests check it), without the parts: the batch
        part is then the same on every node (TaintToleration: 100 × weight), preferred node affinity and
        ImageLocality add 0. LeastAllocated, MostAllocated and BalancedAllocation are written out here, with what
        depends on the task worked out once, for speed: it runs for every node a change touches, per request
        signature."""
        request = task.resreq
        ask_cpu = request[res.CPU] or DEFAULT_MILLI_CPU_REQUEST
        ask_mem = request[res.MEMORY] or DEFAULT_MEMORY_REQUEST
        cpu, mem = request[res.CPU], request[res.MEMORY]
        gpu = self.gpu
        two_way = (gpu is None or request[gpu] < res.MIN_RESOURCE) and (
            cpu >= res.MIN_RESOURCE or mem >= res.MIN_RESOURCE
        )
        """BalancedAllocation reads cpu and memory only (no gpu asked) and the task asks for one of them."""
        fast, plugins, constant = self._fast, self.plugins, self._constant
        cache, node_requested, balanced_of = self._requested, self._node_requested, self._balanced

        def total_for(node: NodeInfo) -> float:
            total = 0.0
            for index, (kind, least, most, balanced) in enumerate(fast):
                if kind == 1:
                    binpack = plugins[index]
                    assert isinstance(binpack, Binpack)
                    total += binpack.score(task, node)
                    continue
                requested = cache.get(node.name)
                if requested is None or requested.version != node.version:
                    requested = node_requested(node)
                alloc_cpu, alloc_mem = int(node.allocatable[0]), int(node.allocatable[1])
                if least or most:
                    req_cpu = int(requested.nonzero_cpu + ask_cpu)
                    req_mem = int(requested.nonzero_memory + ask_mem)
                    if least:
                        score = weights = 0
                        if alloc_cpu:
                            score += (0 if req_cpu > alloc_cpu else ((alloc_cpu - req_cpu) * 100) // alloc_cpu) * 50
                            weights += 50
                        if alloc_mem:
                            score += (0 if req_mem > alloc_mem else ((alloc_mem - req_mem) * 100) // alloc_mem) * 50
                            weights += 50
                        total += float(score // weights if weights else 0) * least
                    if most:
                        score = weights = 0
                        if alloc_cpu:
                            score += ((req_cpu if req_cpu < alloc_cpu else alloc_cpu) * 100) // alloc_cpu
                            weights += 1
                        if alloc_mem:
                            score += ((req_mem if req_mem < alloc_mem else alloc_mem) * 100) // alloc_mem
                            weights += 1
                        total += float(score // weights if weights else 0) * most
                if balanced:
                    if two_way:
                        actual = requested.actual
                        a_cpu, a_mem = node.allocatable[0], node.allocatable[1]
                        if a_cpu and a_mem:
                            f_cpu = (actual[0] + cpu) / a_cpu
                            f_mem = (actual[1] + mem) / a_mem
                            std = abs((f_cpu if f_cpu < 1.0 else 1.0) - (f_mem if f_mem < 1.0 else 1.0)) / 2
                            total += float(int((1 - std) * 100)) * balanced
                        else:
                            total += float(int(100.0)) * balanced
                    else:
                        total += float(balanced_of(task, node, requested)) * balanced
            return total + constant if constant else total

        return total_for
