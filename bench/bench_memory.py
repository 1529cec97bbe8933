"""Benchmark: the resident memory of each gunicorn worker once it has served every endpoint.

What it measures: the service as deployed (``python -m service``: migrations in a process of
their own, then gunicorn with ``--workers`` sync workers, default 2, no preload) on a free
loopback port, on a temporary SQLite file (``--database URL`` for another database; it must
be empty or already migrated), rate limiting off (``RATE_LIMIT_PER_MINUTE=0``). ``--clients``
threads (default 4, so that every worker is kept busy) each run ``--repeat`` times through
every kind of endpoint: health, variants, ``POST /score``, ``/melds/suggest``,
``/adjudicate/trick``, a new game with hands, ``GET`` the game (gzip and identity), a hand,
its history, a correction (``PUT``) and a deletion of a hand, ``sheet.pdf`` (a 1-hand and a
30-hand game), the ``.json`` and ``.csv`` exports, ``POST /games/import``,
``/api/v1/openapi.json``, the Swagger UI page and the phone page.

Then, for the master and each worker (the master's children), from ``/proc``: ``VmRSS``
(resident, shared pages counted in full: the issue's measure, target ≤ 60 MB a worker),
``VmHWM`` (its peak), ``Pss`` (proportional: shared pages divided among their sharers) and
``Private`` (``Private_Clean + Private_Dirty`` of ``smaps_rollup``), in MB, and which of the
heavy libraries the process has loaded, seen from the native extensions it maps (Pillow's,
which reportlab imports; SQLAlchemy's compiled extensions; PyYAML's ``_yaml``; psycopg's), since
a pure-Python module leaves no trace in ``/proc``. The same figures are printed once before the
first request, when every worker has booted and its memory has stopped growing.

Run from the repository root (about 10 s):

    .venv/bin/python bench/bench_memory.py [--workers 2] [--clients 4] [--repeat 3]
                                           [--database postgresql://…]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
API = "/api/v1"
LONG_GAME = 30

COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]
SUMMARY_RECORD = {
    "dealer": 0, "discard": ["2H", "3H", "4S"],
    "piles": [{"side": 0, "tricks": 10, "counting": COUNTING},
              {"side": 1, "tricks": 8, "counting": []},
              {"side": 2, "tricks": 8, "counting": []}],
}

#: Shared objects whose mapping shows that a library was imported, by library. reportlab has
#: no native extension of its own; it imports Pillow, so ``PIL`` stands for it.
MARKERS = {
    "PIL": ("/PIL/",),
    "sqlalchemy": ("/sqlalchemy/",),
    "yaml": ("/_yaml/", "/yaml/"),
    "psycopg": ("psycopg",),
}


def mitigatti_hand(dealer: int, i: int) -> dict[str, Any]:
    """A valid ``mitigatti-3`` hand; the top seat turns round, so the ledger never ends."""
    top, second = i % 3, (i + 1) % 3
    return {"dealer": dealer, "piles": [
        {"side": top, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": second, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}


class Client:
    """One connection; reconnects when the server closes it (sync workers close each one)."""

    def __init__(self, port: int) -> None:
        self.port = port

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        all_headers = dict(headers or {})
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=data, headers=all_headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def ok(self, method: str, path: str, body: Any = None,
           headers: dict[str, str] | None = None) -> bytes:
        status, payload = self.request(method, path, body, headers)
        if not 200 <= status < 300:
            raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
        return payload

    def json(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Any:
        return json.loads(self.ok(method, path, body, headers))


def new_game(client: Client, hands: int) -> tuple[str, dict[str, str]]:
    created = client.json("POST", f"{API}/games",
                          {"variant": "mitigatti-3", "players": ["Anna", "Bruno", "Carla"]})
    url = f"{API}/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['tokens']['edit']}"}
    for i in range(hands):
        client.json("POST", f"{url}/hands", mitigatti_hand(i % 3, i), auth)
    return url, auth


def exercise(client: Client, long_game: tuple[str, dict[str, str]]) -> None:
    """One pass through every kind of endpoint."""
    client.ok("GET", f"{API}/health")
    client.ok("GET", f"{API}/variants")
    client.ok("GET", f"{API}/variants/gatti-3")
    client.ok("POST", f"{API}/score", {"variant": "gatti-3", "hand": SUMMARY_RECORD})
    client.ok("POST", f"{API}/melds/suggest",
              {"variant": "gatti-3", "cards": ["JD", "CD", "QD", "KD", "KH", "KS", "2C"]})
    client.ok("POST", f"{API}/adjudicate/trick",
              {"variant": "gatti-3", "leader": 0, "cards": ["KH", "2H", "3H"]})
    url, auth = new_game(client, 3)
    client.ok("GET", url, headers={**auth, "Accept-Encoding": "gzip"})
    client.ok("GET", url, headers={**auth, "Accept-Encoding": "identity"})
    client.ok("GET", f"{url}/hands/1", headers=auth)
    client.ok("PUT", f"{url}/hands/2", mitigatti_hand(1, 5), {**auth, "If-Match": "*"})
    client.ok("DELETE", f"{url}/hands/3", headers={**auth, "If-Match": "*"})
    client.ok("GET", f"{url}/history", headers=auth)
    client.ok("GET", f"{url}/sheet.pdf", headers=auth)
    document = client.json("GET", f"{url}.json", headers=auth)
    client.ok("GET", f"{url}.csv", headers=auth)
    client.ok("POST", f"{API}/games/import", document)
    long_url, long_auth = long_game
    client.ok("GET", long_url, headers={**long_auth, "Accept-Encoding": "gzip"})
    client.ok("GET", f"{long_url}/sheet.pdf", headers=long_auth)
    client.ok("GET", f"{API}/openapi.json")
    client.ok("GET", f"{API}/docs")
    client.ok("GET", "/")


# -- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(database_url: str, workers: int) -> Iterator[tuple[int, int]]:
    """``python -m service`` on a free loopback port: (port, gunicorn master's pid)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "HOST": "127.0.0.1",
           "WEB_CONCURRENCY": str(workers), "RATE_LIMIT_PER_MINUTE": "0"}
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


