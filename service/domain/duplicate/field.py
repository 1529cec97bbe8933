"""One field across many clubs (docs/events.md#one-field-across-many-clubs): several duplicate
events, the field's **sections**, play the same boards (the host's), each in its own room,
and every result is compared with every result on that board in every section.

- **A board's secret across the field.** A board is complete for the field once no table of
  any section is due to play it: the tables seated and still playing it, and, for a section
  that has started and planned its rounds, the boards of the rounds it has still to seat
  (``rounds_to_come``). A section that has not started owes nothing yet, and a section that
  left (deleted) owes nothing: it holds no one back.
- **Field standings.** Every section's plays of the boards complete for the field, scored
  together (``score_board`` across the sections), ranked by the average percentage as one
  event's standings are; each entrant is named by its section.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .scoring import BoardPlay, BoardStandings, board_standings
from .secrecy import TableProgress


def rounds_to_come(planned: int | None, seated: int, boards_per_round: int
                   ) -> tuple[int, ...]:
    """The boards of the rounds a section has still to seat: those of its planned rounds
    after the ``seated`` ones, once it has started (a section with no round seated, or no
    planned number of rounds, owes none of them)."""
    if planned is None or seated == 0:
        return ()
    return tuple(range(seated * boards_per_round + 1, planned * boards_per_round + 1))


def section_owes(tables: Iterable[TableProgress], to_come: Iterable[int] = ()
                ) -> frozenset[int]:
    """The boards a section still owes the field: those its seated tables have still to
    play, and those of the rounds it has still to seat (``to_come``)."""
    owed: set[int] = set(to_come)
    for table in tables:
        owed.update(table.owed())
    return frozenset(owed)


@dataclass(frozen=True, slots=True)
class Section:
    """One section's part of the field's standings: its event, the names of its entrants
    (by number), those listed (removed entrants are not) and its plays of the boards the
    field counts."""

    event: str
    entrants: tuple[str, ...]
    listed: frozenset[int]
    plays: tuple[BoardPlay, ...]


@dataclass(frozen=True, slots=True)
class FieldRow:
    """A row of the field's standings: its section, and the entrant's number in it."""

    section: str
    entrant: int


def field_standings(sections: Sequence[Section], *, explained: bool = True
                    ) -> tuple[BoardStandings, tuple[FieldRow, ...]]:
    """The field's standings by matchpoints: every section's plays scored together, each
    row's entrant the section's (``FieldRow``, in the rows' order); without ``explained``,
    no row's explanation (``board_standings``)."""
    names: list[str] = []
    whose: list[FieldRow] = []
    plays: list[BoardPlay] = []
    for section in sections:
        offset = len(names)
        names += section.entrants
        whose += [FieldRow(section.event, n) for n in range(len(section.entrants))]
        plays += [_moved(p, offset) for p in section.plays]
    found = board_standings(names, plays, "matchpoints", explained=explained)
    listed = {i for i, row in enumerate(whose)
              if row.entrant in next(s.listed for s in sections if s.event == row.section)}
    rows = tuple(row for row in found.rows if row.entrant in listed)
    return replace(found, rows=rows), tuple(whose[row.entrant] for row in rows)


def _moved(play: BoardPlay, offset: int) -> BoardPlay:
    """A section's play with its entrants numbered in the field (after ``offset`` others):
    made directly, a field of ten sections moves some two thousand plays each time its
    standings are made."""
    return BoardPlay(play.board, play.round, play.table, play.game, play.hand, play.seats,
                     tuple(tuple(e + offset for e in column) for column in play.entrants),
                     play.columns)
