"""The table forms and the deal of every variant (rulebook §2.2, §3, §4.2, §5.2; R5, R14, §4.1),
as the rules state them: what a variant derives (players from its seats, each seat's cards
from the pack, the tricks, the hand's total) must say the same."""

from __future__ import annotations

import random

import pytest

from service.domain.registry import VARIANTS, find_variant

#: id: (players, seats, cards each, dealer's extra, tricks with the discard, the hand's total)
TABLE_FORMS = {
    "gatti-3": (3, 3, 25, 3, 26, 78),
    "gatti-4": (4, 4, 19, 2, 20, 72),
    "gatti-2": (2, 4, 19, 2, 20, 72),
    "gatti-4-call": (4, 4, 19, 2, 20, 72),
    "gatti-classic-4": (4, 4, 19, 2, 20, 78),
    "gatti-classic-3": (3, 3, 25, 3, 26, 78),
    "gatti-classic-2": (2, 4, 19, 2, 20, 78),
    "ottocento": (4, 4, 15, 2, 16, 93),
    "mitigatti-4": (4, 4, 19, 2, 20, 72),
    "mitigatti-3": (3, 3, 25, 3, 26, 78),
}


def test_every_variant_has_its_table_form_listed() -> None:
    assert set(TABLE_FORMS) == set(VARIANTS)


@pytest.mark.parametrize("vid", sorted(TABLE_FORMS))
def test_s2_2_s4_2_s5_2_the_deal_and_the_hands_total(vid: str) -> None:
    v = find_variant(vid)
    assert (v.players, v.seats, v.dealt_each, v.extra, v.tricks_per_hand, v.deck_total) == (
        TABLE_FORMS[vid])
    assert v.seats * v.dealt_each + v.extra == len(v.pack)  # the whole pack is dealt
    assert sum(v.deal_packets) == v.dealt_each  # the packets deal each seat its cards


def _published_count(described: dict[str, object], tricks: int, cards: int,
                     listed: list[str]) -> int:
    """A summary pile's deck points as a client counts them from what the variant publishes
    (``GET /variants/{id}``: the method, the card values, what an unlisted card is worth):
    the phone page's arithmetic, here to hold it to the rules core's."""
    counting = described["counting"]
    assert isinstance(counting, dict)
    values = sum(counting.get(code, 0) for code in listed)
    values += max(0, cards - len(listed)) * int(str(described["unlisted_card_value"]))
    method = described["deck_points_method"]
    if method == "per_trick":
        return max(0, tricks) + values
    if method == "per_three_cards":
        return (cards + 1) // 3 + values
    assert method == "in_pairs"
    return values - cards // 2


@pytest.mark.parametrize("vid", sorted(TABLE_FORMS))
def test_s2_6_s3_s4_1_a_pile_counted_from_the_published_method_scores_as_the_rules(
        vid: str) -> None:
    """What a variant publishes of its deck points is enough to count any pile as the rules
    do: §2.6 and R14 a point a trick, §3 a point per three cards, §4.1 the values in pairs;
    each pile a random part of the pack, its summary the cards the variant lists."""
    v = find_variant(vid)
    described = v.describe()
    listed_codes = set(described["summary_cards"])  # type: ignore[arg-type]
    assert listed_codes == {c.code for c in v.summary_cards}
    rng = random.Random(vid)
    for _ in range(200):
        tricks = rng.randint(0, v.tricks_per_hand)
        pile = rng.sample(v.pack.cards, min(len(v.pack), tricks * v.trick_size))
        listed = [c.code for c in pile if c.code in listed_codes]
        values = sum(v.card_points(c) for c in pile)
        assert _published_count(described, tricks, len(pile), listed) == v.deck_points(
            tricks, len(pile), values), (vid, tricks, listed)
