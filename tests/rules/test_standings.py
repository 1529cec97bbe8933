"""docs/events.md#scoring-an-event — match points, difference, points and the standings, one test
per clause, named after it, with the expected values worked out by hand."""

from __future__ import annotations

import json
import random
import time
from decimal import Decimal

import pytest

from service.domain.events.standings import (
    Standings,
    TableResult,
    differences,
    match_points,
    standings,
)

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ivo"]


def table(round_: int, number: int, columns: list[list[int]] | list[int], totals: list[int],
          state: str = "finished") -> TableResult:
    cols = tuple(tuple(c) if isinstance(c, list) else (c,) for c in columns)
    return TableResult(round_, number, cols, tuple(totals), state)  # type: ignore[arg-type]


def by_entrant(result: Standings) -> dict[int, tuple[int, int, Decimal, int]]:
    return {r.entrant: (r.place, r.match_points, r.difference, r.points) for r in result.rows}


# -- match points -----------------------------------------------------------------------------------


def test_match_points_two_sides_win_two_draw_one_loss_nothing() -> None:
    assert match_points([152, 140]) == [2, 0]
    assert match_points([40, 93]) == [0, 2]
    assert match_points([70, 70]) == [1, 1]


def test_match_points_three_players_by_rank_four_two_nothing() -> None:
    assert match_points([30, 50, 10]) == [2, 4, 0]


def test_match_points_four_players_by_rank_six_four_two_nothing() -> None:
    assert match_points([5, -3, 12, 0]) == [4, 0, 6, 2]


def test_match_points_three_players_ties_share() -> None:
    assert match_points([50, 50, 10]) == [3, 3, 0]   # (4 + 2) / 2
    assert match_points([50, 10, 10]) == [4, 1, 1]   # (2 + 0) / 2
    assert match_points([7, 7, 7]) == [2, 2, 2]


def test_match_points_four_players_ties_share() -> None:
    assert match_points([9, 9, 1, 0]) == [5, 5, 2, 0]     # (6 + 4) / 2
    assert match_points([9, 4, 4, 0]) == [6, 3, 3, 0]     # (4 + 2) / 2
    assert match_points([9, 4, 0, 0]) == [6, 4, 1, 1]     # (2 + 0) / 2
    assert match_points([4, 4, 4, 0]) == [4, 4, 4, 0]     # (6 + 4 + 2) / 3
    assert match_points([9, 0, 0, 0]) == [6, 2, 2, 2]     # (4 + 2 + 0) / 3
    assert match_points([1, 1, 1, 1]) == [3, 3, 3, 3]


# -- difference and points ---------------------------------------------------------------------------


def test_difference_two_sides_own_minus_opponents() -> None:
    assert differences([152, 140]) == [Decimal(12), Decimal(-12)]


def test_difference_players_on_their_own_minus_table_average_to_one_decimal() -> None:
    assert differences([10, 20, 30]) == [Decimal(-10), Decimal(0), Decimal(10)]
    # average 32/3 = 10.666...: 10 - 10.67 = -0.67 -> -0.7; 11 - 10.67 = 0.33 -> 0.3
    assert differences([10, 11, 11]) == [Decimal("-0.7"), Decimal("0.3"), Decimal("0.3")]
    # average 7/4 = 1.75: halves round away from zero (ROUND_HALF_UP)
    assert differences([0, 1, 2, 4]) == [Decimal("-1.8"), Decimal("-0.8"), Decimal("0.3"),
                                         Decimal("2.3")]


def test_points_are_the_column_total_marca_for_mitigatti() -> None:
    result = standings(NAMES[:3], [table(1, 1, [0, 1, 2], [6, -2, -4])], {})
    assert by_entrant(result) == {0: (1, 4, Decimal("6.0"), 6), 1: (2, 2, Decimal("-2.0"), -2),
                                  2: (3, 0, Decimal("-4.0"), -4)}


def test_individual_each_player_credited_the_result_of_their_side() -> None:
    result = standings(NAMES[:4], [table(1, 1, [[0, 2], [1, 3]], [160, 124])], {})
    assert by_entrant(result) == {0: (1, 2, Decimal(36), 160), 2: (1, 2, Decimal(36), 160),
                                  1: (3, 0, Decimal(-36), 124), 3: (3, 0, Decimal(-36), 124)}
    row = result.rows[0]
    assert row.rounds[0].partners == (2,) and row.rounds[0].opponents == (1, 3)
    assert row.explanation[0] == ("round 1, table 1, with Carla: 160 against 124; match points "
                                  "2, difference +36, points 160")


