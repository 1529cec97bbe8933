"""rulebook §4: Ottocento, the Tarocchino Bolognese, clause by clause (R11, R12, R13, R18)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from legal_play import random_legal_hand

from service.domain.core.errors import RecordInvalid
from service.domain.core.results import Act, HandResult
from service.domain.games import check_next_hand, game_summary, validate_game_setup
from service.domain.hand.scoring import score_record
from service.domain.hand.tricks import trick_winner
from service.domain.options import resolve_options
from service.domain.ottocento.combos import (
    SIGNIFICANT,
    best_sequences,
    card_points,
    card_value,
    cricche,
)
from service.domain.registry import find_variant

V = find_variant("ottocento")
OPTIONS = resolve_options(V, {})


def cards(*codes: str) -> list[Any]:
    return [V.pack.card(c) for c in codes]


def score(hand: dict[str, Any]) -> dict[str, Any]:
    return score_record(V, OPTIONS, hand)[1].to_json()


def rejected(hand: dict[str, Any]) -> set[tuple[str, str]]:
    with pytest.raises(RecordInvalid) as caught:
        score_record(V, OPTIONS, hand)
    return {(p.field, p.code) for p in caught.value.problems}


def items(result: dict[str, Any], side: int, item: str) -> list[tuple[Any, int]]:
    return [(line.get("type"), line["points"]) for line in result["sides"][side]["lines"]
            if line["item"] == item]


# A hand in summary form: dealer 0, side 0 (seats 0, 2) takes 8 tricks with the discard,
# side 1 the rest; seat 1 wins the last trick.
SIDE0 = ["ANGEL", "WORLD", "SUN", "T16", "KS", "QS", "CS", "KH", "KD", "KC", "1S", "1C", "1H"]


def summary(**extra: Any) -> dict[str, Any]:
    return {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 1,
            "piles": [{"side": 0, "tricks": 8, "counting": SIDE0}], **extra}


# -- §4.1 pack, ranks, values ---------------------------------------------------------------


def test_s4_1_the_pack_has_62_cards_and_no_2_to_5() -> None:
    assert len(V.pack) == 62
    assert not any(c.is_plain and c.rank in ("2", "3", "4", "5") for c in V.pack.cards)


def test_s4_1_trumps_rank_from_the_angel_down_to_the_begato() -> None:
    assert trick_winner(V, cards("WORLD", "ANGEL", "SUN", "MOON")) == 1
    assert trick_winner(V, cards("T5", "MORO1", "BEGATO", "T16")) == 3
    assert trick_winner(V, cards("MORO1", "BEGATO", "KS", "1S")) == 0


def test_s4_1_of_equal_moors_the_last_played_wins() -> None:
    assert trick_winner(V, cards("MORO3", "MORO1", "KS", "MORO2")) == 3
    assert trick_winner(V, cards("MORO3", "MORO1", "T5", "MORO2")) == 2


def test_s4_1_the_matto_is_no_trump_and_never_wins() -> None:
    assert trick_winner(V, cards("MATTO", "6S", "7S", "1S")) == 2


def test_s4_1_swords_and_batons_rank_ace_lowest() -> None:
    assert trick_winner(V, cards("1S", "10S", "6S", "JS")) == 3
    assert trick_winner(V, cards("1C", "10C", "6C", "9C")) == 1


def test_s4_1_cups_and_coins_reverse_their_pips() -> None:
    assert trick_winner(V, cards("10H", "1H", "6H", "9H")) == 1
    assert trick_winner(V, cards("10D", "9D", "8D", "7D")) == 3
    assert trick_winner(V, cards("1D", "JD", "6D", "10D")) == 1


def test_s4_1_card_values() -> None:
    assert [card_value(c) for c in cards("ANGEL", "WORLD", "BEGATO", "MATTO", "KS", "QH",
                                         "CD", "JC", "1S", "T16", "MORO1", "SUN", "6H")] == \
        [5, 5, 5, 5, 5, 4, 3, 2, 1, 1, 1, 1, 1]


def test_s4_1_cards_count_in_pairs_and_the_hand_totals_93() -> None:
    assert card_points(cards("KS", "6S"), False) == 5
    assert card_points(cards("6S", "7S"), False) == 1
    assert card_points(cards("KS", "QS"), True) == 5 + 4 - 1 + 6
    assert card_points(V.pack.cards, True) == 93


# -- §4.2 deal, discard, Matto --------------------------------------------------------------


@pytest.mark.parametrize("code", ["ANGEL", "WORLD", "BEGATO", "MATTO", "KH"])
def test_s4_2_no_five_point_card_may_be_discarded(code: str) -> None:
    assert any(field == "discard[0]" for field, _ in rejected(summary(discard=[code, "7S"])))


def test_s4_2_other_trumps_may_be_discarded() -> None:
    assert score(summary(discard=["T16", "7S"]))["columns"]  # T16 is in side 0's pile


def test_s4_2_the_discard_counts_for_the_dealers_side() -> None:
    # 8 tricks with the discard: 30 cards; side 1: 32 cards; the hand totals 93.
    result = score(summary())
    assert sum(p for _, p in items(result, 0, "card_points") + items(result, 1, "card_points")) \
        == 93
    line = next(x for x in result["sides"][0]["lines"] if x["item"] == "card_points")
    assert line["cards"] == 30


def test_s4_2_a_dealer_side_without_tricks_loses_its_discard() -> None:
    result = score({"dealer": 1, "last_trick": 0,
                    "piles": [{"side": 1, "tricks": 0},
                              {"side": 0, "tricks": 16, "counting": sorted(
                                  c.code for c in SIGNIFICANT)}]})
    assert "discard_uncovered" in result["events"]
    assert [p for _, p in items(result, 0, "card_points")] == [93]


def test_s4_2_the_matto_stays_with_the_pair_that_played_it() -> None:
    hand = summary(fool={"played_by": 1, "trick": 3},
                   piles=[{"side": 0, "tricks": 8, "counting": [*SIDE0, "MATTO"]}])
    assert ("piles", "kept_card_misplaced") in rejected(hand)


def test_s4_2_the_angel_ends_with_the_pair_that_showed_it() -> None:
    hand = summary(declarations=[{"seat": 1, "kind": "cricca",
                                  "cards": ["ANGEL", "BEGATO", "MATTO"]}])
    assert ("piles", "kept_card_misplaced") in rejected(hand)


def test_s4_1_the_last_trick_must_be_named_in_a_summary() -> None:
    hand = summary()
    del hand["last_trick"]
    assert ("last_trick", "missing_field") in rejected(hand)


# -- §4.3 combinations ----------------------------------------------------------------------


@pytest.mark.parametrize(("codes", "type_", "points"), [
    (("ANGEL", "WORLD", "BEGATO", "MATTO"), "tarocchi", 36),
    (("ANGEL", "WORLD", "MATTO"), "tarocchi", 18),
    (("KS", "KH", "KD", "KC"), "K", 34), (("KS", "KH", "KD"), "K", 17),
    (("QS", "QH", "QD", "QC"), "Q", 28), (("QS", "QH", "QD"), "Q", 14),
    (("CS", "CH", "CD", "CC"), "C", 26), (("CS", "CH", "CD"), "C", 13),
    (("JS", "JH", "JD", "JC"), "J", 24), (("JS", "JH", "JD"), "J", 12),
])
def test_s4_3_cricche_table(codes: tuple[str, ...], type_: str, points: int) -> None:
    found = cricche(cards(*codes))
    assert [(c.type, c.points) for c in found] == [(type_, points)]


def test_s4_3_a_piles_cricche_come_in_one_order_however_the_pile_is_held() -> None:
    """A pile is a set: its cricche are said in the pack's order, not in the order the set
    happens to hold its cards in this process (a sheet, a CSV read the same every time)."""
    pile = cards("KS", "KH", "KD", "JS", "JH", "JD", "ANGEL", "WORLD", "MATTO", "QS", "QH",
                 "QD")
    orders = {tuple(c.type for c in cricche(list(order)))
              for order in (pile, pile[::-1], sorted(pile, key=lambda c: c.code))}
    assert orders == {("tarocchi", "J", "Q", "K")}


@pytest.mark.parametrize(("codes", "length", "points"), [
    (("ANGEL", "WORLD", "SUN", "MOON", "T16", "T15"), 6, 25),
    (("ANGEL", "WORLD", "SUN", "T16", "T15"), 5, 20),
    (("ANGEL", "WORLD", "MATTO", "T16"), 4, 15),
    (("KS", "QS", "MATTO"), 3, 10),
    (("KS", "QS", "CS", "1S"), 4, 15),
    (("KS", "QS", "CS", "JS", "1S", "MATTO", "BEGATO"), 7, 30),
    (("MORO1", "MORO2", "BEGATO"), 3, 10),
])
def test_r18_examples(codes: tuple[str, ...], length: int, points: int) -> None:
    found = best_sequences(cards(*codes))
    assert [(s.length, s.points) for s in found] == [(length, points)]


def test_r18_angel_and_sun_alone_is_no_sequence() -> None:
    assert best_sequences(cards("ANGEL", "SUN")) == []


def test_r11_the_trump_run_ends_at_t5_and_takes_no_moor_or_begato() -> None:
    run = ["ANGEL", "WORLD", "SUN", "MOON", *(f"T{n}" for n in range(16, 4, -1)), "MORO1"]
    assert [s.length for s in best_sequences(cards(*run))] == [16]


def test_r11_two_wild_cards_never_fill_two_adjacent_gaps() -> None:
    # T15 and T14 missing: one wild fills T15, the run ends at T14; the second wild still
    # adds to the length.
    found = best_sequences(cards("ANGEL", "WORLD", "SUN", "T16", "T13", "MATTO", "BEGATO"))
    assert [(s.length, [c.code for c in s.reached]) for s in found] == [
        (6, ["ANGEL", "WORLD", "SUN", "T16"])]
    # Gaps apart: each spare wild fills one.
    found = best_sequences(cards("ANGEL", "WORLD", "SUN", "T16", "T14", "T12", "MATTO",
                                 "BEGATO"))
    assert [s.length for s in found] == [8]


def test_r11_a_wild_that_establishes_cannot_fill_a_gap_too() -> None:
    found = best_sequences(cards("ANGEL", "WORLD", "MATTO", "T15"))
    assert [s.length for s in found] == [3]  # T16 missing: the Matto already stands for one


def test_s4_3_suit_moor_and_ace_sequences_need_two_real() -> None:
    assert best_sequences(cards("KS", "MATTO", "BEGATO")) == []
    assert best_sequences(cards("MORO1", "MATTO", "BEGATO")) == []
    assert [s.type for s in best_sequences(cards("1S", "1H", "MATTO"))] == ["aces"]
    assert best_sequences(cards("QS", "CS", "JS", "1S")) == []  # the King must be real


def test_s4_3_three_cricche_declared_by_one_player_double() -> None:
    hand = summary(declarations=[
        {"seat": 2, "kind": "cricca", "cards": ["KS", "KH", "KD"]},
        {"seat": 2, "kind": "cricca", "cards": ["QS", "QH", "QD"]},
        {"seat": 2, "kind": "cricca", "cards": ["JS", "JH", "JD"]}])
    result = score(hand)
    declared = [line for line in result["sides"][0]["lines"]
                if line["item"] == "declaration" or line.get("phase") == "declared"]
    assert [(x["item"], x["points"]) for x in declared] == [
        ("declaration", 17), ("declaration", 14), ("declaration", 12), ("doubling", 43)]
    assert result["acts"] == [{"seat": 2, "column": "0", "points": 86}]


def test_s4_3_partners_never_pool_for_doubling() -> None:
    hand = summary(declarations=[
        {"seat": 0, "kind": "cricca", "cards": ["KS", "KH", "KD"]},
        {"seat": 0, "kind": "cricca", "cards": ["QS", "QH", "QD"]},
        {"seat": 2, "kind": "cricca", "cards": ["JS", "JH", "JD"]}])
    result = score(hand)
    assert not any(x["item"] == "doubling" and x.get("phase") == "declared"
                   for x in result["sides"][0]["lines"])
    assert [(a["seat"], a["points"]) for a in result["acts"]] == [(2, 12), (0, 31)]


def test_s4_3_the_dealer_cannot_declare_discarded_cards() -> None:
    hand = summary(discard=["T16", "7S"], piles=[{"side": 0, "tricks": 8, "counting": SIDE0}],
                   declarations=[{"seat": 0, "kind": "sequence",
                                  "cards": ["ANGEL", "WORLD", "SUN", "T16"]}])
    assert ("declarations[0].cards[3]", "discarded_card_declared") in rejected(hand)


def test_s4_3_declarations_are_checked() -> None:
    found = rejected(summary(declarations=[
        {"seat": 1, "kind": "cricca", "cards": ["KS", "QS", "KH"]},
        {"seat": 1, "kind": "sequence", "cards": ["WORLD", "SUN", "MOON"]},
        {"seat": 3, "kind": "sequence", "cards": ["ANGEL", "SUN"]},
        {"seat": 3, "kind": "sequence", "cards": ["KS", "QS", "1H"]},
        {"seat": 2, "kind": "cricca", "cards": ["CS", "CH", "CD"]},
        {"seat": 0, "kind": "cricca", "cards": ["CS", "CC", "CD"]}]))
    assert found >= {("declarations[0].cards", "not_a_cricca"),
                     ("declarations[1].cards", "not_a_sequence"),
                     ("declarations[2].cards", "not_a_sequence"),
                     ("declarations[3].cards[2]", "card_not_in_sequence"),
                     ("declarations[5].cards[0]", "shown_by_two_players"),
                     ("declarations[5].cards[2]", "shown_by_two_players")}


def test_s4_3_a_cricca_may_be_declared_by_its_type_as_by_its_cards() -> None:
    """A table that does not type the cards says the cricca: "four Kings", "three Queens";
    it scores as the same cricca shown card by card, with its doubling."""
    by_kind = score(summary(declarations=[
        {"seat": 2, "kind": "cricca", "type": "K", "count": 3},
        {"seat": 2, "kind": "cricca", "type": "Q", "count": 3},
        {"seat": 2, "kind": "cricca", "type": "J", "count": 3}]))
    by_cards = score(summary(declarations=[
        {"seat": 2, "kind": "cricca", "cards": ["KS", "KH", "KD"]},
        {"seat": 2, "kind": "cricca", "cards": ["QS", "QH", "QD"]},
        {"seat": 2, "kind": "cricca", "cards": ["JS", "JH", "JD"]}]))
    assert by_kind["columns"] == by_cards["columns"]
    assert by_kind["acts"] == by_cards["acts"] == [{"seat": 2, "column": "0", "points": 86}]
    four = score(summary(piles=[{"side": 0, "tricks": 8,
                                 "counting": [*SIDE0, "BEGATO", "MATTO"]}],
                         declarations=[{"seat": 2, "kind": "cricca", "type": "tarocchi",
                                        "count": 4}]))
    assert items(four, 0, "declaration") == [("tarocchi", 36)]


def test_s4_3_r18_a_sequence_may_be_declared_by_its_type_and_length() -> None:
    result = score(summary(declarations=[{"seat": 3, "kind": "sequence", "type": "trumps",
                                          "count": 6}]))
    assert items(result, 1, "declaration") == [("trumps", 25)]


def test_s4_3_a_declaration_by_type_is_checked() -> None:
    found = rejected(summary(declarations=[
        {"seat": 1, "kind": "cricca", "type": "X", "count": 3},
        {"seat": 1, "kind": "cricca", "type": "K", "count": 5},
        {"seat": 3, "kind": "cricca", "type": "Q", "count": 2},
        {"seat": 3, "kind": "cricca", "type": "K", "count": 4, "cards": ["KS", "KH", "KD", "KC"]},
        {"seat": 2, "kind": "sequence", "type": "moors", "count": 7},
        {"seat": 2, "kind": "cricca", "count": 3}]))
    assert found == {("declarations[0].type", "invalid_type"),
                     ("declarations[1].count", "out_of_range"),
                     ("declarations[2].count", "out_of_range"),
                     ("declarations[3].cards", "field_not_for_kind"),
                     ("declarations[4].count", "out_of_range"),
                     ("declarations[5].type", "missing_field")}


def test_s4_3_a_cricca_of_all_four_by_type_shows_its_four_cards() -> None:
    """Four Kings are the four Kings: said by type they are shown all the same, so no other
    player shows one, nor declares three of them."""
    twice = rejected(summary(declarations=[
        {"seat": 1, "kind": "cricca", "type": "K", "count": 4},
        {"seat": 3, "kind": "cricca", "cards": ["KS", "KH", "KD"]}]))
    assert ("declarations[1].cards[0]", "shown_by_two_players") in twice
    too_many = rejected(summary(declarations=[
        {"seat": 1, "kind": "cricca", "type": "K", "count": 4},
        {"seat": 2, "kind": "cricca", "type": "K", "count": 3}]))
    assert too_many == {("declarations[1]", "more_than_the_pack")}
    # The Angel of a cricca of all four tarocchi ends with its pair (§6).
    assert ("piles", "kept_card_misplaced") in rejected(summary(declarations=[
        {"seat": 1, "kind": "cricca", "type": "tarocchi", "count": 4}]))


def test_s4_3_a_declaration_by_type_needs_a_hand_that_holds_it() -> None:
    """With the play recorded, the hand each player held is known: a cricca or a sequence
    said by its type must be one that hand holds."""
    hand = played_hand(3)
    result = score(hand)
    held = {seat: set(cards) for seat, cards in enumerate(_hands(result))}
    for seat, codes in held.items():
        kings = sum(1 for code in codes if code.startswith("K"))
        declaration = {"seat": seat, "kind": "cricca", "type": "K", "count": 3}
        if kings >= 3:
            assert score({**hand, "declarations": [declaration]})["acts"]
        else:
            assert ("declarations[0]", "not_held") in rejected(
                {**hand, "declarations": [declaration]})
    assert result["violations"] == []


def _hands(result: dict[str, Any]) -> list[list[str]]:
    """Each seat's cards as the refereed tricks show them (the dealer's discard apart)."""
    out: list[list[str]] = [[] for _ in range(4)]
    for trick in result["tricks"]:
        for k, code in enumerate(trick["cards"]):
            out[(trick["leader"] + k) % 4].append(code)
    return out


def test_s4_4_captured_combinations_score_per_pair_with_doubling() -> None:
    result = score(summary())
    # Side 0 holds all four Kings and three sequences (trumps, swords, aces: 1S 1C 1H).
    assert items(result, 0, "captured") == [("K", 34), ("trumps", 15), ("S", 15),
                                            ("aces", 10)]
    assert items(result, 0, "doubling") == [(None, 40)]


# -- §4.4 the rubber ------------------------------------------------------------------------

SETUP = validate_game_setup(V, None, ["Anna", "Bruno", "Carla", "Dario"], 0)


def hand_result(columns: dict[str, int], acts: tuple[Act, ...] = (),
                events: tuple[str, ...] = ()) -> HandResult:
    return HandResult((), tuple(columns.items()), (), events, (), acts)


def test_r12_the_first_pair_to_800_wins() -> None:
    summary_ = game_summary(SETUP, [hand_result({"0": 500, "1": 300}),
                                    hand_result({"0": 300, "1": 400})])
    assert summary_.finished and summary_.winners == ("0",)
    assert summary_.next_dealer is None


def test_r12_both_past_800_the_higher_wins_and_equal_plays_on() -> None:
    first = hand_result({"0": 700, "1": 700})
    won = game_summary(SETUP, [first, hand_result({"0": 150, "1": 120})])
    assert won.winners == ("0",)
    tied = game_summary(SETUP, [first, hand_result({"0": 120, "1": 120})])
    assert not tied.finished and tied.next_dealer == 2


def test_r13_declarations_win_at_once_and_the_hand_is_not_scored_further() -> None:
    before = hand_result({"0": 760, "1": 700})
    # Seat 1 (side 1) declares 50 first, then seat 2 (side 0) 60: side 0 reaches 820 first
    # although side 1 would take the hand's cards.
    decisive = hand_result({"0": 60 + 10, "1": 50 + 83},
                           (Act(1, "1", 50), Act(2, "0", 60)))
    summary_ = game_summary(SETUP, [before, decisive])
    assert summary_.winners == ("0",) and summary_.ended_by == "R13"
    assert dict(summary_.totals) == {"0": 820, "1": 750}


def test_r13_a_record_may_stop_after_winning_declarations() -> None:
    result = score({"dealer": 0, "declarations": [
        {"seat": 1, "kind": "cricca", "cards": ["KS", "KH", "KD", "KC"]}]})
    assert result["events"] == ["declarations_only"]
    assert result["columns"] == {"0": 0, "1": 34}
    stopped = hand_result(dict(result["columns"].items()), (Act(1, "1", 34),),
                          ("declarations_only",))
    assert check_next_hand(SETUP, [hand_result({"0": 300, "1": 780})], stopped) == []
    problems = check_next_hand(SETUP, [hand_result({"0": 300, "1": 500})], stopped)
    assert [(p.field, p.code) for p in problems] == [("piles", "hand_not_finished")]


# -- signals --------------------------------------------------------------------------------


def test_s4_2_signals_go_with_a_trick_record() -> None:
    assert ("signals", "signals_need_tricks") in rejected(
        summary(signals=[{"trick": 1, "signals": ["busso"]}]))
    gatti = find_variant("gatti-3")
    with pytest.raises(RecordInvalid) as caught:
        score_record(gatti, resolve_options(gatti, {}), {
            "dealer": 0, "signals": [{"trick": 1, "signals": ["busso"]}],
            "piles": [{"side": 0, "tricks": 10}, {"side": 1, "tricks": 8}]})
    assert ("signals", "not_in_variant") in {(p.field, p.code) for p in caught.value.problems}


def played_hand(seed: int) -> dict[str, Any]:
    return random_legal_hand("ottocento", random.Random(seed))


def test_s4_2_signals_on_a_lead_are_checked() -> None:
    hand = played_hand(4)
    legal = score({**hand, "signals": [{"trick": 1, "signals": ["busso", "volo"]},
                                       {"trick": 2, "signals": ["striscio"]}]})
    assert legal["violations"] == []
    illegal = score({**hand, "signals": [{"trick": 3, "signals": ["wink"]},
                                         {"trick": 4, "signals": ["busso", "volo",
                                                                  "striscio"]}]})
    assert [(v["trick"], v["rule"]) for v in illegal["violations"]] == [
        (3, "illegal_signal"), (4, "illegal_signal")]
    assert illegal["violations"][0]["seat"] == illegal["tricks"][2]["leader"]


def test_s4_2_a_trick_record_derives_the_last_trick_and_the_matto() -> None:
    for seed in range(20):
        hand = played_hand(seed)
        result = score(hand)
        last = result["tricks"][-1]["winner"]
        side = last % 2
        assert any(x["item"] == "card_points" and x["last_trick"] == 6
                   for x in result["sides"][side]["lines"])
        fool = result.get("fool")
        if fool and "exchange_card" in fool:
            # the default is the most worthless card: a 1-point card no combination uses
            assert V.pack.card(fool["exchange_card"]) not in SIGNIFICANT
            return
    raise AssertionError("no hand with a Matto exchange in 20 seeds")
