"""The directory where a server's gunicorn workers keep their metrics (``GET /metrics``,
``service/http/metrics.py``): ``prometheus_client``'s multiprocess mode, each worker writing
its counts to files of its own, and the worker that answers a scrape reading them all.

``python -m service serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` before any worker starts: the
operator's directory if it is set (emptied of an earlier run's files first: counts must start
at zero with the server), else a fresh one in the temporary directory, removed when the
server stops. When a worker exits, gunicorn's master calls ``worker_exited``, which drops
the dead worker's share of the gauges that count live processes (the pool's connections in
use, the workers alive); its counters stay in the sums, as counters must.

Loaded by gunicorn's master, which imports nothing else of the service: ``prometheus_client``
only when a worker has exited.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

ENV = "PROMETHEUS_MULTIPROC_DIR"


def prepare() -> Path:
    """Make (or empty) the server's metrics directory and name it in ``PROMETHEUS_MULTIPROC_DIR``
    for the workers to come."""
    given = os.environ.get(ENV, "").strip()
    if given:
        directory = Path(given)
        directory.mkdir(parents=True, exist_ok=True)
        for leftover in directory.glob("*.db"):
            leftover.unlink()
    else:
        directory = Path(tempfile.mkdtemp(prefix="segnapunti-metrics-"))
        master = os.getpid()

        def remove() -> None:
            # Workers are forked from the master and leave by sys.exit, which runs what the
            # master registered: only the master removes the directory.
            if os.getpid() == master:
                shutil.rmtree(directory, ignore_errors=True)

        atexit.register(remove)
    os.environ[ENV] = str(directory)
    return directory


def worker_exited(_server: Any, worker: Any) -> None:
    """gunicorn's ``child_exit`` hook: the worker's live gauges leave the sums."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
