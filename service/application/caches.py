"""A bounded, least-recently-used cache, for what each worker derives and keeps: game views,
hand results, response bodies. Keys name an immutable state (a version, a digest), so an entry
is never stale; bounds are what keep a worker's memory flat however many games it serves."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def _one(_value: object) -> int:
    return 1


class LruCache(Generic[K, V]):
    """A mapping that forgets the least recently used entries first; thread-safe.

    Its bound is a total ``weight`` of the entries: by default each weighs 1 (a number of
    entries); ``weight=len`` makes it bytes of ``bytes`` values, and any other measure (the
    hands of a game view) fits. A value heavier than ``max_weight`` (by default the whole
    bound) is not kept."""

    def __init__(self, size: int, weight: Callable[[V], int] = _one,
                 max_weight: int | None = None) -> None:
        self.size = size
        self.weight = weight
        self.max_weight = size if max_weight is None else min(max_weight, size)
        self.total = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        #: The keys being made now (``made``), each with what its waiters wait on.
        self._making: dict[K, threading.Event] = {}

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: K, value: V) -> None:
        weight = self.weight(value)
        if weight > self.max_weight:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.total -= old[1]
            self._entries[key] = (value, weight)
            self.total += weight
            while self.total > self.size:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.total -= dropped

    def made(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``: kept, else made by one of the threads asking for it at once
        and kept; the others wait for it instead of each making it too. A waiter that finds
        nothing kept once it is made (the maker failed, or the value was too heavy to keep)
        makes its own, and keeps it."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry[0]
            making = self._making.get(key)
            mine = making is None
            if making is None:
                making = self._making[key] = threading.Event()
        if not mine:
            making.wait()
            found = self.get(key)
            if found is not None:
                return found
            value = make()
            self.put(key, value)
            return value
        try:
            value = make()
            self.put(key, value)
            return value
        finally:
            with self._lock:
                del self._making[key]
            making.set()

    def __len__(self) -> int:
        return len(self._entries)
