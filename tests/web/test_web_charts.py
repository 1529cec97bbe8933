"""docs/clubs.md#pictures on the phone page's sheet: a chart of the running
totals drawn by the page (SVG, no library), one line per column — Ottocento's race with the
target line, Mitigatti's balances in marca with the zero line — in the page's colours in
either scheme, and the same figures as a table a screen reader reads (axe: nothing serious).

The games are played through the API (hands entered by points) and read on a phone: the
chart's points are checked against the sheet's own running figures in the DOM."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call
from playwright.sync_api import expect
from test_web_accessibility import violations

FOUR = ["Anna", "Bruno", "Carla", "Dario"]


def _game(base: str, variant: str, players: list[str], hands: list[dict[str, Any]]) -> str:
    """A game played through the API; its read link on this server."""
    game = call(base, "POST", "/games", None, {"variant": variant, "players": players})
    for record in hands:
        call(base, "POST", f"/games/{game['id']}/hands", game["tokens"]["edit"], record)
    link: str = game["links"]["read"]
    return re.sub(r"^https?://[^/#]+", base, link)


def _gatti(base: str) -> str:
    return _game(base, "gatti-3", ["Anna", "Bruno", "Carla"], [
        {"dealer": 0, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]},
        {"dealer": 1, "piles": [{"side": 0, "points": 10}, {"side": 1, "points": 50}]},
        {"dealer": 2, "piles": [{"side": 0, "points": 30}, {"side": 1, "points": 25}]}])


def _ottocento(base: str) -> str:
    return _game(base, "ottocento", FOUR, [
        {"dealer": 0, "last_trick": 0, "piles": [{"side": 0, "points": 52}]},
        {"dealer": 1, "last_trick": 1, "declarations": [
            {"seat": 3, "kind": "cricca", "cards": ["QS", "QH", "QD", "QC"]}],
         "piles": [{"side": 0, "points": 30}]}])


def _mitigatti(base: str) -> str:
    return _game(base, "mitigatti-4", FOUR, [
        {"dealer": 0, "contract": {"type": "solo", "declarer": 1},
         "piles": [{"side": 0, "points": 50}]},
        {"dealer": 1, "thrown_in": True},
        {"dealer": 1, "contract": {"type": "solo", "declarer": 2},
         "piles": [{"side": 0, "points": 20}]}])


def _figure(text: str) -> int:
    """The figure a cell shows ("Σ 40", "−2", "95 ★")."""
    found = re.search(r"[−-]?\d+", text)
    assert found is not None, text
    return int(found.group().replace("−", "-"))


def _lines(page: Any) -> list[dict[str, Any]]:
    """Each line of the chart: its column, its figures and its points as drawn, each put back
    at its figure's height from the few pixels it was drawn apart from the other lines with
    the same figure there (``data-apart``, which the tests of those lines check)."""
    return page.eval_on_selector_all("#chart polyline", """lines => lines.map(l => {
        const apart = l.dataset.apart.split(",").map(Number);
        return { col: l.dataset.col, values: l.dataset.values.split(",").map(Number),
          points: l.getAttribute("points").split(" ").map(p => p.split(",").map(Number))
            .map(([x, y], i) => [x, y - apart[i]]) }; })""")


def _height_of(lines: list[dict[str, Any]]) -> Any:
    """The height a figure is drawn at, worked out from the lowest and highest points drawn:
    every other point, and any line across, must then fall on the same scale."""
    drawn = [(v, y) for line in lines for v, (_x, y) in zip(line["values"], line["points"],
                                                            strict=True)]
    (low, bottom), (high, top) = min(drawn), max(drawn)
    return lambda value: bottom + (top - bottom) * (value - low) / (high - low)


def _sheet_figures(page: Any, start: int) -> dict[str, list[int]]:
    """Each column's figures as the sheet's table shows them: the start, the running figure
    under every hand, then the foot's."""
    out: dict[str, list[int]] = {}
    for row in page.locator("tr.hand").all():
        for cell in row.locator("td[data-col]").all():
            key = cell.get_attribute("data-col")
            out.setdefault(key, [start]).append(_figure(cell.locator(".running").inner_text()))
    for key, figures in out.items():
        assert figures[-1] == _figure(page.locator(f"td[data-total='{key}']").inner_text())
    return out


