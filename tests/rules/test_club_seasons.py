"""docs/clubs.md's seasons and results, in the rules core: "Words" (a season
sums what the club decides: ``sum``, ``best_n`` of a member's evenings, ``average``; ties as
in docs/events.md), "Linking results to members" (a season counts the club's games of its
families finished within its dates; an event is one evening, dated by its last round, never
counted twice), "Bad input" (reversed dates, unknown families: each field named),
"Pictures" (the season's top places evening by evening: the figures the chart draws)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from itertools import accumulate
from typing import Any

import pytest

from service.domain import (
    ClubResult,
    RecordInvalid,
    Season,
    season_standings,
    validate_season,
)
from service.domain.clubs import places
from service.domain.clubs.links import RosterEntry, choose_members

FAMILIES = ("gatti", "mitigatti", "ottocento")
ROSTER = [("a", "Anna"), ("b", "Bruno"), ("c", "Carla"), ("d", "Dario")]
UTC = dt.UTC


def row(game: str, seat: int, member: str, totals: tuple[int, ...], column: int, *,
        day: int = 5, family: str = "gatti", event: str | None = None,
        round_: int | None = None, table: int | None = None) -> ClubResult:
    place, shared = places(totals)[column]
    return ClubResult(
        club="k", game=game, seat=seat, member=member, counted_for=member, event=event,
        round=round_, table=table, family=family, variant=f"{family}-x",
        finished_at=dt.datetime(2026, 3, day, 22, 0, tzinfo=UTC), column=column, place=place,
        shared=shared, partners=(), opponents=(), totals=totals, hands=3, marca=None,
        state="finished")


def game(name: str, scores: dict[str, int], **kwargs: object) -> list[ClubResult]:
    """A game where each member is on their own (a column each), in the order given."""
    totals = tuple(scores.values())
    return [row(name, i, m, totals, i, **kwargs)  # type: ignore[arg-type]
            for i, m in enumerate(scores)]


def season(**kwargs: object) -> Season:
    raw = {"name": "Primavera", "from": "2026-03-01", "to": "2026-05-31", **kwargs}
    return validate_season(raw, FAMILIES)


def places_of(found: object, roster: list[tuple[str, str]] = ROSTER) -> dict[str, int]:
    names = dict(roster)
    out = {}
    for r in found.standings.rows:  # type: ignore[attr-defined]
        out[names[found.members[r.entrant]]] = r.place  # type: ignore[attr-defined]
    return out


def test_bad_input_a_season_whose_dates_are_reversed_names_to() -> None:
    with pytest.raises(RecordInvalid) as caught:
        season(**{"from": "2026-06-01"})
    assert [(p.field, p.code) for p in caught.value.problems] == [("to", "dates_reversed")]


def test_bad_input_every_problem_of_a_season_at_once() -> None:
    with pytest.raises(RecordInvalid) as caught:
        validate_season({"name": "", "from": "x", "to": "2026-02-30",
                         "families": ["gatti", "briscola"], "counting": "best_n"}, FAMILIES)
    assert {(p.field, p.code) for p in caught.value.problems} == {
        ("name", "missing_name"), ("from", "invalid_date"), ("to", "invalid_date"),
        ("families[1]", "unknown_family"), ("n", "invalid_best_n")}


def test_words_a_season_counts_sum_by_default_over_every_family() -> None:
    found = season()
    assert found.counting == "sum" and found.families == () and found.best_n is None


def test_words_sum_adds_each_evenings_match_points_ties_as_in_events() -> None:
    rows = [*game("g1", {"a": 30, "b": 20, "c": 10}, day=3),
            *game("g2", {"a": 10, "b": 20, "c": 30}, day=4)]
    found = season_standings(season(), rows, ROSTER)
    # Anna: 4 + 0, Bruno: 2 + 2, Carla 0 + 4; all 4 match points. Difference: Anna +10-10,
    # Bruno 0, Carla -10+10: level; points level: their meetings (each beat each once).
    assert {r.match_points for r in found.standings.rows} == {4}
    assert set(places_of(found).values()) == {1}
    assert all(r.explanation for r in found.standings.rows)
    assert [e.key for e in found.evenings] == [("game", "g1"), ("game", "g2")]


def test_linking_a_season_counts_its_dates_and_families_only() -> None:
    gatti = season(families=["gatti"], **{"from": "2026-03-05", "to": "2026-03-05"})
    found = season_standings(gatti, [*game("in", {"a": 30, "b": 20}, day=5),
                                     *game("late", {"b": 30, "a": 20}, day=5,
                                           family="mitigatti"),
                                     *game("before", {"b": 30, "a": 20}, day=4)], ROSTER)
    assert [e.key for e in found.evenings] == [("game", "in")]
    assert places_of(found) == {"Anna": 1, "Bruno": 2}


def test_linking_an_event_is_one_evening_dated_by_its_last_round() -> None:
    """Its rounds are rounds of the season's standings, counted once each; the event's
    last round closed on the 1st of April, so a season of March does not count it."""
    first = [row("t1", s, m, (30, 20), s, event="e", round_=1, table=1, day=31)
             for s, m in enumerate("ab")]
    second = [row("t2", s, m, (10, 40), s, event="e", round_=2, table=1, day=31)
              for s, m in enumerate("ab")]
    second = [replace(r, finished_at=dt.datetime(2026, 4, 1, 0, 30, tzinfo=UTC))
              for r in second]
    march = season(**{"from": "2026-03-01", "to": "2026-03-31"})
    assert season_standings(march, [*first, *second], ROSTER).evenings == ()
    spring = season()
    found = season_standings(spring, [*first, *second], ROSTER)
    assert [(e.key, e.rounds) for e in found.evenings] == [(("event", "e"), (1, 2))]
    anna = next(r for r in found.standings.rows if found.members[r.entrant] == "a")
    assert [e.round for e in anna.rounds] == [1, 2] and anna.match_points == 2


def test_words_best_n_keeps_each_members_best_evenings() -> None:
    rows = [*game("g1", {"a": 30, "b": 20}, day=3), *game("g2", {"a": 10, "b": 20}, day=4),
            *game("g3", {"a": 10, "b": 20}, day=5)]
    assert places_of(season_standings(season(), rows, ROSTER)) == {"Bruno": 1, "Anna": 2}
    best = season_standings(season(counting="best_n", n=1), rows, ROSTER)
    # Each keeps one evening: Anna's win in g1 (2), Bruno's first win, g2 (2); tied on match
    # points, Anna's difference +10 equals Bruno's +10, points 30 against 20.
    assert places_of(best) == {"Anna": 1, "Bruno": 2}
    bruno = next(r for r in best.standings.rows if best.members[r.entrant] == "b")
    assert [e.round for e in bruno.rounds] == [2]


def test_words_average_divides_by_each_members_evenings() -> None:
    rows = [*game("g1", {"a": 30, "b": 20, "c": 10}, day=3),
            *game("g2", {"b": 30, "c": 20}, day=4), *game("g3", {"b": 30, "c": 20}, day=5)]
    found = season_standings(season(counting="average"), rows, ROSTER)
    by = {found.members[r.entrant]: r for r in found.standings.rows}
    assert by["a"].match_points == Decimal(4)  # one evening, won: 4
    assert by["b"].match_points == Decimal("2.0")  # (2 of 4 at three, then 2 and 2) / 3
    assert by["c"].match_points == Decimal("0.0")
    assert places_of(found)["Anna"] == 1
    assert any("averaged over 3 evenings" in str(line) for line in by["b"].explanation)


def test_words_places_are_shared_and_the_next_skips() -> None:
    assert places((10, 10, 5)) == [(1, 2), (1, 2), (3, 1)]


def test_linking_a_name_of_the_roster_or_a_new_one_and_each_member_once() -> None:
    roster = [RosterEntry("a", "Anna", "anna", None, False),
              RosterEntry("x", "Anny", "anny", "a", False),
              RosterEntry("f", "Player 3", "player 3", None, True)]
    chosen = choose_members([(f"p[{i}]", seat) for i, seat in enumerate(
        ["ANNA", "Zeno", {"member": "f"}, "zeno", "anny"])], roster)
    assert chosen.members[:2] == ("a", None) and chosen.new == ((1, "Zeno"),)
    assert [(p.field, p.code) for p in chosen.problems] == [
        ("p[2]", "member_forgotten"), ("p[3]", "duplicate_member"), ("p[4]", "duplicate_member")]


def test_words_a_member_counts_once_at_a_table_whatever_merges_say() -> None:
    """Two seats counted for one member (a merge of two who met, made before the check that
    refuses it): the member is credited at their first seat only, never twice."""
    rows = [replace(r, counted_for="a") if r.seat == 1 else r
            for r in game("g1", {"a": 30, "b": 20, "c": 10})]
    found = season_standings(season(), rows, ROSTER)
    assert places_of(found) == {"Anna": 1, "Carla": 2}
    anna = next(r for r in found.standings.rows if found.members[r.entrant] == "a")
    assert anna.match_points == 4 and len(anna.rounds) == 1


# -- docs/clubs.md#pictures: the season's standings, a chart of the top places evening by evening


SIX = [("a", "Anna"), ("b", "Bruno"), ("c", "Carla"), ("d", "Dario"), ("e", "Elena"),
       ("f", "Franco")]


def earned(scores: dict[str, int]) -> dict[str, int]:
    """docs/events.md's match points at a table of players on their own, worked out here: 2 for
    every player beaten, 1 for every tie."""
    return {m: sum(2 if own > other else 1 if own == other else 0
                   for n, other in scores.items() if n != m) for m, own in scores.items()}


def a_season_of_evenings() -> tuple[list[ClubResult], list[dict[str, int]]]:
    """Six evenings of six members (a stand-alone game each, and an event of two rounds);
    with each evening's match points by member, summed here from its tables."""
    tables = [
        [("g1", {"a": 30, "b": 20, "c": 10})],
        [("g2", {"d": 40, "e": 30, "f": 20})],
        [("e1", {"a": 20, "d": 20, "f": 10}), ("e2", {"f": 30, "a": 10, "d": 20})],
        [("g3", {"b": 10, "c": 30})],
        [("g4", {"c": 10, "e": 20, "b": 30})],
        [("g5", {"a": 10, "b": 20, "c": 30, "d": 40})],
    ]
    rows: list[ClubResult] = []
    nights: list[dict[str, int]] = []
    for day, evening in enumerate(tables, start=3):
        night: dict[str, int] = {}
        for number, (name, scores) in enumerate(evening, start=1):
            if name.startswith("e"):
                rows += game(name, scores, day=day, event="ev", round_=number, table=1)
            else:
                rows += game(name, scores, day=day)
            for member, points in earned(scores).items():
                night[member] = night.get(member, 0) + points
        nights.append(night)
    return rows, nights


