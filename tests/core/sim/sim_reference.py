"""A deliberately naive dry run, written straight from the reference (sections 4-6), to check the fast engine.

Every cycle recomputes every priority, sorts every candidate queue, application and ask, and scans every node;
nothing is cached or pruned. It shares with the engine only the sort-key definitions of core.ordering.policies and the
priority arithmetic of core.ordering.priority, so a disagreement points at the engine's incremental bookkeeping.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from yk_cli.core.config.model import Limit, PartitionConfig, QueueConfig
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.ordering import policies
from yk_cli.core.ordering.priority import MIN_PRIORITY, priority_by_policy
from yk_cli.core.resources import fits_in, fits_in_max_undef
from yk_cli.core.workload.model import Workload

RESERVATION_DELAY = 2_000_000_000
RESERVATION_WAIT = 2 * 3_600_000_000_000
CYCLE = 100_000_000
STARTING = 300_000_000_000


@dataclass(eq=False)
class RNode:
    name: str
    capacity: dict[str, int]
    available: dict[str, int]
    schedulable: bool
    reserved_by: RAsk | None = None


@dataclass(eq=False)
class RApp:
    id: str
    seq: int
    leaf: Queue
    submit: int
    user: str = "nobody"
    group: str = ""
    """The one group its limits are tracked by ('' for none)."""
    counted: bool = False
    """Counted as running by the user-group manager (first allocation until nothing runs or waits)."""
    started: bool = False
    state: str = "New"
    allocations: int = 0
    allocated: dict[str, int] = field(default_factory=dict)
    res_order: int = 0


@dataclass(eq=False)
class RAsk:
    name: str
    app: RApp
    priority: int
    resources: dict[str, int]
    created: int
    arrival: int
    seq: int
    duration: int | None
    status: str = "waiting"
    old: bool = False
    reserved: RNode | None = None
    res_seq: int = 0
    res_time: int = 0
    rank: int = 0
    """Position in the application's request list built as sorted_asks.go inserts (see _insert_ranks)."""
    required: str = ""


@dataclass(eq=False)
class RAlloc:
    name: str
    app: RApp
    node: RNode
    resources: dict[str, int]


