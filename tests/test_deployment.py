"""The deployment as described: ``compose.yaml`` parses, names the proxy, the two app servers,
PostgreSQL and Redis, wires them as docs/operations.md says (the app command is the one it
gives, the apps share PostgreSQL and Redis and trust the one proxy), and the proxy's
configuration sends to both apps. The image itself is built and run by
tests/live/test_live_image.py (``make test-image``).

Also: the health checks mean it (readiness, ``pg_isready`` over TCP), images and Python
dependencies are pinned, backups can be made inside the stack, and ``compose.yaml``,
``deploy/Caddyfile`` and ``deploy/native.sh`` (the same topology without Docker) say the
same."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import yaml
from sqlalchemy import text

from service.http.requestlog import SANE_ID
from service.persistence import make_engine
from service.server import gunicorn_options

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
DOCKERFILE = ROOT / "Dockerfile"
NATIVE = ROOT / "deploy" / "native.sh"
OPERATIONS = ROOT / "docs" / "operations.md"
APPS = ("app-1", "app-2")


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document


def operations_section(title: str) -> str:
    text = OPERATIONS.read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_compose_names_the_five_services_of_the_deployment() -> None:
    services = compose()["services"]
    assert {"proxy", *APPS, "postgres", "redis"} <= set(services)
    assert services["proxy"]["image"].startswith("caddy:")
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    for name in APPS:
        assert services[name]["build"] == "."
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully")
    assert services["proxy"]["depends_on"] == {
        name: {"condition": "service_healthy"} for name in (*APPS, "streams")}
    assert set(services["postgres"]["healthcheck"]) >= {"test", "interval"}
    assert set(services["redis"]["healthcheck"]) >= {"test", "interval"}


def test_the_apps_run_the_documented_command_and_share_the_database_and_redis() -> None:
    services = compose()["services"]
    section = operations_section("Running it for many tables")
    commands = {" ".join(services[name]["command"]) for name in APPS}
    assert commands == {"python -m service serve"}
    assert "python -m service serve" in section
    assert " ".join(services["migrate"]["command"]) == "python -m service migrate"
    assert "python -m service migrate" in section
    environments = [services[name]["environment"] for name in (*APPS, "migrate")]
    assert all(env == environments[0] for env in environments)
    env = environments[0]
    assert env["DATABASE_URL"].startswith("postgresql://") and "@postgres:5432/" in env[
        "DATABASE_URL"]
    assert env["RATE_LIMIT_STORAGE_URL"].startswith("redis://redis:6379/")
    assert env["TRUSTED_PROXIES"] == "1"
    # Every setting the compose file sets is one the settings table of operations.md explains.
    for name in env:
        assert f"| `{name}` |" in operations_section("Settings"), name


def caddyfile_placeholders() -> dict[str, str]:
    """The Caddyfile's environment placeholders, ``{$NAME:default}``: name -> default."""
    return dict(re.findall(r"\{\$([A-Z0-9_]+):([^}]*)\}", CADDYFILE.read_text()))


def test_the_proxy_sends_to_both_apps_and_checks_their_readiness() -> None:
    caddyfile = CADDYFILE.read_text()
    proxied = re.search(r"reverse_proxy @not_streams (.+) \{$", caddyfile, re.MULTILINE)
    assert proxied is not None
    upstreams = re.findall(r"\{\$([A-Z0-9_]+):", proxied.group(1))
    defaults = caddyfile_placeholders()
    assert [defaults[name] for name in upstreams] == [f"{name}:8000" for name in APPS]
    assert "health_uri /api/v1/ready" in caddyfile
    assert "encode @not_streams zstd gzip" in caddyfile
    proxy = compose()["services"]["proxy"]
    assert proxy["volumes"][0] == "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"
    # compose says where the apps are as the Caddyfile's defaults do.
    assert {name: proxy["environment"][name] for name in upstreams} == {
        name: defaults[name] for name in upstreams}


