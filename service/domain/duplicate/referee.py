"""The referee knows the cards (docs/events.md#duplicate, #the-referee-knows-the-cards).

At a duplicate table every hand is a board the service dealt, so every part of a record that
the deal fixes can be checked against it: the dealer; the dealer's discard, from the dealer's
cards and extra cards; the exposed cards, the board's; a declaration (a Gatti meld, an
Ottocento cricca or sequence, a Mitigatti accusation), made of cards its declarer held; a
called card's holder, the partner named; the Fool's and the Bagatto's player, their holders;
a trick record, each seat playing its own cards. Each disagreement is a ``Problem`` at the
record's field that says it, naming the board, the seat the record gives the card to and the
card, so the HTTP layer answers ``422`` with every one of them at once.

A refusal never says where a card is: not the seat that holds it, not how many cards of a
class a seat was dealt, not which cards the board exposed. A table could otherwise post a
record of the board it is about to play (a shuffled pack as its tricks) and read the whole
deal off the answer; what it learns now is only that the seat it named was not dealt the card.

What the deal cannot fix (the piles, their points, the Fool's exchange, the last trick) is
the scorer's to check, as for any hand: the referee adds to the scorer, never replaces it.
A declaration said by its kind alone (a family of ♦, four Kings, 12 trumps, mitigatti) is
checked for what its kind makes its declarer hold: the cards it fixes, or how many of a
class (three Kings of four, a count of trumps).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..core.cards import COURT_RANKS, SUITS, Card, plain
from ..core.errors import Problem
from ..core.text import Text
from ..gatti.melds import COURTS
from ..hand.records import Declaration, HandRecord
from ..hand.sides import seat_name
from ..hand.tricks import trick_winner
from ..mitigatti.scoring import HONOURS
from ..ottocento.combos import CRICCA_NAMES, SEQUENCE_NAMES, cricca_cards, sequence_cards
from ..variant import Variant
from .boards import Board


@dataclass(frozen=True)
class _Count:
    """A declaration that needs ``at_least`` cards of a class, not given one by one."""

    what: Text
    at_least: int
    of_class: Callable[[Card], bool]


def _is_tarot(card: Card) -> bool:
    return card.is_trump or card.is_fool


def _needs(variant: Variant, d: Declaration) -> tuple[tuple[Card, ...], _Count | None]:
    """What declaration ``d`` makes its declarer hold: the cards it shows or its kind fixes,
    and a count of a class where the kind fixes no cards."""
    if d.cards is not None:
        return d.cards, None
    if d.type is not None and d.count is not None:  # Ottocento's, said by its type
        if d.kind == "cricca" and d.type in CRICCA_NAMES:
            group = cricca_cards(d.type)
            if d.count == 4:
                return variant.pack.sort(group), None
            return (), _Count(CRICCA_NAMES[d.type], d.count, group.__contains__)
        if d.type in SEQUENCE_NAMES:  # the wild cards stand for two at most (R18)
            real = sequence_cards(d.type)
            return (), _Count(Text("cards of its sequence"), max(2, d.count - 2),
                              real.__contains__)
        return (), None
    if d.suit is not None:  # a Gatti family: the four courts of the suit
        return tuple(plain(rank, d.suit) for rank in COURT_RANKS), None
    if d.rank is not None and d.rank in COURTS:
        if d.kind == "four_of_a_kind":
            return tuple(plain(d.rank, suit) for suit in SUITS), None
        rank = d.rank
        return (), _Count(COURTS[rank], 3, lambda c: c.is_court and c.rank == rank)
    if d.count is not None and d.kind in ("frilli", "trumps"):
        if d.kind == "frilli":
            return (), _Count(Text("pip cards (1-10)"), d.count, lambda c: c.is_pip)
        return (), _Count(Text("trumps (the Fool is not one)"), d.count, lambda c: c.is_trump)
    codes = {"gatti": variant.gatti_cards, "mitigatti": HONOURS}.get(d.kind)
    if codes is not None:
        return tuple(variant.pack.card(code) for code in codes), None
    if d.kind == "quatre_rei":
        return tuple(plain("K", suit) for suit in SUITS), None
    if d.kind == "ten_tarocchi":
        return (), _Count(Text("tarots (the Fuole counts as one)"), 10, _is_tarot)
    return (), None


class _Referee:
    """The record's disagreements with one board, gathered section by section."""

    def __init__(self, variant: Variant, board: Board) -> None:
        self.variant = variant
        self.board = board
        self.found: list[Problem] = []
        #: What each seat held before the discard: its cards, and the dealer's extra ones.
        self.holdings = tuple(
            frozenset((*hand, *(board.extra if seat == board.dealer else ())))
            for seat, hand in enumerate(board.hands))

    def held(self, seat: int) -> frozenset[Card]:
        return self.holdings[seat]

    def add(self, field: str, code: str, message: Text) -> None:
        # No clause of the rulebook: the deal, not a rule of the game, says what is wrong.
        self.found.append(Problem(field, code, message))

    def not_dealt(self, field: str, seat: int, card: Card) -> None:
        """``seat`` shows or plays ``card``, which the board dealt to another seat (which one
        is not said)."""
        self.add(field, "not_dealt",
                 Text("board {board}: {seat} was not dealt {card}",
                      board=self.board.number, seat=seat_name(seat), card=card))

    def dealer(self, record: HandRecord) -> None:
        if record.dealer != self.board.dealer:
            # The seat the record names, not the board's dealer: who deals is on the table's
            # game (its next dealer), and a refusal names no seat but the record's.
            self.add("dealer", "not_the_boards_dealer",
                     Text("board {board} is not dealt by {given}",
                          board=self.board.number, given=seat_name(record.dealer)))

    def discard(self, record: HandRecord) -> None:
        dealer = self.board.dealer
        mine = self.held(dealer)
        for i, card in enumerate(record.discard or ()):
            if card not in mine:
                self.add(f"discard[{i}]", "not_dealt",
                         Text("board {board}: the dealer, {dealer}, was not dealt {card}",
                              board=self.board.number, dealer=seat_name(dealer), card=card))

    def exposed(self, record: HandRecord) -> None:
        for i, card in enumerate(record.exposed or ()):
            if card not in self.board.exposed:
                self.add(f"exposed[{i}]", "not_exposed",
                         Text("board {board}: {card} was not exposed",
                              board=self.board.number, card=card))

    def dealt_to(self, field: str, card: Card | None, seat: int | None) -> None:
        """The record says ``seat`` held ``card``: a called card's partner (or, in a solo,
        the seat it is taken from; in a surrender, the declarer), the Fool's player, the
        Bagatto's."""
        if card is None or seat is None or card not in self.variant.pack:
            return
        if card not in self.held(seat):
            self.not_dealt(field, seat, card)

    def call(self, record: HandRecord) -> None:
        if record.call is not None:
            self.dealt_to("call.partner", record.call.card, record.call.partner)

    def contract(self, record: HandRecord) -> None:
        contract = record.contract
        if contract is not None and contract.type == "surrender":
            self.dealt_to("contract.called_card", contract.called_card, contract.declarer)
        elif contract is not None:
            self.dealt_to("contract.partner", contract.called_card, contract.partner)

    def declarations(self, record: HandRecord) -> None:
        for i, d in enumerate(record.declarations):
            mine = self.held(d.seat)
            cards, count = _needs(self.variant, d)
            for k, card in enumerate(cards):
                if card not in mine:
                    at = (f"declarations[{i}].cards[{k}]" if d.cards is not None
                          else f"declarations[{i}]")
                    self.not_dealt(at, d.seat, card)
            if count is not None:
                dealt = sum(1 for c in mine if count.of_class(c))
                if dealt < count.at_least:  # how many it was dealt is not said
                    self.add(f"declarations[{i}]", "not_dealt",
                             Text("board {board}: {seat} declared {kind} with {n} {what}, "
                                  "but was not dealt so many", board=self.board.number,
                                  seat=seat_name(d.seat), kind=d.kind, n=count.at_least,
                                  what=count.what))

    def fool(self, record: HandRecord) -> None:
        if record.fool is not None:
            self.dealt_to("fool.played_by", self.variant.pack.fool, record.fool.played_by)

    def bagatto(self, record: HandRecord) -> None:
        if record.bagatto is not None and self.variant.bagatto is not None:
            self.dealt_to("bagatto.seat", self.variant.pack.card("T1"), record.bagatto.seat)

    def tricks(self, record: HandRecord) -> None:
        """Each seat plays its own cards, the seats following from the board's dealer and
        each trick's winner; the check stops at a trick of the wrong size (its seats are
        unknown; the scorer says what is wrong with it)."""
        seats = self.variant.seats
        for i, trick, leader in _led(self.variant, record, self.board.dealer):
            for k, card in enumerate(trick):
                seat = (leader + k) % seats
                if card not in self.held(seat):
                    self.add(f"tricks[{i}][{k}]", "not_dealt",
                             Text("board {board}: {seat} played {card} to trick {trick}, "
                                  "but was not dealt it",
                                  board=self.board.number, seat=seat_name(seat), card=card,
                                  trick=i + 1))


