"""Capture piles at the end of a hand, in either form a table gives them (rulebook §2.6, §4.4,
§6): every card, or a summary (tricks, the discard counted as one where held, and the cards
that matter: counting cards in Gatti, counting and combination cards in Ottocento). One side's
pile may be left out and is derived as the rest of the pack. Checks that the piles partition
the pack into whole tricks and that the discard lies with the side that holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..core.cards import Card
from ..core.errors import ProblemList
from ..core.results import Line
from ..core.text import Cards, Text
from ..variant import Variant
from .records import HandRecord, Pile
from .sides import Sides, seat_name, side_name


@dataclass(frozen=True)
class PileView:
    """A side's pile as the scorer sees it, whichever form the table gave (or derived)."""

    side: int
    tricks: int
    cards: int
    counting: frozenset[Card]
    every_card: frozenset[Card] | None
    derived: bool
    holds_discard: bool | None = None


def _pile_size(variant: Variant, tricks: int, holds_discard: bool) -> int:
    if tricks == 0:
        return 0
    return variant.trick_size * tricks - (variant.trick_size - variant.extra) * holds_discard


def _tricks_in(variant: Variant, size: int, holds: bool | None,
               has_fool: bool = False) -> tuple[int, bool | None] | None:
    """Tricks in a full pile of ``size`` cards, the discard counting as one, and whether the
    pile holds the discard. ``holds`` is what the recorded discard says, or None where the
    record has no discard and only the size can tell. None when the size is no whole number of
    tricks for such a pile. Where the Fool is kept by its player and never exchanged
    (Mitigatti), its pile may hold one card more, and the pile of its trick's winner one
    fewer."""
    if variant.fool_rule == "kept":
        for off in (0, 1 if has_fool else -1):
            found = _whole_tricks(variant, size - off, holds)
            if found is not None:
                return found
        return None
    return _whole_tricks(variant, size, holds)


