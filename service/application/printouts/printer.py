"""Printing score sheets without holding the service: each version of a game's sheet is
rendered once per worker and kept, and only a few renders run at a time.

A 1,000-hand sheet with its explanations takes seconds of CPU. Rendered on every request,
six at once held the health check for 20 s. Now:

- A sheet is kept by (game, game version, rules version, language, detail) in a cache bounded
  by bytes (``PDF_CACHE_BYTES``): the same version asked for again is sent as it is. The
  sheet prints the time of the game's newest change ("as of"), not of the request, so a kept
  sheet is exactly what a new render of that version would be.
- At most ``PDF_RENDER_CONCURRENCY`` renders run at once in a worker (default 1), so the
  other threads keep answering; a request that waits ``PDF_RENDER_WAIT_S`` for its turn gets
  ``PrinterBusy`` (503 with Retry-After) instead of holding its thread. Two requests for the
  same version render it once: the second waits for the first's result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

from service.domain import (
    RULES_VERSION,
)

from ..caches import LruCache
from ..errors import ApplicationError
from ..games import GameView
from .model import Sheet
from .sheet import build_sheet

PDF_CACHE_BYTES = 32 * 1024 * 1024
PDF_RENDER_CONCURRENCY = 1
PDF_RENDER_WAIT_S = 10.0

SheetKey = tuple[str, int, str, str, bool]


class PrinterBusy(ApplicationError):
    """Every render slot stayed taken for as long as a request may wait for one."""

    code = "printer_busy"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


def as_of(view: GameView) -> datetime:
    """When the game last changed as far as its sheet shows: its newest hand's last change,
    or its start."""
    return max([view.game.created_at, *(hand.updated_at for hand in view.hands)])


class SheetPrinter:
    """Rendered sheets of one worker, kept and rendered a few at a time. ``render`` turns a
    ``Sheet`` into PDF bytes (``service.pdf.render_sheet``)."""

    def __init__(self, render: Callable[[Sheet], bytes], *,
                 cache_bytes: int = PDF_CACHE_BYTES,
                 concurrency: int = PDF_RENDER_CONCURRENCY,
                 wait_s: float = PDF_RENDER_WAIT_S) -> None:
        if concurrency < 1:
            raise ValueError("PDF_RENDER_CONCURRENCY is at least 1")
        self.render = render
        self.wait_s = wait_s
        self._kept: LruCache[SheetKey, tuple[bytes, str]] = LruCache(
            cache_bytes, weight=lambda kept: len(kept[0]))
        self._slots = threading.BoundedSemaphore(concurrency)
        self._lock = threading.Lock()
        self._rendering: dict[SheetKey, threading.Event] = {}

    def pdf(self, view: GameView, lang: str, *, detail: bool) -> tuple[bytes, str]:
        """The sheet of ``view`` as PDF bytes, and its file name."""
        key: SheetKey = (view.id, view.game.version, RULES_VERSION, lang, detail)
        while True:
            kept = self._kept.get(key)
            if kept is not None:
                return kept
            with self._lock:
                running = self._rendering.get(key)
                if running is None:
                    done = self._rendering[key] = threading.Event()
                    break
            if not running.wait(self.wait_s):
                raise self._busy()
            # The render it waited for either kept its sheet or failed: look again (and
            # render it here if that one failed).
        try:
            return self._render(key, view, lang, detail)
        finally:
            with self._lock:
                del self._rendering[key]
            done.set()

    def _render(self, key: SheetKey, view: GameView, lang: str,
                detail: bool) -> tuple[bytes, str]:
        if not self._slots.acquire(timeout=self.wait_s):
            raise self._busy()
        try:
            sheet = build_sheet(view, lang, detail=detail, as_of=as_of(view))
            rendered = (self.render(sheet), sheet.filename)
        finally:
            self._slots.release()
        self._kept.put(key, rendered)
        return rendered

    def _busy(self) -> PrinterBusy:
        seconds = max(1, round(self.wait_s))
        return PrinterBusy(f"the score sheets being printed take longer than {seconds} s; "
                           f"try again in {seconds} s", retry_after=seconds)
