"""The page as a room opens it: a file or module refused (429, 503) or cut off is
fetched again after its Retry-After while the page says so in the phone's language, then the
page starts; a read the API refuses for a moment is sent again. Twenty phones opening it at
once from one address are a test of the production topology
(``tests/live/test_live_proxy_topology.py``, with ``crowd.py``): the page and its files are
never limited, so the service alone serves them the same way."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

#: How much sooner than asked a request may seem to come here (the browser's events reach the
#: test a little late or early on a loaded machine); the page's own spread only adds.
SLACK_S = 0.25


class Flaky:
    """A route handler answering each of ``statuses`` in turn (0: the connection cut), then
    passing requests on to the service; ``times`` says when each request came."""

    def __init__(self, statuses: list[int], retry_after: str | None = "1") -> None:
        self.left = list(statuses)
        self.retry_after = retry_after
        self.times: list[float] = []

    def __call__(self, route: Any) -> None:
        self.times.append(time.monotonic())
        left = self.left
        if not left:
            route.continue_()
            return
        status = left.pop(0)
        if status == 0:
            route.abort("connectionreset")
            return
        headers = {"Content-Type": "application/problem+json"}
        if self.retry_after is not None:
            headers["Retry-After"] = self.retry_after
        route.fulfill(status=status, headers=headers,
                      body=json.dumps({"title": "Wait a moment", "status": status}))

    def gaps(self) -> list[float]:
        """The seconds between one request and the next."""
        return [later - earlier for earlier, later in zip(self.times, self.times[1:])]


def _loaded_after_waiting(phone: Any, base: str, note: str) -> None:
    """The page opened: its waiting note shown with ``note``, then the home screen."""
    page = phone.page
    page.goto(f"{base}/", wait_until="commit")
    expect(page.locator("#boot-note")).to_contain_text(note)
    expect(page.locator("#new-game")).to_be_visible()
    expect(page.locator("#boot-note")).to_have_count(0)
    # The browser logs every refused load as an error: these are the test's own.
    phone.problems[:] = [p for p in phone.problems
                         if not re.search(r"status of (429|503)|ERR_CONNECTION_RESET", p)]


def test_a_module_refused_a_few_times_is_fetched_again_while_the_page_says_so(
        phones: Callable[..., Any], server: str) -> None:
    """An Italian phone: a module deep in the chain answers 503, then 429, each with
    Retry-After: 2; the words' module answers 429 once. The page says in Italian that the
    service is busy, asks again no sooner than it was told, and starts once they come."""
    phone = phones("it-IT")
    module, script = Flaky([503, 429], retry_after="2"), Flaky([429])
    phone.page.route(re.compile(r"/app/stores\.js\?v="), module)
    phone.page.route(re.compile(r"/app/i18n\.js\?v="), script)
    _loaded_after_waiting(phone, server, "il servizio è molto richiesto, riprovo tra")
    assert len(module.times) >= 3 and len(script.times) >= 2
    assert all(gap >= 2 - SLACK_S for gap in module.gaps()[:2]), module.gaps()
    assert script.gaps()[0] >= 1 - SLACK_S, script.gaps()
    assert phone.page.locator("html").get_attribute("lang") == "it"


def test_a_file_cut_off_is_fetched_again_and_the_page_says_so_in_english(
        phones: Callable[..., Any], server: str) -> None:
    """An English phone: the entry module's connection is cut twice, the stylesheet answers
    503 with no Retry-After to the page's link and to the loader: the page waits 1 s, then
    2 s, says in English that it cannot reach the service, then starts, styled."""
    phone = phones("en-GB")
    entry, style = Flaky([0, 0]), Flaky([503, 503], retry_after=None)
    phone.page.route(re.compile(r"/app/app\.js\?v="), entry)
    phone.page.route(re.compile(r"/app/app\.css\?v="), style)
    _loaded_after_waiting(phone, server, "cannot reach the service")
    gaps = entry.gaps()
    assert gaps[0] >= 1 - SLACK_S and gaps[1] >= 2 - SLACK_S, gaps
    assert style.gaps()[1] >= 1 - SLACK_S, style.gaps()  # the link's, then the loader's
    # The stylesheet, linked again: the header is the page's green, not the browser's white.
    colour = phone.page.evaluate(
        "getComputedStyle(document.querySelector('.topbar')).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")


def test_a_french_phone_is_told_in_french_while_the_page_waits(
        phones: Callable[..., Any], server: str) -> None:
    """A French phone, a module refused once: the loader says it in French (its
    sentences are its own, before any catalogue), then the page starts in French."""
    phone = phones("fr-FR")
    script = Flaky([429])
    phone.page.route(re.compile(r"/app/qr\.js\?v="), script)
    _loaded_after_waiting(phone, server, "le service est très demandé, nouvel essai dans")
    expect(phone.page.locator("#new-game")).to_have_text("Nouvelle partie")
    assert phone.page.locator("html").get_attribute("lang") == "fr"


def test_a_read_the_service_asks_to_wait_for_is_sent_again(
        phones: Callable[..., Any], server: str) -> None:
    """The variants (the new game's first screen) answer 429 with Retry-After: 1 twice: the
    page asks again and shows them, no error. (No service worker: it would send the page's
    reads of the variants itself, out of the test's sight.)"""
    phone = phones(service_workers="block")
    variants = Flaky([429, 429])
    phone.page.route(re.compile(r"/api/v1/variants$"), variants)
    phone.page.goto(f"{server}/#/new")
    expect(phone.page.locator("label:has(#family-gatti)")).to_be_visible()
    assert len(variants.times) == 3 and all(gap >= 1 - SLACK_S for gap in variants.gaps())
    phone.problems[:] = [p for p in phone.problems if "status of 429" not in p]
