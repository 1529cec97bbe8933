"""A club's charts on a phone 360 px wide, as a season is played: games of the club made
through the API, then the member's page and the season's standings opened in Italian (and
French). No screen is wider than the phone (a chart's figures for a screen reader are a table
kept in a box one pixel wide); a single month is a bar with its figure written on it; the
figures' axis has round steps, whole ones for whole figures, written as the page's language
writes numbers; two leaders with the same figures all along stay two lines (markers of their
own shapes, drawn side by side, said so under the key); an evening is a day, however many
games it held; a rating's certainty is said in words."""

from __future__ import annotations

import os
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

from page_driver import call, club_game, page_module
from playwright.sync_api import expect

#: Where the screenshots go when ``SCREENSHOTS`` names a folder (to look at them by eye).
SHOTS = os.environ.get("SCREENSHOTS")


def _shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _season_played(base: str, counting: str, last: tuple[int, int] = (30, 30)
                   ) -> tuple[str, str, str, dict[str, str]]:
    """A club whose season counts ``counting``, with three games of one day through the API:
    Anna and Bruno level in the first two (and in the last too unless ``last`` says other
    points for them), Carla last. The club's id, its edit token, the season's id and the
    members' ids by name."""
    club = call(base, "POST", "/clubs", body={"name": "Circolo del Giovedì"})
    club_id, edit = club["id"], club["tokens"]["edit"]
    season = call(base, "POST", f"/clubs/{club_id}/seasons", edit, {
        "name": "Autunno", "from": "2026-01-01", "to": "2099-12-31", "counting": counting})
    for anna, bruno in ((30, 30), (30, 30), last):
        game = club_game(base, club_id, edit, anna, bruno)
    ids = dict(zip(["Anna", "Bruno", "Carla"], game["club"]["members"], strict=True))
    return club_id, edit, season["id"], ids


def _open_club(phone: Any, club_id: str, edit: str) -> Any:
    """The club's page on ``phone``, the club's link opened on it (its edit token kept)."""
    page = phone.page
    page.goto(phone.base + f"/#/clubs/{club_id}?token={edit}")
    page.wait_for_selector("#roster")
    return page


def _width(page: Any) -> int:
    return int(page.evaluate("Math.max(document.documentElement.scrollWidth, "
                             "document.body.scrollWidth)"))


def _figure_ticks(page: Any, chart: str) -> list[str]:
    return [str(t) for t in page.locator(f"{chart} text.figure-tick").all_text_contents()]


