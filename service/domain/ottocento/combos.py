"""Ottocento's combinations and card points (rulebook §4.1, §4.3; R11, R18).

*Cricche* are three or four of a kind: the four tarocchi (Angel, World, Bégato, Matto), Kings,
Queens, Knights or Jacks. *Sequences* need a real head and enough real cards to be
established; the two wild cards (*contatori*: the Matto and the Bégato) may stand for a missing
card, each once per sequence, and every wild card held adds to every sequence's length
whether it was needed or not (R18). The same evaluation serves a player's declaration and a
side's captured pile.

Card points: tarocchi and Kings 5, Queens 4, Knights 3, Jacks 2, every other card 1; cards
are counted in pairs, one point off per pair; the last trick is worth 6. A hand totals 93.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.cards import BOLOGNESE_62, SUITS, Card, Suit
from ..core.text import Text

PACK = BOLOGNESE_62
WILD_CODES = ("MATTO", "BEGATO")
TAROCCHI = ("ANGEL", "WORLD", "BEGATO", "MATTO")
#: The trump run below the head, in order (R11: it ends at T5; Moors and Bégato are no part).
TRUMP_RUN = tuple(f"T{n}" for n in range(16, 4, -1))
TRUMP_HEAD = ("WORLD", "SUN", "MOON")
MOORS = tuple(f"MORO{n}" for n in range(1, 5))
LAST_TRICK = 6

CRICCA_POINTS = {
    "tarocchi": (36, 18), "K": (34, 17), "Q": (28, 14), "C": (26, 13), "J": (24, 12),
}
CRICCA_NAMES = {"tarocchi": Text("tarocchi"), "K": Text("Kings"), "Q": Text("Queens"),
                "C": Text("Knights"), "J": Text("Jacks")}
SEQUENCE_NAMES = {"trumps": Text("trumps"), "moors": Text("Moors"), "aces": Text("aces"),
                  **{s.value: Text("{suit} (suit)", suit=s.symbol) for s in SUITS}}

_VALUES = {"K": 5, "Q": 4, "C": 3, "J": 2}


def card_value(card: Card) -> int:
    """A card's value before counting in pairs."""
    if card.code in TAROCCHI:
        return 5
    if card.is_plain:
        return _VALUES.get(card.rank or "", 1)
    return 1


def card_points(cards: Iterable[Card], last_trick: bool) -> int:
    """Points of a pile: its values, one point off per pair of cards, and 6 for the last
    trick."""
    held = list(cards)
    return sum(card_value(c) for c in held) - len(held) // 2 + (LAST_TRICK if last_trick else 0)


@dataclass(frozen=True, slots=True)
class CriccaFound:
    type: str
    cards: tuple[Card, ...]
    kind = "cricca"

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def points(self) -> int:
        full, three = CRICCA_POINTS[self.type]
        return full if self.count == 4 else three

    @property
    def label(self) -> Text:
        return cricca_label(self.type, self.count)


def cricca_label(kind: str, count: int) -> Text:
    if count == 4:
        return Text("cricca of all four {what}", what=CRICCA_NAMES[kind])
    return Text("cricca of three {what}", what=CRICCA_NAMES[kind])


def cricca_type(card: Card) -> str | None:
    if card.code in TAROCCHI:
        return "tarocchi"
    if card.is_plain and card.rank in CRICCA_POINTS:
        return card.rank
    return None


def cricche(cards: Iterable[Card]) -> list[CriccaFound]:
    """Every cricca among the cards: each type with three or four of its cards, in the order
    of the pack (a pile is a set: its own order would change from one process to the next)."""
    by_type: dict[str, list[Card]] = {}
    for card in PACK.sort(tuple(cards)):
        kind = cricca_type(card)
        if kind is not None:
            by_type.setdefault(kind, []).append(card)
    return [CriccaFound(kind, PACK.sort(found)) for kind, found in by_type.items()
            if len(found) >= 3]


@dataclass(frozen=True, slots=True)
class SequenceFound:
    """A sequence: its type, the real cards its run reaches, and the wild cards held."""

    type: str
    reached: tuple[Card, ...]
    wilds: tuple[Card, ...]
    kind = "sequence"

    @property
    def length(self) -> int:
        return len(self.reached) + len(self.wilds)

    @property
    def size(self) -> int:
        return self.length

    @property
    def points(self) -> int:
        return sequence_points(self.length)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.reached + self.wilds

    @property
    def label(self) -> Text:
        return sequence_label(self.type, self.length)


def sequence_label(kind: str, length: int) -> Text:
    return Text("sequence of {n} {what}", n=length, what=SEQUENCE_NAMES[kind])


@dataclass(frozen=True, slots=True)
class ComboByKind:
    """A cricca or a sequence a pile holds, said by its type and size rather than its cards
    (a pile given by points)."""

    kind: str
    type: str
    size: int
    cards: tuple[Card, ...] = ()

    @property
    def points(self) -> int:
        if self.kind == "cricca":
            full, three = CRICCA_POINTS[self.type]
            return full if self.size == 4 else three
        return sequence_points(self.size)

    @property
    def label(self) -> Text:
        if self.kind == "cricca":
            return cricca_label(self.type, self.size)
        return sequence_label(self.type, self.size)


