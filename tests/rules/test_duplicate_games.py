"""A duplicate table's game (docs/events.md#duplicate, #movement): hand *n* is the table's *n*-th
board, its dealer the board's dealer, not the rotation; the game lasts exactly its boards — a
game length or a target of the variant (Gatti's hands, Ottocento's rubber to 800, R12, R13)
neither ends it early nor makes it longer; a board thrown in anyway is played all the same.
And the setup of a duplicate event: ``deals`` and ``boards_per_round``, their defaults and
bounds."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain import (
    HandResult,
    RecordInvalid,
    deal_board,
    find_variant,
    game_summary,
    validate_event_setup,
    validate_game_setup,
)
from service.domain.core.results import Act

SEED = 11


def _setup(variant_id: str, boards: list[int]) -> Any:
    variant = find_variant(variant_id)
    players = [f"P{i}" for i in range(variant.players)]
    return validate_game_setup(variant, None, players, None,
                               [deal_board(variant, SEED, n) for n in boards])


def _hand(columns: dict[str, int], *, events: tuple[str, ...] = (),
          acts: tuple[Act, ...] = ()) -> HandResult:
    return HandResult((), tuple(columns.items()), events=events, acts=acts)


def test_hand_n_is_dealt_by_its_board_s_dealer_not_the_rotation() -> None:
    setup = _setup("gatti-4", [7, 8, 5, 6])  # dealers 2, 3, 0, 1
    assert [setup.dealer_of(n) for n in (1, 2, 3, 4)] == [2, 3, 0, 1]
    assert [setup.board_of(n).number for n in (1, 2, 3, 4)] == [7, 8, 5, 6]
    summary = game_summary(setup, [])
    assert summary.next_dealer == 2
    summary = game_summary(setup, [_hand({"0": 30, "1": 22})], summary)
    assert summary.next_dealer == 3


def test_a_gatti_game_of_fewer_boards_than_its_hands_ends_after_them() -> None:
    setup = _setup("gatti-3", [1, 2])
    summary = game_summary(setup, [_hand({"0": 40, "1": 20, "2": 18})] * 2)
    assert (summary.finished, summary.ended_by, summary.next_dealer) == (True, "boards", None)
    assert summary.winners == ("0",)


def test_ottocento_s_rubber_does_not_end_a_duplicate_game_early() -> None:
    # 900 points in the first hand's declarations would win a rubber at once (R13), and a
    # total past 800 at the end of a hand (R12): a duplicate table plays its four boards.
    setup = _setup("ottocento", [1, 2, 3, 4])
    big = _hand({"0": 900, "1": 10}, acts=(Act(0, "0", 900),))
    summary = game_summary(setup, [big, big])
    assert not summary.finished and summary.target is None
    assert summary.totals == (("0", 1800), ("1", 20))
    summary = game_summary(setup, [big, big], summary)
    assert (summary.finished, summary.ended_by, summary.hands_played) == (True, "boards", 4)
    with pytest.raises(ValueError, match="finished"):
        game_summary(setup, [big], summary)


def test_a_board_thrown_in_is_played_all_the_same() -> None:
    setup = _setup("mitigatti-3", [1, 2, 3])
    thrown = _hand({"0": 0, "1": 0, "2": 0}, events=("thrown_in",))
    summary = game_summary(setup, [thrown])
    # The deal of a free game would stay with the same seat (§5.2); the next board's dealer
    # deals here.
    assert summary.next_dealer == setup.dealer_of(2) == 1
    summary = game_summary(setup, [thrown, thrown], summary)
    assert summary.finished and summary.hands_played == 3


def test_a_free_deal_game_keeps_its_rotation_and_length() -> None:
    setup = _setup("gatti-3", [])
    assert setup.boards == () and setup.board_of(1) is None
    summary = game_summary(setup, [_hand({"0": 1, "1": 0, "2": 0})] * 3)
    assert (summary.finished, summary.ended_by) == (True, "R10")


def _event(variant_id: str, **body: Any) -> Any:
    variant = find_variant(variant_id)
    raw = {"name": "Sera", "format": "individual",
           "entrants": [{"name": f"P{i}"} for i in range(2 * variant.players)], **body}
    return validate_event_setup(variant, raw, 1)


@pytest.mark.parametrize(("variant_id", "expected"), [
    ("gatti-3", 3), ("gatti-classic-4", 4), ("gatti-2", 4), ("ottocento", 4),
    ("mitigatti-4", 4), ("mitigatti-3", 3)])
def test_boards_per_round_defaults_to_the_variant_s_hands(variant_id: str,
                                                          expected: int) -> None:
    setup = _event(variant_id, deals="duplicate")
    assert (setup.deals, setup.duplicate, setup.boards_per_round) == \
        ("duplicate", True, expected)
    free = _event(variant_id)
    assert (free.deals, free.duplicate, free.boards_per_round) == ("free", False, None)


@pytest.mark.parametrize(("variant_id", "most"), [("gatti-3", 3), ("gatti-4", 4),
                                                  ("ottocento", 8), ("mitigatti-3", 8)])
def test_boards_per_round_runs_from_1_to_what_a_game_holds(variant_id: str,
                                                           most: int) -> None:
    assert _event(variant_id, deals="duplicate", boards_per_round=1).boards_per_round == 1
    assert _event(variant_id, deals="duplicate", boards_per_round=most).boards_per_round \
        == most
    for bad in (0, most + 1, 2.0, "2", True):
        with pytest.raises(RecordInvalid) as refused:
            _event(variant_id, deals="duplicate", boards_per_round=bad)
        assert [(p.field, p.code) for p in refused.value.problems] == \
            [("boards_per_round", "invalid_boards_per_round")]
