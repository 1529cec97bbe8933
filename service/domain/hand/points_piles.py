"""Piles given by points: the number a table counts at the end of a hand, one per side, with
the combinations a pile holds said by kind where they score (rulebook §2.6, §3, §4.1, §5.1).

A number cannot show which cards lie where, so the checks are what a number allows: every
side's points or all but one (the last is the rest of the pack), the hand's total (78, 93 less
the last trick's 6, 72), each pile at least what the cards the other records put in it are
worth (T1 that won the last trick, a covered Fool, a kept card, the cards a combination
needs), combinations that the pack can hold at once, and a side that must have taken a trick
having points. The result says the hand was entered by points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..core.cards import Card
from ..core.errors import ProblemList
from ..core.results import Line
from ..core.text import Cards, Text
from ..variant import Variant
from .piles import index_piles
from .records import Combination, HandRecord
from .sides import Sides, side_name


@dataclass(frozen=True)
class Counted:
    """A combination said by kind, evaluated by its family: ``value`` is what scores (a Gatti
    meld, an Ottocento cricca or sequence); ``cards`` the cards it surely holds; ``needs``
    how many it holds at least of a group of cards."""

    value: object
    rule: str
    cards: frozenset[Card] = frozenset()
    needs: tuple[tuple[frozenset[Card], int], ...] = ()


#: How a family reads one combination said by kind: the variant, the combination, its field
#: path and the problem list; None when it is not one.
Evaluate = Callable[["Variant", "Combination", str, ProblemList], Counted | None]


@dataclass(frozen=True)
class PointsView:
    """A side's points as the table counted them (or the rest of the hand's total)."""

    side: int
    points: int
    combinations: tuple[Counted, ...]
    derived: bool


def uses_points(record: HandRecord) -> bool:
    return any(p.by_points for p in record.piles)


def counted_total(variant: Variant) -> int:
    """What the piles' points add up to: the hand's total less the last trick's points,
    which the record's ``last_trick`` gives."""
    return variant.deck_total - variant.last_trick_points


def resolve_points_piles(variant: Variant, record: HandRecord, sides: Sides,
                         problems: ProblemList, evaluate: Evaluate | None,
                         known: Mapping[int, Iterable[Card]]) -> dict[int, PointsView] | None:
    """The sides' points, checked; None (with problems) where they cannot be. ``known`` are
    the cards other records put in a side's pile; ``evaluate`` reads combinations, None
    where this game scores none in piles."""
    before = len(problems.items)
    for i, pile in enumerate(record.piles):
        if not pile.by_points:
            problems.add(f"piles[{i}]", "mixed_pile_forms",
                         Text("the other piles are given by points: give this one by its points "
                              "too"), variant.totals_section)
    given = index_piles(record, sides, problems)
    missing = [s for s in range(len(sides)) if s not in given]
    if len(problems.items) == before and len(missing) > 1:
        problems.add("piles", "piles_missing",
                     Text("give the points of all sides but one; sides {missing} are missing",
                          missing=missing),
                     variant.totals_section)
    combos: dict[int, tuple[Counted, ...]] = {}
    for side, i in given.items():
        pile = record.piles[i]
        if not pile.combinations:
            combos[side] = ()
        elif evaluate is None:
            # A game whose variant has melds a pile can score (Gatti's) leaves them out by its
            # option (R8); one whose variant has none never scores combinations in piles.
            optional = any(m.captured for m in variant.melds)
            problems.add(f"piles[{i}].combinations", "combinations_not_scored",
                         Text("this game scores no combinations in the piles: leave them "
                              "out") if optional else
                         Text("{variant} scores no combinations in the piles: leave them out",
                              variant=variant.id),
                         "R8" if optional else variant.rules_section)
        else:
            combos[side] = tuple(
                c for k, combo in enumerate(pile.combinations)
                if (c := evaluate(variant, combo, f"piles[{i}].combinations[{k}]", problems))
                is not None)
    if len(problems.items) > before:
        return None

    total = counted_total(variant)
    points = {side: record.piles[i].points or 0 for side, i in given.items()}
    so_far = sum(points.values())
    if not missing and so_far != total:
        parts = " + ".join(str(points[s]) for s in sorted(points))
        problems.add("piles", "deck_points_total",
                     Text("the piles must hold the whole pack, {total} points a hand with the "
                          "last trick's {last} apart; these give {parts} = {sum}", total=total,
                          last=variant.last_trick_points, parts=parts, sum=so_far)
                     if variant.last_trick_points else
                     Text("the piles must hold the whole pack, {total} points a hand; these "
                          "give {parts} = {sum}", total=total, parts=parts, sum=so_far),
                     variant.totals_rule)
        return None
    if missing and so_far > total:
        problems.add("piles", "deck_points_total",
                     Text("the piles given hold {sum} points; a hand has {total} with the last "
                          "trick's {last} apart", sum=so_far, total=total,
                          last=variant.last_trick_points) if variant.last_trick_points else
                     Text("the piles given hold {sum} points; a hand has {total}", sum=so_far,
                          total=total), variant.totals_rule)
        return None
    views = {side: PointsView(side, points[side], combos[side], False) for side in given}
    for side in missing:
        views[side] = PointsView(side, total - so_far, (), True)

    _check_combinations_fit(variant, sides, views, given, problems)
    _check_known_cards(variant, sides, views, given, known, problems)
    if len(problems.items) > before:
        return None
    return views


