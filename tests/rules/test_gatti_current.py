"""rulebook §2 — Gatti, current rules (seeds 000/003), one test per clause, and the items of §6 that
a Gatti record without tricks can reveal. Each test names the clause (``s2_3`` = §2.3, ``r5`` =
ruling R5) and asserts on problem codes and fields, or on exact points and lines."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain import suggest_melds
from service.domain.core.cards import TAROT_78
from service.domain.core.errors import RecordInvalid
from service.domain.core.results import HandResult
from service.domain.games import game_summary, validate_game_setup
from service.domain.hand.records import parse_hand_record
from service.domain.hand.scoring import score_hand
from service.domain.hand.tricks import trick_winner
from service.domain.options import resolve_options
from service.domain.registry import find_variant

Json = dict[str, Any]
FOUR_HANDED = ("gatti-4", "gatti-2", "gatti-4-call")
ALL_FORMS = ("gatti-3",) + FOUR_HANDED


# -- helpers ------------------------------------------------------------------------------------


def score(vid: str, hand: Json, options: Json | None = None) -> Json:
    variant = find_variant(vid)
    record = parse_hand_record(variant, hand)
    return score_hand(variant, resolve_options(variant, options), record).to_json()


def rejected(vid: str, hand: Json, options: Json | None = None) -> set[tuple[str, str]]:
    """The (field, code) of every problem the record raises; fails if it is accepted."""
    variant = find_variant(vid)
    with pytest.raises(RecordInvalid) as caught:
        record = parse_hand_record(variant, hand)
        score_hand(variant, resolve_options(variant, options), record)
    return {(p.field, p.code) for p in caught.value.problems}


def problem_list(vid: str, hand: Json, options: Json | None = None) -> list[Any]:
    variant = find_variant(vid)
    with pytest.raises(RecordInvalid) as caught:
        record = parse_hand_record(variant, hand)
        score_hand(variant, resolve_options(variant, options), record)
    return list(caught.value.problems)


def lines(result: Json, side: int, item: str | None = None) -> list[tuple[str, int]]:
    return [(ln["item"], ln["points"]) for ln in result["sides"][side]["lines"]
            if item is None or ln["item"] == item]


def line_dicts(result: Json, side: int, item: str) -> list[Json]:
    return [ln for ln in result["sides"][side]["lines"] if ln["item"] == item]


def deck(result: Json) -> list[int]:
    return [sum(p for _, p in lines(result, s["side"], "deck_points")) for s in result["sides"]]


def pips(*suits: str) -> list[str]:
    return [f"{n}{s}" for s in suits for n in range(1, 11)]


def trumps(first: int, last: int) -> list[str]:
    return [f"T{n}" for n in range(first, last + 1)]


# -- fixtures: a gatti-3 hand and a gatti-4 hand in summary form --------------------------------

G3_DISCARD = ["2H", "3H", "4S"]
#: side -> (tricks, counting cards): 9 + 18 = 27, 10 + 21 = 31, 7 + 13 = 20; 78 in all.
G3_SPEC: dict[int, tuple[int, list[str]]] = {
    0: (9, ["T1", "KH", "KD", "QH", "CH", "JH"]),
    1: (10, ["T21", "FOOL", "KC", "QC", "QD", "CC", "JC"]),
    2: (7, ["KS", "QS", "CS", "JS", "CD", "JD"]),
}
G4_DISCARD = ["2H", "3H"]
#: 11 + 29 = 40 and 9 + 23 = 32; 72 in all.
G4_SPEC: dict[int, tuple[int, list[str]]] = {
    0: (11, ["T1", "T21", "FOOL", "KH", "KD", "QH", "QD", "CH", "JH"]),
    1: (9, ["KC", "KS", "QC", "QS", "CC", "CS", "CD", "JC", "JS", "JD"]),
}


def moved(spec: dict[int, tuple[int, list[str]]], **where: int) -> dict[int, tuple[int, list[str]]]:
    """The spec with each named card moved to another side's pile."""
    out = {s: (t, [c for c in cs if c not in where]) for s, (t, cs) in spec.items()}
    for code, side in where.items():
        out[side][1].append(code)
    return out


def summary_piles(spec: dict[int, tuple[int, list[str]]], omit: int | None = None) -> list[Json]:
    return [{"side": s, "tricks": t, "counting": list(cs)}
            for s, (t, cs) in sorted(spec.items()) if s != omit]


def full_piles(vid: str, discard: list[str], holder: int | None,
               spec: dict[int, tuple[int, list[str]]]) -> list[Json]:
    """Every card of every pile: each side's counting cards, the discard in ``holder``'s pile,
    and worthless cards up to whole tricks."""
    v = find_variant(vid)
    fillers = [c.code for c in v.pack.cards if not v.is_counting(c) and c.code not in discard]
    piles = []
    for side, (tricks, counting) in sorted(spec.items()):
        cards = list(counting) + (list(discard) if side == holder else [])
        size = v.trick_size * tricks - (v.trick_size - v.extra) * (side == holder and tricks > 0)
        while len(cards) < size:
            cards.append(fillers.pop())
        piles.append({"side": side, "cards": cards})
    assert not fillers, "the spec leaves cards over"
    return piles


def g3(spec: dict[int, tuple[int, list[str]]] = G3_SPEC, **extra: Any) -> Json:
    hand: Json = {"dealer": 0, "discard": list(G3_DISCARD), "piles": summary_piles(spec)}
    hand.update(extra)
    return hand


def g4(spec: dict[int, tuple[int, list[str]]] = G4_SPEC, **extra: Any) -> Json:
    hand: Json = {"dealer": 0, "discard": list(G4_DISCARD), "piles": summary_piles(spec)}
    hand.update(extra)
    return hand


def g4_call(call: Json | None = None, **extra: Any) -> Json:
    return g4(call=call or {"card": "KH", "partner": 2}, **extra)


def hand_for(vid: str, **extra: Any) -> Json:
    if vid == "gatti-3":
        return g3(**extra)
    if vid == "gatti-4-call":
        return g4_call(**extra)
    return g4(**extra)


# == §2.1 pack, ranks, counting cards ===========================================================


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_1_pack_is_78_cards(vid: str) -> None:
    assert len(find_variant(vid).pack) == 78


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_1_plain_suits_rank_1_to_10_then_j_c_q_k(vid: str) -> None:
    assert find_variant(vid).ranks.plain == (
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_1_trumps_rank_by_number_but_t20_beats_t21(vid: str) -> None:
    variant = find_variant(vid)
    order = variant.ranks.trumps
    assert order == tuple((f"T{n}",) for n in range(1, 20)) + (("T21",), ("T20",))
    assert ("FOOL",) not in order
    cards = [variant.pack.card(c) for c in ("T21", "T20", "T19", "T2")[: variant.trick_size]]
    assert trick_winner(variant, cards) == 1  # the Judgment beats the World
    assert trick_winner(variant, [variant.pack.card(c) for c in
                                  ("T5", "T6", "T4", "T3")[: variant.trick_size]]) == 1


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_1_counting_values(vid: str) -> None:
    v = find_variant(vid)
    expected = {"T1": 4, "T21": 4, "FOOL": 4}
    for suit in "HDCS":
        expected.update({f"K{suit}": 4, f"Q{suit}": 3, f"C{suit}": 2, f"J{suit}": 1})
    for card in v.pack.cards:
        assert v.card_points(card) == expected.get(card.code, 0), card.code
    assert v.card_points(v.pack.card("T20")) == 0


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_1_counting_cards_total_52(vid: str) -> None:
    v = find_variant(vid)
    assert sum(v.card_points(c) for c in v.pack.cards) == 52
    assert len(v.counting_cards) == 19


# == §2.2 table forms ===========================================================================


@pytest.mark.parametrize(
    ("vid", "players", "seats", "hands", "dealt", "extra", "tricks", "total"),
    [("gatti-3", 3, 3, 3, 25, 3, 26, 78),
     ("gatti-4", 4, 4, 4, 19, 2, 20, 72),
     ("gatti-2", 2, 4, 4, 19, 2, 20, 72),
     ("gatti-4-call", 4, 4, 4, 19, 2, 20, 72)])
def test_s2_2_table_forms(vid: str, players: int, seats: int, hands: int, dealt: int, extra: int,
                          tricks: int, total: int) -> None:
    v = find_variant(vid)
    assert (v.players, v.seats, v.hands_per_game) == (players, seats, hands)
    assert (v.dealt_each, v.extra, v.discard_cards) == (dealt, extra, extra)
    assert (v.tricks_per_hand, v.deck_total) == (tricks, total)
    assert v.trick_size == seats
    # the deal uses the whole pack; tricks played + the discard as one; 52 + one per trick
    assert seats * dealt + extra == 78
    assert (78 - extra) // seats + 1 == tricks
    assert 52 + tricks == total


def test_s2_2_gatti_4_fixed_pairs_0_2_against_1_3() -> None:
    result = score("gatti-4", g4())
    assert [s["seats"] for s in result["sides"]] == [[0, 2], [1, 3]]
    assert result["columns"] == {"0": 40, "1": 32}


def test_s2_2_gatti_3_each_player_is_a_side() -> None:
    result = score("gatti-3", g3())
    assert [s["seats"] for s in result["sides"]] == [[0], [1], [2]]
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}


