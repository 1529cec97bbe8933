"""The production topology run for tests: ``deploy/native.sh`` (Caddy on ``deploy/Caddyfile``,
two app servers, PostgreSQL, Redis) on free ports, a state directory of the test's own, the
test's database and a Redis key prefix of its own. Imported as ``native_topology`` by the
tests of this directory (fixtures in ``conftest.py``: ``proxy_topology``, ``proxy_base_url``);
from elsewhere, put ``tests/live`` on ``sys.path`` and use ``NativeTopology`` directly.

Caddy is Debian's package: installed when missing (as root, as ``make caddy`` does), and so
is runit (by the script); ``caddy_missing()`` says why they cannot be, for a skip."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from live_support import free_port
from waiting import SERVER_START_TIMEOUT_S

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "deploy" / "native.sh"


def caddy_missing() -> str | None:
    """Why Caddy cannot run here, or None once it is installed (installing it when it can).
    runit, which supervises the app servers, the script installs itself, as root only."""
    if shutil.which("runsv") is None and os.geteuid() != 0:
        return "runit is missing (apt-get install --no-install-recommends runit, as root)"
    if shutil.which("caddy"):
        return None
    done = subprocess.run(["make", "-s", "-C", str(ROOT), "caddy"], capture_output=True,
                          text=True, check=False, timeout=600)
    if shutil.which("caddy"):
        return None
    return f"caddy is missing and could not be installed: {(done.stderr or done.stdout)[-300:]}"


@dataclass
class NativeTopology:
    """``deploy/native.sh`` started for a test: ``base_url`` is the proxy's address."""

    database_url: str
    state: Path
    redis_url: str = "redis://127.0.0.1:6379/0"
    env: dict[str, str] = field(default_factory=dict)
    workers: int = 2  # per app server, as compose (WEB_CONCURRENCY)
    port: int = 0
    app_ports: tuple[int, int] = (0, 0)
    streams_port: int = 0
    key_prefix: str = field(default_factory=lambda: f"live-proxy-{uuid.uuid4().hex}")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "SEGNAPUNTI_STATE": str(self.state),
            "SEGNAPUNTI_PORT": str(self.port),
            "SEGNAPUNTI_APP_PORTS": " ".join(map(str, self.app_ports)),
            "SEGNAPUNTI_STREAMS_PORT": str(self.streams_port),
            "SEGNAPUNTI_START_WAIT": str(int(SERVER_START_TIMEOUT_S)),
            "DATABASE_URL": self.database_url,
            "RATE_LIMIT_STORAGE_URL": self.redis_url,
            "RATE_LIMIT_KEY_PREFIX": self.key_prefix,
            "WEB_CONCURRENCY": str(self.workers),
            "PYTHON": sys.executable,
            **self.env,
        }

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """``deploy/native.sh ARGS`` with this topology's settings."""
        return subprocess.run([str(NATIVE), *args], env=self._environment(), text=True,
                              capture_output=True, check=False,
                              timeout=timeout + SERVER_START_TIMEOUT_S)

    def start(self) -> NativeTopology:
        self.port = free_port()
        self.app_ports = (free_port(), free_port())
        self.streams_port = free_port()
        self.state.mkdir(parents=True, exist_ok=True)
        started = self.run("start")
        if started.returncode != 0:
            raise RuntimeError(f"deploy/native.sh start failed:\n{started.stdout}\n"
                               f"{started.stderr}")
        return self

    def stop(self) -> None:
        stopped = self.run("stop")
        assert stopped.returncode == 0, stopped.stderr

    def log(self, name: str) -> str:
        """The log of ``proxy``, ``app-1``, ``app-2``, ``streams`` or ``migrate``."""
        path = self.state / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


class Forwarder(threading.Thread):
    """A TCP port of 127.0.0.1 that leads to ``target`` while it runs: a database that comes
    up late (start it later) or goes away (``cut``: every connection through it closed, and
    new ones refused)."""

    def __init__(self, port: int, target: tuple[str, int]) -> None:
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", port))
        self.target = target
        self.port = port
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    def run(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()

    def cut(self) -> None:
        _close(self.listener)  # a listener closed while accept() waits would go on accepting
        self.listener.close()
        with self._lock:
            for end in self._open:
                _close(end)
            self._open.clear()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(sink)


def _close(end: socket.socket) -> None:
    try:
        end.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
