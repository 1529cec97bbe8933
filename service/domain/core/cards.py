"""Cards and packs: the 78-card tarot pack and the 62-card Bolognese pack (rulebook §1, §4.1).

Glossary of the Italian words used across the domain:
- *scarto*: the dealer's discard; *mazziere*: the dealer; *mano*: a hand.
- *frilli*: pip cards (1–10 of the four suits) and the meld made of them.
- *trionfi* / *tarocchi*: trumps; *gatti*: the meld Fool + Bagatto + World (or Judgment).
- *famiglia*: the four court cards of one suit; *cricca*: three or four of a kind (Ottocento).
- *marca*: the counter in which Mitigatti is settled.

A card is identified by its canonical code (``KH``, ``T21``, ``FOOL``, ``MORO3``); everything
else about it (suit, rank, kind) is derived from the pack that defines it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Literal

CardKind = Literal["plain", "trump", "fool"]


class Suit(StrEnum):
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.SPADES: "♠"}

SUITS: tuple[Suit, ...] = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
PIP_RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
COURT_RANKS: tuple[str, ...] = ("J", "C", "Q", "K")
COURT_NAMES = {"J": "Jack", "C": "Cavalier", "Q": "Queen", "K": "King"}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. ``rank`` is the plain rank (``1``…``10``, ``J C Q K``) or the trump's name
    within its pack (``1``…``21`` in the tarot pack; ``ANGEL``, ``MORO2``… in the Bolognese).

    A card is its code: equality, hashing and order use the code alone (cards are looked up
    in sets and dicts at every step of a replay)."""

    code: str
    kind: CardKind
    suit: Suit | None = None
    rank: str | None = None

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.code == self.code)

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    @property
    def is_trump(self) -> bool:
        return self.kind == "trump"

    @property
    def is_fool(self) -> bool:
        return self.kind == "fool"

    @property
    def is_plain(self) -> bool:
        return self.kind == "plain"

    @property
    def is_pip(self) -> bool:
        return self.kind == "plain" and self.rank in PIP_RANKS

    @property
    def is_court(self) -> bool:
        return self.kind == "plain" and self.rank in COURT_RANKS

    @property
    def label(self) -> str:
        """How a score sheet prints it: ``K♥``, ``10♠``, ``T21``, ``★``."""
        if self.suit is not None:
            return f"{self.rank}{self.suit.symbol}"
        if self.is_fool:
            return "★"
        return self.code

    def __str__(self) -> str:
        return self.code


def plain(rank: str, suit: Suit) -> Card:
    return Card(f"{rank}{suit.value}", "plain", suit, rank)


def trump(name: str, code: str | None = None) -> Card:
    return Card(code or f"T{name}", "trump", None, name)


@dataclass(frozen=True)
class Pack:
    """A pack: its cards in a fixed order, and the special names its trumps answer to.

    ``aliases`` maps an upper-case name with spaces removed to a canonical code.
    """

    id: str
    name: str
    cards: tuple[Card, ...]
    plain_ranks: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...]

    @cached_property
    def by_code(self) -> dict[str, Card]:
        return {card.code: card for card in self.cards}

    @cached_property
    def alias_map(self) -> dict[str, str]:
        return dict(self.aliases)

    @cached_property
    def position(self) -> dict[Card, int]:
        return {card: i for i, card in enumerate(self.cards)}

    @cached_property
    def trumps(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.is_trump)

    @cached_property
    def fool(self) -> Card:
        return next(c for c in self.cards if c.is_fool)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.code in self.by_code

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, code: str) -> Card:
        return self.by_code[code]

    def sort(self, cards: tuple[Card, ...] | list[Card] | set[Card] | frozenset[Card]) -> tuple[Card, ...]:
        """Cards in pack order: trumps, then suits, the Fool last (a sheet's order)."""
        return tuple(sorted(cards, key=self.position.__getitem__))


def _tarot78() -> Pack:
    trumps = tuple(trump(str(n)) for n in range(1, 22))
    suits = tuple(plain(r, s) for s in SUITS for r in PIP_RANKS + COURT_RANKS)
    fool = Card("FOOL", "fool")
    aliases = (
        [(a, "T1") for a in ("BAGATTO", "BAGATTE", "PAGAT")]
        + [(a, "T20") for a in ("ANGEL", "ANGELO", "GIUDIZIO", "JUDGMENT", "JUDGEMENT", "ANGE")]
        + [(a, "T21") for a in ("WORLD", "MONDO")]
        + [(a, "FOOL") for a in ("FOOL", "MATTO", "FUOLE", "EXCUSE", "★", "T0")]
    )
    return Pack("tarot78", "78-card tarot pack", trumps + suits + (fool,),
                PIP_RANKS + COURT_RANKS, tuple(aliases))


BOLOGNESE_PLAIN_RANKS: tuple[str, ...] = ("1", "6", "7", "8", "9", "10") + COURT_RANKS


def _bolognese62() -> Pack:
    trumps = (
        (trump("BEGATO", "BEGATO"),)
        + tuple(trump(f"MORO{n}", f"MORO{n}") for n in range(1, 5))
        + tuple(trump(str(n)) for n in range(5, 17))
        + tuple(trump(name, name) for name in ("MOON", "SUN", "WORLD", "ANGEL"))
    )
    suits = tuple(plain(r, s) for s in SUITS for r in BOLOGNESE_PLAIN_RANKS)
    matto = Card("MATTO", "fool")
    aliases = (
        [("ANGEL", "ANGEL"), ("ANGELO", "ANGEL"), ("WORLD", "WORLD"), ("MONDO", "WORLD"),
         ("SUN", "SUN"), ("SOLE", "SUN"), ("MOON", "MOON"), ("LUNA", "MOON"),
         ("BEGATO", "BEGATO"), ("BAGATTO", "BEGATO"), ("T1", "BEGATO"),
         ("MATTO", "MATTO"), ("FOOL", "MATTO"), ("★", "MATTO")]
        + [(f"MORO{n}", f"MORO{n}") for n in range(1, 5)]
        + [(f"M{n}", f"MORO{n}") for n in range(1, 5)]
    )
    return Pack("bolognese62", "62-card Bolognese pack (Tarocchino)", trumps + suits + (matto,),
                BOLOGNESE_PLAIN_RANKS, tuple(aliases))


TAROT_78 = _tarot78()
BOLOGNESE_62 = _bolognese62()
PACKS: dict[str, Pack] = {TAROT_78.id: TAROT_78, BOLOGNESE_62.id: BOLOGNESE_62}
