"""Benchmark: what open streams cost ``python -m service`` (tornado, one process, SQLite).

Opens ``--streams`` streams (default 1,000) from one client thread (non-blocking sockets under
a selector, so the client holds no thread a stream either): half on a published results page
(no token: one follower for all of them), half spread over ``--games`` games with their edit
tokens (a follower a game). Then records a hand at each game in turn and measures:

- the server's memory (VmRSS) and threads before and after the streams opened: the memory an
  open stream costs, and that no thread is held for one;
- for each hand, the time from its POST's answer to each stream of its game, and of the page,
  hearing of it (p50 / p95 / max);
- a hand's and a read's latency while the streams are held, against the same with none held.

    .venv/bin/python bench/bench_streams.py [--streams 1000] [--games 20] [--hands 4]

It is a benchmark, not a test: it prints its figures.
"""

from __future__ import annotations

import argparse
import json
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "live"))
sys.path.insert(0, str(ROOT / "tests"))

from live_support import API, LiveServer, auth

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
         "Marta", "Nino", "Olga"]


def status_of(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "Threads"):
            fields[name] = int(value.split()[0])
    return fields


class Streams:
    """Many streams held from one thread: each socket's changes, as they come."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.heard: dict[int, list[float]] = {}
        self.buffers: dict[int, bytes] = {}
        self.sockets: list[socket.socket] = []

    def open(self, path: str, token: str | None) -> int:
        sock = socket.create_connection(("127.0.0.1", self.port))
        head = f"GET {path}/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        sock.sendall((head + "\r\n").encode())
        sock.setblocking(False)
        key = sock.fileno()
        self.heard[key] = []
        self.buffers[key] = b""
        self.sockets.append(sock)
        self.selector.register(sock, selectors.EVENT_READ, key)
        return key

    def pump(self, seconds: float) -> None:
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            for found, _ in self.selector.select(left):
                data = found.fileobj.recv(65536)  # type: ignore[union-attr]
                now = time.monotonic()
                key = found.data
                self.buffers[key] += data
                while b"event: change" in self.buffers[key]:
                    at = self.buffers[key].index(b"event: change")
                    self.buffers[key] = self.buffers[key][at + 13:]
                    self.heard[key].append(now)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(server: LiveServer, method: str, path: str, body: object = None,
          headers: dict[str, str] | None = None) -> float:
    started = time.monotonic()
    reply = server.call(method, path, body, headers or {})
    assert reply.status < 300, reply.body
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--hands", type=int, default=4)  # a gatti-4 game is four hands
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        server = LiveServer(f"sqlite:///{work}/bench.sqlite3", Path(work),
                            env={"LOG_LEVEL": "WARNING", "RATE_LIMIT_PER_MINUTE": "0"}).start()
        try:
            assert server.process is not None
            pid = server.process.pid
            event = server.call("POST", f"{API}/events", {
                "name": "Bench", "variant": "gatti-4", "format": "individual",
                "entrants": [{"name": n} for n in NAMES]}).body
            edit = auth(event["tokens"]["edit"])
            server.call("POST", f"{API}/events/{event['id']}/rounds", {}, edit)
            server.call("PATCH", f"{API}/events/{event['id']}", {"public": True}, edit)
            games = [server.call("POST", f"{API}/games", {
                "variant": "gatti-4", "players": NAMES[:4]}).body for _ in range(args.games)]
            quiet_hand = [timed(server, "GET", f"{API}/games/{games[0]['id']}",
                                headers=auth(games[0]["tokens"]["edit"])) for _ in range(20)]
            before = status_of(pid)
            streams = Streams(server.port)
            page = [streams.open(f"/results/events/{event['id']}", None)
                    for _ in range(args.streams // 2)]
            by_game = {game["id"]: [] for game in games}
            for i in range(args.streams - len(page)):
                game = games[i % len(games)]
                by_game[game["id"]].append(
                    streams.open(f"{API}/games/{game['id']}", game["tokens"]["edit"]))
            streams.pump(5.0)
            opened = sum(1 for heard in streams.heard.values() if heard)
            after = status_of(pid)
            print(f"streams open: {opened} of {args.streams}")
            print(f"server: {before['VmRSS']} kB and {before['Threads']} threads before, "
                  f"{after['VmRSS']} kB and {after['Threads']} threads after: "
                  f"{(after['VmRSS'] - before['VmRSS']) / max(1, opened):.1f} kB a stream")
            delays_game: list[float] = []
            delays_page: list[float] = []
            reads: list[float] = []
            writes: list[float] = []
            for hand in range(args.hands):
                for game in games:
                    token = auth(game["tokens"]["edit"])
                    seen = {key: len(streams.heard[key]) for key in streams.heard}
                    writes.append(timed(server, "POST", f"{API}/games/{game['id']}/hands", {
                        "dealer": hand % 4,
                        "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 32}]}, token))
                    answered = time.monotonic()
                    reads.append(timed(server, "GET", f"{API}/games/{game['id']}",
                                       headers=token))
                    streams.pump(1.0)
                    for key in by_game[game["id"]]:
                        if len(streams.heard[key]) > seen[key]:
                            delays_game.append(streams.heard[key][seen[key]] - answered)
            # The page moves when a round closes: the event's tables' hands are not these games'.
            seen = {key: len(streams.heard[key]) for key in page}
            server.call("POST", f"{API}/events/{event['id']}/rounds/1/close", {}, edit)
            answered = time.monotonic()
            streams.pump(3.0)
            delays_page = [streams.heard[key][seen[key]] - answered for key in page
                           if len(streams.heard[key]) > seen[key]]
            told = len(delays_game)
            print(f"games' streams told of a hand: {told} of "
                  f"{args.hands * (args.streams - len(page))}; after the answer "
                  f"p50 {1000 * statistics.median(delays_game):.1f} ms, "
                  f"p95 {1000 * percentile(delays_game, 0.95):.1f} ms, "
                  f"max {1000 * max(delays_game):.1f} ms")
            print(f"page's streams told of the round closed: {len(delays_page)} of {len(page)};"
                  f" p50 {1000 * statistics.median(delays_page):.1f} ms, "
                  f"max {1000 * max(delays_page):.1f} ms")
            print(f"a game's read with no stream held: p50 "
                  f"{1000 * statistics.median(quiet_hand):.1f} ms; with {opened} held: hand p50 "
                  f"{1000 * statistics.median(writes):.1f} ms p95 "
                  f"{1000 * percentile(writes, 0.95):.1f} ms, read p50 "
                  f"{1000 * statistics.median(reads):.1f} ms p95 "
                  f"{1000 * percentile(reads, 0.95):.1f} ms")
            print(json.dumps({"server_threads_after": after["Threads"],
                              "kb_per_stream": round((after["VmRSS"] - before["VmRSS"])
                                                     / max(1, opened), 1)}))
            streams.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
