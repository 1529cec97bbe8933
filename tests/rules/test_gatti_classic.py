"""rulebook §3: Gatti by the older rules (seed 001), clause by clause, and the seed's sample
sheet checked against them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.gatti.melds import captured_melds
from service.domain.hand.records import parse_hand_record
from service.domain.hand.scoring import score_hand
from service.domain.hand.tricks import trick_winner
from service.domain.options import resolve_options
from service.domain.registry import find_variant

CLASSIC = ("gatti-classic-4", "gatti-classic-3", "gatti-classic-2")
COURTS = [f"{r}{s}" for r in "JCQK" for s in "HDCS"]


def score(vid: str, hand: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    variant = find_variant(vid)
    record = parse_hand_record(variant, hand)
    return score_hand(variant, resolve_options(variant, options), record).to_json()


def rejected(vid: str, hand: dict[str, Any],
             options: dict[str, Any] | None = None) -> set[tuple[str, str]]:
    with pytest.raises(RecordInvalid) as caught:
        score(vid, hand, options)
    return {(p.field, p.code) for p in caught.value.problems}


def lines(result: dict[str, Any], side: int) -> list[tuple[str, int]]:
    return [(line["item"], line["points"]) for line in result["sides"][side]["lines"]]


def pairs_hand(**extra: Any) -> dict[str, Any]:
    """gatti-classic-4, dealer seat 1 (side 1 holds the discard): side 0 takes 14 tricks."""
    return {"dealer": 1, "piles": [{"side": 0, "tricks": 14,
                                    "counting": ["KH", "QH", "CH", "JH", "T1"]}], **extra}


SOME_PILES = {
    "gatti-classic-4": [{"side": 0, "tricks": 10}],
    "gatti-classic-2": [{"side": 0, "tricks": 10}],
    "gatti-classic-3": [{"side": 0, "tricks": 10}, {"side": 1, "tricks": 8}],
}


# -- ranks and counting ---------------------------------------------------------------------


@pytest.mark.parametrize("vid", CLASSIC)
def test_s3_trumps_rank_strictly_by_number(vid: str) -> None:
    variant = find_variant(vid)
    order = [g[0] for g in variant.ranks.trumps]
    assert order == [f"T{n}" for n in range(1, 22)]
    cards = [variant.pack.card(c) for c in ("T20", "T21", "T19", "T2")[: variant.trick_size]]
    assert trick_winner(variant, cards) == 1  # the World beats the Judgment


@pytest.mark.parametrize("vid", CLASSIC)
def test_s3_the_judgment_counts_not_the_world(vid: str) -> None:
    variant = find_variant(vid)
    card = variant.pack.card
    assert variant.card_points(card("T20")) == 4
    assert variant.card_points(card("T21")) == 0
    assert {c.code: variant.card_points(c) for c in variant.counting_cards} == {
        "T1": 4, "T20": 4, "FOOL": 4,
        **{f"K{s}": 4 for s in "HDCS"}, **{f"Q{s}": 3 for s in "HDCS"},
        **{f"C{s}": 2 for s in "HDCS"}, **{f"J{s}": 1 for s in "HDCS"}}
    assert sum(variant.card_points(c) for c in variant.pack.cards) == 52


def test_s3_gatti_is_the_fool_the_bagatto_and_the_judgment() -> None:
    hand = pairs_hand(declarations=[{"seat": 0, "kind": "gatti"}])
    result = score("gatti-classic-4", hand)
    assert result["sides"][0]["lines"][0]["cards"] == ["FOOL", "T1", "T20"]
    assert ("declarations[0].cards", "not_a_meld") in rejected("gatti-classic-4", pairs_hand(
        declarations=[{"seat": 0, "kind": "gatti", "cards": ["FOOL", "T1", "T21"]}]))


@pytest.mark.parametrize(("vid", "dealt", "discard", "hands"), [
    ("gatti-classic-4", 19, 2, 4), ("gatti-classic-3", 25, 3, 3), ("gatti-classic-2", 19, 2, 4)])
def test_s3_deal_and_game_length(vid: str, dealt: int, discard: int, hands: int) -> None:
    variant = find_variant(vid)
    assert (variant.dealt_each, variant.extra, variant.hands_per_game) == (dealt, discard, hands)
    assert variant.deck_total == 78


# -- trick points ---------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "points"), [
    (0, 0), (2, 1), (3, 1), (4, 1), (5, 2), (22, 7), (24, 8), (25, 8), (26, 9), (56, 19)])
def test_s3_trick_points_per_three_cards_rounding(cards: int, points: int) -> None:
    # A remainder of 2 rounds up, of 1 rounds down.
    variant = find_variant("gatti-classic-4")
    assert variant.deck_points(0, cards, 0) == points


def test_s3_trick_points_and_counting_total_78_in_pairs() -> None:
    result = score("gatti-classic-4", pairs_hand())
    # side 0: 14 tricks = 56 cards = 19 points + 14 counting; side 1: 5 tricks + the
    # discard = 22 cards = 7 points + 38 counting
    assert lines(result, 0) == [("deck_points", 33)]
    assert lines(result, 1) == [("deck_points", 45)]
    assert result["columns"] == {"0": 33, "1": 45}


def test_s3_trick_points_total_78_three_handed() -> None:
    result = score("gatti-classic-3", {"dealer": 0, "piles": [
        {"side": 0, "tricks": 9, "counting": ["T1", "T20"]},
        {"side": 1, "tricks": 10, "counting": ["FOOL", "KH"]}]})
    assert [s["total"] for s in result["sides"]] == [9 + 8, 10 + 8, 7 + 36]


# -- melds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("vid", CLASSIC)
def test_s3_taròcchi_need_10_trumps_in_every_form(vid: str) -> None:
    nine = [f"T{n}" for n in range(2, 11)]
    hand = {"dealer": 0, "declarations": [{"seat": 1, "kind": "trumps", "cards": nine}],
            "piles": SOME_PILES[vid]}
    assert ("declarations[0].cards", "below_threshold") in rejected(vid, hand)
    hand["declarations"][0]["cards"] = [*nine, "T11"]
    assert score(vid, hand)["sides"][1]["lines"][0]["points"] == 10


@pytest.mark.parametrize(("vid", "threshold"), [
    ("gatti-classic-4", 15), ("gatti-classic-2", 15), ("gatti-classic-3", 20)])
def test_s3_frilli_thresholds(vid: str, threshold: int) -> None:
    hand = {"dealer": 0, "declarations": [{"seat": 1, "kind": "frilli", "count": threshold - 1}],
            "piles": SOME_PILES[vid]}
    assert ("declarations[0].count", "below_threshold") in rejected(vid, hand)
    hand["declarations"][0]["count"] = threshold
    assert score(vid, hand)["sides"][1]["lines"][0]["points"] == threshold


def test_s3_three_of_a_kind_shown_out_of_four_and_r1() -> None:
    hand = pairs_hand(declarations=[
        {"seat": 2, "kind": "three_of_a_kind", "cards": ["CH", "CD", "CS"]},
        {"seat": 2, "kind": "four_of_a_kind", "rank": "C"}])
    assert lines(score("gatti-classic-4", hand), 0)[:2] == [("meld", 5), ("meld", 5)]


def test_s3_captured_melds_score_gatti_families_and_of_a_kinds_not_frilli_or_trumps() -> None:
    variant = find_variant("gatti-classic-4")
    pile = [variant.pack.card(c) for c in ["FOOL", "T1", "T20", "T21", *COURTS[:8],
                                           *(f"T{n}" for n in range(2, 14)),
                                           *(f"{n}H" for n in range(1, 11)),
                                           *(f"{n}S" for n in range(1, 11))]]
    found = {(m.rule.kind, m.points) for m in captured_melds(variant, pile)}
    assert found == {("gatti", 10), ("four_of_a_kind", 10)}  # four Jacks, four Cavaliers
    assert len(captured_melds(variant, pile)) == 3


# -- Bagatto urtimo -------------------------------------------------------------------------


def test_s3_bagatto_urtimo_is_always_played() -> None:
    assert ("options.bagatto_ultimo", "unknown_option") in rejected(
        "gatti-classic-4", pairs_hand(), {"bagatto_ultimo": False})


def test_s3_bagatto_urtimo_won_scores_20_for_its_side() -> None:
    result = score("gatti-classic-4", pairs_hand(bagatto={"seat": 2, "won": True}))
    assert ("bagatto_ultimo", 20) in lines(result, 0)
    assert result["columns"] == {"0": 53, "1": 45}


def test_s3_bagatto_urtimo_lost_costs_its_own_side_20_even_to_the_partner() -> None:
    result = score("gatti-classic-4", pairs_hand(bagatto={"seat": 0, "won": False}))
    assert ("bagatto_ultimo", -20) in lines(result, 0)
    assert not any(item == "bagatto_ultimo" for item, _ in lines(result, 1))
    assert result["columns"] == {"0": 13, "1": 45}


def test_s3_bagatto_urtimo_lost_three_handed_costs_the_player_20() -> None:
    result = score("gatti-classic-3", {"dealer": 0, "bagatto": {"seat": 0, "won": False},
                                       "piles": [{"side": 0, "tricks": 9, "counting": ["T20"]},
                                                 {"side": 1, "tricks": 10,
                                                  "counting": ["FOOL", "KH", "T1"]}]})
    assert [s["total"] for s in result["sides"]] == [9 + 4 - 20, 10 + 12, 7 + 36]


# -- the discard ----------------------------------------------------------------------------


def test_s3_the_discard_always_belongs_to_the_dealers_side() -> None:
    # No covering rule: a dealer's side that took no trick still holds its discard.
    result = score("gatti-classic-4", {"dealer": 1, "discard": ["2H", "JH"], "piles": [
        {"side": 1, "tricks": 1, "counting": ["JH"]}]})
    # side 0: 19 tricks = 76 cards = 25 points + 51 counting; side 1: the discard = 2 cards =
    # 1 point + JH
    assert result["columns"] == {"0": 25 + 51, "1": 1 + 1}
    assert "discard_uncovered" not in result["events"]
    assert ("piles", "discard_outside_dealer_side") in rejected("gatti-classic-4", {
        "dealer": 1, "discard": ["2H", "JH"],
        "piles": [{"side": 1, "tricks": 0},
                  {"side": 0, "tricks": 20, "counting": ["T1", "T20", "FOOL", *COURTS]}]})


# -- the seed's sheet -----------------------------------------------------------------------


def test_s3_seed_sheet_hand_1_is_possible() -> None:
    # Team A: 16 frilli in hand, captured the family of ♦, 39 trick points; team B: captured
    # gatti, 39 trick points. Dealer seat 1 (team B holds the discard): A 14 tricks, 56 cards,
    # 19 points + 20 counting; B 5 tricks + the discard, 22 cards, 7 points + 32 counting.
    hand = {"dealer": 1, "declarations": [{"seat": 0, "kind": "frilli", "count": 16}],
            "piles": [{"side": 0, "tricks": 14,
                       "counting": ["JD", "CD", "QD", "KD", "KH", "QC", "CS", "JS"]}]}
    result = score("gatti-classic-4", hand, {"melds": "both"})
    assert lines(result, 0) == [("meld", 16), ("captured_meld", 10), ("deck_points", 39)]
    assert lines(result, 1) == [("captured_meld", 10), ("deck_points", 39)]
    assert result["columns"] == {"0": 65, "1": 49}


def test_s3_seed_sheet_hand_2_is_impossible() -> None:
    """The seed's second hand cannot happen under these rules. Team B declared gatti (it holds
    the Fool, T1 and T20), won the last trick with T1 and captured only the family of ♥; team A
    captured no meld and took 20 trick points. The Fool stays with B's side (B won a later
    trick, the last) and T1 is in B's pile, so T20 must be in A's, or B would capture gatti.
    Every split of the other twelve court cards that captures no further meld for either side
    leaves A at least 24 points in counting cards alone: more than its 20 trick points."""
    variant = find_variant("gatti-classic-4")
    card = variant.pack.card
    b_fixed = {card(c) for c in ("FOOL", "T1", "JH", "CH", "QH", "KH")}
    a_fixed = {card("T20")}
    others = [card(c) for c in COURTS if not c.endswith("H")]
    lowest = None
    for split in itertools.product((0, 1), repeat=len(others)):
        a = a_fixed | {c for c, side in zip(others, split, strict=True) if side == 0}
        b = b_fixed | {c for c, side in zip(others, split, strict=True) if side == 1}
        if captured_melds(variant, a):
            continue
        if [m.label for m in captured_melds(variant, b)] != ["family of ♥"]:
            continue
        counting = sum(variant.card_points(c) for c in a)
        lowest = counting if lowest is None else min(lowest, counting)
    assert lowest == 24
    assert lowest > 20  # the sheet's trick points for team A: impossible
