"""The deployment as described (issue 17): ``compose.yaml`` parses, names the proxy, the two
app servers, PostgreSQL and Redis, wires them as the README says (the app command is the
README's, the apps share PostgreSQL and Redis and trust the one proxy), and the proxy's
configuration sends to both apps. Where a Docker daemon answers, the image is built and
started, and serves; where none does, that test says so and is skipped."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
APPS = ("app-1", "app-2")


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
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
        name: {"condition": "service_healthy"} for name in APPS}
    assert set(services["postgres"]["healthcheck"]) >= {"test", "interval"}
    assert set(services["redis"]["healthcheck"]) >= {"test", "interval"}


def test_the_apps_run_the_readmes_command_and_share_the_database_and_redis() -> None:
    services = compose()["services"]
    section = readme_section("Running it for many tables")
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
    # Every setting the compose file sets is one the README's settings table explains.
    for name in env:
        assert f"| `{name}` |" in (ROOT / "README.md").read_text(), name


def test_the_proxy_sends_to_both_apps_and_checks_their_health() -> None:
    caddyfile = CADDYFILE.read_text()
    proxied = re.search(r"reverse_proxy ([^{\n]+)", caddyfile)
    assert proxied is not None
    assert proxied.group(1).split() == [f"{name}:8000" for name in APPS]
    assert "health_uri /api/v1/health" in caddyfile
    assert "encode zstd gzip" in caddyfile
    mount = compose()["services"]["proxy"]["volumes"][0]
    assert mount.startswith("./deploy/Caddyfile:")


def _docker_daemon() -> str | None:
    """Why the image cannot be built here, or None when it can."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    probe = subprocess.run(["docker", "info", "--format", "{{json .ServerVersion}}"],
                           capture_output=True, text=True, timeout=30, check=False)
    if probe.returncode != 0:
        return f"no Docker daemon answers: {probe.stderr.strip()[:200]}"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_image_builds_and_serves() -> None:
    reason = _docker_daemon()
    if reason is not None:
        pytest.skip(reason)
    tag = f"segnapunti-test:{uuid.uuid4().hex[:8]}"
    subprocess.run(["docker", "build", "-t", tag, str(ROOT)], check=True, timeout=1200,
                   capture_output=True)
    port = _free_port()
    name = f"segnapunti-test-{uuid.uuid4().hex[:8]}"
    subprocess.run(["docker", "run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8000", tag],
                   check=True, timeout=60, capture_output=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health",
                                            timeout=2) as response:
                    assert json.load(response)["status"] == "ok"
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    finally:
        subprocess.run(["docker", "rm", "-f", name], check=False, timeout=60,
                       capture_output=True)
        subprocess.run(["docker", "rmi", "-f", tag], check=False, timeout=60,
                       capture_output=True)
