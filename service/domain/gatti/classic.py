"""Gatti, older rules: ``gatti-classic-4`` (the base game, in pairs), ``gatti-classic-3`` and
``gatti-classic-2`` (rulebook §3).

The same game as current Gatti (§2) with five differences, each a field of the table: trumps
strictly by number (T21 highest); the Judgment (T20), not the World, counts and makes gatti;
trick points per three cards; taròcchi from 10 trumps in every form; Bagatto urtimo always
played and costing its own side 20 when it fails; and a discard that always stays with the
dealer's side.
"""

from __future__ import annotations

from dataclasses import replace

from ..options import CONFIRMATION_OPTION, LANGUAGE_OPTION
from ..variant import BagattoRule, DeckPoints, Variant
from .current import GATTI_2, GATTI_3, GATTI_4, MELDS_OPTION, ROME, gatti_melds

#: Counting cards of the older rules (§3): the Judgment in place of the World; total 52.
CLASSIC_COUNTING = {"T1": 4, "T20": 4, "FOOL": 4, "rank:K": 4, "rank:Q": 3, "rank:C": 2,
                    "rank:J": 1}

CLASSIC_TRUMP_ORDER = tuple((f"T{n}",) for n in range(1, 22))


def deck_points_per_three_cards(variant: Variant, tricks: int, cards: int, counting: int) -> int:
    """§3: one point per three cards in the pile, the discard included; a remainder of two
    rounds up, of one down. With the counting cards a hand totals 78 in every form."""
    return (cards + 1) // 3 + counting


def older_rules(current: Variant, summary_text: str, aliases: tuple[str, ...] = ()) -> Variant:
    """A table form of current Gatti with the older rules applied (the five differences). Its
    id and name say so (``gatti-3`` becomes ``gatti-classic-3``, and "Gatti (three players)"
    becomes "Gatti, older rules (three players)"); frilli need what the current form asks,
    trumps 10 in every form."""
    frilli = current.meld("frilli")
    assert frilli is not None
    return replace(
        current,
        id=current.id.replace("gatti-", "gatti-classic-", 1),
        name=current.name.replace("Gatti", "Gatti, older rules", 1),
        family="gatti-classic",
        summary_text=summary_text,
        ranks=replace(current.ranks, trumps=CLASSIC_TRUMP_ORDER),
        counting=CLASSIC_COUNTING,
        melds=gatti_melds(frilli.threshold, 10, "the Fool, T1 and T20"),
        gatti_cards=("FOOL", "T1", "T20"),
        discard_covering=False,
        bagatto=BagattoRule(win=20, lose_each_opponent=0, lose_own=-20, optional=False,
                            rule="§3"),
        options=(MELDS_OPTION, ROME, CONFIRMATION_OPTION, LANGUAGE_OPTION),
        deck_count=DeckPoints(deck_points_per_three_cards,
                              "one point per three cards (a remainder of 2 rounds up, of 1 "
                              "down) plus the counting cards", "per_three_cards"),
        rules_section="§3",
        totals_section="§3",
        aliases=aliases,
    )


GATTI_CLASSIC_4 = older_rules(
    GATTI_4,
    "The older Ligurian rules, four players in fixed pairs (seats 0+2 against 1+3), four "
    "hands. Trumps rank by number, the World highest; the Judgment (T20) is the counting "
    "card and makes gatti with the Fool and the Bagatto. Trick points are one per three "
    "cards captured, 78 a hand with the counting cards. Taròcchi from 10 trumps, frilli "
    "from 15. Bagatto urtimo is always played: 20 to its side when it wins the last "
    "trick, 20 off its own side when anyone else does.",
    aliases=("gatti-classic", "gatti-older"),
)

GATTI_CLASSIC_3 = older_rules(
    GATTI_3,
    "The older rules for three, each for themselves, three hands: 25 cards each, the "
    "dealer discards 3. As the four-handed game otherwise, but frilli need 20 pips.",
)

GATTI_CLASSIC_2 = older_rules(
    GATTI_2,
    "The older rules for two: each player controls a dummy partner opposite, turned face "
    "up after the discard; otherwise as the four-handed game.",
)

CLASSIC_GATTI = (GATTI_CLASSIC_4, GATTI_CLASSIC_3, GATTI_CLASSIC_2)
