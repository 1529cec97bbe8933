"""rulebook §1 — card notation, clause by clause, for the 78-card tarot pack and the 62-card
Bolognese pack. Each test names the clause it checks."""

from __future__ import annotations

import pytest

from service.domain.core.cards import BOLOGNESE_62, TAROT_78, Card, Suit
from service.domain.core.errors import RecordInvalid
from service.domain.core.notation import CardSyntaxError, format_card, parse_card, parse_cards
from service.domain.hand.records import parse_hand_record
from service.domain.registry import find_variant

TAROT = TAROT_78
BOLO = BOLOGNESE_62


def card(text: str, pack=TAROT) -> Card:
    return parse_card(text, pack)


def code(text: str, pack=TAROT) -> str:
    return format_card(parse_card(text, pack))


def syntax_error(text: str, pack=TAROT) -> CardSyntaxError:
    with pytest.raises(CardSyntaxError) as caught:
        parse_card(text, pack)
    return caught.value


# -- canonical codes ----------------------------------------------------------------------------


def test_s1_canonical_codes_are_upper_case_ascii() -> None:
    for pack in (TAROT, BOLO):
        for c in pack.cards:
            text = format_card(c)
            assert text.isascii() and text == text.upper(), text


def test_s1_code_is_rank_then_suit() -> None:
    assert code("KH") == "KH"
    assert card("KH") == Card("KH", "plain", Suit.HEARTS, "K")
    assert card("CC") == Card("CC", "plain", Suit.CLUBS, "C")  # the cavalier of clubs
    assert card("10S") == Card("10S", "plain", Suit.SPADES, "10")
    assert card("1D") == Card("1D", "plain", Suit.DIAMONDS, "1")


def test_s1_parsing_is_case_insensitive() -> None:
    for text in ("kh", "Kh", "kH", "KH"):
        assert code(text) == "KH"
    for text in ("cc", "Cc", "cC"):
        assert code(text) == "CC"
    assert code("t21") == "T21"
    assert code("fOoL") == "FOOL"
    assert code("Mondo") == "T21"
    assert code("bagatto") == "T1"
    assert code("re di COPPE") == "KH"
    assert code("m3", BOLO) == "MORO3"
    assert code("Sole", BOLO) == "SUN"


def test_s1_surrounding_spaces_are_ignored() -> None:
    assert code("  KH ") == "KH"


# -- suits --------------------------------------------------------------------------------------


def _suit_forms(alias: str, rank: str = "K") -> list[str]:
    """Ways a table writes the King (or ``rank``) of a suit named by ``alias``."""
    forms = [f"{rank} {alias}", f"{rank} of {alias}", f"{rank} di {alias}", f"{alias} {rank}"]
    if len(alias) == 1:
        forms += [f"{rank}{alias}", f"{alias}{rank}"]
    return forms


@pytest.mark.parametrize("alias", ["H", "cups", "coppe", "cupa", "♥", "♡", "hearts", "h", "CUPS"])
def test_s1_suit_aliases_cups_is_hearts(alias: str) -> None:
    for text in _suit_forms(alias):
        assert code(text) == "KH", text


@pytest.mark.parametrize("alias", ["D", "coins", "denari", "♦", "♢", "diamonds", "d", "Denari"])
def test_s1_suit_aliases_coins_is_diamonds(alias: str) -> None:
    for text in _suit_forms(alias):
        assert code(text) == "KD", text


@pytest.mark.parametrize("alias", ["C", "batons", "bastoni", "baston", "♣", "♧", "clubs", "c"])
def test_s1_suit_aliases_batons_is_clubs(alias: str) -> None:
    for text in _suit_forms(alias):
        assert code(text) == "KC", text


@pytest.mark.parametrize("alias", ["S", "swords", "spade", "spada", "♠", "♤", "spades", "s"])
def test_s1_suit_aliases_swords_is_spades(alias: str) -> None:
    for text in _suit_forms(alias):
        assert code(text) == "KS", text


