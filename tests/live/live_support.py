"""The real server for tests: ``python -m service`` (migrate, then gunicorn) on a free port of
127.0.0.1, in a process group of its own so that a test can stop it, or kill it with SIGKILL,
master and workers together. And a small HTTP client that is safe to use from threads.
Imported by the test modules as ``live_support``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from waiting import SERVER_START_TIMEOUT_S

API = "/api/v1"
COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]


def gatti3_hand(dealer: int, counting_to: int = 0,
                tricks: tuple[int, int, int] = (10, 8, 8)) -> dict[str, Any]:
    """A valid ``gatti-3`` record (as in tests/http/http_support.py)."""
    piles = [{"side": side, "tricks": tricks[side],
              "counting": COUNTING if side == counting_to else []} for side in range(3)]
    return {"dealer": dealer, "discard": ["2H", "3H", "4S"], "piles": piles}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


@dataclass
class LiveServer:
    database_url: str
    workdir: Path
    workers: int = 2
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def log_path(self) -> Path:
        return self.workdir / "server.log"

    def start(self, timeout: float | None = None) -> LiveServer:
        """Start the server and wait until it answers: up to ``timeout`` seconds (default
        ``TEST_SERVER_START_TIMEOUT``, 120), for on a loaded machine migrations and workers
        take their time; it fails at once, with the server's log, if the server exits."""
        self.port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": str(self.workers),
            "PYTHONUNBUFFERED": "1",
            # The tests send far more than one client would; the limiter has its own tests.
            "RATE_LIMIT_PER_MINUTE": "1000000",
            "RATE_LIMIT_BURST": "100000",
            "AUTH_FAILURES_PER_MINUTE": "0",
            # Nor the creation quotas (tests/http/test_http_creation.py).
            "CREATION_QUOTA_GAMES": "0",
            "CREATION_QUOTA_EVENTS": "0",
            "CREATION_QUOTA_CLUBS": "0",
            **self.env,
        }
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: master and workers
        )
        log.close()
        self.starts += 1
        started = time.monotonic()
        deadline = time.monotonic() + (SERVER_START_TIMEOUT_S if timeout is None else timeout)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if self.call("GET", f"{API}/variants", timeout=2).status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within {time.monotonic() - started:.0f} s:"
                           f" {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL to master and workers at once: no worker finishes its request."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._wait_for_group_to_go()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self._wait_for_group_to_go()

    def _wait_for_group_to_go(self) -> None:
        """Until no live process is left in the server's group (killed workers may linger
        as zombies until they are reaped: they hold nothing)."""
        assert self.process is not None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _live_members(self.process.pid):
            time.sleep(0.02)


    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None, timeout: float = 30) -> Reply:
        """One request on a connection of its own (gunicorn's sync workers close every
        connection anyway)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent = dict(headers or {})
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                sent["Content-Type"] = "application/json"
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            content_type = response.getheader("Content-Type") or ""
            parsed = json.loads(raw) if raw and "json" in content_type else raw
            return Reply(response.status, dict(response.getheaders()), parsed)
        finally:
            connection.close()

    def create_game(self, players: tuple[str, ...] = ("Anna", "Bruno", "Carla"),
                    variant: str = "gatti-3") -> dict[str, Any]:
        reply = self.call("POST", f"{API}/games", {"variant": variant, "players": list(players)})
        assert reply.status == 201, reply
        game: dict[str, Any] = reply.body
        return game


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _live_members(group: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")".
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry.name))
    return members
