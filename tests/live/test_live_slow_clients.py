"""A hostile client on the club's Wi-Fi cannot starve the service: 48 connections of each
attack of ``attack_battery`` (a head over 64 KiB trickled, a body over 1 MiB trickled, two
``Content-Length`` fields, bare line feeds, a small body trickled) from one address, with 3,500 idle connections
besides, and every health probe is still answered within a second. Checked on the two ways the
service may be run: ``SERVER=waitress`` alone (what a club may expose with nothing in front;
the default server, tornado, has the same battery in ``test_live_streams.py``), and
``SERVER=gunicorn`` behind Caddy on ``deploy/Caddyfile`` (which buffers each
request for gthread). A hand recorded while waitress serves shows it serves as before."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attack_battery import run_battery
from live_support import API, LiveServer, auth, free_port, gatti3_hand

ROOT = Path(__file__).resolve().parents[2]
PROBE_BOUND_S = 1.0


@pytest.fixture(scope="module")
def waitress_server(one_db_url: str,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Behind one proxy, as an operator may put one in front: the app's ProxyFix believes it.
    live = LiveServer(one_db_url, tmp_path_factory.mktemp("waitress"),
                      env={"SERVER": "waitress", "TRUSTED_PROXIES": "1"}).start()
    yield live
    live.stop()


def test_a_hand_is_recorded_and_read_back_under_waitress(waitress_server: LiveServer) -> None:
    game = waitress_server.create_game()
    recorded = waitress_server.call("POST", f"{API}/games/{game['id']}/hands",
                                    gatti3_hand(dealer=0), auth(game["tokens"]["edit"]))
    assert recorded.status == 201, recorded.body
    read = waitress_server.call("GET", f"{API}/games/{game['id']}",
                                headers=auth(game["tokens"]["edit"]))
    assert read.status == 200 and len(read.body["hands"]) == 1, read.body
    assert read.header("Server") == "segnapunti"


def _log_lines(server: LiveServer) -> list[dict[str, Any]]:
    lines = []
    for line in server.log_path.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


def test_waitress_writes_its_own_lines_in_the_services_json_format(
        waitress_server: LiveServer) -> None:
    assert any(line.get("logger") == "waitress" and line["message"].startswith("Serving on")
               for line in _log_lines(waitress_server))


def test_waitress_passes_the_forwarded_address_on_for_the_apps_proxyfix_to_believe(
        waitress_server: LiveServer) -> None:
    reply = waitress_server.call("GET", f"{API}/variants",
                                 headers={"X-Forwarded-For": "203.0.113.9",
                                          "X-Request-ID": "forwarded-by-waitress"})
    assert reply.status == 200
    logged = [line for line in _log_lines(waitress_server)
              if line.get("request_id") == "forwarded-by-waitress"]
    assert logged and logged[-1]["client"] == "203.0.113.9", logged


def test_metrics_count_waitress_one_process(waitress_server: LiveServer) -> None:
    scraped = waitress_server.call("GET", "/metrics")
    assert scraped.status == 200
    workers = [line for line in scraped.body.decode().splitlines()
               if line.startswith("segnapunti_workers ")]
    assert workers == ["segnapunti_workers 1.0"], workers


def test_every_probe_is_answered_within_a_second_under_the_battery_served_by_waitress(
        waitress_server: LiveServer) -> None:
    latencies = run_battery(waitress_server.port)
    assert max(latencies) < PROBE_BOUND_S, [round(s, 2) for s in latencies]


@pytest.fixture(scope="module")
def gunicorn_behind_caddy(one_db_url: str,
                          tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is missing (apt-get install caddy, or make caddy)")
    workdir = tmp_path_factory.mktemp("gunicorn")
    app = LiveServer(one_db_url, workdir,
                     env={"SERVER": "gunicorn", "TRUSTED_PROXIES": "1"}).start()
    port = free_port()
    env = {**os.environ, "SEGNAPUNTI_LISTEN": f":{port}",
           "SEGNAPUNTI_APP_1": f"127.0.0.1:{app.port}", "SEGNAPUNTI_APP_2": f"127.0.0.1:{app.port}",
           "SEGNAPUNTI_CADDY_ADMIN": "off", "XDG_DATA_HOME": str(workdir),
           "XDG_CONFIG_HOME": str(workdir), "HOME": str(workdir)}
    log = (workdir / "caddy.log").open("ab")
    proxy = subprocess.Popen([caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile"),
                              "--adapter", "caddyfile"], env=env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    try:
        from attack_battery import probe

        for _ in range(200):
            if proxy.poll() is not None:
                raise RuntimeError((workdir / "caddy.log").read_text()[-2000:])
            if probe("127.0.0.1", port) < 2:
                break
        yield port
    finally:
        os.killpg(proxy.pid, signal.SIGTERM)
        proxy.wait(timeout=10)
        app.stop()


def test_every_probe_is_answered_within_a_second_under_the_battery_through_caddy_to_gunicorn(
        gunicorn_behind_caddy: int) -> None:
    latencies = run_battery(gunicorn_behind_caddy)
    assert max(latencies) < PROBE_BOUND_S, [round(s, 2) for s in latencies]
