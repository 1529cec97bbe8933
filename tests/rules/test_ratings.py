"""docs/clubs.md#ratings: a rating per member and family with openskill's
Plackett–Luce model, pair games rating sides and games on one's own rating places,
recomputed in finishing order, ``mu − 3σ`` shown on a readable scale with its certainty.

The season below is checked against the library fed the same matches by hand, game by game,
so the service's bookkeeping (order, sides, ties, who keeps what) is what is under test."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from service.application.ratings import (
    FamilyRatings,
    RatedMatch,
    rate_matches,
    shown_rating,
)

THURSDAY = datetime(2026, 10, 1, 21, 0, tzinfo=UTC)


def _evening(week: int, minutes: int = 0) -> datetime:
    return THURSDAY + timedelta(weeks=week, minutes=minutes)


# A season of two families: Ottocento and Mitigatti on one's own (places, one tie), Gatti in
# pairs (sides, one drawn rubber), over five Thursdays; Elena plays only the first evening.
SEASON = [
    RatedMatch.alone("ottocento", _evening(0), "g01", {"anna": 1, "bruno": 2, "carla": 3}),
    RatedMatch.in_sides("gatti", _evening(0, 50), "g02", [["anna", "bruno"], ["carla", "elena"]],
                        [1, 2]),
    RatedMatch.alone("mitigatti", _evening(1), "g03",
                     {"anna": 3, "bruno": 1, "carla": 2, "dario": 4}),
    RatedMatch.in_sides("gatti", _evening(1, 40), "g04", [["bruno", "dario"], ["anna", "carla"]],
                        [1, 2]),
    RatedMatch.alone("ottocento", _evening(2), "g05", {"dario": 1, "anna": 2, "carla": 2}),
    RatedMatch.in_sides("gatti", _evening(2, 30), "g06", [["anna", "dario"], ["bruno", "carla"]],
                        [1, 1]),
    RatedMatch.alone("mitigatti", _evening(3), "g07",
                     {"anna": 1, "bruno": 4, "carla": 3, "dario": 2}),
    RatedMatch.alone("ottocento", _evening(4), "g08", {"bruno": 1, "carla": 2, "dario": 3}),
    RatedMatch.in_sides("gatti", _evening(4, 45), "g09", [["carla", "dario"], ["anna", "bruno"]],
                        [2, 1]),
]


def _library_by_hand(matches: list[RatedMatch]) -> dict[str, dict[str, PlackettLuceRating]]:
    """The same matches fed straight to openskill, one family's ratings in a dictionary."""
    model = PlackettLuce()
    ratings: dict[str, dict[str, PlackettLuceRating]] = {}
    for match in sorted(matches, key=lambda m: (m.finished_at, m.game)):
        family = ratings.setdefault(match.family, {})
        teams = [[family.get(member, model.rating()) for member in side] for side in match.sides]
        for side, rated in zip(match.sides, model.rate(teams, ranks=list(match.places)),
                               strict=True):
            family.update(zip(side, rated, strict=True))
    return ratings


def _numbers(tables: dict[str, FamilyRatings]) -> dict[tuple[str, str], tuple[float, float]]:
    return {(family, row.member): (row.mu, row.sigma)
            for family, table in tables.items() for row in table.members}


def test_ratings_a_season_equals_the_librarys_own_results() -> None:
    tables = rate_matches(SEASON)
    expected = _library_by_hand(SEASON)
    assert set(tables) == set(expected) == {"gatti", "mitigatti", "ottocento"}
    for family, members in expected.items():
        table = tables[family]
        assert {row.member for row in table.members} == set(members)
        for member, rating in members.items():
            row = table.of(member)
            assert row is not None
            assert row.mu == pytest.approx(rating.mu, rel=1e-12)
            assert row.sigma == pytest.approx(rating.sigma, rel=1e-12)
            assert row.rating == pytest.approx(rating.ordinal(alpha=40, target=1000), rel=1e-12)


def test_ratings_the_shown_figure_is_mu_minus_three_sigma_on_the_clubs_scale() -> None:
    newcomer = PlackettLuce().rating()
    assert shown_rating(newcomer.mu, newcomer.sigma) == pytest.approx(1000.0)
    row = rate_matches(SEASON)["ottocento"].of("bruno")
    assert row is not None
    assert row.rating == pytest.approx(1000 + 40 * (row.mu - 3 * row.sigma))
    assert row.shown == round(row.rating)
    assert 0 < row.certainty < 1
    assert row.certainty == pytest.approx(1 - row.sigma / (25 / 3))


def test_ratings_recomputed_in_finishing_order_whatever_the_listing() -> None:
    reference = rate_matches(SEASON)
    for seed in range(5):
        shuffled = SEASON[:]
        random.Random(seed).shuffle(shuffled)
        assert rate_matches(shuffled) == reference


def test_ratings_games_finished_at_the_same_time_go_by_game_id() -> None:
    same_time = [
        RatedMatch.alone("ottocento", _evening(0), "b", {"anna": 1, "bruno": 2, "carla": 3}),
        RatedMatch.alone("ottocento", _evening(0), "a", {"anna": 3, "bruno": 2, "carla": 1}),
    ]
    table = rate_matches(same_time)["ottocento"]
    assert table == rate_matches(same_time[::-1])["ottocento"]
    anna = table.of("anna")
    assert anna is not None
    assert [point.game for point in anna.history] == ["a", "b"]
    # the order matters to the model, so the tie-break is not idle: "b" last means Anna's win
    # is the latest news, and she ends above Carla
    carla = table.of("carla")
    assert carla is not None and anna.mu > carla.mu


