"""A crowd of phones opening the page at once: each its own browser context (no
cache, no cookie, no service worker shared), all behind the test machine's one address, as a
club's phones are behind its router. ``tests/live/test_live_proxy_topology.py`` runs it in a
process of its own (``python tests/web/crowd.py URL``) against the production topology's
proxy; any test with a browser and an address may call ``open_at_once``."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

#: How Debian's chromium is started here: no sandbox (root), none of its own network traffic
#: (this machine's closed network refuses it), no first-run screens.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


#: The browsers the tests can drive, first found first: Debian's ``chromium-headless-shell``
#: (Chromium's own engine without the browser's window and its services: what Playwright runs
#: for a headless test by default), which does the same browser tests for half the CPU of the
#: whole ``chromium`` (measured on tests/web: 135 s against 197 s on two cores); the whole
#: browser where only it is installed.
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")


def chromium_path() -> str | None:
    """Debian's headless Chromium, or its whole browser, where one is installed."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


#: A phone's screen (the browser tests' ``PHONE``), and how long one action may wait.
PHONE = {"width": 360, "height": 740}
ACTION_TIMEOUT_MS = 30_000
#: The crowd: twenty phones, one address.
CROWD = 20
#: How long the slowest of a crowd may take to show its home screen on a loaded 2-core machine.
CROWD_TIMEOUT_MS = 60_000


def open_at_once(browser: Any, base: str, count: int = CROWD) -> list[dict[str, Any]]:
    """``count`` phones (each its own browser context: no cache, no cookie shared) open
    ``base`` at once; for each, whether it showed the home screen and every answer >= 400 it
    was given."""
    phones = []
    for _ in range(count):
        context = browser.new_context(viewport=PHONE, locale="it-IT", has_touch=True)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        refused: list[str] = []
        page.on("response", lambda response, refused=refused: response.status >= 400
                and refused.append(f"{response.status} {response.url}"))
        phones.append((context, page, refused))
    try:
        # Each navigation only started here (not waited for), so that all of them ask for
        # the page and its files in the same moments.
        for _context, page, _refused in phones:
            page.evaluate("url => { setTimeout(() => { location.href = url; }); }", f"{base}/")
        results = []
        deadline = time.monotonic() + CROWD_TIMEOUT_MS / 1000
        for _context, page, refused in phones:
            left = max(1000, int((deadline - time.monotonic()) * 1000))
            try:
                page.locator("#new-game").wait_for(state="visible", timeout=left)
                shown = True
            except Exception:  # noqa: BLE001 - a phone that never showed it is the finding
                shown = False
            results.append({"home": shown, "refused": list(refused)})
        return results
    finally:
        for context, _page, _refused in phones:
            context.close()


def main(argv: list[str]) -> int:
    """``python tests/web/crowd.py URL``: a crowd opens ``URL`` at once, in a process of its
    own (a test whose process already drives a browser, or runs an event loop, cannot start
    Playwright's synchronous API again); prints each phone's outcome as JSON."""
    import json

    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    if chromium is None:
        print("Debian's chromium is not installed", file=sys.stderr)
        return 2
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            print(json.dumps(open_at_once(browser, argv[1])))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