@pytest.mark.parametrize(("vid", "allowed"), [("gatti-3", 3), ("gatti-4", 4), ("gatti-2", 4),
                                              ("gatti-4-call", 4)])
def test_s2_2_exposed_cards_are_optional_and_at_most_the_last_packets_tops(vid: str,
                                                                        allowed: int) -> None:
    shown = ["KS", "T5", "7C", "9D", "JH"]
    score(vid, hand_for(vid))  # not recorded: fine
    score(vid, hand_for(vid, exposed=shown[:allowed]))
    too_many = hand_for(vid, exposed=shown[:allowed + 1])
    assert ("exposed", "too_many_exposed") in rejected(vid, too_many)


def test_s2_2_gatti_2_seats_0_2_player_a_and_dummy_1_3_player_b() -> None:
    v = find_variant("gatti-2")
    setup = validate_game_setup(v, None, ["Anna", "Bruno"], 0)
    assert setup.seat_names() == ["Anna", "Bruno", "Anna's dummy", "Bruno's dummy"]
    assert [(c.key, c.label, c.seats) for c in setup.columns()] == [
        ("0", "Anna", (0, 2)), ("1", "Bruno", (1, 3))]
    result = score("gatti-2", g4())
    assert [s["seats"] for s in result["sides"]] == [[0, 2], [1, 3]]
    assert result["columns"] == {"0": 40, "1": 32}


def test_s2_2_gatti_2_is_played_by_two_players() -> None:
    v = find_variant("gatti-2")
    with pytest.raises(RecordInvalid) as caught:
        validate_game_setup(v, None, ["Anna", "Bruno", "Carla"], 0)
    assert {(p.field, p.code) for p in caught.value.problems} == {
        ("players", "wrong_player_count")}


def test_r9_gatti_2_deal_rotates_through_all_four_seats() -> None:
    setup = validate_game_setup(find_variant("gatti-2"), None, ["Anna", "Bruno"], 1)
    assert [setup.dealer_of(n) for n in range(1, 6)] == [1, 2, 3, 0, 1]


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s0_deal_passes_to_the_next_seat(vid: str) -> None:
    v = find_variant(vid)
    names = ["A", "B", "C", "D"][:v.players]
    setup = validate_game_setup(v, None, names, 2 % v.seats)
    assert [setup.dealer_of(n) for n in range(1, v.seats + 2)] == [
        (2 + k) % v.seats for k in range(v.seats + 1)]


def test_s2_2_call_holder_of_called_king_is_dealers_partner() -> None:
    result = score("gatti-4-call", g4_call({"card": "KH", "partner": 2}))
    assert [s["seats"] for s in result["sides"]] == [[0, 2], [1, 3]]
    result = score("gatti-4-call", g4_call({"card": "KH", "partner": 1}))
    assert [s["seats"] for s in result["sides"]] == [[0, 1], [2, 3]]


def test_s2_2_call_is_required_in_gatti_4_call() -> None:
    assert ("call", "missing_field") in rejected("gatti-4-call", g4())


@pytest.mark.parametrize("vid", ["gatti-3", "gatti-4", "gatti-2"])
def test_s2_2_only_gatti_4_call_has_a_call(vid: str) -> None:
    assert ("call", "not_in_variant") in rejected(
        vid, hand_for(vid, call={"card": "KH", "partner": 2}))


@pytest.mark.parametrize("card", ["T21", "FOOL", "JH", "CH", "7H"])
def test_s2_2_the_dealer_calls_a_king_or_a_queen(card: str) -> None:
    assert ("call.card", "invalid_call") in rejected(
        "gatti-4-call", g4_call({"card": card, "partner": 2}))


def test_s2_2_queen_called_only_by_a_dealer_with_all_four_kings() -> None:
    decl = [{"seat": 1, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]}]
    assert ("call.card", "queen_called_without_four_kings") in rejected(
        "gatti-4-call", g4_call({"card": "QH", "partner": 2}, declarations=decl))
    own = [{"seat": 0, "kind": "four_of_a_kind", "rank": "K"}]
    result = score("gatti-4-call", g4_call({"card": "QH", "partner": 2}, declarations=own))
    assert [s["seats"] for s in result["sides"]] == [[0, 2], [1, 3]]
    assert lines(result, 0, "meld") == [("meld", 10)]


def test_s2_2_called_card_shown_by_a_player_fixes_the_partner() -> None:
    decl = [{"seat": 3, "kind": "four_of_a_kind", "cards": ["KH", "KD", "KS", "KC"]}]
    assert ("call.partner", "call_partner_mismatch") in rejected(
        "gatti-4-call", g4_call({"card": "KH", "partner": 2}, declarations=decl))


def test_r6_each_player_is_credited_their_sides_score() -> None:
    result = score("gatti-4-call", g4_call({"card": "KH", "partner": 2}))
    assert result["columns"] == {"0": 40, "1": 32, "2": 40, "3": 32}
    result = score("gatti-4-call", g4_call({"card": "KS", "partner": 3}))
    assert [s["seats"] for s in result["sides"]] == [[0, 3], [1, 2]]
    assert result["columns"] == {"0": 40, "1": 32, "2": 32, "3": 40}


def test_r6_dealer_alone_against_three() -> None:
    hand = {"dealer": 1, "discard": ["2H", "3H"], "call": {"card": "KD", "partner": 1},
            "piles": [{"side": 0, "tricks": 5, "counting": ["KD", "T1"]}]}
    result = score("gatti-4-call", hand)
    assert [s["seats"] for s in result["sides"]] == [[1], [0, 2, 3]]
    assert lines(result, 0) == [("deck_points", 13)]
    assert lines(result, 1) == [("deck_points", 59)]
    assert result["columns"] == {"0": 59, "1": 13, "2": 59, "3": 59}
    assert "dealer_alone" in result["events"]


def test_s2_2_called_card_in_the_discard_means_the_dealer_is_alone() -> None:
    hand = {"dealer": 0, "discard": ["QH", "3H"], "call": {"card": "QH", "partner": 2},
            "declarations": [{"seat": 0, "kind": "four_of_a_kind", "rank": "K"}],
            "piles": [{"side": 0, "tricks": 11, "counting": ["QH"]}]}
    assert ("call.partner", "call_partner_mismatch") in rejected("gatti-4-call", hand)


# == §2.3 the discard ===========================================================================


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_3_king_in_discard_rejected(vid: str) -> None:
    v = find_variant(vid)
    discard = ["5C", "KH", "3H"][:v.extra] if v.extra == 3 else ["KH", "3H"]
    at = discard.index("KH")
    assert (f"discard[{at}]", "king_discarded") in rejected(vid, hand_for(vid, discard=discard))


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_3_discard_size_is_the_dealers_extra(vid: str) -> None:
    v = find_variant(vid)
    for size in (v.extra - 1, v.extra + 1):
        discard = ["5C", "6C", "7C", "8C"][:size]
        assert ("discard", "discard_size") in rejected(vid, hand_for(vid, discard=discard))


def test_s2_3_bagatto_discarded_as_sole_trump_accepted() -> None:
    # someone else's trumps prove nothing about the dealer's hand
    decl = [{"seat": 1, "kind": "trumps", "cards": trumps(2, 11)}]
    result = score("gatti-3", g3(discard=["T1", "2H", "3H"], declarations=decl))
    assert lines(result, 1) == [("meld", 10), ("deck_points", 31)]


def test_s2_3_bagatto_discarded_beside_another_trump_rejected() -> None:
    assert ("discard", "bagatto_not_sole_trump") in rejected(
        "gatti-3", g3(discard=["T1", "T5", "2H"]))
    assert ("discard", "bagatto_not_sole_trump") in rejected(
        "gatti-4", g4(discard=["T21", "T1"]))


def test_s2_3_bagatto_discarded_but_dealer_declares_trumps_rejected() -> None:
    shown = [{"seat": 0, "kind": "trumps", "cards": trumps(2, 11)}]
    assert ("discard", "bagatto_not_sole_trump") in rejected(
        "gatti-3", g3(discard=["T1", "2H", "3H"], declarations=shown))
    counted = [{"seat": 0, "kind": "trumps", "count": 8}]
    assert ("discard", "bagatto_not_sole_trump") in rejected(
        "gatti-4", g4(discard=["T1", "2H"], declarations=counted))


def test_s2_3_bagatto_discarded_but_dealer_declares_gatti_rejected() -> None:
    decl = [{"seat": 0, "kind": "gatti"}]
    assert ("discard", "bagatto_not_sole_trump") in rejected(
        "gatti-3", g3(discard=["T1", "2H", "3H"], declarations=decl))


