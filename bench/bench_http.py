"""Benchmark: the service's cost per request, as a ratio to its cheapest request.

What it measures: the service as deployed (``python -m service``: migrations, then gunicorn
with ``--workers`` gthread workers) on a free loopback port, against a temporary SQLite file and,
when ``--postgres URL`` or ``TEST_DATABASE_URL`` is given, a fresh PostgreSQL database made
for the run and dropped after it. A load generator in Python (``--clients`` concurrent
clients in processes of their own, one http.client connection each) runs bounded rounds of
``--seconds``: for each endpoint under test, a round of ``GET /api/v1/health`` then a round of
the endpoint, ``--rounds`` times. Each endpoint's throughput is reported as a ratio to the
health endpoint's in the same pair of rounds (the median of the rounds' ratios), with its
p99 latency (the median of the rounds' p99s) and the resident memory of each gunicorn worker
after the run (VmRSS from /proc).

The endpoints: ``POST /score`` with a summary record and with a complete trick-by-trick
``gatti-3`` record, each as the same body again and again (answered from what the worker
remembers of a body after the first time) and as a body new every time (the same record
after another run of JSON whitespace, so every request is read, validated and scored); ``POST /games/{id}/hands`` (each client adds hands to a game of its own,
fresh each round); ``GET /games/{id}`` of a 1-hand and of a 100-hand ``mitigatti-3`` game;
``GET /games/{id}/sheet.pdf`` of the 1-hand and of the 100-hand game. In Italian
(``Accept-Language: it``): a new summary body, and the 100-hand game; a new body with its
piles by points.

Run from the repository root (about 3 minutes a database with the defaults; with rounds of
1 s, figures moved by ±20 % from run to run):

    .venv/bin/python bench/bench_http.py [--postgres postgresql://postgres@127.0.0.1/test]
                                         [--seconds 2] [--rounds 5] [--clients 4]

Rate limiting is turned off in the server under test (``RATE_LIMIT_PER_MINUTE=0``); the
access log is written, to /dev/null. Every request says ``Accept-Encoding: gzip``, as a
browser does. It is not a test and asserts nothing beyond every
request succeeding.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import multiprocessing
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

API = "/api/v1"
HEALTH = ("GET", f"{API}/health", None)
LONG_GAME = 100

COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]
SUMMARY_RECORD = {
    "dealer": 0, "discard": ["2H", "3H", "4S"],
    "piles": [{"side": 0, "tricks": 10, "counting": COUNTING},
              {"side": 1, "tricks": 8, "counting": []},
              {"side": 2, "tricks": 8, "counting": []}],
}
#: The same hand as the table counts it: the points of two sides, the third the rest.
POINTS_RECORD = {
    "dealer": 0, "discard": ["2H", "3H", "4S"],
    "piles": [{"side": 0, "points": 62}, {"side": 1, "points": 8}],
}


def mitigatti_hand(dealer: int, i: int) -> dict[str, Any]:
    """A valid ``mitigatti-3`` hand; the top seat turns round, so the ledger never ends."""
    top, second = i % 3, (i + 1) % 3
    return {"dealer": dealer, "piles": [
        {"side": top, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": second, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}


def trick_record() -> dict[str, Any]:
    """A complete trick-by-trick ``gatti-3`` record (25 tricks, melds declared), from the
    seeded generator of the independent reference replayer."""
    path = ROOT / "tests" / "scenarios" / "tricks" / "reference.py"
    spec = importlib.util.spec_from_file_location("trick_reference", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["trick_reference"] = module
    spec.loader.exec_module(module)
    game = module.generate("gatti-3", 1)
    record: dict[str, Any] = game.record(with_discard=False)
    record["declarations"] = module.all_melds(game)
    return record


# -- HTTP -------------------------------------------------------------------------------------


class Client:
    """One connection to the server, kept alive between requests; reconnects when the server
    closes it (a worker's keep-alive timeout, or a sync worker, which closes every connection
    after one response)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        # As browsers send it: a game's JSON comes gzipped (payloads are read, not decoded).
        all_headers = {"Accept-Encoding": "gzip", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                payload = response.read()
                if response.will_close:
                    self.conn.close()
                    self.conn = None
                return response.status, payload
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def ok(self, method: str, path: str, body: Any = None,
           headers: dict[str, str] | None = None) -> bytes:
        """The payload of a 2xx answer; anything else stops the run."""
        status, payload = self.request(method, path, body, headers)
        if not 200 <= status < 300:
            raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
        return payload

    def json(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Any:
        return json.loads(self.ok(method, path, body,
                                  {"Accept-Encoding": "identity", **(headers or {})}))


def new_game(client: Client, hands: int) -> tuple[str, dict[str, str]]:
    created = client.json("POST", f"{API}/games",
                          {"variant": "mitigatti-3", "players": ["Anna", "Bruno", "Carla"]})
    url = f"{API}/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['tokens']['edit']}"}
    for i in range(hands):
        client.json("POST", f"{url}/hands", mitigatti_hand(i % 3, i), auth)
    return url, auth


# -- load -------------------------------------------------------------------------------------


@dataclass
class Endpoint:
    name: str
    method: str
    path: str
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Each client adds hands to a game of its own, made before the round starts.
    adds_hands: bool = False
    #: Every request's body differs from every other in its bytes (JSON whitespace before
    #: the value), so the service cannot answer from what it remembers of a body.
    distinct: bool = False


def distinct_bodies(body: Any) -> Iterator[bytes]:
    """``body`` as JSON, each time after another pattern of 32 spaces and tabs."""
    text = json.dumps(body).encode()
    salt = secrets.randbits(14) << 18
    for number in range(1 << 18):
        bits = salt | number
        yield b"".join(b"\t" if bits >> i & 1 else b" " for i in range(32)) + text


def _client_thread(port: int, endpoint: Endpoint, start: float, stop: float,
                   latencies: list[float], failures: list[str]) -> None:
    client = Client(port)
    path, headers, number = endpoint.path, endpoint.headers, 0
    if endpoint.adds_hands:
        url, headers = new_game(client, 0)
        path = f"{url}/hands"
    bodies = distinct_bodies(endpoint.body) if endpoint.distinct else None
    time.sleep(max(0.0, start - time.monotonic()))
    while True:
        body = (mitigatti_hand(number % 3, number) if endpoint.adds_hands
                else next(bodies) if bodies is not None else endpoint.body)
        begun = time.monotonic()
        if begun >= stop:
            return
        status, payload = client.request(endpoint.method, path, body, headers)
        ended = time.monotonic()
        if ended > stop:
            return  # finished after the round: not counted
        if not 200 <= status < 300:
            failures.append(f"{status} {payload[:200]!r}")
            return
        latencies.append(ended - begun)
        number += 1


def _client_process(port: int, endpoint: Endpoint, threads: int, start: float,
                    stop: float) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    failures: list[str] = []
    workers = [threading.Thread(target=_client_thread,
                                args=(port, endpoint, start, stop, latencies, failures))
               for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return latencies, failures


def run_round(pool: Any, port: int, endpoint: Endpoint, clients: int, processes: int,
              seconds: float) -> tuple[float, float]:
    """Requests a second and p99 latency (ms) of ``clients`` clients for ``seconds``."""
    setup = 1.0 if endpoint.adds_hands else 0.3
    start = time.monotonic() + setup
    stop = start + seconds
    per_process = [clients // processes + (1 if i < clients % processes else 0)
                   for i in range(processes)]
    results = pool.starmap(_client_process, [(port, endpoint, n, start, stop)
                                             for n in per_process if n])
    latencies = sorted(latency for part, _ in results for latency in part)
    failures = [failure for _, part in results for failure in part]
    if failures:
        raise SystemExit(f"{endpoint.name}: {len(failures)} failed requests, e.g. {failures[0]}")
    if not latencies:
        return 0.0, float("nan")
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return len(latencies) / seconds, p99


# -- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(database_url: str, workers: int) -> Iterator[tuple[int, int]]:
    """``python -m service`` with ``SERVER=gunicorn`` (its workers are measured) on a free
    loopback port: (port, gunicorn master's pid)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "HOST": "127.0.0.1",
           "SERVER": "gunicorn", "WEB_CONCURRENCY": str(workers), "RATE_LIMIT_PER_MINUTE": "0"}
    process = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if Client(port).request("GET", f"{API}/health")[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start ({database_url})")
            time.sleep(0.1)
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def proc_fields(path: Path) -> dict[str, str]:
    """A ``/proc`` file of ``name: value`` lines (``status``, ``smaps_rollup``)."""
    return dict(line.split(":", 1) for line in path.read_text().splitlines() if ":" in line)


def workers_of(master: int) -> list[int]:
    """The gunicorn workers: the master's children."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if proc_fields(entry / "status").get("PPid", "").strip() == str(master):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return sorted(pids)


def worker_rss_mb(master: int) -> list[float]:
    """VmRSS of each gunicorn worker, in MB."""
    return sorted(int(proc_fields(Path("/proc") / str(pid) / "status")["VmRSS"].split()[0])
                  / 1024 for pid in workers_of(master))


@contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database for the run, dropped afterwards."""
    import psycopg
    from sqlalchemy.engine import make_url

    from service.persistence import normalise_url

    base = normalise_url(admin_url)
    plain = base.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"segnapunti_bench_{secrets.token_hex(4)}"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(plain).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


# -- the run ----------------------------------------------------------------------------------


def bench(label: str, database_url: str, args: argparse.Namespace) -> list[str]:
    with server(database_url, args.workers) as (port, master):
        client = Client(port)
        short_url, short_auth = new_game(client, 1)
        long_url, long_auth = new_game(client, LONG_GAME)
        trick = trick_record()
        endpoints = [
            Endpoint("POST /score (summary record)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": SUMMARY_RECORD}),
            Endpoint("POST /score (summary, every body new)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": SUMMARY_RECORD}, distinct=True),
            Endpoint("POST /score (summary, new bodies, Italian)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": SUMMARY_RECORD}, distinct=True,
                     headers={"Accept-Language": "it"}),
            Endpoint("POST /score (points record, new bodies)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": POINTS_RECORD}, distinct=True),
            Endpoint("POST /score (trick record)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": trick}),
            Endpoint("POST /score (trick rec., every body new)", "POST", f"{API}/score",
                     {"variant": "gatti-3", "hand": trick}, distinct=True),
            Endpoint("POST /games/{id}/hands", "POST", "", adds_hands=True),
            Endpoint("GET /games/{id} (1 hand)", "GET", short_url, headers=short_auth),
            Endpoint(f"GET /games/{{id}} ({LONG_GAME} hands)", "GET", long_url,
                     headers=long_auth),
            Endpoint(f"GET /games/{{id}} ({LONG_GAME} hands, Italian)", "GET", long_url,
                     headers={**long_auth, "Accept-Language": "it"}),
            Endpoint("GET /games/{id}/sheet.pdf (1 hand)", "GET", f"{short_url}/sheet.pdf",
                     headers=short_auth),
            Endpoint(f"GET /games/{{id}}/sheet.pdf ({LONG_GAME} hands)", "GET",
                     f"{long_url}/sheet.pdf", headers=long_auth),
        ]
        health = Endpoint("GET /health", *HEALTH)
        if args.only:
            endpoints = [e for e in endpoints if any(o in e.name for o in args.only)]
        lines = [(f"{label}: {args.workers} gunicorn workers, {args.clients} clients, "
                  f"{args.rounds} rounds of {args.seconds:g} s, medians"),
                 f"{'endpoint':40} {'req/s':>9} {'× health':>9} {'p99 ms':>8}"]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.processes) as pool:
            # A warm-up: every worker imports and builds what it needs.
            for endpoint in [health, *endpoints]:
                run_round(pool, port, endpoint, args.clients, args.processes, 0.5)
            health_rates, health_p99 = [], []
            for endpoint in endpoints:
                rates, ratios, p99s = [], [], []
                for _ in range(args.rounds):
                    h_rate, h_p99 = run_round(pool, port, health, args.clients,
                                              args.processes, args.seconds)
                    rate, p99 = run_round(pool, port, endpoint, args.clients,
                                          args.processes, args.seconds)
                    health_rates.append(h_rate)
                    health_p99.append(h_p99)
                    rates.append(rate)
                    ratios.append(rate / h_rate)
                    p99s.append(p99)
                lines.append(f"{endpoint.name:40} {statistics.median(rates):9,.0f} "
                             f"{statistics.median(ratios):9.2f} {statistics.median(p99s):8.1f}")
                print(lines[-1], flush=True)
            lines.insert(2, f"{'GET /health':40} {statistics.median(health_rates):9,.0f} "
                            f"{1:9.2f} {statistics.median(health_p99):8.1f}")
        rss = worker_rss_mb(master)
        lines.append("worker RSS after the run: " + ", ".join(f"{mb:.0f} MB" for mb in rss))
        return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("TEST_DATABASE_URL"),
                        help="a PostgreSQL URL whose server may create a database for the run")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--processes", type=int, default=2, help="load generator processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--only", nargs="*", help="endpoints whose name contains one of these")
    args = parser.parse_args()
    began = time.monotonic()
    reports = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite:///{directory}/bench.sqlite3"
            reports.append(bench("SQLite", url, args))
    if args.postgres:
        with postgres_database(args.postgres) as url:
            reports.append(bench("PostgreSQL", url, args))
    print()
    for lines in reports:
        print("\n".join(lines), end="\n\n")
    print(f"{time.monotonic() - began:.0f} s in all")


if __name__ == "__main__":
    main()