def _whole_tricks(variant: Variant, size: int,
                  holds: bool | None) -> tuple[int, bool | None] | None:
    ts, extra = variant.trick_size, variant.extra
    plain_ok = size % ts == 0
    discard_ok = size >= extra and (size - extra) % ts == 0
    if holds is None:
        if plain_ok and discard_ok:
            return size // ts, None
        holds = discard_ok
    if holds:
        return ((size - extra) // ts + 1, True) if discard_ok else None
    return (size // ts, False) if plain_ok else None


def index_piles(record: HandRecord, sides: Sides, problems: ProblemList) -> dict[int, int]:
    """Each side's pile by its place in the record; a side that the hand does not have, or
    that has two piles, is a problem."""
    given: dict[int, int] = {}
    for i, pile in enumerate(record.piles):
        if pile.side >= len(sides):
            problems.add(f"piles[{i}].side", "out_of_range",
                         Text("this hand has sides 0 to {n}", n=len(sides) - 1), "§0")
        elif pile.side in given:
            problems.add(f"piles[{i}].side", "duplicate_pile",
                         Text("side {side} already has a pile", side=pile.side))
        else:
            given[pile.side] = i
    return given


def resolve_piles(variant: Variant, record: HandRecord, sides: Sides,
                   problems: ProblemList) -> dict[int, PileView] | None:
    piles: dict[int, tuple[int, Pile]] = {
        side: (i, record.piles[i]) for side, i in index_piles(record, sides, problems).items()}
    if not record.piles:
        problems.add("piles", "missing_field",
                     Text("give each side's pile at the end of the hand (all but one side's is "
                          "enough: the last is the rest of the pack)"), variant.totals_section)
        return None
    missing = [s for s in range(len(sides)) if s not in piles]
    if len(missing) > 1:
        problems.add("piles", "piles_missing",
                     Text("give the piles of all sides but one; sides {missing} are missing",
                          missing=missing),
                     variant.totals_section)
        return None

    counting_cards = variant.summary_cards
    owner: dict[Card, int] = {}
    views: dict[int, PileView] = {}
    ok = True
    for side, (i, pile) in sorted(piles.items()):
        listed = pile.cards if pile.cards is not None else pile.counting or ()
        part = "cards" if pile.cards is not None else "counting"
        for k, card in enumerate(listed):
            if card in owner:
                problems.add(f"piles[{i}].{part}[{k}]", "card_in_two_piles",
                             Text("{card} is also in side {owner}'s pile", card=card,
                                  owner=owner[card]), "§6")
                ok = False
            owner.setdefault(card, side)
            if pile.cards is None and card not in counting_cards:
                problems.add(f"piles[{i}].counting[{k}]", "not_a_counting_card",
                             Text("{card} is not a card a summary lists: list only counting "
                                  "cards", card=card) if variant.summary_codes is None else
                             Text("{card} is not a card a summary lists: list only cards worth "
                                  "more than a point or able to join a combination", card=card),
                             variant.totals_rule)
                ok = False
        if pile.cards is not None:
            holds = None if not record.discard else bool(set(record.discard) & set(pile.cards))
            found = _tricks_in(variant, len(pile.cards), holds,
                               variant.pack.fool in pile.cards)
            if found is None:
                size, extra = variant.trick_size, variant.extra
                shape = {None: Text("a whole number of tricks of {size}, plus the discard's "
                                    "{extra} where it holds the discard", size=size, extra=extra),
                         True: Text("the discard's {extra} plus whole tricks of {size}, as it "
                                    "holds the discard", size=size, extra=extra),
                         False: Text("whole tricks of {size}, as it does not hold the discard",
                                     size=size)}[holds]
                problems.add(f"piles[{i}].cards", "pile_not_whole_tricks",
                             Text("{n} cards: a pile holds {shape}", n=len(pile.cards),
                                  shape=shape), variant.totals_section)
                ok = False
                continue
            views[side] = PileView(side, found[0], len(pile.cards),
                                   frozenset(pile.cards) & counting_cards,
                                   frozenset(pile.cards), False, found[1])
        else:
            assert pile.tricks is not None
            beyond = _kept_fool(variant, pile.counting or ())
            if pile.tricks == 0 and len(pile.counting or ()) > beyond:
                problems.add(f"piles[{i}].counting", "cards_without_tricks",
                             Text("a side that took no trick has no cards in its pile but "
                                  "the Fuole its player kept") if beyond else
                             Text("a side that took no trick has no cards in its pile"),
                             variant.totals_section)
                ok = False
            views[side] = PileView(side, pile.tricks, -1, frozenset(pile.counting or ()),
                                   None, False)
    if not ok:
        return None

    dealer_side = sides.of(record.dealer)
    if missing:
        side = missing[0]
        tricks = variant.tricks_per_hand - sum(v.tricks for v in views.values())
        if tricks < 0:
            problems.add("piles", "tricks_total",
                         Text("the piles given hold {n} tricks; a hand has {tricks_per_hand} (the "
                              "discard counted as one)", n=variant.tricks_per_hand - tricks,
                              tricks_per_hand=variant.tricks_per_hand),
                         variant.totals_rule)
            return None
        full = None
        if all(v.every_card is not None for v in views.values()):
            full = frozenset(variant.pack.cards).difference(*(v.every_card or () for v in
                                                              views.values()))
        views[side] = PileView(side, tricks, -1,
                               counting_cards.difference(*(v.counting for v in views.values())),
                               full, True)

    # Sizes of summary piles follow from who holds the discard (§2.3 covering).
    dealer_tricks = views[dealer_side].tricks
    for side, view in list(views.items()):
        if view.cards >= 0:
            continue
        if view.every_card is not None:
            size = len(view.every_card)
        else:
            holds = (side == dealer_side and dealer_tricks > 0) or (
                side != dealer_side and dealer_tricks == 0 and view.tricks > 0
                and len(sides) == 2)
            size = _pile_size(variant, view.tricks, holds)
        views[side] = PileView(side, view.tricks, size, view.counting, view.every_card,
                               view.derived)

    total_tricks = sum(v.tricks for v in views.values())
    gone = counting_cards.difference(*(v.counting for v in views.values()))
    if total_tricks != variant.tricks_per_hand or gone:
        reasons = []
        if total_tricks != variant.tricks_per_hand:
            reasons.append(Text("the piles hold {n} tricks, not {tricks} (the discard counted as "
                                "one)", n=total_tricks, tricks=variant.tricks_per_hand))
        if gone:
            reasons.append(Text("no pile holds {cards}", cards=Cards(variant.pack.sort(gone))))
        problems.add("piles", "deck_points_total",
                     Text("the piles must hold the whole pack, {deck_total} points a "
                          "hand{totals_so_far}: {cards}", deck_total=variant.deck_total,
                          totals_so_far=_totals_so_far(variant, views),
                          cards=Text.joined(reasons)),
                     variant.totals_rule)
        return None
    if all(v.every_card is not None for v in views.values()):
        absent = frozenset(variant.pack.cards).difference(*(v.every_card or ()
                                                            for v in views.values()))
        if absent:
            problems.add("piles", "cards_missing",
                         Text("the piles must hold the whole pack; missing: {cards}",
                              cards=Cards(variant.pack.sort(absent))), "§6")
            return None
    crowded = False
    for side, view in sorted(views.items()):
        if len(view.counting) > view.cards + _kept_fool(variant, view.counting):
            at = f"piles[{piles[side][0]}].counting" if side in piles else "piles"
            whose = (Text("side {side}'s pile", side=side) if side in piles
                     else Text("side {side}'s pile (the rest of the pack)", side=side))
            problems.add(at, "more_counting_cards_than_pile",
                         Text("{whose} holds {tricks} tricks, {cards} cards, but {n} counting "
                              "cards", whose=whose, tricks=view.tricks, cards=view.cards,
                              n=len(view.counting)), variant.totals_section)
            crowded = True
    return None if crowded else views


def check_discard_holder(variant: Variant, record: HandRecord, sides: Sides,
                          views: Mapping[int, PileView], problems: ProblemList) -> None:
    """The discard counts for the dealer's side; uncovered, it goes to the last trick's winner
    (3-handed) or to the opponents (4-handed) (§2.3)."""
    dealer_side = sides.of(record.dealer)
    dealer_tricks = views[dealer_side].tricks
    if variant.discard_covering and dealer_tricks == 1:
        problems.add("piles", "discard_not_covered",
                     Text("{side} (the dealer's side) holds only the discard: a discard the "
                          "dealer's side does not cover with a trick goes to the winner of the "
                          "last trick", side=side_name(sides, dealer_side)) if len(sides) > 2 else
                     Text("{side} (the dealer's side) holds only the discard: a discard the "
                          "dealer's side does not cover with a trick goes to the opponents",
                          side=side_name(sides, dealer_side)),
                     variant.discard_rule)
    if not variant.discard_covering and dealer_tricks == 0:
        problems.add("piles", "discard_outside_dealer_side",
                     Text("the discard always belongs to the dealer's side, which must hold it"),
                     "§3" if variant.rules_section == "§3" else variant.discard_rule)
    if record.discard:
        holders = {side for side, v in views.items()
                   for card in record.discard
                   if card in (v.every_card if v.every_card is not None else v.counting)}
    else:
        holders = {side for side, v in views.items() if v.holds_discard}
    if len(holders) > 1:
        problems.add("piles", "discard_split",
                     Text("the discard's cards are in different piles; it stays together"),
                     variant.discard_rule)
        return
    if not holders:
        return
    holder = next(iter(holders))
    if holder != dealer_side and dealer_tricks > 0:
        problems.add("piles", "discard_outside_dealer_side",
                     Text("the discard is in {side}'s pile, but the dealer's side took tricks and "
                          "so covered it", side=side_name(sides, holder)), variant.discard_rule)
    bagatto = record.bagatto
    if holder != dealer_side and len(sides) > 2 and bagatto is not None:
        # The uncovered discard goes to the last trick's winner, whom the Bagatto names.
        bagatto_side = sides.of(bagatto.seat)
        if bagatto.won and holder != bagatto_side:
            problems.add("piles", "discard_outside_dealer_side",
                         Text("the uncovered discard goes to the last trick's winner, {seat} "
                              "(who won it with T1), not to {side}", seat=seat_name(bagatto.seat),
                              side=side_name(sides, holder)), variant.discard_rule)
        elif not bagatto.won and holder == bagatto_side:
            problems.add("piles", "discard_outside_dealer_side",
                         Text("the uncovered discard goes to the last trick's winner, but "
                              "{seat} lost the last trick with T1", seat=seat_name(bagatto.seat)), variant.discard_rule)


def pile_of(card: Card, views: Mapping[int, PileView]) -> int | None:
    for side, v in views.items():
        if card in (v.every_card if v.every_card is not None else v.counting):
            return side
    return None


def _totals_so_far(variant: Variant, views: Mapping[int, PileView]) -> Text | str:
    """What these piles add up to, where the variant's deck points follow from piles alone."""
    if variant.last_trick_points:
        return ""
    deck = [variant.deck_points(v.tricks, v.cards, sum(variant.card_points(c)
                                                         for c in v.counting))
            for _, v in sorted(views.items())]
    return Text("; these piles give {parts} = {total}", parts=" + ".join(map(str, deck)),
                total=sum(deck))


def deck_points_line(variant: Variant, sides: Sides, side: int, view: PileView) -> Line:
    """A side's deck points, explained: its tricks (the discard counted as one where held),
    what they are worth by the variant's rule, and its counting cards."""
    counting = sum(variant.card_points(c) for c in view.counting)
    points = variant.deck_points(view.tricks, view.cards, counting)
    trick_points = points - counting
    held = [c.code for c in variant.pack.sort(view.counting)]
    return Line(
        "deck_points", points,
        Text("{side}: {tricks} tricks, {trick_points} trick points, + {counting} in counting "
             "cards{cards}{rest}", side=side_name(sides, side).capitalize(), tricks=view.tricks,
             trick_points=trick_points, counting=counting,
             cards=Text(" ({cards})", cards=Cards(variant.pack.sort(view.counting), " "))
             if held else "",
             rest=Text(" (the rest of the pack)") if view.derived else ""),
        variant.totals_section,
        (("tricks", view.tricks), ("trick_points", trick_points), ("counting", counting),
         ("counting_cards", held), ("derived", view.derived)))


def _kept_fool(variant: Variant, cards: frozenset[Card] | tuple[Card, ...]) -> int:
    """1 when the pile holds a Fool its player keeps beyond the tricks (Mitigatti's Fuole,
    never captured, never exchanged: its pile may hold it and no trick), else 0."""
    return int(variant.fool_rule == "kept" and variant.pack.fool in cards)
