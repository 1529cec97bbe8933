"""Slow clients cannot starve the service: connections that trickle their
request, a header line or a body byte now and then, as a slowloris attack or a phone on one
bar of signal does, hold no thread of a worker while they do (``service/server.py`` reads a
request whole in the worker's loop before a thread gets it), so a health probe answers at
once however many there are; and a request not whole by its deadline is answered ``408``
and closed. The server is the one ``python -m service`` runs, with its default workers (2)
and threads (8): forty slow clients are more than all its threads."""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from live_support import API, LiveServer

#: Slow clients at once, half trickling their head and half their body.
SLOW_CLIENTS = 40
TRICKLE_EVERY_S = 0.5
PROBES = 8
#: The server's deadline for a whole request (``REQUEST_DEADLINE``; 30 s by default), short
#: here so that the test sees the slow clients answered 408 and let go.
DEADLINE_S = 6.0


@pytest.fixture(scope="module")
def server(one_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(one_db_url, tmp_path_factory.mktemp("slow"), workers=2,
                      env={"REQUEST_DEADLINE": str(DEADLINE_S)}).start()
    yield live
    live.stop()


@dataclass
class SlowClient:
    """One connection sending its request a piece every ``TRICKLE_EVERY_S``: its head a
    header line at a time, or (``body``) its head at once and its body a byte at a time,
    until the server answers or lets go."""

    port: int
    body: bool
    opened: threading.Barrier
    answer: bytes | None = None
    closed_after: float | None = None
    thread: threading.Thread = field(init=False)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as connection:
            if self.body:
                connection.sendall(f"POST {API}/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                   "application/json\r\nContent-Length: 1000\r\n\r\n{".encode())
            else:
                connection.sendall(f"GET {API}/variants HTTP/1.1\r\nHost: x\r\n".encode())
            started = time.monotonic()
            self.opened.wait()
            for piece in range(int(3 * DEADLINE_S / TRICKLE_EVERY_S)):
                readable, _, _ = select.select([connection], [], [], TRICKLE_EVERY_S)
                try:
                    if readable:
                        self.answer = connection.recv(1000)
                        self.closed_after = time.monotonic() - started
                        return
                    connection.sendall(b" " if self.body else f"X-Slow-{piece}: a\r\n".encode())
                except OSError:
                    self.closed_after = time.monotonic() - started
                    return


def test_forty_slow_clients_hold_no_health_probe_and_get_408_at_their_deadline(
        server: LiveServer) -> None:
    opened = threading.Barrier(SLOW_CLIENTS + 1)
    clients = [SlowClient(server.port, body=n % 2 == 1, opened=opened)
               for n in range(SLOW_CLIENTS)]
    for client in clients:
        client.thread.start()
    opened.wait(timeout=10)
    time.sleep(2 * TRICKLE_EVERY_S)  # every slow client has sent more since it connected
    waits = []
    for _ in range(PROBES):
        started = time.monotonic()
        reply = server.call("GET", f"{API}/health", timeout=10)
        waits.append(round(time.monotonic() - started, 3))
        assert reply.status == 200
        time.sleep(0.1)
    assert max(waits) < 1.0, waits
    assert all(client.answer is None for client in clients)  # still sending, still waited for
    for client in clients:
        client.thread.join(timeout=3 * DEADLINE_S)
    answers = [(client.answer or b"")[:len(b"HTTP/1.1 408")] for client in clients]
    assert answers == [b"HTTP/1.1 408"] * SLOW_CLIENTS
    # Let go at the deadline (the worker looks once a second), not before, not much after.
    assert all(DEADLINE_S - 0.5 <= (client.closed_after or 0) <= DEADLINE_S + 5
               for client in clients), sorted(client.closed_after or 0 for client in clients)
