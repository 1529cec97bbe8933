"""Benchmark: what the rate limits cost a request, in process.

What it measures: ``GET /api/v1/variants`` (the cheapest limited request: no database) through
the whole app with Flask's test client, with the limits off, counted in the worker's memory,
and counted in Redis (``--redis``, default ``redis://127.0.0.1:6379/0``; skipped when none
answers); each as the median of ``--rounds`` rounds of ``--requests`` requests, every request
its own client (a new address each time would grow the counts: one address whose allowance
never runs out is the steady state of a busy table). Reported as microseconds a request and
as a ratio to the same request with the limits off, in the same run.

    .venv/bin/python bench/bench_limits.py [--requests 3000] [--rounds 5]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from typing import Any

from service.http.app import create_app


def _client(**config: Any) -> Any:
    app = create_app({"DATABASE_URL": "sqlite://", "AUTH_FAILURES_PER_MINUTE": 30,
                      "RATE_LIMIT_BURST": 10**6, "RATE_LIMIT_PER_MINUTE": 10**7, **config})
    return app.test_client()


def _round(client: Any, requests: int) -> float:
    start = time.perf_counter()
    for _ in range(requests):
        response = client.get("/api/v1/variants")
        assert response.status_code == 200, response.status_code
    return (time.perf_counter() - start) / requests * 1e6


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    setups = {
        "limits off": _client(RATE_LIMIT_PER_MINUTE=0, AUTH_FAILURES_PER_MINUTE=0),
        "memory://": _client(),
    }
    if _redis_answers(args.redis):
        setups["redis"] = _client(RATE_LIMIT_STORAGE_URL=args.redis,
                                  RATE_LIMIT_KEY_PREFIX=f"bench-{uuid.uuid4().hex}")
    for client in setups.values():  # warm up: imports, first connections
        _round(client, 200)
    results: dict[str, list[float]] = {name: [] for name in setups}
    for _ in range(args.rounds):
        for name, client in setups.items():
            results[name].append(_round(client, args.requests))
    base = statistics.median(results["limits off"])
    print(f"GET /api/v1/variants in process, {args.rounds} rounds of {args.requests}, medians")
    print(f"{'limits':<14}{'µs/request':>12}{'× off':>8}")
    for name, times in results.items():
        median = statistics.median(times)
        print(f"{name:<14}{median:>12.0f}{median / base:>8.2f}")


if __name__ == "__main__":
    main()
