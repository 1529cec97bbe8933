"""Board scores (docs/events.md#duplicate, #scoring-a-board, #standings, #shapes): one test per
clause, named after it. The expected figures are worked out by hand in each test."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from service.domain import (
    BoardPlay,
    board_columns,
    board_standings,
    board_tops,
    find_variant,
    resolve_options,
    score_record,
    table_play,
    traveller,
    travellers,
)
from service.domain.duplicate import TablePlan, score_board

NAMES = ("Ada", "Bea", "Cid", "Dan", "Eva", "Fil", "Gio", "Ivo", "Lia")


def three_handed(board: int, results: list[tuple[int, int, int]], round_: int = 1,
                 first_entrant: int = 0) -> list[BoardPlay]:
    """A board of a 3-seat game (a column per seat) at one table per result: table ``t``
    seats entrants ``3t, 3t + 1, 3t + 2`` (from ``first_entrant``)."""
    plays = []
    for t, columns in enumerate(results):
        entrants = tuple((first_entrant + 3 * t + s) % len(NAMES) for s in range(3))
        plays.append(BoardPlay(board, round_, t + 1, f"game-{round_}-{t + 1}", board,
                               tuple(NAMES[e] for e in entrants),
                               tuple((e,) for e in entrants), columns))
    return plays


def test_results_are_compared_among_those_who_held_the_same_seat() -> None:
    """Seat 0's 30 is compared with the other seat 0s (20, 40), not with the 50 of seat 1
    at its own table."""
    scored = score_board(three_handed(1, [(30, 50, 0), (20, 10, 70), (40, 5, 35)]))
    assert [s.matchpoints[0] for s in scored] == [2, 0, 4]
    assert [s.matchpoints[1] for s in scored] == [4, 2, 0]
    assert [s.matchpoints[2] for s in scored] == [0, 4, 2]


def test_pair_games_compare_the_same_side() -> None:
    """Ottocento: side 0 with side 0; both players of a pair get their side's figures."""
    plays = [BoardPlay(1, 1, t, f"g{t}", 1, ("a", "b", "c", "d"),
                       ((4 * t, 4 * t + 2), (4 * t + 1, 4 * t + 3)), columns)
             for t, columns in enumerate([(60, 33), (40, 53)])]
    scored = score_board(plays)
    assert [s.matchpoints for s in scored] == [(2, 0), (0, 2)]
    rows = {r.entrant: r for r in board_standings([f"p{i}" for i in range(8)], plays).rows}
    assert rows[0].percentage == rows[2].percentage == 100
    assert rows[1].percentage == rows[3].percentage == 0
    assert rows[4].percentage == rows[6].percentage == 0
    assert rows[5].percentage == rows[7].percentage == 100


def test_matchpoints_earn_two_for_every_result_beaten_and_one_for_every_tie() -> None:
    """Seat 0 of five tables: 30 beats 20 and 10 and ties one 30: 2 + 2 + 1 = 5."""
    scored = score_board(three_handed(2, [(30, 0, 0), (20, 0, 0), (30, 0, 0), (10, 0, 0),
                                          (40, 0, 0)]))
    assert [s.matchpoints[0] for s in scored] == [5, 2, 5, 0, 8]
    assert [(s.beaten[0], s.tied[0]) for s in scored] == [(2, 1), (1, 0), (2, 1), (0, 0),
                                                          (4, 0)]


def test_matchpoints_are_shown_as_a_percentage_of_the_most_they_could_earn() -> None:
    """Five results: a top of 8; 5 of 8 is 62.5 %, 2 of 8 is 25 %."""
    plays = three_handed(2, [(30, 0, 0), (20, 0, 0), (30, 0, 0), (10, 0, 0), (40, 0, 0)])
    scored = score_board(plays)
    assert [s.tops[0] for s in scored] == [8] * 5
    assert [s.percentages[0] for s in scored] == [Fraction(125, 2), 25, Fraction(125, 2),
                                                  0, 100]
    row = traveller(2, plays).to_json()["results"][0]
    assert row["percentage"]["0"] == 62.5 and row["matchpoints"]["0"] == 5


def test_difference_is_the_result_minus_the_average_of_the_others_to_one_decimal() -> None:
    """10 against 21, 22 and 22: their average 21.67, the difference -11.7 (half up); 21
    against 10, 22, 22: +3; 22 against 10, 21, 22: 22 - 17.67 = +4.3."""
    scored = score_board(three_handed(3, [(10, 0, 0), (21, 0, 0), (22, 0, 0), (22, 0, 0)]))
    assert [s.differences[0] for s in scored] == [Decimal("-11.7"), Decimal("3.0"),
                                                  Decimal("4.3"), Decimal("4.3")]
    halves = score_board(three_handed(3, [(10, 0, 0), (20, 0, 0), (25, 0, 0)]))
    assert halves[0].differences[0] == Decimal("-12.5")  # 10 - 22.5