def test_s2_3_discard_counts_as_the_dealers_first_trick() -> None:
    # every card of the piles: the dealer's 27 cards are 8 tricks and the discard
    result = score("gatti-3", {"dealer": 0, "discard": G3_DISCARD,
                               "piles": full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)})
    d = line_dicts(result, 0, "deck_points")[0]
    assert (d["tricks"], d["counting"], d["points"]) == (9, 18, 27)
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}
    # four-handed: 4 x 10 tricks + the 2 discarded cards = 42 cards, 11 tricks
    piles = full_piles("gatti-4", G4_DISCARD, 0, G4_SPEC)
    assert len(piles[0]["cards"]) == 42
    result = score("gatti-4", {"dealer": 0, "discard": G4_DISCARD, "piles": piles})
    d = line_dicts(result, 0, "deck_points")[0]
    assert (d["tricks"], d["counting"], d["points"]) == (11, 29, 40)
    assert result["columns"] == {"0": 40, "1": 32}


def test_s2_3_discard_scores_its_counting_cards_for_the_dealer() -> None:
    spec = moved(G3_SPEC, QD=0)
    result = score("gatti-3", g3(spec, discard=["QD", "2H", "3H"]))
    assert result["columns"] == {"0": 30, "1": 28, "2": 20}


def test_s2_3_gatti_3_uncovered_discard_goes_to_a_non_dealer() -> None:
    # the dealer (seat 0) takes no trick: the discard (with QH) goes to the last trick's winner
    spec = {0: (0, []), 1: (14, ["QH", "T1", "KH", "KD", "CH", "JH"]),
            2: (12, G3_SPEC[1][1] + G3_SPEC[2][1])}
    result = score("gatti-3", g3(spec, discard=["QH", "2H", "3H"]))
    assert result["columns"] == {"0": 0, "1": 32, "2": 46}
    assert "discard_uncovered" in result["events"]
    # the same in full form, the discard in seat 2's pile
    piles = full_piles("gatti-3", ["QH", "2H", "3H"], 2,
                       {0: (0, []), 1: (14, ["T1", "KH", "KD", "CH", "JH"]),
                        2: (12, G3_SPEC[1][1] + G3_SPEC[2][1])})
    result = score("gatti-3", {"dealer": 0, "discard": ["QH", "2H", "3H"], "piles": piles})
    assert result["columns"] == {"0": 0, "1": 29, "2": 49}
    assert "discard_uncovered" in result["events"]


def test_s2_3_uncovered_discard_is_with_the_last_tricks_winner_the_bagatto_names() -> None:
    # seat 2 won the last trick with T1 (Bagatto ultimo), and the dealer took no trick: the
    # uncovered discard (with Q♥) goes to seat 2 -- it cannot be in seat 1's pile.
    spec = {0: (0, []), 1: (14, ["QH", "KH", "KD", "CH", "JH"]),
            2: (12, ["T1"] + G3_SPEC[1][1] + G3_SPEC[2][1])}
    hand = g3(spec, discard=["QH", "2H", "3H"], bagatto={"seat": 2, "won": True})
    found = rejected("gatti-3", hand)
    assert any(f == "piles" or f.startswith("bagatto") for f, _ in found), found
    # seat 1 lost the last trick with T1, which is in seat 2's pile: seat 2 took that trick
    hand = g3(spec, discard=["QH", "2H", "3H"], bagatto={"seat": 1, "won": False})
    found = rejected("gatti-3", hand)
    assert any(f == "piles" or f.startswith("bagatto") for f, _ in found), found
    # consistent: the discard with seat 2
    ok = {0: (0, []), 1: (14, ["KH", "KD", "CH", "JH"]),
          2: (12, ["QH", "T1"] + G3_SPEC[1][1] + G3_SPEC[2][1])}
    result = score("gatti-3", g3(ok, discard=["QH", "2H", "3H"],
                                 bagatto={"seat": 2, "won": True}))
    assert result["columns"] == {"0": 0, "1": 25, "2": 73}


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_3_four_handed_uncovered_discard_goes_to_the_opponents(vid: str) -> None:
    every = G4_SPEC[0][1] + G4_SPEC[1][1]
    result = score(vid, hand_for(vid, piles=[{"side": 0, "tricks": 0, "counting": []},
                                             {"side": 1, "tricks": 20, "counting": every}]))
    assert [s["total"] for s in result["sides"]] == [0, 72]
    assert "discard_uncovered" in result["events"]
    piles = full_piles("gatti-4", G4_DISCARD, 1, {0: (0, []), 1: (20, every)})
    assert len(piles[1]["cards"]) == 78
    result = score(vid, hand_for(vid, piles=piles))
    assert result["sides"][1]["total"] == 72


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_3_dealer_side_holding_only_the_discard_rejected(vid: str) -> None:
    v = find_variant(vid)
    every = sorted(c.code for c in v.counting_cards)
    # the dealer's side: one trick, the discard; the others hold the rest (the last derived)
    piles = [{"side": 0, "tricks": 1, "counting": []}]
    if vid == "gatti-3":
        piles.append({"side": 1, "tricks": 20, "counting": every})
    assert ("piles", "discard_not_covered") in rejected(vid, hand_for(vid, piles=piles))


def test_s2_3_covered_discard_must_stay_with_the_dealer() -> None:
    spec = moved(G3_SPEC, QD=2)  # the dealer took tricks, yet Q♦ of the discard is elsewhere
    assert ("piles", "discard_outside_dealer_side") in rejected(
        "gatti-3", g3(spec, discard=["QD", "2H", "3H"]))


def test_s2_3_the_discard_stays_together() -> None:
    piles = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    # swap 4S of the discard with a worthless card of seat 1's pile
    other = next(c for c in piles[1]["cards"] if c not in G3_SPEC[1][1])
    piles[0]["cards"] = [other if c == "4S" else c for c in piles[0]["cards"]]
    piles[1]["cards"] = ["4S" if c == other else c for c in piles[1]["cards"]]
    assert ("piles", "discard_split") in rejected(
        "gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": piles})


# == §2.4 melds ================================================================================


def test_s2_4_frilli_gatti_3_needs_20_pips() -> None:
    ok = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")}]
    result = score("gatti-3", g3(declarations=ok))
    meld = line_dicts(result, 1, "meld")[0]
    assert (meld["kind"], meld["mark"], meld["points"]) == ("frilli", "F", 20)
    short = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")[:19]}]
    assert rejected("gatti-3", g3(declarations=short)) == {
        ("declarations[0].cards", "below_threshold")}
    counted = [{"seat": 1, "kind": "frilli", "count": 19}]
    assert rejected("gatti-3", g3(declarations=counted)) == {
        ("declarations[0].count", "below_threshold")}


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_4_frilli_four_handed_needs_15_pips(vid: str) -> None:
    ok = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")[:15]}]
    result = score(vid, hand_for(vid, declarations=ok))
    assert sum(p for _, p in lines(result, 1, "meld")) == 15
    short = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")[:14]}]
    assert ("declarations[0].cards", "below_threshold") in rejected(
        vid, hand_for(vid, declarations=short))


def test_s2_4_trumps_gatti_3_needs_10() -> None:
    ok = [{"seat": 2, "kind": "trumps", "cards": trumps(2, 11)}]
    result = score("gatti-3", g3(declarations=ok))
    meld = line_dicts(result, 2, "meld")[0]
    assert (meld["kind"], meld["mark"], meld["points"]) == ("trumps", "T", 10)
    short = [{"seat": 2, "kind": "trumps", "cards": trumps(2, 10)}]
    assert rejected("gatti-3", g3(declarations=short)) == {
        ("declarations[0].cards", "below_threshold")}


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_4_trumps_four_handed_needs_8(vid: str) -> None:
    ok = [{"seat": 3, "kind": "trumps", "cards": trumps(2, 9)}]
    result = score(vid, hand_for(vid, declarations=ok))
    assert sum(p for _, p in lines(result, 1, "meld")) == 8
    short = [{"seat": 3, "kind": "trumps", "count": 7}]
    assert ("declarations[0].count", "below_threshold") in rejected(
        vid, hand_for(vid, declarations=short))


def test_s2_4_the_fool_is_not_a_trump() -> None:
    decl = [{"seat": 1, "kind": "trumps", "cards": trumps(2, 10) + ["FOOL"]}]
    assert ("declarations[0].cards[9]", "card_not_in_meld") in rejected(
        "gatti-3", g3(declarations=decl))
    decl = [{"seat": 1, "kind": "trumps", "cards": trumps(2, 11) + ["FOOL"]}]
    assert ("declarations[0].cards[10]", "card_not_in_meld") in rejected(
        "gatti-3", g3(declarations=decl))


def test_s2_4_frilli_are_the_pip_cards_1_to_10() -> None:
    decl = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C") + ["JS"]}]
    assert ("declarations[0].cards[20]", "card_not_in_meld") in rejected(
        "gatti-3", g3(declarations=decl))
    decl = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")[:19] + ["T5"]}]
    assert ("declarations[0].cards[19]", "card_not_in_meld") in rejected(
        "gatti-3", g3(declarations=decl))


def test_s2_4_frilli_and_trumps_score_what_is_shown() -> None:
    # a player may show fewer than held (at least the threshold) and scores what is shown
    decl = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C") + ["5S"]},
            {"seat": 2, "kind": "trumps", "count": 12}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1, "meld") == [("meld", 21)]
    assert lines(result, 2, "meld") == [("meld", 12)]


