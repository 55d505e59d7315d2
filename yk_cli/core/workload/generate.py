"""A deterministic synthetic cluster: a valid queue config and a realistic workload, built from a seed.

Optionally (`NodePools`, `constrained`, `spread`) the nodes carry Kubernetes labels and taints (a GPU pool,
control-plane nodes, zones) and some pods node selectors, tolerations, zone spread or hostname anti-affinity. Those
come from a second random stream seeded apart, after the plain cluster is drawn: with them off nothing changes, and
with them on the plain cluster (sizes, queues, applications, asks) is the one generated without them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

GI = 1024
"""MiB per GiB: memory is generated in MiB and written with Mi/Gi suffixes."""
SUBMIT_START = -120
"""Seconds: the earliest application submit time (already waiting when the run starts)."""
SUBMIT_END = 300
"""Seconds: the latest application submit time (arrivals spread over a few minutes)."""
LIMITS = {"--nodes": 1_000_000, "--queues": 100_000, "--apps": 10_000_000, "--asks": 10_000_000}
"""Upper bounds that keep a typo from exhausting memory."""
NODE_PODS = 110
"""Pods per node, as Kubernetes' default kubelet allows."""

NODE_SHAPES: tuple[tuple[int, int, int], ...] = (
    # (vcore, memory GiB, weight)
    (16, 64, 30),
    (32, 128, 30),
    (48, 192, 15),
    (64, 256, 15),
    (32, 256, 10),
)
"""Node sizes: general purpose and a memory-optimised shape."""

ASK_SHAPES: tuple[tuple[int, int, int], ...] = (
    # (vcore millicores, memory MiB, weight)
    (250, 512, 4),
    (500, 1024, 10),
    (1000, 2048, 15),
    (1000, 4096, 12),
    (2000, 4096, 14),
    (2000, 8192, 13),
    (4000, 8192, 10),
    (4000, 16384, 10),
    (8000, 16384, 5),
    (8000, 32768, 4),
    (16000, 65536, 3),
)
"""Pod sizes: mostly small, a long tail of large ones (about 3 cores and 10Gi on average)."""

DRIVER_SHAPE = (1000, 4096)
"""The first ask of a multi-ask application (a Spark driver, a job's coordinator)."""

PRIORITY_CLASSES: tuple[dict[str, Any], ...] = (
    {"name": "batch-low", "value": 10, "preemptionPolicy": "PreemptLowerPriority", "allowPreemption": True},
    {"name": "standard", "value": 100, "globalDefault": True},
    {"name": "batch-never", "value": 100, "preemptionPolicy": "Never"},
    {"name": "high", "value": 1000, "allowPreemption": False},
    {"name": "critical", "value": 10000, "allowPreemption": False},
)
"""The cluster's PriorityClasses (the Kubernetes built-ins are implied)."""
_CLASS_VALUE = {pc["name"]: int(pc["value"]) for pc in PRIORITY_CLASSES}
_CLASS_PREEMPTIBLE = {pc["name"]: bool(pc.get("allowPreemption", True)) for pc in PRIORITY_CLASSES}
_TENANT_CLASSES = (("batch-low", 20), ("standard", 50), ("batch-never", 10), ("high", 15), ("critical", 5))
_SYSTEM_CLASSES = (("high", 50), ("critical", 50))
_LEAF_KINDS = ("batch", "svc", "etl", "ml", "adhoc", "stream")
_TEAMS = ("data", "web", "ml", "infra", "analytics", "payments", "search", "ads", "mobile", "risk", "media", "ops")

HOSTNAME_KEY = "kubernetes.io/hostname"
ZONE_KEY = "topology.kubernetes.io/zone"
POOL_KEY = "pool"
GPU_POOL = "gpu"
GPU_TAINT: dict[str, str] = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
CONTROL_PLANE_KEY = "node-role.kubernetes.io/control-plane"
CONTROL_PLANE_TAINT: dict[str, str] = {"key": CONTROL_PLANE_KEY, "effect": "NoSchedule"}
MAX_ZONES = 26
"""Zones are named zone-a .. zone-z."""
ANTI_AFFINITY_MAX_PODS = 10
"""Applications of at most this many pods may keep their pods on distinct nodes (hostname anti-affinity); larger
ones spread over zones."""
_CONSTRAINT_KINDS = (("gpu", 40), ("zone", 30), ("tolerate-gpu", 30))
"""What a constrained application outside root.system asks for: the GPU pool (selector and toleration), one zone
(selector), or leave to run on the GPU pool too (toleration only)."""
POD_FIELDS = (
    "namespace",
    "labels",
    "nodeSelector",
    "tolerations",
    "affinity",
    "topologySpreadConstraints",
    "hostPorts",
)
"""The workload's node-predicate fields of applications, asks and allocations (`strip_predicates` removes them)."""
NODE_FIELDS = ("labels", "taints")
"""The workload's node-predicate fields of nodes."""


