"""The rulebook in the app (issue 18): each variant's rules in sections, in the project's own
words, from RULES.md (``GET /variants/{id}/rules``). Every ``rule`` a problem or a result line
can name (``§2.3``, ``R8``) is the ``ref`` of a section of its variant's book, so a player can
open the clause a line cites. The text is English ``Text``, said in another language from the
catalogues like everything the core says.
"""

from __future__ import annotations

from .core.text import Section, Text
from .gatti import rules as gatti
from .mitigatti import rules as mitigatti
from .ottocento import rules as ottocento
from .variant import Variant

#: The chapters every game's book opens with.
_OPENING = (
    Section("§0", Text("Seats, sides and the follow rules"), Text(
        "Seats are numbered from 0 in the order of play, and the deal passes to the next seat "
        "after each hand. A side is whoever shares a pile and a score in a hand: one player, a "
        "fixed pair (seats 0 and 2 against 1 and 3), or a pair formed for the hand by a call "
        "or a contract. The seat after the dealer leads first. The Fool may always be played "
        "and never wins a trick; when it is led, the next card sets the suit. Follow suit when "
        "you can; void in a plain suit led, play a trump if you can; when trumps are led, play "
        "a trump if you can. Nobody must overtrump. Of equal trumps topping a trick (Moors, "
        "Papote) the last one played wins.")),
    Section("§1", Text("How cards are written"), Text(
        "A card is its rank then its suit: KH is the King of hearts (cups), CC the Cavalier of "
        "clubs (batons), 10S, 1D. Suits are H, D, C, S or ♥ ♦ ♣ ♠, and their Italian and "
        "English names are understood. Trumps are T1 to T21, also by name (BAGATTO for T1, "
        "ANGEL for T20, WORLD for T21), and the Fool is FOOL (or MATTO, FUOLE, ★). "
        "Ottocento's Bolognese pack has ANGEL, WORLD, SUN, MOON, T5 to T16, the Moors MORO1 to "
        "MORO4, BEGATO and MATTO, and no 2 to 5 in the suits. A code the game's pack lacks is "
        "refused by name.")),
)
#: The chapter every game's book closes with.
_CLOSING = Section("§6", Text("What the service checks"), Text(
    "Every card must belong to the pack and appear once, and a complete record holds the "
    "whole pack. Discards follow the game's rule, and no declaration uses a discarded "
    "card. A declaration forms what it claims and reaches its threshold, and no card is "
    "shown by two players. Piles hold whole tricks and the hand's total, and the cards "
    "kept by a side end in its pile. A hand recorded trick by trick is refereed: each "
    "trick's winner, every play that broke the follow rules (proven by a card played "
    "later), the Fool's exchange, the covering of the discard and the last trick's "
    "Bagatto are worked out, not typed in."))

_BOOKS: dict[str, tuple[Section, ...]] = {
    "gatti": (*_OPENING, *gatti.CURRENT_BOOK, _CLOSING),
    "gatti-classic": (*_OPENING, *gatti.CLASSIC_BOOK, _CLOSING),
    "ottocento": (*_OPENING, *ottocento.BOOK, _CLOSING),
    "mitigatti": (*_OPENING, *mitigatti.BOOK, _CLOSING),
}
#: Every section of every book, by its ``ref``.
SECTIONS = {section.ref: section for book in _BOOKS.values() for section in book}


def rulebook(variant: Variant) -> tuple[Section, ...]:
    """The sections of the variant's rules, in reading order."""
    return _BOOKS[variant.family]
