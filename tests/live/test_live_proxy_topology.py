"""The production topology run for real: ``deploy/native.sh`` starts Caddy on
``deploy/Caddyfile`` (the file compose mounts) in front of two app servers, on this run's
PostgreSQL (SQLite without ``TEST_DATABASE_URL``) and Redis. Through the proxy's one address:
a short game (the page and one of its files, a game, a hand, a poll answered 304), served by
both app servers; the client's address is the one the proxy says (``X-Forwarded-For``, with
``TRUSTED_PROXIES=1``), so one client's allowance is not another's; twenty phones opening
the page at once all show the home screen, nothing refused; a stream held through the proxy
hears a hand an app server wrote; the script's backup; and
readiness (``/api/v1/ready``) turns 503 when the database goes away while liveness stays 200.
One topology for the module, its database reached through a port the test can cut."""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from live_support import API, auth, free_port, gatti3_hand
from native_topology import NATIVE, Forwarder, NativeTopology, caddy_missing
from redis_support import REDIS_URL, forget, needs_redis
from waiting import wait_until

from service.persistence import normalise_url
from service.persistence.base import sqlite_file

#: The per-address allowance of this topology: small, so that one client exhausts it quickly.
WEB_TESTS = Path(__file__).resolve().parents[1] / "web"
BURST = 40
#: How soon runsv has a killed app server serving again: it starts it within a second, and
#: the new gunicorn binds once the old one's workers have gone (they notice within a second).
RESTART_S = 10


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def call(port: int, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None, source: str | None = None) -> Answer:
    """One request to 127.0.0.1:``port`` from the local address ``source`` (any 127.x.y.z is
    this machine: a client of its own to the proxy), taking gzip as a browser does."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0) if source else None)
    try:
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        return Answer(response.status, response.headers, raw)
    finally:
        connection.close()


@pytest.fixture(scope="module")
def database(one_db_url: str) -> Iterator[tuple[str, Forwarder | None]]:
    """The module's database, PostgreSQL through a port the test can cut."""
    if sqlite_file(one_db_url) is not None:
        yield one_db_url, None
        return
    parsed = normalise_url(one_db_url)
    forwarder = Forwarder(free_port(), (parsed.host or "127.0.0.1", parsed.port or 5432))
    forwarder.start()
    yield parsed.set(host="127.0.0.1", port=forwarder.port).render_as_string(
        hide_password=False), forwarder
    forwarder.cut()


@pytest.fixture(scope="module")
def topology(database: tuple[str, Forwarder | None],
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[NativeTopology]:
    reason = caddy_missing()
    if reason is not None:
        pytest.skip(reason)
    url, _ = database
    running = NativeTopology(url, tmp_path_factory.mktemp("native"), redis_url=REDIS_URL,
                             workers=1, env={"RATE_LIMIT_PER_MINUTE": "120",
                                             "RATE_LIMIT_BURST": str(BURST)}).start()
    yield running
    running.stop()
    forget(running.key_prefix)


def _served_api(log: str) -> int:
    """Requests of the API an app server's access log shows (its health checks aside)."""
    return len(re.findall(r'"(?:GET|POST) /api/v1/(?!ready|health)', log))


def test_a_short_game_through_the_proxy_served_by_both_app_servers(
        topology: NativeTopology) -> None:
    port = topology.port
    page = call(port, "GET", "/")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    assert "Caddy" in page.headers.get_all("Server", [])
    script = re.search(r'"(/app/[^"?]+\?v=[^"]+)"', page.body.decode())
    assert script is not None, page.body[:500]
    asset = call(port, "GET", script.group(1))
    assert asset.status == 200 and "immutable" in asset.headers["Cache-Control"]

    created = call(port, "POST", f"{API}/games",
                   {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]})
    assert created.status == 201, created.body
    game = created.json()
    edit = auth(game["tokens"]["edit"])
    hand = call(port, "POST", f"{API}/games/{game['id']}/hands", gatti3_hand(0),
                {**edit, "Idempotency-Key": str(uuid.uuid4())})
    assert hand.status == 201, hand.body
    read = call(port, "GET", f"{API}/games/{game['id']}", headers=edit)
    assert read.status == 200 and len(read.json()["hands"]) == 1
    etag = read.headers["ETag"]
    assert etag
    polled = call(port, "GET", f"{API}/games/{game['id']}", headers={**edit,
                                                                     "If-None-Match": etag})
    assert polled.status == 304, (polled.status, etag, polled.headers)
    assert call(port, "GET", f"{API}/variants").status == 200

    def served() -> list[int]:  # an access log's line follows its answer
        return [_served_api(topology.log(name)) for name in ("app-1", "app-2")]

    assert wait_until(lambda: sum(served()) == 5, 10), served()
    assert all(served()), f"API requests each app server served: {served()}"


