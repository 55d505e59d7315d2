"""Nodes during a dry run: free resources, sort score, and an ordered index that finds the first fitting node fast."""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterator, Mapping, Sequence

from yk_cli.core import policies

BLOCK = 64
"""Nodes per block of the index; a block is split in two when it doubles."""

Fit = tuple[tuple[int, int], ...]
"""An ask's non-zero (type index, amount) pairs: all that a fit check looks at."""


class NodeState:
    """One node: capacity and free resources as vectors over the run's resource types, and its sort score."""

    __slots__ = (
        "_policy",
        "_weighted",
        "allocations",
        "available",
        "capacity",
        "capacity_map",
        "entry",
        "index",
        "name",
        "reserved_by",
        "schedulable",
        "score",
    )

    def __init__(
        self,
        name: str,
        index: int,
        capacity: Sequence[int],
        capacity_map: Mapping[str, int],
        schedulable: bool,
        policy: str,
        weights: Mapping[str, float],
        types: Sequence[str],
    ) -> None:
        self.name = name
        self.index = index
        self.capacity = list(capacity)
        self.capacity_map = dict(capacity_map)
        self.available = list(capacity)
        self.schedulable = schedulable
        self.reserved_by: object | None = None
        """The AskState holding a reservation on this node."""
        self.allocations: dict[str, object] = {}
        """Allocation name -> running allocation on this node, in placement order."""
        self._policy = policy
        self._weighted = policies.node_weighting(types, capacity_map, weights)
        self.score = 0.0
        self.entry: tuple[float, str, NodeState] = (0.0, name, self)
        self.rescore()

    def rescore(self) -> None:
        """Recompute the sort score from the free resources (same arithmetic as policies.node_usage)."""
        usage = policies.weighted_usage(self.available, self._weighted)
        self.score = policies.node_score(self._policy, usage)
        self.entry = (self.score, self.name, self)

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


class NodeIndex:
    """Schedulable, unreserved nodes in sort order (score, name), as blocks that remember their largest free amounts.

    first_fit skips whole blocks whose largest free amount of some type is below the ask, so full nodes at the
    front (binpacking) cost one comparison per block instead of one per node.
    """

    def __init__(self, width: int) -> None:
        self._width = width
        self._blocks: list[list[tuple[float, str, NodeState]]] = []
        self._firsts: list[tuple[float, str, NodeState]] = []
        self._maxes: list[list[int]] = []
        self._dirty: list[bool] = []
        self._members: set[str] = set()

    def __len__(self) -> int:
        return len(self._members)

    def __contains__(self, node: NodeState) -> bool:
        return node.name in self._members

    def __iter__(self) -> Iterator[NodeState]:
        for block in self._blocks:
            for entry in block:
                yield entry[2]

    def add(self, node: NodeState) -> None:
        """Insert a node at its current score."""
        entry = node.entry
        self._members.add(node.name)
        if not self._blocks:
            self._blocks.append([entry])
            self._firsts.append(entry)
            self._maxes.append(list(node.available))
            self._dirty.append(False)
            return
        bi = bisect_right(self._firsts, entry) - 1
        if bi < 0:
            bi = 0
        block = self._blocks[bi]
        insort(block, entry)
        if block[0] is entry:
            self._firsts[bi] = entry
        top = self._maxes[bi]
        for i, v in enumerate(node.available):
            if v > top[i]:
                top[i] = v
        if len(block) > 2 * BLOCK:
            self._split(bi)

    def remove(self, node: NodeState) -> None:
        """Take a node out (before its free resources or score change, or when it is reserved)."""
        entry = node.entry
        self._members.discard(node.name)
        bi = bisect_right(self._firsts, entry) - 1
        block = self._blocks[bi]
        j = bisect_left(block, entry)
        del block[j]
        if not block:
            del self._blocks[bi], self._firsts[bi], self._maxes[bi], self._dirty[bi]
            return
        if j == 0:
            self._firsts[bi] = block[0]
        self._dirty[bi] = True

    def first_fit(self, fit: Fit) -> NodeState | None:
        """The first node in sort order whose free resources hold the ask."""
        blocks, maxes = self._blocks, self._maxes
        for bi in range(len(blocks)):
            top = maxes[bi]
            for i, v in fit:
                if top[i] < v:
                    break
            else:
                for entry in blocks[bi]:
                    available = entry[2].available
                    for i, v in fit:
                        if available[i] < v:
                            break
                    else:
                        return entry[2]
                if self._dirty[bi]:
                    self._refresh(bi)
        return None

    def _refresh(self, bi: int) -> None:
        block = self._blocks[bi]
        self._maxes[bi] = [max(col) for col in zip(*(entry[2].available for entry in block), strict=True)]
        self._dirty[bi] = False

    def _split(self, bi: int) -> None:
        block = self._blocks[bi]
        half = len(block) // 2
        left, right = block[:half], block[half:]
        self._blocks[bi : bi + 1] = [left, right]
        self._firsts[bi : bi + 1] = [left[0], right[0]]
        self._maxes[bi : bi + 1] = [[], []]
        self._dirty[bi : bi + 1] = [False, False]
        self._refresh(bi)
        self._refresh(bi + 1)
