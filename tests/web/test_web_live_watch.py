"""The live watch (watch.js): the sheet reads the game again only while the page is
on show, reads it at once when the page comes back into view, and waits longer after each read
that fails, so that a room's phones do not keep knocking on a service that cannot answer."""

from __future__ import annotations

import re
from typing import Any

from page_driver import Table
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]
#: The usual wait between two reads here. These tests count reads over so many waits, not
#: seconds, so their waits are short; a loaded machine only makes the page read less often.
EVERY_MS = 150


def _is_read(request: Any) -> bool:
    return request.method == "GET" and re.search(r"/api/v1/games/[a-z0-9]+$",
                                                 request.url) is not None


def _reads(page: Any) -> list[str]:
    """The page's reads of its game from now on, as they are sent."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if _is_read(request) else None)
    return sent


def _shown(page: Any, state: str) -> None:
    """The page hidden (another app on top) or on show again, as the browser tells it."""
    page.evaluate("""(state) => {
        Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
    }""", state)


def test_a_hidden_sheet_reads_nothing_and_reads_at_once_when_shown(phones: Any) -> None:
    phone = phones(service_workers="block", poll_ms=EVERY_MS)
    page = phone.page
    Table.seated(page, phone.base, "gatti-3", "gatti", THREE)
    sent = _reads(page)
    with page.expect_request(_is_read):
        pass  # the sheet on show reads its game every few seconds
    _shown(page, "hidden")
    page.wait_for_timeout(2 * EVERY_MS)  # a read on its way when it was hidden comes back
    hidden_at = len(sent)
    page.wait_for_timeout(8 * EVERY_MS)
    assert len(sent) == hidden_at, "a hidden page reads nothing"
    with page.expect_request(_is_read):
        _shown(page, "visible")
    expect(page.locator("#live")).not_to_have_class(re.compile(r"\boffline\b"))


def test_reads_that_fail_are_sent_less_and_less_often(phones: Any) -> None:
    """Ten usual waits of failed reads: one every wait would be ten; doubling each time from
    one wait to eight (1 + 2 + 4 + 8 > 10) leaves four at most. The first read that works
    brings the sheet back to live."""
    phone = phones(service_workers="block", poll_ms=EVERY_MS)
    page = phone.page
    Table.seated(page, phone.base, "gatti-3", "gatti", THREE)
    failed: list[str] = []

    def refuse(route: Any) -> None:
        failed.append(route.request.url)
        route.abort("connectionrefused")

    page.route(re.compile(r"/api/v1/games/[a-z0-9]+$"), refuse)
    expect(page.locator("#live")).to_have_class(re.compile(r"\boffline\b"))
    first = len(failed)
    page.wait_for_timeout(10 * EVERY_MS)
    assert len(failed) - first <= 4, len(failed) - first
    page.unroute(re.compile(r"/api/v1/games/[a-z0-9]+$"))
    expect(page.locator("#live")).not_to_have_class(re.compile(r"\boffline\b"))
    phone.problems[:] = [p for p in phone.problems if "ERR_CONNECTION_REFUSED" not in p]
