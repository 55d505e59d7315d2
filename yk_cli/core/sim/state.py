"""Mutable run-time state of a dry run: queues, applications, asks and allocations as vectors and counters.

Stage of the core's scheduling cycle: none of its own; these are the objects every stage reads and the keys of
the three sorts of the walk (queue sort, application sort, ask sort: objects/queue.go, application.go,
sorted_asks.go), kept up to date by commit.py.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence

from yk_cli.core.config.queues import Queue
from yk_cli.core.ordering import policies
from yk_cli.core.ordering.policies import SortKey
from yk_cli.core.ordering.priority import MIN_PRIORITY, QueueState
from yk_cli.core.ordering.priority import AppState as PrioAppState
from yk_cli.core.predicates.model import PodSpec
from yk_cli.core.sim.nodes import Fit, NodeState
from yk_cli.core.sim.ugm import AppLimits
from yk_cli.core.workload.model import Allocation, Application, Ask

INF = math.inf
"""Headroom of a type no max defines: unlimited."""

WAITING, PENDING, ALLOCATED, DONE = 0, 1, 2, 3
"""AskState.status: not arrived yet, pending, running, finished."""

Size = tuple[int, ...]
"""A resource vector over the run's types; asks of equal size behave the same for headroom and node fit."""


def fit_of(size: Size) -> Fit:
    """The non-zero (type index, amount) pairs of a size."""
    return tuple((i, v) for i, v in enumerate(size) if v > 0)


def fits(room: Sequence[float], fit: Fit) -> bool:
    """Whether an ask fits a headroom or free vector (only the ask's non-zero types are checked)."""
    for i, v in fit:  # noqa: SIM110 - a plain loop is faster than all() on this hot path
        if room[i] < v:
            return False
    return True


def passes(size: Size, node: NodeState) -> bool:
    """Whether the node passes the static node predicates of asks of this size (a plain vector: every node does)."""
    if type(size) is tuple:
        return True
    passing: frozenset[int] | None = getattr(size, "passing")  # noqa: B009 - a subclass mypyc does not know
    return passing is None or node.rank in passing


def _place(items: list[SortKey], old: SortKey, new: SortKey) -> None:
    """Replace an entry of a sorted list by its new value, moving it only when its neighbours demand."""
    i = bisect_left(items, old)
    if (i == 0 or items[i - 1] < new) and (i + 1 == len(items) or new < items[i + 1]):
        items[i] = new
    else:
        del items[i]
        insort(items, new)


def bump(counter: dict[Size, int], size: Size, delta: int) -> None:
    """Add delta to a size counter, dropping entries that reach zero."""
    value = counter.get(size, 0) + delta
    if value:
        counter[size] = value
    else:
        counter.pop(size, None)


SCORE_ORIGINATOR = 1 << 33
SCORE_NO_PREEMPT = 1 << 34


