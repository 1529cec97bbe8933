"""Properties of Gatti by the older rules (rulebook §3): random legal play of random deals always
gives 78 trick points (per three cards, with the counting cards), in every form, whether the
hand is recorded trick by trick or as the summary of its piles."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from legal_play import random_legal_hand

from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant

CLASSIC = ("gatti-classic-4", "gatti-classic-3", "gatti-classic-2")


def deck_points(result: dict[str, Any]) -> int:
    return sum(line["points"] for side in result["sides"] for line in side["lines"]
               if line["item"] == "deck_points")


@settings(max_examples=40, deadline=None, database=None)
@given(variant_id=st.sampled_from(CLASSIC), rng=st.randoms(use_true_random=True),
       melds=st.sampled_from(["hand", "captured", "both", "none"]))
def test_s3_random_play_always_totals_78_trick_points(variant_id: str, rng: random.Random,
                                                      melds: str) -> None:
    variant = find_variant(variant_id)
    options = resolve_options(variant, {"melds": melds})
    hand = random_legal_hand(variant_id, rng)
    _, result = score_record(variant, options, hand)
    played = result.to_json()
    assert deck_points(played) == 78
    assert played["violations"] == []

    # The same hand as the table would write it: each side's tricks and counting cards.
    summary = {"dealer": hand["dealer"], "piles": [
        {"side": line["side"], "tricks": detail["tricks"], "counting": detail["counting_cards"]}
        for line in played["sides"]
        for detail in line["lines"] if detail["item"] == "deck_points"]}
    if "bagatto" in played:
        summary["bagatto"] = {"seat": played["bagatto"]["seat"],
                              "won": played["bagatto"]["won"]}
    _, again = score_record(variant, options, summary)
    assert again.to_json()["columns"] == played["columns"]