@pytest.mark.parametrize(("symbol", "suit"), [
    ("♥", "H"), ("♦", "D"), ("♣", "C"), ("♠", "S"),
    ("♡", "H"), ("♢", "D"), ("♧", "C"), ("♤", "S"),
])
def test_s1_unicode_suit_symbols_are_aliases(symbol: str, suit: str) -> None:
    for rank in ("1", "7", "10", "J", "C", "Q", "K"):
        assert code(f"{rank}{symbol}") == f"{rank}{suit}"
        assert code(f"{symbol}{rank}") == f"{rank}{suit}"


# -- plain ranks --------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", [str(n) for n in range(1, 11)])
def test_s1_pip_ranks_1_to_10(rank: str) -> None:
    for suit in "HDCS":
        assert card(f"{rank}{suit}") == Card(f"{rank}{suit}", "plain", Suit(suit), rank)


@pytest.mark.parametrize("alias", ["A", "a", "1"])
def test_s1_rank_ace_alias_a(alias: str) -> None:
    assert code(f"{alias}H") == "1H"
    assert code(f"{alias} di spade") == "1S"
    assert code(f"♦{alias}") == "1D"


@pytest.mark.parametrize("alias", ["J", "fante", "fantin", "Fante", "FANTIN"])
def test_s1_rank_jack_aliases_fante_fantin(alias: str) -> None:
    assert code(f"{alias} di coppe") == "JH"
    assert code(f"{alias} spada") == "JS"


@pytest.mark.parametrize("alias", ["C", "N", "cavallo", "cavau", "Cavallo", "n"])
def test_s1_rank_cavalier_aliases_cavallo_cavau_n(alias: str) -> None:
    assert code(f"{alias} di bastoni") == "CC"
    assert code(f"{alias} denari") == "CD"
    if len(alias) == 1:
        assert code(f"{alias}H") == "CH"
        assert code(f"{alias}♠") == "CS"


@pytest.mark.parametrize("alias", ["Q", "regina", "dama", "Regina", "q"])
def test_s1_rank_queen_aliases_regina_dama(alias: str) -> None:
    assert code(f"{alias} di denari") == "QD"
    assert code(f"{alias} cups") == "QH"


@pytest.mark.parametrize("alias", ["K", "re", "rei", "Re", "REI", "k"])
def test_s1_rank_king_aliases_re_rei(alias: str) -> None:
    assert code(f"{alias} di spade") == "KS"
    assert code(f"{alias} baston") == "KC"


def test_s1_cavalier_of_clubs_is_cc_not_ambiguous() -> None:
    assert code("CC") == "CC"
    assert code("KC") == "KC"  # king of clubs
    assert code("CH") == "CH"  # cavalier of hearts
    assert code("NC") == "CC"
    assert code("♣C") == "CC"
    assert code("C♣") == "CC"


@pytest.mark.parametrize(("text", "expected"), [
    ("♥K", "KH"), ("♦Q", "QD"), ("♣C", "CC"), ("♠J", "JS"), ("♥10", "10H"), ("♠A", "1S"),
    ("♡k", "KH"), ("♤a", "1S"), ("HK", "KH"), ("S10", "10S"), ("coppe re", "KH"),
])
def test_s1_suit_first_forms_are_aliases(text: str, expected: str) -> None:
    assert code(text) == expected


# -- the 78-card tarot pack ---------------------------------------------------------------------


def test_s1_tarot_pack_has_78_cards() -> None:
    assert len(TAROT) == 78
    assert len(TAROT.trumps) == 21
    assert sum(c.is_plain for c in TAROT.cards) == 56
    assert TAROT.fool.code == "FOOL"
    assert len({c.code for c in TAROT.cards}) == 78


@pytest.mark.parametrize("n", range(1, 22))
def test_s1_trumps_t1_to_t21(n: int) -> None:
    c = card(f"T{n}")
    assert c.code == f"T{n}" and c.is_trump
    assert code(f"t{n}") == f"T{n}"


@pytest.mark.parametrize("alias", ["BAGATTO", "BAGATTE", "PAGAT", "bagatto", "Pagat"])
def test_s1_t1_aliases_bagatto_bagatte_pagat(alias: str) -> None:
    assert code(alias) == "T1"


@pytest.mark.parametrize("alias", ["ANGEL", "ANGELO", "GIUDIZIO", "JUDGMENT", "ANGE", "angel",
                                   "Giudizio"])
