"""The trick engine shared by every pack: the effective lead, the winner, legal plays, and
illegal plays proven by what a player is known to have held (rulebook §0, §2.5, §4.2, §5.1, §6).

Ranks are the variant's data (``Variant.card_strength``): Gatti's T20 above T21, Ottocento's
and Mitigatti's equal Moors and Papote (of equals topping a trick the last played wins), the
reversed pips of the round suits. The Fool may always be played and never wins; when it is
led, the next card sets the suit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..core.cards import Card
from ..core.text import Text
from ..variant import Variant


def effective_lead(trick: Sequence[Card]) -> Card | None:
    """The card that sets the trick's suit: the first, or the second when the Fool was led.
    None while no such card has been played."""
    if not trick:
        return None
    if trick[0].is_fool:
        return trick[1] if len(trick) > 1 else None
    return trick[0]


def trick_winner(variant: Variant, trick: Sequence[Card]) -> int:
    """The position (0 = the leader) of the card that wins a complete trick: the highest trump,
    else the highest card of the suit led; among equal trumps the last played."""
    strength = variant.card_strength
    lead = effective_lead(trick)
    best, best_key = -1, (-1, -1)
    for i, card in enumerate(trick):
        if card.is_trump:
            key = (2, strength[card])
        elif lead is not None and card.is_plain and card.suit == lead.suit and lead.is_plain:
            key = (1, strength[card])
        else:
            continue
        if key >= best_key:
            best, best_key = i, key
    if best < 0:
        raise ValueError("a trick needs a card other than the Fool")
    return best


@dataclass(frozen=True, slots=True)
class Breach:
    """Why a play was illegal: the rule, and which cards would have satisfied it."""

    rule: str
    message: Text
    needed: Callable[[Card], bool]


def _follows(lead: Card) -> Callable[[Card], bool]:
    return lambda c: c.is_plain and c.suit == lead.suit


def _is_trump(card: Card) -> bool:
    return card.is_trump


def breach_of(trick_so_far: Sequence[Card], card: Card, held: Iterable[Card]) -> Breach | None:
    """Whether playing ``card`` after ``trick_so_far`` breaks the follow rules, given cards the
    player is known to have held at that moment (besides ``card``). None when legal, or when
    nothing known proves otherwise. There is never an obligation to overtrump."""
    lead = effective_lead(trick_so_far)
    if lead is None or card.is_fool:
        return None
    if lead.is_trump:
        if card.is_trump or not any(c.is_trump for c in held if c is not card):
            return None
        return Breach("must_follow_trump", Text("trumps were led and the player held a trump"),
                      _is_trump)
    follows = _follows(lead)
    if follows(card):
        return None
    known = [c for c in held if c is not card]
    if any(follows(c) for c in known):
        return Breach("must_follow_suit",
                      Text("{suit} was led and the player held a card of that suit",
                           suit=lead.suit.symbol if lead.suit else ""), follows)
    if card.is_trump or not any(c.is_trump for c in known):
        return None
    return Breach("must_trump", Text("the player was void in the suit led but held a trump"),
                  _is_trump)


def legal_plays(hand: Iterable[Card], trick_so_far: Sequence[Card]) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick_so_far``: those ``breach_of``
    finds no fault with, worked out in one pass over the hand. The Fool is always among them;
    then the suit led if the hand has it, else a trump if it has one, else anything."""
    cards = frozenset(hand)
    lead = effective_lead(trick_so_far)
    if lead is None:
        return cards
    fools = frozenset(c for c in cards if c.is_fool)
    if not lead.is_trump:
        follows = _follows(lead)
        followers = frozenset(c for c in cards if follows(c))
        if followers:
            return followers | fools
    trumps = frozenset(c for c in cards if c.is_trump)
    return trumps | fools if trumps else cards
