"""What one finished game of a club gives each member at it
(docs/clubs.md#linking-results-to-members): a row per seat held by a member, from the
game's summary, for the projection that seasons, statistics and ratings read. Standard library only.

A row's *place* is its column's among the game's columns by their result (a side's total,
or, in a game settled in marca, the marca won or lost), best first; equal results share a
place and the next skips (1, 1, 3), and ``shared`` says how many columns share it.
*Partners* are the members of the same column, *opponents* those of the other columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..games import GameSummary


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One member's result at one seat of a counted game: ``counted_for`` the member it
    counts for (the member at the seat, or the one they were merged into)."""

    seat: int
    counted_for: str
    column: int
    place: int
    shared: int
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    #: Every column's result, in column order (own: ``totals[column]``).
    totals: tuple[int, ...]
    hands: int
    #: The marca won or lost over the evening, in a game settled in marca.
    marca: int | None

    @property
    def points(self) -> int:
        return self.totals[self.column]


@dataclass(frozen=True, slots=True)
class ClubResult(SeatResult):
    """A row of the club's results projection: one member's result in one counted game (a
    finished stand-alone game, or a table of a closed round of an event)."""

    club: str
    game: str
    #: The member at the seat (``counted_for``: after a merge, the other).
    member: str
    #: The event, round and table, for a table of an event.
    event: str | None
    round: int | None
    table: int | None
    family: str
    variant: str
    finished_at: datetime
    #: ``finished`` (a game over), or ``closed`` (a table its round's close stopped).
    state: str
    #: What the member's statistics count of the game's hands (``stats.game_facts``); None
    #: for a row written before they were kept.
    facts: Mapping[str, Any] | None = None


def places(results: Sequence[int]) -> list[tuple[int, int]]:
    """Each column's place (1 + the columns ahead of it) and how many columns share it."""
    return [(1 + sum(1 for r in results if r > own), sum(1 for r in results if r == own))
            for own in results]


def seat_results(summary: GameSummary, seat_members: Sequence[str | None],
                 counted_for: Mapping[str, str | None]) -> tuple[SeatResult, ...]:
    """The rows of a counted game: one per seat held by a member who counts.
    ``counted_for`` maps each member at the table to the member their results count for
    (themselves, the member they were merged into) or None (forgotten: nothing counts)."""
    totals = summary.column_points()
    ranked = places(totals)
    who: dict[int, str] = {}
    for seat, member in enumerate(seat_members):
        if member is not None and counted_for.get(member) is not None:
            who[seat] = str(counted_for[member])
    by_column = [[who[s] for s in column.seats if s in who] for column in summary.columns]
    rows = []
    for index, column in enumerate(summary.columns):
        place, shared = ranked[index]
        opponents = tuple(m for other, names in enumerate(by_column) if other != index
                          for m in names)
        for seat in column.seats:
            if seat not in who:
                continue
            member = who[seat]
            rows.append(SeatResult(
                seat, member, index, place, shared,
                tuple(m for m in by_column[index] if m != member), opponents, totals,
                summary.hands_played, totals[index] if summary.ledger is not None else None))
    return tuple(rows)


__all__ = ["ClubResult", "SeatResult", "places", "seat_results"]