class QState:
    """One queue during the run: usage, pending work by size, running applications and its place among siblings."""

    __slots__ = (
        "allocated",
        "allocs",
        "alog",
        "apps",
        "aver",
        "blocked",
        "children",
        "depth",
        "dirty",
        "dirty_apps",
        "dirty_children",
        "dormant",
        "entry",
        "fair_dens",
        "guaranteed",
        "held_sizes",
        "hr_waiters",
        "is_leaf",
        "limited",
        "max",
        "maxapps",
        "members",
        "name",
        "new_sizes",
        "nres",
        "old",
        "open",
        "open_children",
        "open_size",
        "order",
        "parent",
        "path",
        "pending",
        "pfence",
        "poffset",
        "policy",
        "ppolicy",
        "pready",
        "prio",
        "qstart",
        "qtimer",
        "queue",
        "required",
        "res_apps",
        "res_by_size",
        "res_live",
        "res_live_apps",
        "res_sizes",
        "running",
        "share_cache",
        "sizes",
        "sort_priority",
        "stateaware",
        "sver",
        "vcache",
    )

    def __init__(
        self, queue: Queue, parent: QState | None, order: int, width: int, prio: QueueState, stateaware: bool
    ) -> None:
        self.queue = queue
        self.path = queue.path
        self.name = queue.name
        self.parent = parent
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.is_leaf = queue.is_leaf
        self.order = order
        """Configuration order: the final tie-breaker among siblings."""
        self.prio = prio
        self.sort_priority = queue.sort_priority
        self.policy = queue.sort_policy
        self.stateaware = stateaware
        self.maxapps = queue.maxapplications
        self.guaranteed: dict[str, int] | None = dict(queue.guaranteed) if queue.guaranteed is not None else None
        self.max: list[float] | None = None
        self.fair_dens: tuple[tuple[int, int], ...] = ()
        self.allocated = [0] * width
        self.share_cache: float | None = None
        """The fair share while allocated is unchanged (reset to None whenever allocated changes)."""
        self.pending = [0] * width
        self.children: list[SortKey] = []
        """Entries (key..., QState) of the child queues in sort order."""
        self.apps: list[SortKey] = []
        """Leaf: entries (app key..., AppState) of applications with unreserved pending asks or asks ready to preempt,
        in sort order."""
        self.members: list[AppState] = []
        """Leaf: every application placed here, in file order."""
        self.entry: SortKey = ()
        """This queue's entry (key..., QState) in the parent's children list (stale while dirty)."""
        self.dirty = False
        """The entry may be stale: the queue is in its parent's dirty_children."""
        self.dirty_children: list[QState] = []
        self.dirty_apps: list[AppState] = []
        self.sizes: dict[Size, int] = {}
        """Unreserved pending asks below this queue, by size."""
        self.new_sizes: dict[Size, int] = {}
        """The part of sizes whose application has not started (subject to maxapplications)."""
        self.held_sizes: dict[Size, int] = {}
        """The part of new_sizes whose application its user's or group's maxapplications holds back (AppState.held)."""
        self.old: dict[Size, int] = {}
        """The part of sizes old enough to reserve a node."""
        self.blocked = False
        """No pending ask below fits this queue's own max or may start under its maxapplications (see refresh)."""
        self.open = False
        """Worth visiting: asks pending below, not blocked, and (a parent) some child open."""
        self.open_children = 0
        self.open_size: Size | None = None
        """The pending size last found to fit this queue's own limits (checked first by refresh_blocked)."""
        self.limited = False
        """The queue has a max or maxapplications: only such a queue can be blocked."""
        self.required = 0
        """Unreserved pending asks below that must run on one given node (DaemonSet pods): never pruned."""
        self.running = 0
        """Started applications below this queue that still run or wait for more (maxapplications counts them)."""
        self.nres = 0
        """Reservations below this queue."""
        self.res_live = 0
        """Reservations below this queue worth trying on their own node again."""
        self.res_sizes: dict[Size, int] = {}
        self.hr_waiters: dict[Size, list[AskState]] = {}
        """Reserved asks whose last try failed this queue's headroom: worth trying again once it frees resources."""
        self.res_live_apps: list[tuple[int, AppState]] = []
        """Leaf: (reservation order, application) of applications with a reserved ask worth trying on its node."""
        self.res_by_size: dict[Size, list[tuple[int, AppState]]] = {}
        """Leaf: per size, (reservation order, application) of applications holding reserved asks of that size."""
        self.res_apps: dict[AppState, list[AskState]] = {}
        """Leaf: applications holding reservations, in reservation order, with their reserved asks."""
        self.pfence = queue.priority_fence
        """priority.policy fence (read by the victim search, like the two below)."""
        self.poffset = queue.priority_offset
        self.ppolicy = queue.preemption_policy
        self.pready = 0
        """Asks below this queue ready to try preemption now (their preconditions pass): never pruned."""
        self.allocs: dict[AllocState, None] = {}
        """Leaf: running allocations placed in this queue, in placement order (the victim search reads them)."""
        self.aver = 0
        """Leaf: bumped whenever allocs changes or one of them is marked preempted (the victim search's cache)."""
        self.vcache: dict[SortKey, SortKey] = {}
        """Leaf: the victim search's per-leaf cache (see preemption.Attempt._leaf_victims)."""
        self.alog: list[AllocState] = []
        """Leaf: the allocations placed, released or marked preempted here since the oldest vcache entry was brought up
        to date (kept only while vcache holds entries): how those entries catch up."""
        self.sver = 0
        """Bumped whenever the usage of this queue's subtree changes (an allocation placed or released)."""
        self.dormant: list[AskState] = []
        """Asks whose failed preemption try depends only on this subtree's usage, waiting for it to change."""
        self.qstart: int | None = None
        """Quota preemption: when the queue may fire (the core's quotaPreemptionStartTime); None when it does not
        wait (see quota.py)."""
        self.qtimer = -1
        """Quota preemption: the time of the queue's live timer (older timers for it are stale)."""

    def refresh_blocked(self, cached: Mapping[Size, Fit]) -> None:
        """Recompute blocked from this queue's own max, usage, maxapplications and pending sizes.

        The size found open last time is checked first: it usually still is.
        """
        sizes = self.sizes
        if not sizes or self.required:
            self.blocked = False
            return
        top, allocated = self.max, self.allocated
        full = self.maxapps and self.running + 1 > self.maxapps
        new = self.new_sizes if full else self.held_sizes
        full = full or bool(new)
        last = self.open_size
        if last is not None:
            count = sizes.get(last)
            if count and not (full and count <= new.get(last, 0)):
                if top is None:
                    self.blocked = False
                    return
                for i, v in cached[last]:
                    if top[i] - allocated[i] < v:
                        break
                else:
                    self.blocked = False
                    return
        for size, count in sizes.items():
            if full and count <= new.get(size, 0):
                continue
            if top is not None:
                for i, v in cached[size]:
                    if top[i] - allocated[i] < v:
                        break
                else:
                    self.open_size = size
                    self.blocked = False
                    return
                continue
            self.open_size = size
            self.blocked = False
            return
        self.blocked = True

    def settle(self) -> None:
        """Re-sort the children and applications changed since the last visit (their entries were stale)."""
        if self.dirty_children:
            children = self.children
            for child in self.dirty_children:
                child.dirty = False
                new = child.key()
                if new != child.entry:
                    _place(children, child.entry, new)
                    child.entry = new
            self.dirty_children.clear()
        if self.dirty_apps:
            apps = self.apps
            for app in self.dirty_apps:
                app.dirty = False
                entry = app.entry
                if app.asks or app.pready:
                    new = app.key()
                    if entry is None:
                        insort(apps, new)
                    elif new != entry:
                        _place(apps, entry, new)
                    app.entry = new
                elif entry is not None:
                    del apps[bisect_left(apps, entry)]
                    app.entry = None
            self.dirty_apps.clear()

    def can_start_app(self) -> bool:
        """Whether one more application may start here (maxapplications; 0 is unlimited)."""
        return self.maxapps == 0 or self.running + 1 <= self.maxapps

    def headroom(self, parent: list[float] | None) -> list[float]:
        """This queue's headroom: component-wise min of the parent's and (max - allocated) where max is set."""
        if self.max is None:
            assert parent is not None
            return parent
        if parent is None:
            return [m - a for m, a in zip(self.max, self.allocated, strict=True)]
        return [d if (d := m - a) < p else p for m, a, p in zip(self.max, self.allocated, parent, strict=True)]

    def share(self) -> float:
        """Fair share: largest used/guaranteed (or used/fair max) over the types in use."""
        share = self.share_cache
        if share is None:
            share = self.share_cache = policies.fair_share_of(self.allocated, self.fair_dens)
        return share

    def key(self) -> SortKey:
        """This queue's sort entry under its parent (the parent's application.sort.priority decides the order)."""
        assert self.parent is not None
        return policies.queue_key(
            self.parent.sort_priority,
            self.prio.current,
            self.share(),
            policies.pending_key(self.pending),
            self.order,
            self,
        )

    def ancestors(self) -> list[QState]:
        """This queue, its parent, ..., root."""
        out = []
        queue: QState | None = self
        while queue is not None:
            out.append(queue)
            queue = queue.parent
        return out


