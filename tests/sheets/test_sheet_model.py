"""The score sheet as data (service.application.printouts): the marks, rows and totals of each
variant family, that every sheet adds up to the game's own numbers, and the catalogue of
labels in English, Italian and French."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from babel.messages.pofile import read_po
from sheet_samples import SAMPLES, Sample, long_mitigatti, long_ottocento

from service.application.games import GameView
from service.application.i18n import LANGUAGES, Translator
from service.application.language import Speaker
from service.application.printouts import (
    HandBlock,
    Row,
    Sheet,
    build_sheet,
    hand_numbers,
)
from service.domain import Text
from service.locale import __main__ as tool
from service.locale import colon, sheet_words, translations


def cells(row: Row) -> list[str]:
    return [f"{e.text} {e.mark}".strip() if e else "" for e in row.cells]


def rows_of(hand: HandBlock, kind: str) -> list[Row]:
    return [row for row in hand.rows if row.kind == kind]


def column_lines(hand: HandBlock, j: int) -> list[str]:
    """What column ``j`` holds in the hand's mark and point rows, top to bottom."""
    return [cells(row)[j] for row in hand.rows if row.kind in ("line", "deck")
            and row.cells and row.cells[j] is not None]


# -- the catalogue ---------------------------------------------------------------------------


def test_every_label_has_every_language_with_the_same_placeholders() -> None:
    """The sheet's words are a keyed catalogue a language (service/locale/<lang>/LC_MESSAGES/
    sheet.po): every key of the English in every language, no placeholder the English lacks."""
    assert set(LANGUAGES) <= set(tool.keyed_languages("sheet"))
    for lang in LANGUAGES:
        assert tool.keyed_missing("sheet", lang) == [], lang
        assert sheet_words(lang).keys() == sheet_words("en").keys(), lang


def test_the_locale_check_finds_a_missing_sheet_word_or_a_strange_placeholder(
        tmp_path: Any, monkeypatch: Any) -> None:
    source = tool.keyed_path("sheet", "fr").read_text("utf-8")
    for lang in ("en", "fr"):
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "en" / "LC_MESSAGES" / "sheet.po").write_text(
        tool.keyed_path("sheet", "en").read_text("utf-8"), "utf-8")
    cut = source.replace('msgstr "Feuille de marque"', 'msgstr ""').replace(
        'msgstr "donneur {name}"', 'msgstr "donneur {nom}"')
    assert cut.count('msgstr ""') == source.count('msgstr ""') + 1
    (tmp_path / "fr" / "LC_MESSAGES" / "sheet.po").write_text(cut, "utf-8")
    monkeypatch.setattr(tool, "HERE", tmp_path)
    assert tool.keyed_missing("sheet", "fr") == ["hand.dealer", "title"]
    assert tool.keyed_missing("sheet", "en") == []


@pytest.mark.parametrize(("lang", "months"), [
    ("en", ("January February March April May June July August September October November "
           "December")),
    ("it", ("gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre "
           "novembre dicembre")),
    ("fr", ("janvier février mars avril mai juin juillet août septembre octobre novembre "
           "décembre")),
])
def test_dates_are_written_as_each_language_writes_them(lang: str, months: str) -> None:
    """The sheet's dates (its start, its "as of") name the month as the language does, in the
    game's time zone with its abbreviation."""
    written = [Translator(lang).date(datetime(2026, month, 26, 3, 51, tzinfo=UTC), "Europe/Rome")
               for month in range(1, 13)]
    assert [w.split(" ")[1] for w in written] == months.split()
    assert written[0] == f"26 {months.split()[0]} 2026, 04:51 CET"
    assert written[7] == f"26 {months.split()[7]} 2026, 05:51 CEST"


