"""A board keeps its secret until every table due to play it has played it: the boards the
room may count, from each table's progress (its boards in order, how many it has played,
whether it is still due to play the rest), and which of a table's hands its totals may
count for the room."""

from __future__ import annotations

from service.domain import TableProgress, complete_boards, counted_hands


def test_a_board_is_complete_once_every_table_due_to_play_it_has_played_it() -> None:
    # Six players of gatti-3: table 1 plays 1, 2, 3 and table 2 plays 2, 3, 1.
    assert complete_boards([TableProgress((1, 2, 3), 1, True),
                            TableProgress((2, 3, 1), 0, True)]) == frozenset()
    assert complete_boards([TableProgress((1, 2, 3), 1, True),
                            TableProgress((2, 3, 1), 3, False)]) == {1}
    assert complete_boards([TableProgress((1, 2, 3), 3, False),
                            TableProgress((2, 3, 1), 3, False)]) == {1, 2, 3}


def test_a_table_no_longer_due_owes_no_board() -> None:
    """A closed round's tables are no longer due: their boards count as they stand."""
    closed = [TableProgress((1, 2, 3), 1, False), TableProgress((2, 3, 1), 0, False)]
    assert complete_boards(closed) == {1, 2, 3}
    assert TableProgress((1, 2, 3), 1, False).owed() == ()
    assert TableProgress((1, 2, 3), 1, True).owed() == (2, 3)


def test_a_board_of_a_round_not_seated_yet_is_not_complete() -> None:
    assert complete_boards([TableProgress((1, 2), 2, False)]) == {1, 2}
    assert 3 not in complete_boards([TableProgress((1, 2), 2, False)])
    assert complete_boards([]) == frozenset()


def test_a_table_s_totals_count_its_hands_on_complete_boards_only() -> None:
    # Table 2 played 2 and 3; only board 3 is complete: its hand 2.
    assert counted_hands((2, 3, 1), 2, {3}) == (2,)
    assert counted_hands((2, 3, 1), 3, {1, 2, 3}) == (1, 2, 3)
    assert counted_hands((2, 3, 1), 0, {1, 2, 3}) == ()