class AppState:
    """One application during the run."""

    __slots__ = (
        "active",
        "allocated",
        "app",
        "asks",
        "backoff",
        "dirty",
        "entry",
        "held",
        "id",
        "leaf",
        "limits",
        "nalloc",
        "npending",
        "old",
        "pready",
        "prio",
        "problem",
        "required",
        "res_groups",
        "res_live_asks",
        "res_order",
        "seq",
        "sizes",
        "started",
        "state",
        "submit",
        "usage_dens",
    )

    def __init__(self, app: Application, leaf: QState | None, width: int, problem: tuple[str, str] | None) -> None:
        self.app = app
        self.id = app.id
        self.seq = app.seq
        self.leaf = leaf
        self.problem = problem
        """(reason code, message) when the application has no usable queue."""
        self.submit = app.submit_time
        """Submission time: the application's, lowered to its oldest arrived ask or allocation."""
        self.asks: list[SortKey] = []
        """Entries (ask key..., AskState) of unreserved pending asks in sort order."""
        self.res_live_asks: list[tuple[int, AskState]] = []
        """(reservation seq, ask) of reserved asks worth trying on their own node again."""
        self.res_groups: dict[Size, list[tuple[int, AskState]]] = {}
        """Reserved asks by size, each group in reservation order."""
        self.res_order = 0
        """When the application took its first current reservation: the order of the reservation pass."""
        self.sizes: dict[Size, int] = {}
        self.old: dict[Size, int] = {}
        self.npending = 0
        """Arrived, unallocated asks (reserved ones included)."""
        self.required = 0
        """Unreserved pending asks with a required node."""
        self.allocated = [0] * width
        self.nalloc = 0
        self.started = False
        self.active = False
        """Counted in its queues' running applications."""
        self.state = "New"
        self.entry: SortKey | None = None
        """The application's entry in its leaf's apps list (None while it has no unreserved pending ask)."""
        self.dirty = False
        """The entry may be stale: the application is in its leaf's dirty_apps."""
        self.usage_dens: tuple[int, ...] = ()
        self.prio: PrioAppState | None = None
        """The priority cache's record of this application (None when it has no queue)."""
        self.pready: list[SortKey] = []
        """Entries (ask key..., AskState) of asks ready to try preemption now, reserved ones included, in sort order."""
        self.limits: AppLimits | None = None
        """The user and group limits that apply to the application (None: none does; see ugm.py)."""
        self.held = False
        """Not started and held back by a user's or group's maxapplications: its asks count in held_sizes."""
        self.backoff = 0
        """application.unschedasks.backoff: skipped by the normal walk until this time (see backoff.py)."""

    def key(self) -> SortKey:
        """The application's sort entry in its leaf."""
        leaf = self.leaf
        assert leaf is not None
        usage = policies.usage_shares_of(self.allocated, self.usage_dens) if leaf.policy == policies.FAIR else ()
        return policies.app_key(leaf.policy, leaf.sort_priority, self.priority(), self.submit, usage, self.seq, self)

    def priority(self) -> int:
        """The highest pending ask priority (MinInt32 when none): YuniKorn's askMaxPriority."""
        return self.prio.current if self.prio is not None else MIN_PRIORITY