def test_the_catalogues_are_installed_with_the_package() -> None:
    """A `pip install .` without the sheet's catalogues could print no sheet."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())
    assert "*/LC_MESSAGES/*.po" in config["tool"]["setuptools"]["package-data"]["service.locale"]


def test_italian_uses_the_tables_words() -> None:
    italian = sheet_words("it")
    assert italian["col.hand"] == "Mano"
    assert italian["row.melds"] == "buone"
    assert italian["row.deck_points"] == "punti di mazzo"
    assert "mazziere" in italian["hand.dealer"]
    # The melds as the service names them on the page and on the sheet's explanations.
    said = translations("it").gettext
    assert said("four {courts}") == "quaterno di {courts}"
    assert said("three {courts}") == "terno di {courts}"
    assert said("family of {suit}") == "famiglia di {suit}"
    assert italian["note.thrown_in"].startswith("A monte")


def test_french_uses_the_words_of_a_table_in_nice() -> None:
    """French as a table says it (donne, donneur, plis, brelan, carré), Mitigatti's words as
    Cason's article writes them (partida, accusassions, Bagatte ultimu, petar bagatte)."""
    french = sheet_words("fr")
    assert french["title"] == "Feuille de marque"
    assert french["col.hand"] == "Donne"
    assert "donneur" in french["hand.dealer"]
    assert french["row.deck_points"] == "points de plis"
    said = translations("fr").gettext
    assert said("four {courts}") == "carré de {courts}"
    assert said("three {courts}") == "brelan de {courts}"
    assert french["row.partida"] == "partida"
    assert french["row.declaration"] == "accusassions"
    assert french["row.bagatte_ultimu"] == "Bagatte ultimu"
    assert "petar bagatte" in said(
        "{seat} lost the Bagatte in the last trick (petar bagatte): {each} marca to each other "
        "player{doubled}")
    assert "sans prendre" in said("{declarer} played solo sans prendre")


# -- Gatti -----------------------------------------------------------------------------------


def test_gatti_3_prints_the_paper_sheet(sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["gatti-3"])
    assert [c.label for c in sheet.columns] == ["Anna", "Bruno", "Carla"]
    first = sheet.hands[0]
    assert first.dealer == "dealer Anna"
    # R1: ten then eleven trumps are two lines, three then four Kings too (rulebook §2.7).
    assert column_lines(first, 0) == ["20 F", "27"]
    assert column_lines(first, 1) == ["10 T", "1 T", "31"]
    assert column_lines(first, 2) == ["5 K", "5 K", "20"]
    assert [row.label for row in first.rows] == ["melds", "", "deck points", "for the hand",
                                              "total"]
    assert cells(rows_of(first, "hand")[0]) == ["47", "42", "30"]
    second = sheet.hands[1]
    assert column_lines(second, 2) == ["10 ♦", "20"]
    # Bagatto ultimo lost by Carla: 10 to each opponent, mark B.
    assert "10 B" in column_lines(second, 0) and "10 B" in column_lines(second, 1)
    third = sheet.hands[2]
    assert column_lines(third, 0)[:2] == ["10 G", "20 B"]
    assert column_lines(third, 1)[:2] == ["21 F", "10 ♥"]
    assert cells(sheet.final[0]) == ["152", "136", "83"]
    assert sheet.final[0].cells[0].style == "winner"  # type: ignore[union-attr]
    assert sheet.outcome == ("Winner: Anna", "The game ended after its 3 hands (R10).")
    marks = dict(sheet.legend)
    assert {"F", "T", "G", "B"} <= set(marks) and "♦ ♥" not in marks


def test_gatti_classic_prints_captured_melds_and_a_negative_bagatto(
        sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["gatti-classic-4"])
    assert [c.label for c in sheet.columns] == ["Anna & Carla", "Bruno & Dario"]
    first = sheet.hands[0]
    assert first.dealer == "dealer Bruno"
    labels = [row.label for row in first.rows if row.label]
    assert labels[:2] == ["melds", "captured melds"]
    assert column_lines(first, 0)[:2] == ["16 F", "10 ♦"]
    assert "10 G" in column_lines(first, 1)
    last = sheet.hands[-1]
    assert "−20 B" in column_lines(last, 0)


def test_a_call_credits_the_partners_melds_in_grey(sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["gatti-4-call"])
    first = sheet.hands[0]
    assert first.notes == ("Anna called KH: partner Carla",)
    melds = rows_of(first, "line")[0]
    anna, bruno, carla, dario = melds.cells
    assert anna is not None and carla is not None and bruno is not None and dario is not None
    # Carla declared 16 frilli: hers in black, her partner Anna's credit in grey (R6).
    assert (carla.text, carla.mark, carla.style) == ("16", "F", "plain")
    assert (anna.text, anna.mark, anna.style) == ("16", "F", "shared")
    assert (bruno.style, dario.style) == ("plain", "shared")
    assert sheet.hands[1].notes[0] == ("Bruno called KS, a card of their own: alone against "
                                       "three")
    assert ("", "grey: scored by a partner, credited to the column") in sheet.legend


# -- Ottocento -------------------------------------------------------------------------------


