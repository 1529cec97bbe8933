"""Checks every game makes of the discard and of cards shown in declarations (rulebook §2.3,
§4.2, §5.2, R2, §6): cards the dealer may not discard; a discarded card shown in a
declaration; one card shown by two players; a declaration of cards its player never played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.cards import Card
from ..core.errors import ProblemList
from ..core.text import Text
from ..variant import Variant
from .records import Declaration, HandRecord
from .sides import seat_name

#: A shown declaration: its index in the record, and the cards it shows or implies.
Shown = tuple[int, "Declaration", tuple[Card, ...]]


def check_forbidden_discards(variant: Variant, record: HandRecord,
                             problems: ProblemList) -> None:
    for i, card in enumerate(record.discard or ()):
        if card.is_plain and card.rank in variant.discard_forbidden_ranks:
            problems.add(f"discard[{i}]", "king_discarded",
                         Text("{card}: Kings may not be discarded", card=card),
                         variant.discard_rule)
        elif card.code in variant.discard_forbidden_cards:
            problems.add(f"discard[{i}]", "forbidden_discard",
                         Text('{card} may not be discarded', card=card), variant.discard_rule)


def check_shown_cards(record: HandRecord, shown: Iterable[Shown], problems: ProblemList,
                      rule: str = "R2") -> None:
    """No shown card may be in the discard, and none may be shown by two players."""
    discard = set(record.discard or ())
    first_shown: dict[Card, tuple[int, int]] = {}
    for i, d, cards in shown:
        for k, card in enumerate(cards):
            at = f"declarations[{i}].cards[{k}]" if d.cards is not None else f"declarations[{i}]"
            if card in discard:
                problems.add(at, "discarded_card_declared",
                             Text("{card} is in the dealer's discard and cannot be shown",
                                  card=card), rule)
                continue
            seen = first_shown.setdefault(card, (d.seat, i))
            if seen[0] != d.seat:
                problems.add(at, "shown_by_two_players",
                             Text("{card} was already shown by {seat}", card=card,
                                  seat=seat_name(seen[0])), rule)


def check_held(shown: Iterable[Shown], hands: Mapping[int, frozenset[Card]],
               problems: ProblemList, rule: str = "R2") -> None:
    """A trick record shows each hand: a declaration's cards must be cards its player played."""
    for i, d, cards in shown:
        missing = [c.code for c in cards if c not in hands.get(d.seat, frozenset())]
        if missing:
            problems.add(f"declarations[{i}]", "not_held",
                         Text("{seat} showed {cards}, but the tricks show that hand did not "
                              "hold them", seat=seat_name(d.seat), cards=', '.join(missing)), rule)
