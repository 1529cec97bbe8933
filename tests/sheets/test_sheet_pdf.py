"""The sheet as a PDF (service.pdf.render): its text as pypdf extracts it — names, marks with
their suit symbols, totals, Italian labels, explanation lines —, the embedded DejaVu font,
escaped names, page breaks and the landscape page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from sheet_samples import SAMPLES, Sample, long_mitigatti, long_ottocento, play
from sheet_support import pdf_fonts, pdf_pages, pdf_reader, pdf_text

from service.application.games import GameView
from service.application.printouts import Entry, Row, Sheet, SheetColumn, build_sheet
from service.pdf import render_sheet

#: What each sample's sheet must show: its columns' names, marks, and final figures.
EXPECTED: dict[str, list[str]] = {
    "gatti-3": ["Anna", "Bruno", "Carla", "20 F", "10 T", "1 T", "5 K", "10 ♦", "10 ♥",
                "10 G", "20 B", "Total 152 136 83", "Winner: Anna"],
    "gatti-4": ["Anna & Carla", "Bruno & Dario", "15 F", "10 ♠", "8 T", "5 Q", "10 K",
                "20 B", "10 ♥", "10 G", "Total 185 220", "Winners: Bruno & Dario"],
    "gatti-4-call": ["Anna called KH: partner Carla", "16 F", "5 Q", "10 K", "10 ♦", "8 T",
                     "Total 214 153 214 159", "Winners, level: Anna and Carla"],
    "gatti-classic-4": ["dealer Bruno", "16 F", "10 ♦", "10 G", "5 C", "−20 B", "10 ♣",
                        "captured melds", "trick points", "Total 189 345"],
    "ottocento": ["17 3K", "15 ♠4", "18 3Tar", "25 ♥6", "70 ×2", "to 800", "card points",
                  "10 M3†", "Total 568 834", "during the declarations of hand 4 (R13)"],
    "mitigatti-4": ["Anna called KH: partner Carla", "partida", "Bagatte ultimu",
                    "Dario played solo sans prendre", "Marca ledger", "0.50 a marca",
                    "Carla pays Bruno 6 marca (€3.00)", "Thrown in (to the mountain)"],
    "mitigatti-3": ["Pot", "Carla collected 1 marca from the pot in hand 3.",
                    "Carla pays Anna 2 marca", "balance 12 10 8"],
}


@pytest.fixture(scope="module")
def pdfs(sample_views: dict[str, GameView]) -> dict[tuple[str, str, bool], bytes]:
    cache: dict[tuple[str, str, bool], bytes] = {}

    def render(name: str, lang: str, detail: bool) -> bytes:
        key = (name, lang, detail)
        if key not in cache:
            cache[key] = render_sheet(build_sheet(sample_views[name], lang, detail=detail))
        return cache[key]

    cache_fn: Any = render
    return cache_fn  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_sheet_shows_names_marks_and_totals(name: str, pdfs: Any,
                                                 sample_views: dict[str, GameView]) -> None:
    data = pdfs(name, "en", False)
    assert data.startswith(b"%PDF-")
    text = pdf_text(data)
    for expected in EXPECTED[name]:
        assert expected in text, (expected, text)
    view = sample_views[name]
    assert view.id in text
    for player in view.setup.players:
        assert player in text


@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_font_is_embedded(name: str, pdfs: Any) -> None:
    fonts = pdf_fonts(pdfs(name, "it", True))
    assert fonts, "no fonts"
    for base, descriptor in fonts.items():
        assert "DejaVuSans" in base, base  # no base-14 font the reader would substitute
        assert re.fullmatch(r"/[A-Z]{6}\+DejaVuSans(-Bold)?", base), base  # a subset
        assert descriptor is not None and "/FontFile2" in descriptor, base


def test_italian_labels_accents_and_the_fool(pdfs: Any) -> None:
    text = pdf_text(pdfs("gatti-3", "it", True))
    for label in ("Foglio segnapunti", "Gatti a tre", "Mano", "mazziere Anna", "buone",
                  "punti di mazzo", "totale", "Totale", "Vince Anna", "Giocatori, in ordine di gioco",
                  "Primo mazziere", "La partita è finita dopo le sue 3 mani (R10).",
                  "Anna: buona dichiarata, 20 frilli: 20", "terno di re", "quaterno di re",
                  "famiglia di ♦", "gatti", "Segni", "pagina 1 di"):
        assert label in text, label
    assert "e Matto)" in text  # the Fool among the counting cards of the explanations
    assert "Score sheet" not in text and "dealer" not in text


def test_italian_ottocento_and_mitigatti(pdfs: Any) -> None:
    otto = pdf_text(pdfs("ottocento", "it", True))
    for label in ("dichiarate", "in presa", "punti carte", "a 800", "una cricca di tre re",
                  "sequenza di 4 ♠ (seme)", "valgono doppio", "non contato"):
        assert label in otto, label
    miti = pdf_text(pdfs("mitigatti-4", "it", False))
    for label in ("Conto delle marche", "saldo", "accuse", "A monte", "denaro",
                  "Per saldare", "0,50 € a marca"):
        assert label in miti, label


def test_detail_adds_each_hands_explanation_lines(pdfs: Any,
                                                  sample_views: dict[str, GameView]) -> None:
    plain = pdf_text(pdfs("gatti-3", "en", False))
    detailed = pdf_text(pdfs("gatti-3", "en", True))
    line = "Anna declared 20 frilli: 20 (§2.4)"
    assert line not in plain and line in detailed
    assert "How each point was scored" not in plain
    assert "Hand 1, dealer Anna" in detailed
    assert "Bruno declared 11 trumps, worth 11: 1 more than the 10 already scored for it " \
           "(R1)" in detailed
    assert "Carla lost the last trick with T1: 10 to Anna (§2.5)" in detailed


def test_names_are_printed_as_typed(sheet_service: Any) -> None:
    long_name = "Giovanni" + "x" * 52
    players = ["<b>Anna</b> & Co", "Bruno \"il Rosso\" <Neri>", long_name]
    sample = Sample("gatti-3", tuple(players), SAMPLES["gatti-3"].hands)
    view, _, _ = play(sheet_service, sample)
    for lang in ("en", "it"):
        text = pdf_text(render_sheet(build_sheet(view, lang, detail=True)))
        assert "<b>Anna</b> & Co" in text
        assert "Bruno \"il Rosso\" <Neri>" in text
        # A long name wraps inside its column, with no character lost.
        assert long_name in text.replace(" ", "")


def test_a_forty_hand_evening_breaks_into_pages(stored: Callable[[Sample], GameView]) -> None:
    view = stored(long_mitigatti())
    assert len(view.hands) == 40
    data = render_sheet(build_sheet(view, "en"))
    pages = pdf_pages(data)
    assert len(pages) >= 3
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
        assert "Hand Anna Bruno Carla Dario" in page  # the column header on every page
    text = " ".join(pages)
    names = view.setup.seat_names()
    # Every hand once, in order...
    dealer = r"(?<!First )(?<!next )dealer (\w+)"  # not the header's first and next dealer
    assert re.findall(dealer, text) == [names[h.dealer] for h in view.hands]
    # ... and none split: on each page, each hand begun is ended (its balance row, or the
    # note of a deal thrown in); the last page also has the ledger's balance row.
    for number, page in enumerate(pages, start=1):
        ended = page.count("balance ") + page.count("Thrown in") - (number == len(pages))
        assert len(re.findall(dealer, page)) == ended, number
    final = dict(view.summary.ledger.balances)  # type: ignore[union-attr]
    assert f"balance {' '.join(str(final[s]) for s in '0123')}" in pages[-1]


def test_a_long_rubber_with_explanations_breaks_into_pages(
        stored: Callable[[Sample], GameView]) -> None:
    view = stored(long_ottocento())
    assert view.summary.finished and len(view.hands) == 12
    pages = pdf_pages(render_sheet(build_sheet(view, "it", detail=True)))
    assert len(pages) >= 3
    text = " ".join(pages)
    assert [int(n) for n in re.findall(r"Mano (\d+), mazziere", text)] == list(range(1, 13))
    assert "Totale 882 810" in text


def _wide_sheet(columns: int) -> Sheet:
    cols = tuple(SheetColumn(str(k), f"Player {k}", f"seat {k}") for k in range(columns))
    row = Row("deck points", "deck", tuple(Entry(str(10 + k), "", points=10 + k)
                                           for k in range(columns)))
    from service.application.printouts import HandBlock

    hand = HandBlock(1, "dealer Player 0", (), (row,))
    return Sheet(lang="en", title="Score sheet", variant="A wide game", meta=(("Game", "x"),),
                 columns=cols, hand_label="Hand", hands=(hand,), final=(), outcome=(),
                 sections=(), legend_title="Marks", legend=(), footer="Segnapunti",
                 page_label="page {page} of {pages}", filename="x.pdf")


@pytest.mark.parametrize(("columns", "landscape"), [(4, False), (6, False), (8, True)])
def test_landscape_when_the_columns_need_it(columns: int, landscape: bool) -> None:
    data = render_sheet(_wide_sheet(columns))
    box = pdf_reader(data).pages[0].mediabox
    assert (float(box.width) > float(box.height)) is landscape
    assert f"Player {columns - 1}" in pdf_text(data)


def test_an_empty_game_prints(sheet_service: Any) -> None:
    created = sheet_service.create_game("ottocento", None, ["A", "B", "C", "D"], 2)
    view = sheet_service.get_game(created.view.id, created.edit_token)
    text = pdf_text(render_sheet(build_sheet(view, "en")))
    assert "No hand has been played yet." in text
    assert "in progress; next dealer C" in text


def test_the_font_and_its_licence_are_installed_with_the_package() -> None:
    """pyproject.toml's package data covers the fonts (a `pip install .` without them could
    print no sheet) and the licence they are shipped under."""
    import fnmatch
    import tomllib
    from pathlib import Path

    from service.pdf.render import FONTS

    config = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service.pdf"]
    files = sorted(path.name for path in FONTS.iterdir())
    assert files == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "LICENSE.txt"]
    for name in files:
        assert any(fnmatch.fnmatch(f"fonts/{name}", p) for p in patterns), name
