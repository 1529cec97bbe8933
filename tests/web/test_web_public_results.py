"""The public results pages (an event's, a club's) in a browser with JavaScript off, at a
phone's 360 px, in Italian: what a phone without scripts, a search engine and a screen reader
get is the whole page; it fits the screen (a wide table scrolls in its own box, never the
page) and passes axe-core."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from test_web_accessibility import violations

#: A phone's screen, as the other browser tests hold one.
PHONE = {"width": 360, "height": 740}

#: Every counting card of gatti-3: a valid hand puts them all in one pile.
COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]
NAMES = ["Annamaria Bonaventura", "Bartolomeo Castiglioni", "Carlotta Dell'Acqua",
         "Domenico Esposito", "Elisabetta Fontanarosa", "Ferdinando Gallo"]


def _call(base: str, method: str, path: str, body: Any = None,
          token: str | None = None) -> Any:
    request = urllib.request.Request(
        f"{base}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


def _published_evening(base: str) -> dict[str, Any]:
    event = _call(base, "POST", "/api/v1/events", {
        "name": "Torneo d'autunno", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in NAMES]})
    edit = event["tokens"]["edit"]
    _call(base, "PATCH", f"/api/v1/events/{event['id']}", {"public": True}, edit)
    tables = _call(base, "POST", f"/api/v1/events/{event['id']}/rounds", {}, edit)["tables"]
    for table in tables:
        game = _call(base, "GET", f"/api/v1/games/{table['game']}",
                     token=table["tokens"]["read"])
        _call(base, "POST", f"/api/v1/games/{table['game']}/hands",
              {"dealer": game["next_dealer"], "discard": ["2H", "3H", "4S"],
               "piles": [{"side": s, "tricks": t, "counting": COUNTING if s == 0 else []}
                         for s, t in enumerate((10, 8, 8))]}, table["tokens"]["edit"])
    result: dict[str, Any] = event
    return result


def test_the_event_page_reads_whole_without_javascript_on_a_phone_in_italian(
        browser: Any, server: str) -> None:
    event = _published_evening(server)
    context = browser.new_context(viewport=PHONE, locale="it-IT", java_script_enabled=False,
                                  device_scale_factor=1)
    try:
        page = context.new_page()
        response = page.goto(f"{server}/results/events/{event['id']}")
        assert response is not None and response.status == 200
        assert page.locator("html").get_attribute("lang") == "it"
        assert page.title().startswith("Torneo d'autunno")
        assert page.get_by_role("heading", name="Classifica", exact=True).is_visible()
        standings = page.get_by_role("table", name="Classifica dopo il turno 1")
        assert standings.is_visible()
        assert standings.get_by_role("rowheader", name=NAMES[0]).count() == 1
        assert page.get_by_role("link", name="Link a questi risultati").is_visible()
        assert page.get_by_role("img", name="Codice QR del link a questi risultati").is_visible()
        # Its one script (which follows the page's stream) does not run: the page is whole.
        assert page.locator("script").count() == 1
        assert page.locator("script[type='module'][src^='/app/resultslive.js']").count() == 1
        # the page never scrolls sideways: at most a table, in its own box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_the_event_page_passes_axe_at_a_phone_s_size(browser: Any, server: str) -> None:
    event = _published_evening(server)
    context = browser.new_context(viewport=PHONE, locale="it-IT", device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"{server}/results/events/{event['id']}")
        assert violations(page) == []
    finally:
        context.close()


def _published_club(base: str) -> dict[str, Any]:
    """A club with a season, an evening of its members played at its tables, both
    published."""
    club = _call(base, "POST", "/api/v1/clubs", {"name": "Circolo del Giovedì"})
    edit = club["tokens"]["edit"]
    _call(base, "POST", f"/api/v1/clubs/{club['id']}/seasons",
          {"name": "Autunno", "from": "2020-01-01", "to": "2099-12-31"}, edit)
    request = urllib.request.Request(
        f"{base}/api/v1/events", method="POST", data=json.dumps({
            "name": "Giovedì", "variant": "gatti-3", "format": "individual",
            "club": club["id"], "entrants": [{"name": n} for n in NAMES]}).encode(),
        headers={"Content-Type": "application/json", "Club-Authorization": f"Bearer {edit}"})
    with urllib.request.urlopen(request) as response:
        event = json.loads(response.read())
    _call(base, "PATCH", f"/api/v1/events/{event['id']}", {"public": True},
          event["tokens"]["edit"])
    _call(base, "PATCH", f"/api/v1/clubs/{club['id']}", {"public": True}, edit)
    result: dict[str, Any] = club
    return result


def test_the_club_page_reads_whole_without_javascript_on_a_phone_in_italian(
        browser: Any, server: str) -> None:
    club = _published_club(server)
    context = browser.new_context(viewport=PHONE, locale="it-IT", java_script_enabled=False,
                                  device_scale_factor=1)
    try:
        page = context.new_page()
        response = page.goto(f"{server}/results/clubs/{club['id']}")
        assert response is not None and response.status == 200
        assert page.locator("html").get_attribute("lang") == "it"
        assert page.title().startswith("Circolo del Giovedì")
        assert page.get_by_role("link", name="Giovedì").is_visible()
        standings = page.get_by_role("table", name="Autunno", exact=False)
        assert standings.is_visible()
        assert standings.get_by_role("columnheader").count() >= 4
        assert page.get_by_role("link", name="Link a questi risultati").is_visible()
        assert page.get_by_role("img", name="Codice QR del link a questi risultati").is_visible()
        # Its one script (which follows the page's stream) does not run: the page is whole.
        assert page.locator("script").count() == 1
        assert page.locator("script[type='module'][src^='/app/resultslive.js']").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