def test_pictures_the_sheets_chart_is_its_running_totals(phones: Any) -> None:
    phone = phones()
    page = phone.page
    page.goto(_gatti(phone.base))
    expect(page.locator("#chart h2")).to_have_text("Running totals, hand by hand")
    lines = _lines(page)
    assert {line["col"]: line["values"] for line in lines} == _sheet_figures(page, 0)
    assert [line["values"] for line in lines] == [[0, 40, 50, 80], [0, 20, 70, 95],
                                                   [0, 18, 36, 59]]
    # drawn to one scale: each point's height is its figure's
    height = _height_of(lines)
    for line in lines:
        xs = [x for x, _y in line["points"]]
        assert xs == sorted(xs) and len(set(xs)) == 4  # the start and three hands, in order
        for (_x, y), value in zip(line["points"], line["values"], strict=True):
            assert abs(y - height(value)) < 0.05
    expect(page.locator("#chart .reference")).to_have_count(0)  # no line to reach
    expect(page.locator("#chart .chart-key li")).to_have_text(["Anna 80", "Bruno 95",
                                                               "Carla 59"])


def test_pictures_the_figures_are_a_table_for_a_screen_reader(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    page.goto(_gatti(phone.base))
    expect(page.locator("#chart svg.chart-svg")).to_have_attribute("aria-hidden", "true")
    table = page.get_by_role("table", name=re.compile("^Totali progressivi, mano per mano: "))
    expect(table).to_have_count(1)
    expect(table.locator("thead th")).to_have_text(["Mano", "Anna", "Bruno", "Carla"])
    expect(table.locator("tbody th")).to_have_text(["Inizio", "Mano 1", "Mano 2", "Mano 3"])
    expect(table.locator("tbody tr").last.locator("td")).to_have_text(["80", "95", "59"])


def test_pictures_ottocento_is_the_race_to_800_with_its_line(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    page.goto(_ottocento(phone.base))
    expect(page.locator("#chart h2")).to_have_text("La corsa a 800")
    expect(page.locator("#chart .reference-label")).to_have_text("obiettivo 800")
    lines = _lines(page)
    assert {line["col"]: line["values"] for line in lines} == _sheet_figures(page, 0)
    assert [line["values"] for line in lines] == [[0, 58, 88], [0, 35, 126]]
    # the target is in the picture, above every line, on the lines' scale
    assert float(page.get_attribute("#chart svg.chart-svg", "data-high")) == 800
    level = float(page.get_attribute("#chart .reference", "y1"))
    assert abs(level - _height_of(lines)(800)) < 0.05


def test_pictures_mitigatti_charts_the_balances_with_the_zero_line(phones: Any) -> None:
    phone = phones()
    page = phone.page
    page.goto(_mitigatti(phone.base))
    expect(page.locator("#chart h2")).to_have_text("Balances in marca, hand by hand")
    expect(page.locator("#chart .reference-label")).to_have_text("zero")
    lines = _lines(page)
    figures = _sheet_figures(page, 10)
    assert {line["col"]: line["values"] for line in lines} == figures
    assert all(line["values"][0] == 10 for line in lines)
    assert lines[0]["values"][2] == lines[0]["values"][1]  # the hand thrown in moves nothing
    level = float(page.get_attribute("#chart .reference", "y1"))
    assert abs(level - _height_of(lines)(0)) < 0.05  # the zero line, on the lines' scale


def test_pictures_no_chart_before_the_first_hand(phones: Any) -> None:
    phone = phones()
    page = phone.page
    page.goto(_game(phone.base, "ottocento", FOUR, []))
    expect(page.locator("#new-hand, .badge.read").first).to_be_visible()
    expect(page.locator("#chart")).to_have_count(0)


def test_pictures_the_chart_passes_axe_in_both_schemes(phones: Any) -> None:
    for locale, scheme in (("en-GB", "light"), ("it-IT", "dark")):
        phone = phones(locale, scheme)
        page = phone.page
        for link, lines in ((_ottocento(phone.base), 2), (_mitigatti(phone.base), 4)):
            page.goto(link)
            expect(page.locator("#chart polyline")).to_have_count(lines)
            assert violations(page) == [], (locale, scheme, link)
