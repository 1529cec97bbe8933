"""Benchmark: plain throughput of tornado (``python -m service``'s default: one process, the
app in 8 threads) and waitress (``SERVER=waitress``, one process of 8 threads) against
gunicorn gthread (``SERVER=gunicorn``, 2 workers of 8 threads) in the same run, on the same
SQLite database: ``GET /api/v1/health`` and ``GET /api/v1/games/{id}`` of a game of one hand,
as requests a second with ``--clients`` client processes on kept-alive connections, rounds of
``--seconds`` taking the servers in turn, ``--rounds`` times; the ratios tornado ÷ gunicorn
and waitress ÷ gunicorn of each round, and their medians.

    .venv/bin/python bench/bench_servers.py [--clients 4] [--seconds 2] [--rounds 3]

It is not a test and asserts nothing beyond every request answering 200.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "live"))
sys.path.insert(0, str(ROOT / "tests"))

from live_support import API, LiveServer, auth, gatti3_hand


def _client(port: int, path: str, headers: dict[str, str], seconds: float,
            counts: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    done = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200, answer.status
        done += 1
    counts.put(done)


def rate(port: int, path: str, headers: dict[str, str], clients: int, seconds: float) -> float:
    counts: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    workers = [multiprocessing.Process(target=_client, args=(port, path, headers, seconds, counts))
               for _ in range(clients)]
    for worker in workers:
        worker.start()
    total = sum(counts.get() for _ in workers)
    for worker in workers:
        worker.join()
    return total / seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        url = f"sqlite:///{work}/bench.sqlite3"
        quiet = {"LOG_LEVEL": "WARNING", "RATE_LIMIT_PER_MINUTE": "0"}
        servers = {name: LiveServer(url, Path(work), env={**quiet, "SERVER": name}).start()
                   for name in ("tornado", "waitress", "gunicorn")}
        try:
            some = servers["tornado"]
            game = some.create_game()
            edit = auth(game["tokens"]["edit"])
            assert some.call("POST", f"{API}/games/{game['id']}/hands", gatti3_hand(0),
                             edit).status == 201
            for name, path in (("health", f"{API}/health"),
                               ("game read", f"{API}/games/{game['id']}")):
                ratios: dict[str, list[float]] = {"tornado": [], "waitress": []}
                for _ in range(args.rounds):
                    rates = {server: rate(live.port, path, edit, args.clients, args.seconds)
                             for server, live in servers.items()}
                    for server, kept in ratios.items():
                        kept.append(rates[server] / rates["gunicorn"])
                    print(f"{name}: " + ", ".join(f"{server} {value:.0f}/s"
                                                  for server, value in rates.items()), flush=True)
                for server, kept in ratios.items():
                    print(f"{name}: {server} ÷ gunicorn, median of {args.rounds} rounds: "
                          f"{statistics.median(kept):.2f}", flush=True)
        finally:
            for live in servers.values():
                live.stop()


if __name__ == "__main__":
    main()