def test_s2_4_gatti_is_fool_t1_t21_for_10() -> None:
    for decl in ({"seat": 1, "kind": "gatti", "cards": ["T21", "FOOL", "T1"]},
                 {"seat": 1, "kind": "gatti"}):
        result = score("gatti-3", g3(declarations=[decl]))
        meld = line_dicts(result, 1, "meld")[0]
        assert (meld["kind"], meld["mark"], meld["points"]) == ("gatti", "G", 10)
        assert sorted(meld["cards"]) == ["FOOL", "T1", "T21"]
    wrong = [{"seat": 1, "kind": "gatti", "cards": ["FOOL", "T1", "T20"]}]
    assert ("declarations[0].cards", "not_a_meld") in rejected("gatti-3", g3(declarations=wrong))


def test_s2_4_family_is_j_c_q_k_of_one_suit_for_10_marked_with_the_suit() -> None:
    for suit, symbol in (("H", "♥"), ("D", "♦"), ("C", "♣"), ("S", "♠")):
        decl = [{"seat": 1, "kind": "family", "cards": [f"{r}{suit}" for r in "JCQK"]}]
        result = score("gatti-3", g3(declarations=decl))
        meld = line_dicts(result, 1, "meld")[0]
        assert (meld["kind"], meld["mark"], meld["points"]) == ("family", symbol, 10)
    wrong = [{"seat": 1, "kind": "family", "cards": ["JD", "CD", "QD", "KH"]}]
    assert ("declarations[0].cards", "not_a_meld") in rejected("gatti-3", g3(declarations=wrong))
    three = [{"seat": 1, "kind": "family", "cards": ["CD", "QD", "KD"]}]
    assert ("declarations[0].cards", "not_a_meld") in rejected("gatti-3", g3(declarations=three))


@pytest.mark.parametrize("rank", ["J", "C", "Q", "K"])
def test_s2_4_four_of_a_kind_is_10_marked_with_the_rank(rank: str) -> None:
    decl = [{"seat": 2, "kind": "four_of_a_kind", "cards": [f"{rank}{s}" for s in "HDCS"]}]
    result = score("gatti-3", g3(declarations=decl))
    meld = line_dicts(result, 2, "meld")[0]
    assert (meld["kind"], meld["mark"], meld["points"]) == ("four_of_a_kind", rank, 10)


@pytest.mark.parametrize("rank", ["J", "C", "Q", "K"])
def test_s2_4_three_of_a_kind_is_5_marked_with_the_rank(rank: str) -> None:
    decl = [{"seat": 2, "kind": "three_of_a_kind", "cards": [f"{rank}{s}" for s in "HDC"]}]
    result = score("gatti-3", g3(declarations=decl))
    meld = line_dicts(result, 2, "meld")[0]
    assert (meld["kind"], meld["mark"], meld["points"]) == ("three_of_a_kind", rank, 5)


def test_s2_4_of_a_kind_is_of_court_cards_only() -> None:
    for decl in ({"seat": 2, "kind": "three_of_a_kind", "cards": ["7H", "7D", "7C"]},
                 {"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "QC"]},
                 {"seat": 2, "kind": "four_of_a_kind", "cards": ["KH", "KD", "KC"]},
                 {"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KC", "KS"]}):
        assert ("declarations[0].cards", "not_a_meld") in rejected(
            "gatti-3", g3(declarations=[decl]))
    assert ("declarations[0].rank", "invalid_rank") in rejected(
        "gatti-3", g3(declarations=[{"seat": 2, "kind": "four_of_a_kind", "rank": "7"}]))


def test_s2_4_melds_may_share_cards() -> None:
    decl = [{"seat": 1, "kind": "family", "cards": ["JH", "CH", "QH", "KH"]},
            {"seat": 1, "kind": "four_of_a_kind", "cards": ["KH", "KD", "KC", "KS"]}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1, "meld") == [("meld", 10), ("meld", 10)]


def test_r1_three_then_four_kings_is_5_plus_5() -> None:
    decl = [{"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]},
            {"seat": 2, "kind": "four_of_a_kind", "cards": ["KH", "KD", "KS", "KC"]}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 2) == [("meld", 5), ("meld", 5), ("deck_points", 20)]
    assert result["columns"]["2"] == 30
    assert line_dicts(result, 2, "meld")[1]["rule"] == "R1"


def test_r1_10_then_11_trumps_is_10_plus_1() -> None:
    decl = [{"seat": 1, "kind": "trumps", "cards": trumps(2, 11)},
            {"seat": 1, "kind": "trumps", "cards": trumps(2, 12)}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1) == [("meld", 10), ("meld", 1), ("deck_points", 31)]
    decl[1] = {"seat": 1, "kind": "trumps", "count": 11}
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1) == [("meld", 10), ("meld", 1), ("deck_points", 31)]


def test_r1_same_meld_declared_twice_adds_nothing() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "D"},
            {"seat": 1, "kind": "family", "cards": ["JD", "CD", "QD", "KD"]}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1, "meld") == [("meld", 10), ("meld", 0)]


def test_r1_different_melds_add_up_family_and_four_kings() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "H"},
            {"seat": 1, "kind": "four_of_a_kind", "rank": "K"},
            {"seat": 1, "kind": "three_of_a_kind", "cards": ["QH", "QD", "QS"]},
            {"seat": 1, "kind": "family", "suit": "S"}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1, "meld") == [("meld", 10), ("meld", 10), ("meld", 5), ("meld", 10)]
    assert result["columns"]["1"] == 31 + 35


