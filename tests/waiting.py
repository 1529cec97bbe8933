"""Waiting in the tests for a condition rather than for a fixed time, with deadlines a busy
machine can meet: a server that takes long to start on a loaded CI machine is slow, not
broken, and a test says it is broken only when the condition never comes. Imported as
``waiting``.

``TEST_SERVER_START_TIMEOUT`` (seconds, default 120) is how long a test server (``python -m
service``: migrations, then gunicorn and its workers) may take to answer its first request.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

SERVER_START_TIMEOUT_S = float(os.environ.get("TEST_SERVER_START_TIMEOUT", "120"))


def wait_until(condition: Callable[[], object], timeout: float, interval: float = 0.02) -> bool:
    """Poll ``condition`` until it is true (then True) or ``timeout`` seconds have passed
    (then False, after one last look)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return bool(condition())
        time.sleep(interval)
    return True
