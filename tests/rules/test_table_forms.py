"""The table forms and the deal of every variant (RULES §2.2, §3, §4.2, §5.2; R5, R14, §4.1),
as the rules state them: what a variant derives (players from its seats, each seat's cards
from the pack, the tricks, the hand's total) must say the same."""

from __future__ import annotations

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
