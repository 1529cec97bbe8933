"""docs/clubs.md#pictures on a season's printed standings: "the season's
standings: a table, and a chart of the top places evening by evening", drawn by reportlab's
graphics with the figures also in words. The chart's lines are the season's leaders (its
first five rows), each through the match points the standings counted after each evening."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from sheet_support import pdf_reader, pdf_text

from service.application.language import Speaker
from service.application.printouts import Chart, StandingsSheet, build_season_sheet
from service.domain import ClubResult, SeasonStandings, season_standings, validate_season
from service.domain.clubs import places
from service.locale import translations
from service.pdf import render_standings
from service.pdf.chart import line_style

ROSTER = [("a", "Anna"), ("b", "Bruno"), ("c", "Carla"), ("d", "Dario"), ("e", "Elena"),
          ("f", "Franco")]
NAMES = dict(ROSTER)
#: Each evening a stand-alone game of players on their own, their totals in seat order.
EVENINGS = [{"a": 30, "b": 20, "c": 10}, {"d": 40, "e": 30, "f": 20}, {"a": 20, "d": 10},
            {"c": 10, "e": 20, "b": 30}, {"a": 10, "b": 20, "c": 30, "d": 40}]


def _rows() -> list[ClubResult]:
    rows = []
    for day, scores in enumerate(EVENINGS, start=2):
        totals = tuple(scores.values())
        for seat, member in enumerate(scores):
            place, shared = places(totals)[seat]
            rows.append(ClubResult(
                club="k", game=f"g{day}", seat=seat, member=member, counted_for=member,
                event=None, round=None, table=None, family="gatti", variant="gatti-x",
                finished_at=dt.datetime(2026, 3, day, 22, tzinfo=dt.UTC), column=seat,
                place=place, shared=shared, partners=(), opponents=(), totals=totals,
                hands=3, marca=None, state="finished"))
    return rows


def _sheet(lang: str = "en", **counting: object) -> tuple[SeasonStandings, StandingsSheet]:
    season = validate_season({"name": "Primavera", "from": "2026-03-01", "to": "2026-05-31",
                              **counting}, ("gatti",))
    found = season_standings(season, _rows(), ROSTER)
    names = [NAMES[m] for m in found.members]
    sheet = build_season_sheet("Circolo", season, found, names, lang,
                               dt.datetime(2026, 6, 1, tzinfo=dt.UTC),
                               Speaker(lang, None, translations(lang)), "season.pdf")
    return found, sheet


def _chart(sheet: StandingsSheet) -> Chart:
    assert sheet.chart is not None
    return sheet.chart


def test_pictures_the_seasons_chart_follows_its_first_five_rows_evening_by_evening() -> None:
    found, sheet = _sheet()
    chart = _chart(sheet)
    rows = found.standings.rows
    assert len(rows) == 6 and len(chart.lines) == 5
    assert [line.label for line in chart.lines] == [
        NAMES[found.members[r.entrant]] for r in rows[:5]]
    # Bruno: 2 (second of three), nothing on the 2nd and 3rd evenings, 4, then 2 at four.
    bruno = next(line for line in chart.lines if line.label == "Bruno")
    assert bruno.values == (0, 2, 2, 2, 6, 8)
    assert chart.title == "The top 5, evening by evening" and chart.hand_label == "evenings"
    assert "Bruno, at the start and after each evening: 0, 2, 2, 2, 6, 8" in sheet.text()


def _figure(value: float) -> str:
    """A colour's part as reportlab writes a stroke colour into the page (``.121569``)."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text[1:] if text.startswith("0.") else text


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_pictures_the_printed_standings_draw_the_chart_and_say_its_figures(lang: str) -> None:
    _found, sheet = _sheet(lang)
    chart = _chart(sheet)
    data = render_standings(sheet)
    text = pdf_text(data)
    for words in (chart.title, chart.hand_label, chart.unit, *chart.words):
        # The text read back from the PDF has its spaces as one (French's narrow no-break
        # space before a colon too).
        assert " ".join(words.split()) in text, (words, text)
    contents = "".join(page.get_contents().get_data().decode("latin-1")
                       for page in pdf_reader(data).pages)
    for k, line in enumerate(chart.lines):  # each line in its colour, through every evening
        color, _dash = line_style(k)
        stroke = " ".join(_figure(v) for v in (color.red, color.green, color.blue)) + " RG"
        at = contents.find(stroke)
        assert at >= 0, f"line {k} is not drawn"
        path = re.match(r"[^n]*n ((?:-?[\d.]+ -?[\d.]+ [ml]\s+)+)S", contents[at:])
        assert path is not None and len(re.findall(r"[ml]", path.group(1))) == len(line.values)


def test_pictures_an_average_line_starts_at_the_members_first_evening() -> None:
    _found, sheet = _sheet(counting="average")
    chart = _chart(sheet)
    dario = next(line for line in chart.lines if line.label == "Dario")
    assert dario.values[:2] == (None, None) and dario.values[-1] is not None
    assert "Dario, at the start and after each evening: –, –, 4.0" in sheet.text()
    assert "Dario" in pdf_text(render_standings(sheet))


def test_pictures_a_season_with_no_evening_prints_no_chart() -> None:
    season = validate_season({"name": "Estate", "from": "2026-07-01", "to": "2026-08-31"},
                             ("gatti",))
    found = season_standings(season, _rows(), ROSTER)
    sheet = build_season_sheet("Circolo", season, found, [], "en",
                               dt.datetime(2026, 9, 1, tzinfo=dt.UTC),
                               Speaker("en", None, translations("en")), "season.pdf")
    assert sheet.chart is None and found.leaders == ()
    assert "evening by evening" not in pdf_text(render_standings(sheet))


def test_pictures_the_seasons_chart_counts_an_evening_a_day() -> None:
    """Two stand-alone games of one day are one evening of the chart: the leaders' figures
    at the start and after each day, the day's last game's."""
    rows = [dataclasses.replace(r, finished_at=dt.datetime(2026, 3, 2, 23, tzinfo=dt.UTC))
            if r.game == "g3" else r for r in _rows()]
    season = validate_season({"name": "Primavera", "from": "2026-03-01", "to": "2026-05-31"},
                             ("gatti",))
    found = season_standings(season, rows, ROSTER)
    names = [NAMES[m] for m in found.members]
    sheet = build_season_sheet("Circolo", season, found, names, "it",
                               dt.datetime(2026, 6, 1, tzinfo=dt.UTC),
                               Speaker("it", None, translations("it")), "season.pdf")
    assert len(found.evenings) == 5
    assert sheet.subtitle == "Dopo 4 serate"
    by_game = {line.entrant: line.values for line in found.leaders}
    chart = _chart(sheet)
    for line in found.leaders:
        drawn = next(c for c in chart.lines if c.label == names[line.entrant])
        assert drawn.values == (by_game[line.entrant][0], *by_game[line.entrant][2:])


def test_pictures_the_seasons_averages_are_written_as_the_language_writes_them() -> None:
    _found, sheet = _sheet("it", counting="average")
    words = " ".join(_chart(sheet).words)
    assert re.search(r"\d,\d", words) and not re.search(r"\d\.\d", words)