def test_an_events_body_compressed_by_the_app_passes_the_proxy_as_it_is(
        topology: NativeTopology) -> None:
    """An event's reading, kept gzip-compressed by the app, reaches a client that takes zstd
    too as the app made it: gzip, not compressed again by the proxy."""
    created = call(topology.port, "POST", f"{API}/events", {
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert created.status == 201, created.body
    event = created.json()
    read = call(topology.port, "GET", f"{API}/events/{event['id']}/standings",
                headers={**auth(event["tokens"]["read"]), "Accept-Encoding": "zstd, gzip"})
    assert read.status == 200 and read.headers["Content-Encoding"] == "gzip"
    assert read.json()["rows"] and "Accept-Encoding" in read.headers["Vary"]


def test_a_stream_through_the_proxy_hears_a_hand_an_app_server_wrote(
        topology: NativeTopology, database: tuple[str, Forwarder | None]) -> None:
    """The hand goes to an app server (gunicorn), the stream to the streams' server (tornado),
    which hears of the hand through PostgreSQL; Caddy passes the event on at once, never
    compressed though the client takes gzip."""
    if database[1] is None:
        pytest.skip("notices cross processes through PostgreSQL: one process on SQLite only")
    from test_live_streams import Stream, version

    port = topology.port
    game = call(port, "POST", f"{API}/games",
                {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}).json()
    edit = auth(game["tokens"]["edit"])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"{API}/games/{game['id']}/stream",
                       headers={**edit, "Accept": "text/event-stream",
                                "Accept-Encoding": "gzip, br, zstd"})
    stream = Stream(connection, connection.getresponse())
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Encoding") is None
        before = version(stream.next_event())
        hand = call(port, "POST", f"{API}/games/{game['id']}/hands", gatti3_hand(0), edit)
        assert hand.status == 201, hand.body
        assert version(stream.next_event(within=5)) != before
    finally:
        stream.close()
    assert "/api/v1/games/<game_id:game_id>" in topology.log("streams")
    assert "/hands" not in topology.log("streams")


@needs_redis
def test_the_proxy_says_who_the_client_is_so_one_clients_allowance_is_not_anothers(
        topology: NativeTopology) -> None:
    port = topology.port
    statuses = [call(port, "GET", f"{API}/variants", source="127.0.0.2").status
                for _ in range(BURST + 10)]
    assert 429 in statuses and statuses.index(429) >= BURST - 5, statuses
    # Another address behind the same proxy (the proxy's own address, as seen by the app
    # servers, is the same for both) still has its whole allowance.
    assert call(port, "GET", f"{API}/variants", source="127.0.0.3").status == 200
    refused = call(port, "GET", f"{API}/variants", source="127.0.0.2")
    assert refused.status == 429 and refused.headers["Retry-After"]


def test_the_proxy_and_the_app_server_log_a_request_under_one_id(
        topology: NativeTopology) -> None:
    """A client's sane ``X-Request-ID`` is kept, a request without one gets Caddy's UUID;
    either is the answer's, the line of Caddy's access log (JSON, in its data folder, the
    answer's headers; the query string dropped) and the line of the app server that served
    it."""
    sent = f"live-{uuid.uuid4().hex}"
    kept = call(topology.port, "GET", f"{API}/variants?lang=it", headers={"X-Request-ID": sent},
                source="127.0.0.4")
    assert kept.status == 200 and kept.headers["X-Request-ID"] == sent
    made = call(topology.port, "GET", f"{API}/variants", source="127.0.0.4")
    made_id = made.headers["X-Request-ID"]
    assert made.status == 200 and uuid.UUID(made_id)
    access = topology.state / "caddy" / "access.log"

    def proxy_lines() -> list[dict[str, Any]]:
        if not access.exists():
            return []
        return [json.loads(line) for line in access.read_text().splitlines()]

    def by_id(request_id: str) -> list[dict[str, Any]]:
        return [line for line in proxy_lines()
                if line["resp_headers"].get("X-Request-Id") == [request_id]]

    assert wait_until(lambda: by_id(sent) and by_id(made_id), 10)
    [proxied] = by_id(sent)
    assert proxied["request"]["uri"] == f"{API}/variants" and proxied["status"] == 200
    app_lines = [json.loads(line) for name in ("app-1", "app-2")
                 for line in topology.log(name).splitlines() if line.startswith("{")]
    served = {line["request_id"]: line for line in app_lines if "request_id" in line}
    assert served[sent]["client"] == served[made_id]["client"] == "127.0.0.4"
    assert served[made_id]["route"] == f"{API}/variants"


def test_the_native_script_backs_up_the_topologys_database(topology: NativeTopology,
                                                            tmp_path: Path) -> None:
    copy = tmp_path / "evening.backup"
    made = topology.run("backup", str(copy))
    assert made.returncode == 0, made.stderr
    held = re.search(r"backed up .* to (\S+) \(", made.stdout)
    assert held is not None, made.stdout
    rows = dict(re.findall(r"^  (\w+) +([\d,]+)$", made.stdout, re.MULTILINE))
    assert int(rows["games"]) >= 1 and int(rows["hands"]) >= 1, made.stdout
    assert Path(held.group(1)) == copy and copy.stat().st_size > 0
    assert "ready" in topology.run("status").stdout


def test_twenty_phones_open_the_page_at_once_through_the_proxy(
        topology: NativeTopology) -> None:
    """Twenty phones of a room (one address, each its own browser: nothing cached) open the
    club's address at once: all twenty show the home screen and no file is refused."""
    pytest.importorskip("playwright", reason="the playwright package is not installed")
    sys.path.insert(0, str(WEB_TESTS))
    from crowd import CROWD, chromium_path

    if chromium_path() is None:
        pytest.skip("Debian's chromium is not installed (make test installs it as root)")
    # In a process of its own: this one may drive a browser already (Playwright's synchronous
    # API runs once a process).
    crowd = subprocess.run([sys.executable, str(WEB_TESTS / "crowd.py"), topology.base_url],
                           capture_output=True, text=True, timeout=180, check=False)
    assert crowd.returncode == 0, crowd.stderr[-2000:]
    phones = json.loads(crowd.stdout)
    assert [p["refused"] for p in phones if p["refused"]] == []
    assert sum(p["home"] for p in phones) == CROWD


def _a_game(port: int) -> dict[str, Any]:
    created = call(port, "POST", f"{API}/games",
                   {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]})
    assert created.status == 201, created.body
    return dict(created.json())


