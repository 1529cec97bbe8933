"""Slow clients cannot starve the service (issue 19): connections that trickle a header line
now and then, as a slowloris attack or a phone on one bar of signal does, each hold at most a
thread of a worker, never the worker, so a health probe still answers at once. The server is
the one ``python -m service`` runs, with its default workers and threads."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from live_support import API, LiveServer

#: Connections trickling headers at once: more than there are workers, fewer than threads.
TRICKLERS = 6
TRICKLE_EVERY_S = 0.5
PROBES = 8


@pytest.fixture(scope="module")
def server(one_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The default number of workers (2), as deployed.
    live = LiveServer(one_db_url, tmp_path_factory.mktemp("slow"), workers=2).start()
    yield live
    live.stop()


def _trickle(port: int, stop: threading.Event, opened: threading.Barrier) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"GET {API}/variants HTTP/1.1\r\nHost: x\r\n".encode())
        opened.wait()
        line = 0
        while not stop.wait(TRICKLE_EVERY_S):
            line += 1
            try:
                connection.sendall(f"X-Slow-{line}: {'a' * 10}\r\n".encode())
            except OSError:
                return  # the server let go of it: that is allowed too


def test_trickling_clients_do_not_hold_a_health_probe(server: LiveServer) -> None:
    stop = threading.Event()
    opened = threading.Barrier(TRICKLERS + 1)
    tricklers = [threading.Thread(target=_trickle, args=(server.port, stop, opened),
                                  daemon=True) for _ in range(TRICKLERS)]
    for thread in tricklers:
        thread.start()
    try:
        opened.wait(timeout=10)
        time.sleep(2 * TRICKLE_EVERY_S)  # every trickler is now inside a worker
        waits = []
        for _ in range(PROBES):
            started = time.monotonic()
            reply = server.call("GET", f"{API}/health", timeout=5)
            waits.append(time.monotonic() - started)
            assert reply.status == 200
            time.sleep(0.1)
    finally:
        stop.set()
        for thread in tricklers:
            thread.join(timeout=5)
    assert max(waits) < 1.0, waits
