"""Volcano's util.PriorityQueue: Go's container/heap driven by a less function that reads live values.

Volcano's heaps compare objects whose keys change while they sit in the heap (a queue's share moves when one of its
tasks is evicted). Python's heapq would freeze the keys at push time; this class repeats container/heap's `up` and
`down` exactly, so the pops follow the same path Volcano's do, stale invariants included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PriorityQueue(Generic[T]):
    """A min-heap by `less` (Push, Pop, Empty, Len as in pkg/scheduler/util/priority_queue.go)."""

    __slots__ = ("_items", "_less")

    def __init__(self, less: Callable[[T, T], bool]) -> None:
        self._items: list[T] = []
        self._less = less

    def __len__(self) -> int:
        return len(self._items)

    def items(self) -> tuple[T, ...]:
        """The elements in heap order (for explanations; not a sorted order)."""
        return tuple(self._items)

    def empty(self) -> bool:
        return not self._items

    def push(self, item: T) -> None:
        items, less = self._items, self._less
        items.append(item)
        j = len(items) - 1
        while j > 0:
            i = (j - 1) // 2
            if not less(items[j], items[i]):
                break
            items[i], items[j] = items[j], items[i]
            j = i

    def pop(self) -> T:
        items, less = self._items, self._less
        n = len(items) - 1
        items[0], items[n] = items[n], items[0]
        i = 0
        while True:
            j1 = 2 * i + 1
            if j1 >= n:
                break
            j = j1
            j2 = j1 + 1
            if j2 < n and less(items[j2], items[j1]):
                j = j2
            if not less(items[j], items[i]):
                break
            items[i], items[j] = items[j], items[i]
            i = j
        return items.pop()