def test_r1_upgrades_are_per_player() -> None:
    decl = [{"seat": 1, "kind": "three_of_a_kind", "cards": ["QH", "QD", "QS"]},
            {"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]}]
    result = score("gatti-3", g3(declarations=decl))
    assert lines(result, 1, "meld") == [("meld", 5)]
    assert lines(result, 2, "meld") == [("meld", 5)]


def test_r2_shown_cards_must_form_the_meld() -> None:
    decl = [{"seat": 1, "kind": "four_of_a_kind", "cards": ["QH", "QD", "QS", "KS"]}]
    assert rejected("gatti-3", g3(declarations=decl)) == {
        ("declarations[0].cards", "not_a_meld")}


def test_r2_discarded_cards_cannot_be_shown() -> None:
    decl = [{"seat": 0, "kind": "frilli", "cards": ["2H"] + pips("D", "C")[:19]}]
    assert ("declarations[0].cards[0]", "discarded_card_declared") in rejected(
        "gatti-3", g3(declarations=decl))
    decl = [{"seat": 0, "kind": "three_of_a_kind", "cards": ["QH", "QD", "QS"]}]
    assert ("declarations[0].cards[1]", "discarded_card_declared") in rejected(
        "gatti-3", g3(moved(G3_SPEC, QD=0), discard=["QD", "2H", "3H"], declarations=decl))


def test_r2_no_card_shown_by_two_players() -> None:
    decl = [{"seat": 1, "kind": "family", "cards": ["JD", "CD", "QD", "KD"]},
            {"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]}]
    assert rejected("gatti-3", g3(declarations=decl)) == {
        ("declarations[1].cards[1]", "shown_by_two_players")}


def test_r2_declaration_by_suit_is_checked_as_if_shown() -> None:
    decl = [{"seat": 0, "kind": "family", "suit": "D"}]
    assert ("declarations[0]", "discarded_card_declared") in rejected(
        "gatti-3", g3(moved(G3_SPEC, QD=0), discard=["QD", "2H", "3H"], declarations=decl))
    decl = [{"seat": 1, "kind": "family", "suit": "coppe"},
            {"seat": 2, "kind": "four_of_a_kind", "rank": "re"}]
    assert ("declarations[1]", "shown_by_two_players") in rejected(
        "gatti-3", g3(declarations=decl))
    ok = score("gatti-3", g3(declarations=[{"seat": 1, "kind": "family", "suit": "♦"}]))
    assert line_dicts(ok, 1, "meld")[0]["cards"] == ["JD", "CD", "QD", "KD"]


def test_r2_declaration_by_rank_is_checked_as_if_shown() -> None:
    decl = [{"seat": 1, "kind": "four_of_a_kind", "rank": "Q"}]
    assert ("declarations[0]", "discarded_card_declared") in rejected(
        "gatti-3", g3(moved(G3_SPEC, QD=0), discard=["QD", "2H", "3H"], declarations=decl))
    # three Kings by rank twice need six Kings
    decl = [{"seat": 1, "kind": "three_of_a_kind", "rank": "K"},
            {"seat": 2, "kind": "three_of_a_kind", "rank": "K"}]
    assert ("declarations", "more_than_the_pack") in rejected("gatti-3", g3(declarations=decl))


def test_r2_declaration_by_count_is_checked_against_the_pack() -> None:
    decl = [{"seat": 1, "kind": "trumps", "count": 11},
            {"seat": 2, "kind": "trumps", "count": 11}]
    assert ("declarations", "more_than_the_pack") in rejected("gatti-3", g3(declarations=decl))
    # the discard holds two trumps: 19 left in play, and 20 are claimed
    decl = [{"seat": 1, "kind": "trumps", "count": 10},
            {"seat": 2, "kind": "trumps", "count": 10}]
    assert score("gatti-3", g3(declarations=decl))["columns"] == {"0": 27, "1": 41, "2": 30}
    assert ("declarations", "more_than_the_pack") in rejected(
        "gatti-3", g3(discard=["T5", "T6", "2H"], declarations=decl))
    # counts against cards shown by another player
    decl = [{"seat": 1, "kind": "trumps", "cards": trumps(2, 13)},
            {"seat": 2, "kind": "trumps", "count": 10}]
    assert ("declarations", "more_than_the_pack") in rejected("gatti-3", g3(declarations=decl))


def test_r2_a_player_cannot_show_more_cards_than_a_hand() -> None:
    decl = [{"seat": 1, "kind": "frilli", "cards": pips("D", "C")},
            {"seat": 1, "kind": "trumps", "cards": trumps(2, 11)}]
    assert ("declarations", "more_than_a_hand") in rejected("gatti-3", g3(declarations=decl))


def test_r2_a_declaration_gives_cards_or_what_it_is_not_both() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "D", "cards": ["JD", "CD", "QD", "KD"]}]
    assert ("declarations[0]", "ambiguous_declaration") in rejected(
        "gatti-3", g3(declarations=decl))
    decl = [{"seat": 1, "kind": "family", "count": 4}]
    assert ("declarations[0].count", "field_not_for_kind") in rejected(
        "gatti-3", g3(declarations=decl))


def test_r7_partners_do_not_combine_cards_into_one_meld() -> None:
    # ten pips each: 20 between them, but each hand is below 15
    decl = [{"seat": 0, "kind": "frilli", "cards": pips("D")},
            {"seat": 2, "kind": "frilli", "cards": pips("C")}]
    assert rejected("gatti-4", g4(declarations=decl)) == {
        ("declarations[0].cards", "below_threshold"), ("declarations[1].cards", "below_threshold")}
    decl = [{"seat": 0, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]},
            {"seat": 2, "kind": "four_of_a_kind", "cards": ["KH", "KD", "KS", "KC"]}]
    found = rejected("gatti-4", g4(declarations=decl))
    assert ("declarations[1].cards[0]", "shown_by_two_players") in found


def test_r7_each_partners_melds_score_for_the_pair() -> None:
    decl = [{"seat": 0, "kind": "family", "suit": "D"},
            {"seat": 2, "kind": "three_of_a_kind", "cards": ["QH", "QC", "QS"]},
            {"seat": 1, "kind": "trumps", "cards": trumps(2, 9)}]
    result = score("gatti-4", g4(declarations=decl))
    assert lines(result, 0) == [("meld", 10), ("meld", 5), ("deck_points", 40)]
    assert lines(result, 1) == [("meld", 8), ("deck_points", 32)]
    assert result["columns"] == {"0": 55, "1": 40}


def test_r7_gatti_2_dummies_declare_and_score_for_their_controller() -> None:
    decl = [{"seat": 2, "kind": "family", "suit": "D"},
            {"seat": 3, "kind": "trumps", "count": 8},
            {"seat": 0, "kind": "three_of_a_kind", "rank": "Q"}]
    result = score("gatti-2", g4(declarations=decl))
    assert [(m["seat"], m["points"]) for m in line_dicts(result, 0, "meld")] == [(2, 10), (0, 5)]
    assert [(m["seat"], m["points"]) for m in line_dicts(result, 1, "meld")] == [(3, 8)]
    assert result["columns"] == {"0": 55, "1": 40}
    # a dummy's hand is its own: its melds do not combine with its player's
    decl = [{"seat": 0, "kind": "frilli", "cards": pips("D")},
            {"seat": 2, "kind": "frilli", "cards": pips("C")}]
    assert ("declarations[0].cards", "below_threshold") in rejected(
        "gatti-2", g4(declarations=decl))


def test_s2_4_no_meld_option_scores_no_melds() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "D"}]
    assert rejected("gatti-3", g3(declarations=decl), {"melds": "none"}) == {
        ("declarations", "hand_melds_not_played")}
    # the families in the piles score nothing either
    result = score("gatti-3", g3(), {"melds": "none"})
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}
    assert all(ln["item"] == "deck_points" for s in result["sides"] for ln in s["lines"])


#: Captured melds: side 0 holds gatti and four Kings, side 1 three Queens, side 2 (derived)
#: four Jacks. Deck points 9 + 28 = 37, 10 + 13 = 23, 7 + 11 = 18.
CAPTURED_SPEC = {0: (9, ["T1", "T21", "FOOL", "KH", "KD", "KS", "KC"]),
                 1: (10, ["QH", "QD", "QS", "CH", "CD"]),
                 2: (7, ["QC", "CC", "CS", "JH", "JD", "JC", "JS"])}


def test_s2_4_captured_meld_option_scores_each_sides_pile() -> None:
    for omit in (None, 2):
        hand = g3(piles=summary_piles(CAPTURED_SPEC, omit=omit))
        result = score("gatti-3", hand, {"melds": "captured"})
        got = [[(ln["kind"], ln["points"]) for ln in line_dicts(result, s, "captured_meld")]
               for s in range(3)]
        assert got == [[("gatti", 10), ("four_of_a_kind", 10)], [("three_of_a_kind", 5)],
                       [("four_of_a_kind", 10)]]
        assert result["columns"] == {"0": 57, "1": 28, "2": 28}
    full = {"dealer": 0, "discard": G3_DISCARD,
            "piles": full_piles("gatti-3", G3_DISCARD, 0, CAPTURED_SPEC)}
    assert score("gatti-3", full, {"melds": "captured"})["columns"] == {
        "0": 57, "1": 28, "2": 28}


def test_s2_4_captured_meld_option_replaces_hand_melds() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "D"}]
    assert rejected("gatti-3", g3(declarations=decl), {"melds": "captured"}) == {
        ("declarations", "hand_melds_not_played")}


def test_s2_4_both_option_scores_hand_and_captured_melds() -> None:
    decl = [{"seat": 1, "kind": "family", "suit": "D"}]
    result = score("gatti-3", g3(declarations=decl, piles=summary_piles(CAPTURED_SPEC)),
                   {"melds": "both"})
    assert lines(result, 1) == [("meld", 10), ("captured_meld", 5), ("deck_points", 23)]
    assert result["columns"] == {"0": 57, "1": 38, "2": 28}


def test_s2_4_captured_melds_in_a_pairs_joint_pile() -> None:
    result = score("gatti-4", g4(), {"melds": "captured"})
    kinds0 = sorted((ln["kind"], ln["mark"], ln["points"])
                    for ln in line_dicts(result, 0, "captured_meld"))
    # side 0 holds T1 T21 FOOL, K♥ K♦ Q♥ Q♦ C♥ J♥: gatti and the family of hearts
    assert kinds0 == [("family", "♥", 10), ("gatti", "G", 10)]
    # side 1 holds K Q C J of clubs and of spades, and J♦ C♦: two families, three Jacks and
    # three Cavaliers
    kinds1 = sorted((ln["kind"], ln["mark"], ln["points"])
                    for ln in line_dicts(result, 1, "captured_meld"))
    assert kinds1 == [("family", "♠", 10), ("family", "♣", 10), ("three_of_a_kind", "C", 5),
                      ("three_of_a_kind", "J", 5)]
    assert result["columns"] == {"0": 60, "1": 62}


def test_r8_four_of_a_kind_in_a_pile_scores_10_not_15() -> None:
    result = score("gatti-3", g3(piles=summary_piles(CAPTURED_SPEC)), {"melds": "captured"})
    kings = [ln for ln in line_dicts(result, 0, "captured_meld") if ln["mark"] == "K"]
    assert [(k["kind"], k["points"]) for k in kings] == [("four_of_a_kind", 10)]


def test_r8_frilli_and_trumps_are_never_captured() -> None:
    every_trump = trumps(1, 21)
    spare_pips = [c for c in pips("H", "D", "C", "S") if c not in G3_DISCARD]
    side0 = G3_DISCARD + every_trump + spare_pips[:30]
    side1 = ["FOOL"] + spare_pips[30:] + [f"{r}{s}" for s in "HDCS" for r in "JCQK"]
    assert (len(side0), len(side1)) == (54, 24)
    hand = {"dealer": 0, "discard": G3_DISCARD,
            "piles": [{"side": 0, "cards": side0}, {"side": 1, "cards": side1}]}
    for option in ("captured", "both"):
        result = score("gatti-3", hand, {"melds": option})
        assert line_dicts(result, 0, "captured_meld") == []
        assert lines(result, 0) == [("deck_points", 18 + 8)]
        kinds = {ln["kind"] for ln in line_dicts(result, 1, "captured_meld")}
        assert kinds == {"family", "four_of_a_kind"}
        assert sum(p for _, p in lines(result, 1, "captured_meld")) == 80


# == §2.5 play: Bagatto ultimo and the Fool =====================================================


