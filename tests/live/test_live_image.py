"""The image, built from the Dockerfile and run: ``migrate`` against the host's PostgreSQL (a
database of the module's own, dropped afterwards), then the server, ready and counting its
limits in the host's Redis, a game recorded through the API, and ``backup`` into a mounted
folder. The containers run on the host's network (``--network host``), so every address stays
on the loopback, as the tests' PostgreSQL and Redis.

Building takes a minute or more, so this module runs only when asked: ``make test-image``
(``SEGNAPUNTI_IMAGE_TEST=1``), which installs Docker and starts its daemon where it can and
makes the Debian base the build starts from (``deploy/image.sh``). In any other run it is
skipped, saying so, whether a daemon answers or not; asked where no daemon answers, it is
skipped saying why."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from live_support import API, free_port, gatti3_hand
from redis_support import REDIS_URL, forget
from sqlalchemy import text
from sqlalchemy.pool import NullPool
from waiting import SERVER_START_TIMEOUT_S, wait_until

from service.persistence import make_engine, normalise_url

if os.environ.get("SEGNAPUNTI_IMAGE_TEST") != "1":
    pytest.skip("the image is built and run by `make test-image` (SEGNAPUNTI_IMAGE_TEST=1), "
                "not in every test run", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
TAG = os.environ.get("SEGNAPUNTI_IMAGE", "segnapunti:test")
BUILD_TIMEOUT_S = 1200
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def docker(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], capture_output=True, text=True, check=False,
                          timeout=timeout)


def no_daemon() -> str | None:
    """Why no image can be built here, or None when a Docker daemon answers."""
    if shutil.which("docker") is None:
        return "docker is not installed (make test-image installs Debian's docker.io)"
    probe = docker("info", "--format", "{{.ServerVersion}}", timeout=30)
    if probe.returncode != 0:
        return f"no Docker daemon answers: {probe.stderr.strip()[:300]}"
    return None


@pytest.fixture(scope="module")
def image() -> str:
    """The image built from this checkout (on the base deploy/image.sh makes, when missing)."""
    reason = no_daemon()
    if reason is not None:
        pytest.skip(reason)
    built = subprocess.run([str(ROOT / "deploy" / "image.sh"), "build", TAG], capture_output=True,
                           text=True, check=False, timeout=BUILD_TIMEOUT_S)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return TAG


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A PostgreSQL database of the module's own beside the tests' (TEST_DATABASE_URL),
    dropped afterwards."""
    given = os.environ.get("TEST_DATABASE_URL")
    if not given:
        pytest.skip("the image runs against PostgreSQL: set TEST_DATABASE_URL")
    base = normalise_url(given)
    name = f"segnapunti_image_{secrets.token_hex(4)}"
    admin = make_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(drivername="postgresql", database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(image: str, database: str, *command: str,
        mounts: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """One command of the image's, run to its end on the host's network."""
    volumes = [arg for mount in mounts for arg in ("--volume", mount)]
    return docker("run", "--rm", "--network", "host", "--env", f"DATABASE_URL={database}",
                  *volumes, image, *command, timeout=300)


@pytest.fixture(scope="module")
def migrated(image: str, database: str) -> subprocess.CompletedProcess[str]:
    return run(image, database, "python", "-m", "service", "migrate")


class Served:
    def __init__(self, port: int, container: str, prefix: str) -> None:
        self.port, self.container, self.prefix = port, container, prefix

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
            headers={**({"Content-Type": "application/json"} if data else {}),
                     **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read()


@pytest.fixture(scope="module")
def served(image: str, database: str, migrated: subprocess.CompletedProcess[str]
           ) -> Iterator[Served]:
    """The image's server (``python -m service serve``, the image's health check run every
    second) on a free port of the host's loopback, its limits in the host's Redis under a
    prefix of its own."""
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    prefix = f"segnapunti-image-{secrets.token_hex(4)}:"
    container = f"segnapunti-image-test-{secrets.token_hex(4)}"
    started = docker(
        "run", "--detach", "--name", container, "--network", "host",
        "--health-interval", "1s", "--health-start-period", "60s",
        "--env", f"DATABASE_URL={database}", "--env", "HOST=127.0.0.1",
        "--env", f"PORT={port}", "--env", "WEB_CONCURRENCY=1",
        "--env", f"RATE_LIMIT_STORAGE_URL={REDIS_URL}", "--env", f"RATE_LIMIT_KEY_PREFIX={prefix}",
        image, "python", "-m", "service", "serve")
    assert started.returncode == 0, started.stderr
    server = Served(port, container, prefix)

    def answers() -> bool:
        try:
            return server.call("GET", f"{API}/health")[0] == 200
        except OSError:
            return False

    try:
        assert wait_until(answers, SERVER_START_TIMEOUT_S, interval=0.2), docker(
            "logs", container).stderr[-3000:]
        yield server
    finally:
        docker("rm", "--force", "--volumes", container)
        forget(prefix)


def test_the_image_migrates_the_hosts_postgresql(
        migrated: subprocess.CompletedProcess[str], database: str) -> None:
    from service.persistence.migrate import schema_head

    assert migrated.returncode == 0, migrated.stderr
    engine = make_engine(database, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")
                                          ).scalar_one()
    finally:
        engine.dispose()
    assert revision == schema_head()


def test_the_image_serves_ready_and_says_its_version(served: Served) -> None:
    assert served.call("GET", f"{API}/ready") == (200, {"status": "ready"})
    status, health = served.call("GET", f"{API}/health")
    assert status == 200 and health["version"] == VERSION


def test_the_images_health_check_finds_it_healthy(served: Served) -> None:
    def health() -> str:
        return docker("inspect", "--format", "{{.State.Health.Status}}",
                      served.container).stdout.strip()

    assert wait_until(lambda: health() == "healthy", 60, interval=0.5), health()


def test_the_image_serves_as_a_user_that_is_not_root(served: Served) -> None:
    who = docker("exec", served.container, "id", "-u")
    assert who.returncode == 0 and who.stdout.strip() not in {"", "0"}, who


def record_game(served: Served) -> None:
    """A gatti-3 game and its first hand, through the API."""
    status, game = served.call("POST", f"{API}/games",
                               {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]})
    assert status == 201, game
    status, hand = served.call("POST", f"{API}/games/{game['id']}/hands", gatti3_hand(0),
                               {"Authorization": f"Bearer {game['tokens']['edit']}"})
    assert status == 201, hand


def test_a_game_is_recorded_and_its_limits_counted_in_the_hosts_redis(served: Served) -> None:
    record_game(served)
    client = redis.Redis.from_url(REDIS_URL)
    assert any(client.scan_iter(f"*{served.prefix}*"))


def test_a_backup_made_in_the_image_holds_the_game(
        image: str, database: str, served: Served, tmp_path: Path) -> None:
    record_game(served)
    engine = make_engine(database, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            expected = {table: connection.execute(text(f'SELECT count(*) FROM "{table}"')
                                                  ).scalar_one()
                        for table in ("games", "hands")}
    finally:
        engine.dispose()
    assert expected["games"] >= 1 and expected["hands"] >= 1, expected
    folder = tmp_path / "backups"
    folder.mkdir()
    folder.chmod(0o777)  # the image's user writes there, as into compose's volume
    made = run(image, database, "python", "-m", "service", "backup",
               "/app/var/backups/evening.backup", mounts=(f"{folder}:/app/var/backups",))
    assert made.returncode == 0, made.stderr
    counts = {table: int(count.replace(",", ""))
              for table, count in re.findall(r"^\s+(\w+)\s+([\d,]+)$", made.stdout, re.MULTILINE)}
    assert {table: counts[table] for table in expected} == expected, made.stdout
    backup = folder / "evening.backup"
    assert backup.stat().st_size > 0
    if shutil.which("pg_restore") is not None:  # the host's, reading what the image's wrote
        listed = subprocess.run(["pg_restore", "--list", str(backup)], capture_output=True,
                                text=True, check=True, timeout=60).stdout
        assert re.search(r"TABLE DATA public games ", listed), listed


def test_the_images_own_command_migrates_and_serves_its_sqlite_file(image: str) -> None:
    """``docker run segnapunti`` as it comes: ``python -m service`` migrates the SQLite file on
    its /app/var volume, then serves."""
    port = free_port()
    container = f"segnapunti-image-test-{secrets.token_hex(4)}"
    started = docker("run", "--detach", "--name", container, "--network", "host",
                     "--env", "HOST=127.0.0.1", "--env", f"PORT={port}",
                     "--env", "WEB_CONCURRENCY=1", image)
    assert started.returncode == 0, started.stderr
    server = Served(port, container, "")

    def ready() -> bool:
        try:
            return server.call("GET", f"{API}/ready")[0] == 200
        except OSError:
            return False

    try:
        assert wait_until(ready, SERVER_START_TIMEOUT_S, interval=0.2), docker(
            "logs", container).stderr[-3000:]
        listed = docker("exec", container, "ls", "/app/var")
        assert "segnapunti.sqlite3" in listed.stdout.split(), listed
    finally:
        docker("rm", "--force", "--volumes", container)


def test_the_image_keeps_nothing_of_pips_build_settings(image: str) -> None:
    """The CA bundle pip was given (a build secret) and its index stay in the build stage:
    neither the image's settings nor its history name them."""
    settings = json.loads(docker("image", "inspect", image).stdout)[0]["Config"]
    history = docker("history", "--no-trunc", "--format", "{{.CreatedBy}}", image).stdout
    assert not [name for name in settings["Env"] if name.startswith("PIP_")], settings["Env"]
    for word in ("pip_cert", "PIP_INDEX_URL", "PIP_CERT", "BEGIN CERTIFICATE"):
        assert word not in history, word
    listed = docker("run", "--rm", "--entrypoint", "ls", image, "-A", "/run/secrets")
    assert listed.returncode != 0 or not listed.stdout.strip(), listed.stdout