@dataclass(frozen=True, slots=True)
class NodePools:
    """Kubernetes labels and taints on the nodes: every node gets `kubernetes.io/hostname` and
    `topology.kubernetes.io/zone` (round robin over the zones); the first `control_plane` nodes are tainted
    `node-role.kubernetes.io/control-plane:NoSchedule`; `gpu` percent of the nodes (drawn at random among the others)
    form a GPU pool, labelled `pool: gpu` and tainted `nvidia.com/gpu=present:NoSchedule`. Sizes do not change."""

    gpu: float = 10.0
    """Percent of the nodes in the GPU pool."""
    control_plane: int = 1
    zones: int = 3

    def spec(self) -> str:
        """The `--node-pools` text that gives these pools."""
        return f"gpu={_number(self.gpu)},control-plane={self.control_plane},zones={self.zones}"


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def parse_node_pools(text: str) -> NodePools | None:
    """`--node-pools`: `off` (None), `on` (the defaults), or comma-separated `gpu=PCT`, `control-plane=N`,
    `zones=N` (each defaulting as in `on`)."""
    value = text.strip().lower()
    if value in ("off", "no", "false", "0", "none"):
        return None
    if value in ("on", "yes", "true", "1", ""):
        return NodePools()
    fields: dict[str, float] = {}
    for part in value.split(","):
        key, sep, number = (item.strip() for item in part.partition("="))
        if not sep or key not in ("gpu", "control-plane", "zones"):
            raise GenerateError(
                f"--node-pools: {part.strip()!r} is not one of gpu=PCT, control-plane=N, zones=N (or on, off)"
            )
        try:
            fields[key] = float(number.removesuffix("%")) if key == "gpu" else int(number)
        except ValueError:
            raise GenerateError(f"--node-pools: {key} needs a number (got {number!r})") from None
    default = NodePools()
    pools = NodePools(
        gpu=fields.get("gpu", default.gpu),
        control_plane=int(fields.get("control-plane", default.control_plane)),
        zones=int(fields.get("zones", default.zones)),
    )
    check_node_pools(pools)
    return pools


def check_node_pools(pools: NodePools) -> None:
    """Raise GenerateError when the pools are unusable."""
    if not 0.0 <= pools.gpu <= 100.0 or math.isnan(pools.gpu):
        raise GenerateError(f"--node-pools: gpu must be a percentage between 0 and 100 (got {_number(pools.gpu)})")
    if pools.control_plane < 0:
        raise GenerateError(f"--node-pools: control-plane must not be negative (got {pools.control_plane})")
    if not 1 <= pools.zones <= MAX_ZONES:
        raise GenerateError(f"--node-pools: zones must be between 1 and {MAX_ZONES} (got {pools.zones})")