def test_s2_5_bagatto_ultimo_3_handed_won_is_20() -> None:
    result = score("gatti-3", g3(moved(G3_SPEC, T1=1), bagatto={"seat": 1, "won": True}))
    assert lines(result, 1) == [("bagatto_ultimo", 20), ("deck_points", 35)]
    bag = line_dicts(result, 1, "bagatto_ultimo")[0]
    assert (bag["seat"], bag["won"], bag["mark"]) == (1, True, "B")
    assert result["columns"] == {"0": 23, "1": 55, "2": 20}


def test_s2_5_bagatto_ultimo_3_handed_lost_is_10_to_each_opponent() -> None:
    result = score("gatti-3", g3(moved(G3_SPEC, T1=2), bagatto={"seat": 1, "won": False}))
    assert lines(result, 0) == [("bagatto_ultimo", 10), ("deck_points", 23)]
    assert lines(result, 1) == [("deck_points", 31)]
    assert lines(result, 2) == [("bagatto_ultimo", 10), ("deck_points", 24)]
    assert result["columns"] == {"0": 33, "1": 31, "2": 34}


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_5_bagatto_ultimo_4_handed_won_is_20_to_the_side(vid: str) -> None:
    result = score(vid, hand_for(vid, bagatto={"seat": 2, "won": True}))
    assert lines(result, 0) == [("bagatto_ultimo", 20), ("deck_points", 40)]
    assert lines(result, 1) == [("deck_points", 32)]


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_5_bagatto_ultimo_4_handed_lost_is_20_to_the_opponents(vid: str) -> None:
    # seat 1 played T1 to the last trick and seat 0 took it
    result = score(vid, hand_for(vid, bagatto={"seat": 1, "won": False}))
    assert lines(result, 0) == [("bagatto_ultimo", 20), ("deck_points", 40)]
    assert lines(result, 1) == [("deck_points", 32)]


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_s2_5_bagatto_ultimo_partner_winning_counts_as_a_loss(vid: str) -> None:
    # seat 0 played T1 and its partner (seat 2) won the trick: T1 is in its own pair's pile
    result = score(vid, hand_for(vid, bagatto={"seat": 0, "won": False}))
    assert lines(result, 0) == [("deck_points", 40)]
    assert lines(result, 1) == [("bagatto_ultimo", 20), ("deck_points", 32)]


def test_r6_bagatto_in_gatti_4_call_is_credited_per_player() -> None:
    hand = {"dealer": 1, "discard": ["2H", "3H"], "call": {"card": "KD", "partner": 1},
            "piles": [{"side": 0, "tricks": 5, "counting": ["KD", "T1"]}],
            "bagatto": {"seat": 1, "won": True}}
    assert score("gatti-4-call", hand)["columns"] == {"0": 59, "1": 33, "2": 59, "3": 59}
    hand["piles"] = [{"side": 0, "tricks": 5, "counting": ["KD"]}]
    hand["bagatto"] = {"seat": 1, "won": False}
    assert score("gatti-4-call", hand)["columns"] == {"0": 83, "1": 9, "2": 83, "3": 83}


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_5_bagatto_ultimo_option_off_rejects_a_bagatto_record(vid: str) -> None:
    hand = hand_for(vid, bagatto={"seat": 0, "won": True})
    assert ("bagatto", "bagatto_ultimo_off") in rejected(vid, hand, {"bagatto_ultimo": False})
    assert find_variant(vid).option_defaults()["bagatto_ultimo"] is True


def test_s2_5_bagatto_won_is_in_its_players_pile() -> None:
    assert ("bagatto.won", "bagatto_misplaced") in rejected(
        "gatti-3", g3(bagatto={"seat": 1, "won": True}))  # T1 is in seat 0's pile


def test_s2_5_bagatto_lost_3_handed_is_in_the_winners_pile() -> None:
    assert ("bagatto.won", "bagatto_misplaced") in rejected(
        "gatti-3", g3(bagatto={"seat": 0, "won": False}))  # T1 is in seat 0's own pile


def test_s2_5_bagatto_discarded_cannot_be_played_last() -> None:
    assert ("bagatto.seat", "bagatto_discarded") in rejected(
        "gatti-3", g3(discard=["T1", "2H", "3H"], bagatto={"seat": 0, "won": True}))


def test_s2_5_bagatto_shown_by_another_player() -> None:
    decl = [{"seat": 2, "kind": "gatti"}]
    assert ("bagatto.seat", "bagatto_held_by_other") in rejected(
        "gatti-3", g3(declarations=decl, bagatto={"seat": 0, "won": True}))


def test_s2_5_covered_fool_stays_with_its_player() -> None:
    result = score("gatti-3", g3(fool={"played_by": 1, "trick": 4, "covered": True}))
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}
    assert "fool_handed_over" not in result["events"]
    assert ("fool.covered", "fool_misplaced") in rejected(
        "gatti-3", g3(fool={"played_by": 2, "trick": 4, "covered": True}))


def test_s2_5_uncovered_fool_goes_to_the_tricks_winner() -> None:
    result = score("gatti-3", g3(fool={"played_by": 2, "trick": 4, "covered": False}))
    assert "fool_handed_over" in result["events"]
    assert ("fool.covered", "fool_misplaced") in rejected(
        "gatti-3", g3(fool={"played_by": 1, "trick": 4, "covered": False}))


def test_s2_5_four_handed_fool_nothing_owed_when_the_partner_won() -> None:
    result = score("gatti-4", g4(fool={"played_by": 2, "trick": 3, "covered": False}))
    assert result["columns"] == {"0": 40, "1": 32}


def test_s2_5_fool_played_to_the_last_trick_cannot_be_covered() -> None:
    assert ("fool.covered", "fool_cannot_be_covered") in rejected(
        "gatti-3", g3(fool={"played_by": 1, "trick": 25, "covered": True}))


def test_s2_5_fool_in_the_last_trick_stays_when_the_partner_wins_it() -> None:
    # 4-handed: nothing is owed when the Fool-player's partner won the trick, even the last.
    result = score("gatti-4", g4(fool={"played_by": 0, "trick": 19, "covered": True}))
    assert sum(result["columns"].values()) == 72


def test_s2_5_fool_trick_number_is_a_trick_that_was_played() -> None:
    # 25 tricks are played in gatti-3 (the discard counts as a 26th but is not played)
    assert ("fool.trick", "out_of_range") in rejected(
        "gatti-3", g3(fool={"played_by": 2, "trick": 26, "covered": False}))
    assert ("fool.trick", "out_of_range") in rejected(
        "gatti-4", g4(fool={"played_by": 0, "trick": 20}))
    assert ("fool.trick", "out_of_range") in rejected(
        "gatti-3", g3(fool={"played_by": 1, "trick": 0}))


def test_s2_5_fool_in_the_discard_was_never_played() -> None:
    spec = moved(G3_SPEC, FOOL=0)
    assert ("fool.played_by", "fool_discarded") in rejected(
        "gatti-3", g3(spec, discard=["FOOL", "2H", "3H"], fool={"played_by": 0}))


def test_s2_5_fool_shown_by_another_player() -> None:
    decl = [{"seat": 2, "kind": "gatti"}]
    assert ("fool.played_by", "fool_held_by_other") in rejected(
        "gatti-3", g3(declarations=decl, fool={"played_by": 1}))


# == §2.6 scoring a hand ========================================================================


def test_s2_6_deck_points_are_tricks_plus_counting_cards() -> None:
    result = score("gatti-3", g3())
    got = [(d["tricks"], d["trick_points"], d["counting"], d["points"])
           for s in range(3) for d in line_dicts(result, s, "deck_points")]
    assert got == [(9, 9, 18, 27), (10, 10, 21, 31), (7, 7, 13, 20)]
    assert sorted(line_dicts(result, 0, "deck_points")[0]["counting_cards"]) == sorted(
        G3_SPEC[0][1])


def test_s2_6_hand_score_is_deck_points_plus_melds_plus_bagatto() -> None:
    decl = [{"seat": 1, "kind": "gatti"}, {"seat": 2, "kind": "family", "suit": "S"},
            {"seat": 0, "kind": "frilli", "count": 22}]
    spec = moved(G3_SPEC, T1=1)
    result = score("gatti-3", g3(spec, declarations=decl, bagatto={"seat": 1, "won": True}))
    assert lines(result, 0) == [("meld", 22), ("deck_points", 23)]
    assert lines(result, 1) == [("meld", 10), ("bagatto_ultimo", 20), ("deck_points", 35)]
    assert lines(result, 2) == [("meld", 10), ("deck_points", 20)]
    assert result["columns"] == {"0": 45, "1": 65, "2": 30}
    for side in result["sides"]:
        assert side["total"] == sum(ln["points"] for ln in side["lines"])


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_r5_deck_points_always_total_the_hands_total(vid: str) -> None:
    result = score(vid, hand_for(vid))
    assert sum(deck(result)) == find_variant(vid).deck_total


