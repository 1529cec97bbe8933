"""Every screen with a chart on a phone 360 px wide is no wider than the phone: the chart's
figures for a screen reader are a table clipped to a pixel, and a table too wide for the
phone (a member's partners) scrolls inside a box of its own, which says so."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from page_driver import call, club_game
from playwright.sync_api import expect
from test_web_charts import _gatti

#: Where the screenshots go when ``SCREENSHOTS`` names a folder (to look at them by eye).
SHOTS = os.environ.get("SCREENSHOTS")


def _width(page: Any, name: str) -> int:
    """How wide the screen is: the page's scrolling width, or the right edge of the widest
    box on it if one reaches further (a box clipped away still counts: the phone's reader
    must not find one there)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
    return int(page.evaluate("""Math.max(document.documentElement.scrollWidth,
        ...[...document.querySelectorAll("main *")].filter((e) => !e.closest(".table-scroll"))
          .map((e) => {
          const box = e.getBoundingClientRect();
          return box.width ? Math.floor(box.right + window.scrollX) : 0; }))"""))


def test_every_screen_with_a_chart_fits_a_phone_360_px_wide(phones: Any) -> None:
    phone = phones(locale="fr-FR")
    page = phone.page
    base = phone.base
    page.goto(_gatti(base))
    page.wait_for_selector("#chart polyline", state="attached")
    assert _width(page, "sheet") <= 360
    club = call(base, "POST", "/clubs", body={"name": "Circolo del Giovedì dei Tarocchi"})
    club_id, edit = club["id"], club["tokens"]["edit"]
    season = call(base, "POST", f"/clubs/{club_id}/seasons", edit, {
        "name": "Autunno", "from": "2026-01-01", "to": "2099-12-31", "counting": "average"})
    for anna, bruno in ((31, 29), (30, 30), (29, 31)):
        game = club_game(base, club_id, edit, anna, bruno)
    anna = game["club"]["members"][0]
    pairs = call(base, "POST", "/games", body={
        "variant": "gatti-4", "club": club_id,
        "players": ["Anna", "Bruno", "Carla Maria Dell'Orto", "Dario Esposito"]},
        headers={"Club-Authorization": f"Bearer {edit}"})
    token = pairs["tokens"]["edit"]
    while (played := call(base, "GET", f"/games/{pairs['id']}", token))["status"] != "finished":
        call(base, "POST", f"/games/{pairs['id']}/hands", token, {
            "dealer": played["next_dealer"],
            "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 32}]})
    page.goto(base + f"/#/clubs/{club_id}?token={edit}")
    page.wait_for_selector("#roster")
    page.locator(f"label:has(#season-{season['id']})").click()
    page.wait_for_selector("#season-chart polyline", state="attached")
    assert _width(page, "season") <= 360
    page.locator("label:has(#rating-family-gatti)").click()
    page.click(f"#rating-{anna}")
    page.wait_for_selector("#rating-chart polyline", state="attached")
    assert _width(page, "rating") <= 360
    page.goto(base + f"/#/clubs/{club_id}/members/{anna}")
    page.wait_for_selector("#member-months rect.chart-bar", state="attached")
    assert _width(page, "member") <= 360
    # The partners' table, wider than the phone, scrolls in its own box, shaded at its edge.
    partners = page.locator("#member-partners .table-scroll")
    expect(partners.locator("tbody tr")).to_have_count(1)
    assert partners.evaluate("(box) => box.scrollWidth > box.clientWidth")
    assert partners.evaluate("(box) => getComputedStyle(box).overflowX") == "auto"
    assert "gradient" in partners.evaluate("(box) => getComputedStyle(box).backgroundImage")


def test_the_season_form_s_date_fields_and_choice_look_like_the_other_fields(
        phones: Any) -> None:
    """The season's dates and its counting are drawn as the page's other fields are (a
    border in ink, round corners, a thumb's height), not in the browser's own grey."""
    phone = phones(locale="it-IT")
    page = phone.page
    club = call(phone.base, "POST", "/clubs", body={"name": "Circolo"})
    page.goto(phone.base + f"/#/clubs/{club['id']}?token={club['tokens']['edit']}")
    page.click("#season-new")
    looks = {id_: page.locator(f"#{id_}").evaluate("""(e) => { const s = getComputedStyle(e);
        return [s.borderTopWidth, s.borderTopStyle, s.borderTopLeftRadius, s.minHeight]; }""")
             for id_ in ("season-name", "season-from", "season-to", "season-counting")}
    _width(page, "season-form")
    assert looks["season-name"] == ["2px", "solid", "10px", "48px"], looks
    assert all(look == looks["season-name"] for look in looks.values()), looks
