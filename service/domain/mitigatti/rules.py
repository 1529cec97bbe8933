"""Mitigatti's chapters of the rulebook in the app (RULES §5; R14–R17)."""

from __future__ import annotations

from ..core.text import Section, Text

BOOK = (
    Section("§5", Text("Mitigatti"), Text(
        "Nice's game of 1930 for three or four players, settled in marca: everyone starts at "
        "10, and an agreed value turns the balances into money.")),
    Section("§5.1", Text("Pack, ranks and points"), Text(
        "Trumps from the top: T20 (the Angel), T21, T19 down to T6, the Papote T5 to T2 "
        "(equal: the last played of several wins), T1 (the Bagatte). Long suits rank K Q C J "
        "1 10 down to 2, round suits K Q C J 1 2 up to 10. Counting cards: the Fuole, T1, T20 "
        "and each King 4, Queen 3, Cavalier 2, Jack 1, and a point for each trick and for the "
        "discard: 72 a hand with four players, 78 with three. The Fuole is never captured: it "
        "stays with its player's side.")),
    Section("§5.2", Text("The deal"), Text(
        "With four: 9 cards each, then 10 more and 2 to the dealer, who discards 2 (no Kings, "
        "no honours). After each round the deal goes to the mountain if all agree, and the "
        "same dealer deals again. With three: 25 cards each, the dealer 28, discarding 3.")),
    Section("§5.3", Text("The contract"), Text(
        "With four, anyone may go solo against the other three, calling a card from its "
        "holder or playing sans prendre. Otherwise the dealer calls a King they do not hold "
        "(with all four, the Angel) and its holder is the hidden partner. A declarer who calls "
        "a card of their own plays solo sans prendre or surrenders, paying 1 marca to each "
        "other player and the value of their declarations.")),
    Section("§5.4", Text("Declarations"), Text(
        "Ten tarocchi (shown before the first card), mitigatti (the three honours: the Fuole, "
        "T1, T20) and quatre rei (the four Kings) are each paid 1 marca by every other "
        "player.")),
    Section("§5.5", Text("Bagatte ultimu"), Text(
        "T1 played to the last trick, when the attempt is valid (its player, having led a "
        "plain suit, kept leading it until void): winning the trick, 2 marca from each other "
        "player; losing it (petar bagatte), 2 to each. Doubled in a solo sans prendre.")),
    Section("§5.6", Text("Settlement"), Text(
        "With four, the declarer's side wins the partida with 37 of the 72 points: each "
        "opponent pays 1 marca, to the solo player or to declarer and partner; with 36 or "
        "fewer the payments go the other way; they double when a side has fewer than 18. "
        "With three, a player with 13 to 25 points pays 1 marca to the top scorer, and one "
        "with fewer than 13 pays 2.")),
    Section("R14", Text("Mitigatti's total"), Text(
        "A hand totals 72 with four players and 78 with three: 52 in counting cards, plus the "
        "tricks and the discard.")),
    Section("R15", Text("Top scorers level"), Text(
        "When several players tie for most points they share what is paid; a marca that "
        "cannot be shared goes to the pot, for the next player who alone scores most.")),
    Section("R16", Text("Four Kings and the Angel"), Text(
        "A dealer who holds the four Kings and the Angel cannot call: they play solo.")),
    Section("R17", Text("Sans prendre doubles again"), Text(
        "A solo sans prendre doubles the partida once more: four times when a side also has "
        "fewer than 18.")),
)