def test_a_board_played_at_one_table_only_scores_fifty_percent_or_zero_difference() -> None:
    plays = three_handed(4, [(60, 10, 8)])
    (scored,) = score_board(plays)
    assert scored.percentages == (50, 50, 50)
    assert scored.differences == (0, 0, 0)
    assert scored.matchpoints == (0, 0, 0) and scored.tops == (0, 0, 0)
    row = board_standings(NAMES, plays).rows[0]
    assert "the only result on the board: 50 %, difference 0" in row.explanation[0]


def columns_of(variant_id: str, points: tuple[int, int, int]) -> tuple[int, ...]:
    """``board_columns`` of a 3-handed hand whose dealer (seat 0) discarded 2H 3H 4H and
    whose piles made ``points``."""
    variant = find_variant(variant_id)
    record = {"dealer": 0, "discard": ["2H", "3H", "4H"],
              "piles": [{"side": s, "points": p} for s, p in enumerate(points)]}
    _, result = score_record(variant, resolve_options(variant, None), record)
    return board_columns(variant, result)


def test_the_result_compared_is_the_column_the_seat_received() -> None:
    """Gatti: the hand's score-sheet columns, in their order."""
    assert columns_of("gatti-3", (30, 28, 20)) == (30, 28, 20)


def test_mitigatti_compares_its_marca() -> None:
    """Mitigatti: each seat's marca for the hand, not its deck points: 20 (13 to 25) pays 1
    to the top scorer, 18 pays 1 too: +2, -1, -1."""
    assert columns_of("mitigatti-3", (40, 20, 18)) == (2, -1, -1)


def test_standings_rank_by_the_average_percentage_over_the_boards_played() -> None:
    """Ada plays one board (100 %), Gio two (50 %, 100 %: 75 %): Ada ranks above Gio though
    their matchpoints are equal (4) and Gio's points (120) beat hers (40)."""
    plays = (three_handed(1, [(40, 0, 0), (10, 0, 0), (30, 0, 0)], 1)
             + three_handed(2, [(0, 0, 0), (90, 0, 0)], 2, first_entrant=3))
    rows = {r.name: r for r in board_standings(NAMES, plays).rows}
    assert (rows["Ada"].boards, rows["Ada"].percentage, rows["Ada"].match_points,
            rows["Ada"].points) == (1, 100, 4, 40)
    assert (rows["Gio"].boards, rows["Gio"].percentage, rows["Gio"].match_points,
            rows["Gio"].points) == (2, 75, 4, 120)
    assert rows["Ada"].place == 1 and rows["Gio"].place == 2


def test_standings_rank_by_the_sum_of_differences_under_difference_scoring() -> None:
    """Seat 0: 40 against 10 and 21 (+24.5), 21 against 40 and 10 (-4), 10 (-20.5); the other
    seats all 0 (difference 0)."""
    plays = three_handed(1, [(40, 0, 0), (10, 0, 0), (21, 0, 0)])
    rows = board_standings(NAMES, plays, "difference").rows
    assert (rows[0].name, rows[0].difference) == ("Ada", Decimal("24.5"))
    assert [(r.name, r.difference) for r in rows[-2:]] == [("Gio", Decimal("-4.0")),
                                                           ("Dan", Decimal("-20.5"))]
    assert all(r.difference == 0 for r in rows[1:-2])


def test_standings_then_rank_by_the_sum_of_the_column_points() -> None:
    """Ada and Dan both make 50 % (0 % and 100 %, 100 % and 0 %); Ada's points (10 + 60)
    beat Dan's (20 + 30)."""
    plays = (three_handed(1, [(10, 0, 0), (20, 0, 0)], 1)
             + three_handed(2, [(60, 0, 0), (30, 0, 0)], 2))
    rows = board_standings(NAMES, plays).rows
    assert [(r.name, r.percentage, r.points) for r in rows[:2]] == [("Ada", 50, 70),
                                                                    ("Dan", 50, 50)]
    assert "behind Ada on points: 50 to 70" in rows[1].explanation


def test_rows_add_boards_and_percentage() -> None:
    plays = three_handed(1, [(40, 0, 0), (10, 0, 0), (20, 0, 0)])
    row = board_standings(NAMES, plays).to_json()["rows"][0]
    assert row["name"] == "Ada" and row["place"] == 1
    assert row["boards"] == 1 and row["percentage"] == 100
    assert row["match_points"] == 4 and row["points"] == 40
    assert row["results"] == [{"board": 1, "round": 1, "table": 1, "column": 0, "points": 40,
                               "matchpoints": 4, "top": 4, "percentage": 100,
                               "difference": 25}]