# -- scoring "difference" ---------------------------------------------------------------------------


def test_scoring_difference_ranks_by_sum_of_differences() -> None:
    # Anna wins twice by 1; Bruno loses once by 1 and wins once by 30.
    results = [table(1, 1, [0, 2], [101, 100]), table(1, 2, [1, 3], [100, 101]),
               table(2, 1, [0, 3], [101, 100]), table(2, 2, [1, 2], [130, 100])]
    by_mp = standings(NAMES[:4], results, {})
    by_diff = standings(NAMES[:4], results, {}, scoring="difference")
    assert [r.entrant for r in by_mp.rows][:2] == [0, 1]
    assert [r.entrant for r in by_diff.rows][:2] == [1, 0]
    assert by_diff.rows[0].difference == Decimal(29)


# -- standings --------------------------------------------------------------------------------------


def test_standings_by_match_points_then_difference_then_points() -> None:
    results = [table(1, 1, [0, 1], [120, 100]),   # Anna +20
               table(1, 2, [2, 3], [150, 130]),   # Carla +20, more points
               table(1, 3, [4, 5], [90, 60])]     # Elena +30
    order = [r.entrant for r in standings(NAMES[:6], results, {}).rows]
    assert order == [4, 2, 0, 3, 1, 5]


def test_standings_then_the_result_of_their_meetings() -> None:
    # Anna and Bruno end level on match points, difference and points; Anna won their meeting.
    results = [table(1, 1, [0, 1], [110, 100]), table(2, 1, [1, 2], [110, 100]),
               table(2, 2, [0, 3], [100, 110])]
    rows = standings(NAMES[:4], results, {}).rows
    assert [(r.place, r.entrant) for r in rows] == [(1, 3), (2, 0), (3, 1), (4, 2)]
    assert "behind Anna on their meetings: 0 to 2" in rows[2].explanation
    assert "ahead of Bruno on their meetings: 2 to 0" in rows[1].explanation


def test_standings_meetings_rank_a_group_that_all_met() -> None:
    # Anna, Bruno and Carla: 4 match points, difference 0, 420 points each. Among them Anna
    # beat Bruno and Carla, Bruno beat Carla: 4, 2 and 0 points from their meetings.
    results = [
        table(1, 1, [0, 1], [110, 100]), table(1, 2, [2, 4], [110, 100]),
        table(1, 3, [3, 5], [100, 200]),
        table(2, 1, [0, 2], [110, 100]), table(2, 2, [1, 5], [100, 110]),
        table(2, 3, [3, 4], [100, 200]),
        table(3, 1, [0, 3], [100, 110]), table(3, 2, [1, 2], [110, 100]),
        table(3, 3, [4, 5], [100, 110]),
        table(4, 1, [0, 4], [100, 110]), table(4, 2, [1, 3], [110, 100]),
        table(4, 3, [2, 5], [110, 100]),
    ]
    rows = standings(NAMES[:6], results, {}).rows
    assert [(r.place, r.entrant, r.match_points) for r in rows] == [
        (1, 5, 6), (2, 4, 4), (3, 0, 4), (4, 1, 4), (5, 2, 4), (6, 3, 2)]
    assert rows[3].explanation[-2:] == ("behind Anna on their meetings: 2 to 4",
                                        "ahead of Carla on their meetings: 2 to 0")


def test_standings_meetings_separate_only_where_missing_meetings_could_not_change_it() -> None:
    # Anna, Bruno, Carla, Dario level. Anna beat Bruno, Carla beat Dario, Dario beat Anna;
    # Bruno met neither Carla nor Dario, and could have beaten both: all four share.
    results = [table(1, 1, [0, 1], [110, 100]), table(1, 2, [2, 3], [110, 100]),
               table(1, 3, [4, 5], [200, 100]),
               table(2, 1, [0, 3], [100, 110]), table(2, 2, [1, 4], [110, 100]),
               table(2, 3, [2, 5], [100, 110])]
    rows = standings(NAMES[:6], results, {}).rows
    assert [(r.place, r.entrant) for r in rows] == [(1, 4), (2, 0), (2, 1), (2, 2), (2, 3),
                                                    (6, 5)]