def test_the_proxy_closes_an_idle_connection_to_an_app_before_the_app_does() -> None:
    # Else the app's close races the proxy's next request on that connection, and the proxy
    # answers a write it may not send again (a hand, a verdict) 502.
    caddyfile = CADDYFILE.read_text()
    apps = re.search(r"reverse_proxy @not_streams .+? \{\n(.*?)\n\t\}", caddyfile, re.DOTALL)
    assert apps is not None
    idle = re.search(r"transport http \{\s*keepalive (\d+)s\s*\}", apps.group(1))
    assert idle is not None, "the app servers' transport names its idle time"
    assert gunicorn_options("127.0.0.1", 8000)["keepalive"] > int(idle.group(1))
    assert compose()["services"]["app-1"]["environment"]["SERVER"] == "gunicorn"


def test_every_stream_goes_to_the_streams_server_flushed_and_never_compressed() -> None:
    caddyfile = CADDYFILE.read_text()
    streams = re.search(r"reverse_proxy @streams \{\$SEGNAPUNTI_STREAMS:([^}]+)\} \{\n(.*?)\n\t\}",
                        caddyfile, re.DOTALL)
    assert streams is not None and streams.group(1) == "streams:8000"
    assert "flush_interval -1" in streams.group(2)
    matchers = dict(re.findall(r"^\t@(\w+) (.+)$", caddyfile, re.MULTILINE))
    assert matchers["streams"] == "path_regexp ^/(api/v1|results)/.+/stream$"
    assert matchers["not_streams"] == "not " + matchers["streams"]
    services = compose()["services"]
    assert services["streams"]["environment"]["SERVER"] == "tornado"
    assert services["proxy"]["environment"]["SEGNAPUNTI_STREAMS"] == "streams:8000"
    assert "streams" in services["proxy"]["depends_on"]


# -- health that means it, pinned images, locked dependencies, backups ---------------

READY_PATH = "/api/v1/ready"


def test_every_health_check_asks_for_readiness_and_postgresql_is_asked_over_tcp() -> None:
    services = compose()["services"]
    for name in APPS:
        assert READY_PATH in " ".join(services[name]["healthcheck"]["test"]), name
    assert services["migrate"]["healthcheck"] == {"disable": True}
    assert READY_PATH in DOCKERFILE.read_text().split("HEALTHCHECK", 1)[1].split("CMD [", 1)[0]
    assert f"health_uri {READY_PATH}" in CADDYFILE.read_text()
    postgres = services["postgres"]
    test = postgres["healthcheck"]["test"]
    assert test[:2] == ["CMD", "pg_isready"]
    # Over TCP: the image's init server listens on its Unix socket only.
    assert test[test.index("-h") + 1] == "127.0.0.1"
    assert test[test.index("-U") + 1] == postgres["environment"]["POSTGRES_USER"]
    assert test[test.index("-d") + 1] == postgres["environment"]["POSTGRES_DB"]


def test_migrate_is_restarted_when_it_fails() -> None:
    assert compose()["services"]["migrate"]["restart"] == "on-failure"


def test_images_are_pinned_to_a_release() -> None:
    services = compose()["services"]
    assert re.fullmatch(r"caddy:2\.\d+\.\d+", services["proxy"]["image"])
    assert re.fullmatch(r"postgres:\d+\.\d+", services["postgres"]["image"])
    assert re.fullmatch(r"redis:7\.\d+\.\d+", services["redis"]["image"])


def test_the_image_takes_its_base_from_a_build_argument_defaulting_to_debian() -> None:
    dockerfile = DOCKERFILE.read_text()
    assert re.search(r"^ARG BASE=debian:bookworm-slim$", dockerfile, re.MULTILINE)
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert bases and set(bases) == {"${BASE}"}


def test_the_image_adds_no_package_source_to_debians() -> None:
    """Its packages are Debian's (the base's sources) and PyPI's: no other apt repository,
    key or download."""
    dockerfile = DOCKERFILE.read_text().lower()
    for word in ("sources.list", "apt.postgresql.org", "pgdg", "signed-by", "gpg", "curl",
                 "wget", "add-apt-repository"):
        assert word not in dockerfile, word


def series(version: str, parts: int) -> str:
    """``15.20`` -> ``15`` (parts=1); ``7.0.15`` -> ``7.0`` (parts=2)."""
    return ".".join(version.split(".")[:parts])