def test_ratings_a_correction_to_an_old_game_moves_every_later_rating_the_same_way() -> None:
    corrected = [RatedMatch.alone("ottocento", _evening(0), "g01",
                                  {"anna": 3, "bruno": 2, "carla": 1}), *SEASON[1:]]
    before = rate_matches(SEASON)["ottocento"]
    after = rate_matches(corrected)["ottocento"]
    assert after == rate_matches(list(reversed(corrected)))["ottocento"]
    for member in ("anna", "carla"):
        old, new = before.of(member), after.of(member)
        assert old is not None and new is not None
        assert [p.game for p in old.history] == [p.game for p in new.history]
        assert all(o.mu != n.mu for o, n in zip(old.history, new.history, strict=True))


def test_ratings_tied_places_share_the_result() -> None:
    by_hand = PlackettLuce()
    fresh = [[by_hand.rating()] for _ in range(3)]
    first, second, second_too = by_hand.rate(fresh, ranks=[1, 2, 2])
    assert second[0].mu == pytest.approx(second_too[0].mu)
    three = rate_matches([RatedMatch.alone("ottocento", _evening(0), "t",
                                           {"x": 1, "y": 2, "z": 2})])["ottocento"]
    y, z, x = three.of("y"), three.of("z"), three.of("x")
    assert y is not None and z is not None and x is not None
    assert y.mu == z.mu == pytest.approx(second[0].mu)
    assert x.mu == pytest.approx(first[0].mu) and x.mu > y.mu
    draw = rate_matches([RatedMatch.in_sides("gatti", _evening(0), "d",
                                             [["a", "b"], ["c", "d"]], [1, 1])])["gatti"]
    assert {round(row.mu, 9) for row in draw.members} == {25.0}


def test_ratings_a_pair_game_rates_sides() -> None:
    table = rate_matches([RatedMatch.in_sides("gatti", _evening(0), "p",
                                              [["anna", "bruno"], ["carla", "dario"]],
                                              [2, 1])])["gatti"]
    model = PlackettLuce()
    losers, winners = model.rate([[model.rating(), model.rating()],
                                  [model.rating(), model.rating()]], ranks=[2, 1])
    for member, expected in (("anna", losers[0]), ("bruno", losers[1]),
                             ("carla", winners[0]), ("dario", winners[1])):
        row = table.of(member)
        assert row is not None
        assert row.mu == pytest.approx(expected.mu)
        assert row.games == 1 and row.last_game == "p"
    # both partners of a side move together, the winners up and the losers down
    assert [row.member for row in table.members] == ["carla", "dario", "anna", "bruno"]
    carla, anna = table.of("carla"), table.of("anna")
    assert carla is not None and anna is not None
    assert carla.last_change > 0 > anna.last_change
    # a side is not two players on their own: four places would move the ratings otherwise
    alone = rate_matches([RatedMatch.alone("gatti", _evening(0), "q",
                                           {"anna": 2, "bruno": 2, "carla": 1, "dario": 1})])
    alone_carla = alone["gatti"].of("carla")
    assert alone_carla is not None and alone_carla.mu != pytest.approx(carla.mu)


def test_ratings_a_member_absent_keeps_their_rating() -> None:
    tables = rate_matches(SEASON)
    elena = tables["gatti"].of("elena")
    assert elena is not None
    after_first_evening = rate_matches(SEASON[:2])["gatti"].of("elena")
    assert after_first_evening is not None
    assert (elena.mu, elena.sigma, elena.games) == (after_first_evening.mu,
                                                   after_first_evening.sigma, 1)
    assert elena.last_game == "g02" and len(elena.history) == 1
    # nor does a member's rating in one family move with another family's games
    dario = tables["ottocento"].of("dario")
    assert dario is not None and dario.games == 2
    assert [point.game for point in dario.history] == ["g05", "g08"]


def test_ratings_each_member_has_the_history_of_their_rating() -> None:
    anna = rate_matches(SEASON)["gatti"].of("anna")
    assert anna is not None
    assert [point.game for point in anna.history] == ["g02", "g04", "g06", "g09"]
    assert anna.games == 4
    previous = 1000.0
    for point in anna.history:
        assert point.rating == pytest.approx(shown_rating(point.mu, point.sigma))
        assert point.change == pytest.approx(point.rating - previous)
        previous = point.rating
    assert anna.last_change == anna.history[-1].change
    assert anna.last_played == _evening(4, 45)
    assert (anna.mu, anna.sigma, anna.rating) == (anna.history[-1].mu, anna.history[-1].sigma,
                                                  anna.history[-1].rating)


def test_ratings_the_table_puts_the_best_first() -> None:
    for table in rate_matches(SEASON).values():
        ratings = [row.rating for row in table.members]
        assert ratings == sorted(ratings, reverse=True)


@pytest.mark.parametrize("sides, places", [
    ([["anna"]], [1]),
    ([["anna"], ["anna", "bruno"]], [1, 2]),
    ([["anna"], []], [1, 2]),
    ([["anna"], ["bruno"]], [1]),
])
def test_ratings_a_game_that_cannot_be_rated_is_refused(sides: list[list[str]],
                                                        places: list[int]) -> None:
    with pytest.raises(ValueError):
        RatedMatch.in_sides("gatti", _evening(0), "x", sides, places)


def test_ratings_a_game_is_counted_once() -> None:
    with pytest.raises(ValueError):
        rate_matches([SEASON[0], SEASON[0]])
