"""Nodes during a dry run: free resources, sort score, and an ordered index that finds the first fitting node fast.

Stage of the core's scheduling cycle: node iteration (the partition's NodeCollection sorted by the node sort
policy, which tryNodes walks), with the free resources of every node.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from yk_cli.core.ordering import policies
from yk_cli.core.predicates.classes import passing_of

if TYPE_CHECKING:  # state.py imports this module
    from yk_cli.core.sim.state import AllocState, AskState

BLOCK = 64
"""Nodes per block of the index; a block is split in two when it doubles."""

Fit = tuple[tuple[int, int], ...]
"""An ask's non-zero (type index, amount) pairs: all that a fit check looks at."""


NodeEntry = tuple[Any, ...]
"""A node's place in the index order: (score, name rank, node). A plain tuple type, so that mypyc keeps it one
object (a fixed tuple type is unboxed into fields, and boxed anew on every read: each bisect and compare)."""

TargetHeap = list[tuple[float, NodeEntry, int]]
"""(FitInScore, node entry, node version) of the nodes large enough for a size, as a heap (identity-free, so
the engine compiles with mypyc, which boxes a typed tuple anew on every read)."""


class NodeState:
    """One node: capacity and free resources as vectors over the run's resource types, and its sort score."""

    __slots__ = (
        "_policy",
        "_weighted",
        "allocations",
        "available",
        "capacity",
        "capacity_map",
        "counted",
        "entry",
        "families",
        "families_version",
        "fitting",
        "listed",
        "name",
        "rank",
        "reserved_by",
        "schedulable",
        "score",
        "version",
    )

    def __init__(
        self,
        name: str,
        rank: int,
        capacity: Sequence[int],
        capacity_map: Mapping[str, int],
        schedulable: bool,
        policy: str,
        weights: Mapping[str, float],
        types: Sequence[str],
    ) -> None:
        self.name = name
        self.capacity = list(capacity)
        self.capacity_map = dict(capacity_map)
        self.available = list(capacity)
        self.schedulable = schedulable
        self.reserved_by: AskState | None = None
        """The AskState holding a reservation on this node."""
        self.listed = False
        """In the node index (schedulable and not reserved)."""
        self.counted: list[SizeRecord] = []
        """The node index's size records that count this node as fitting (set while it is in the index)."""
        self.fitting = 0
        """Bit mask of the size records in counted (one bit per tracked size): the scan's fit test."""
        self.families: list[tuple[Fit, list[SizeRecord]]] = []
        """The size records this node may count, by their fit pairs (see NodeIndex._families_of)."""
        self.families_version = -1
        """The NodeIndex.version families was made at."""
        self.allocations: dict[str, AllocState] = {}
        """Allocation name -> running allocation on this node, in placement order."""
        self._policy = policy
        self._weighted = policies.node_weighting(types, capacity_map, weights)
        self.score = 0.0
        self.rank = rank
        """Position of the name in name order: the tie-breaker of equal scores (an int compares faster)."""
        self.entry: NodeEntry = (0.0, rank, self)
        self.version = 0
        """Bumped by every rescore: tells the reservation heaps' entries of this node that are out of date."""
        self.rescore()

    def rescore(self) -> None:
        """Recompute the sort score from the free resources (same arithmetic as policies.node_usage)."""
        usage = policies.weighted_usage(self.available, self._weighted)
        self.score = policies.node_score(self._policy, usage)
        self.entry = (self.score, self.rank, self)
        self.version += 1

    def fits(self, fit: Fit) -> bool:
        """Whether the free resources hold the ask."""
        available = self.available
        for i, v in fit:  # noqa: SIM110 - a plain loop is faster than all() on this hot path
            if available[i] < v:
                return False
        return True

    def fits_capacity(self, fit: Fit) -> bool:
        """Whether the ask fits the node at all (YuniKorn's FitInNode: capacity, ignoring usage)."""
        capacity = self.capacity
        for i, v in fit:  # noqa: SIM110 - a plain loop is faster than all() here
            if capacity[i] < v:
                return False
        return True


LOW = (-math.inf,)
"""Sorts before every node entry."""
HIGH = (math.inf,)
"""Sorts after every node entry."""
TRACKED = 128
"""Ask sizes whose first fitting node is remembered; further sizes are looked up from scratch."""


