"""The organiser's own seating (docs/events.md#formats, ``free``): checked whole, every problem at
once; the entrants it leaves out are the round's byes (``byes_of``)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.errors import Problem
from ...core.text import Text
from .common import TableShape


def check_free_seating(entrants: int, shape: TableShape,
                       tables: Sequence[Sequence[int | None]],
                       names: Sequence[str] | None = None) -> list[Problem]:
    """Every problem of an organiser's seating: a table with the wrong number of entrants, an
    empty seat, an entrant not on the roster, an entrant seated twice. ``names`` (the roster,
    optional) names entrants in the messages; otherwise they are called by number. Entrants
    not seated are the round's byes: ``byes_of`` lists them."""
    problems: list[Problem] = []
    seen: dict[int, tuple[int, int]] = {}
    per = shape.per_table

    def called(entrant: int) -> str:
        return names[entrant] if names is not None and entrant < len(names) else str(entrant)

    for t, table in enumerate(tables):
        if len(table) != per:
            problems.append(Problem(
                f"tables[{t}]", "table_size",
                Text.counted("table {table} has {n} entrant; it seats {seats}",
                             "table {table} has {n} entrants; it seats {seats}",
                             len(table), table=t + 1, seats=per)))
        for i, entrant in enumerate(table):
            where = f"tables[{t}].seats[{i}]"
            seat = shape.players[i] if i < per else i
            if entrant is None:
                problems.append(Problem(where, "seat_empty",
                                        Text("seat {seat} of table {table} is empty",
                                             seat=seat, table=t + 1)))
            elif (isinstance(entrant, bool) or not isinstance(entrant, int)
                  or not 0 <= entrant < entrants):
                problems.append(Problem(
                    where, "out_of_range",
                    Text("entrant {entrant} is not on the roster: entrants are numbered 0 "
                         "to {last}", entrant=entrant, last=entrants - 1)))
            elif entrant in seen:
                other_t, other_seat = seen[entrant]
                problems.append(Problem(where, "seated_twice",
                                        Text("{entrant} also sits at table {table}, seat {seat}",
                                             entrant=called(entrant), table=other_t + 1,
                                             seat=other_seat)))
            else:
                seen[entrant] = (t, seat)
    return problems