def test_each_row_explains_itself() -> None:
    """Each board in words, the sums, the neighbours' criteria, a shared place."""
    plays = three_handed(1, [(40, 0, 0), (10, 0, 0), (20, 0, 0)])
    rows = {r.name: r for r in board_standings(NAMES, plays).rows}
    assert list(rows["Gio"].explanation) == [
        ("board 1 (round 1, table 3): 20, better than 1, level with 0 and worse than 1 of the "
        "other results: matchpoints 2 of 4, 50 %"),
        "1 board played: 50 % on average, points 20",
        "behind Ada on percentage: 50 % to 100 %",
        "ahead of Bea on points: 20 to 0",
    ]
    # Bea, Cid, Eva, Fil, Ivo, Lia all made 0, level with each other: 50 %, one place.
    assert rows["Bea"].place == rows["Lia"].place == 3
    assert rows["Bea"].explanation[-1] == (
        "place 3 shared with Cid, Eva, Fil, Ivo, Lia: level on percentage and points, and "
        "nothing else separates them")


def test_an_entrant_who_has_played_no_board_says_so() -> None:
    plays = three_handed(1, [(40, 0, 0)])
    rows = {r.name: r for r in board_standings(NAMES, plays).rows}
    assert rows["Dan"].boards == 0 and rows["Dan"].percentage == 0
    assert rows["Dan"].explanation[0] == "no board played yet: 0 %, no points"


def test_a_traveller_lists_every_tables_result_on_its_board() -> None:
    """Round, table, game, hand, who sat where, the columns, matchpoints and percentage, in
    round and table order; the board's top."""
    plays = list(reversed(three_handed(5, [(40, 2, 0), (10, 2, 0)], 2)))
    plays += three_handed(6, [(1, 1, 1)], 2)
    got = traveller(5, plays).to_json()
    assert got == {"board": 5, "top": 2, "results": [
        {"round": 2, "table": 1, "game": "game-2-1", "hand": 5,
         "seats": ["Ada", "Bea", "Cid"], "columns": {"0": 40, "1": 2, "2": 0},
         "matchpoints": {"0": 2, "1": 1, "2": 1}, "percentage": {"0": 100, "1": 50, "2": 50}},
        {"round": 2, "table": 2, "game": "game-2-2", "hand": 5,
         "seats": ["Dan", "Eva", "Fil"], "columns": {"0": 10, "1": 2, "2": 0},
         "matchpoints": {"0": 0, "1": 1, "2": 1}, "percentage": {"0": 0, "1": 50, "2": 50}},
    ]}
    assert [t.board for t in travellers(plays)] == [5, 6]
    assert "difference" in traveller(5, plays).to_json("difference")["results"][0]


def test_nobody_plays_a_board_twice() -> None:
    plays = three_handed(1, [(1, 2, 3)]) + three_handed(1, [(1, 2, 3)], 2)
    with pytest.raises(ValueError, match="plays it twice"):
        board_standings(NAMES, plays)


def test_a_tables_columns_go_to_the_entrants_at_their_seats() -> None:
    """Column ``c`` is the entrant at seat ``c``: a player, or the pair on side ``c`` (pairs:
    seats 0 and 2 hold pair 4, seats 1 and 3 pair 7); with dummies the two players."""
    pairs = TablePlan(2, (4, 7, 4, 7), (5, 6))
    play = table_play(pairs, 1, 5, "g", 1, ["p4", "p7", "p4", "p7"], (60, 33))
    assert (play.board, play.round, play.table, play.entrants, play.columns) == (
        5, 1, 2, ((4,), (7,)), (60, 33))
    dummies = TablePlan(0, (3, 1, None, None), (1,))
    assert table_play(dummies, 0, 1, "g", 1, ["a", "b", "a's dummy", "b's dummy"],
                      (40, 32)).entrants == ((3,), (1,))
    with pytest.raises(ValueError, match="no entrant at seat 2"):
        table_play(dummies, 0, 1, "g", 1, ["a", "b", "", ""], (40, 32, 0))


def test_the_wall_shows_each_column_s_top_result_and_who_made_it() -> None:
    """docs/events.md#standings: the wall board shows the boards finished and their tops. A
    board's top in each column is its best result there: its points, matchpoints out of the
    top, percentage and difference, and every table that made it when they tie."""
    plays = three_handed(4, [(30, 50, 0), (40, 10, 70), (40, 5, 35)])
    tops = board_tops(list(reversed(plays)))  # in any order: by round and table
    assert [t.column for t in tops] == [0, 1, 2]
    first = tops[0]
    assert (first.board, first.points, first.matchpoints, first.top) == (4, 40, 3, 4)
    assert first.percentage == Fraction(75)
    assert first.difference == Decimal(5)  # 40 against the others' (30 + 40) / 2
    assert [p.table for p in first.plays] == [2, 3]
    assert (tops[1].points, tops[1].matchpoints, [p.table for p in tops[1].plays]) == \
        (50, 4, [1])
    assert (tops[2].points, tops[2].percentage) == (70, 100)
    assert board_tops([]) == ()
