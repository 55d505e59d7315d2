"""A deterministic synthetic cluster: a valid queue config and a realistic workload, built from a seed."""

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


@dataclass(frozen=True, slots=True)
class GenerateOptions:
    """What to generate: sizes, the seed and the share of asks that already run as allocations."""

    nodes: int
    queues: int
    """Leaf queues."""
    apps: int
    asks: int
    seed: int = 0
    running: float = 0.0
    """Running allocations to add, as a fraction of the ask count (placed where they fit)."""
    partition: str = "default"


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated queue config and workload as plain YAML-ready data (dicts, lists, str, int, bool)."""

    config: dict[str, Any]
    workload: dict[str, Any]
    leaves: tuple[str, ...]
    """Full paths of the leaf queues, in configuration order."""
    allocations: int
    """Running allocations actually placed (some requested ones may not fit)."""


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


def generate(options: GenerateOptions) -> Generated:
    """Build the config and workload for the options; same options, same result."""
    check_options(options)
    rng = random.Random(options.seed)
    nodes, capacity = _nodes(rng, options.nodes)
    tree = _QueueBuilder(rng, capacity).build(options.queues)
    apps = _applications(rng, options, tree)
    allocations = _running(rng, options, apps, nodes, tree) if options.running > 0 else 0
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
    )


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

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "resources": {"vcore": self.vcore, "memory": f"{self.memory}Gi", "pods": NODE_PODS},
        }
        if not self.schedulable:
            data["schedulable"] = False
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

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "queue": self.leaf.path,
            "submitTime": _duration(self.submit),
            "user": self.user,
            "groups": list(self.groups),
        }
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


def _running(rng: random.Random, options: GenerateOptions, apps: list[_App], nodes: list[_Node], tree: _Tree) -> int:
    """Place running allocations on nodes where they fit, within every queue's max; returns how many fit."""
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
        node = None
        for _ in range(8):
            candidate = usable[rng.randrange(len(usable))]
            free = candidate.free
            if free[0] >= cpu and free[1] >= mem and free[2] >= 1:
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
