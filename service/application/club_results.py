"""The club's results projection (issue 29, CLUBS.md "Linking results to members"): one row
per member and counted game, rewritten in the unit of work of every write that moves it, so
that seasons (and statistics and ratings after them) read rows instead of replaying games.

A game counts once it is over: a stand-alone game when finished (its hands, its target, or
its scorekeeper's "the evening is over"), a table of an event when its round is closed (as
it stood). Rows follow corrections and deletions because every such write projects the game
again; a game of an event has its rows as a table of the event only, so nothing is counted
twice. ``ClubRepository.club_results`` returns them in finishing order.
"""

from __future__ import annotations

from datetime import datetime

from service.domain import ClubResult, GameSummary, SeatResult, seat_results

from .ports import StoredGame
from .unit_of_work import UnitOfWork


def finished_at(game: StoredGame, at: datetime | None = None) -> datetime | None:
    """When a counted game ended: its round's close, the scorekeeper's "the evening is
    over", else its last hand (``at`` when that hand is being written now)."""
    if game.event is not None:
        return game.closed_at
    if game.ended_at is not None:
        return game.ended_at
    if at is not None:
        return at
    return game.hands[-1].created_at if game.hands else None


def project_game(unit: UnitOfWork, game: StoredGame, summary: GameSummary, family: str,
                 at: datetime | None = None) -> None:
    """Rewrite ``game``'s rows of its club's results as ``summary`` (the game after this
    write) says: none while it does not count. A game of no club has none."""
    if game.club is None or game.seat_members is None:
        return
    counts = game.closed_at is not None if game.event is not None else summary.finished
    ended = finished_at(game, at)
    rows: tuple[ClubResult, ...] = ()
    if counts and ended is not None:
        states = unit.clubs.member_states(game.club)
        event, round_, table = game.event or (None, None, None)
        rows = tuple(ClubResult(
            **{f: getattr(seat, f) for f in SeatResult.__slots__}, club=game.club,
            game=game.id, member=str(game.seat_members[seat.seat]), event=event,
            round=round_, table=table, family=family, variant=game.variant,
            finished_at=ended, state="finished" if summary.finished else "closed")
            for seat in seat_results(summary, game.seat_members, states))
    unit.clubs.replace_results(game.club, game.id, rows)


__all__ = ["finished_at", "project_game"]
