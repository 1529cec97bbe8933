"""Mitigatti, Nice 1930: ``mitigatti-4`` (a call or a solo) and ``mitigatti-3`` (each for
themselves), settled in marca (rulebook §5; R14–R17)."""

from __future__ import annotations

from dataclasses import replace

from ..core.cards import TAROT_78
from ..gatti.current import PER_TRICK
from ..options import CONFIRMATION_OPTION, LANGUAGE_OPTION, time_zone_option
from ..variant import BagattoRule, MeldRule, OptionSpec, Ranks, Variant
from .scoring import score_mitigatti_hand, suggest_mitigatti_declarations
from .settlement import parse_currency, parse_money

#: Trumps low to high: the Bagatte, the four equal Papote, T6…T19, T21, and the Angel (T20)
#: on top.
MITIGATTI_TRUMP_ORDER = (
    (("T1",), ("T2", "T3", "T4", "T5"))
    + tuple((f"T{n}",) for n in range(6, 20))
    + (("T21",), ("T20",))
)
#: Swords and batons low to high (the ace just below the Jack); cups and coins reverse their
#: pips.
LONG_SUITS_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "1", "J", "C", "Q", "K")
ROUND_SUITS_ORDER = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "C", "Q", "K")
MITIGATTI_RANKS = Ranks(MITIGATTI_TRUMP_ORDER, LONG_SUITS_ORDER, ROUND_SUITS_ORDER)

#: Honours (Fuole, Bagatte, Angel) and Kings 4, Queens 3, Cavaliers 2, Jacks 1: 52 (R14).
MITIGATTI_COUNTING = {"FOOL": 4, "T1": 4, "T20": 4, "rank:K": 4, "rank:Q": 3, "rank:C": 2,
                      "rank:J": 1}

MARCA_OPTION = OptionSpec(
    "marca_value", None, (),
    "money per marca, a positive decimal string with at most seven whole digits and two "
    "decimals, such as \"0.50\"; "
    "balances and transfers are then also given in money",
    parse=parse_money,
)

CURRENCY_OPTION = OptionSpec(
    "currency", "EUR", (),
    "the currency of marca_value, as ISO 4217 writes it (EUR, CHF, GBP…): the sheet and the "
    "page show money in it",
    parse=parse_currency,
)

MITIGATTI_4 = Variant(
    id="mitigatti-4",
    name="Mitigatti (Nice, four players)",
    family="mitigatti",
    packets=(9, 10),  # §5.2: 9, then 10 more (the dealer 2 more besides)
    summary_text=(
        "The tarot game of Nice (1930), settled in marca from 10 each. 19 cards each, the "
        "dealer 21 and discards 2 (no Kings, no honours); a deal may go 'to the mountain'. "
        "Anyone may go solo (calling a card, or sans prendre for double); otherwise the "
        "dealer calls a King not held and its holder is the hidden partner. The declarer's "
        "side wins the partida with 37 of 72 points. Ten tarocchi, mitigatti and quatre rei "
        "are paid 1 by each other player; Bagatte ultimu 2."
    ),
    pack=TAROT_78,
    seats=4,
    partnership="contract",
    extra=2,
    ranks=MITIGATTI_RANKS,
    counting=MITIGATTI_COUNTING,
    melds=(
        MeldRule("ten_tarocchi", 0, threshold=10,
                 description="at least 10 tarots in hand, the Fuole counting as one; exactly "
                             "10 shown before the first card: 1 marca from each other player"),
        MeldRule("mitigatti", 0, threshold=3,
                 description="the three honours (Fuole, T1, T20), declared as the third is "
                             "played: 1 marca from each other player"),
        MeldRule("quatre_rei", 0, threshold=4,
                 description="the four Kings, declared as the fourth is played: 1 marca from "
                             "each other player"),
    ),
    gatti_cards=(),
    discard_forbidden_ranks=("K",),
    discard_forbidden_cards=("FOOL", "T1", "T20"),
    discard_rule="§5.2",
    discard_t1_only_sole_trump=False,
    discard_covering=False,
    bagatto=BagattoRule(win=2, lose_each_opponent=2, lose_own=0, optional=False, rule="§5.5",
                        lead_condition=True),
    options=(MARCA_OPTION, CURRENCY_OPTION, time_zone_option("Europe/Paris"),
             CONFIRMATION_OPTION, LANGUAGE_OPTION),
    deck_count=PER_TRICK,
    scorer=score_mitigatti_hand,
    suggester=suggest_mitigatti_declarations,
    rules_section="§5",
    aliases=("mitigatti", "nice"),
    fool_rule="kept",
    totals_rule="R14",
    totals_section="§5.1",
    contracts=("call", "solo", "surrender"),
    throw_in=True,
    settles_in_marca=True,
    home_language="fr",  # the game of Nice (Cason, 1930)
    extra_facts={
        "partida": "declarer's side with 37 or more of 72 wins: each opponent pays 1 (to the "
                   "solo player, or to each of declarer and partner); 36 or fewer: reversed; "
                   "doubled when a side has fewer than 18; doubled again sans prendre (R17)",
        "declarations": "1 marca from each other player, partner too",
        "bagatte_ultimu": "2 marca from (won) or to (lost) each other player, when valid: "
                          "having led a plain suit the player kept leading it until out of it",
        "surrender": "1 marca to each other player, and each declaration's value to its holder",
        "starting_marca": 10,
    },
)

MITIGATTI_3 = replace(
    MITIGATTI_4,
    id="mitigatti-3",
    name="Mitigatti (Nice, three players)",
    packets=(9, 6, 10),  # §5.6: 9, 6 and 10, the dealer 28
    summary_text=(
        "Mitigatti for three, each for themselves: 25 cards each, the dealer 28 and discards "
        "3; no calls, no solo. A player with 13 to 25 of the 78 points pays 1 marca to the "
        "player with most, one under 13 pays 2; tied top scorers share, an indivisible marca "
        "waiting in the pot for the next sole top scorer (R15). Declarations and Bagatte "
        "ultimu as with four."
    ),
    seats=3,
    partnership="none",
    extra=3,
    contracts=(),
    aliases=(),
    extra_facts={
        "partida": "13 to 25 of 78 points pay 1 marca to the top scorer, under 13 pay 2; ties "
                   "for most share and an indivisible marca goes to the pot, collected by the "
                   "next sole top scorer (R15)",
        "declarations": "1 marca from each other player",
        "bagatte_ultimu": "2 marca from (won) or to (lost) each other player, when valid",
        "starting_marca": 10,
    },
)