def cricca_cards(kind: str) -> frozenset[Card]:
    """The four cards of a cricca's type."""
    return frozenset(c for c in PACK.cards if cricca_type(c) == kind)


def sequence_cards(kind: str) -> frozenset[Card]:
    """The real cards a sequence of this type can hold (the wild cards apart)."""
    return frozenset(c for c in PACK.cards if c.code not in WILD_CODES and belongs_to(kind, c))


def longest_sequence(kind: str) -> int:
    """A sequence's greatest length: every real card of its type and both wild cards."""
    return len(sequence_cards(kind)) + len(WILD_CODES)


def sequence_points(length: int) -> int:
    """3 cards score 10, each further card 5."""
    return 10 + 5 * (length - 3) if length >= 3 else 0


def _codes(cards: Iterable[Card]) -> dict[str, Card]:
    return {c.code: c for c in cards}


def _trump_sequence(held: dict[str, Card], wilds: int) -> list[Card] | None:
    """The real cards the trump sequence reaches, or None when it is not established: the
    Angel real; two of World, Sun, Moon, one at least real (a wild card may stand for the
    other); then from T16 down while the trumps are there, a spare wild card filling a gap,
    never two adjacent gaps."""
    if "ANGEL" not in held:
        return None
    head = [held[c] for c in TRUMP_HEAD if c in held]
    if not head:
        return None
    spare = wilds
    if len(head) == 1:
        if spare == 0:
            return None
        spare -= 1  # stands for a missing head card, never next to T16 (R18: furthest reach)
    reached = [held["ANGEL"], *head]
    filled_last = False
    for code in TRUMP_RUN:
        if code in held:
            reached.append(held[code])
            filled_last = False
        elif spare and not filled_last:
            spare -= 1
            filled_last = True
        else:
            break
    return reached


def _suit_sequence(suit: Suit, held: dict[str, Card], wilds: int) -> list[Card] | None:
    """The King real and two of Queen, Knight, Jack, one at least real; then the ace."""
    king = held.get(f"K{suit.value}")
    if king is None:
        return None
    courts = [held[f"{r}{suit.value}"] for r in ("Q", "C", "J") if f"{r}{suit.value}" in held]
    if not courts or (len(courts) == 1 and wilds == 0):
        return None
    ace = held.get(f"1{suit.value}")
    return [king, *courts] + ([ace] if ace else [])


def _group_sequence(codes: tuple[str, ...], held: dict[str, Card],
                    wilds: int) -> list[Card] | None:
    """Moors or aces: at least three, at least two real."""
    real = [held[c] for c in codes if c in held]
    if len(real) >= 3 or (len(real) == 2 and wilds >= 1):
        return real
    return None


def best_sequences(cards: Iterable[Card]) -> list[SequenceFound]:
    """Every sequence the cards establish, each with the wild cards where they reach
    furthest (R18)."""
    held = _codes(cards)
    wild_cards = tuple(held[c] for c in WILD_CODES if c in held)
    wilds = len(wild_cards)
    found: list[SequenceFound] = []
    trumps = _trump_sequence(held, wilds)
    if trumps is not None:
        found.append(SequenceFound("trumps", tuple(trumps), wild_cards))
    for suit in SUITS:
        run = _suit_sequence(suit, held, wilds)
        if run is not None:
            found.append(SequenceFound(suit.value, tuple(run), wild_cards))
    moors = _group_sequence(MOORS, held, wilds)
    if moors is not None:
        found.append(SequenceFound("moors", tuple(moors), wild_cards))
    aces = _group_sequence(tuple(f"1{s.value}" for s in SUITS), held, wilds)
    if aces is not None:
        found.append(SequenceFound("aces", tuple(aces), wild_cards))
    return found


def sequence_type(cards: Iterable[Card]) -> str | None:
    """Which sequence a declaration means, from the cards it shows: the trumps when it shows
    the Angel, a suit when it shows that suit's King, the Moors, or the aces."""
    held = _codes(cards)
    if "ANGEL" in held:
        return "trumps"
    kings = [c.suit.value for c in held.values() if c.is_plain and c.rank == "K" and c.suit]
    if len(kings) == 1:
        return kings[0]
    if kings:
        return None
    if any(code in held for code in MOORS):
        return "moors"
    if any(c.is_plain and c.rank == "1" for c in held.values()):
        return "aces"
    return None


def belongs_to(kind: str, card: Card) -> bool:
    """Whether a card can take part in a sequence of this type (as a real card or a wild)."""
    if card.code in WILD_CODES:
        return True
    if kind == "trumps":
        return card.code == "ANGEL" or card.code in TRUMP_HEAD or card.code in TRUMP_RUN
    if kind == "moors":
        return card.code in MOORS
    if kind == "aces":
        return card.is_plain and card.rank == "1"
    return card.is_plain and card.suit is not None and card.suit.value == kind and \
        card.rank in ("K", "Q", "C", "J", "1")


#: Cards that matter beyond one point: worth more, or able to join a cricca or sequence.
#: A summary pile lists exactly these.
SIGNIFICANT = frozenset(
    c for c in PACK.cards
    if card_value(c) > 1 or cricca_type(c) is not None
    or any(belongs_to(kind, c) for kind in SEQUENCE_NAMES)
)
