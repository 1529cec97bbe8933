"""Random legal hands for the tests: a shuffled deal, a discard the rules allow, and random
legal play, recorded trick by trick. The independent references under tests/scenarios keep
generators of their own on purpose; this one serves the tests of the engine itself."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from service.domain.core.cards import Card
from service.domain.hand.tricks import legal_plays, trick_winner
from service.domain.registry import find_variant
from service.domain.variant import Variant


def legal_discard(variant: Variant, held: list[Card], rng: random.Random) -> list[Card]:
    """A discard the variant allows: no forbidden rank or card, T1 only as the sole trump."""
    trumps = [c for c in held if c.is_trump]
    allowed = [c for c in held
               if not (c.is_plain and c.rank in variant.discard_forbidden_ranks)
               and c.code not in variant.discard_forbidden_cards
               and not (variant.discard_t1_only_sole_trump and c.code == "T1"
                        and len(trumps) > 1)]
    return rng.sample(allowed, variant.extra)


def random_legal_hand(variant_id: str, rng: random.Random,
                      dealer: int | None = None) -> dict[str, Any]:
    """``{"dealer", "tricks"}`` of a random deal played out by random legal plays."""
    variant = find_variant(variant_id)
    deck = list(variant.pack.cards)
    rng.shuffle(deck)
    n, each = variant.seats, variant.dealt_each
    if dealer is None:
        dealer = rng.randrange(n)
    hands = [deck[s * each:(s + 1) * each] for s in range(n)]
    record, _ = play_out(variant, hands, deck[n * each:], dealer, rng)
    return record


def play_out(variant: Variant, dealt: Sequence[Sequence[Card]], extra: Sequence[Card],
             dealer: int, rng: random.Random, keep: Card | None = None
             ) -> tuple[dict[str, Any], list[Card]]:
    """A deal (each seat's cards and the dealer's extra ones) played out by a legal discard
    and random legal plays: ``{"dealer", "tricks"}`` and the discard. ``keep``: a card its
    holder plays only when nothing else is legal (T1 kept for the last trick)."""
    n, each = variant.seats, variant.dealt_each
    hands = {s: list(cards) for s, cards in enumerate(dealt)}
    held = hands[dealer] + list(extra)
    discard = legal_discard(variant, held, rng)
    hands[dealer] = [c for c in held if c not in discard]
    leader, tricks = (dealer + 1) % n, []
    for _ in range(each):
        trick: list[Card] = []
        for k in range(n):
            seat = (leader + k) % n
            legal = legal_plays(hands[seat], trick)
            card = rng.choice(sorted(legal - {keep} or legal, key=lambda c: c.code))
            hands[seat].remove(card)
            trick.append(card)
        tricks.append([c.code for c in trick])
        leader = (leader + trick_winner(variant, trick)) % n
    return {"dealer": dealer, "tricks": tricks}, discard
