"""The Redis the tests of shared rate limits use: ``TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``, as on CI), whether it answers, the skip mark for when it does
not, and a URL where no Redis listens. Imported as ``redis_support``."""

from __future__ import annotations

import os

import pytest
import redis

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
#: The discard port: nothing listens there.
CLOSED_PORT_URL = "redis://127.0.0.1:9/0"


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_answers(),
                                 reason=f"no Redis answers at {REDIS_URL} (TEST_REDIS_URL)")


def forget(prefix: str) -> None:
    """Remove a test's counts (every key under its prefix)."""
    if redis_answers():
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
