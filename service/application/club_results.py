"""The club's results projection (docs/clubs.md#linking-results-to-members): one row
per member and counted game, rewritten in the unit of work of every write that moves it, so
that seasons, statistics and ratings read rows instead of replaying games. The same write
keeps the ratings (``ratings.keep_ratings``): from the game on, where it was rated or now
is, whichever comes first.

A game counts once it is over: a stand-alone game when finished (its hands, its target, or
its scorekeeper's "the evening is over"), a table of an event when its round is closed (as
it stood). Rows follow corrections and deletions because every such write projects the game
again; a game of an event has its rows as a table of the event only, so nothing is counted
twice. ``ClubRepository.club_results`` returns them in finishing order.

Each row carries the facts a member's statistics count of the game's hands (who dealt,
declared, called, went solo, won the Bagatto ultimo, saw a hand disputed: the domain's
``game_facts``), counted here from the hands the write has at hand, so the statistics sum
rows and never replay a game. A player's verdict on a hand of a counted game projects it
again too (its disputes move). ``refill_facts`` gives a row written before facts were kept
its facts, leaving a row that has them alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from service.domain import (
    ClubResult,
    GameSummary,
    HandResult,
    HandStanding,
    PlayedHand,
    SeatResult,
    find_variant,
    game_facts,
    seat_results,
)

from .ports import StoredGame
from .ratings import keep_ratings, rating_points
from .unit_of_work import UnitOfWork


class ShownHand(Protocol):
    """A hand as a game's view holds it: its stored record, its result, its verdicts'
    standing."""

    @property
    def record(self) -> Mapping[str, Any]: ...

    @property
    def result(self) -> HandResult: ...

    @property
    def standing(self) -> HandStanding: ...


def played(hands: Iterable[ShownHand]) -> tuple[PlayedHand, ...]:
    """The hands as the statistics' facts read them."""
    return tuple(PlayedHand(h.record, h.result, h.standing.status == "disputed")
                 for h in hands)


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


def counts(game: StoredGame, summary: GameSummary) -> bool:
    """Whether the game counts for its club as ``summary`` leaves it: a stand-alone game
    once finished, a table of an event once its round is closed."""
    return game.closed_at is not None if game.event is not None else summary.finished


def _rows(unit: UnitOfWork, game: StoredGame, summary: GameSummary, family: str,
          hands: Sequence[ShownHand], at: datetime | None) -> tuple[ClubResult, ...]:
    assert game.club is not None and game.seat_members is not None
    ended = finished_at(game, at)
    if not counts(game, summary) or ended is None:
        return ()
    states = unit.clubs.member_states(game.club)
    event, round_, table = game.event or (None, None, None)
    seats = seat_results(summary, game.seat_members, states)
    facts = game_facts(find_variant(game.variant), played(hands), seats)
    return tuple(ClubResult(
        **{f: getattr(seat, f) for f in SeatResult.__slots__}, club=game.club,
        game=game.id, member=str(game.seat_members[seat.seat]), event=event,
        round=round_, table=table, family=family, variant=game.variant,
        finished_at=ended, state="finished" if summary.finished else "closed",
        facts=found) for seat, found in zip(seats, facts, strict=True))


def project_game(unit: UnitOfWork, game: StoredGame, summary: GameSummary, family: str,
                 hands: Sequence[ShownHand], at: datetime | None = None) -> None:
    """Rewrite ``game``'s rows of its club's results as ``summary`` and ``hands`` (the game
    after this write) say: none while it does not count. A game of no club has none."""
    if game.club is None or game.seat_members is None:
        return
    rows = _rows(unit, game, summary, family, hands, at)
    moved = rating_points(unit.clubs, game.club, game.id, rows)
    unit.clubs.replace_results(game.club, game.id, rows)
    for rated_family, since in moved:
        keep_ratings(unit.clubs, game.club, rated_family, since)


def refill_facts(unit: UnitOfWork, game: StoredGame, summary: GameSummary, family: str,
                 hands: Sequence[ShownHand]) -> None:
    """The facts of ``game``'s rows that have none (written before facts were kept), as
    the game stands; a row that has its facts keeps them (a write since has counted them)."""
    if game.club is None or game.seat_members is None:
        return
    rows = _rows(unit, game, summary, family, hands, None)
    unit.clubs.fill_facts(game.id, {r.seat: r.facts for r in rows if r.facts is not None})


__all__ = ["counts", "finished_at", "played", "project_game", "refill_facts"]