def test_ottocento_prints_combinations_progress_and_r13(
        sample_views: dict[str, GameView]) -> None:
    view = sample_views["ottocento"]
    sheet = build_sheet(view)
    first = sheet.hands[0]
    assert [row.label for row in first.rows if row.label][:2] == ["declared", "captured"]
    assert column_lines(first, 0)[0] == "17 3K"  # Carla's cricca of three Kings
    assert column_lines(first, 1)[0] == "15 ♠4"  # Bruno's sequence of four spades
    assert "70 ×2" in column_lines(first, 0)
    progress = rows_of(first, "progress")[0]
    assert progress.label == "to 800"
    assert cells(progress) == ["555", "627"]
    last = sheet.hands[-1]
    assert "† not counted: the rubber was won during the declarations (R13)" in last.notes
    voids = [e for row in last.rows for e in row.cells if e and e.style == "void"]
    assert sorted(f"{e.text} {e.mark}" for e in voids) == ["10 A3†", "10 M3†"]
    assert cells(rows_of(last, "hand")[0]) == ["10", "200"]
    assert cells(rows_of(last, "progress")[0])[1] == "✓"
    assert cells(sheet.final[0]) == [str(v) for _, v in view.summary.totals]
    assert sheet.outcome[-1] == "The rubber was won during the declarations of hand 4 (R13)."


# -- Mitigatti -------------------------------------------------------------------------------


def test_mitigatti_prints_the_marca_ledger(sample_views: dict[str, GameView]) -> None:
    view = sample_views["mitigatti-4"]
    sheet = build_sheet(view)
    first = sheet.hands[0]
    assert first.notes == ("Anna called KH: partner Carla",)
    labels = [row.label for row in first.rows]
    assert labels == ["points", "partida", "declarations", "Bagatte ultimu", "marca", "balance"]
    assert cells(rows_of(first, "line")[2]) == ["−2", "+6", "−2", "−2"]
    thrown = sheet.hands[1]
    assert [row.kind for row in thrown.rows] == ["note"]
    assert thrown.rows[0].note.startswith("Thrown in (to the mountain)")
    assert sheet.hands[2].notes == ("Dario played solo sans prendre",)
    final = rows_of(sheet.hands[-1], "total")[0]
    assert [e.points for e in final.cells if e] == [v for _, v in view.summary.ledger.balances]  # type: ignore[union-attr]
    assert sheet.final == ()  # card points summed over an evening mean nothing in marca
    (ledger,) = sheet.sections
    assert ledger.title == "Marca ledger"
    assert ledger.rows[-1][0] == "money"
    assert any("pays" in line and "marca (" in line for line in ledger.lines)


def test_mitigatti_3_has_a_pot_column_and_its_collection(
        sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["mitigatti-3"])
    assert [c.label for c in sheet.columns][-1] == "Pot"
    tie = sheet.hands[1]
    assert cells(rows_of(tie, "total")[0]) == ["10", "10", "9", "1"]
    collect = sheet.hands[2]
    pot_row = next(row for row in collect.rows if row.label == "pot")
    assert cells(pot_row) == ["", "", "+1", "−1"]
    assert "Carla collected 1 marca from the pot in hand 3." in sheet.sections[0].lines


def _sums(sheet: Sheet, view: GameView) -> None:
    numbers = hand_numbers(view)
    keys = [c.key for c in sheet.columns]
    for hand, counted in zip(sheet.hands, numbers, strict=True):
        if view.summary.ledger is not None:
            # Every marca paid is received (the pot is a party): each row sums to zero.
            for row in hand.rows:
                if row.kind in ("line", "hand"):
                    assert sum(e.points or 0 for e in row.cells if e) == 0, row
            balances = rows_of(hand, "total")
            if balances:
                assert [e.points for e in balances[0].cells if e][:len(counted.balances or {})] \
                    == list((counted.balances or {}).values())
            continue
        # What a column's cells count adds up to the hand's points, and the totals run on.
        for j, key in enumerate(keys):
            counted_cells = [row.cells[j] for row in hand.rows
                             if row.kind in ("line", "deck") and row.cells]
            total = sum(e.points or 0 for e in counted_cells if e and e.style != "void")
            assert total == counted.points[key], (hand.number, key)
        assert [e.points for e in rows_of(hand, "total")[0].cells if e] == [
            counted.totals[k] for k in keys]


LONG: dict[str, Callable[[], Sample]] = {"long-mitigatti": long_mitigatti,
                                         "long-ottocento": long_ottocento}


