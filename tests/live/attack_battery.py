"""What a hostile client on a club's Wi-Fi can do to the server from one address, all at once,
and how long a health probe waits while it does: ``run_battery(port)``. Used by
``test_live_slow_clients.py`` and by ``bench/bench_attack.py`` (which puts this directory on
``sys.path``).

The attacks, ``PER_KIND`` connections of each kind, every one trickling a byte each
``TRICKLE_EVERY_S`` for as long as the server keeps it open:

- ``long_head``: a head over 64 KiB, never ended;
- ``long_body``: a ``Content-Length`` over 1 MiB, the body sent slowly;
- ``two_lengths``: two ``Content-Length`` fields, the body sent slowly;
- ``bare_lf``: a head whose lines end with a bare line feed, never ended;
- ``slow_body``: a body of 1,000 bytes, within every limit, sent slowly;

and ``IDLE`` connections that send nothing at all.
"""

from __future__ import annotations

import resource
import socket
import threading
import time
from dataclasses import dataclass, field

API = "/api/v1"
PER_KIND = 48
IDLE = 3500
PROBES = 10
TRICKLE_EVERY_S = 0.5
#: A probe not answered within this is counted as this long (and fails any sane bound).
PROBE_TIMEOUT_S = 20.0

ATTACKS: dict[str, tuple[bytes, bytes]] = {
    # what is sent at once, then the byte trickled
    "long_head": (f"GET {API}/variants HTTP/1.1\r\nHost: x\r\nX-Pad: ".encode()
                  + b"a" * (70 * 1024), b"a"),
    "long_body": (f"POST {API}/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {2 * 1024 * 1024}\r\n\r\n{{".encode(), b" "),
    "two_lengths": (f"POST {API}/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: 100\r\nContent-Length: 100\r\n\r\n{".encode(), b" "),
    "bare_lf": (f"GET {API}/variants HTTP/1.1\nHost: x\nX-A: b\n".encode(), b"X"),
    # a body within every limit, sent slowly: what a proxy that streams bodies passes on
    "slow_body": (f"POST {API}/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  "Content-Length: 1000\r\n\r\n{".encode(), b" "),
}


def raise_open_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@dataclass
class Battery:
    """The attack's connections, open, and the thread that trickles them."""

    host: str
    port: int
    per_kind: int = PER_KIND
    idle: int = IDLE
    sockets: list[socket.socket] = field(default_factory=list)
    trickled: list[tuple[socket.socket, bytes]] = field(default_factory=list)
    refused: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)

    def _connect(self) -> socket.socket | None:
        try:
            connection = socket.create_connection((self.host, self.port), timeout=5)
        except OSError:
            self.refused += 1
            return None
        self.sockets.append(connection)
        return connection

    def open(self) -> Battery:
        raise_open_files(self.idle + len(ATTACKS) * self.per_kind + 512)
        for _ in range(self.idle):
            self._connect()
        for first, byte in ATTACKS.values():
            for _ in range(self.per_kind):
                connection = self._connect()
                if connection is None:
                    continue
                connection.setblocking(False)
                try:
                    connection.send(first)
                except OSError:
                    continue
                self.trickled.append((connection, byte))
        threading.Thread(target=self._trickle, daemon=True).start()
        return self

    def _trickle(self) -> None:
        while not self.stopping.wait(TRICKLE_EVERY_S):
            for connection, byte in self.trickled:
                try:
                    connection.send(byte)
                except OSError:
                    pass

    def close(self) -> None:
        self.stopping.set()
        for connection in self.sockets:
            connection.close()


def probe(host: str, port: int, path: str = f"{API}/health") -> float:
    """Seconds until a GET's whole answer head arrives on a new connection (``PROBE_TIMEOUT_S``
    when it does not come, or the connection is refused)."""
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                               .encode())
            answer = b""
            while b"\r\n\r\n" not in answer:
                more = connection.recv(4096)
                if not more:
                    break
                answer += more
            if not answer.startswith(b"HTTP/1.1 200"):
                return PROBE_TIMEOUT_S
    except OSError:
        return PROBE_TIMEOUT_S
    return time.monotonic() - started


def run_battery(port: int, host: str = "127.0.0.1", probes: int = PROBES,
                settle_s: float = 1.0, per_kind: int = PER_KIND,
                idle: int = IDLE) -> list[float]:
    """The attack opened on ``host:port``, ``probes`` health probes one after another once it
    has held ``settle_s`` seconds, then the attack closed: each probe's latency in seconds.
    (A second is enough for the server to accept the idle connections opened in a burst: a
    probe waits behind them in the listen queue otherwise.)"""
    battery = Battery(host, port, per_kind=per_kind, idle=idle).open()
    try:
        time.sleep(settle_s)
        return [probe(host, port) for _ in range(probes)]
    finally:
        battery.close()