def _led(variant: Variant, record: HandRecord, dealer: int
         ) -> Iterator[tuple[int, tuple[Card, ...], int]]:
    """Each whole trick of the record with its index and leader, from the seat after
    ``dealer``, as far as the tricks are whole."""
    leader = (dealer + 1) % variant.seats
    for i, trick in enumerate(record.tricks or ()):
        if len(trick) != variant.seats or all(c.is_fool for c in trick):
            return
        yield i, trick, leader
        leader = (leader + trick_winner(variant, trick)) % variant.seats


#: The record's sections the referee checks, in the order it reports them.
_SECTIONS: tuple[tuple[str, Callable[[_Referee, HandRecord], None]], ...] = (
    ("dealer", _Referee.dealer),
    ("discard", _Referee.discard),
    ("exposed", _Referee.exposed),
    ("call", _Referee.call),
    ("contract", _Referee.contract),
    ("declarations", _Referee.declarations),
    ("fool", _Referee.fool),
    ("bagatto", _Referee.bagatto),
    ("tricks", _Referee.tricks),
)


def disagreements(record: HandRecord, board: Board, variant: Variant,
                  left_out: frozenset[str] = frozenset()) -> tuple[Problem, ...]:
    """Every part of ``record`` that disagrees with ``board`` (``variant``'s deal), each a
    ``Problem`` naming the board, the seat and the card. ``left_out``: the record's sections
    that were malformed and left out (``read_hand_record``), which are not checked."""
    dealt = sum(len(hand) for hand in board.hands) + len(board.extra)
    if len(board.hands) != variant.seats or dealt != len(variant.pack):
        raise ValueError(f"board {board.number} deals {dealt} cards to {len(board.hands)} "
                         f"seats; {variant.id} deals {len(variant.pack)} to {variant.seats}")
    referee = _Referee(variant, board)
    for section, check in _SECTIONS:
        if section not in left_out:
            check(referee, record)
    return tuple(referee.found)


def board_checks(board: Board, variant: Variant
                 ) -> Callable[[HandRecord, frozenset[str]], tuple[Problem, ...]]:
    """The referee of one board as ``score_record``'s ``checks``: its problems are reported
    with the scorer's, all at once."""
    return lambda record, left_out: disagreements(record, board, variant, left_out)
