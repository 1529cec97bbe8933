"""Properties of board scores (docs/events.md#duplicate, #scoring-a-board): for any results of a
board at ``n`` tables, each column's matchpoints sum to ``n·(n − 1)`` (every pair of results
shares 2), its percentages average 50 %, its differences (before rounding) sum to 0, and no
figure depends on the order the tables reported in."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain import BoardPlay
from service.domain.duplicate import score_board

SETTINGS = settings(max_examples=200, deadline=None, database=None)

boards = st.integers(min_value=1, max_value=4).flatmap(
    lambda width: st.lists(st.tuples(*[st.integers(-30, 120)] * width), min_size=1,
                           max_size=40))


def plays_of(results: list[tuple[int, ...]]) -> list[BoardPlay]:
    width = len(results[0])
    return [BoardPlay(7, 1, t, f"g{t}", 3, tuple(f"p{t}.{c}" for c in range(width)),
                      tuple((t * width + c,) for c in range(width)), columns)
            for t, columns in enumerate(results)]


@SETTINGS
@given(boards)
def test_matchpoints_of_a_board_sum_to_n_times_n_minus_one_per_column(
        results: list[tuple[int, ...]]) -> None:
    scored = score_board(plays_of(results))
    n = len(results)
    for c in range(len(results[0])):
        assert sum(s.matchpoints[c] for s in scored) == n * (n - 1)


@SETTINGS
@given(boards)
def test_percentages_of_a_board_average_fifty(results: list[tuple[int, ...]]) -> None:
    scored = score_board(plays_of(results))
    for c in range(len(results[0])):
        assert sum((s.percentages[c] for s in scored), Fraction(0)) == 50 * len(results)


@SETTINGS
@given(boards)
def test_differences_of_a_board_sum_to_zero_but_for_rounding(
        results: list[tuple[int, ...]]) -> None:
    scored = score_board(plays_of(results))
    for c in range(len(results[0])):
        total = sum((s.differences[c] for s in scored), Decimal(0))
        assert abs(total) <= Decimal("0.05") * len(results)


@SETTINGS
@given(boards, st.randoms(use_true_random=False))
def test_no_figure_depends_on_the_order_tables_reported_in(results: list[tuple[int, ...]],
                                                           rng: object) -> None:
    plays = plays_of(results)
    shuffled = list(plays)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    first = {s.play.table: (s.matchpoints, s.percentages, s.differences)
             for s in score_board(plays)}
    again = {s.play.table: (s.matchpoints, s.percentages, s.differences)
             for s in score_board(shuffled)}
    assert first == again