def test_standings_entrants_who_never_met_stay_tied() -> None:
    results = [table(1, 1, [0, 2], [100, 90]), table(1, 2, [1, 3], [100, 90])]
    rows = standings(NAMES[:4], results, {}).rows
    assert [(r.place, r.entrant) for r in rows] == [(1, 0), (1, 1), (3, 2), (3, 3)]
    assert rows[0].explanation[-1] == ("place 1 shared with Bruno: level on match points, "
                                       "difference and points, and they never met")


def test_standings_shared_place_skips_next() -> None:
    results = [table(1, 1, [0, 1], [100, 100]), table(1, 2, [2, 3], [100, 100]),
               table(1, 3, [4, 5], [50, 40])]
    rows = standings(NAMES[:6], results, {}).rows
    assert [r.place for r in rows] == [1, 2, 2, 2, 2, 6]
    # Anna and Bruno drew their meeting: the meeting does not separate them.
    assert rows[1].explanation[-1] == ("place 2 shared with Bruno, Carla, Dario: level on match "
                                       "points, difference and points, and their meetings do not "
                                       "separate them")


def test_standings_a_place_shared_by_many_names_five_and_counts_the_others() -> None:
    names = [f"Giocatore {n}" for n in range(40)]
    results = [table(1, k + 1, [2 * k, 2 * k + 1], [50, 50]) for k in range(20)]
    rows = standings(names, results, {}).rows
    assert {r.place for r in rows} == {1}
    assert rows[0].explanation[-1] == (
        "place 1 shared with Giocatore 1, Giocatore 2, Giocatore 3, Giocatore 4, Giocatore 5 "
        "and 34 others: level on match points, difference and points, and their meetings do "
        "not separate them")
    # Seven others: five named and two counted; five others: all named.
    six = standings(names[:8], results[:4], {}).rows
    assert six[7].explanation[-1].startswith(
        "place 1 shared with Giocatore 0, Giocatore 1, Giocatore 2, Giocatore 3, Giocatore 4 "
        "and 2 others: ")
    five = standings(names[:6], results[:3], {}).rows
    assert five[0].explanation[-1].startswith(
        "place 1 shared with Giocatore 1, Giocatore 2, Giocatore 3, Giocatore 4, "
        "Giocatore 5: ")


def test_standings_provisional_while_a_table_is_playing() -> None:
    results = [table(1, 1, [0, 1], [60, 20], "playing"), table(1, 2, [2, 3], [10, 0])]
    result = standings(NAMES[:4], results, {})
    assert result.provisional
    assert result.rows[0].entrant == 0 and result.rows[0].match_points == 2
    assert result.rows[0].explanation[0] == ("round 1, table 1: 60 against 20; match points 2, "
                                             "difference +40, points 60; still playing: counted "
                                             "as it stands")
    assert not standings(NAMES[:4], results[1:], {}).provisional


def test_round_closed_unfinished_game_counts_at_its_current_totals() -> None:
    result = standings(NAMES[:2], [table(1, 1, [0, 1], [300, 420], "closed")], {})
    assert not result.provisional
    assert by_entrant(result)[1] == (1, 2, Decimal(120), 420)
    assert result.rows[0].explanation[0].endswith("closed before the end: counted as it stood")


def test_bye_scores_an_average_table() -> None:
    # Two columns: a draw's 1 match point; difference 0, points 0.
    result = standings(NAMES[:3], [table(1, 1, [0, 1], [100, 90])], {1: [2]})
    assert by_entrant(result)[2] == (2, 1, Decimal(0), 0)
    row = next(r for r in result.rows if r.entrant == 2)
    assert row.rounds[0].state == "bye" and row.rounds[0].table is None
    assert row.explanation[0] == ("round 1: a bye, scored as an average table: match points 1, "
                                  "difference 0, points 0")
    # Three columns: 2; four columns: 3.
    three = standings(NAMES[:4], [table(1, 1, [0, 1, 2], [5, 3, 1])], {1: [3]}, columns=3)
    assert by_entrant(three)[3][1] == 2
    four = standings(NAMES[:5], [table(1, 1, [0, 1, 2, 3], [5, 3, 1, 0])], {1: [4]},
                     columns=4)
    assert by_entrant(four)[4][1] == 3