def test_compose_runs_the_series_of_postgresql_redis_and_caddy_the_tests_run() -> None:
    """compose's PostgreSQL (major), Redis and Caddy (major.minor) are those this machine's
    tests run against: TEST_DATABASE_URL's server, TEST_REDIS_URL's, Debian's caddy."""
    services = compose()["services"]
    pinned = {name: services[service]["image"].split(":")[1]
              for name, service in (("postgres", "postgres"), ("redis", "redis"),
                                    ("caddy", "proxy"))}
    tested: dict[str, str] = {}
    if os.environ.get("TEST_DATABASE_URL"):
        engine = make_engine(os.environ["TEST_DATABASE_URL"])
        with engine.connect() as connection:
            tested["postgres"] = connection.execute(text("SHOW server_version")).scalar_one()
        engine.dispose()
    try:
        tested["redis"] = redis.Redis.from_url(
            os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
            socket_connect_timeout=0.5).info("server")["redis_version"]
    except redis.RedisError:
        pass
    if shutil.which("caddy"):
        tested["caddy"] = subprocess.run(["caddy", "version"], capture_output=True, text=True,
                                         check=True, timeout=30).stdout.split()[0].lstrip("v")
    if not tested:
        pytest.skip("no PostgreSQL, Redis or Caddy of the tests' here to compare with")
    parts = {"postgres": 1, "redis": 2, "caddy": 2}
    assert {name: series(pinned[name], parts[name]) for name in tested} == {
        name: series(version.split()[0], parts[name]) for name, version in tested.items()}


def test_compose_yaml_is_read_by_debians_docker_compose() -> None:
    if shutil.which("docker-compose") is None:
        pytest.skip("Debian's docker-compose is not installed (make test-image installs it)")
    checked = subprocess.run(["docker-compose", "--file", str(COMPOSE), "config", "--quiet"],
                             capture_output=True, text=True, check=False, timeout=60, cwd=ROOT)
    assert checked.returncode == 0, checked.stderr


def test_the_compose_project_is_named_segnapunti_in_its_env_file() -> None:
    """compose's containers, network and volumes keep the prefix they had (segnapunti_…),
    wherever the checkout lies: ``.env`` names the project, as both compose programs read it."""
    settings = dict(line.split("=", 1) for line in (ROOT / ".env").read_text().splitlines()
                    if line and not line.startswith("#"))
    assert settings == {"COMPOSE_PROJECT_NAME": "segnapunti"}
    assert "name" not in compose()  # Debian's docker-compose refuses it


def test_the_caddy_data_and_config_are_kept_on_volumes() -> None:
    document = compose()
    mounts = {mount.split(":")[1]: mount.split(":")[0]
              for mount in document["services"]["proxy"]["volumes"]}
    assert mounts["/data"] in document["volumes"] and mounts["/config"] in document["volumes"]


def test_backups_can_be_made_inside_the_stack() -> None:
    """pg_dump of the server's major version in the image, a volume for the files, and the
    documented command writing there."""
    document = compose()
    for name in APPS:
        assert "backups:/app/var/backups" in document["services"][name]["volumes"]
    assert "backups" in document["volumes"]
    major = document["services"]["postgres"]["image"].split(":")[1].split(".")[0]
    installed = re.findall(r"\bpostgresql-client-(\d+)\b", DOCKERFILE.read_text())
    assert installed and set(installed) == {major}
    assert ("docker compose exec app-1 python -m service backup /app/var/backups/"
            in operations_section("Backups and restores"))
    assert "deploy/native.sh backup" in operations_section("Backups and restores")


def lock() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, version = line.partition("==")
        assert version and re.fullmatch(r"[a-z0-9-]+", name), f"not name==version: {line!r}"
        assert name not in pins, f"{name} twice"
        pins[name] = version
    return pins


def test_the_lock_pins_every_runtime_dependency_of_pyproject_within_its_range() -> None:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = lock()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: python deploy/lock.py"
        assert requirement.specifier.contains(pins[name]), (name, pins[name], line)
        for extra in requirement.extras:  # psycopg[binary] pulls psycopg-binary
            assert canonicalize_name(f"{name}-{extra}") in pins, (line, extra)
    test_only = {canonicalize_name(Requirement(line).name)
                 for line in project["optional-dependencies"]["test"]}
    assert not test_only & set(pins), "test tools in the runtime lock"