class SizeRecord:
    """What the node index remembers of one ask size: where its first fitting node is, and which blocks hold one."""

    __slots__ = ("bit", "bound", "counts", "empty", "first", "fit", "passing", "size")

    def __init__(self, size: tuple[int, ...], fit: Fit, bit: int, passing: frozenset[int] | None) -> None:
        self.first: NodeState | None = None
        """The first node in index order that holds the size (None: not known, see bound)."""
        self.bound: NodeEntry = LOW
        """When first is None: no node before this entry holds the size (HIGH: none at all)."""
        self.fit = fit
        self.counts: list[int] = []
        """Per block: how many of its nodes hold the size."""
        self.empty: list[bool] = []
        """Per block: whether none of its nodes holds the size (what _scan skips on, found in C)."""
        self.size = size
        self.bit = bit
        """This record's bit in NodeState.fitting."""
        self.passing = passing
        """The ranks of the nodes whose static predicates the size's asks pass (None: every node)."""


class NodeIndex:
    """Schedulable, unreserved nodes in sort order (score, name), with the first fitting node of each ask size.

    Nodes sit in blocks. For each ask size seen (up to TRACKED), the index keeps how many nodes of each block
    can hold it, and either the first node that fits it or a bound before which no node fits it (HIGH: no node
    fits at all). Every node that leaves or joins the order (its free resources change, it is reserved or
    released) updates those records in O(sizes); the common query is O(1) and a scan skips every block with no
    fitting node, never revisiting nodes already known not to fit.
    """

    def __init__(self, width: int) -> None:
        self._width = width
        self._blocks: list[list[NodeEntry]] = []
        self._firsts: list[NodeEntry] = []
        self._count_nodes = 0
        self._sizes: dict[tuple[int, ...], SizeRecord] = {}
        """size -> what the index remembers of it (at most TRACKED sizes)."""
        self.dead: set[tuple[int, ...]] = set()
        """Sizes no node in the index can hold right now."""
        self._untracked_dead: set[tuple[int, ...]] = set()
        """The part of dead beyond the TRACKED sizes: forgotten whenever any node gains room."""
        self._targets: dict[tuple[int, ...], tuple[TargetHeap, Fit]] = {}
        """size -> (heap of (FitInScore, node entry), fit) over nodes large enough: see reservation_target."""
        self._plain: list[SizeRecord] = []
        """The size records every node may count (plain vectors)."""
        self._grouped: dict[int, list[SizeRecord]] = {}
        """ConstrainedSize records by their passing group: only the nodes of the group may count them."""
        self._rank_groups: dict[int, list[int]] = {}
        """Node rank -> the passing groups that hold it (so a joining node visits only the records it may count)."""
        self._fits: dict[Fit, Fit] = {}
        """Fit pairs interned: the records of equal fits share one tuple (add() tests a fit once per run of them)."""
        self.version = 0
        """Bumped whenever a size record is made: a node's families made before are out of date."""
        self._families: dict[tuple[int, ...], list[tuple[Fit, list[SizeRecord]]]] = {}
        """The passing groups of a node -> its families (see _families_of), made at version _families_made."""
        self._families_made = 0

    def __len__(self) -> int:
        return self._count_nodes

    def __contains__(self, node: NodeState) -> bool:
        return node.listed

    def __iter__(self) -> Iterator[NodeState]:
        for block in self._blocks:
            for entry in block:
                yield entry[2]

    def add(self, node: NodeState, candidates: list[SizeRecord] | None = None) -> None:
        """Insert a node at its current score; candidates limits the size records checked (after a shrink)."""
        entry = node.entry
        node.listed = True
        self._count_nodes += 1
        blocks = self._blocks
        if not blocks:
            blocks.append([entry])
            self._firsts.append(entry)
            for record in self._sizes.values():
                record.counts.append(0)
                record.empty.append(True)
            bi = 0
        else:
            bi = bisect_right(self._firsts, entry) - 1
            if bi < 0:
                bi = 0
            block = blocks[bi]
            j = bisect_right(block, entry)
            block.insert(j, entry)
            if j == 0:
                self._firsts[bi] = entry
        if candidates is None and self._untracked_dead:  # more room somewhere: forget what fitted nowhere
            self.dead -= self._untracked_dead
            self._untracked_dead.clear()
        available = node.available
        counted: list[SizeRecord] = []
        if candidates is None:
            if node.families_version != self.version:
                node.families = self._families_of(node.rank)
                node.families_version = self.version
            for fit, records in node.families:
                for i, v in fit:
                    if available[i] < v:
                        break
                else:
                    counted.extend(records)
        else:  # records with equal fit pairs sit together (families order): each fit is tested once
            last: Fit | None = None
            fitted = False
            for record in candidates:
                fit = record.fit
                if fit is not last:
                    last = fit
                    fitted = True
                    for i, v in fit:
                        if available[i] < v:
                            fitted = False
                            break
                if fitted:
                    counted.append(record)
        node.counted = counted
        mask = 0
        for record in counted:
            counts: list[int] = record.counts
            counts[bi] = counts[bi] + 1
            if counts[bi] == 1:
                record.empty[bi] = False
            mask |= record.bit
            first: NodeState | None = record.first
            if entry < (first.entry if first is not None else record.bound):
                record.first = node
                self.dead.discard(record.size)
        node.fitting = mask
        if self._targets:
            limit = 4 * self._count_nodes + 64
            for size, (heap, fit) in self._targets.items():
                if node.fits_capacity(fit):
                    heapq.heappush(heap, (policies.fit_in_score_of(size, available), entry, node.version))
                    if len(heap) > limit:
                        heap[:] = self._target_heap(size, fit)
        if len(blocks[bi]) > 2 * BLOCK:
            self._split(bi)

    def _families_of(self, rank: int) -> list[tuple[Fit, list[SizeRecord]]]:
        """The size records a node of this rank may count (plain ones, and those of the passing groups holding it),
        grouped by fit pairs: add() tests each fit once, however many sizes share it. Shared by the nodes of the
        same passing groups until the next record is made."""
        groups = self._rank_groups.get(rank, [])
        key = tuple(groups)
        if self._families_made != self.version:
            self._families.clear()
            self._families_made = self.version
        found = self._families.get(key)
        if found is not None:
            return found
        records = list(self._plain)
        for group in groups:
            records.extend(self._grouped[group])
        families: dict[Fit, list[SizeRecord]] = {}
        for record in records:
            families.setdefault(record.fit, []).append(record)
        made = self._families[key] = list(families.items())
        return made

    def remove(self, node: NodeState) -> None:
        """Take a node out (before its free resources or score change, or when it is reserved)."""
        entry = node.entry
        node.listed = False
        self._count_nodes -= 1
        bi = bisect_right(self._firsts, entry) - 1
        block = self._blocks[bi]
        j = bisect_left(block, entry)
        del block[j]
        for record in node.counted:
            counts = record.counts
            counts[bi] = counts[bi] - 1
            if not counts[bi]:
                record.empty[bi] = True
            if record.first is node:
                record.first = None
                record.bound = entry
        if not block:
            del self._blocks[bi], self._firsts[bi]
            for record in self._sizes.values():
                del record.counts[bi], record.empty[bi]
        elif j == 0:
            self._firsts[bi] = block[0]

    def first_fit(self, size: tuple[int, ...], fit: Fit) -> NodeState | None:
        """The first node in sort order whose free resources hold an ask of this size (and, for a ConstrainedSize,
        whose static predicates its asks pass)."""
        record = self._sizes.get(size)
        if record is None:
            if len(self._sizes) >= TRACKED:
                if size in self._untracked_dead:
                    return None
                passing = passing_of(size)
                found = next(
                    (node for node in self if node.fits(fit) and (passing is None or node.rank in passing)), None
                )
                if found is None:
                    self._untracked_dead.add(size)
                    self.dead.add(size)
                return found
            record = self._track(size, fit)
        first: NodeState | None = record.first
        if first is not None:
            return first
        if record.bound == HIGH:
            return None
        first = self._scan(record)
        if first is None:
            record.bound = HIGH
            self.dead.add(size)
        else:
            record.first = first
        return first

    def _track(self, size: tuple[int, ...], fit: Fit) -> SizeRecord:
        """Start remembering a size: count the nodes holding it per block, in one pass that marks them too."""
        passing = passing_of(size)
        fit = self._fits.setdefault(fit, fit)
        bit = 1 << len(self._sizes)
        record = SizeRecord(size, fit, bit, passing)
        counts = record.counts
        for block in self._blocks:
            count = 0
            for entry in block:
                node: NodeState = entry[2]
                if node.fits(fit) and (passing is None or node.rank in passing):
                    node.counted.append(record)
                    node.fitting |= bit
                    count += 1
            counts.append(count)
        record.empty = [not c for c in counts]
        self._sizes[size] = record
        if passing is None:
            self._plain.append(record)
        else:
            group: int = getattr(size, "group")  # noqa: B009 - a ConstrainedSize (mypyc does not know it)
            members = self._grouped.get(group)
            if members is None:
                members = self._grouped[group] = []
                for rank in passing:
                    self._rank_groups.setdefault(rank, []).append(group)
            members.append(record)
        self.version += 1
        return record

    def fitting(self, size: tuple[int, ...], fit: Fit) -> Iterator[NodeState]:
        """The nodes in sort order whose free resources hold an ask of this size and whose static predicates its asks
        pass, from the first; blocks without one are skipped. The index must not change while this is read."""
        first = self.first_fit(size, fit)
        if first is None:
            return
        record = self._sizes.get(size)
        if record is None:  # beyond the TRACKED sizes
            passing = passing_of(size)
            for node in self:
                if node.fits(fit) and (passing is None or node.rank in passing):
                    yield node
            return
        blocks, empty, bit = self._blocks, record.empty, record.bit
        bi = max(bisect_right(self._firsts, first.entry) - 1, 0)
        offset = bisect_left(blocks[bi], first.entry)
        while True:
            try:
                found = empty.index(False, bi)
            except ValueError:
                return
            if found != bi:
                bi, offset = found, 0
            block = blocks[bi]
            for k in range(offset, len(block)):
                node = block[k][2]
                if node.fitting & bit:
                    yield node
            bi += 1
            offset = 0

    def reservation_target(self, size: tuple[int, ...], fit: Fit) -> NodeState | None:
        """The node an old ask that fits nowhere reserves: large enough by capacity, lowest FitInScore of the ask
        in its free resources, ties to the first in node order (YuniKorn's tryNodes).

        A lazy heap per size: every node joining the index pushes its current score; entries of nodes that left
        or changed since are dropped when they reach the top.
        """
        target = self._targets.get(size)
        if target is None:
            target = self._targets[size] = (self._target_heap(size, fit), fit)
        heap = target[0]
        while heap:
            _, entry, version = heap[0]
            node: NodeState = entry[2]
            if node.listed and node.version == version:
                return node
            heapq.heappop(heap)
        return None

    def _target_heap(self, size: tuple[int, ...], fit: Fit) -> TargetHeap:
        heap = [
            (policies.fit_in_score_of(size, node.available), node.entry, node.version)
            for node in self
            if node.fits_capacity(fit)
        ]
        heapq.heapify(heap)
        return heap

    def _scan(self, record: SizeRecord) -> NodeState | None:
        """The first fitting node at or after the record's bound, skipping blocks without one (found in C)."""
        blocks, empty, bit, bound = self._blocks, record.empty, record.bit, record.bound
        bi = offset = 0
        if bound != LOW and blocks:
            bi = max(bisect_right(self._firsts, bound) - 1, 0)
            offset = bisect_left(blocks[bi], bound)
        while True:
            try:
                found = empty.index(False, bi)
            except ValueError:
                return None
            if found != bi:
                bi, offset = found, 0
            block = blocks[bi]
            for k in range(offset, len(block)):
                node: NodeState = block[k][2]
                if node.fitting & bit:
                    return node
            bi += 1
            offset = 0

    def _split(self, bi: int) -> None:
        block = self._blocks[bi]
        half = len(block) // 2
        left, right = block[:half], block[half:]
        self._blocks[bi : bi + 1] = [left, right]
        self._firsts[bi : bi + 1] = [left[0], right[0]]
        moved: dict[int, int] = {}
        for entry in right:
            moving: NodeState = entry[2]
            for record in moving.counted:
                moved[id(record)] = moved.get(id(record), 0) + 1
        for record in self._sizes.values():
            total = record.counts[bi]
            on_right = moved.get(id(record), 0)
            counts = [total - on_right, on_right]
            record.counts[bi : bi + 1] = counts
            record.empty[bi : bi + 1] = [not c for c in counts]