@dataclass(frozen=True, slots=True)
class GenerateOptions:
    """What to generate: sizes, the seed, the share of asks that already run as allocations, and optionally node
    pools and pods constrained to them."""

    nodes: int
    queues: int
    """Leaf queues."""
    apps: int
    asks: int
    seed: int = 0
    running: float = 0.0
    """Running allocations to add, as a fraction of the ask count (placed where they fit)."""
    partition: str = "default"
    node_pools: NodePools | None = None
    """Labels and taints on the nodes; None: none (required by constrained and spread)."""
    constrained: float = 0.0
    """Percent of the pods (whole applications) with a node selector or toleration for the pools."""
    spread: float = 0.0
    """Percent of the pods (whole applications) with a zone topology spread constraint or hostname anti-affinity."""


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated queue config and workload as plain YAML-ready data (dicts, lists, str, int, bool)."""

    config: dict[str, Any]
    workload: dict[str, Any]
    leaves: tuple[str, ...]
    """Full paths of the leaf queues, in configuration order."""
    allocations: int
    """Running allocations actually placed (some requested ones may not fit)."""
    tainted_nodes: int = 0
    gpu_nodes: int = 0
    constrained_pods: int = 0
    """Asks and allocations with a node selector or toleration."""
    spread_pods: int = 0
    """Asks and allocations with a zone spread constraint or hostname anti-affinity."""


class GenerateError(ValueError):
    """Options that cannot produce a workload; the message is for the user."""


def check_options(options: GenerateOptions) -> None:
    """Raise GenerateError with a clear message when the options are unusable."""
    if options.nodes < 1:
        raise GenerateError(f"--nodes must be at least 1 (got {options.nodes})")
    if options.queues < 1:
        raise GenerateError(f"--queues must be at least 1 (got {options.queues})")
    if options.apps < 0:
        raise GenerateError(f"--apps must not be negative (got {options.apps})")
    if options.asks < 0:
        raise GenerateError(f"--asks must not be negative (got {options.asks})")
    for flag, value in (("--nodes", options.nodes), ("--queues", options.queues), ("--apps", options.apps)):
        if value > LIMITS[flag]:
            raise GenerateError(f"{flag} is at most {LIMITS[flag]:,} (got {value:,})")
    if options.asks > LIMITS["--asks"]:
        raise GenerateError(f"--asks is at most {LIMITS['--asks']:,} (got {options.asks:,})")
    if options.asks > 0 and options.apps == 0:
        raise GenerateError("--asks needs at least one application (--apps >= 1)")
    if not 0.0 <= options.running <= 1.0 or math.isnan(options.running):
        raise GenerateError(f"--running must be between 0 and 1 (got {options.running})")
    if options.seed < 0:
        raise GenerateError(f"--seed must not be negative (got {options.seed})")
    for flag, share in (("--constrained", options.constrained), ("--spread", options.spread)):
        if not 0.0 <= share <= 100.0 or math.isnan(share):
            raise GenerateError(f"{flag} must be a percentage between 0 and 100 (got {_number(share)})")
        if share > 0 and options.node_pools is None:
            raise GenerateError(f"{flag} needs node pools (--node-pools on)")
    if options.node_pools is not None:
        check_node_pools(options.node_pools)


def generate(options: GenerateOptions) -> Generated:
    """Build the config and workload for the options; same options, same result."""
    check_options(options)
    rng = random.Random(options.seed)
    nodes, capacity = _nodes(rng, options.nodes)
    tree = _QueueBuilder(rng, capacity).build(options.queues)
    apps = _applications(rng, options, tree)
    pools = _Pools(options, nodes, apps) if options.node_pools is not None else None
    allocations = _running(rng, options, apps, nodes, tree, pools) if options.running > 0 else 0
    leaf_apps: dict[str, int] = {}
    for app in apps:
        leaf_apps[app.leaf.path] = leaf_apps.get(app.leaf.path, 0) + 1
    _set_maxapplications(rng, tree, leaf_apps)
    partition: dict[str, Any] = {"name": options.partition}
    if rng.random() < 0.3:
        partition["nodesortpolicy"] = {"type": "binpacking"}
    else:
        partition["nodesortpolicy"] = {"type": "fair", "resourceweights": {"vcore": 1.0, "memory": 1.0}}
    partition["queues"] = [tree.root.to_config()]
    workload: dict[str, Any] = {
        "partition": options.partition,
        "priorityClasses": [dict(pc) for pc in PRIORITY_CLASSES],
        "nodes": [node.to_data() for node in nodes],
        "applications": [app.to_data() for app in apps],
    }
    return Generated(
        config={"partitions": [partition]},
        workload=workload,
        leaves=tuple(leaf.path for leaf in tree.leaves),
        allocations=allocations,
        tainted_nodes=sum(1 for node in nodes if node.taints),
        gpu_nodes=sum(1 for node in nodes if node.labels.get(POOL_KEY) == GPU_POOL),
        constrained_pods=sum(len(app.asks) + len(app.allocations) for app in apps if app.constraint),
        spread_pods=sum(len(app.asks) + len(app.allocations) for app in apps if app.spread),
    )


def strip_predicates(workload: dict[str, Any]) -> dict[str, Any]:
    """The workload without any node-predicate field (nodes' labels and taints; pods' namespace, labels, selectors,
    tolerations, affinity, spread and host ports), in place; returned for convenience."""
    for node in workload.get("nodes") or ():
        for key in NODE_FIELDS:
            node.pop(key, None)
    for app in workload.get("applications") or ():
        for item in (app, *(app.get("asks") or ()), *(app.get("allocations") or ())):
            for key in POD_FIELDS:
                item.pop(key, None)
        for group in app.get("taskGroups") or ():
            for key in POD_FIELDS:
                group.pop(key, None)
    return workload


# --- nodes -------------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Node:
    name: str
    vcore: int
    """Cores."""
    memory: int
    """GiB."""
    schedulable: bool
    free: list[int] = field(default_factory=list)
    """Free [millicores, MiB, pods] for placing running allocations."""
    labels: dict[str, str] = field(default_factory=dict)
    taints: list[dict[str, str]] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "resources": {"vcore": self.vcore, "memory": f"{self.memory}Gi", "pods": NODE_PODS},
        }
        if not self.schedulable:
            data["schedulable"] = False
        if self.labels:
            data["labels"] = dict(self.labels)
        if self.taints:
            data["taints"] = [dict(taint) for taint in self.taints]
        return data


def _nodes(rng: random.Random, count: int) -> tuple[list[_Node], tuple[int, int]]:
    """The nodes and the schedulable capacity in (cores, GiB)."""
    width = max(4, len(str(count)))
    shapes = [(v, m) for v, m, _ in NODE_SHAPES]
    weights = [w for _, _, w in NODE_SHAPES]
    nodes: list[_Node] = []
    cores = memory = 0
    for i in range(count):
        vcore, mem = rng.choices(shapes, weights)[0]
        schedulable = count < 20 or rng.random() >= 0.005
        node = _Node(f"node-{i + 1:0{width}d}", vcore, mem, schedulable, [vcore * 1000, mem * GI, NODE_PODS])
        nodes.append(node)
        if schedulable:
            cores += vcore
            memory += mem
    return nodes, (max(cores, 1), max(memory, 1))


# --- node pools and constrained pods -----------------------------------------------------------------------------


class _Pools:
    """Labels and taints on the nodes, selectors, tolerations, spread and anti-affinity on whole applications; all
    drawn from their own random stream, so the plain cluster is the one generated without them."""

    def __init__(self, options: GenerateOptions, nodes: list[_Node], apps: list[_App]) -> None:
        pools = options.node_pools
        assert pools is not None
        rng = random.Random(f"yk generate node pools, seed {options.seed}")
        count = len(nodes)
        zones = [f"zone-{chr(ord('a') + z)}" for z in range(max(1, min(pools.zones, count)))]
        for i, node in enumerate(nodes):
            node.labels[HOSTNAME_KEY] = node.name
            node.labels[ZONE_KEY] = zones[i % len(zones)]
        control_plane = min(pools.control_plane, count - 1)
        for node in nodes[:control_plane]:
            node.labels[CONTROL_PLANE_KEY] = ""
            node.taints.append(dict(CONTROL_PLANE_TAINT))
        others = count - control_plane
        gpu = min(round(count * pools.gpu / 100), others - 1) if others > 1 else 0
        for i in sorted(rng.sample(range(control_plane, count), gpu)):
            nodes[i].labels[POOL_KEY] = GPU_POOL
            nodes[i].taints.append(dict(GPU_TAINT))
        open_zones = sorted({node.labels[ZONE_KEY] for node in nodes if node.schedulable and not node.taints})
        kinds = [(k, w) for k, w in _CONSTRAINT_KINDS if gpu or k == "zone"]
        for app in _choose(rng, apps, options.constrained):
            if app.leaf.path.startswith("root.system.") or not open_zones:
                app.constraint = "tolerate-all"
            else:
                app.constraint = _pick(rng, tuple(kinds))
                if app.constraint == "zone":
                    app.zone = rng.choice(open_zones)
        for app in _choose(rng, apps, options.spread):
            small = len(app.asks) <= ANTI_AFFINITY_MAX_PODS
            app.spread = "hostname" if small and rng.random() < 0.5 else "zone"
        self._allowed: dict[tuple[str, str], list[_Node]] = {}

    def allowed(self, app: _App, usable: list[_Node]) -> list[_Node]:
        """The usable nodes whose taints the application tolerates and whose labels its selector matches."""
        key = (app.constraint, app.zone)
        found = self._allowed.get(key)
        if found is None:
            found = self._allowed[key] = [node for node in usable if _passes(app, node)]
        return found


def _passes(app: _App, node: _Node) -> bool:
    """The static predicates (TaintToleration, the nodeSelector) of the application's pods on the node."""
    for taint in node.taints:
        tolerated = app.constraint == "tolerate-all" or (
            taint["key"] == GPU_TAINT["key"] and app.constraint in ("gpu", "tolerate-gpu")
        )
        if not tolerated:
            return False
    if app.constraint == "gpu":
        return node.labels.get(POOL_KEY) == GPU_POOL
    if app.constraint == "zone":
        return node.labels.get(ZONE_KEY) == app.zone
    return True


