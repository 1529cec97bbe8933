"""Gatti's chapters of the rulebook in the app (RULES §2, §3): the current rules, and the older
rules' own section before the chapters they share (``GET /variants/{id}/rules``)."""

from __future__ import annotations

from ..core.text import Section, Text

_SHARED = (
    Section("§2", Text("Gatti"), Text(
        "Liguria's game with the 78-card tarot pack: three players each for themselves, four in "
        "fixed pairs, two players each with a dummy, or four with a partner called by the "
        "dealer. A hand scores the deck points each side takes, the melds declared from the "
        "hand and the Bagatto in the last trick; a game lasts a fixed number of hands.")),
    Section("§2.1", Text("Pack, ranks and counting cards"), Text(
        "Plain suits rank from 1 up to 10, then Jack, Cavalier, Queen, King. Trumps rank by "
        "number, except that T20 (Judgment) beats T21 (World). Counting cards: T1, T21, the "
        "Fool and each King 4 points, each Queen 3, Cavalier 2, Jack 1: 52 in all.")),
    Section("§2.2", Text("Table forms and the deal"), Text(
        "gatti-3: three players, 3 hands, 25 cards each; the dealer takes 3 more and discards "
        "3 (78 deck points a hand). gatti-4: pairs 0 and 2 against 1 and 3, 4 hands, 19 cards "
        "each, the dealer taking and discarding 2 (72 a hand). gatti-2: two players, each with "
        "a dummy opposite. gatti-4-call: the dealer calls a King (a Queen when holding all "
        "four); its holder is the partner for the hand, and a dealer who calls a card of their "
        "own plays alone against three. The top card of the last packet may be shown to all; "
        "recording it is optional.")),
    Section("§2.3", Text("The discard"), Text(
        "The dealer discards as many cards as were taken extra. Kings may not be discarded, "
        "and T1 only as the dealer's only trump. The discard is the dealer's side's first "
        "trick, worth one trick point and its counting cards, and it must be covered: if the "
        "dealer's side takes no trick, it goes to the winner of the last trick with three "
        "players, to the opponents with four.")),
    Section("§2.4", Text("Melds"), Text(
        "Before playing a first card each player declares by showing the cards. Frilli (at "
        "least 20 pip cards with three players, 15 with four) and trumps (at least 10, or 8 "
        "with four; the Fool is not a trump) score 1 a card shown. Gatti (the Fool, T1 and "
        "T21), a family (Jack, Cavalier, Queen and King of one suit) and four of a kind score "
        "10; three of a kind 5. Melds may share cards. A game may score no melds, or the melds "
        "each side captures instead of (or as well as) those declared.")),
    Section("§2.5", Text("Play, the Fool and the Bagatto"), Text(
        "The Fool goes back into its player's pile, and its player owes the trick's winner a "
        "card, handed over from a later trick they win (covering the Fool); if they win none, "
        "the Fool itself goes. With partners nothing is owed when the partner won the trick. "
        "Bagatto ultimo (on unless the game turns it off): T1 played to the last trick scores "
        "20 to its side when it wins; when it loses, 10 to each opponent with three players, "
        "20 to the other side with four.")),
    Section("§2.6", Text("Scoring a hand"), Text(
        "A side's deck points are its tricks, the discard counting as one for the side that "
        "holds it, plus its counting cards: 78 a hand with three players, 72 with four. A "
        "hand scores deck points, melds and the Bagatto. Every pile holds whole tricks. The "
        "deck points may be entered as the table counted them, one number a side, the last "
        "side being the rest.")),
    Section("§2.7", Text("The score sheet"), Text(
        "One column a player (a pair when partners share a score). Each hand lists its melds "
        "with their marks (F frilli, T trumps, G gatti, a suit for a family, a rank letter for "
        "three or four of a kind, B the Bagatto), then the deck points; the totals are at the "
        "foot.")),
    Section("R1", Text("One meld family, scored once"), Text(
        "A player scores each kind of meld once a hand: three and then four Kings make 10 in "
        "all, 10 and then 11 trumps make 11. Different melds always add up.")),
    Section("R2", Text("Shown cards"), Text(
        "A declaration's cards must form its meld, may not include the discard, and no card "
        "may be shown by two players. For frilli and trumps a player may show fewer cards "
        "than they hold, as long as the threshold is reached, and scores what is shown.")),
    Section("R5", Text("The hand's total"), Text(
        "Deck points always add up to the hand's total, 78 with three players and 72 with "
        "four; a record that does not is refused.")),
    Section("R7", Text("Partners' melds"), Text(
        "Partners never put their cards together into one meld. In gatti-2 each of the four "
        "hands declares on its own, a dummy's melds counting for its player.")),
    Section("R8", Text("Captured melds"), Text(
        "Frilli and trumps never score as captured melds; in a pile four of a kind scores 10, "
        "not 10 + 5.")),
    Section("R9", Text("The deal with dummies"), Text(
        "In gatti-2 the deal passes through all four seats: a player deals for their dummy.")),
    Section("R10", Text("The end of a Gatti game"), Text(
        "A Gatti game ends after its hands; the highest total wins, and equal totals share "
        "the win.")),
)

#: The current rules: the shared chapters, then R6 (columns with a called partner).
CURRENT_BOOK = (*_SHARED,
    Section("R6", Text("Columns with a called partner"), Text(
        "With a called partner each player has a column and is credited the score of the side "
        "they played on in that hand; a dealer alone is credited their own side's.")),)

#: The older rules: what differs (§3) first, then the chapters they share.
CLASSIC_BOOK = (
    Section("§3", Text("Gatti, older rules"), Text(
        "The base game is four players in fixed pairs, with three- and two-handed forms. "
        "Compared with the current rules: T21 is the highest trump; the counting cards are T1, "
        "T20, the Fool and the Kings (4), Queens 3, Cavaliers 2, Jacks 1, and gatti is the "
        "Fool, T1 and T20; trick points are one for every three cards in a pile (a remainder "
        "of 2 rounds up, of 1 down), so a hand always totals 78; trumps needs 10 cards in every "
        "form; the Bagatto in the last trick always counts, +20 to its side when it wins and "
        "−20 to its own side when it loses; the discard always belongs to the dealer's side.")),
    *_SHARED)