def _read(port: int, game: dict[str, Any]) -> int:
    return call(port, "GET", f"{API}/games/{game['id']}",
                headers=auth(game["tokens"]["read"])).status


def _app_pid(topology: NativeTopology, name: str) -> int | None:
    """The pid of the app server runsv runs as ``name`` now, if one runs."""
    path = topology.state / "sv" / name / "supervise" / "pid"
    text = path.read_text().strip() if path.exists() else ""
    return int(text) if text else None


def _ready(port: int) -> bool:
    try:
        return call(port, "GET", f"{API}/ready").status == 200
    except OSError:
        return False


def test_an_app_server_killed_is_started_again_within_seconds(topology: NativeTopology) -> None:
    killed = _app_pid(topology, "app-1")
    assert killed is not None, topology.run("status").stdout
    os.kill(killed, signal.SIGKILL)
    began = time.monotonic()

    def serving_again() -> bool:
        """A new app server listens on the port (its workers' old ones, orphaned, held it
        until they saw their parent gone) and answers ready."""
        pid = _app_pid(topology, "app-1")
        return (pid not in (None, killed)
                and f"Listening at: http://127.0.0.1:{topology.app_ports[0]} ({pid})"
                in topology.log("app-1")
                and _ready(topology.app_ports[0]))

    assert wait_until(serving_again, RESTART_S, interval=0.1), topology.log("app-1")[-2000:]
    print(f"app-1 killed (SIGKILL) and ready again in {time.monotonic() - began:.1f} s")
    assert "native: app-1 exited (exit code -1, signal 9)" in topology.log("app-1")
    status = topology.run("status")
    assert status.returncode == 0, status.stdout
    assert "app-1 runs" in status.stdout and "restarted 1 times" in status.stdout
    game = _a_game(topology.port)  # and the proxy serves again
    assert _read(topology.port, game) == 200


