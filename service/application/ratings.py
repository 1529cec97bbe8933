"""A club's ratings (docs/clubs.md#ratings): a Bayesian skill rating per member and
family, moved by every finished game, with openskill's Plackett–Luce model.

The input is the club's finished games as :class:`RatedMatch` (a game of three or four on
their own gives each member a side of one and their place; a pair game gives two sides of
member ids and their places, equal places a tie). :func:`rate_matches` recomputes every rating
from nothing, in the order the games finished (ties of time broken by the game's id), so the
same results give the same ratings however they are listed and a correction to an old game
moves every later rating the same way every time. A member who does not play a game keeps
their rating through it.

The club's ratings are kept as its games finish (:func:`keep_ratings`, in the unit of work
of the write that moves a result): from the moved game on, exactly what :func:`rate_matches`
gives, so reading them is one row per member.

The figure a club reads is the conservative ``mu − 3σ`` (openskill's ``ordinal``: the skill
the member very probably has at least) on a scale of ``1000 + 40 · (mu − 3σ)``: a newcomer
(``mu`` 25, ``σ`` 25/3) starts at exactly 1000, and a steady winner climbs towards 1700–1800
as the uncertainty shrinks. ``certainty`` says how far ``σ`` has come down from a newcomer's
(0 % the first evening). ``docs/decisions.md`` ("Charts and ratings") says why
Plackett–Luce and these numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from service.domain import ClubResult

from .ports import ClubRepository, RatingOrder, RatingStep

# The scale a club reads: 1000 + 40 · (mu − 3σ); a newcomer is 1000.
SCALE_ORIGIN = 1000.0
SCALE_STEP = 40.0
SIGMAS_BELOW = 3.0


def new_model() -> PlackettLuce:
    """The model every rating is computed with: openskill's defaults (mu 25, σ 25/3,
    β 25/6, τ 25/300), the same for every club and family."""
    return PlackettLuce()


def newcomer() -> tuple[float, float]:
    """A member's ``mu`` and ``σ`` before their first game of a family."""
    model = new_model()
    return model.mu, model.sigma


def shown_rating(mu: float, sigma: float) -> float:
    """``mu − 3σ`` on the club's scale (openskill's ``ordinal`` with alpha and target)."""
    return SCALE_STEP * (mu - SIGMAS_BELOW * sigma) + SCALE_ORIGIN


@dataclass(frozen=True)
class RatedMatch:
    """One finished game as the ratings see it: its sides (member ids; a side of one for a
    player on their own) and each side's place (1 is first; equal places are a tie)."""

    family: str
    finished_at: datetime
    game: str
    sides: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(self.places) != len(self.sides):
            raise ValueError(f"game {self.game}: a rated game needs two sides or more, "
                             "each with its place")
        members = [member for side in self.sides for member in side]
        if not all(self.sides) or len(set(members)) != len(members):
            raise ValueError(f"game {self.game}: every side has members, each on one side")

    @classmethod
    def alone(cls, family: str, finished_at: datetime, game: str,
              places: Mapping[str, int]) -> RatedMatch:
        """A game of three or four players on their own: each member's place."""
        members = sorted(places)
        return cls(family, finished_at, game, tuple((member,) for member in members),
                   tuple(places[member] for member in members))

    @classmethod
    def in_sides(cls, family: str, finished_at: datetime, game: str,
                 sides: Sequence[Sequence[str]], places: Sequence[int]) -> RatedMatch:
        """A pair game: the sides' member ids and their places (equal for a tie)."""
        return cls(family, finished_at, game, tuple(tuple(side) for side in sides),
                   tuple(places))

    @property
    def order(self) -> tuple[datetime, str]:
        """Where the game comes in the recomputation: when it finished, then its id."""
        return (self.finished_at, self.game)


@dataclass(frozen=True)
class RatingPoint:
    """A member's rating just after one of their games (a point of their chart)."""

    game: str
    finished_at: datetime
    mu: float
    sigma: float
    rating: float
    change: float


@dataclass(frozen=True)
class MemberRating:
    """A member's rating in one family: the model's numbers, the figure shown, how sure it
    is, the games counted, the last change and every step since their first game."""

    member: str
    mu: float
    sigma: float
    rating: float
    certainty: float
    games: int
    last_change: float
    last_game: str
    last_played: datetime
    history: tuple[RatingPoint, ...]

    @property
    def shown(self) -> int:
        """The rating as a club reads it: a whole number."""
        return round(self.rating)


