"""Gatti melds: what a declaration shows, whether it forms its meld, what a pile captures, and
what a hand could declare (rulebook §2.4, §3; R1, R2, R8).

A declaration given as cards is checked card by card. One given as just what it is (a family
of ♦, four Kings, 11 trumps) is checked as if its cards had been shown where the kind fixes them
(``implied_cards``); where it does not (three of four Kings, a count of trumps), what it
needs of the pack is still known (``needs``) and checked against what others showed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.cards import COURT_RANKS, SUITS, Card, Suit, plain
from ..core.errors import Problem
from ..core.text import Cards, Text
from ..hand.records import Declaration
from ..variant import MeldRule, Variant

#: Court cards by rank, in the plural, as a meld's label says them.
COURTS = {"J": Text("Jacks"), "C": Text("Cavaliers"), "Q": Text("Queens"), "K": Text("Kings")}

#: How R1 groups melds: one family per kind, except that three and four of a kind of one
#: rank are one family, and each suit's family is its own.
OF_A_KIND = ("three_of_a_kind", "four_of_a_kind")


def card_class(card: Card) -> str:
    """The disjoint classes in which declarations compete for cards."""
    if card.is_trump:
        return "trump"
    if card.is_fool:
        return "fool"
    if card.is_pip:
        return "pip"
    return f"rank:{card.rank}"


def class_sizes(variant: Variant) -> Counter[str]:
    return Counter(card_class(c) for c in variant.pack.cards)


@dataclass(frozen=True, slots=True)
class CheckedMeld:
    """A declaration found to form its meld: the cards it shows (or implies), what it needs of
    each class of the pack, its R1 family and its points before R1."""

    declaration: Declaration
    rule: MeldRule
    cards: tuple[Card, ...]
    needs: tuple[tuple[str, int], ...]
    family: str
    points: int
    mark: str
    label: str


def _of_a_kind_rank(cards: tuple[Card, ...]) -> str | None:
    ranks = {c.rank for c in cards}
    if len(ranks) == 1 and all(c.is_court for c in cards):
        return next(iter(ranks))
    return None


def _family_suit(cards: tuple[Card, ...]) -> Suit | None:
    suits = {c.suit for c in cards}
    if len(suits) == 1 and sorted(c.rank or "" for c in cards) == sorted(COURT_RANKS) \
            and len(cards) == 4:
        return next(iter(suits))
    return None


def check_declaration(
    variant: Variant, d: Declaration, field: str
) -> tuple[CheckedMeld | None, list[Problem]]:
    """Whether one declaration forms its meld (R2). Returns the checked meld or the problems."""
    rule = variant.meld(d.kind)
    assert rule is not None, "records.py admits only the variant's meld kinds"
    problems: list[Problem] = []
    section = variant.rules_section + ".4" if variant.rules_section == "§2" else "§3"

    def bad(code: str, message: Text, at: str = "cards", rule_ref: str = "R2") -> None:
        problems.append(Problem(f"{field}.{at}" if at else field, code, message, rule_ref))

    allowed = {"frilli": ("cards", "count"), "trumps": ("cards", "count"),
               "gatti": ("cards",), "family": ("cards", "suit"),
               "four_of_a_kind": ("cards", "rank"), "three_of_a_kind": ("cards", "rank")}
    given = [name for name in ("cards", "suit", "rank", "count")
             if getattr(d, name) is not None]
    for name in given:
        if name not in allowed[d.kind]:
            bad("field_not_for_kind", Text("a {kind} declaration takes no {name}", kind=d.kind,
                                           name=name), name, section)
    if len(given) > 1:
        bad("ambiguous_declaration",
            Text('give the shown cards or say what the meld is, not both'), "", section)
    if problems:
        return None, problems

    cards: tuple[Card, ...] = d.cards or ()
    needs: Counter[str] = Counter(card_class(c) for c in cards)
    label = ""
    if d.kind in ("frilli", "trumps"):
        wanted = "pip" if d.kind == "frilli" else "trump"
        what = (Text("pip cards (1-10)") if d.kind == "frilli"
                else Text("trumps (the Fool is not one)"))
        for i, card in enumerate(cards):
            if card_class(card) != wanted:
                bad("card_not_in_meld", Text("{card} is not one of the {what}", card=card,
                                             what=what),
                    f"cards[{i}]", section)
        shown = len(cards) if d.cards is not None else (d.count or 0)
        if d.cards is None and d.count is None:
            bad("missing_field", Text("give the {what} shown, or their count", what=what),
                                 "count", section)
        elif shown < rule.threshold:
            bad("below_threshold",
                Text("{kind} needs at least {threshold} {what} in {id}; {shown} shown",
                     kind=d.kind, threshold=rule.threshold, what=what, id=variant.id, shown=shown),
                "cards" if d.cards is not None else "count", section)
        if d.count is not None:
            needs = Counter({wanted: d.count})
        points, family, mark = shown * rule.points, d.kind, rule.mark or ""
        label = (Text.counted("{n} frilli", "{n} frilli", shown) if d.kind == "frilli"
                 else Text.counted("{n} trump", "{n} trumps", shown))
    elif d.kind == "gatti":
        gatti = tuple(variant.pack.card(code) for code in variant.gatti_cards)
        if d.cards is not None and set(cards) != set(gatti):
            bad("not_a_meld", Text("gatti is exactly {cards}", cards=Cards(gatti)), "cards",
                section)
        cards = gatti
        needs = Counter(card_class(c) for c in cards)
        points, family, mark, label = rule.points, "gatti", rule.mark or "G", Text("gatti")
    elif d.kind == "family":
        suit = d.suit if d.cards is None else _family_suit(cards)
        if suit is None:
            if d.cards is not None:
                bad("not_a_meld", Text("a family is the J, C, Q and K of one suit"),
                                  "cards", section)
            else:
                bad("missing_field", Text('give the four cards or the suit'), "suit", section)
            return None, problems
        cards = tuple(plain(rank, suit) for rank in COURT_RANKS)
        needs = Counter(card_class(c) for c in cards)
        points, family, mark = rule.points, f"family:{suit.value}", suit.symbol
        label = Text("family of {suit}", suit=suit.symbol)
    else:
        size = 4 if d.kind == "four_of_a_kind" else 3
        rank = d.rank if d.cards is None else _of_a_kind_rank(cards)
        if rank is None or (d.cards is not None and len(cards) != size):
            if d.cards is not None:
                bad("not_a_meld",
                    Text("four of a kind is 4 Jacks, Cavaliers, Queens or Kings") if size == 4
                    else Text("three of a kind is 3 Jacks, Cavaliers, Queens or Kings"),
                    "cards", section)
            else:
                bad("missing_field", Text('give the cards or the rank'), "rank", section)
            return None, problems
        if size == 4:
            cards = tuple(plain(rank, s) for s in SUITS)
        needs = Counter({f"rank:{rank}": size})
        points, family, mark = rule.points, f"of_a_kind:{rank}", rank
        label = (Text("four {courts}", courts=COURTS[rank]) if size == 4
                 else Text("three {courts}", courts=COURTS[rank]))
    if problems:
        return None, problems
    return CheckedMeld(d, rule, cards, tuple(sorted(needs.items())), family, points, mark,
                       label), []


def best_declarations(variant: Variant, cards: Iterable[Card]) -> list[CheckedMeld]:
    """Every meld a set of cards can declare, each at its best (all pips, all trumps shown;
    four of a kind rather than three)."""
    held = set(cards)
    found: list[Declaration] = []
    pips = tuple(c for c in held if c.is_pip)
    trumps = tuple(c for c in held if c.is_trump)
    if len(pips) >= _threshold(variant, "frilli"):
        found.append(Declaration(0, "frilli", variant.pack.sort(pips)))
    if len(trumps) >= _threshold(variant, "trumps"):
        found.append(Declaration(0, "trumps", variant.pack.sort(trumps)))
    if {variant.pack.card(c) for c in variant.gatti_cards} <= held:
        found.append(Declaration(0, "gatti"))
    for suit in SUITS:
        if all(plain(rank, suit) in held for rank in COURT_RANKS):
            found.append(Declaration(0, "family", suit=suit))
    for rank in COURT_RANKS:
        same = tuple(c for c in variant.pack.sort(held) if c.is_court and c.rank == rank)
        if len(same) == 4:
            found.append(Declaration(0, "four_of_a_kind", same))
        elif len(same) == 3:
            found.append(Declaration(0, "three_of_a_kind", same))
    checked = []
    for d in found:
        meld, _ = check_declaration(variant, d, "")
        if meld is not None:
            checked.append(meld)
    return checked


def _threshold(variant: Variant, kind: str) -> int:
    rule = variant.meld(kind)
    return rule.threshold if rule is not None else len(variant.pack) + 1


def captured_melds(variant: Variant, pile: Iterable[Card]) -> list[CheckedMeld]:
    """The melds a side's pile scores under the captured-meld option: only the kinds marked
    ``captured`` (R8: not frilli, not trumps), four of a kind scoring 10, not 10 + 5."""
    return [m for m in best_declarations(variant, pile) if m.rule.captured]


def suggest_gatti_melds(variant: Variant, cards: tuple[Card, ...]) -> list[dict[str, object]]:
    """Every Gatti meld the cards can declare, each at its best."""
    return [
        {"kind": m.rule.kind, "cards": [c.code for c in m.cards], "points": m.points,
         "mark": m.mark, "label": m.label,
         "declaration": {"kind": m.rule.kind, "cards": [c.code for c in m.cards]}}
        for m in best_declarations(variant, cards)
    ]