def _where(given: Mapping[int, int], side: int, part: str = "") -> str:
    return f"piles[{given[side]}]{part}" if side in given else "piles"


def _check_combinations_fit(variant: Variant, sides: Sides, views: Mapping[int, PointsView],
                            given: Mapping[int, int], problems: ProblemList) -> None:
    """No card in two sides' combinations, and no group of cards asked for more often than
    the pack holds it."""
    owner: dict[Card, int] = {}
    overlap = False
    for side, view in sorted(views.items()):
        for k, combo in enumerate(view.combinations):
            for card in sorted(combo.cards, key=variant.pack.cards.index):
                other = owner.setdefault(card, side)
                if other != side:
                    overlap = True
                    problems.add(_where(given, side, f".combinations[{k}]"),
                                 "card_in_two_piles",
                                 Text("this combination holds {card}, which a combination of "
                                      "{side}'s pile holds too", card=card,
                                      side=side_name(sides, other)), "§6")
    if overlap:
        return
    groups: dict[frozenset[Card], dict[int, int]] = defaultdict(dict)
    rules: dict[frozenset[Card], str] = {}
    for side, view in views.items():
        for combo in view.combinations:
            for group, n in combo.needs:
                rules[group] = combo.rule
                surely = sum(1 for c in group if owner.get(c) == side)
                groups[group][side] = max(groups[group].get(side, 0), n, surely)
    for group, by_side in groups.items():
        others = sum(1 for c in group if owner.get(c) not in by_side and c in owner)
        if sum(by_side.values()) + others > len(group):
            first = min(by_side)
            problems.add(_where(given, first, ".combinations"), "combinations_exceed_pack",
                         Text("the piles' combinations need {parts} of {cards}, and the pack "
                              "has {n}", parts=" + ".join(str(by_side[s]) for s in sorted(by_side)),
                              cards=Cards(variant.pack.sort(group)), n=len(group)), rules[group])


def _check_known_cards(variant: Variant, sides: Sides, views: Mapping[int, PointsView],
                       given: Mapping[int, int], known: Mapping[int, Iterable[Card]],
                       problems: ProblemList) -> None:
    """Each side's points are at least what the cards surely in its pile are worth."""
    for side, view in sorted(views.items()):
        cards = set(known.get(side, ()))
        for combo in view.combinations:
            cards |= combo.cards
        count = len(cards)
        worth = sum(variant.card_points(c) for c in cards)
        for group, n in _needs(view.combinations):
            more = max(0, n - len(group & cards))
            count += more
            worth += more * min(variant.card_points(c) for c in group)
        if count == 0:
            continue
        least = variant.deck_points(0, count, worth)
        if view.points < least:
            values = {"side": side_name(sides, side), "cards": Cards(variant.pack.sort(cards)),
                      "least": least, "points": view.points}
            problems.add(_where(given, side, ".points"), "points_below_cards",
                         Text("{side}'s pile holds at least {cards} and the cards its "
                              "combinations need, worth {least} at the least; {points} is too "
                              "few", **values) if count > len(cards) else
                         Text("{side}'s pile holds at least {cards}, worth {least} at the "
                              "least; {points} is too few", **values),
                         variant.totals_section)


def _needs(combos: Iterable[Counted]) -> list[tuple[frozenset[Card], int]]:
    most: dict[frozenset[Card], int] = {}
    for combo in combos:
        for group, n in combo.needs:
            most[group] = max(most.get(group, 0), n)
    return sorted(most.items(), key=lambda item: sorted(c.code for c in item[0]))


def points_line(variant: Variant, sides: Sides, view: PointsView, item: str = "deck_points",
                last_trick: int = 0, rule: str | None = None) -> Line:
    """A side's points as entered: the number the table counted, with the last trick where
    the variant scores it apart."""
    values = {"side": side_name(sides, view.side).capitalize(), "points": view.points,
              "last": last_trick, "total": view.points + last_trick}
    if variant.last_trick_points:
        text = (Text("{side}: {points} card points, the rest of the hand's total", **values)
                if view.derived else
                Text("{side}: {points} card points, as counted at the table", **values))
        if last_trick:
            text = Text("{text}, and {last} for the last trick: {total}", text=text, **values)
    else:
        text = (Text("{side}: {points} deck points, the rest of the hand's total", **values)
                if view.derived else
                Text("{side}: {points} deck points, as counted at the table", **values))
    details: tuple[tuple[str, object], ...] = (("entered", "points"),
                                               ("counted", view.points))
    if variant.last_trick_points:
        details += (("last_trick", last_trick),)
    return Line(item, view.points + last_trick, text, rule or variant.totals_section,
                details + (("derived", view.derived),))