def test_a_seasons_chart_on_a_phone_is_round_italian_and_keeps_level_leaders_apart(
        phones: Any) -> None:
    phone = phones(locale="it-IT")
    club_id, edit, season, ids = _season_played(phone.base, "average")
    standings = call(phone.base, "GET", f"/clubs/{club_id}/seasons/{season}/standings", edit)
    page = _open_club(phone, club_id, edit)
    page.locator(f"label:has(#season-{season})").click()
    chart = page.locator("#season-chart")
    expect(chart.locator("polyline")).to_have_count(3)
    # Three games of one day are one evening: the start and that day, not three evenings.
    assert len(standings["evenings"]) == 3
    lines = chart.locator("polyline")
    for k, leader in enumerate(standings["leaders"]):
        want = [leader["running"][0], leader["running"][3]]
        expect(lines.nth(k)).to_have_attribute(
            "data-values", ",".join("" if v is None else str(v) for v in want))
    rows = chart.locator(".chart-figures tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator("th")).to_contain_text("Serata 1")
    expect(rows.nth(1).locator("th")).to_contain_text("(3 partite o tornei)")
    # The averages' axis: round steps written with a decimal comma, never a dot.
    ticks = _figure_ticks(page, "#season-chart")
    assert ticks and all(re.fullmatch(r"−?\d+(,\d)?", t) for t in ticks), ticks
    steps = {round(float(b.replace(",", ".").replace("−", "-"))
                   - float(a.replace(",", ".").replace("−", "-")), 6)
             for a, b in pairwise(ticks)}
    assert len(steps) == 1 and steps.pop() in (0.1, 0.2, 0.5, 1, 2, 5), ticks
    # Anna and Bruno, level all season: two lines a few pixels apart, each with markers of
    # its own shape, and said so in words under the key.
    level = [k for k, leader in enumerate(standings["leaders"])
             if leader["member"] in (ids["Anna"], ids["Bruno"])]
    assert len(level) == 2
    first, second = (lines.nth(k).get_attribute("points") for k in level)
    assert first != second
    shapes = {chart.locator(f"polyline.line-{k} ~ .marker.line-{k}").first.get_attribute(
        "data-shape") for k in level}
    assert len(shapes) == 2
    expect(chart.locator(".chart-same")).to_contain_text("Anna e Bruno")
    expect(chart.locator(".chart-same")).to_contain_text("stesse cifre")
    # The ratings' certainty, said in words by the table, and the page as wide as the phone.
    page.locator("label:has(#rating-family-gatti)").click()
    expect(page.locator("#ratings-certainty")).to_contain_text("Certezza: quanto è già assestata")
    expect(page.locator("#ratings-table th[aria-describedby='ratings-certainty']")).to_have_count(1)
    # A percentage as Italian writes it: the sign right after the figure.
    expect(page.locator("#ratings-table tbody tr td:nth-child(4)").first).to_have_text(re.compile(r"^\d+(,\d+)?%$"))
    page.click(f"#rating-{ids['Anna']}")
    page.wait_for_selector("#rating-chart polyline")
    assert _width(page) <= 360
    _shoot(page, "it-season")


def test_a_members_page_on_a_phone_reads_its_month_its_evenings_and_its_rating(
        phones: Any) -> None:
    phone = phones(locale="it-IT")
    club_id, edit, _season, ids = _season_played(phone.base, "sum", last=(31, 29))
    stats = call(phone.base, "GET", f"/clubs/{club_id}/members/{ids['Anna']}/stats", edit)
    month = stats["families"][0]["months"]["months"]
    assert len(month) == 1
    page = _open_club(phone, club_id, edit)
    page.goto(phone.base + f"/#/clubs/{club_id}/members/{ids['Anna']}")
    expect(page.locator("h1")).to_have_text("Anna")
    # One month: a bar with its figure on it, written with a decimal comma.
    months = page.locator("#member-months")
    expect(months.locator("rect.chart-bar")).to_have_count(1)
    assert month[0]["points_per_hand"] == 30.33
    expect(months.locator("text.value")).to_have_text("30,33")
    expect(months.locator(".chart-figures tbody tr")).to_have_count(1)
    # Its axis: whole round steps from zero for figures of points.
    ticks = _figure_ticks(page, "#member-months")
    assert ticks[0] == "0" and all(re.fullmatch(r"\d+", t) for t in ticks), ticks
    # Three games of one day: one evening of three games.
    evenings = page.locator("#member-evenings tbody tr")
    expect(evenings).to_have_count(1)
    expect(evenings.locator("td").first).to_have_text("3")
    expect(page.locator("#member-evenings .hint")).to_contain_text("1 serata in tutto")
    # The rating's certainty in words: how many games it rests on, and that it settles.
    sure = page.locator("#member-rating-sure")
    expect(sure).to_contain_text("dopo 3 partite")
    expect(sure).to_contain_text("si assesta")
    page.wait_for_selector("#member-rating polyline")
    assert _width(page) <= 360
    _shoot(page, "it-member")


def test_the_axis_steps_are_round_and_never_finer_than_the_figures(phones: Any) -> None:
    """A single figure of 24 points gets 23, 24, 25 — never 23,5 24 24,5 25 —; tenths get
    tenths at the finest; French and Italian write the decimals with a comma."""
    written = {}
    for locale in ("fr-FR", "it-IT"):
        phone = phones(locale=locale)
        phone.page.goto(phone.base + "/")
        phone.page.wait_for_selector("#boot", state="attached")
        found = page_module(phone.page, "chart.js", """(m) => ({
            whole: m.scale([24], 0).ticks, twice: m.scale([24, 25], 0).ticks,
            tenths: m.scale([1.5, 1.7], 1).ticks, large: m.scale([980, 1032], 0).ticks,
            digits: m.scale([1.5, 1.7], 1).digits,
            written: [m.number(1.5, 1), m.number(-2), m.number(2.25)] })""")
        assert found["whole"] == [23, 24, 25]
        assert found["twice"] == [24, 25]
        assert found["tenths"] == [1.5, 1.6, 1.7] and found["digits"] == 1
        assert found["large"] == [980, 1000, 1020, 1040]
        written[locale] = found["written"]
    assert written == {"fr-FR": ["1,5", "−2", "2,25"], "it-IT": ["1,5", "−2", "2,25"]}


def test_the_club_screens_fit_a_french_phone_in_both_colour_schemes(phones: Any) -> None:
    for scheme in ("light", "dark"):
        phone = phones(locale="fr-FR", color_scheme=scheme)
        club_id, edit, season, ids = _season_played(phone.base, "sum")
        page = _open_club(phone, club_id, edit)
        page.locator(f"label:has(#season-{season})").click()
        page.wait_for_selector("#season-chart polyline")
        expect(page.locator("#season-chart .chart-same")).to_contain_text("Anna et Bruno")
        assert _width(page) <= 360
        _shoot(page, f"fr-season-{scheme}")
        page.goto(phone.base + f"/#/clubs/{club_id}/members/{ids['Bruno']}")
        page.wait_for_selector("#member-rating polyline")
        expect(page.locator("#member-rating-sure")).to_contain_text("après 3 parties")
        assert _width(page) <= 360
        _shoot(page, f"fr-member-{scheme}")


def test_a_members_marca_balance_is_drawn_evening_by_evening_a_day_each(phones: Any) -> None:
    """Two Mitigatti evenings of one day are one evening of the balance: its marca the two
    games' together."""
    phone = phones(locale="it-IT")
    club = call(phone.base, "POST", "/clubs", body={"name": "Circolo"})
    club_id, edit = club["id"], club["tokens"]["edit"]
    anna = None
    for _ in range(2):
        players: list[Any] = ["Anna", "Bruno", "Carla"] if anna is None else [
            {"member": anna}, "Bruno", "Carla"]
        game = call(phone.base, "POST", "/games", body={
            "variant": "mitigatti-3", "players": players, "club": club_id},
            headers={"Club-Authorization": f"Bearer {edit}"})
        anna = game["club"]["members"][0]
        token = game["tokens"]["edit"]
        call(phone.base, "POST", f"/games/{game['id']}/hands", token, {"dealer": 0, "piles": [
            {"side": 0, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
            {"side": 1, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]})
        call(phone.base, "POST", f"/games/{game['id']}/end", token)
    stats = call(phone.base, "GET", f"/clubs/{club_id}/members/{anna}/stats", edit)
    days = stats["families"][0]["evenings"]["days"]
    assert len(days) == 1 and days[0]["games"] == 2
    page = _open_club(phone, club_id, edit)
    page.goto(phone.base + f"/#/clubs/{club_id}/members/{anna}")
    balance = page.locator("#member-balance")
    expect(balance.locator("polyline")).to_have_attribute("data-values", f"0,{days[0]['balance']}")
    expect(balance.locator(".chart-figures tbody tr")).to_have_count(1)
    expect(page.locator("#member-evenings tbody tr td").first).to_have_text("2")
    assert _width(page) <= 360