def test_s1_t20_aliases_angel_angelo_giudizio_judgment_ange(alias: str) -> None:
    assert code(alias) == "T20"


@pytest.mark.parametrize("alias", ["WORLD", "MONDO", "world", "Mondo"])
def test_s1_t21_aliases_world_mondo(alias: str) -> None:
    assert code(alias) == "T21"


@pytest.mark.parametrize("alias", ["FOOL", "MATTO", "FUOLE", "EXCUSE", "★", "T0", "fool",
                                   "matto", "t0", "Excuse"])
def test_s1_fool_aliases_matto_fuole_excuse_star_t0(alias: str) -> None:
    c = card(alias)
    assert c.code == "FOOL"
    assert c.is_fool and not c.is_trump


# -- the 62-card Bolognese pack -----------------------------------------------------------------


def test_s1_bolognese_pack_has_62_cards() -> None:
    assert len(BOLO) == 62
    assert len({c.code for c in BOLO.cards}) == 62
    assert sum(c.is_plain for c in BOLO.cards) == 40
    assert sum(c.is_trump for c in BOLO.cards) == 21
    assert BOLO.fool.code == "MATTO"


def test_s1_bolognese_plain_ranks_k_q_c_j_10_9_8_7_6_1_only() -> None:
    ranks = {c.rank for c in BOLO.cards if c.is_plain}
    assert ranks == {"K", "Q", "C", "J", "10", "9", "8", "7", "6", "1"}
    for suit in "HDCS":
        for rank in ("K", "Q", "C", "J", "10", "9", "8", "7", "6", "1"):
            assert code(f"{rank}{suit}", BOLO) == f"{rank}{suit}"
        assert code(f"A{suit}", BOLO) == f"1{suit}"


@pytest.mark.parametrize("text", [f"{r}{s}" for r in "2345" for s in "HDCS"])
def test_s1_bolognese_has_no_2_to_5(text: str) -> None:
    err = syntax_error(text, BOLO)
    assert err.code == "card_not_in_pack"
    assert text in str(err)


@pytest.mark.parametrize(("alias", "expected"), [
    ("ANGEL", "ANGEL"), ("ANGELO", "ANGEL"), ("angelo", "ANGEL"),
    ("WORLD", "WORLD"), ("MONDO", "WORLD"),
    ("SUN", "SUN"), ("SOLE", "SUN"),
    ("MOON", "MOON"), ("LUNA", "MOON"), ("luna", "MOON"),
])
def test_s1_bolognese_named_trumps_and_italian_aliases(alias: str, expected: str) -> None:
    c = card(alias, BOLO)
    assert c.code == expected and c.is_trump


@pytest.mark.parametrize("n", range(5, 17))
def test_s1_bolognese_numbered_trumps_t5_to_t16(n: int) -> None:
    c = card(f"T{n}", BOLO)
    assert c.code == f"T{n}" and c.is_trump


@pytest.mark.parametrize("text", ["T2", "T3", "T4", "T17", "T18", "T19", "T20", "T21"])
def test_s1_bolognese_has_no_other_numbered_trumps(text: str) -> None:
    err = syntax_error(text, BOLO)
    assert err.code == "card_not_in_pack"
    assert text in str(err)


@pytest.mark.parametrize("n", range(1, 5))
def test_s1_bolognese_moors_moro1_to_moro4_alias_m1_to_m4(n: int) -> None:
    assert code(f"MORO{n}", BOLO) == f"MORO{n}"
    assert code(f"M{n}", BOLO) == f"MORO{n}"
    assert code(f"moro{n}", BOLO) == f"MORO{n}"
    assert card(f"M{n}", BOLO).is_trump


@pytest.mark.parametrize("alias", ["BEGATO", "BAGATTO", "T1", "begato", "t1"])
def test_s1_bolognese_begato_aliases_bagatto_t1(alias: str) -> None:
    c = card(alias, BOLO)
    assert c.code == "BEGATO" and c.is_trump


@pytest.mark.parametrize("alias", ["MATTO", "FOOL", "★", "matto"])
def test_s1_bolognese_matto_aliases_fool_star(alias: str) -> None:
    c = card(alias, BOLO)
    assert c.code == "MATTO" and c.is_fool


