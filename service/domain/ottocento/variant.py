"""Ottocento, the Tarocchino Bolognese: four players in fixed pairs, the 62-card pack, a
rubber to 800 (rulebook §4)."""

from __future__ import annotations

from ..core.cards import BOLOGNESE_62
from ..options import CONFIRMATION_OPTION, LANGUAGE_OPTION, time_zone_option
from ..variant import DeckPoints, MeldRule, Ranks, Variant
from .combos import CRICCA_POINTS, SEQUENCE_NAMES, SIGNIFICANT, card_value, longest_sequence
from .scoring import score_ottocento_hand, suggest_ottocento_declarations

#: Trumps low to high; the four Moors rank equal (of several topping a trick the last
#: played wins).
OTTOCENTO_TRUMP_ORDER = (
    (("BEGATO",), tuple(f"MORO{n}" for n in range(1, 5)))
    + tuple((f"T{n}",) for n in range(5, 17))
    + (("MOON",), ("SUN",), ("WORLD",), ("ANGEL",))
)
#: Swords and batons low to high; cups and coins reverse their pips.
LONG_SUITS_ORDER = ("1", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
ROUND_SUITS_ORDER = ("10", "9", "8", "7", "6", "1", "J", "C", "Q", "K")
OTTOCENTO_RANKS = Ranks(OTTOCENTO_TRUMP_ORDER, LONG_SUITS_ORDER, ROUND_SUITS_ORDER)


#: The cricche by type (§4.3): three or four of the four cards each.
CRICCA_TYPES = tuple((kind, 3, 4) for kind in CRICCA_POINTS)
#: The sequences by type (§4.3, R18): from three cards to every real card of the type and
#: both wild cards; the trumps, each suit, the Moors, the aces.
SEQUENCE_TYPES = tuple((kind, 3, longest_sequence(kind))
                       for kind in sorted(SEQUENCE_NAMES, key=("trumps", "H", "D", "C", "S",
                                                               "moors", "aces").index))


def deck_points_in_pairs(variant: Variant, tricks: int, cards: int, values: int) -> int:
    """§4.1: the cards' values, one point off per pair (the last trick's 6 apart)."""
    return values - cards // 2


OTTOCENTO = Variant(
    id="ottocento",
    name="Ottocento (Tarocchino Bolognese)",
    family="ottocento",
    packets=(5, 5, 5),  # §4.2: 15 each in packets of 5, the dealer 17
    summary_text=(
        "Bologna's Tarocchino: four players in fixed pairs with the 62-card pack, playing a "
        "rubber to 800. 15 cards each; the dealer takes 17 and discards 2 (no tarocchi, no "
        "Kings). During the first trick each player may declare cricche (three or four "
        "tarocchi, Kings, Queens, Knights or Jacks) and sequences, where the Matto and the "
        "Bégato are wild; three or more of a type double. At the end each pair scores its "
        "cards counted in pairs, 6 for the last trick (93 in all) and the cricche and "
        "sequences in its captures."
    ),
    pack=BOLOGNESE_62,
    seats=4,
    partnership="fixed_pairs",
    extra=2,
    ranks=OTTOCENTO_RANKS,
    counting={card.code: card_value(card) for card in BOLOGNESE_62.cards},
    melds=(
        MeldRule("cricca", 0, threshold=3, captured=True, types=CRICCA_TYPES,
                 description="three or four tarocchi (Angel, World, Bégato, Matto), Kings, "
                             "Queens, Knights or Jacks: 36/18, 34/17, 28/14, 26/13, 24/12"),
        MeldRule("sequence", 0, threshold=3, captured=True, types=SEQUENCE_TYPES,
                 description="trumps from the Angel, a suit from its King, the Moors or the "
                             "aces; the Matto and the Bégato are wild: 3 cards 10, each "
                             "further card 5"),
    ),
    gatti_cards=(),
    discard_forbidden_ranks=("K",),
    discard_forbidden_cards=("ANGEL", "WORLD", "BEGATO", "MATTO"),
    discard_rule="§4.2",
    discard_t1_only_sole_trump=False,
    discard_covering=True,
    bagatto=None,
    options=(time_zone_option("Europe/Rome"), CONFIRMATION_OPTION, LANGUAGE_OPTION),
    deck_count=DeckPoints(deck_points_in_pairs,
                          "the cards' values counted in pairs (one point off per pair)",
                          "in_pairs"),
    scorer=score_ottocento_hand,
    suggester=suggest_ottocento_declarations,
    rules_section="§4",
    aliases=("tarocchino", "tarocchino-bolognese"),
    fool_rule="exchange_any_capture",
    summary_codes=tuple(c.code for c in BOLOGNESE_62.cards if c in SIGNIFICANT),
    target=800,
    totals_rule="§4.1",
    totals_section="§4.1",
    last_trick_points=6,
    signals=("busso", "volo", "striscio"),
    extra_facts={
        "card_values": {"tarocchi": 5, "K": 5, "Q": 4, "C": 3, "J": 2, "others": 1,
                        "counted": "in pairs, one point off per pair", "last_trick": 6},
        "cricche": {"tarocchi": [36, 18], "K": [34, 17], "Q": [28, 14], "C": [26, 13],
                    "J": [24, 12]},
        "sequences": {"3 cards": 10, "each further card": 5, "wild": ["MATTO", "BEGATO"]},
        "doubling": "three or more different cricche (or sequences) of one player, or in one "
                    "pair's captures, double their total",
        "rubber": "first pair to 800; both on one hand: the higher; declarations that reach "
                  "800 during the first trick win at once (R12, R13)",
    },
)