@dataclass(frozen=True)
class FamilyRatings:
    """The table of one family: best rating first, equal ratings by member id (so the order
    never depends on how the games were listed); ``games`` the games it rates."""

    family: str
    members: tuple[MemberRating, ...]
    games: int = 0

    def of(self, member: str) -> MemberRating | None:
        return next((row for row in self.members if row.member == member), None)


def _certainty(model: PlackettLuce, sigma: float) -> float:
    """How far σ has come down from a newcomer's, 0 to 1."""
    return max(0.0, 1.0 - sigma / model.sigma)


def _rate_family(model: PlackettLuce, family: str,
                 matches: Sequence[RatedMatch]) -> FamilyRatings:
    current: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[RatingPoint]] = {}
    for match in matches:
        teams = [[_current(current, model, member) for member in side]
                 for side in match.sides]
        rated = model.rate(teams, ranks=[float(place) for place in match.places])
        for side, new_side in zip(match.sides, rated, strict=True):
            for member, after in zip(side, new_side, strict=True):
                before = shown_rating(*_numbers(current.get(member), model))
                current[member] = after
                rating = shown_rating(after.mu, after.sigma)
                history.setdefault(member, []).append(RatingPoint(
                    match.game, match.finished_at, after.mu, after.sigma, rating,
                    rating - before))
    rows = [_member_row(model, member, tuple(points)) for member, points in history.items()]
    rows.sort(key=lambda row: (-row.rating, row.member))
    return FamilyRatings(family, tuple(rows), len(matches))


def _current(current: Mapping[str, PlackettLuceRating], model: PlackettLuce,
             member: str) -> PlackettLuceRating:
    """The member's rating so far, or a newcomer's."""
    rating = current.get(member)
    return model.rating(name=member) if rating is None else rating


def _numbers(rating: PlackettLuceRating | None, model: PlackettLuce) -> tuple[float, float]:
    return (model.mu, model.sigma) if rating is None else (rating.mu, rating.sigma)


def _member_row(model: PlackettLuce, member: str,
                points: tuple[RatingPoint, ...]) -> MemberRating:
    last = points[-1]
    return MemberRating(member=member, mu=last.mu, sigma=last.sigma, rating=last.rating,
                        certainty=_certainty(model, last.sigma), games=len(points),
                        last_change=last.change, last_game=last.game,
                        last_played=last.finished_at, history=points)


def rate_matches(matches: Iterable[RatedMatch],
                 model: PlackettLuce | None = None) -> dict[str, FamilyRatings]:
    """Every family's table, recomputed from scratch in finishing order (ties of time by
    the game's id); a family with no game has no table."""
    model = model or new_model()
    ordered = sorted(matches, key=lambda match: match.order)
    seen = [match.game for match in ordered]
    if len(set(seen)) != len(seen):
        raise ValueError("a game is rated once: the same game id came twice")
    by_family: dict[str, list[RatedMatch]] = {}
    for match in ordered:
        by_family.setdefault(match.family, []).append(match)
    return {family: _rate_family(model, family, games)
            for family, games in sorted(by_family.items())}


def matches_of(results: Iterable[ClubResult]) -> list[RatedMatch]:
    """A club's counted games as the ratings see them, from its results projection: each
    column of a game's sheet a side (the members it counts for: a pair, or one player; a
    player and their dummy one side), with its place. A game with fewer than two sides of
    members left (the others forgotten) compares nobody and is left out."""
    games: dict[str, list[ClubResult]] = {}
    for row in results:
        games.setdefault(row.game, []).append(row)
    matches = []
    for game, rows in games.items():
        columns: dict[int, tuple[int, list[str]]] = {}
        for row in rows:
            _, members = columns.setdefault(row.column, (row.place, []))
            if row.counted_for not in members:
                members.append(row.counted_for)
        if len(columns) < 2:
            continue
        ordered = [columns[column] for column in sorted(columns)]
        matches.append(RatedMatch.in_sides(
            rows[0].family, rows[0].finished_at, game,
            [members for _, members in ordered], [place for place, _ in ordered]))
    return matches


# -- the ratings kept as games finish -------------------------------------------------------


