"""Benchmark: what counting and timing every request for ``/metrics`` costs, in process.

What it measures: ``GET /api/v1/health`` (the cheapest request: no database, no limits)
through the whole app with Flask's test client, with the metrics' hooks (``service/http/
metrics.py``: the start time before the request, the count and the latency after it) and with
the same app's hooks taken out, rounds of each taking turns (each first in turn); the best
(and the median) of ``--rounds`` rounds of ``--requests`` requests each, the best being the
least disturbed by whatever else the machine runs; and the two hooks alone, called in one
request's context. Twice: with the counts in the process's memory (one
process), and in the files of ``PROMETHEUS_MULTIPROC_DIR`` as gunicorn's workers keep them
(each in a child interpreter, as the mode is chosen when ``prometheus_client`` is imported).
Also the time of one scrape (``GET /metrics`` from this machine) on an in-memory database.
Reported as requests a second, microseconds a request, and the ratio of the two throughputs.

    .venv/bin/python bench/bench_metrics.py [--requests 1000] [--rounds 21]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def _round(client: Any, requests: int) -> float:
    start = time.perf_counter()
    for _ in range(requests):
        response = client.get("/api/v1/health")
        assert response.status_code == 200, response.status_code
    return (time.perf_counter() - start) / requests


def measure(requests: int, rounds: int) -> dict[str, float]:
    """In this interpreter: seconds a request with and without the hooks, and a scrape's."""
    from service.http import metrics
    from service.http.app import create_app

    config = {"DATABASE_URL": "sqlite://", "RATE_LIMIT_PER_MINUTE": 0,
              "AUTH_FAILURES_PER_MINUTE": 0}
    counted = create_app(config)
    bare = create_app(config)
    bare.before_request_funcs[None].remove(metrics.start_timing)
    bare.after_request_funcs[None].remove(metrics.count_request)
    clients = {"with": counted.test_client(), "without": bare.test_client()}
    for client in clients.values():  # warm up: imports, first routes, caches
        _round(client, 200)
    times: dict[str, list[float]] = {"with": [], "without": []}
    for number in range(rounds):  # each first in turn, so neither gains by its place
        for name in (("with", "without") if number % 2 else ("without", "with")):
            times[name].append(_round(clients[name], requests))
    # The hooks alone, in one request's context: what they add, free of the machine's noise
    # in the comparison of two whole requests.
    response = clients["with"].get("/api/v1/health")
    with counted.test_request_context("/api/v1/health"):
        from flask import request

        request.url_rule = counted.url_map.bind("").match("/api/v1/health",
                                                          return_rule=True)[0]
        start = time.perf_counter()
        for _ in range(requests * 10):
            metrics.start_timing()
            metrics.count_request(response)
        hooks = (time.perf_counter() - start) / (requests * 10)
    scrapes = []
    for _ in range(20):
        start = time.perf_counter()
        assert clients["with"].get("/metrics").status_code == 200
        scrapes.append(time.perf_counter() - start)
    return {"with": min(times["with"]), "without": min(times["without"]),
            "with_median": statistics.median(times["with"]),
            "without_median": statistics.median(times["without"]),
            "hooks": hooks, "scrape": statistics.median(scrapes)}


def _child(requests: int, rounds: int, multiprocess: bool) -> dict[str, float]:
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as directory:
        if multiprocess:
            env["PROMETHEUS_MULTIPROC_DIR"] = directory
        done = subprocess.run([sys.executable, __file__, "--child", "--requests", str(requests),
                               "--rounds", str(rounds)], env=env, capture_output=True,
                              text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.requests, args.rounds)))
        return
    print(f"GET /api/v1/health in process, best and median of {args.rounds} rounds of "
          f"{args.requests} requests")
    for label, multiprocess in (("one process (memory)", False),
                                ("gunicorn's workers (PROMETHEUS_MULTIPROC_DIR files)", True)):
        found = _child(args.requests, args.rounds, multiprocess)
        with_, without = found["with"], found["without"]
        print(f"\n{label}")
        print(f"  without the hooks  {1 / without:8.0f} req/s  {without * 1e6:6.1f} µs")
        print(f"  with the hooks     {1 / with_:8.0f} req/s  {with_ * 1e6:6.1f} µs  "
              f"(+{(with_ - without) * 1e6:.1f} µs a request)")
        print(f"  throughput with / without: {without / with_:.3f} (best rounds), "
              f"{found['without_median'] / found['with_median']:.3f} (median rounds)")
        print(f"  the hooks alone: {found['hooks'] * 1e6:.1f} µs a request "
              f"({found['hooks'] / without:.1%} of a bare /health)")
        print(f"  one scrape (GET /metrics): {found['scrape'] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