class AskState:
    """One ask during the run."""

    __slots__ = (
        "alloc",
        "app",
        "arrival",
        "ask",
        "created",
        "entry",
        "fit",
        "name",
        "node",
        "old",
        "own_live",
        "pcheck",
        "pdep",
        "pgen",
        "pready",
        "priority",
        "pverdict",
        "required",
        "res_seq",
        "res_time",
        "reserved",
        "size",
        "status",
        "triggered",
    )

    def __init__(self, ask: Ask, app: AppState, size: Size, fit: Fit, arrival: int, order: int | None = None) -> None:
        self.ask = ask
        self.name = ask.name
        self.app = app
        self.priority = ask.priority
        self.size = size
        self.fit = fit
        self.created = ask.submit_time
        self.arrival = arrival
        self.status = WAITING
        self.old = False
        """Older than the reservation delay: may reserve a node when nothing fits."""
        self.required = ask.required_node
        """The node this ask must run on ('' for any): YuniKorn's requiredNode (DaemonSet pods)."""
        self.reserved: NodeState | None = None
        self.res_seq = 0
        """Order in which the ask reserved its node."""
        self.res_time = 0
        """When the ask reserved its node (the core's reservation createTime: its 2 x 60 min wait timeout)."""
        self.own_live = False
        """Reserved: worth trying on the reserved node in the next reservation pass."""
        self.node: NodeState | None = None
        self.alloc: AllocState | None = None
        self.entry = policies.ask_key(ask.priority, ask.submit_time, ask.seq if order is None else order, self)
        """Sort entry; the third field places it among equal asks as the core's sorted insert does (insert_order)."""
        self.pready = False
        """Ready to try preemption now: YuniKorn's preconditions pass (see preconditions.py)."""
        self.pcheck: int | None = None
        """When the ask last tried preemption (its preconditions passed): the next try waits 15 s."""
        self.pgen = -1
        """The change counter the try depended on, as it was then: a retry before it moves would fail the same way."""
        self.pdep: QState | None = None
        """The queue whose subtree usage (sver) the last failed try depended on alone; None: the run's gen."""
        self.triggered = False
        """The ask has preempted once: YuniKorn lets an ask preempt at most once."""
        self.pverdict = ""
        """Why its last preemption try failed (the core's log words), '' before any try."""