# -- foreign codes ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "pack"), [
    ("MORO1", TAROT), ("M2", TAROT), ("BEGATO", TAROT), ("LUNA", TAROT),
    ("2H", BOLO), ("5S", BOLO), ("T21", BOLO), ("JUDGMENT", BOLO),
])
def test_s1_card_of_another_pack_is_card_not_in_pack_naming_the_code(text: str, pack) -> None:
    err = syntax_error(text, pack)
    assert err.code == "card_not_in_pack"
    assert text in str(err)
    assert err.text == text


@pytest.mark.parametrize("text", ["XYZ", "11H", "0H", "KX", "K", "H", "", "   ", "T22", "T99",
                                  "KH KD", "re di nulla"])
def test_s1_text_naming_no_card_is_not_a_card(text: str) -> None:
    err = syntax_error(text)
    assert err.code == "not_a_card"
    assert repr(text) in str(err) or text in str(err)


def test_s1_parse_cards_reports_the_position_of_each_bad_code() -> None:
    cards, problems = parse_cards(["KH", "QH", "ZZ", "MORO1", "7S"], TAROT, "hand")
    assert [c.code for c in cards] == ["KH", "QH", "7S"]
    assert [(p.field, p.code) for p in problems] == [
        ("hand[2]", "not_a_card"), ("hand[3]", "card_not_in_pack")]
    assert "ZZ" in problems[0].message
    assert "MORO1" in problems[1].message
    assert all(p.rule == "§1" for p in problems)


def test_s1_parse_cards_reports_a_card_listed_twice() -> None:
    cards, problems = parse_cards(["KH", "QH", "re di coppe", "♥q"], TAROT, "pile")
    assert [c.code for c in cards] == ["KH", "QH"]
    assert [(p.field, p.code) for p in problems] == [
        ("pile[2]", "duplicate_card"), ("pile[3]", "duplicate_card")]
    assert "KH" in problems[0].message and "QH" in problems[1].message


def test_s1_parse_cards_non_string_entry_is_not_a_card() -> None:
    _, problems = parse_cards(["KH", 7, None], TAROT, "cards")
    assert [(p.field, p.code) for p in problems] == [
        ("cards[1]", "not_a_card"), ("cards[2]", "not_a_card")]


def test_s1_record_errors_name_the_field_and_position() -> None:
    variant = find_variant("gatti-3")
    with pytest.raises(RecordInvalid) as caught:
        parse_hand_record(variant, {
            "dealer": 0,
            "discard": ["2H", "MORO1", "4S"],
            "declarations": [{"seat": 1, "kind": "three_of_a_kind",
                              "cards": ["KH", "KD", "SUNSHINE"]}],
            "piles": [{"side": 0, "tricks": 9, "counting": ["KS", "2H?"]}],
        })
    found = {(p.field, p.code) for p in caught.value.problems}
    assert ("discard[1]", "card_not_in_pack") in found
    assert ("declarations[0].cards[2]", "not_a_card") in found
    assert ("piles[0].counting[1]", "not_a_card") in found


def test_s1_record_is_stored_in_canonical_notation() -> None:
    variant = find_variant("gatti-3")
    record = parse_hand_record(variant, {
        "dealer": 0,
        "discard": ["2 di coppe", "♥3", "4 spade"],
        "declarations": [{"seat": 1, "kind": "gatti", "cards": ["matto", "pagat", "mondo"]}],
        "piles": [{"side": 0, "tricks": 9, "counting": ["re di coppe", "n♦"]}],
    })
    data = record.to_json()
    assert data["discard"] == ["2H", "3H", "4S"]
    assert data["declarations"][0]["cards"] == ["FOOL", "T1", "T21"]
    assert data["piles"][0]["counting"] == ["KH", "CD"]


@pytest.mark.parametrize("pack", [TAROT, BOLO], ids=["tarot78", "bolognese62"])
def test_s1_every_card_round_trips(pack) -> None:
    for c in pack.cards:
        assert parse_card(format_card(c), pack) == c
        assert parse_card(format_card(c).lower(), pack) == c
        assert parse_card(c.label, pack) == c
