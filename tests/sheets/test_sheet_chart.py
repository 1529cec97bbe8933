"""docs/clubs.md#pictures on the printed sheet: a chart of the running
totals, one line per column (Ottocento: the race to 800 with its line; Mitigatti: the
balances in marca with the zero line), drawn by reportlab's graphics, its figures also in
words. The chart's points are the sheet's own totals; in the PDF each line is drawn through
them (read back from the page's drawing operators)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sheet_samples import SAMPLES, long_mitigatti
from sheet_support import pdf_reader, pdf_text

from service.application.games import GameView
from service.application.printouts import Chart, Sheet, build_sheet
from service.locale import decimal
from service.pdf import render_sheet
from service.pdf.chart import axis_scale, line_style


def _sheet_totals(sheet: Sheet, start: int) -> list[list[int]]:
    """Each column's running total (balance, in marca) after each hand, as the sheet's
    "total" ("balance") rows print them; a hand thrown in moves nothing."""
    out: list[list[int]] = [[start] for _ in _chart(sheet).lines]
    for hand in sheet.hands:
        rows = [row for row in hand.rows if row.kind == "total"]
        for k, values in enumerate(out):
            entry = rows[-1].cells[k] if rows else None
            values.append(values[-1] if entry is None or entry.points is None
                          else entry.points)
    return [values[1:] for values in out]


def _chart(sheet: Sheet) -> Chart:
    assert sheet.chart is not None
    return sheet.chart


@pytest.mark.parametrize("name", list(SAMPLES))
def test_pictures_the_charts_points_are_the_sheets_totals(
        name: str, sample_views: dict[str, GameView]) -> None:
    view = sample_views[name]
    sheet = build_sheet(view)
    chart = _chart(sheet)
    players = [c for c in sheet.columns if c.key != "pot"]
    assert [line.label for line in chart.lines] == [c.label for c in players]
    start = 10 if chart.reference == 0 else 0
    assert all(line.values[0] == start for line in chart.lines)
    assert [list(line.values[1:]) for line in chart.lines] == _sheet_totals(sheet, start)
    # and where each line ends is where the game stands (its totals, or its balances)
    ledger = view.summary.ledger
    standing = dict(ledger.balances if ledger is not None else view.summary.totals)
    assert [line.values[-1] for line in chart.lines] == [standing[c.key] for c in players]


def test_pictures_ottocento_is_the_race_to_800_with_its_line(
        sample_views: dict[str, GameView]) -> None:
    chart = _chart(build_sheet(sample_views["ottocento"]))
    assert chart.reference == 800
    assert chart.title == "The race to 800" and chart.reference_label == "target 800"
    assert [line.values for line in chart.lines] == [(0, 245, 498, 558, 568),
                                                     (0, 173, 543, 634, 834)]
    italian = _chart(build_sheet(sample_views["ottocento"], "it"))
    assert italian.title == "La corsa a 800" and italian.reference_label == "obiettivo 800"


def test_pictures_mitigatti_charts_the_balances_in_marca_with_the_zero_line(
        sample_views: dict[str, GameView]) -> None:
    chart = _chart(build_sheet(sample_views["mitigatti-4"]))
    assert chart.reference == 0 and chart.unit == "marca"
    assert chart.title == "Balances in marca, hand by hand"
    assert [line.values for line in chart.lines] == [(10, 6, 6, 4, 8), (10, 20, 20, 18, 16),
                                                     (10, 6, 6, 4, 4), (10, 8, 8, 14, 12)]


def test_pictures_a_game_of_points_has_no_line_to_reach(
        sample_views: dict[str, GameView]) -> None:
    chart = _chart(build_sheet(sample_views["gatti-3"]))
    assert chart.reference is None and chart.title == "Running totals, hand by hand"


def test_pictures_the_figures_are_also_in_words(sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["mitigatti-4"], "it")
    assert _chart(sheet).words[1] == "Bruno, all'inizio e dopo ogni mano: 10, 20, 20, 18, 16"
    assert "Bruno, all'inizio e dopo ogni mano: 10, 20, 20, 18, 16" in sheet.text()


def test_pictures_an_empty_game_has_no_chart(sheet_service: Any) -> None:
    created = sheet_service.create_game("ottocento", None, ["A", "B", "C", "D"], 2)
    view = sheet_service.get_game(created.view.id, created.edit_token)
    sheet = build_sheet(view)
    assert sheet.chart is None
    assert "The race to" not in pdf_text(render_sheet(sheet))


# -- the PDF ---------------------------------------------------------------------------------

_NUMBER = r"-?[\d.]+"


def _stroke(color: Any) -> str:
    """A colour as reportlab writes a stroke colour into the page (``.121569 … RG``)."""
    def figure(value: float) -> str:
        text = f"{value:.6f}".rstrip("0").rstrip(".")
        return text[1:] if text.startswith("0.") else text
    return " ".join(figure(v) for v in (color.red, color.green, color.blue)) + " RG"


def _drawn_lines(data: bytes, chart: Chart) -> list[list[tuple[float, float]]]:
    """Each chart line's vertices as the PDF draws them: the path after the line's colour."""
    contents = "".join(page.get_contents().get_data().decode("latin-1")
                       for page in pdf_reader(data).pages)
    out = []
    for k in range(len(chart.lines)):
        color, _dash = line_style(k)
        at = contents.find(_stroke(color))
        assert at >= 0, f"line {k} is not drawn"
        path = re.match(rf"[^n]*n ((?:{_NUMBER} {_NUMBER} [ml]\s+)+)S", contents[at:])
        assert path is not None, contents[at:at + 300]
        numbers = [float(v) for v in re.findall(_NUMBER, path.group(1))]
        out.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return out


@pytest.mark.parametrize("name", ["ottocento", "mitigatti-4", "gatti-4"])
def test_pictures_the_pdf_draws_each_line_through_the_sheets_totals(
        name: str, sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views[name])
    chart = _chart(sheet)
    data = render_sheet(sheet)
    drawn = _drawn_lines(data, chart)
    for line, points in zip(chart.lines, drawn, strict=True):
        assert len(points) == len(line.values)
        xs = [x for x, _y in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # one point per hand, in order
    # the y of every point is the value on one scale shared by every line
    ys = [y for points in drawn for _x, y in points]
    flat = [v for line in chart.lines for v in line.values]
    scale = (max(ys) - min(ys)) / (max(flat) - min(flat))
    for y, value in zip(ys, flat, strict=True):
        assert y - min(ys) == pytest.approx((value - min(flat)) * scale, abs=0.01)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_pictures_the_pdf_prints_the_charts_words(lang: str,
                                                 sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["ottocento"], lang)
    text = pdf_text(render_sheet(sheet))
    chart = _chart(sheet)
    for words in (chart.title, chart.reference_label, chart.hand_label, *chart.words):
        assert words in text, (words, text)
    assert "Bruno & Dario 834" in text and "Anna & Carla 568" in text  # each line's end


def test_pictures_a_long_evening_is_charted_whole(stored: Any) -> None:
    view = stored(long_mitigatti())
    sheet = build_sheet(view)
    chart = _chart(sheet)
    assert all(len(line.values) == len(view.hands) + 1 for line in chart.lines)
    drawn = _drawn_lines(render_sheet(sheet), chart)
    assert [len(points) for points in drawn] == [len(view.hands) + 1] * len(chart.lines)


def test_pictures_the_figures_axis_has_round_steps_never_finer_than_the_figures() -> None:
    """A single figure of 24 points gets 23, 24, 25 — never 23.5 24 24.5 25 —; tenths get
    tenths at the finest; about five steps of 1, 2 or 5 times a power of ten."""
    assert axis_scale([24.0], 0)[2] == [23, 24, 25]
    assert axis_scale([24.0, 25.0], 0)[2] == [24, 25]
    assert axis_scale([1.5, 1.7], 1)[2:] == ([1.5, 1.6, 1.7], 1)
    assert axis_scale([0.0, 9.0], 0)[2] == [0, 2, 4, 6, 8, 10]
    assert axis_scale([980.0, 1032.0], 0)[2] == [980, 1000, 1020, 1040]


def test_pictures_the_figures_axis_is_written_as_the_sheets_language_writes_numbers() -> None:
    assert [decimal(1.5, lang, 1) for lang in ("it", "fr", "en")] == ["1,5", "1,5", "1.5"]
    assert decimal(-2, "it", 0) == "−2"
