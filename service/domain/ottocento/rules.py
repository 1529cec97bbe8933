"""Ottocento's chapters of the rulebook in the app (RULES §4; R11–R13, R18)."""

from __future__ import annotations

from ..core.text import Section, Text

BOOK = (
    Section("§4", Text("Ottocento"), Text(
        "Bologna's Tarocchino: four players in fixed pairs with the 62-card pack, playing a "
        "rubber to 800. During the first trick each player may declare cricche and sequences; "
        "at the end each pair scores its cards counted in pairs, the last trick and the "
        "combinations in its captures.")),
    Section("§4.1", Text("Pack, ranks and card points"), Text(
        "Trumps from the top: Angel, World, Sun, Moon, T16 down to T5, the four Moors (equal: "
        "of several topping a trick the last played wins), the Bégato; the Matto has no rank. "
        "Swords and batons rank K Q C J 10 9 8 7 6 1, cups and coins K Q C J 1 6 7 8 9 10. "
        "Values: the tarocchi (Angel, World, Bégato, Matto) and Kings 5, Queens 4, Knights 3, "
        "Jacks 2, every other card 1; cards count in pairs, one point off a pair, and the last "
        "trick is worth 6: 93 a hand. A pair's points may be entered as counted at the table, "
        "without the last trick's 6.")),
    Section("§4.2", Text("Deal, discard and play"), Text(
        "15 cards each in packets of 5, the dealer 17, who discards 2: no tarocchi and no "
        "Kings. The discard counts for the dealer's pair unless it takes no trick; then it "
        "goes to the opponents. The Matto stays with its pair, which gives a worthless card "
        "for it when the other pair won its trick; a pair with no trick loses the Matto. The "
        "Angel is never captured. With a lead a player may signal busso, volo or striscio, and "
        "nothing else.")),
    Section("§4.3", Text("Cricche and sequences"), Text(
        "Cricche: the four tarocchi 36 (three of them 18), Kings 34 (17), Queens 28 (14), "
        "Knights 26 (13), Jacks 24 (12). Sequences score 10 for 3 cards and 5 for each further "
        "card: trumps from the Angel with two of World, Sun and Moon, then down from T16; a "
        "suit from its King with two of Queen, Knight and Jack, then its ace; three Moors; "
        "three aces. The Matto and the Bégato are wild. Three or more cricche (or sequences) "
        "of one player, or in one pair's captures, double their total. They are declared "
        "during the first trick and scored again from each pair's captures.")),
    Section("§4.4", Text("Scoring and the rubber"), Text(
        "Declarations score as they are made; at the end of the hand each pair scores its "
        "card points, the last trick and the combinations in its pile. The first pair to 800 "
        "wins; if both get there in one hand, the higher total; a pair that reaches 800 with "
        "its declarations wins at once.")),
    Section("R11", Text("Where the trump sequence stops"), Text(
        "The trump sequence runs no lower than T5; the Moors and the Bégato are no part of "
        "it.")),
    Section("R12", Text("Winning the rubber"), Text(
        "The rubber is won at a total of 800 or more.")),
    Section("R13", Text("Winning with declarations"), Text(
        "Declarations are taken in order of play from the leader, each player's as one act "
        "with its doubling; the first pair to reach 800 this way wins at once.")),
    Section("R18", Text("A sequence's length"), Text(
        "A sequence is as long as the real cards its run reaches plus every wild card held, "
        "each used where it reaches furthest; shown cards the run does not reach add "
        "nothing.")),
)