class Reference:
    """The naive simulation; run() returns [(type, time, application, ask, node)] and the pending ask names."""

    def __init__(self, partition: PartitionConfig, tree: QueueTree, workload: Workload, legacy: bool) -> None:
        self.tree = tree
        self.legacy = legacy
        self.policy = policies.node_policy(partition)
        self.weights = policies.node_weights(partition)
        self.nodes = [
            RNode(n.name, dict(n.capacity), {k: v - n.occupied.get(k, 0) for k, v in n.capacity.items()}, n.schedulable)
            for n in workload.nodes
        ]
        by_name = {n.name: n for n in self.nodes}
        self.cluster: dict[str, int] = {}
        for n in self.nodes:  # every node, cordoned ones included (partition.go addNodeToList)
            for k, v in n.capacity.items():
                self.cluster[k] = self.cluster.get(k, 0) + v
        names: set[str] = set()
        for spec in workload.nodes:
            names.update(spec.capacity, spec.occupied)
        for app in workload.applications:
            for a in app.asks:
                names.update(a.resources)
            for al in app.allocations:
                names.update(al.resources)
        for q in tree.queues.values():
            names.update(q.max or {}, q.guaranteed or {})
        self.types = sorted(names)
        self.allocated: dict[str, dict[str, int]] = {path: {} for path in tree.queues}
        self.apps: list[RApp] = []
        self.asks: list[RAsk] = []
        self.heap: list[tuple[int, int, str, object]] = []
        self.seq = 0
        self.res_seq = 0
        self.now = 0
        self.events: list[tuple[str, int, str, str, str]] = []
        self.cancel: RAsk | None = None
        self.limits = _limits(partition)
        self.live: list[RAlloc] = []
        known_groups: dict[str, tuple[str, ...]] = {}
        for app in workload.applications:
            leaf = tree.get(app.queue if app.queue.startswith("root") else f"root.{app.queue}")  # type: ignore[union-attr]
            assert leaf is not None and leaf.is_leaf
            user = app.user or "nobody"
            if app.groups:
                known_groups[user] = tuple(app.groups)
            groups = known_groups.setdefault(user, (user,))
            runtime = RApp(app.id, app.seq, leaf, app.submit_time, user, self._group(groups, leaf.path))
            self.apps.append(runtime)
            for al in app.allocations:
                node = by_name[al.node]
                self._add(node.available, al.resources, -1)
                runtime.submit = min(runtime.submit, al.start_time)
                alloc = RAlloc(al.name, runtime, node, dict(al.resources))
                self.live.append(alloc)
                for q in self._path(leaf):
                    self._add(self.allocated[q.path], al.resources, 1)
                self._add(runtime.allocated, al.resources, 1)
                runtime.allocations += 1
                runtime.started, runtime.state, runtime.counted = True, "Running", True
                if al.duration is not None:
                    self._push(max(al.duration, 0), "complete", alloc)
            for a in app.asks:
                arrival = max(a.submit_time, app.submit_time, 0)
                self.asks.append(
                    RAsk(
                        a.name,
                        runtime,
                        a.priority,
                        dict(a.resources),
                        a.submit_time,
                        arrival,
                        a.seq,
                        a.duration,
                        required=a.required_node,
                    )
                )
        self.by_name = by_name
        _insert_ranks(self.asks)
        arrivals = sorted(self.asks, key=lambda a: (a.arrival, a.seq))
        for a in arrivals:
            if any(v > 0 for v in a.resources.values()):  # YuniKorn refuses an ask for nothing
                self._push(a.arrival, "arrive", a)

    # --- helpers ------------------------------------------------------------------------------------------------

    def _push(self, time: int, kind: str, obj: object) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (time, self.seq if kind != "arrive" else -1_000_000_000 + self.seq, kind, obj))

    @staticmethod
    def _add(target: dict[str, int], res: dict[str, int], sign: int) -> None:
        for k, v in res.items():
            target[k] = target.get(k, 0) + sign * v

    @staticmethod
    def _path(leaf: Queue) -> list[Queue]:
        return list(leaf.ancestors())

    def _pending(self, ask: RAsk) -> bool:
        return ask.status == "pending"

    def _app_pending(self, app: RApp) -> list[RAsk]:
        return [a for a in self.asks if a.app is app and a.status == "pending"]

    def _active(self, app: RApp) -> bool:
        return app.started and (app.allocations > 0 or bool(self._app_pending(app)))

    def _running(self, queue: Queue) -> int:
        return sum(1 for app in self.apps if self._active(app) and queue in self._path(app.leaf))

    def _can_start(self, app: RApp) -> bool:
        return all(q.maxapplications == 0 or self._running(q) + 1 <= q.maxapplications for q in self._path(app.leaf))

    def _queue_pending(self, queue: Queue) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.asks:
            if a.status == "pending" and queue in self._path(a.app.leaf):
                self._add(out, a.resources, 1)
        return out

    def _priorities(self) -> dict[str, int]:
        app_prio = {}
        for app in self.apps:
            values = [a.priority for a in self._app_pending(app)]
            app_prio[app.id] = max(values) if values else MIN_PRIORITY
        out: dict[str, int] = {}

        def visit(q: Queue) -> int:
            if q.is_leaf:
                values = [app_prio[a.id] for a in self.apps if a.leaf is q and app_prio[a.id] != MIN_PRIORITY]
            else:
                values = [v for v in (visit(c) for c in q.children) if v != MIN_PRIORITY]
            raw = max(values) if values else MIN_PRIORITY
            out[q.path] = priority_by_policy(q.priority_fence, q.priority_offset, raw)
            return out[q.path]

        visit(self.tree.root)
        out.update({f"app:{k}": v for k, v in app_prio.items()})
        return out

    def _fair_max(self, q: Queue) -> dict[str, int]:
        chain = list(reversed(self._path(q)))
        out = dict(self.cluster)
        for level in chain[1:]:
            out.update(level.max or {})
        return out

    def _sorted_children(self, parent: Queue, prio: dict[str, int]) -> list[Queue]:
        out = []
        for order, child in enumerate(parent.children):
            pending = self._queue_pending(child)
            if not (any(v > 0 for v in pending.values()) and all(v >= 0 for v in pending.values())):
                continue
            share = policies.fair_share(self.allocated[child.path], child.guaranteed, self._fair_max(child))
            vec = policies.pending_key([pending.get(t, 0) for t in self.types])
            out.append((policies.queue_key(parent.sort_priority, prio[child.path], share, vec, order), child))
        return [c for _, c in sorted(out, key=lambda x: x[0])]

    def _sorted_apps(self, leaf: Queue, prio: dict[str, int]) -> list[RApp]:
        out = []
        for app in self.apps:
            if app.leaf is not leaf or not self._app_pending(app):
                continue
            usage = policies.usage_shares(
                {k: v for k, v in app.allocated.items() if v}, leaf.guaranteed, len(self.types)
            )
            key = policies.app_key(
                leaf.sort_policy,
                leaf.sort_priority,
                prio[f"app:{app.id}"],
                app.submit,
                usage if leaf.sort_policy == "fair" else (),
                app.seq,
            )
            out.append((key, app))
        return [a for _, a in sorted(out, key=lambda x: x[0])]

    def _headroom(self, leaf: Queue) -> dict[str, int] | None:
        room: dict[str, int] | None = None
        for q in self._path(leaf):
            top = self.cluster if q.parent is None else q.max
            if top is None:
                continue
            own = {k: v - self.allocated[q.path].get(k, 0) for k, v in top.items()}
            room = (
                own
                if room is None
                else {k: min(room.get(k, own.get(k)), own.get(k, room.get(k))) for k in {*room, *own}}
            )
        return room

    def _node_order(self) -> list[RNode]:
        def key(n: RNode) -> tuple[float, str]:
            return (
                policies.node_score(self.policy, policies.node_usage(n.capacity, n.available, self.weights)),
                n.name,
            )

        return sorted((n for n in self.nodes if n.schedulable and n.reserved_by is None), key=key)

    # --- user and group limits (read straight from the config, recomputed from every allocation) -----------------

    def _group(self, groups: tuple[str, ...], leaf: str) -> str:
        """The first level from the leaf up that limits one of the groups (config order), else has a '*' group."""
        path = leaf
        while path:
            for entry in self.limits:
                if entry[0] == path and entry[1] == "group" and entry[2] != "*" and entry[2] in groups:
                    return entry[2]
            if any(e[0] == path and e[1] == "group" and e[2] == "*" for e in self.limits):
                return "*"
            path = path.rpartition(".")[0]
        return ""

    def _rules(self, app: RApp) -> list[tuple[str, str, str, dict[str, int] | None, int]]:
        """(queue, kind, who, maxresources, maxapplications) of every limit that applies to the application."""
        out = []
        for q in reversed(self._path(app.leaf)):
            named = [e for e in self.limits if e[0] == q.path and e[1] == "user" and e[2] == app.user]
            wild = [e for e in self.limits if e[0] == q.path and e[1] == "user" and e[2] == "*"]
            if named or wild:
                out.append((named or wild)[-1])
            if app.group:
                group = [e for e in self.limits if e[0] == q.path and e[1] == "group" and e[2] == app.group]
                if group:
                    out.append(group[-1])
        return out

    def _members(self, kind: str, who: str, queue: str) -> list[RApp]:
        """The applications of the user (or tracked as the group) with the queue on their path."""
        return [
            other
            for other in self.apps
            if (other.user == who if kind == "user" else other.group == who)
            and queue in [q.path for q in self._path(other.leaf)]
        ]

    def _user_ok(self, app: RApp, ask: RAsk | None) -> bool:
        """CanRunApp (ask None) or the user's and group's headroom for the ask."""
        for queue, kind, who, top, maxapps in self._rules(app):
            members = self._members(kind, app.user if kind == "user" else who, queue)
            if ask is None:
                running = sum(1 for m in members if m.counted)
                if maxapps and not app.counted and running + 1 > maxapps:
                    return False
                continue
            if top is None:
                continue
            used: dict[str, int] = {}
            for alloc in self.live:
                if alloc.app in members:
                    self._add(used, alloc.resources, 1)
            for k, v in ask.resources.items():
                if v > 0 and k in top and top[k] - used.get(k, 0) < v:
                    return False
        return True

    # --- the cycle ----------------------------------------------------------------------------------------------

    def _expire(self) -> None:
        """Reservations older than 2 x 60 min whose ask fails its user's or queue's headroom are cancelled."""
        for ask in sorted((a for a in self.asks if a.reserved is not None), key=lambda a: a.res_seq):
            if self.now < ask.res_time + RESERVATION_WAIT + CYCLE:
                continue
            room = self._headroom(ask.app.leaf)
            if self._user_ok(ask.app, ask) and (room is None or fits_in_max_undef(ask.resources, room)):
                continue
            node = ask.reserved
            assert node is not None
            ask.reserved, node.reserved_by = None, None
            self.events.append(("unreserve", self.now, ask.app.id, ask.name, node.name))

    def _cycle(self) -> tuple[str, RAsk, RNode] | None:
        self._expire()
        prio = self._priorities()
        found = self._reserved_pass(self.tree.root, prio)
        if found is not None:
            return found
        return self._walk(self.tree.root, prio)

    def _reserved_pass(self, queue: Queue, prio: dict[str, int]) -> tuple[str, RAsk, RNode] | None:
        if not queue.is_leaf:
            for child in self._sorted_children(queue, prio):
                found = self._reserved_pass(child, prio)
                if found is not None:
                    return found
            return None
        room = self._headroom(queue)
        held = sorted(
            {a.app for a in self.asks if a.reserved is not None and a.app.leaf is queue}, key=lambda a: a.res_order
        )
        for app in held:
            if not app.started and not self._user_ok(app, None):
                continue
            reserved = sorted(
                (a for a in self.asks if a.app is app and a.reserved is not None), key=lambda a: a.res_seq
            )
            for ask in reserved:
                if (
                    self._user_ok(app, ask)
                    and (room is None or fits_in_max_undef(ask.resources, room))
                    and fits_in(ask.resources, ask.reserved.available)  # type: ignore[union-attr]
                    and ask.reserved.schedulable  # type: ignore[union-attr]  # (NodeUnschedulable: no tolerations here)
                ):
                    return ("allocate", ask, ask.reserved)  # type: ignore[return-value]
            for ask in reserved:
                if ask.required or (room is not None and not fits_in_max_undef(ask.resources, room)):
                    continue
                if not self._user_ok(app, ask):
                    continue
                for node in self._node_order():
                    if fits_in(ask.resources, node.capacity) and fits_in(ask.resources, node.available):
                        return ("allocate", ask, node)
        return None

    def _walk(self, queue: Queue, prio: dict[str, int]) -> tuple[str, RAsk, RNode] | None:
        if not queue.is_leaf:
            for child in self._sorted_children(queue, prio):
                found = self._walk(child, prio)
                if found is not None:
                    return found
            return None
        room = self._headroom(queue)
        apps = self._sorted_apps(queue, prio)
        admitted = None
        if self.legacy and queue.setting("application.sort.policy").text == "stateaware":
            members = [a for a in self.apps if a.leaf is queue]
            admitted = policies.stateaware_admitted(
                members, lambda a: a.state, lambda a: bool(self._app_pending(a)), lambda a: (a.submit, a.seq)
            )
        for app in apps:
            if not app.started and not self._can_start(app):
                continue
            if not app.started and not self._user_ok(app, None):
                continue
            if admitted is not None and app not in admitted:
                continue
            for ask in sorted(self._app_pending(app), key=lambda a: a.rank):
                if not self._user_ok(app, ask):
                    continue
                if room is not None and not fits_in_max_undef(ask.resources, room):
                    continue
                if ask.required:
                    if ask.reserved is not None:
                        continue  # tried by the reservation pass on its node
                    node = self.by_name.get(ask.required)
                    if node is None or (node.reserved_by is not None and node.reserved_by.required):
                        continue
                    self.cancel = node.reserved_by
                    fits = fits_in(ask.resources, node.available) and node.schedulable  # NodeUnschedulable
                    return ("allocate" if fits else "reserve", ask, node)
                order = self._node_order()
                node = next(
                    (n for n in order if fits_in(ask.resources, n.capacity) and fits_in(ask.resources, n.available)),
                    None,
                )
                if node is not None:
                    return ("allocate", ask, node)
                if ask.reserved is None and ask.old:
                    best, best_score = None, 0.0
                    for n in order:
                        if not fits_in(ask.resources, n.capacity):
                            continue
                        score = policies.fit_in_score(ask.resources, n.available)
                        if best is None or score < best_score:
                            best, best_score = n, score
                    if best is not None:
                        return ("reserve", ask, best)
        return None

    # --- changes ------------------------------------------------------------------------------------------------

    def _commit(self, kind: str, ask: RAsk, node: RNode) -> None:
        app = ask.app
        holder, self.cancel = self.cancel, None
        if holder is not None:
            holder.reserved = None
            node.reserved_by = None
            self.events.append(("unreserve", self.now, holder.app.id, holder.name, node.name))
        if kind == "reserve":
            if not any(a.reserved is not None for a in self.asks if a.app is app):
                self.res_seq += 1
                app.res_order = self.res_seq
            self.res_seq += 1
            ask.reserved, ask.res_seq, node.reserved_by, ask.res_time = node, self.res_seq, ask, self.now
            self.events.append(("reserve", self.now, app.id, ask.name, node.name))
            self._push(self.now + RESERVATION_WAIT + CYCLE, "expire", ask)
            return
        if ask.reserved is not None:
            ask.reserved.reserved_by = None
            ask.reserved = None
        self._add(node.available, ask.resources, -1)
        for q in self._path(app.leaf):
            self._add(self.allocated[q.path], ask.resources, 1)
        self._add(app.allocated, ask.resources, 1)
        ask.status = "allocated"
        app.allocations += 1
        if not app.started:
            app.started = True
            app.state = "Starting" if self.legacy else "Running"
            if self.legacy:
                self._push(self.now + STARTING, "starting", app)
        elif app.state == "Starting":
            app.state = "Running"
        self.events.append(("allocate", self.now, app.id, ask.name, node.name))
        app.counted = True
        alloc = RAlloc(ask.name, app, node, ask.resources)
        self.live.append(alloc)
        if ask.duration is not None:
            self._push(self.now + ask.duration, "complete", alloc)

    def _event(self, kind: str, obj: object) -> bool:
        """Apply one event; False for a timer that no longer matters (it must not move the clock)."""
        if kind == "arrive":
            assert isinstance(obj, RAsk)
            obj.status = "pending"
            obj.old = self.now - obj.created > RESERVATION_DELAY
            if obj.app.state == "New":
                obj.app.state = "Accepted"
            obj.app.submit = min(obj.app.submit, obj.created)
            return True
        if kind == "complete":
            assert isinstance(obj, RAlloc)
            self._add(obj.node.available, obj.resources, 1)
            for q in self._path(obj.app.leaf):
                self._add(self.allocated[q.path], obj.resources, -1)
            self._add(obj.app.allocated, obj.resources, -1)
            obj.app.allocations -= 1
            self.live.remove(obj)
            if obj.app.allocations == 0 and not self._app_pending(obj.app):
                obj.app.counted = False
            self.events.append(("complete", self.now, obj.app.id, obj.name, obj.node.name))
            return True
        if kind == "old":
            assert isinstance(obj, RAsk)
            obj.old = True
            return True
        if kind == "expire":
            return True
        assert isinstance(obj, RApp)
        if obj.state == "Starting":
            obj.state = "Running"
        return True

    def _stale(self, kind: str, obj: object) -> bool:
        if kind == "old":
            assert isinstance(obj, RAsk)
            return obj.status != "pending" or obj.old
        if kind == "starting":
            assert isinstance(obj, RApp)
            return obj.state != "Starting"
        if kind == "expire":
            assert isinstance(obj, RAsk)
            return obj.reserved is None
        return False

    def run(self) -> tuple[list[tuple[str, int, str, str, str]], list[str]]:
        """The events and the names of the asks left pending."""
        while self.heap:
            time, _, kind, obj = self.heap[0]
            if self._stale(kind, obj):
                heapq.heappop(self.heap)
                continue
            self.now = time
            young = []
            while self.heap and self.heap[0][0] == time:
                _, _, kind, obj = heapq.heappop(self.heap)
                if self._stale(kind, obj):
                    continue
                self._event(kind, obj)
                if kind == "arrive" and not obj.old:  # type: ignore[attr-defined]
                    young.append(obj)
            while True:
                found = self._cycle()
                if found is None:
                    break
                self._commit(*found)
            for ask in young:
                if ask.status == "pending" and ask.reserved is None:
                    self._push(ask.created + RESERVATION_DELAY + CYCLE, "old", ask)
        return self.events, sorted(a.name for a in self.asks if a.status in ("waiting", "pending"))