def test_r5_deck_points_must_total_78_the_7_58_7_record_is_rejected() -> None:
    rest = [c.code for c in sorted(find_variant("gatti-3").counting_cards, key=str)
            if c.code not in ("KH", "KD")]
    hand = {"dealer": 0, "discard": G3_DISCARD,
            "piles": [{"side": 0, "tricks": 3, "counting": ["KH"]},
                      {"side": 1, "tricks": 14, "counting": rest},
                      {"side": 2, "tricks": 3, "counting": ["KD"]}]}
    problems = problem_list("gatti-3", hand)
    assert [(p.field, p.code, p.rule) for p in problems] == [
        ("piles", "deck_points_total", "R5")]
    assert "78" in problems[0].message


def test_r5_deck_points_must_total_72_four_handed() -> None:
    hand = g4(piles=[{"side": 0, "tricks": 11, "counting": G4_SPEC[0][1]},
                     {"side": 1, "tricks": 8, "counting": G4_SPEC[1][1]}])
    assert rejected("gatti-4", hand) == {("piles", "deck_points_total")}
    hand = g4(piles=[{"side": 0, "tricks": 11, "counting": G4_SPEC[0][1]},
                     {"side": 1, "tricks": 9, "counting": G4_SPEC[1][1][:-1]}])
    assert rejected("gatti-4", hand) == {("piles", "deck_points_total")}


def test_r5_piles_that_hold_too_many_tricks_are_rejected() -> None:
    hand = g3(piles=[{"side": 0, "tricks": 15}, {"side": 1, "tricks": 15}])
    found = rejected("gatti-3", hand)
    assert ("piles", "tricks_total") in found or ("piles", "deck_points_total") in found


def test_s2_6_full_and_summary_forms_score_alike() -> None:
    summary = score("gatti-3", g3())
    full = score("gatti-3", {"dealer": 0, "discard": G3_DISCARD,
                             "piles": full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)})
    assert full["columns"] == summary["columns"]
    assert deck(full) == deck(summary)
    summary4 = score("gatti-4", g4())
    full4 = score("gatti-4", {"dealer": 0, "discard": G4_DISCARD,
                              "piles": full_piles("gatti-4", G4_DISCARD, 0, G4_SPEC)})
    assert full4["columns"] == summary4["columns"] == {"0": 40, "1": 32}


@pytest.mark.parametrize("omit", [0, 1, 2])
def test_s2_6_one_pile_may_be_omitted_and_is_the_rest_of_the_pack(omit: int) -> None:
    result = score("gatti-3", g3(piles=summary_piles(G3_SPEC, omit=omit)))
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}
    derived = line_dicts(result, omit, "deck_points")[0]
    assert derived["derived"] is True
    assert "rest of the pack" in derived["text"]
    full = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    del full[omit]
    result = score("gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": full})
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}


def test_s2_6_mixed_full_and_summary_piles() -> None:
    full = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    piles = [full[0], summary_piles(G3_SPEC)[1]]
    result = score("gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": piles})
    assert result["columns"] == {"0": 27, "1": 31, "2": 20}


def test_s2_6_all_but_one_pile_must_be_given() -> None:
    assert rejected("gatti-3", g3(piles=summary_piles(G3_SPEC)[:1])) == {
        ("piles", "piles_missing")}
    assert rejected("gatti-3", g3(piles=[])) == {("piles", "missing_field")}
    hand = g3()
    del hand["piles"]
    assert rejected("gatti-3", hand) == {("piles", "missing_field")}


def test_s2_6_pile_sizes_are_whole_tricks_3_handed() -> None:
    piles = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    piles[1]["cards"].append(piles[2]["cards"].pop())  # 31 and 20 cards
    assert ("piles[1].cards", "pile_not_whole_tricks") in rejected(
        "gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": piles})


def test_s2_6_pile_sizes_are_whole_tricks_4_handed() -> None:
    piles = full_piles("gatti-4", G4_DISCARD, 0, G4_SPEC)
    piles[1]["cards"].append(piles[0]["cards"].pop())  # 41 and 37 cards
    found = rejected("gatti-4", {"dealer": 0, "discard": G4_DISCARD, "piles": piles})
    assert ("piles[0].cards", "pile_not_whole_tricks") in found
    assert ("piles[1].cards", "pile_not_whole_tricks") in found


def test_s2_6_only_the_pile_holding_the_discard_has_the_2_extra_cards() -> None:
    # 4-handed: the dealer's pair's 40 cards hold the discard, so they are 9 tricks and the
    # discard plus 6 cards -- no whole tricks; the other pile's 38 cards hold no discard.
    v = find_variant("gatti-4")
    rest = [c.code for c in v.pack.cards if c.code not in G4_DISCARD]
    piles = [{"side": 0, "cards": G4_DISCARD + rest[:38]}, {"side": 1, "cards": rest[38:]}]
    found = rejected("gatti-4", {"dealer": 0, "discard": G4_DISCARD, "piles": piles})
    assert {code for _, code in found} & {"pile_not_whole_tricks"}, found
    assert {f for f, c in found if c == "pile_not_whole_tricks"} <= {
        "piles[0].cards", "piles[1].cards", "piles"}


def test_s2_6_piles_partition_the_pack_a_card_in_two_piles() -> None:
    piles = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    dup = piles[0]["cards"][5]
    piles[1]["cards"][-1] = dup
    at = len(piles[1]["cards"]) - 1
    assert (f"piles[1].cards[{at}]", "card_in_two_piles") in rejected(
        "gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": piles})
    summary = summary_piles(moved(G3_SPEC))
    summary[2]["counting"].append("KH")
    assert (f"piles[2].counting[{len(summary[2]['counting']) - 1}]", "card_in_two_piles") in \
        rejected("gatti-3", g3(piles=summary))


def test_s2_6_cards_missing_from_a_complete_record() -> None:
    piles = full_piles("gatti-3", G3_DISCARD, 0, G3_SPEC)
    # three worthless cards lost: 75 cards, 25 tricks -- the deck is short
    for _ in range(3):
        piles[1]["cards"].remove(next(c for c in reversed(piles[1]["cards"])
                                      if c not in G3_SPEC[1][1]))
    assert rejected("gatti-3", {"dealer": 0, "discard": G3_DISCARD, "piles": piles}) == {
        ("piles", "deck_points_total")}
    # four-handed without a recorded discard: two piles of 4k + 2 cards are 20 tricks but only
    # 76 cards
    v = find_variant("gatti-4")
    codes = [c.code for c in v.pack.cards if c.code not in ("2H", "3H")]
    found = rejected("gatti-4", {"dealer": 0,
                                 "piles": [{"side": 0, "cards": codes[:38]},
                                           {"side": 1, "cards": codes[38:]}]})
    assert ("piles", "cards_missing") in found or any(
        c == "pile_not_whole_tricks" for _, c in found), found


def test_s2_6_summary_piles_list_counting_cards_only() -> None:
    piles = summary_piles(G3_SPEC)
    piles[0]["counting"].insert(1, "7S")
    assert rejected("gatti-3", g3(piles=piles)) == {("piles[0].counting[1]", "not_a_counting_card")}


def test_s2_6_a_pile_is_either_every_card_or_a_summary() -> None:
    piles = summary_piles(G3_SPEC)
    piles[0]["cards"] = ["7S"]
    assert ("piles[0]", "mixed_pile_forms") in rejected("gatti-3", g3(piles=piles))
    assert ("piles[0]", "missing_field") in rejected(
        "gatti-3", g3(piles=[{"side": 0, "counting": ["KH"]}, {"side": 1, "tricks": 3}]))


def test_s2_6_a_side_has_one_pile() -> None:
    piles = summary_piles(G3_SPEC)
    piles[2]["side"] = 1
    assert ("piles[2].side", "duplicate_pile") in rejected("gatti-3", g3(piles=piles))


@pytest.mark.parametrize(("vid", "side"), [("gatti-3", 3), ("gatti-4", 2), ("gatti-2", 2),
                                           ("gatti-4-call", 2)])
def test_s2_6_pile_side_out_of_range(vid: str, side: int) -> None:
    assert ("piles[0].side", "out_of_range") in rejected(
        vid, hand_for(vid, piles=[{"side": side, "tricks": 3}]))


@pytest.mark.parametrize("vid", ALL_FORMS)
def test_s2_6_pile_tricks_at_most_the_hands_tricks(vid: str) -> None:
    v = find_variant(vid)
    assert ("piles[0].tricks", "out_of_range") in rejected(
        vid, hand_for(vid, piles=[{"side": 0, "tricks": v.tricks_per_hand + 1}]))


def test_s2_6_a_side_that_took_no_trick_has_no_cards() -> None:
    piles = [{"side": 0, "tricks": 9, "counting": G3_SPEC[0][1]},
             {"side": 1, "tricks": 0, "counting": ["KC"]}]
    assert ("piles[1].counting", "cards_without_tricks") in rejected("gatti-3", g3(piles=piles))


def test_s2_6_an_omitted_pile_without_tricks_cannot_hold_counting_cards() -> None:
    # sides 0 and 1 take all 26 tricks (the discard included) but list only 18 + 21 points:
    # the rest of the pack -- side 2 with no trick -- would hold 13 points of counting cards.
    piles = [{"side": 0, "tricks": 9, "counting": G3_SPEC[0][1]},
             {"side": 1, "tricks": 17, "counting": G3_SPEC[1][1]}]
    found = rejected("gatti-3", g3(piles=piles))
    assert found == {("piles", "more_counting_cards_than_pile")}, found