class AllocState:
    """A running allocation: one placed by the run or one present from the start."""

    __slots__ = (
        "_preempted",
        "allow_preemption",
        "app",
        "ask",
        "created",
        "end",
        "mask",
        "name",
        "node",
        "originator",
        "pod",
        "preempt_other",
        "priority",
        "required",
        "restart",
        "seq",
        "size",
        "start",
        "vkey",
    )

    def __init__(
        self,
        name: str,
        app: AppState,
        node: NodeState,
        size: Size,
        priority: int,
        start: int,
        end: int | None,
        allow_preemption: bool,
        ask: AskState | None,
        created: int = 0,
        originator: bool = False,
        required: bool = False,
        seq: int = 0,
        restart: bool = False,
        preempt_other: bool = True,
        pod: PodSpec | None = None,
    ) -> None:
        self.name = name
        self.app = app
        self.node = node
        self.size = size
        self.priority = priority
        self.start = start
        self.end = end
        self.allow_preemption = allow_preemption
        self.ask = ask
        self.created = created
        """Creation time of the pod (the ask's submit time, or a running allocation's startTime): 'newest first'."""
        self.originator = originator
        self.required = required
        """A required-node (DaemonSet) pod: never a victim of queue preemption."""
        self.seq = seq
        """Creation order in the run: the tie-breaker of equal creation times (newer first)."""
        self._preempted = False
        self.vkey = (
            (SCORE_ORIGINATOR if originator else 0) | (0 if allow_preemption else SCORE_NO_PREEMPT),
            -created,
            -seq,
        )
        """sortVictimsForPreemption's key (opted-in first, non-originators first, newest first): fixed for life."""
        self.mask = sum(1 << i for i, v in enumerate(size) if v)
        """The resource types it holds, as bits."""
        self.preempt_other = preempt_other
        """allowPreemptOther of the pod (kept for the fresh ask of a restarted pod)."""
        self.restart = restart
        """restartOnPreemption: a fresh ask of the same shape is submitted when it is preempted."""
        self.pod = pod
        """Namespace, labels and node constraints of the pod (other pods' affinity and spread read them)."""

    @property
    def preempted(self) -> bool:
        """Chosen as a victim (its leaf's victim-search cache is invalidated when this is set)."""
        return self._preempted

    @preempted.setter
    def preempted(self, value: bool) -> None:
        self._preempted = value
        leaf = self.app.leaf
        if leaf is not None:
            leaf.aver += 1
            if leaf.vcache:
                leaf.alog.append(self)
            queue: QState | None = leaf
            while queue is not None:  # a victim search reused by usage scope must not offer it again
                queue.sver += 1
                queue = queue.parent


def vector(resources: Mapping[str, int], index: Mapping[str, int], width: int) -> Size:
    """A resource map as a vector over the run's types."""
    out = [0] * width
    for name, value in resources.items():
        out[index[name]] = value
    return tuple(out)


def existing(alloc: Allocation) -> tuple[int, int | None]:
    """Start and end (None: runs on) of an allocation present from the start."""
    return alloc.start_time, alloc.duration