def running_of(found: Any) -> dict[str, tuple[object, ...]]:
    return {found.members[line.entrant]: line.values for line in found.leaders}


def test_pictures_the_top_places_evening_by_evening_sum_each_evening_so_far() -> None:
    rows, nights = a_season_of_evenings()
    found = season_standings(season(), rows, SIX)
    assert len(found.evenings) == 6 and found.evenings[2].rounds == (3, 4)
    # The first five rows of the standings, in their order (Franco, sixth, is not followed).
    assert [line.entrant for line in found.leaders] == [
        r.entrant for r in found.standings.rows[:5]]
    assert len(found.standings.rows) == 6
    for member, values in running_of(found).items():
        assert values == tuple(accumulate((n.get(member, 0) for n in nights), initial=0))
    for row, line in zip(found.standings.rows, found.leaders, strict=False):
        assert line.values[-1] == row.match_points  # the last figure is the row's own


def test_pictures_best_n_keeps_each_members_best_evenings_so_far() -> None:
    rows, nights = a_season_of_evenings()
    found = season_standings(season(counting="best_n", n=2), rows, SIX)
    for member, values in running_of(found).items():
        played: list[int] = []
        expected: list[int] = [0]
        for night in nights:
            if member in night:
                played.append(night[member])
            expected.append(sum(sorted(played, reverse=True)[:2]))
        assert values == tuple(expected)
    for row, line in zip(found.standings.rows, found.leaders, strict=False):
        assert line.values[-1] == row.match_points