@pytest.mark.parametrize("name", [*SAMPLES, *LONG])
def test_every_sheet_adds_up_to_the_games_numbers(
        name: str, stored: Callable[[Sample], GameView]) -> None:
    view = stored(SAMPLES[name] if name in SAMPLES else LONG[name]())
    for lang in LANGUAGES:
        sheet = build_sheet(view, lang, detail=True)
        assert len(sheet.hands) == len(view.hands)
        _sums(sheet, view)
        if sheet.final:
            assert [e.points for e in sheet.final[0].cells if e] == [
                v for _, v in view.summary.totals]


@functools.cache
def translated(lang: str) -> frozenset[str]:
    """The sentences ``lang``'s catalogue translates (gettext skips a fuzzy one)."""
    with tool.catalogue_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    return frozenset(str(m.id[0] if isinstance(m.id, tuple) else m.id)
                     for m in catalog if m.id and not m.fuzzy and all(
                         m.string if isinstance(m.string, tuple) else (m.string,)))


def untranslated(text: object, lang: str) -> list[str]:
    """The templates in a sentence of the service (nested ones too) that ``lang``'s catalogue
    does not translate: a sentence with one would be printed in English. Only placeholders
    and punctuation need no translation."""
    if not isinstance(text, Text):
        return []
    words = re.search(r"[^\W\d_]", re.sub(r"\{\w*\}", "", text.template))
    own = [text.template] if words and text.template not in translated(lang) else []
    return own + [t for value in text.values.values() for t in untranslated(value, lang)]


@pytest.mark.parametrize("lang", ["it", "fr"])
@pytest.mark.parametrize("name", [*SAMPLES, *LONG])
def test_explanations_need_no_english(name: str, lang: str,
                                      stored: Callable[[Sample], GameView]) -> None:
    """Every sentence the detailed sheet prints is one the catalogue says in its language."""
    view = stored(SAMPLES[name] if name in SAMPLES else LONG[name]())
    for hand in view.hands:
        result = hand.result
        said = [*(line.text for side in result.sides for line in side.lines),
                *(payment.text for payment in result.payments or ()),
                *(violation.message for violation in result.violations)]
        assert all(isinstance(text, Text) for text in said)
        assert [t for text in said for t in untranslated(text, lang)] == [], hand.number


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", SAMPLES)
def test_explanations_are_the_services_sentences_with_the_players_named(
        name: str, lang: str, sample_views: dict[str, GameView]) -> None:
    """Each explanation line is what the service says of the hand (the page shows
    the same), in the sheet's language, the players by name, with its rule."""
    view = sample_views[name]
    say = Speaker(lang, view.setup.variant.family, translations(lang), view.setup.players)
    sheet = build_sheet(view, lang, detail=True)
    for hand, block in zip(view.hands, sheet.hands, strict=True):
        lines = [f"{say(line.text)} ({line.rule})" for side in hand.result.sides
                 for line in side.lines]
        assert [d.removeprefix("† ") for d in block.details[:len(lines)]] == lines
        for payment in hand.result.payments or ():
            assert any(d.startswith(f"{say(payment.text)}{colon(lang)} ") for d in block.details)
        assert not any(re.search(r"\b([Ss]eats?|[Pp]ost[oi]|[Pp]laces?) \d", d)
                       for d in block.details)


def test_english_explanations_are_the_rules_cores_lines_with_the_players_named(
        sample_views: dict[str, GameView]) -> None:
    view = sample_views["gatti-3"]
    sheet = build_sheet(view, "en", detail=True)
    names = view.setup.players
    # The declarations' lines: the core's, the seats named.
    texts = [re.sub(r"\b[Ss]eat (\d)", lambda m: names[int(m.group(1))], line["text"])
             for side in view.hands[0].result.to_json()["sides"] for line in side["lines"]
             if line["item"] == "meld"]
    assert sheet.hands[0].details[0] == f"{texts[0]} (§2.4)"
    assert all(any(d.startswith(t) for d in sheet.hands[0].details) for t in texts)
    for name in SAMPLES:
        for hand in build_sheet(sample_views[name], "en", detail=True).hands:
            assert not any(re.search(r"\b[Ss]eats? \d", d) for d in hand.details), name


