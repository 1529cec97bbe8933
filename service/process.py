"""What a serving process sets for itself once its app is built.

Python's cyclic garbage collector now and then runs a full collection, which walks every
object the process tracks. A worker's boot makes some 75,000 of them (modules, the app, the
variants) that live as long as it does, and each full collection would walk them again. Once
the app is built, ``gc.freeze`` moves everything made so far out of the collector's sight for
good, which takes about a third off the time each new hand gives the collector
(``docs/measurements.md``). The objects the caches hold are walked still, so that time grows
with them.

The first threshold is raised (``GC_THRESHOLDS``). With Python's, a full collection comes
every few thousand new objects that outlive a young collection; once the caches hold a night
(a field's sections, its games' views) each full collection walks them all, and a field's
standings, made in some 50 ms, took 150 ms every second or third time they were made. With
ten thousand new objects between young collections, fewer short-lived ones are promoted and
full collections come an order of magnitude less often. The price is memory: an earlier run
of the HTTP benchmark left workers 7–18 MB larger (``docs/measurements.md``).

And its log: what the service and its libraries log (each request's line, a database that
went away, the rate limiter falling back to memory when Redis did) goes to standard error
beside gunicorn's own lines, at ``LOG_LEVEL`` (default ``INFO``), one JSON object a line or
plain text (``LOG_FORMAT``, ``service/logs.py``).

And the round clock's sweep, started once the app is built (``CLOCK_SWEEP_SECONDS``,
``service/application/clock_sweep.py``).
"""

from __future__ import annotations

import gc
import logging
import os
from typing import Any

from service import logs


def log_to_stderr() -> None:
    """Send the process's log records to standard error at ``$LOG_LEVEL``, unless logging
    was set up already (by a test runner, or an operator's own configuration)."""
    root = logging.getLogger()
    if root.handlers:
        return
    root.addHandler(logs.handler())
    root.setLevel(os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO")


def serving_app() -> Any:
    """The app a serving process runs (a gunicorn worker, ``service.wsgi``): its log set up,
    then the app built, then its boot frozen."""
    from service.http.app import create_app  # in the worker, never in gunicorn's master

    log_to_stderr()
    app = create_app()
    settle()
    # The round clock's sweep (service/application/clock_sweep.py), in this process: after
    # a fork, so that each gunicorn worker runs its own.
    start_clock_sweep(app)
    return app


def start_clock_sweep(app: Any) -> bool:
    """Start the app's round clock sweep in this process (none when it is off); whether it
    started."""
    sweep = getattr(app, "extensions", {}).get("segnapunti.clock_sweep")
    return bool(sweep is not None and sweep.start())


#: The collector's thresholds in a serving process: Python's (700, 10, 10), the first raised.
GC_THRESHOLDS = (10_000, 10, 10)


def settle() -> None:
    """Freeze what boot made out of the collector's sight and collect the young generation
    less often (``GC_THRESHOLDS``); call once the app is built."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
