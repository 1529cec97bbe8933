"""Piles given by points (rulebook §2.6, §3, §4.1, §5.1; R5, R8, R14): each side's points as
the table counted them, one side left out as the rest, the combinations a pile holds said by
kind. Each test names the clause it checks; a property checks that the points a played hand
gives, entered as numbers, score as the cards do."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.core.errors import RecordInvalid
from service.domain.hand.records import parse_hand_record
from service.domain.hand.scoring import score_hand
from service.domain.options import resolve_options
from service.domain.registry import find_variant
from tests.legal_play import random_legal_hand

Json = dict[str, Any]
GATTI = ("gatti-3", "gatti-4", "gatti-2", "gatti-classic-3", "gatti-classic-4")


def score(vid: str, hand: Json, options: Json | None = None) -> Json:
    variant = find_variant(vid)
    record = parse_hand_record(variant, hand)
    return score_hand(variant, resolve_options(variant, options), record).to_json()


def rejected(vid: str, hand: Json, options: Json | None = None) -> set[tuple[str, str]]:
    variant = find_variant(vid)
    with pytest.raises(RecordInvalid) as caught:
        record = parse_hand_record(variant, hand)
        score_hand(variant, resolve_options(variant, options), record)
    return {(p.field, p.code) for p in caught.value.problems}


def by_points(*points: int | None, **more: Any) -> Json:
    """A hand of dealer 0 whose piles are these points, side by side (None: left out)."""
    return {"dealer": 0, **more,
            "piles": [{"side": s, "points": p} for s, p in enumerate(points) if p is not None]}


def deck_lines(result: Json, item: str = "deck_points") -> list[Json]:
    return [ln for s in result["sides"] for ln in s["lines"] if ln["item"] == item]


# -- every family ----------------------------------------------------------------------------


@pytest.mark.parametrize("vid", GATTI)
def test_r5_gatti_points_of_all_sides_total_the_hand(vid: str) -> None:
    variant = find_variant(vid)
    sides, total = len(variant.fixed_sides() or ((0,), (1,))), variant.deck_total
    points = [total // sides] * sides
    points[0] += total - sum(points)
    result = score(vid, by_points(*points))
    assert [ln["points"] for ln in deck_lines(result)] == points
    assert all(ln["entered"] == "points" and not ln["derived"] for ln in deck_lines(result))
    assert "entered_by_points" in result["events"]
    points[0] += 1
    assert rejected(vid, by_points(*points)) == {("piles", "deck_points_total")}


@pytest.mark.parametrize("vid", GATTI)
def test_s2_6_one_side_left_out_is_the_rest_of_the_hand(vid: str) -> None:
    pairs = len(find_variant(vid).fixed_sides() or ()) == 2
    result = score(vid, by_points(30, None) if pairs else by_points(30, 20, None))
    last = deck_lines(result)[-1]
    assert last["derived"] is True
    assert sum(ln["points"] for ln in deck_lines(result)) == find_variant(vid).deck_total
    assert "the rest of the hand" in last["text"]


def test_s2_6_all_sides_but_one_are_needed() -> None:
    assert rejected("gatti-3", by_points(30)) == {("piles", "piles_missing")}


def test_r5_points_given_cannot_exceed_the_hand() -> None:
    assert rejected("gatti-3", by_points(50, 40, None)) == {("piles", "deck_points_total")}


def test_s0_points_are_within_the_hand() -> None:
    assert ("piles[0].points", "out_of_range") in rejected("gatti-3", by_points(79, 0))
    assert ("piles[0].points", "out_of_range") in rejected("gatti-3", by_points(-1, 0))
    assert ("piles[0].points", "invalid_type") in rejected(
        "gatti-3", {"dealer": 0, "piles": [{"side": 0, "points": "40"}, {"side": 1,
                                                                         "points": 20}]})


def test_s2_6_a_pile_is_given_in_one_form() -> None:
    mixed = {"dealer": 0, "piles": [{"side": 0, "points": 30, "tricks": 5},
                                    {"side": 1, "points": 20}]}
    assert rejected("gatti-3", mixed) == {("piles[0]", "mixed_pile_forms")}
    forms = {"dealer": 0, "piles": [{"side": 0, "points": 30},
                                    {"side": 1, "tricks": 8, "counting": []}]}
    assert rejected("gatti-3", forms) == {("piles[1]", "mixed_pile_forms")}


def test_s2_6_combinations_are_said_only_by_points() -> None:
    hand = {"dealer": 0, "piles": [{"side": 0, "tricks": 8, "combinations": [{"kind": "gatti"}]},
                                   {"side": 1, "tricks": 8}]}
    assert ("piles[0].combinations", "combinations_need_points") in rejected(
        "gatti-3", hand, {"melds": "captured"})


def test_s2_6_a_pile_has_no_other_field() -> None:
    hand = {"dealer": 0, "piles": [{"side": 0, "points": 30, "pts": 3},
                                   {"side": 1, "points": 20}]}
    assert ("piles[0].pts", "unknown_field") in rejected("gatti-3", hand)


# -- what the other records put in a pile ----------------------------------------------------


def test_s2_6_t1_that_won_the_last_trick_is_in_its_sides_points() -> None:
    won = {"seat": 1, "won": True}
    assert rejected("gatti-3", by_points(40, 3, None, bagatto=won)) == {
        ("piles[1].points", "points_below_cards")}
    assert score("gatti-3", by_points(40, 5, None, bagatto=won))["columns"]["1"] > 5


def test_s2_5_a_covered_fool_is_in_its_players_points() -> None:
    fool = {"played_by": 2, "covered": True}
    assert rejected("gatti-3", by_points(76, 2, None, fool=fool)) == {
        ("piles", "points_below_cards")}
    score("gatti-3", by_points(70, 3, None, fool=fool))


def test_s2_3_a_dealers_side_with_no_points_left_the_discard_uncovered() -> None:
    assert "discard_uncovered" in score("gatti-3", by_points(0, 40, None))["events"]
    assert "discard_uncovered" not in score("gatti-3", by_points(1, 40, None))["events"]


# -- Gatti's captured melds (R8) -------------------------------------------------------------


def captured(*combos: Json, side1: list[Json] | None = None) -> Json:
    return {"dealer": 0, "piles": [{"side": 0, "points": 40, "combinations": list(combos)},
                                   {"side": 1, "points": 20, "combinations": side1 or []}]}


def test_r8_captured_melds_said_by_kind_score_as_found() -> None:
    result = score("gatti-3", captured({"kind": "gatti"}, {"kind": "family", "suit": "S"},
                                       {"kind": "three_of_a_kind", "rank": "Q"},
                                       side1=[{"kind": "three_of_a_kind", "rank": "J"}]),
                   {"melds": "captured"})
    mine = [(ln["kind"], ln["points"]) for ln in result["sides"][0]["lines"]
            if ln["item"] == "captured_meld"]
    assert mine == [("gatti", 10), ("family", 10), ("three_of_a_kind", 5)]
    assert result["columns"] == {"0": 65, "1": 25, "2": 18}


def test_r8_melds_are_not_said_where_the_game_scores_none_captured() -> None:
    assert rejected("gatti-3", captured({"kind": "gatti"})) == {
        ("piles[0].combinations", "combinations_not_scored")}


def test_r8_frilli_and_trumps_are_never_captured() -> None:
    assert ("piles[0].combinations[0].kind", "unknown_kind") in rejected(
        "gatti-3", captured({"kind": "frilli", "count": 20}), {"melds": "captured"})


def test_r8_a_card_cannot_be_in_two_sides_melds() -> None:
    problems = rejected("gatti-3", captured({"kind": "family", "suit": "S"},
                                            side1=[{"kind": "four_of_a_kind", "rank": "K"}]),
                        {"melds": "captured"})
    assert problems == {("piles[1].combinations[0]", "card_in_two_piles")}


def test_r8_melds_cannot_need_more_of_a_rank_than_the_pack_has() -> None:
    problems = rejected("gatti-3", captured({"kind": "three_of_a_kind", "rank": "K"},
                                            side1=[{"kind": "three_of_a_kind", "rank": "K"}]),
                        {"melds": "captured"})
    assert problems == {("piles[0].combinations", "combinations_exceed_pack")}


def test_r8_a_meld_said_by_kind_needs_what_fixes_it() -> None:
    problems = rejected("gatti-3", captured({"kind": "family"}, {"kind": "gatti", "count": 3}),
                        {"melds": "captured"})
    assert problems == {("piles[0].combinations[0].suit", "missing_field"),
                        ("piles[0].combinations[1].count", "field_not_for_kind")}


def test_s2_6_a_pile_is_worth_at_least_its_melds_cards() -> None:
    hand = captured({"kind": "four_of_a_kind", "rank": "K"})
    hand["piles"][0]["points"] = 15
    hand["piles"][1]["points"] = 40
    assert rejected("gatti-3", hand, {"melds": "captured"}) == {
        ("piles[0].points", "points_below_cards")}


# -- Ottocento (§4.1, §4.3, R18) -------------------------------------------------------------


def test_s4_1_card_points_total_87_and_the_last_trick_adds_6() -> None:
    result = score("ottocento", by_points(50, 37, last_trick=1))
    card = deck_lines(result, "card_points")
    assert [(ln["counted"], ln["last_trick"], ln["points"]) for ln in card] == [
        (50, 0, 50), (37, 6, 43)]
    assert sum(ln["points"] for ln in card) == 93
    assert rejected("ottocento", by_points(50, 43, last_trick=1)) == {
        ("piles", "deck_points_total")}


def test_s4_1_the_last_trick_is_won_by_a_pair_with_points() -> None:
    assert rejected("ottocento", by_points(87, 0, last_trick=1)) == {
        ("last_trick", "disagrees_with_piles")}
    assert ("last_trick", "missing_field") in rejected("ottocento", by_points(87, 0))


def test_s4_3_captured_cricche_and_sequences_by_kind_with_doubling() -> None:
    combos = [{"kind": "cricca", "type": "K", "count": 4},
              {"kind": "cricca", "type": "Q", "count": 3},
              {"kind": "cricca", "type": "tarocchi", "count": 3},
              {"kind": "sequence", "type": "trumps", "count": 7}]
    hand = {"dealer": 0, "last_trick": 0,
            "piles": [{"side": 0, "points": 60, "combinations": combos}]}
    result = score("ottocento", hand)
    mine = [(ln["item"], ln["points"]) for ln in result["sides"][0]["lines"]]
    assert mine == [("captured", 34), ("captured", 14), ("captured", 18), ("captured", 30),
                    ("doubling", 66), ("card_points", 66)]
    assert result["columns"] == {"0": 228, "1": 27}


def test_s4_3_a_cricca_or_sequence_said_by_kind_is_checked() -> None:
    combos = [{"kind": "cricca", "type": "K", "count": 5},
              {"kind": "cricca", "type": "X", "count": 3},
              {"kind": "sequence", "type": "H"},
              {"kind": "sequence", "type": "moors", "count": 7},
              {"kind": "sequence", "type": "trumps", "count": 5, "suit": "H"}]
    hand = {"dealer": 0, "last_trick": 0,
            "piles": [{"side": 0, "points": 60, "combinations": combos}]}
    assert rejected("ottocento", hand) == {
        ("piles[0].combinations[0].count", "out_of_range"),
        ("piles[0].combinations[1].type", "invalid_type"),
        ("piles[0].combinations[2].count", "missing_field"),
        ("piles[0].combinations[3].count", "out_of_range"),
        ("piles[0].combinations[4].suit", "field_not_for_kind")}
    hand["piles"][0]["combinations"] = [{"kind": "gatti"}]
    assert rejected("ottocento", hand) == {("piles[0].combinations[0].kind", "unknown_kind")}


def test_r18_two_pairs_cannot_hold_the_sequence_of_one_king() -> None:
    hand = {"dealer": 0, "last_trick": 0, "piles": [
        {"side": 0, "points": 50, "combinations": [{"kind": "sequence", "type": "H",
                                                    "count": 4}]},
        {"side": 1, "points": 37, "combinations": [{"kind": "cricca", "type": "K",
                                                    "count": 4}]}]}
    assert rejected("ottocento", hand) == {("piles[1].combinations[0]", "card_in_two_piles")}


def test_s6_the_angel_shown_ends_in_its_pairs_points() -> None:
    shown = [{"seat": 1, "kind": "cricca", "cards": ["ANGEL", "WORLD", "MATTO"]}]
    assert ("piles[1].points", "points_below_cards") in rejected(
        "ottocento", by_points(86, 1, last_trick=0, declarations=shown))


# -- Mitigatti (§5.1, R14) -------------------------------------------------------------------


def test_r14_mitigatti_points_total_the_hand_and_settle_by_partida() -> None:
    result = score("mitigatti-3", by_points(48, 20, None))
    assert result["columns"] == {"0": 48, "1": 20, "2": 10}
    assert result["marca"] == {"0": 3, "1": -1, "2": -2}
    assert rejected("mitigatti-3", by_points(40, 20, 20)) == {("piles", "deck_points_total")}


def test_s5_3_mitigatti_4_a_contract_by_points() -> None:
    solo = {"type": "solo", "declarer": 1, "called_card": "KS"}
    result = score("mitigatti-4", by_points(40, None, contract=solo))
    assert result["columns"] == {"0": 32, "1": 40, "2": 32, "3": 32}


def test_s5_1_the_discard_counts_for_the_dealers_side() -> None:
    assert rejected("mitigatti-3", by_points(0, 40, None)) == {
        ("piles", "discard_outside_dealer_side")}


def test_s5_1_the_fuole_stays_in_its_players_points() -> None:
    fool = {"played_by": 2}
    assert rejected("mitigatti-3", by_points(40, 38, 0, fool=fool)) == {
        ("piles[2].points", "points_below_cards")}


def test_s5_mitigatti_piles_hold_no_combinations() -> None:
    hand = {"dealer": 0, "piles": [{"side": 0, "points": 40, "combinations": [
        {"kind": "cricca"}]}, {"side": 1, "points": 20}]}
    assert ("piles[0].combinations[0].kind", "unknown_kind") in rejected("mitigatti-3", hand)


# -- a played hand and its points ------------------------------------------------------------


PLAYED = ("gatti-3", "gatti-4", "gatti-classic-3", "ottocento", "mitigatti-3")


def _points_of(vid: str, result: Json) -> list[int]:
    if vid == "ottocento":
        return [ln["points"] - ln["last_trick"] for ln in deck_lines(result, "card_points")]
    return [ln["points"] for ln in deck_lines(result)]


@pytest.mark.parametrize("vid", PLAYED)
def test_s6_a_played_hand_with_points_piles_must_agree(vid: str) -> None:
    hand = random_legal_hand(vid, random.Random(7), dealer=0)
    points = _points_of(vid, score(vid, hand))
    agreeing = {**hand, "piles": [{"side": s, "points": p} for s, p in enumerate(points)]}
    score(vid, agreeing)
    agreeing["piles"][0]["points"] += 1
    assert rejected(vid, agreeing) == {("piles[0]", "disagrees_with_tricks")}


@settings(max_examples=40, deadline=None, database=None)
@given(vid=st.sampled_from(PLAYED), rng=st.randoms(use_true_random=True), data=st.data())
def test_s2_6_points_of_a_played_hand_score_as_its_cards(vid: str, rng: random.Random,
                                                         data: Any) -> None:
    """Random legal play: the points each side took, entered as numbers with any one side
    left out, give the same points and the variant's total."""
    variant = find_variant(vid)
    played = score(vid, random_legal_hand(vid, rng, dealer=0))
    points = _points_of(vid, played)
    left_out = data.draw(st.integers(0, len(points) - 1))
    hand: Json = {"dealer": 0, "piles": [{"side": s, "points": p} for s, p in enumerate(points)
                                         if s != left_out]}
    if vid == "ottocento":
        last = next(s for s in played["sides"]
                    for ln in s["lines"] if ln["item"] == "card_points" and ln["last_trick"])
        hand["last_trick"] = last["seats"][0]
    result = score(vid, hand)
    assert _points_of(vid, result) == points
    item = "card_points" if vid == "ottocento" else "deck_points"
    assert sum(ln["points"] for ln in deck_lines(result, item)) == variant.deck_total


# -- the game's time zone (an option of every variant) ---------------------------------------


@pytest.mark.parametrize("vid,default", [("gatti-3", "Europe/Rome"), ("gatti-classic-4",
                                                                       "Europe/Rome"),
                                         ("ottocento", "Europe/Rome"),
                                         ("mitigatti-4", "Europe/Paris")])
def test_every_variant_has_a_time_zone_with_its_home_as_default(vid: str, default: str) -> None:
    variant = find_variant(vid)
    assert resolve_options(variant, {})["time_zone"] == default
    assert resolve_options(variant, {"time_zone": "America/New_York"})["time_zone"] == (
        "America/New_York")
    for bad in ("Mars/Olympus", "../../etc/passwd", "", 5, "Europe/" + "x" * 80):
        with pytest.raises(RecordInvalid) as caught:
            resolve_options(variant, {"time_zone": bad})
        assert [(p.field, p.code) for p in caught.value.problems] == [
            ("options.time_zone", "invalid_option")]
