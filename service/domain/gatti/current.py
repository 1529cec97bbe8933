"""Gatti, current rules: ``gatti-3``, ``gatti-4``, ``gatti-2``, ``gatti-4-call`` (rulebook §2).

Four table forms of one game; they differ only in seats, partnership, deal sizes and the meld
thresholds of the 4-handed forms, so each is this module's base table with a few fields
replaced.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.cards import COURT_RANKS, PIP_RANKS, TAROT_78
from ..options import CONFIRMATION_OPTION, LANGUAGE_OPTION, time_zone_option
from ..variant import BagattoRule, DeckPoints, MeldRule, OptionSpec, Ranks, Variant
from .melds import suggest_gatti_melds
from .scoring import score_gatti_hand

#: Counting cards of current Gatti (§2.1): total 52.
GATTI_COUNTING = {"T1": 4, "T21": 4, "FOOL": 4, "rank:K": 4, "rank:Q": 3, "rank:C": 2,
                  "rank:J": 1}

#: Trumps low to high: T20 (Judgment) beats T21 (World) in current Gatti (§2.1).
GATTI_TRUMP_ORDER = tuple((f"T{n}",) for n in range(1, 20)) + (("T21",), ("T20",))

PLAIN_LOW_TO_HIGH = PIP_RANKS + COURT_RANKS
GATTI_RANKS = Ranks(GATTI_TRUMP_ORDER, PLAIN_LOW_TO_HIGH)


def gatti_melds(frilli: int, trumps: int, gatti_cards: str) -> tuple[MeldRule, ...]:
    """The meld table of §2.4 with the thresholds of one table form."""
    return (
        MeldRule("frilli", 1, per_card=True, threshold=frilli, mark="F",
                 description=f"at least {frilli} pip cards (1-10): 1 point per pip shown"),
        MeldRule("trumps", 1, per_card=True, threshold=trumps, mark="T",
                 description=f"at least {trumps} trumps (the Fool is not one): "
                             "1 point per trump shown"),
        MeldRule("gatti", 10, threshold=3, captured=True, mark="G",
                 description=f"{gatti_cards}: 10 points"),
        MeldRule("family", 10, threshold=4, captured=True,
                 description="J, C, Q and K of one suit: 10 points (marked with the suit)"),
        MeldRule("four_of_a_kind", 10, threshold=4, captured=True,
                 description="four Jacks, Cavaliers, Queens or Kings: 10 points"),
        MeldRule("three_of_a_kind", 5, threshold=3, captured=True,
                 description="three Jacks, Cavaliers, Queens or Kings: 5 points"),
    )


def deck_points_per_trick(variant: Variant, tricks: int, cards: int, counting: int) -> int:
    """§2.6: one point per trick (the discard counting as one) plus the counting cards."""
    return tricks + counting


#: §2.6, and Mitigatti's count too (R14).
PER_TRICK = DeckPoints(deck_points_per_trick,
                       "one point per trick (the discard is one) plus the counting cards",
                       "per_trick")


#: Gatti is played in Liguria: the sheet's times are Italy's unless the game says otherwise.
ROME = time_zone_option("Europe/Rome")

MELDS_OPTION = OptionSpec(
    "melds", "hand", ("hand", "none", "captured", "both"),
    "hand: melds declared from the hand; none: no melds; captured: melds formed by each "
    "side's captured cards instead; both: hand and captured melds",
)
BAGATTO_OPTION = OptionSpec(
    "bagatto_ultimo", True, (True, False),
    "score Bagatto ultimo: T1 played to the last trick",
)

GATTI_3 = Variant(
    id="gatti-3",
    name="Gatti (three players)",
    family="gatti",
    summary_text=(
        "The Ligurian base game: three players, each for themselves, three hands. 25 cards "
        "each; the dealer takes the last 3 and discards 3 (no Kings; the Bagatto only as the "
        "sole trump). Melds are declared from the hand before the first card; tricks follow "
        "suit, then trump; the Judgment (T20) beats the World. Deck points: one per trick "
        "plus the counting cards, 78 per hand. Bagatto ultimo optional."
    ),
    pack=TAROT_78,
    seats=3,
    partnership="none",
    hands_per_game=3,
    extra=3,
    ranks=GATTI_RANKS,
    counting=GATTI_COUNTING,
    melds=gatti_melds(20, 10, "the Fool, T1 and T21"),
    gatti_cards=("FOOL", "T1", "T21"),
    discard_forbidden_ranks=("K",),
    discard_t1_only_sole_trump=True,
    discard_covering=True,
    bagatto=BagattoRule(win=20, lose_each_opponent=10, lose_own=0, optional=True, rule="§2.5"),
    options=(MELDS_OPTION, BAGATTO_OPTION, ROME, CONFIRMATION_OPTION, LANGUAGE_OPTION),
    deck_count=PER_TRICK,
    scorer=score_gatti_hand,
    suggester=suggest_gatti_melds,
    rules_section="§2",
    aliases=("gatti", "gatti-3-handed"),
    exposed_cards=3,
    packets=(5, 5, 5, 5, 5),  # §2.2: 25 in five packets of 5
)

GATTI_4 = replace(
    GATTI_3,
    id="gatti-4",
    name="Gatti (four players in pairs)",
    summary_text=(
        "Four players in fixed pairs (seats 0+2 against 1+3), four hands. 19 cards each; the "
        "dealer takes 2 and discards 2. A pair keeps one pile and one score, but partners "
        "never combine cards into a meld. Frilli from 15 pips, trumps from 8. Deck points "
        "total 72. Bagatto ultimo: 20 to the side that wins it, 20 to the opponents when it "
        "fails."
    ),
    seats=4,
    partnership="fixed_pairs",
    hands_per_game=4,
    extra=2,
    melds=gatti_melds(15, 8, "the Fool, T1 and T21"),
    bagatto=BagattoRule(win=20, lose_each_opponent=20, lose_own=0, optional=True, rule="§2.5"),
    aliases=("gatti-pairs",),
    exposed_cards=4,
    packets=(5, 5, 5, 4),  # §2.2: 19 in 5, 5, 5 and 4
)

GATTI_2 = replace(
    GATTI_4,
    id="gatti-2",
    name="Gatti (two players with dummies)",
    summary_text=(
        "Two players, each with a dummy partner sitting opposite whose hand is turned face "
        "up after the discard: seat 0 plays with the dummy at seat 2, seat 1 with seat 3. "
        "Otherwise as the four-handed game; each of the four hands declares its own melds, "
        "and the deal rotates through all four seats (R9)."
    ),
    partnership="dummies",
    aliases=("gatti-dummies",),
)

GATTI_4_CALL = replace(
    GATTI_4,
    id="gatti-4-call",
    name="Gatti (four players, partner by call)",
    summary_text=(
        "Four players; after the discard the dealer calls a King (a Queen when holding all "
        "four Kings) and its hidden holder is the dealer's partner for the hand; calling a "
        "card of one's own means playing alone against three. One score column per player: "
        "each is credited the score of the side they played on (R6)."
    ),
    partnership="call",
    aliases=("gatti-call",),
)

CURRENT_GATTI = (GATTI_3, GATTI_4, GATTI_2, GATTI_4_CALL)
