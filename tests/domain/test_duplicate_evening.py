"""A duplicate evening in the rules core, end to end (docs/events.md#duplicate): the movement
seats every round, every table plays its boards legally (each record refereed against its
board and scored), and the boards' scores are checked against sums made here, result by
result: a 12-player ``gatti-3`` individual and a 10-pair ``ottocento`` Mitchell."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from legal_play import play_out

from service.domain import (
    BoardPlay,
    board_checks,
    board_columns,
    board_standings,
    find_variant,
    plan_movement,
    resolve_options,
    score_record,
    table_play,
    traveller,
)
from service.domain.duplicate import deal_board


def evening(variant_id: str, format: str, entrants: int, rounds: int,
            boards_per_round: int) -> tuple[list[str], list[BoardPlay]]:
    """Every board of every round played at every table, as the tables would report it."""
    variant = find_variant(variant_id)
    options = resolve_options(variant, None)
    rng = random.Random(f"{variant_id}:{entrants}")
    names = [f"{'pair' if format == 'pairs' else 'player'} {e}" for e in range(entrants)]
    plays = []
    for plan in plan_movement(variant, format, entrants, rounds, boards_per_round, "evening"):
        for table in plan.tables:
            for hand, number in enumerate(table.boards, start=1):
                board = deal_board(variant, "evening", number)
                record, _ = play_out(variant, board.hands, board.extra, board.dealer, rng)
                _, result = score_record(variant, options, record,
                                         checks=board_checks(board, variant))
                plays.append(table_play(
                    table, plan.round, number, f"r{plan.round}t{table.table}", hand,
                    [names[e] for e in table.seats if e is not None],
                    board_columns(variant, result)))
    return names, plays


def sums_by_hand(plays: list[BoardPlay]) -> tuple[dict[int, int], dict[int, int]]:
    """Each entrant's matchpoints and top, counted result by result: 2 for every result of
    the same board and column it beats, 1 for every tie."""
    points: dict[int, int] = defaultdict(int)
    tops: dict[int, int] = defaultdict(int)
    for play in plays:
        rivals = [p for p in plays if p.board == play.board and p is not play]
        for c, (entrant,) in enumerate(play.entrants):
            mine = play.columns[c]
            points[entrant] += sum(2 if mine > r.columns[c] else 1 if mine == r.columns[c]
                                   else 0 for r in rivals)
            tops[entrant] += 2 * len(rivals)
    return points, tops


@pytest.mark.parametrize(("variant_id", "format", "entrants"),
                         [("gatti-3", "individual", 12), ("ottocento", "pairs", 10)])
def test_a_duplicate_evening_scores_as_the_sums_made_by_hand(variant_id: str, format: str,
                                                             entrants: int) -> None:
    names, plays = evening(variant_id, format, entrants, rounds=2, boards_per_round=2)
    assert {p.board for p in plays} == {1, 2, 3, 4}
    points, tops = sums_by_hand(plays)
    standings = board_standings(names, plays)
    for row in standings.rows:
        assert row.match_points == points[row.entrant]
        assert row.boards == sum(1 for p in plays for members in p.entrants
                                 if row.entrant in members)
        # Every board is played at every table of its round: one top for all of them.
        assert all(e.top == tops[row.entrant] // row.boards for e in row.results)
        # So the average percentage is the matchpoints over the tops.
        assert row.percentage == Fraction(100 * points[row.entrant], tops[row.entrant])
    assert [r.place for r in standings.rows] == sorted(r.place for r in standings.rows)
    for board in (1, 2, 3, 4):
        mine = [p for p in plays if p.board == board]
        found = traveller(board, plays)
        assert len(found.results) == len(mine)
        assert found.top == 2 * (len(mine) - 1)
        width = len(mine[0].columns)
        for c in range(width):
            assert sum(r.matchpoints[c] for r in found.results) == len(mine) * (len(mine) - 1)
