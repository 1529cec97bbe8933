"""What each column got from each hand and where it stands after it: the numbers of the score
sheet's rows and of the CSV export's."""

from __future__ import annotations

from dataclasses import dataclass

from service.domain import STARTING_MARCA

from ..games import GameView


@dataclass(frozen=True, slots=True)
class HandNumbers:
    """What each column got from a hand and where it stands after it. ``points`` are what
    the running total counted (in a rubber won during the declarations, less than the hand's
    result: R13). Mitigatti: ``marca`` the hand's payments (with any pot collected) and
    ``balances`` from 10; ``pot`` what the pot holds after the hand."""

    number: int
    points: dict[str, int]
    totals: dict[str, int]
    marca: dict[str, int] | None = None
    balances: dict[str, int] | None = None
    pot: int | None = None
    collected: dict[str, int] | None = None


def hand_numbers(view: GameView) -> list[HandNumbers]:
    summary = view.summary
    keys = [c.key for c in summary.columns]
    before = dict.fromkeys(keys, 0)
    seats = view.setup.variant.seats
    balances = {str(s): STARTING_MARCA for s in range(seats)}
    pot = 0
    collections: dict[int, dict[str, int]] = {}
    if summary.ledger is not None:
        for number, seat, collected_marca in summary.ledger.collections:
            collections.setdefault(number, {})[seat] = collected_marca
    out = []
    for index, hand in enumerate(view.hands):
        running = dict(summary.running[index]) if index < len(summary.running) else before
        points = {k: running[k] - before[k] for k in keys}
        numbers = HandNumbers(hand.number, points, running)
        if summary.ledger is not None:
            collected = collections.get(hand.number, {})
            marca = hand.result.marca(seats)
            for seat, amount in collected.items():
                marca[seat] += amount
            for seat, amount in marca.items():
                balances[seat] += amount
            pot += hand.result.pot - sum(collected.values())
            numbers = HandNumbers(hand.number, points, running, marca, dict(balances), pot,
                                  collected)
        out.append(numbers)
        before = running
    return out