def test_pictures_average_over_each_members_evenings_so_far_none_before_the_first() -> None:
    rows, nights = a_season_of_evenings()
    found = season_standings(season(counting="average"), rows, SIX)
    for member, values in running_of(found).items():
        played: list[int] = []
        expected: list[Decimal | None] = [None]
        for night in nights:
            if member in night:
                played.append(night[member])
            expected.append((Decimal(sum(played)) / len(played)).quantize(
                Decimal("0.1"), rounding=ROUND_HALF_UP) if played else None)
        assert values == tuple(expected)
    dario = running_of(found)["d"]
    assert dario[:2] == (None, None) and dario[2] is not None  # his first: the second
    for row, line in zip(found.standings.rows, found.leaders, strict=False):
        assert line.values[-1] == row.match_points


def test_words_average_ranks_on_exact_averages_and_shows_one_decimal() -> None:
    """Anna averages 13/4 = 3.25 match points, Bruno 10/3 = 3.33: both show 3.3, and Bruno
    is ahead on match points, though Anna's difference is the better (+31.7 to +6.7)."""
    rows = [*game("a1", {"a": 90, "c": 20, "d": 10}, day=3),   # Anna 4, difference +50
            *game("a2", {"a": 90, "c": 20, "d": 10}, day=4),   # 4
            *game("a3", {"a": 90, "c": 20, "d": 10}, day=5),   # 4
            *game("a4", {"a": 20, "c": 20, "d": 90}, day=6),   # 1 (shared second)
            *game("b1", {"b": 30, "c": 20, "d": 10}, day=7),   # Bruno 4, difference +10
            *game("b2", {"b": 30, "c": 20, "d": 10}, day=8),   # 4
            *game("b3", {"c": 50, "b": 40, "d": 30}, day=9)]   # 2, difference +0
    found = season_standings(season(counting="average"), rows, ROSTER)
    by = {found.members[r.entrant]: r for r in found.standings.rows}
    assert by["a"].match_points == by["b"].match_points == Decimal("3.3")
    assert places_of(found)["Bruno"] == 1 and places_of(found)["Anna"] == 2
    assert "ahead of Anna on match points: 3.33 to 3.25" in [
        str(line) for line in by["b"].explanation]