def test_italian_sheet(sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["gatti-3"], "it", detail=True)
    assert sheet.title == "Foglio segnapunti"
    assert sheet.variant == "Gatti a tre"
    assert sheet.hands[0].dealer == "mazziere Anna"
    assert [row.label for row in sheet.hands[0].rows] == [
        "buone", "", "punti di mazzo", "nella mano", "totale"]
    details = sheet.hands[0].details
    assert "Anna: buona dichiarata, 20 frilli: 20 (§2.4)" in details
    assert ("Bruno: buona dichiarata, 11 trionfi, che vale 11: 1 in più dei 10 già segnati "
            "per essa (R1)") in details
    assert ("Carla: buona dichiarata, quaterno di re, che vale 10: 5 in più dei 5 già segnati "
            "per essa (R1)") in details
    assert any("carte di conto" in d and "re di fiori e Matto" in d for d in details)
    assert sheet.outcome == ("Vince Anna", "La partita è finita dopo le sue 3 mani (R10).")
    meta = dict(sheet.meta)
    assert meta["Opzioni"] == "buone dichiarate dalla mano; Bagatto ultimo"
    assert meta["Giocatori, in ordine di gioco"] == "Anna, Bruno, Carla"


def test_italian_mitigatti_money_and_payments(sample_views: dict[str, GameView]) -> None:
    sheet = build_sheet(sample_views["mitigatti-4"], "it", detail=True)
    assert dict(sheet.meta)["Opzioni"] == "0,50 € a marca"
    details = sheet.hands[0].details
    assert details[-1] == ("Bruno ha vinto l'ultima presa col Bagatte: 2 marche da ciascun "
                           "altro giocatore: Anna → Bruno 2, Carla → Bruno 2, Dario → Bruno 2 "
                           "(§5.5)")
    assert ("Partida: la parte del dichiarante (Anna e Carla) ha fatto 26 punti su 72 e perde: "
            "1 marca a giocatore: Anna → Bruno 1, Carla → Dario 1 (§5.6)") in details
    assert "Bruno ha accusato mitigatti (i tre onori): 1 marca da ciascun altro giocatore: " \
           "Anna → Bruno 1, Carla → Bruno 1, Dario → Bruno 1 (§5.4)" in details
    assert sheet.sections[0].rows[-1][0] == "denaro"
    assert any("paga" in line and "(3,00 €)" in line for line in sheet.sections[0].lines)


def test_dummies_are_named_after_their_players_in_the_sheets_language(
        sheet_service: Any) -> None:
    created = sheet_service.create_game("gatti-2", None, ["Anna", "Bruno"], None)
    view = sheet_service.get_game(created.view.id, created.read_token)
    italian = build_sheet(view, "it")
    assert dict(italian.meta)["Giocatori, in ordine di gioco"] == (
        "Anna, Bruno, morto di Anna, morto di Bruno")
    assert [c.label for c in italian.columns] == ["Anna", "Bruno"]
    assert italian.outcome == ("Nessuna mano giocata.",)


@pytest.mark.parametrize(("lang", "seats"), [
    ("en", ["Anna and Anna's dummy", "Bruno and Bruno's dummy"]),
    ("it", ["Anna e morto di Anna", "Bruno e morto di Bruno"]),
    ("fr", ["Anna et mort de Anna", "Bruno et mort de Bruno"]),
])
def test_a_sheets_lists_are_joined_as_the_services_sentences_join_them(
        sheet_service: Any, lang: str, seats: list[str]) -> None:
    """Who plays each column is a list said as the service says one ("{items} and {last}"),
    the dummy named in the sheet's language."""
    created = sheet_service.create_game("gatti-2", None, ["Anna", "Bruno"], None)
    view = sheet_service.get_game(created.view.id, created.read_token)
    assert [c.seats for c in build_sheet(view, lang).columns] == seats


# -- hands entered by points -----------------------------------------------------------------


BY_POINTS = {
    "gatti-3": Sample("gatti-3", ("Anna", "Bruno", "Carla"), [
        {"dealer": 0, "piles": [{"side": 0, "points": 40, "combinations": [{"kind": "gatti"}]},
                                {"side": 1, "points": 20}]}], {"melds": "both"}),
    "ottocento": Sample("ottocento", ("Anna", "Bruno", "Carla", "Dario"), [
        {"dealer": 0, "last_trick": 1, "piles": [{"side": 0, "points": 50, "combinations": [
            {"kind": "cricca", "type": "K", "count": 4}]}]}]),
    "mitigatti-3": Sample("mitigatti-3", ("Anna", "Bruno", "Carla"), [
        {"dealer": 0, "piles": [{"side": 0, "points": 48}, {"side": 1, "points": 20}]}]),
}