@pytest.mark.parametrize("columns", [2, 3, 4])
def test_bye_scores_an_average_table_before_its_round_s_first_hand_too(columns: int) -> None:
    # A bye is worth the event's average table, whether the round's tables have a hand
    # yet or not: not a two-column table's (1) before, the round's (2 or 3) after.
    players = list(range(columns))
    waiting = standings(NAMES[:columns + 1], [], {1: [columns]}, columns=columns)
    played = standings(NAMES[:columns + 1],
                       [table(1, 1, players, list(range(columns, 0, -1)), "playing")],
                       {1: [columns]}, columns=columns)
    assert by_entrant(waiting)[columns][1] == by_entrant(played)[columns][1] == columns - 1
    bye = next(r for r in waiting.rows if r.entrant == columns)
    assert bye.explanation[0] == next(
        r for r in played.rows if r.entrant == columns).explanation[0]


def test_each_row_says_how_it_was_reached() -> None:
    results = [table(1, 1, [0, 1], [120, 100]), table(2, 1, [0, 2], [90, 100]),
               table(2, 2, [1, 3], [100, 100])]
    rows = standings(NAMES[:4], results, {1: [2, 3]}).rows
    anna = next(r for r in rows if r.entrant == 0)
    assert anna.explanation == (
        "round 1, table 1: 120 against 100; match points 2, difference +20, points 120",
        "round 2, table 1: 90 against 100; match points 0, difference -10, points 90",
        "behind Carla on match points: 2 to 3",
        "ahead of Dario on difference: +10 to 0",
    )
    assert anna.explanation[2].template == "behind {name} on {criterion}: {mine} to {theirs}"


def test_standings_to_json_difference_is_a_number_with_one_decimal_at_most() -> None:
    result = standings(NAMES[:3], [table(1, 1, [0, 1, 2], [10, 11, 11])], {})
    data = result.to_json()
    json.dumps(data)
    rows = data["rows"]
    assert isinstance(rows, list)
    assert [r["difference"] for r in rows] == [0.3, 0.3, -0.7]
    whole = standings(NAMES[:2], [table(1, 1, [0, 1], [10, 4])], {}).to_json()["rows"]
    assert isinstance(whole, list) and whole[0]["difference"] == 6
    assert isinstance(whole[0]["difference"], int)


def test_an_entrant_credited_twice_in_a_round_is_refused() -> None:
    with pytest.raises(ValueError):
        standings(NAMES[:4], [table(1, 1, [0, 1], [1, 0]), table(1, 2, [0, 2], [1, 0])], {})
    with pytest.raises(ValueError):
        TableResult(1, 1, ((0,), (1,)), (1,), "finished")


def test_standings_of_a_160_entrant_event_are_quick() -> None:
    rng = random.Random(1)
    names = [f"P{i}" for i in range(160)]
    results = []
    for round_ in range(1, 7):
        order = list(range(160))
        rng.shuffle(order)
        for t in range(40):
            a, b, c, d = order[4 * t:4 * t + 4]
            results.append(table(round_, t + 1, [[a, c], [b, d]],
                                 [rng.randrange(0, 300), rng.randrange(0, 300)]))
    start = time.perf_counter()
    result = standings(names, results, {})
    assert time.perf_counter() - start < 1.0
    assert len(result.rows) == 160


def test_standings_without_their_sentences_place_and_sum_as_with_them() -> None:
    results = [table(1, 1, [[0, 2], [1, 3]], [90, 72]), table(1, 2, [[4, 6], [5, 7]], [81, 81]),
               table(2, 1, [[0, 5], [2, 7]], [60, 102], "playing")]
    explained = standings(NAMES, results, {})
    bare = standings(NAMES, results, {}, explained=False)
    assert [(r.place, r.entrant, r.match_points, r.difference, r.points, r.rounds)
            for r in bare.rows] == [
        (r.place, r.entrant, r.match_points, r.difference, r.points, r.rounds)
        for r in explained.rows]
    assert bare.provisional == explained.provisional
    assert all(r.explanation for r in explained.rows)
    assert not any(r.explanation for r in bare.rows)
