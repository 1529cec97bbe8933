"""Browser tests of the phone page: the real server (``python -m service`` on a free port and
a temporary SQLite database) driven by Playwright through Debian's Chromium (its headless
shell, ``crowd.BROWSERS``) at a phone's viewport. ``make test`` installs it when it is missing
(as root); without it, or without the ``playwright`` package, these tests are skipped and say
why."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crowd import CHROMIUM_ARGS, chromium_path
from waiting import SERVER_START_TIMEOUT_S

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}
#: How often the page polls the game in the tests (the page's default is 4 s).
POLL_MS = 400
#: How long an action (a click, a navigation) and an ``expect`` may wait for the page: what a
#: loaded machine running the suite in parallel needs. A page that is right gets there at
#: once; only a wrong one waits this long, to fail.
ACTION_TIMEOUT_MS = 30_000
EXPECT_TIMEOUT_MS = 15_000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def chromium() -> str:
    pytest.importorskip("playwright", reason="the playwright package is not installed "
                                             "(pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("Debian's chromium-headless-shell is not installed (apt-get install "
                    "chromium-headless-shell; `make test` installs it when run as root)")
    return path


#: The limits' settings, which a server with the service's defaults must not take from the
#: environment the tests run in.
LIMIT_SETTINGS = ("RATE_LIMIT_PER_MINUTE", "RATE_LIMIT_BURST", "AUTH_FAILURES_PER_MINUTE",
                  "AUTH_FAILURE_BURST", "RATE_LIMIT_STORAGE_URL", "TRUSTED_PROXIES")


@contextlib.contextmanager
def serving(work: Path, **settings: str) -> Iterator[str]:
    """The service as it is run in production (migrations, then gunicorn) on a free port and a
    SQLite database in ``work``, with these settings over the limits' defaults; its address."""
    port = _free_port()
    env = {
        **{name: value for name, value in os.environ.items() if name not in LIMIT_SETTINGS},
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{work / 'segnapunti.sqlite3'}",
        "WEB_CONCURRENCY": "2",
        "HOME": str(work),
        **settings,
    }
    log = (work / "server.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    # As long as a loaded machine needs (TEST_SERVER_START_TIMEOUT): slow is not broken.
    started = time.monotonic()
    deadline = started + SERVER_START_TIMEOUT_S
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(
                f"the server did not answer within {time.monotonic() - started:.0f} s: "
                + (work / "server.log").read_text(errors="replace")[-2000:])
        time.sleep(0.05)
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def server_work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the service the browser tests use: its log, its SQLite database
    (``segnapunti.sqlite3``)."""
    return tmp_path_factory.mktemp("web-server")


@pytest.fixture(scope="session")
def server(chromium: str, server_work: Path) -> Iterator[str]:
    """The service as it is run in production: migrations, then gunicorn."""
    # The tests load many pages from one address; the limiter has tests of its own.
    with serving(server_work, RATE_LIMIT_PER_MINUTE="0",
                 AUTH_FAILURES_PER_MINUTE="0") as base:
        yield base


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Phone:
    """One phone at the table: a browser context at a phone's size, its console watched.

    Its page runs no service worker unless the test asks for one (``service_workers="allow"``,
    the tests of the page with no network): a worker installs by fetching and caching every
    file of the page in each new context, a tenth of the browser tests' CPU spent on what only
    those tests look at; and without one, every request of the page is in the test's sight."""

    def __init__(self, browser: Any, base: str, locale: str,
                 color_scheme: str = "light", viewport: dict[str, int] | None = None,
                 service_workers: str = "block", poll_ms: int = POLL_MS) -> None:
        self.base = base
        self.context = browser.new_context(viewport=viewport or PHONE, locale=locale,
                                           color_scheme=color_scheme,
                                           device_scale_factor=1, has_touch=True,
                                           service_workers=service_workers)
        self.context.add_init_script(f"window.SEGNAPUNTI_POLL_MS = {poll_ms};")
        self.context.set_default_timeout(ACTION_TIMEOUT_MS)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        text = message.text
        # The browser logs every refused request as a console error; the page expects these
        # (a rule broken on purpose, the token probe, a lost race, a duplicate table stopped
        # on a board) and shows them itself.
        if "Failed to load resource" in text and any(
                f"status of {code}" in text for code in (403, 409, 412, 422, 428, 429)):
            return
        # A test that cuts the network (context.set_offline) makes every request fail so, and
        # the page handles it (copies, the outbox); the browser still logs each one.
        if "ERR_INTERNET_DISCONNECTED" in text:
            return
        self.problems.append(text)

    def close(self) -> None:
        self.context.close()


@pytest.fixture()
def phones(browser: Any, server: str) -> Iterator[Any]:
    """``phones()`` opens a phone (English, light and a phone's size unless a locale, a colour
    scheme or a ``viewport`` — a wall's screen, say — is given; no service worker unless
    ``service_workers="allow"``; its screens read again every ``poll_ms``); each test ends
    with no console error and no uncaught exception on any of them."""
    opened: list[Phone] = []

    def open_phone(locale: str = "en-GB", color_scheme: str = "light",
                   viewport: dict[str, int] | None = None,
                   service_workers: str = "block", poll_ms: int = POLL_MS) -> Phone:
        phone = Phone(browser, server, locale, color_scheme, viewport, service_workers,
                      poll_ms)
        opened.append(phone)
        return phone

    yield open_phone
    problems = [p for phone in opened for p in phone.problems]
    for phone in opened:
        phone.close()
    assert problems == [], f"console errors: {problems}"