def test_the_lock_pins_what_the_images_python_pulls_in() -> None:
    """Every dependency of a pinned distribution that Debian bookworm's Python 3.11.2 (the
    image's) installs is pinned too, so pip resolves nothing of its own in the image."""
    from importlib import metadata

    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = lock()
    image = {**default_environment(), "python_full_version": "3.11.2",
             "implementation_version": "3.11.2", "extra": ""}
    for name in pins:
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:  # one this Python needs not (async-timeout)
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(image):
                assert canonicalize_name(requirement.name) in pins, (name, line)


def test_the_image_installs_the_lock_before_the_wheel_without_resolving_again() -> None:
    dockerfile = DOCKERFILE.read_text()
    locked = dockerfile.index("pip install -r /src/requirements.lock")
    wheel = dockerfile.index("pip install --no-deps /src")
    assert locked < wheel


# -- compose and deploy/native.sh: one topology --------------------------------------------


def native_default(name: str) -> str:
    """The value deploy/native.sh gives a setting: ``NAME=value`` or ``NAME=${NAME:-value}``."""
    script = NATIVE.read_text()
    found = re.search(rf"^\s*{name}=(?:\$\{{{name}:-([^}}]*)\}}|(\S+))$", script, re.MULTILINE)
    assert found is not None, name
    return found.group(1) if found.group(1) is not None else found.group(2)


def test_the_native_script_runs_composes_topology() -> None:
    services = compose()["services"]
    env = services["app-1"]["environment"]
    script = NATIVE.read_text()
    for name in ("TRUSTED_PROXIES", "WEB_CONCURRENCY", "WEB_THREADS"):
        assert native_default(name) == env[name], name
    assert native_default("RATE_LIMIT_STORAGE_URL").startswith("redis://")
    assert env["RATE_LIMIT_STORAGE_URL"].startswith("redis://")
    assert native_default("DATABASE_URL") == ""  # its own database, unless given one
    assert "DATABASE_URL=postgresql://" in script
    # The same commands, in compose's order: migrate, then two app servers, then the proxy
    # on the same Caddyfile, every placeholder of which the script sets.
    migrate = script.index('"$PYTHON" -m service migrate')
    serve = script.index('PYTHON" -m service serve')  # in the run script runsv supervises
    caddy = script.index('caddy run --config "$ROOT/deploy/Caddyfile"')
    assert migrate < serve < caddy
    for name in caddyfile_placeholders():
        assert f"{name}=" in script, name
    # Ready means the same to the script's waits as to compose's checks and Caddy's.
    assert READY_PATH in script
    assert "deploy/native.sh" in operations_section("Running it for many tables")


def test_the_caddyfile_reads_the_same_for_compose_and_for_the_native_script() -> None:
    """Caddy's own reading of the one file (``caddy adapt``) with each one's settings."""
    if shutil.which("caddy") is None:
        pytest.skip("caddy is not installed (make caddy)")

    def adapted(env: dict[str, str]) -> dict[str, Any]:
        done = subprocess.run(["caddy", "adapt", "--config", str(CADDYFILE), "--adapter",
                               "caddyfile"], capture_output=True, text=True, check=True,
                              env={"PATH": "/usr/bin:/bin", **env}, timeout=60)
        server: dict[str, Any] = json.loads(done.stdout)["apps"]["http"]["servers"]["srv0"]
        return server

    def proxies(server: dict[str, Any]) -> list[dict[str, Any]]:
        def handlers(node: Any) -> Iterator[dict[str, Any]]:
            if isinstance(node, dict):
                if node.get("handler") == "reverse_proxy":
                    yield node
                for value in node.values():
                    yield from handlers(value)
            elif isinstance(node, list):
                for value in node:
                    yield from handlers(value)

        return list(handlers(server))

    def proxy(server: dict[str, Any]) -> dict[str, Any]:
        """The app servers' proxy (the one with two upstreams; the other is the streams')."""
        return next(p for p in proxies(server) if len(p["upstreams"]) == 2)

    def streams(server: dict[str, Any]) -> dict[str, Any]:
        return next(p for p in proxies(server) if len(p["upstreams"]) == 1)

    composed = adapted(compose()["services"]["proxy"]["environment"])
    native = adapted({"SEGNAPUNTI_LISTEN": ":18080", "SEGNAPUNTI_APP_1": "127.0.0.1:8001",
                      "SEGNAPUNTI_APP_2": "127.0.0.1:8002", "SEGNAPUNTI_STREAMS": "127.0.0.1:8003",
                      "SEGNAPUNTI_CADDY_ADMIN": "off"})
    assert [u["dial"] for u in streams(composed)["upstreams"]] == ["streams:8000"]
    assert [u["dial"] for u in streams(native)["upstreams"]] == ["127.0.0.1:8003"]
    assert streams(native)["flush_interval"] == -1
    assert composed["listen"] == [":80"] and native["listen"] == [":18080"]
    assert [u["dial"] for u in proxy(composed)["upstreams"]] == ["app-1:8000", "app-2:8000"]
    assert [u["dial"] for u in proxy(native)["upstreams"]] == ["127.0.0.1:8001",
                                                               "127.0.0.1:8002"]
    for server in (composed, native):
        assert proxy(server)["health_checks"]["active"]["uri"] == READY_PATH
    assert {k: v for k, v in proxy(composed).items() if k != "upstreams"} == {
        k: v for k, v in proxy(native).items() if k != "upstreams"}