def test_s2_6_a_summary_pile_holds_no_more_counting_cards_than_its_cards() -> None:
    # 2 tricks are 6 cards, and 7 counting cards are listed
    piles = [{"side": 0, "tricks": 9, "counting": ["T1", "KH", "QH", "CH", "JH", "JD"]},
             {"side": 1, "tricks": 2, "counting": ["KD", "KS", "KC", "QD", "QS", "QC", "CS"]}]
    found = rejected("gatti-3", g3(piles=piles))
    assert ("piles[1].counting", "more_counting_cards_than_pile") in found, found


# == R10 the end of a game ======================================================================


def _results(*columns: dict[str, int]) -> list[HandResult]:
    return [HandResult((), tuple(c.items())) for c in columns]


def test_r10_gatti_3_ends_after_3_hands_and_the_highest_total_wins() -> None:
    setup = validate_game_setup(find_variant("gatti-3"), None, ["A", "B", "C"], 1)
    hands = _results({"0": 30, "1": 20, "2": 28}, {"0": 20, "1": 40, "2": 18},
                     {"0": 28, "1": 10, "2": 40})
    two = game_summary(setup, hands[:2])
    assert (two.finished, two.winners, two.next_dealer, two.hands_played) == (False, (), 0, 2)
    three = game_summary(setup, hands)
    assert three.finished and three.next_dealer is None
    assert dict(three.totals) == {"0": 78, "1": 70, "2": 86}
    assert three.winners == ("2",)


@pytest.mark.parametrize("vid", FOUR_HANDED)
def test_r10_four_handed_forms_end_after_4_hands(vid: str) -> None:
    v = find_variant(vid)
    setup = validate_game_setup(v, None, ["A", "B", "C", "D"][:v.players], 0)
    keys = [c.key for c in setup.columns()]
    hands = [HandResult((), tuple((k, 10 + i + n) for i, k in enumerate(keys)))
             for n in range(4)]
    assert not game_summary(setup, hands[:3]).finished
    summary = game_summary(setup, hands)
    assert summary.finished and summary.hands_played == 4
    assert summary.winners == (keys[-1],)


def test_r10_equal_totals_share_the_win() -> None:
    setup = validate_game_setup(find_variant("gatti-3"), None, ["A", "B", "C"], 0)
    hands = _results({"0": 30, "1": 20, "2": 28}, {"0": 20, "1": 40, "2": 18},
                     {"0": 28, "1": 18, "2": 32})
    summary = game_summary(setup, hands)
    assert dict(summary.totals) == {"0": 78, "1": 78, "2": 78}
    assert summary.winners == ("0", "1", "2")
    hands[2] = HandResult((), (("0", 30), ("1", 20), ("2", 0)))
    assert game_summary(setup, hands).winners == ("0", "1")


def test_r10_a_real_game_of_scored_hands() -> None:
    v = find_variant("gatti-3")
    setup = validate_game_setup(v, None, ["Anna", "Bruno", "Carla"], 0)
    results = []
    for dealer in range(3):
        record = parse_hand_record(v, {"dealer": dealer, "discard": ["5C", "6C", "7C"],
                                       "piles": summary_piles(G3_SPEC)})
        results.append(score_hand(v, setup.options, record))
    summary = game_summary(setup, results)
    assert dict(summary.totals) == {"0": 81, "1": 93, "2": 60}
    assert summary.finished and summary.winners == ("1",)
    assert sum(dict(summary.totals).values()) == 3 * 78


def test_s2_2_players_match_the_form() -> None:
    for vid in ALL_FORMS:
        v = find_variant(vid)
        names = [f"P{i}" for i in range(v.players + 1)]
        with pytest.raises(RecordInvalid) as caught:
            validate_game_setup(v, None, names, 0)
        assert ("players", "wrong_player_count") in {
            (p.field, p.code) for p in caught.value.problems}


# == §6 what the service must detect (Gatti, no trick record) ==================================


def test_s6_card_foreign_to_the_pack_names_the_code() -> None:
    problems = problem_list("gatti-3", g3(discard=["2H", "MORO1", "4S"]))
    found = [(p.field, p.code) for p in problems]
    assert ("discard[1]", "card_not_in_pack") in found
    assert any("MORO1" in p.message for p in problems)


def test_s6_a_card_appearing_twice() -> None:
    assert ("discard[1]", "duplicate_card") in rejected("gatti-3", g3(discard=["2H", "2H", "4S"]))
    decl = [{"seat": 1, "kind": "three_of_a_kind", "cards": ["KH", "KD", "re di coppe"]}]
    assert ("declarations[0].cards[2]", "duplicate_card") in rejected(
        "gatti-3", g3(declarations=decl))


def test_s6_record_fields_are_checked() -> None:
    assert ("dealer", "out_of_range") in rejected("gatti-3", g3(dealer=3))
    assert ("dealer", "missing_field") in rejected(
        "gatti-3", {k: v for k, v in g3().items() if k != "dealer"})
    assert ("tricksy", "unknown_field") in rejected("gatti-3", g3(tricksy=[]))
    decl = [{"seat": 1, "kind": "cricca", "cards": ["KH", "KD", "KS"]}]
    assert ("declarations[0].kind", "unknown_meld") in rejected("gatti-3", g3(declarations=decl))
    decl = [{"seat": 4, "kind": "gatti"}]
    assert ("declarations[0].seat", "out_of_range") in rejected("gatti-3", g3(declarations=decl))


def test_s6_every_problem_is_reported_at_once() -> None:
    decl = [{"seat": 1, "kind": "frilli", "cards": pips("D")},
            {"seat": 2, "kind": "family", "cards": ["JD", "CD", "QD", "KH"]}]
    found = rejected("gatti-3", g3(discard=["KS", "T1", "T2"], declarations=decl))
    assert {("discard[0]", "king_discarded"), ("discard", "bagatto_not_sole_trump"),
            ("declarations[0].cards", "below_threshold"),
            ("declarations[1].cards", "not_a_meld")} <= found


def test_s6_unknown_option_is_rejected() -> None:
    v = find_variant("gatti-3")
    with pytest.raises(RecordInvalid) as caught:
        resolve_options(v, {"melds": "sometimes", "fast": True})
    assert {(p.field, p.code) for p in caught.value.problems} == {
        ("options.melds", "invalid_option"), ("options.fast", "unknown_option")}
    assert resolve_options(v, None) == {"melds": "hand", "bagatto_ultimo": True,
                                        "time_zone": "Europe/Rome", "confirmation": "optional",
                                        "language": None}


def test_pack_is_the_tarot_pack() -> None:
    assert find_variant("gatti-3").pack is TAROT_78


# == §2.4 what a hand can declare (POST /melds/suggest) ========================================


def test_s2_4_suggested_melds_follow_the_thresholds_of_the_form() -> None:
    # 18 pips, 8 trumps (T2-T9), the Fool and four Kings (and so the family of no suit)
    hand = pips("D")[:9] + pips("C")[:9] + trumps(2, 9) + ["FOOL", "KH", "KD", "KS", "KC"]
    three = suggest_melds(find_variant("gatti-3"), hand[:-4] + ["KH"])  # 28 cards
    assert three == []  # 18 < 20 pips, 8 < 10 trumps, the Fool is no trump
    four = find_variant("gatti-4")
    found = suggest_melds(four, pips("D") + pips("C")[:5] + trumps(2, 7))  # 15 pips, 6 trumps
    assert [(m["kind"], m["points"]) for m in found] == [("frilli", 15)]
    found = suggest_melds(four, pips("D")[:7] + pips("C")[:6] + trumps(2, 9))  # 13, 8
    assert [(m["kind"], m["points"]) for m in found] == [("trumps", 8)]
    kings = suggest_melds(find_variant("gatti-3"), ["KH", "KD", "KS", "KC", "JH", "CH", "QH"])
    assert sorted((m["kind"], m["mark"], m["points"]) for m in kings) == [
        ("family", "♥", 10), ("four_of_a_kind", "K", 10)]
    gatti = suggest_melds(find_variant("gatti-3"), ["FOOL", "T1", "T21", "QH", "QD", "QC"])
    assert sorted((m["kind"], m["points"]) for m in gatti) == [
        ("gatti", 10), ("three_of_a_kind", 5)]


def test_s2_4_suggestions_take_at_most_the_dealers_hand() -> None:
    codes = [c.code for c in TAROT_78.cards][:29]
    with pytest.raises(RecordInvalid) as caught:
        suggest_melds(find_variant("gatti-3"), codes)
    assert [(p.field, p.code) for p in caught.value.problems] == [("cards", "too_many_cards")]
    with pytest.raises(RecordInvalid) as caught:
        suggest_melds(find_variant("gatti-3"), ["KH", "MORO1"])
    assert [(p.field, p.code) for p in caught.value.problems] == [
        ("cards[1]", "card_not_in_pack")]
