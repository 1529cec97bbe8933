"""The rulebook in the app (issue 18): each variant's rules in sections, in the project's own
words, from RULES.md (``GET /variants/{id}/rules``). Every ``rule`` a problem or a result line
can name (``§2.3``, ``R8``) is the ``ref`` of a section of its variant's book, so a player can
open the clause a line cites. The text is English ``Text``, said in another language from the
catalogues like everything the core says.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core.text import Text
from .variant import Variant


@dataclass(frozen=True, slots=True)
class Section:
    ref: str
    title: Text
    text: Text

    def to_json(self) -> dict[str, object]:
        return {"ref": self.ref, "title": self.title, "text": self.text}


_SECTIONS = (
    Section("§0", Text("Seats, sides and the follow rules"), Text(
        "Seats are numbered from 0 in the order of play, and the deal passes to the next seat "
        "after each hand. A side is whoever shares a pile and a score in a hand: one player, a "
        "fixed pair (seats 0 and 2 against 1 and 3), or a pair formed for the hand by a call "
        "or a contract. The seat after the dealer leads first. The Fool may always be played "
        "and never wins a trick; when it is led, the next card sets the suit. Follow suit when "
        "you can; void in a plain suit led, play a trump if you can; when trumps are led, play "
        "a trump if you can. Nobody must overtrump. Of equal trumps topping a trick (Moors, "
        "Papote) the last one played wins.")),
    Section("§1", Text("How cards are written"), Text(
        "A card is its rank then its suit: KH is the King of hearts (cups), CC the Cavalier of "
        "clubs (batons), 10S, 1D. Suits are H, D, C, S or ♥ ♦ ♣ ♠, and their Italian and "
        "English names are understood. Trumps are T1 to T21, also by name (BAGATTO for T1, "
        "ANGEL for T20, WORLD for T21), and the Fool is FOOL (or MATTO, FUOLE, ★). "
        "Ottocento's Bolognese pack has ANGEL, WORLD, SUN, MOON, T5 to T16, the Moors MORO1 to "
        "MORO4, BEGATO and MATTO, and no 2 to 5 in the suits. A code the game's pack lacks is "
        "refused by name.")),
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
    Section("§3", Text("Gatti, older rules"), Text(
        "The base game is four players in fixed pairs, with three- and two-handed forms. "
        "Compared with the current rules: T21 is the highest trump; the counting cards are T1, "
        "T20, the Fool and the Kings (4), Queens 3, Cavaliers 2, Jacks 1, and gatti is the "
        "Fool, T1 and T20; trick points are one for every three cards in a pile (a remainder "
        "of 2 rounds up, of 1 down), so a hand always totals 78; trumps needs 10 cards in every "
        "form; the Bagatto in the last trick always counts, +20 to its side when it wins and "
        "−20 to its own side when it loses; the discard always belongs to the dealer's side.")),
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
    Section("§6", Text("What the service checks"), Text(
        "Every card must belong to the pack and appear once, and a complete record holds the "
        "whole pack. Discards follow the game's rule, and no declaration uses a discarded "
        "card. A declaration forms what it claims and reaches its threshold, and no card is "
        "shown by two players. Piles hold whole tricks and the hand's total, and the cards "
        "kept by a side end in its pile. A hand recorded trick by trick is refereed: each "
        "trick's winner, every play that broke the follow rules (proven by a card played "
        "later), the Fool's exchange, the covering of the discard and the last trick's "
        "Bagatto are worked out, not typed in.")),
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
    Section("R6", Text("Columns with a called partner"), Text(
        "With a called partner each player has a column and is credited the score of the side "
        "they played on in that hand; a dealer alone is credited their own side's.")),
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
    Section("R11", Text("Where the trump sequence stops"), Text(
        "The trump sequence runs no lower than T5; the Moors and the Bégato are no part of "
        "it.")),
    Section("R12", Text("Winning the rubber"), Text(
        "The rubber is won at a total of 800 or more.")),
    Section("R13", Text("Winning with declarations"), Text(
        "Declarations are taken in order of play from the leader, each player's as one act "
        "with its doubling; the first pair to reach 800 this way wins at once.")),
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
    Section("R18", Text("A sequence's length"), Text(
        "A sequence is as long as the real cards its run reaches plus every wild card held, "
        "each used where it reaches furthest; shown cards the run does not reach add "
        "nothing.")),
)
SECTIONS = {section.ref: section for section in _SECTIONS}

_GATTI = ("§2", "§2.1", "§2.2", "§2.3", "§2.4", "§2.5", "§2.6", "§2.7",
          "R1", "R2", "R5", "R7", "R8", "R9", "R10")
_BOOKS = {
    "gatti": ("§0", "§1", *_GATTI, "R6", "§6"),
    "gatti-classic": ("§0", "§1", "§3", *_GATTI, "§6"),
    "ottocento": ("§0", "§1", "§4", "§4.1", "§4.2", "§4.3", "§4.4",
                  "R11", "R12", "R13", "R18", "§6"),
    "mitigatti": ("§0", "§1", "§5", "§5.1", "§5.2", "§5.3", "§5.4", "§5.5", "§5.6",
                  "R14", "R15", "R16", "R17", "§6"),
}


def rulebook(variant: Variant) -> tuple[Section, ...]:
    """The sections of the variant's rules, in reading order."""
    return tuple(SECTIONS[ref] for ref in _BOOKS[variant.family])