def test_the_proxy_passes_a_request_id_on_and_writes_a_json_access_log() -> None:
    """Caddy's reading of the Caddyfile: a request without a sane ``X-Request-ID`` (what the
    app accepts) gets a new UUID in it before it is passed on; each request is written to
    ``access.log`` in Caddy's data folder, in JSON, without its query string or Referer."""
    if shutil.which("caddy") is None:
        pytest.skip("caddy is not installed (make caddy)")
    done = subprocess.run(["caddy", "adapt", "--config", str(CADDYFILE), "--adapter",
                           "caddyfile"], capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": "/srv/state"},
                          timeout=60)
    adapted = json.loads(done.stdout)
    routes = adapted["apps"]["http"]["servers"]["srv0"]["routes"]
    [sets_id] = [route for route in routes if "X-Request-Id" in json.dumps(route)]
    [matcher] = sets_id["match"]
    pattern = matcher["not"][0]["header_regexp"]["X-Request-ID"]["pattern"]
    assert pattern == f"^{SANE_ID.pattern}$"
    assert sets_id["handle"][0]["request"]["set"]["X-Request-Id"] == ["{http.request.uuid}"]
    assert routes.index(sets_id) < next(i for i, route in enumerate(routes)
                                        if "reverse_proxy" in json.dumps(route))
    [access] = [log for name, log in adapted["logging"]["logs"].items() if name != "default"]
    assert access["writer"] == {"output": "file", "filename": "/srv/state/access.log"}
    assert access["encoder"]["wrap"]["format"] == "json"
    assert access["encoder"]["fields"]["request>headers>Referer"]["filter"] == "delete"
    assert access["encoder"]["fields"]["request>uri"]["regexp"] == r"\?.*$"


def test_the_native_scripts_own_database_is_exported_to_the_servers(tmp_path: Path) -> None:
    """A first start without ``DATABASE_URL`` makes the database ``segnapunti`` and runs the
    migration and every server on it: the URL it sets reaches their environment (unexported,
    each would open the default SQLite file, and the servers would not share one database)."""
    body = re.search(r"^ensure_database\(\) \{\n.*?^\}\n", NATIVE.read_text(),
                     re.MULTILINE | re.DOTALL)
    assert body is not None
    fake = tmp_path / "psql"
    fake.write_text("#!/bin/sh\necho 1\n")  # every question answered: the role and base exist
    fake.chmod(0o755)
    script = (f"fail() {{ echo \"$*\" >&2; exit 1; }}\nsay() {{ :; }}\n{body.group(0)}"
              "DATABASE_URL=\nensure_database\nsh -c 'echo \"$DATABASE_URL\"'\n")
    found = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"})
    assert found.stdout.strip() == "postgresql://segnapunti@127.0.0.1:5432/segnapunti"