def _limits(partition: PartitionConfig) -> list[tuple[str, str, str, dict[str, int] | None, int]]:
    """Every limit entry as (queue path as written, user|group, name, maxresources or None, maxapplications), in
    config order; partition limits are root's when root has none."""
    from yk_cli.core.resources import parse_resource

    out = []
    root = partition.root

    def walk(conf: QueueConfig, path: str, limits: tuple[Limit, ...]) -> None:
        for limit in limits:
            top = parse_resource(limit.maxresources)
            maximum = top if any(top.values()) else None
            for user in limit.users:
                if user:
                    out.append((path, "user", user, maximum, limit.maxapplications))
            for group in limit.groups:
                if group:
                    out.append((path, "group", group, maximum, limit.maxapplications))
        for child in conf.queues:
            walk(child, f"{path}.{child.name}", child.limits)

    walk(root, root.name, root.limits or partition.limits)
    return out


def _less_than(a: RAsk, b: RAsk) -> bool:
    """Allocation.LessThan: lower priority, or equal priority and created at or after the other."""
    if a.priority == b.priority:
        return a.created >= b.created
    return a.priority < b.priority


def _insert_ranks(asks: list[RAsk]) -> None:
    """Build each application's request list literally as sortedRequests.insert does, in arrival order."""
    by_app: dict[RApp, list[RAsk]] = {}
    for ask in sorted(asks, key=lambda a: (a.arrival, a.seq)):
        lst = by_app.setdefault(ask.app, [])
        if lst and _less_than(ask, lst[-1]):
            lst.append(ask)
            continue
        idx = next((i for i, other in enumerate(lst) if _less_than(other, ask)), len(lst))
        lst.insert(idx, ask)
    for lst in by_app.values():
        for i, ask in enumerate(lst):
            ask.rank = i
