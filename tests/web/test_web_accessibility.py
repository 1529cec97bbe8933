"""Every screen of the phone page passes axe-core: no serious or critical violation
of WCAG 2.0–2.2 A and AA, best practice, or axe's experimental rules (among them
``label-content-name-mismatch``: a control's name holds what it shows, and the colour
contrasts), in every language and in the dark scheme too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from page_driver import Table, call, club_game

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice",
        "experimental"]


def violations(page: Any) -> list[str]:
    """The serious and critical findings of axe-core on the page as it stands. axe is put into
    the page once a document (the screens are the page's own routes, so most share one): its
    572 kB were sent and compiled again for each screen before."""
    from axe_playwright_python.sync_playwright import Axe

    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(Axe().axe_script)
    found = page.evaluate("options => axe.run(document, options)",
                          {"resultTypes": ["violations"],
                           "runOnly": {"type": "tag", "values": TAGS}})
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])}×: {v['nodes'][0]['target']})"
            for v in found["violations"] if v["impact"] in ("serious", "critical")]


def _screens(table: Table) -> list[tuple[str, Callable[[], None]]]:
    page = table.page

    # The games are made through the API and opened by their links inside the page, which
    # is not loaded again for each (nor is axe put in again): the new-game form is a screen of
    # its own here.
    def game(variant: str, names: list[str]) -> Callable[[], None]:
        def open_form() -> None:
            table.open_game(variant, names)
            table.new_hand()
        return open_form

    def one_hand() -> None:
        table.open_game("gatti-3", ["Anna", "Bruno", "Carla"])
        table.new_hand()
        table.pile(0, 10, ["T1", "T21", "FOOL"])
        table.pile(1, 8, ["KH"])
        table.save_and_wait()

    def club() -> None:
        page.goto(table.base + "/#/clubs/new")
        page.fill("#club-name", "Circolo")
        page.click("#create-club")
        for name in ("Anna", "Bruno"):
            page.fill("#member-name", name)
            page.click("#add-member")
            page.locator("#roster .member", has_text=name).wait_for()

    def season() -> None:
        """A season whose standings have a game: the table, its printouts, its chart."""
        club_id = page.evaluate("location.hash").split("/")[2]
        edit = page.evaluate(
            f"JSON.parse(localStorage.getItem('segnapunti.clubs.v1'))['{club_id}'].tokens.edit")
        season_id = call(table.base, "POST", f"/clubs/{club_id}/seasons", edit, {
            "name": "Autunno", "from": "2026-01-01", "to": "2099-12-31"})["id"]
        club_game(table.base, club_id, edit)
        page.reload()
        page.locator(f"label:has(#season-{season_id})").click()
        page.wait_for_selector("#season-chart")

    def member_page() -> None:
        """A member's page, with the season's finished game: figures, tables, charts."""
        club_id = page.evaluate("location.hash").split("/")[2]
        edit = page.evaluate(
            f"JSON.parse(localStorage.getItem('segnapunti.clubs.v1'))['{club_id}'].tokens.edit")
        anna = next(m["id"] for m in call(table.base, "GET", f"/clubs/{club_id}/members",
                                          edit)["members"] if m["name"] == "Anna")
        page.goto(f"{table.base}/#/clubs/{club_id}/members/{anna}")
        page.wait_for_selector("#member-rating polyline")

    return [
        ("home", lambda: (page.goto(table.base + "/"), page.wait_for_selector("#new-game"))),
        ("rules", lambda: (page.click("#rules-gatti"), page.wait_for_selector(".rule-section"))),
        ("new game", lambda: (page.goto(table.base + "/#/"), page.click("#new-game"),
                              page.wait_for_selector("#start"))),
        ("gatti-3 hand form", game("gatti-3", ["Anna", "Bruno", "Carla"])),
        ("declaration by cards", lambda: page.click("#decl-add")),
        ("mitigatti-4 hand form", game("mitigatti-4", ["Anna", "Bruno", "Carla", "Dario"])),
        ("ottocento hand form", game("ottocento", ["Anna", "Bruno", "Carla", "Dario"])),
        ("combination picker", lambda: (table.points(0, 52), page.click("#combo-add-0"),
                                        table.choose("#combo-kind-sequence"))),
        ("ottocento card by card", table.by_cards),
        ("sheet with a hand", one_hand),
        ("hand explained", lambda: page.click("tr.hand[data-hand='1'] .hand-button")),
        ("delete asked", lambda: page.click("#delete-1")),
        ("forgetting a game asked", lambda: (
            page.goto(table.base + "/#/"), page.click("#game-list .forget >> nth=0"))),
        ("club", club),
        ("club secretary's link shown again", lambda: (
            page.click("#edit-link-show"), page.click("#edit-link-yes"))),
        ("club member opened", lambda: page.click("#roster .member-toggle")),
        ("club merge", lambda: page.click("#roster [id^='merge-']")),
        ("club season and its leaders", season),
        ("club game from the roster", lambda: (
            page.click("#club-new-game"), page.click(".roster-chips button >> nth=0"))),
        ("club event from the roster", lambda: (
            page.go_back(), page.click("#club-new-event"),
            page.click(".roster-chips button >> nth=1"))),
        ("club event with duplicate deals", lambda: (
            page.locator("label:has(#deals-duplicate)").click(),
            page.wait_for_selector("#event-boards"))),
        ("club member's page", member_page),
    ]


# Every language the page speaks, and both colour schemes: each screen in three runs.
@pytest.mark.parametrize("locale,scheme", [("it-IT", "light"), ("en-GB", "dark"),
                                           ("fr-FR", "light")])
def test_every_screen_passes_axe(phones: Any, locale: str, scheme: str) -> None:
    phone = phones(locale, scheme)
    table = Table(phone.page, phone.base)
    found = {}
    for name, reach in _screens(table):
        reach()
        phone.page.wait_for_timeout(100)  # the form's live checks and preview settle
        found[name] = violations(phone.page)
    assert {name: v for name, v in found.items() if v} == {}
