"""Who plays with whom in a hand, and how the explanations name them (rulebook §0, §2.2)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.text import Seats, Text
from ..variant import Variant
from .records import Call, HandRecord


@dataclass(frozen=True)
class Sides:
    """Who plays with whom in this hand: ``seats[i]`` are the seats of side ``i``."""

    seats: tuple[tuple[int, ...], ...]

    def of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.seats) if seat in seats)

    def __len__(self) -> int:
        return len(self.seats)


def hand_sides(variant: Variant, record: HandRecord) -> Sides:
    """The sides of the hand: fixed by the variant, or formed for the hand by the dealer's
    call (Gatti §2.2) or the contract (Mitigatti §5.3): side 0 is the declarer and partner."""
    fixed = variant.fixed_sides()
    if fixed is not None:
        return Sides(fixed)
    contract = record.contract
    team = {record.dealer if contract is None else contract.declarer}
    if record.call is not None and record.call.partner is not None:
        team.add(record.call.partner)
    if contract is not None and contract.type == "call" and contract.partner is not None:
        team.add(contract.partner)
    rest = tuple(s for s in range(variant.seats) if s not in team)
    return Sides((tuple(sorted(team)), rest))


def seat_name(seat: int) -> Seats:
    """A seat in a sentence: "seat 0", or the player's name where the table is known."""
    return Seats("seat {seat}", at=(seat,), seat=seat)


def side_name(sides: Sides, side: int) -> Seats:
    seats = sides.seats[side]
    if len(seats) == 1:
        return seat_name(seats[0])
    if len(seats) == 2:
        return Seats("seats {a} and {b}", at=seats, a=seats[0], b=seats[1])
    return Seats("seats {a}, {b} and {c}", at=seats, a=seats[0], b=seats[1], c=seats[2])


def say_call(dealer: int, call: Call) -> Text:
    """The dealer's call and who held the card (Gatti §2.2): the partner, or the dealer alone
    against the others having called a card of their own."""
    # A scored call knows its partner: given, or found by the tricks.
    assert call.partner is not None
    values = {"dealer": seat_name(dealer).capitalize(), "card": call.card}
    if call.partner == dealer:
        return Text("{dealer} called {card}, a card of their own: alone against three",
                    **values)
    return Text("{dealer} called {card}: partner {partner}", partner=seat_name(call.partner),
                **values)
