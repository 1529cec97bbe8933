"""The round clock's sweep: while the service serves, every ``CLOCK_SWEEP_SECONDS`` (20 by
default; 0 turns it off) each serving process closes the rounds whose clock says they have
closed (``auto_close``, ``grace_minutes`` after their end), whether or not anyone is reading
the event at that moment (``EventService.close_due_rounds``; docs/clock-and-prizes.md).

No Redis and no claim: one query over the open rounds finds the rounds due (nothing else is
asked when there are none), and each close is the reading's own close, a versioned write in a
unit of work that holds the event first. Several processes sweeping at once (gunicorn's
workers, two servers on one database) each try; the first closes the round and every other
finds it closed, so a round closes exactly once, at the moment its clock said. Each process
starts its sweeps at a random point of the first interval, so that the workers' sweeps are
spread over it rather than all at once.

A close is logged as one line and counted in the metrics
(``segnapunti_rounds_closed_by_clock_total{by="sweep"}``) by ``EventService``; a sweep that
fails (the database away) is logged and the next one tries again."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

#: Seconds between two sweeps of a process, by default.
CLOCK_SWEEP_SECONDS = 20.0


def sweep_seconds(raw: str | None) -> float:
    """``CLOCK_SWEEP_SECONDS``'s value: seconds between sweeps (a number, at least 1), or 0
    (no sweep: a round then closes by its clock at the next reading of it); unset or empty,
    20."""
    value = (raw or "").strip()
    if not value:
        return CLOCK_SWEEP_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not (seconds == 0 or 1 <= seconds <= 3600):
        raise ValueError("CLOCK_SWEEP_SECONDS is a number of seconds from 1 to 3600, or 0 "
                         f"for no sweep, not {raw!r}")
    return seconds


class ClockSweep:
    """Runs ``close_due`` (``EventService.close_due_rounds``) every ``seconds`` in a thread of
    its own, once ``start`` is called (by a serving process, once its app is built)."""

    def __init__(self, close_due: Callable[[], int], seconds: float) -> None:
        self.close_due = close_due
        self.seconds = seconds
        self._stop = threading.Event()
        self._lock = threading.Lock()
        #: The sweeping thread, once started.
        self.thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.seconds > 0

    def sweep(self) -> int:
        """One sweep, now: how many rounds it closed (0 when it failed: logged)."""
        try:
            return self.close_due()
        except Exception:  # the next sweep tries again; serving goes on
            log.exception("the round clock's sweep failed; the next one tries again")
            return 0

    def start(self) -> bool:
        """Start sweeping in a daemon thread (once; nothing when off); whether it started."""
        if not self.enabled:
            return False
        with self._lock:
            if self.thread is not None:
                return False
            self._stop.clear()
            self.thread = threading.Thread(target=self._run, name="segnapunti-clock-sweep",
                                           daemon=True)
            self.thread.start()
        return True

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop sweeping (the sweep under way, if any, finishes first)."""
        self._stop.set()
        thread = self.thread
        if thread is not None:
            thread.join(timeout)
        self.thread = None

    def _run(self) -> None:
        wait = random.uniform(0, self.seconds)
        while not self._stop.wait(wait):
            self.sweep()
            wait = self.seconds
