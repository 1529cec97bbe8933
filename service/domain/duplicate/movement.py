"""Movements: which boards each table of a duplicate round plays, in which order, and who sits
at which seat (docs/events.md#duplicate, #movement; docs/decisions.md says why).

- **The round's boards.** Round ``r`` (from 0) has boards ``r * B + 1 .. (r + 1) * B`` of its
  own (``B`` = boards per round), and **every table of the round plays every one of them**:
  the most tables a board can have in a round, since a player on a bye plays no board. Because
  no board comes back in a later round, nobody plays a board twice, and each seat of a board
  is held by a different entrant at each table (an entrant sits at one table a round).
- **The order.** The round's ``t``-th table playing (a Mitchell's table facing its phantom
  pair stands empty and is skipped) starts with the round's board ``t mod B`` and goes on
  round them: after each hand a board passes down a table, so a club needs
  ``ceil(tables / B)`` copies of a board, not one per table.
- **Individual** (3- and 4-seat games, and the 2 players of gatti-2): the seating search of
  ``events.seating`` (fewest repeated partners, then opponents, byes spread evenly; a local
  search and a branch and bound with step budgets, seeded, never the clock).
- **Pairs**: a Mitchell movement. The seed draws the lines: the first half of the pairs stays
  (side 0, "North-South"), the others move up a table each round; with an odd number of pairs
  a phantom pair moves with them and the pair it meets sits out. Nobody meets anyone twice for
  as many rounds as there are tables; no skip is needed, since the boards are new each round
  (the skip of bridge's Mitchell keeps a moving pair from meeting boards it has played). After
  that many rounds every pair has met the other line; later rounds pair those who have not
  met yet (the Swiss pairing of ``events.seating`` on the roster's order: a repeat only where
  no pairing of the round avoids one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..events.seating import (
    Seating,
    TableShape,
    format_problems,
    roster_problems,
    seat_individual,
    seat_pairs,
)
from ..events.seating.common import raise_if
from ..variant import Variant


@dataclass(frozen=True)
class TablePlan:
    """One table of a round: its number in the room (from 0), the entrant at each seat of the
    variant (None at a dummy's seat; in the pairs format the pair, at both its seats), and the
    boards it plays, in order (hand ``n`` is the ``n``-th)."""

    table: int
    seats: tuple[int | None, ...]
    boards: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"table": self.table, "seats": list(self.seats), "boards": list(self.boards)}


@dataclass(frozen=True)
class RoundPlan:
    """One round of a duplicate event: its boards, its tables and its byes."""

    round: int
    boards: tuple[int, ...]
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...]
    #: The event's seating of the round: entrants by ``TableShape.players`` (individual) or
    #: ``(pair on side 0, pair on side 1)`` (pairs), as ``events.seating`` gives them.
    seating: Seating

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "boards": list(self.boards),
                "tables": [t.to_json() for t in self.tables], "byes": list(self.byes)}


def round_boards(round_index: int, boards_per_round: int) -> tuple[int, ...]:
    """The boards of round ``round_index`` (from 0)."""
    first = round_index * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def board_order(place: int, boards: Sequence[int]) -> tuple[int, ...]:
    """The order the round's ``place``-th table (from 0) plays ``boards``: from its own
    start, round them."""
    b = len(boards)
    return tuple(boards[(place + k) % b] for k in range(b))


def mitchell_rounds(pairs: int) -> int:
    """The rounds of the Mitchell movement: one a table, each pair of a line meeting every
    pair of the other once."""
    return (pairs + 1) // 2


def mitchell(pairs: int, round_index: int, seed: int | str
             ) -> tuple[list[tuple[int, int, int]], tuple[int, ...]]:
    """Round ``round_index`` of the seed's Mitchell movement for ``pairs`` pairs: the tables
    as ``(table, pair on side 0, pair on side 1)`` and the pair on a bye, if any."""
    order = list(range(pairs))
    random.Random(f"mitchell:{seed}:{pairs}").shuffle(order)
    tables = mitchell_rounds(pairs)
    stay, move = order[:tables], order[tables:]
    phantom = -1
    if len(move) < tables:
        move.append(phantom)
    step = round_index % tables
    out: list[tuple[int, int, int]] = []
    byes: list[int] = []
    for e, mover in enumerate(move):
        table = (e + step) % tables
        stayer = stay[table]
        if mover == phantom:
            byes.append(stayer)
        else:
            out.append((table, stayer, mover))
    out.sort()
    return out, tuple(byes)


def plan_round(variant: Variant, format: str, entrants: int, round_index: int,
               boards_per_round: int, history: Sequence[Seating], seed: int | str
               ) -> RoundPlan:
    """Round ``round_index`` of a duplicate event of ``entrants`` (players for ``individual``,
    pairs for ``pairs``) after the rounds of ``history`` (the Mitchell's rounds follow the
    seed and the round's number alone). Raises ``RecordInvalid`` for a format the game does
    not fit or a roster too small for a table."""
    if format not in ("individual", "pairs"):
        raise ValueError(f"no movement for the {format} format")
    shape = TableShape.of(variant)
    raise_if(format_problems(format, shape) + roster_problems(entrants, format, shape))
    if format == "pairs":
        tables, byes = _pair_tables(entrants, round_index, history, seed)
        seating = Seating(tuple((a, b) for _, a, b in tables), byes)
        numbers = tuple(number for number, _, _ in tables)
        return seated_round(variant, format, round_index, boards_per_round, seating, numbers)
    seating = seat_individual(entrants, shape, history, _int_seed(seed))
    return seated_round(variant, format, round_index, boards_per_round, seating)


def seated_round(variant: Variant, format: str, round_index: int, boards_per_round: int,
                 seating: Seating, numbers: Sequence[int] | None = None) -> RoundPlan:
    """The boards of a round seated otherwise (the organiser's swap, the ``free`` format): the
    round's own boards at every table of ``seating``, each from its own start. ``numbers``:
    the tables' numbers in the room (by default 0, 1, …). The duplicate rules hold whatever
    the seating, since the boards are the round's own; the seating's own rules are
    ``events.seating``'s to check."""
    if boards_per_round < 1:
        raise ValueError("a round has at least one board")
    shape = TableShape.of(variant)
    boards = round_boards(round_index, boards_per_round)
    plans: list[TablePlan] = []
    for place, row in enumerate(seating.tables):
        seats: list[int | None] = [None] * variant.seats
        if format == "pairs":
            seats = [row[0], row[1], row[0], row[1]]
        else:
            for position, seat in enumerate(shape.players):
                seats[seat] = row[position]
        number = place if numbers is None else numbers[place]
        plans.append(TablePlan(number, tuple(seats), board_order(place, boards)))
    return RoundPlan(round_index, boards, tuple(plans), seating.byes, seating)


def _pair_tables(entrants: int, round_index: int, history: Sequence[Seating],
                 seed: int | str) -> tuple[list[tuple[int, int, int]], tuple[int, ...]]:
    """The Mitchell while it lasts; then those who have not met yet (Swiss on the roster)."""
    if round_index < mitchell_rounds(entrants):
        return mitchell(entrants, round_index, seed)
    after = seat_pairs(entrants, (), history, "swiss", _int_seed(seed))
    return [(number, a, b) for number, (a, b) in enumerate(after.tables)], after.byes


def plan_movement(variant: Variant, format: str, entrants: int, rounds: int,
                  boards_per_round: int, seed: int | str) -> tuple[RoundPlan, ...]:
    """Every round of a duplicate event, as ``plan_round`` seats them one after the other."""
    out: list[RoundPlan] = []
    for r in range(rounds):
        out.append(plan_round(variant, format, entrants, r, boards_per_round,
                              [p.seating for p in out], seed))
    return tuple(out)


def _int_seed(seed: int | str) -> int:
    """The seating's seed: the event's own, or a text seed's first bytes."""
    if isinstance(seed, int):
        return seed
    return int.from_bytes(seed.encode("utf-8")[:8].ljust(8, b"\0"), "big")