# -- /proc ------------------------------------------------------------------------------------


def _fields(path: Path) -> dict[str, str]:
    return dict(line.split(":", 1) for line in path.read_text().splitlines() if ":" in line)


def _mb(value: str) -> float:
    return int(value.split()[0]) / 1024


def children(master: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if _fields(entry / "status").get("PPid", "").strip() == str(master):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return sorted(pids)


def memory(pid: int) -> dict[str, Any]:
    """VmRSS, VmHWM, Pss and Private (MB) of ``pid``, and the heavy libraries it maps."""
    proc = Path("/proc") / str(pid)
    status = _fields(proc / "status")
    rollup = _fields(proc / "smaps_rollup")
    maps = (proc / "maps").read_text()
    return {
        "rss": _mb(status["VmRSS"]),
        "hwm": _mb(status["VmHWM"]),
        "pss": _mb(rollup["Pss"]),
        "private": _mb(rollup["Private_Clean"]) + _mb(rollup["Private_Dirty"]),
        "libraries": [name for name, needles in MARKERS.items()
                      if any(needle in maps for needle in needles)],
    }


def report(master: int) -> list[str]:
    lines = [f"{'process':16} {'VmRSS':>7} {'VmHWM':>7} {'Pss':>7} {'Private':>8}  "
             + "native libraries mapped"]
    for label, pid in [("master", master),
                       *((f"worker {pid}", pid) for pid in children(master))]:
        m = memory(pid)
        lines.append(f"{label:16} {m['rss']:7.1f} {m['hwm']:7.1f} {m['pss']:7.1f} "
                     f"{m['private']:8.1f}  {', '.join(m['libraries']) or '-'}")
    return lines


def wait_for_workers(master: int, workers: int, timeout: float = 60) -> None:
    """Until ``workers`` workers run and none of their VmRSS has moved for a second: a worker
    answers the first request while another may still be importing."""
    deadline = time.monotonic() + timeout
    last: list[float] = []
    steady_since = time.monotonic()
    while time.monotonic() < deadline:
        pids = children(master)
        try:
            sizes = [memory(pid)["rss"] for pid in pids]
        except OSError:
            sizes = []
        if len(sizes) != workers or sizes != last:
            last, steady_since = sizes, time.monotonic()
        elif time.monotonic() - steady_since >= 1.0:
            return
        time.sleep(0.1)
    raise SystemExit(f"the {workers} workers did not settle in {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads")
    parser.add_argument("--repeat", type=int, default=3, help="passes of each client")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        url = args.database or f"sqlite:///{directory}/bench.sqlite3"
        with server(url, args.workers) as (port, master):
            wait_for_workers(master, args.workers)
            idle = report(master)
            long_game = new_game(Client(port), LONG_GAME)
            errors: list[BaseException] = []

            def run() -> None:
                try:
                    for _ in range(args.repeat):
                        exercise(Client(port), long_game)
                except BaseException as error:  # noqa: BLE001 - reported below
                    errors.append(error)

            threads = [threading.Thread(target=run) for _ in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if errors:
                raise SystemExit(f"a request failed: {errors[0]}")
            after = report(master)
    print(f"{args.workers} gunicorn workers, {args.clients} clients × {args.repeat} passes "
          "through every endpoint; MB")
    print("before any request:")
    print("\n".join(idle))
    print("after the run:")
    print("\n".join(after))


if __name__ == "__main__":
    main()
