"""Properties of duplicate boards (docs/events.md#duplicate, #boards; rulebook §2.2, §3, §4.2,
§5.2, §5.6): every board holds the whole pack once; each seat holds what the variant deals, the
dealer the extra cards besides; the exposed cards are one per seat, the first of its last
packet; the dealer rotates; hands are sorted in the game's own order; the same seed gives the
same boards, and different boards (or seeds) differ."""

from __future__ import annotations

import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain import VARIANTS, deal_boards
from service.domain.core.cards import SUITS
from service.domain.duplicate import deal_board, sort_cards

SETTINGS = settings(max_examples=60, deadline=None, database=None)
variants = st.sampled_from(sorted(VARIANTS))
seeds = st.integers(min_value=0, max_value=2**31 - 1)
numbers = st.integers(min_value=1, max_value=400)


@SETTINGS
@given(variants, seeds, numbers)
def test_a_board_holds_the_whole_pack_once(variant_id: str, seed: int, number: int) -> None:
    variant = VARIANTS[variant_id]
    board = deal_board(variant, seed, number)
    dealt = [c for hand in board.hands for c in hand] + list(board.extra)
    assert len(dealt) == len(variant.pack)
    assert set(dealt) == set(variant.pack.cards)


@SETTINGS
@given(variants, seeds, numbers)
def test_each_seat_holds_what_the_variant_deals(variant_id: str, seed: int,
                                                number: int) -> None:
    variant = VARIANTS[variant_id]
    board = deal_board(variant, seed, number)
    assert board.number == number
    assert board.dealer == (number - 1) % variant.seats
    assert [len(h) for h in board.hands] == [variant.dealt_each] * variant.seats
    assert len(board.extra) == variant.extra
    assert all(board.holder(c) == board.dealer for c in board.extra)


@SETTINGS
@given(variants, seeds, numbers)
def test_exposed_cards_are_the_top_of_each_seats_last_packet(variant_id: str, seed: int,
                                                             number: int) -> None:
    """§2.2: one card per seat, in the order dealt from the seat after the dealer; restated
    here by dealing the shuffled pack by hand."""
    variant = VARIANTS[variant_id]
    board = deal_board(variant, seed, number)
    assert len(board.exposed) == variant.exposed_cards
    cards = list(variant.pack.cards)
    random.Random(f"{seed}:{number}").shuffle(cards)
    packets = variant.deal_packets
    round_size = variant.seats * sum(packets[:-1])
    for i, card in enumerate(board.exposed):
        seat = (board.dealer + 1 + i) % variant.seats
        assert card == cards[round_size + i * packets[-1]]
        assert card in board.hands[seat]


@SETTINGS
@given(variants, seeds, numbers)
def test_hands_are_sorted_trumps_fool_then_suits_high_to_low(variant_id: str, seed: int,
                                                              number: int) -> None:
    variant = VARIANTS[variant_id]
    board = deal_board(variant, seed, number)
    strength = variant.card_strength
    for hand in (*board.hands, board.extra):
        groups = [0 if c.is_trump else 1 if c.is_fool else 2 + SUITS.index(c.suit)
                  for c in hand]
        assert groups == sorted(groups)
        for a, b in pairwise(hand):
            if a.is_trump == b.is_trump and a.suit == b.suit and not a.is_fool:
                assert strength[a] >= strength[b]
        assert sort_cards(variant, list(reversed(hand))) == hand


@SETTINGS
@given(variants, seeds, st.integers(min_value=1, max_value=12))
def test_the_same_seed_gives_the_same_boards(variant_id: str, seed: int, count: int) -> None:
    variant = VARIANTS[variant_id]
    boards = deal_boards(variant, seed, count)
    assert boards == deal_boards(variant, seed, count)
    assert boards[-1] == deal_boards(variant, seed, 1, first=count)[0]
    assert [b.to_json() for b in boards] == [b.to_json() for b in deal_boards(variant, seed,
                                                                              count)]


@SETTINGS
@given(variants, seeds, numbers, numbers)
def test_different_boards_differ(variant_id: str, seed: int, a: int, b: int) -> None:
    variant = VARIANTS[variant_id]
    if a != b:
        assert deal_board(variant, seed, a).hands != deal_board(variant, seed, b).hands
    assert deal_board(variant, seed, a).hands != deal_board(variant, seed + 1, a).hands


def test_boards_do_not_change_across_pythons() -> None:
    """The deal is pinned: a change of the shuffle or the seeding would change every event's
    boards (this board was dealt when the deal was written)."""
    board = deal_board(VARIANTS["gatti-3"], 42, 2)
    assert [c.code for c in board.exposed] == ["T4", "5D", "8S"]
    assert board.dealer == 1


def test_to_json_has_the_shape_of_get_boards() -> None:
    board = deal_board(VARIANTS["ottocento"], 1, 1)
    out = board.to_json()
    assert set(out) == {"board", "dealer", "hands", "extra", "exposed"}
    assert out["board"] == 1 and out["dealer"] == 0
    hands = out["hands"]
    assert isinstance(hands, list) and [len(h) for h in hands] == [15, 15, 15, 15]
    assert all(isinstance(c, str) for h in hands for c in h)
    assert out["extra"] == [c.code for c in board.extra] and len(board.extra) == 2
    assert out["exposed"] == []