def _choose(rng: random.Random, apps: list[_App], percent: float) -> list[_App]:
    """Whole applications, in a random order, until their asks come nearest to `percent` of all asks."""
    total = sum(len(app.asks) for app in apps)
    target = total * percent / 100
    if target <= 0:
        return []
    order = list(range(len(apps)))
    rng.shuffle(order)
    chosen: list[int] = []
    got = 0
    for i in order:
        if got >= target:
            break
        size = len(apps[i].asks)
        if size and got + size - target <= target - got:
            chosen.append(i)
            got += size
    return [apps[i] for i in sorted(chosen)]


# --- queues ------------------------------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class _Queue:
    name: str
    path: str
    parent: _Queue | None
    guaranteed: tuple[int, int] | None = None
    """(cores, GiB)."""
    max: tuple[int, int] | None = None
    properties: dict[str, str] = field(default_factory=dict)
    children: list[_Queue] = field(default_factory=list)
    submitacl: str = ""
    maxapplications: int = 0
    kind: str = "batch"
    weight: float = 1.0
    classes: tuple[tuple[str, int], ...] = _TENANT_CLASSES
    users: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    used: list[int] = field(default_factory=lambda: [0, 0])
    """[millicores, MiB] of running allocations in this queue and below."""

    def child(self, name: str) -> _Queue:
        queue = _Queue(name, f"{self.path}.{name}", self, classes=self.classes, groups=self.groups)
        self.children.append(queue)
        return queue

    def effective_max(self) -> tuple[int, int] | None:
        """Component-wise minimum of max over this queue and its ancestors."""
        out: tuple[int, int] | None = None
        queue: _Queue | None = self
        while queue is not None:
            if queue.max is not None:
                out = queue.max if out is None else (min(out[0], queue.max[0]), min(out[1], queue.max[1]))
            queue = queue.parent
        return out

    def to_config(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.submitacl:
            data["submitacl"] = self.submitacl
        if self.maxapplications:
            data["maxapplications"] = self.maxapplications
        if self.properties:
            data["properties"] = dict(self.properties)
        resources: dict[str, Any] = {}
        if self.guaranteed is not None:
            resources["guaranteed"] = _config_resource(self.guaranteed)
        if self.max is not None:
            resources["max"] = _config_resource(self.max)
        if resources:
            data["resources"] = resources
        if self.children:
            data["queues"] = [child.to_config() for child in self.children]
        return data


def _config_resource(value: tuple[int, int]) -> dict[str, Any]:
    return {"vcore": value[0], "memory": f"{value[1]}Gi"}


@dataclass(slots=True)
class _Tree:
    root: _Queue
    leaves: list[_Queue]


def _split(rng: random.Random, total: int, parts: int, minimum: int = 1) -> list[int]:
    """Split total into parts (each >= minimum) with random weights, by largest remainder."""
    if parts <= 0:
        return []
    spare = total - minimum * parts
    weights = [rng.uniform(0.5, 1.5) for _ in range(parts)]
    scale = sum(weights)
    exact = [spare * w / scale for w in weights]
    counts = [int(x) for x in exact]
    order = sorted(range(parts), key=lambda i: (counts[i] - exact[i], i))
    for i in order[: spare - sum(counts)]:
        counts[i] += 1
    return [minimum + c for c in counts]


def _scaled(value: tuple[int, int], factor: float, up: bool = False) -> tuple[int, int]:
    """Both components scaled, rounded down (or up)."""
    if up:
        return (math.ceil(value[0] * factor), math.ceil(value[1] * factor))
    return (int(value[0] * factor), int(value[1] * factor))


def _cap(value: tuple[int, int], limit: tuple[int, int] | None) -> tuple[int, int]:
    return value if limit is None else (min(value[0], limit[0]), min(value[1], limit[1]))


def _positive(value: tuple[int, int]) -> tuple[int, int] | None:
    return value if value[0] > 0 and value[1] > 0 else None


class _QueueBuilder:
    """Builds root -> (system) -> tenants -> teams -> leaves with consistent guarantees and limits."""

    def __init__(self, rng: random.Random, capacity: tuple[int, int]) -> None:
        self.rng = rng
        self.capacity = capacity

    def build(self, leaves: int) -> _Tree:
        rng = self.rng
        root = _Queue("root", "root", None, submitacl="*")
        out: list[_Queue] = []
        system_leaves = 2 if leaves >= 6 else 0
        if system_leaves:
            system = root.child("system")
            system.classes = _SYSTEM_CLASSES
            system.groups = ("system",)
            system.users = ("svc-platform", "svc-monitoring")
            system.guaranteed = _positive(_scaled(self.capacity, 0.05))
            system.max = _scaled(self.capacity, 0.15, up=True)
            system.properties["application.sort.priority"] = "enabled"
            high = system.child("platform")
            high.properties["priority.offset"] = "1000"
            high.kind = "svc"
            low = system.child("monitoring")
            low.properties["priority.offset"] = "-100"
            low.kind = "svc"
            low.max = _cap(_scaled(self.capacity, 0.05, up=True), system.effective_max())
            out.extend((high, low))
        rest = leaves - system_leaves
        tenants = max(1, round(rest ** (1 / 3)))
        tenant_leaves = _split(rng, rest, tenants)
        budget = _scaled(self.capacity, 0.75 if system_leaves else 0.8)
        weights = [rng.uniform(0.6, 1.4) for _ in range(tenants)]
        fenced = set(rng.sample(range(tenants), min(tenants, 2 if tenants >= 4 else 1)))
        width = len(str(tenants))
        for t in range(tenants):
            name = f"tenant-{t + 1:0{width}d}"
            tenant = root.child(name)
            tenant.groups = (name,)
            tenant.users = tuple(f"{name}-user{u + 1}" for u in range(rng.randint(2, 6)))
            guaranteed = _positive(_scaled(budget, weights[t] / sum(weights)))
            tenant.guaranteed = guaranteed
            if guaranteed is None or rng.random() < 0.8:
                base = guaranteed or _scaled(self.capacity, 0.2, up=True)
                tenant.max = _cap(_scaled(base, rng.uniform(1.5, 3.0), up=True), self.capacity)
            if t in fenced:
                tenant.properties["priority.policy"] = "fence"
                tenant.properties["priority.offset"] = str(rng.choice((0, 5, 10, 20)))
            elif rng.random() < 0.3:
                tenant.properties["priority.offset"] = str(rng.choice((-10, -5, 5)))
            if rng.random() < 0.2:
                tenant.properties["application.sort.priority"] = "disabled"
            if rng.random() < 0.25:
                tenant.properties["preemption.policy"] = "fence"
            share = guaranteed or _scaled(budget, 1 / tenants)
            self._teams(tenant, tenant_leaves[t], _cap(share, tenant.effective_max()), out)
        return _Tree(root, out)

    def _teams(self, tenant: _Queue, leaves: int, budget: tuple[int, int], out: list[_Queue]) -> None:
        """Teams under a tenant; budget bounds the sum of the guarantees below it."""
        rng = self.rng
        teams = max(1, round(math.sqrt(leaves)))
        team_leaves = _split(rng, leaves, teams)
        weights = [rng.uniform(0.6, 1.4) for _ in range(teams)]
        names = rng.sample(_TEAMS, min(teams, len(_TEAMS)))
        for i in range(teams):
            team = tenant.child(names[i] if i < len(names) else f"{names[i % len(names)]}-{i // len(names) + 1}")
            team.groups = (*tenant.groups, team.name)
            team_budget = _scaled(budget, 0.9 * weights[i] / sum(weights))
            parent_max = tenant.effective_max()
            if rng.random() < 0.6:
                team.guaranteed = _positive(team_budget)
            if rng.random() < 0.5:
                base = team_budget if _positive(team_budget) else _scaled(budget, 0.5, up=True)
                team.max = _cap(_scaled(base, rng.uniform(1.2, 2.5), up=True), parent_max)
            if rng.random() < 0.15:
                team.properties["priority.offset"] = str(rng.choice((-5, 2, 5)))
            self._leaves(team, team_leaves[i], _cap(team.guaranteed or team_budget, team.effective_max()), out)

    def _leaves(self, team: _Queue, count: int, budget: tuple[int, int], out: list[_Queue]) -> None:
        """Leaf queues under a team; their guarantees sum to at most 90% of the budget."""
        rng = self.rng
        weights = [rng.uniform(0.5, 1.5) for _ in range(count)]
        guaranteed_flags = [rng.random() < 0.35 for _ in range(count)]
        total = sum(weights)
        kinds: dict[str, int] = {}
        for i in range(count):
            kind = rng.choice(_LEAF_KINDS)
            kinds[kind] = kinds.get(kind, 0) + 1
            leaf = team.child(f"{kind}-{kinds[kind]}")
            leaf.kind = kind
            leaf.weight = rng.uniform(0.2, 1.8) ** 2
            if guaranteed_flags[i]:
                leaf.guaranteed = _positive(_scaled(budget, 0.9 * weights[i] / total))
            if rng.random() < 0.4:
                base = leaf.guaranteed or _scaled(budget, 0.5, up=True)
                limit = team.effective_max()
                leaf.max = _positive(_cap(_scaled(base, rng.uniform(1.5, 3.0), up=True), limit))
                if leaf.max is not None and leaf.guaranteed is not None:
                    leaf.max = (max(leaf.max[0], leaf.guaranteed[0]), max(leaf.max[1], leaf.guaranteed[1]))
            policy = rng.random()
            if policy < 0.35:
                leaf.properties["application.sort.policy"] = "fair"
            elif policy < 0.5:
                leaf.properties["application.sort.policy"] = "fifo"
            if rng.random() < 0.1:
                leaf.properties["priority.offset"] = str(rng.choice((-20, -10, 10, 50)))
            if rng.random() < 0.05:
                leaf.properties["priority.policy"] = "fence"
            if rng.random() < 0.1:
                leaf.properties["preemption.delay"] = rng.choice(("10s", "60s", "2m"))
            out.append(leaf)


def _set_maxapplications(rng: random.Random, tree: _Tree, leaf_apps: dict[str, int]) -> None:
    """A few leaves cap their running applications, some just below their demand."""
    for leaf in tree.leaves:
        apps = leaf_apps.get(leaf.path, 0)
        if apps >= 2 and rng.random() < 0.1:
            leaf.maxapplications = max(1, apps - rng.randint(0, max(1, apps // 5)))


# --- applications ------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _App:
    id: str
    leaf: _Queue
    submit: int
    """Seconds."""
    user: str
    groups: tuple[str, ...]
    priority_class: str
    explicit_priority: int | None
    shape: tuple[int, int]
    """(millicores, MiB) of each ask after the first."""
    asks: list[dict[str, Any]] = field(default_factory=list)
    allocations: list[dict[str, Any]] = field(default_factory=list)
    constraint: str = ""
    """Empty (none), or gpu, zone, tolerate-gpu, tolerate-all (see _Pools)."""
    zone: str = ""
    """The zone a "zone" constraint selects."""
    spread: str = ""
    """Empty (none), zone (topology spread) or hostname (anti-affinity)."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "queue": self.leaf.path,
            "submitTime": _duration(self.submit),
            "user": self.user,
            "groups": list(self.groups),
        }
        if self.spread:
            data["labels"] = {"app": self.id}
        if self.constraint in ("gpu", "zone"):
            data["nodeSelector"] = {POOL_KEY: GPU_POOL} if self.constraint == "gpu" else {ZONE_KEY: self.zone}
        if self.constraint in ("gpu", "tolerate-gpu"):
            data["tolerations"] = [{"key": GPU_TAINT["key"], "operator": "Exists", "effect": "NoSchedule"}]
        elif self.constraint == "tolerate-all":
            data["tolerations"] = [{"operator": "Exists"}]
        selector = {"matchLabels": {"app": self.id}}
        if self.spread == "hostname":
            term = {"topologyKey": HOSTNAME_KEY, "labelSelector": selector}
            data["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
        elif self.spread == "zone":
            data["topologySpreadConstraints"] = [
                {"maxSkew": 1, "topologyKey": ZONE_KEY, "whenUnsatisfiable": "DoNotSchedule", "labelSelector": selector}
            ]
        if self.asks:
            data["asks"] = self.asks
        if self.allocations:
            data["allocations"] = self.allocations
        if not self.asks and not self.allocations:
            data["asks"] = []
        return data


def _duration(seconds: int) -> str:
    """A Go duration in whole seconds, e.g. -90s, 0s, 5m, 1h2m3s."""
    sign = "-" if seconds < 0 else ""
    value = abs(seconds)
    if value == 0:
        return "0s"
    hours, rest = divmod(value, 3600)
    minutes, secs = divmod(rest, 60)
    text = (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "") + (f"{secs}s" if secs else "")
    return sign + text


def _resource(shape: tuple[int, int]) -> dict[str, Any]:
    """A pod's request: whole cores as a number, else millicores; memory in Gi or Mi; one pod."""
    millicores, mib = shape
    vcore: int | str = millicores // 1000 if millicores % 1000 == 0 else f"{millicores}m"
    memory = f"{mib // GI}Gi" if mib % GI == 0 else f"{mib}Mi"
    return {"vcore": vcore, "memory": memory, "pods": 1}


def _pick(rng: random.Random, table: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([name for name, _ in table], [w for _, w in table])[0]


def _ask_counts(rng: random.Random, apps: int, asks: int) -> list[int]:
    """Asks per application: at least one each when there are enough, heavy-tailed (some apps fan out wide)."""
    if apps == 0:
        return []
    if asks < apps:
        chosen = set(rng.sample(range(apps), asks))
        return [1 if i in chosen else 0 for i in range(apps)]
    spare = asks - apps
    weights = [min(rng.paretovariate(1.3), 200.0) for _ in range(apps)]
    scale = sum(weights)
    exact = [spare * w / scale for w in weights]
    counts = [int(x) for x in exact]
    order = sorted(range(apps), key=lambda i: (counts[i] - exact[i], i))
    for i in order[: spare - sum(counts)]:
        counts[i] += 1
    return [1 + c for c in counts]


def _applications(rng: random.Random, options: GenerateOptions, tree: _Tree) -> list[_App]:
    leaves = tree.leaves
    leaf_weights = [leaf.weight for leaf in leaves]
    width = max(4, len(str(options.apps)))
    counts = _ask_counts(rng, options.apps, options.asks)
    shapes = [(v, m) for v, m, _ in ASK_SHAPES]
    shape_weights = [w for _, _, w in ASK_SHAPES]
    assigned = rng.choices(leaves, leaf_weights, k=options.apps) if options.apps else []
    apps: list[_App] = []
    for i in range(options.apps):
        leaf = assigned[i]
        tenant = leaf.parent.parent if leaf.parent is not None and leaf.parent.parent is not None else leaf
        users = tenant.users or (f"{leaf.name}-user",)
        priority_class = _pick(rng, leaf.classes)
        explicit = _CLASS_VALUE[priority_class] + rng.choice((-1, 0, 1)) if rng.random() < 0.05 else None
        app = _App(
            id=f"app-{i + 1:0{width}d}",
            leaf=leaf,
            submit=rng.randint(SUBMIT_START, SUBMIT_END),
            user=rng.choice(users),
            groups=leaf.groups,
            priority_class=priority_class,
            explicit_priority=explicit,
            shape=rng.choices(shapes, shape_weights)[0],
        )
        batch = leaf.kind != "svc" and rng.random() < 0.8
        app.asks = _asks(rng, app, counts[i], batch)
        apps.append(app)
    return apps


def _asks(rng: random.Random, app: _App, count: int, batch: bool) -> list[dict[str, Any]]:
    asks: list[dict[str, Any]] = []
    longest = 0
    executor = _resource(app.shape)
    driver = _resource(DRIVER_SHAPE)
    opt_out = rng.random() < 0.05
    for j in range(count):
        ask: dict[str, Any] = {"name": f"{app.id}-{j}"}
        if app.explicit_priority is not None:
            ask["priority"] = app.explicit_priority
        else:
            ask["priorityClass"] = app.priority_class
        ask["resources"] = driver if j == 0 and count > 1 else executor
        delay = 0 if j == 0 else rng.randint(1, 30)
        ask["submitTime"] = _duration(app.submit + delay)
        if batch:
            duration = rng.randint(30, 1800)
            longest = max(longest, duration)
            ask["duration"] = _duration(duration)
        if opt_out:
            ask["allowPreemption"] = False
        asks.append(ask)
    if batch and count > 1:
        asks[0]["duration"] = _duration(longest + 30)
    return asks


# --- running allocations -----------------------------------------------------------------------------------------


def _limits(queue: _Queue) -> list[_Queue]:
    """The queue and its ancestors (root excluded)."""
    out: list[_Queue] = []
    current: _Queue | None = queue
    while current is not None and current.parent is not None:
        out.append(current)
        current = current.parent
    return out


def _running(
    rng: random.Random,
    options: GenerateOptions,
    apps: list[_App],
    nodes: list[_Node],
    tree: _Tree,
    pools: _Pools | None = None,
) -> int:
    """Place running allocations on nodes where they fit, within every queue's max (and, with node pools, where
    their application's pods pass the static predicates, one per node for hostname anti-affinity); returns how many
    fit."""
    wanted = round(options.running * options.asks)
    if wanted == 0 or not apps:
        return 0
    usable = [node for node in nodes if node.schedulable]
    if not usable:
        return 0
    placed = 0
    attempts = 0
    while placed < wanted and attempts < wanted * 3:
        attempts += 1
        app = apps[rng.randrange(len(apps))]
        cpu, mem = app.shape
        path = _limits(app.leaf)
        if any(_over(q, cpu, mem) for q in path):
            continue
        candidates = usable if pools is None else pools.allowed(app, usable)
        if not candidates:
            continue
        node = None
        for _ in range(8):
            candidate = candidates[rng.randrange(len(candidates))]
            free = candidate.free
            if free[0] >= cpu and free[1] >= mem and free[2] >= 1:
                if app.spread == "hostname" and any(a["node"] == candidate.name for a in app.allocations):
                    continue
                node = candidate
                break
        if node is None:
            continue
        start = -rng.randint(60, 7200)
        app.submit = min(app.submit, start)
        node.free[0] -= cpu
        node.free[1] -= mem
        node.free[2] -= 1
        for queue in path:
            queue.used[0] += cpu
            queue.used[1] += mem
        allocation: dict[str, Any] = {
            "name": f"{app.id}-run-{len(app.allocations)}",
            "node": node.name,
            "priority": app.explicit_priority
            if app.explicit_priority is not None
            else _CLASS_VALUE[app.priority_class],
            "resources": _resource(app.shape),
            "startTime": _duration(start),
        }
        if rng.random() < 0.5:
            allocation["duration"] = _duration(rng.randint(10, 600))
        if not _CLASS_PREEMPTIBLE.get(app.priority_class, True):
            allocation["allowPreemption"] = False
        app.allocations.append(allocation)
        placed += 1
    return placed


def _over(queue: _Queue, cpu: int, mem: int) -> bool:
    if queue.max is None:
        return False
    return queue.used[0] + cpu > queue.max[0] * 1000 or queue.used[1] + mem > queue.max[1] * GI