def keep_ratings(clubs: ClubRepository, club_id: str, family: str,
                 since: RatingOrder) -> None:
    """The family's kept ratings from the game at ``since`` on, as a recomputation in
    finishing order gives them: the steps from there on taken out, the members' ratings
    just before it read back, and the family's games from there on rated again. A game
    finishing last replays itself alone; a correction, a deletion, a merge or a forget that
    moves an older result replays everything after it. A family with nothing kept yet (its
    results older than the kept ratings) is rated whole."""
    dropped = clubs.drop_rating_steps(club_id, family, since)
    rated = clubs.rated_games(club_id, family)
    start: RatingOrder | None = since if rated else None
    matches = sorted(matches_of(clubs.family_results(club_id, family, start)),
                     key=lambda match: match.order)
    members = dropped | {m for match in matches for side in match.sides for m in side}
    last = clubs.last_rating_steps(club_id, family, members, dropped)
    model = new_model()
    current = {member: (step.mu, step.sigma, step.games) for member, step in last.items()}
    steps: list[RatingStep] = []
    moved: dict[str, RatingStep] = {}
    for number, match in enumerate(matches, start=rated + 1):
        teams = [[model.rating(mu=current[m][0], sigma=current[m][1], name=m)
                  if m in current else model.rating(name=m) for m in side]
                 for side in match.sides]
        after = model.rate(teams, ranks=[float(place) for place in match.places])
        for side, new_side in zip(match.sides, after, strict=True):
            for member, rating in zip(side, new_side, strict=True):
                before = shown_rating(*(current[member][:2] if member in current
                                        else (model.mu, model.sigma)))
                games = current[member][2] + 1 if member in current else 1
                current[member] = (rating.mu, rating.sigma, games)
                step = RatingStep(match.game, member, match.finished_at, number, games,
                                  rating.mu, rating.sigma,
                                  shown_rating(rating.mu, rating.sigma) - before)
                steps.append(step)
                moved[member] = step
    standing = [moved.get(m) or last[m] for m in members if m in moved or m in last]
    clubs.keep_rating_steps(club_id, family, steps, standing,
                            [m for m in members if m not in moved and m not in last])


def rating_points(clubs: ClubRepository, club_id: str, game_id: str,
                rows: Sequence[ClubResult]) -> tuple[tuple[str, RatingOrder], ...]:
    """Where ``game_id``'s new rows (``rows``, none: it counts nowhere) move the ratings
    from: its old place (where it was rated) and its new one, the earlier per family."""
    points: dict[str, RatingOrder] = {}
    was = clubs.rated_at(game_id)
    if was is not None:
        points[was[0]] = (was[1], game_id)
    if rows:
        new = (rows[0].finished_at, game_id)
        points[rows[0].family] = min(points.get(rows[0].family, new), new)
    return tuple(points.items())


def rerate_member(clubs: ClubRepository, club_id: str, member_id: str) -> None:
    """The ratings again from the member's first game of each family on: their seats now
    count for another member (a merge, its undo) or for themselves alone (a forget)."""
    for family, since in sorted(clubs.first_seats(club_id, member_id).items()):
        keep_ratings(clubs, club_id, family, since)


def kept_table(family: str, rated: int, steps: Iterable[RatingStep]) -> FamilyRatings:
    """The family's table from each member's rating as it stands (no history)."""
    rows = [_kept_row(step) for step in steps]
    rows.sort(key=lambda row: (-row.rating, row.member))
    return FamilyRatings(family, tuple(rows), rated)


@functools.lru_cache(maxsize=4096)
def _kept_row(step: RatingStep) -> MemberRating:
    """A member's row of the table from their rating as it stands: made once per rating (a
    game moves its players' only)."""
    return MemberRating(
        member=step.member, mu=step.mu, sigma=step.sigma,
        rating=shown_rating(step.mu, step.sigma), certainty=_certainty(_MODEL, step.sigma),
        games=step.games, last_change=step.change, last_game=step.game,
        last_played=step.finished_at, history=())


#: The model the rows' certainty is measured against (openskill's defaults, as every
#: rating's).
_MODEL = new_model()


def history_of(steps: Iterable[RatingStep]) -> tuple[RatingPoint, ...]:
    """A member's kept steps as the points of their chart."""
    return tuple(RatingPoint(s.game, s.finished_at, s.mu, s.sigma,
                             shown_rating(s.mu, s.sigma), s.change) for s in steps)
