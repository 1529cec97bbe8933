"""Which boards of a duplicate event the room may count: a board keeps its secret until every
table due to play it has played it. Until then nothing anyone but the organiser reads may
depend on its cards or results (a standing, a table's total, a percentage, a traveller, an
export), since a table yet to play it could learn from them; once complete (or once its
round is closed, so that no table is due to play it any more) it counts everywhere.

The one rule every reading of the room goes through: ``complete_boards`` from each table's
progress, then ``counted_hands`` for what a table's totals may count."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableProgress:
    """How far a duplicate table has got: its boards in the order it plays them, how many of
    them it has played, and whether it is still due to play the rest (its game goes on in
    an open round; a game that ended, or whose round was closed, owes nothing)."""

    boards: tuple[int, ...]
    played: int
    due: bool

    def owed(self) -> tuple[int, ...]:
        """The boards the table has still to play, in its order."""
        return self.boards[self.played:] if self.due else ()


def complete_boards(tables: Iterable[TableProgress]) -> frozenset[int]:
    """The boards every table due to play them has played: the boards of the tables seated
    so far, but those a table still owes. A board of a round not seated yet is at no table,
    and is not complete."""
    seated: set[int] = set()
    owed: set[int] = set()
    for table in tables:
        seated.update(table.boards)
        owed.update(table.owed())
    return frozenset(seated - owed)


def counted_hands(boards: Sequence[int], played: int, complete: Collection[int]
                  ) -> tuple[int, ...]:
    """The hands (numbered from 1) of a table's game that the room may count: those of its
    first ``played`` boards (``boards`` in its order) that are ``complete``."""
    return tuple(n for n, board in enumerate(boards[:played], start=1) if board in complete)