@pytest.mark.parametrize("name", BY_POINTS)
def test_s2_6_a_hand_entered_by_points_is_marked_and_explained(
        name: str, stored: Callable[[Sample], GameView]) -> None:
    view = stored(BY_POINTS[name])
    for lang in ("it", "fr"):
        assert [t for side in view.hands[0].result.sides for line in side.lines
                for t in untranslated(line.text, lang)] == []
    names = view.setup.players
    core = [re.sub(r"\b([Ss]eats?) ([\d ]+(and \d)?)",
                   lambda m: " and ".join(names[int(n)] for n in re.findall(r"\d", m.group(0))),
                   line["text"])
            for side in view.hands[0].result.to_json()["sides"] for line in side["lines"]
            if line.get("entered") == "points"]
    english = build_sheet(view, "en", detail=True)
    assert core and all(any(d.startswith(text) for d in english.hands[0].details)
                        for text in core)
    for lang, words in (("en", "as counted at the table"), ("it", "come contati al tavolo")):
        sheet = build_sheet(view, lang, detail=True)
        assert any(words in d for d in sheet.hands[0].details)
        assert any(("by the points" if lang == "en" else "coi punti") in note
                   for note in sheet.hands[0].notes)
        if not sheet.sections:  # point columns (not marca) carry the mark
            assert "#" in dict(sheet.legend)
            marks = [e.mark for row in sheet.hands[0].rows if row.kind == "deck"
                     for e in row.cells if e]
            assert marks and all(m == "#" for m in marks)


def test_french_mitigatti_sheet_in_nices_words(sample_views: dict[str, GameView]) -> None:
    """A Mitigatti sheet in French, money as French writes it, the seed's words."""
    sheet = build_sheet(sample_views["mitigatti-4"], "fr", detail=True)
    assert sheet.title == "Feuille de marque"
    assert sheet.variant == "Mitigatti (Nice) à quatre"
    assert dict(sheet.meta)["Options"] == "0,50 € la marca"
    details = sheet.hands[0].details
    assert details[0].startswith("Anna et Carla\u202f: 9 plis, 9 points de plis, + 17 en cartes")
    assert details[-1].startswith("Bruno a gagné le dernier pli avec le Bagatte\u202f: 2 marca")
    assert any(d.startswith("Partida\u202f: le camp du preneur (Anna et Carla) a fait 26 points "
                            "sur 72 et perd") for d in details)
    assert [row.label for row in sheet.hands[0].rows][:2] == ["points", "partida"]
    assert "accusassions" in [row.label for row in sheet.hands[0].rows]
    assert "Carla paie 6 marca à Bruno (3,00 €)" in sheet.sections[0].lines


@pytest.mark.parametrize("lang,one,two", [
    ("en", "In progress after 1 hand: Anna leads.", "In progress after 2 hands: Anna leads."),
    ("it", "In corso dopo 1 mano: conduce Anna.", "In corso dopo 2 mani: conduce Anna."),
    ("fr", "En cours après 1 donne\u202f: Anna mène.", "En cours après 2 donnes\u202f: Anna mène.")])
def test_a_count_on_the_sheet_takes_the_languages_plural_form(lang: str, one: str,
                                                               two: str) -> None:
    t = Translator(lang)
    assert [t("end.in_progress", n=n, leader="Anna") for n in (1, 2)] == [one, two]
    # French's one is 0 and 1; Italian's and English's, 1 alone.
    assert t("season.subtitle", n=0).endswith({"en": "evenings", "it": "serate",
                                               "fr": "soirée"}[lang])


def test_the_printouts_write_numbers_as_each_language_does() -> None:
    """Whole numbers with their thousands grouped, figures and percentages with a decimal
    comma in Italian and French (French grouping and spacing the sign with no-break spaces),
    a true minus sign."""
    english, italian, french = (Translator(lang) for lang in ("en", "it", "fr"))
    assert [english.number(1250), italian.number(1250), french.number(1250)] == [
        "1,250", "1.250", "1\u202f250"]
    assert [t.number(-3) for t in (english, italian, french)] == ["−3"] * 3
    assert [t.figure(Decimal("13.5"), sign=True) for t in (english, italian, french)] == [
        "+13.5", "+13,5", "+13,5"]
    assert [t.percentage(Decimal("58.33")) for t in (english, italian, french)] == [
        "58.33%", "58,33%", "58,33\u00a0%"]
