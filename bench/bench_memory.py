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
(resident, shared pages counted in full: the measure of the goal, ≤ 60 MB a worker),
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
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_http import (
    API,
    SUMMARY_RECORD,
    Client,
    mitigatti_hand,
    new_game,
    proc_fields,
    server,
    workers_of,
)

LONG_GAME = 30

#: Shared objects whose mapping shows that a library was imported, by library. reportlab has
#: no native extension of its own; it imports Pillow, so ``PIL`` stands for it.
MARKERS = {
    "PIL": ("/PIL/",),
    "sqlalchemy": ("/sqlalchemy/",),
    "yaml": ("/_yaml/", "/yaml/"),
    "psycopg": ("psycopg",),
}


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


# -- /proc ------------------------------------------------------------------------------------


def _mb(value: str) -> float:
    return int(value.split()[0]) / 1024


def memory(pid: int) -> dict[str, Any]:
    """VmRSS, VmHWM, Pss and Private (MB) of ``pid``, and the heavy libraries it maps."""
    proc = Path("/proc") / str(pid)
    status = proc_fields(proc / "status")
    rollup = proc_fields(proc / "smaps_rollup")
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
                       *((f"worker {pid}", pid) for pid in workers_of(master))]:
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
        pids = workers_of(master)
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
