"""Boards: the deals every table of a duplicate event plays alike (docs/events.md#duplicate).

A board is dealt from the event's seed and its number alone: the pack in its fixed order is
shuffled by ``random.Random(f"{seed}:{number}")`` (a string seed is hashed by SHA-512, and
``shuffle`` draws by ``getrandbits``: the same boards on every Python since 3.2), then dealt
as the variant's rules deal it (rulebook §2.2, §3, §4.2, §5.2, §5.6): packets in turn from
the seat after the dealer round to the dealer, then the dealer's extra cards off the top. The
exposed cards are the first card of each seat's last packet, in the order dealt (§2.2: "in the
last packet the top card is shown to all"). The dealer rotates from seat 0 as a game's deal
does: board ``n`` is dealt by seat ``(n - 1) % seats`` (gatti-2: through the dummies' seats
too, R9). No throw-in: a board is played as dealt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.cards import SUITS, Card
from ..variant import Variant


def sort_cards(variant: Variant, cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """As a slip lists a hand: the trumps high to low, the Fool, then each suit (♥ ♦ ♣ ♠) high
    to low in the game's own order (Ottocento's and Mitigatti's cups and coins reversed);
    equal trumps (Moors, Papote) in pack order."""
    strength = variant.card_strength
    position = variant.pack.position

    def key(card: Card) -> tuple[int, int, int]:
        if card.is_trump:
            group = 0
        elif card.is_fool:
            group = 1
        else:
            group = 2 + SUITS.index(card.suit)
        return group, -strength.get(card, 0), position[card]

    return tuple(sorted(cards, key=key))


@dataclass(frozen=True)
class Board:
    """One board: its number (from 1), the dealer's seat, each seat's dealt cards (sorted),
    the dealer's extra cards (sorted) and the exposed cards (in the order dealt)."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    extra: tuple[Card, ...]
    exposed: tuple[Card, ...]

    def holder(self, card: Card) -> int | None:
        """The seat dealt ``card`` (the dealer for an extra card)."""
        if card in self.extra:
            return self.dealer
        return next((seat for seat, hand in enumerate(self.hands) if card in hand), None)

    def holdings(self) -> tuple[frozenset[Card], ...]:
        """What each seat held before the discard: its cards, and the dealer's extra ones."""
        return tuple(frozenset((*hand, *(self.extra if seat == self.dealer else ())))
                     for seat, hand in enumerate(self.hands))

    def to_json(self) -> dict[str, object]:
        """One entry of ``GET /events/{id}/boards`` (docs/events.md#shapes)."""
        return {"board": self.number, "dealer": self.dealer,
                "hands": [[c.code for c in hand] for hand in self.hands],
                "extra": [c.code for c in self.extra],
                "exposed": [c.code for c in self.exposed]}


def board_dealer(variant: Variant, number: int) -> int:
    """The seat that deals board ``number``: the deal rotates from seat 0, through every seat
    (gatti-2: the dummies' too, R9)."""
    return (number - 1) % variant.seats


def deal_board(variant: Variant, seed: int | str, number: int) -> Board:
    """Board ``number`` (from 1) of the event with ``seed``."""
    if number < 1:
        raise ValueError("boards are numbered from 1")
    cards = list(variant.pack.cards)
    random.Random(f"{seed}:{number}").shuffle(cards)
    seats = variant.seats
    dealer = board_dealer(variant, number)
    order = [(dealer + 1 + i) % seats for i in range(seats)]  # the dealer last
    hands: list[list[Card]] = [[] for _ in range(seats)]
    exposed: list[Card] = []
    packets = variant.deal_packets
    top = 0
    for index, size in enumerate(packets):
        for seat in order:
            packet = cards[top:top + size]
            top += size
            if index == len(packets) - 1 and len(exposed) < variant.exposed_cards:
                exposed.append(packet[0])
            hands[seat].extend(packet)
    extra = cards[top:top + variant.extra]
    assert top + variant.extra == len(cards)
    return Board(number, dealer, tuple(sort_cards(variant, hand) for hand in hands),
                 sort_cards(variant, extra), tuple(exposed))


def deal_boards(variant: Variant, seed: int | str, count: int, first: int = 1
                ) -> tuple[Board, ...]:
    """``count`` boards numbered from ``first``: each depends on the seed and its own number
    only, so board 7 is the same whether 8 or 40 are dealt."""
    return tuple(deal_board(variant, seed, n) for n in range(first, first + count))
