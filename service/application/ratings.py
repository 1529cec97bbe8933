"""A club's ratings (issue 29, CLUBS.md "Ratings"): a Bayesian skill rating per member and
family, moved by every finished game, with openskill's Plackett–Luce model.

The input is the club's finished games as :class:`RatedMatch` (a game of three or four on
their own gives each member a side of one and their place; a pair game gives two sides of
member ids and their places, equal places a tie). :func:`rate_matches` recomputes every rating
from nothing, in the order the games finished (ties of time broken by the game's id), so the
same results give the same ratings however they are listed and a correction to an old game
moves every later rating the same way every time. A member who does not play a game keeps
their rating through it.

The figure a club reads is the conservative ``mu − 3σ`` (openskill's ``ordinal``: the skill
the member very probably has at least) on a scale of ``1000 + 40 · (mu − 3σ)``: a newcomer
(``mu`` 25, ``σ`` 25/3) starts at exactly 1000, and a steady winner climbs towards 1700–1800
as the uncertainty shrinks. ``certainty`` says how far ``σ`` has come down from a newcomer's
(0 % the first evening). ``docs/decisions.md`` ("Charts and ratings (issue 29)") says why
Plackett–Luce and these numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

# The scale a club reads: 1000 + 40 · (mu − 3σ); a newcomer is 1000.
SCALE_ORIGIN = 1000.0
SCALE_STEP = 40.0
SIGMAS_BELOW = 3.0


def new_model() -> PlackettLuce:
    """The model every rating is computed with: openskill's defaults (mu 25, σ 25/3,
    β 25/6, τ 25/300), the same for every club and family."""
    return PlackettLuce()


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
    never depends on how the games were listed)."""

    family: str
    members: tuple[MemberRating, ...]

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
    return FamilyRatings(family, tuple(rows))


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
