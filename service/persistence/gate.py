"""One writer at a time on a SQLite file, across the service's worker processes.

SQLite lets one connection write at a time. A second writer that finds the lock taken gets
SQLITE_BUSY and its busy handler sleeps (1 ms, then 2, 5, 10 … ms) before it tries again:
with two workers storing hands, each write took a fraction of a millisecond and the other
worker slept for several, so two workers stored fewer hands a second than one. The gate is an
advisory ``flock`` on a file beside the database, taken before a unit of work's first write
and let go once it has committed: a waiting writer sleeps in the kernel and is woken the
moment the lock is free. Threads of one process queue on a lock of their own first (``flock``
belongs to the open file, which they share).

Only the service's own writers pass the gate. Anything else that writes to the file (a
migration, the ``sqlite3`` shell) still meets SQLite's lock and its busy timeout, as before.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.engine import URL

from .base import sqlite_file

#: The gate's file, beside the database (SQLite's own are ``-wal``, ``-shm``, ``-journal``).
SUFFIX = "-writer.lock"


class WriterGate:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid: int | None = None

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            fd = self._file()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _file(self) -> int:
        # A process forked from one that opened the file shares its open file, and with it
        # the lock: each process opens its own.
        if self._fd is None or self._pid != os.getpid():
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self._pid = os.getpid()
        return self._fd


def writer_gate(url: URL) -> WriterGate | None:
    """The gate of a SQLite database file; ``None`` for PostgreSQL (whose row locks queue
    writers without sleeping) and for an in-memory database (one process)."""
    path = sqlite_file(url)
    return None if path is None else WriterGate(path.with_name(path.name + SUFFIX))