def test_a_start_from_a_new_shell_comes_up_on_the_saved_database_and_ports(
        topology: NativeTopology) -> None:
    game = _a_game(topology.port)
    saved = topology.state / "native.env"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    topology.stop()
    # A new shell: none of the settings of the first start, only where its state lives.
    bare = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"),
            "SEGNAPUNTI_STATE": str(topology.state)}
    started = subprocess.run([str(NATIVE), "start"], env=bare, text=True, capture_output=True,
                             check=False, timeout=120)
    assert started.returncode == 0, started.stdout + started.stderr
    assert f"127.0.0.1:{topology.port}/" in started.stdout
    assert _read(topology.port, game) == 200  # the same database, on the same port
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600


def test_the_native_script_restores_with_the_app_servers_stopped_then_serving_again(
        topology: NativeTopology, tmp_path: Path) -> None:
    kept = _a_game(topology.port)
    copy = tmp_path / "before.backup"
    assert topology.run("backup", str(copy)).returncode == 0
    late = _a_game(topology.port)

    refused = topology.run("restore", str(copy))
    assert refused.returncode != 0
    assert "use --force to replace it" in refused.stderr, refused.stderr
    assert "stopping" not in refused.stdout  # refused before the app servers stop
    assert _read(topology.port, late) == 200  # nothing replaced

    began = time.monotonic()
    done = topology.run("restore", str(copy), "--force")
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"native.sh restore --force took {time.monotonic() - began:.1f} s")
    assert "stopping the app servers" in done.stdout and "run again" in done.stdout
    assert re.search(r"^  games +\d+$", done.stdout, re.MULTILINE), done.stdout
    assert _read(topology.port, kept) == 200
    assert _read(topology.port, late) == 401  # made after the backup: gone, its token opens nothing
    assert topology.run("status").returncode == 0


def test_a_start_is_refused_plainly_when_redis_does_not_answer(
        one_db_url: str, tmp_path: Path) -> None:
    if caddy_missing() is not None:
        pytest.skip("needs Caddy")
    nowhere = NativeTopology(one_db_url, tmp_path / "native",
                             redis_url=f"redis://127.0.0.1:{free_port()}/0")
    nowhere.state.mkdir()
    started = nowhere.run("start")
    assert started.returncode != 0
    assert "Redis does not answer at redis://127.0.0.1:" in started.stderr, started.stderr
    assert "RATE_LIMIT_STORAGE_URL=memory://" in started.stderr
    assert not list(nowhere.state.glob("*.pid"))  # nothing started


def test_readiness_is_503_while_the_database_is_gone_and_liveness_stays_200(
        topology: NativeTopology, database: tuple[str, Forwarder | None]) -> None:
    _, forwarder = database
    if forwarder is None:
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL) to take the database away")
    app_port = topology.app_ports[0]
    assert call(app_port, "GET", f"{API}/ready").status == 200
    forwarder.cut()  # the last test: the database stays away
    # Its last check's outcome stands a second (READY_FRESH_S), then the next one fails.
    # A probe begun before the cut may still land its answer for a second: the first 503 is
    # the one read.
    answers: list[Any] = []
    assert wait_until(lambda: answers.append(call(app_port, "GET", f"{API}/ready"))
                      or answers[-1].status == 503, 10, interval=0.2)
    unready = answers[-1]
    assert unready.headers["Content-Type"] == "application/problem+json"
    assert unready.json()["code"] == "database_unavailable"
    assert call(app_port, "GET", f"{API}/health").status == 200
    # The proxy: the app server's 503, or its own once its health check took both out.
    assert wait_until(lambda: call(topology.port, "GET", f"{API}/ready").status == 503, 10,
                      interval=0.2)
    # And its health check (readiness, every 5 s) finds the app servers not ready.
    assert wait_until(lambda: re.search(r'health_checker[^\n]*"status_code":503',
                                        topology.log("proxy")), 15)


def test_the_proxy_never_answers_the_metrics_and_each_app_server_does(
        topology: NativeTopology) -> None:
    # From this machine, which the app servers let read them: only the proxy stops it.
    for path in ("/metrics", "/Metrics", "/metrics/", "/%6detrics", "//metrics"):
        answer = call(topology.port, "GET", path)
        assert answer.status != 200 and b"segnapunti_" not in answer.body, (path, answer)
    for port in topology.app_ports:
        direct = call(port, "GET", "/metrics")
        assert direct.status == 200 and b"segnapunti_http_requests_total" in direct.body
