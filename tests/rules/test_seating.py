"""docs/events.md#formats — seatings of an event's rounds, one test per clause, named after it.

Expected values are worked out by hand from the clause (who plays whom, who sits out, which
problem is raised); where a seating is drawn by lot, the test checks what the clause promises
of it rather than one draw.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.events.seating import (
    Seating,
    TableShape,
    byes_of,
    check_free_seating,
    format_problems,
    repeats,
    roster_problems,
    schedule_round,
    seat_individual,
    seat_pairs,
)
from service.domain.registry import find_variant

PAIR_GAME = TableShape.of(find_variant("gatti-4"))
THREE_SEATS = TableShape.of(find_variant("gatti-3"))
CALL_GAME = TableShape.of(find_variant("gatti-4-call"))
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ivo", "Lia"]


def partnerships(seating: Seating, shape: TableShape = PAIR_GAME) -> set[frozenset[int]]:
    return {frozenset(table[p] for p in group) for table in seating.tables
            for group in shape.positions() if len(group) > 1}


def opponents(seating: Seating, shape: TableShape) -> set[frozenset[int]]:
    groups = shape.positions()
    out = set()
    for table in seating.tables:
        for g, h in combinations(range(len(groups)), 2):
            out |= {frozenset((table[i], table[j])) for i in groups[g] for j in groups[h]}
    return out


def play(entrants: int, shape: TableShape, rounds: int, seed: int = 1) -> list[Seating]:
    history: list[Seating] = []
    for _ in range(rounds):
        history.append(seat_individual(entrants, shape, history, seed))
    return history


def seated_once(seating: Seating, entrants: int) -> bool:
    everyone = [e for t in seating.tables for e in t] + list(seating.byes)
    return sorted(everyone) == list(range(entrants))


# -- Words: entrants, tables, the shape of a table ---------------------------------------------------


@pytest.mark.parametrize("vid", ["gatti-4", "gatti-classic-4", "ottocento"])
def test_individual_games_of_fixed_pairs_seat_partners_opposite(vid: str) -> None:
    shape = TableShape.of(find_variant(vid))
    assert shape == TableShape(4, (0, 1, 2, 3), ((0, 2), (1, 3)))
    assert shape.has_pairs


def test_individual_gatti_2_seats_two_players_their_dummies_opposite() -> None:
    shape = TableShape.of(find_variant("gatti-2"))
    assert shape == TableShape(4, (0, 1), ((0,), (1,)))
    assert not shape.has_pairs
    seating = seat_individual(5, shape, [], 3)
    assert len(seating.tables) == 2 and all(len(t) == 2 for t in seating.tables)
    assert len(seating.byes) == 1


@pytest.mark.parametrize("vid", ["gatti-3", "gatti-classic-3", "mitigatti-3"])
def test_individual_three_seat_games_each_player_on_their_own(vid: str) -> None:
    assert TableShape.of(find_variant(vid)) == TableShape(3, (0, 1, 2), ((0,), (1,), (2,)))


@pytest.mark.parametrize("vid", ["gatti-4-call", "mitigatti-4"])
def test_individual_partners_changing_every_hand_each_player_on_their_own(vid: str) -> None:
    shape = TableShape.of(find_variant(vid))
    assert shape == TableShape(4, (0, 1, 2, 3), ((0,), (1,), (2,), (3,)))
    assert not shape.has_pairs


# -- free ------------------------------------------------------------------------------------------


def test_free_organiser_seats_each_table() -> None:
    tables = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert check_free_seating(9, THREE_SEATS, tables) == []
    assert byes_of(9, tables) == ()


def test_free_entrants_not_seated_are_byes() -> None:
    tables = [[4, 0, 2], [3, 8, 5]]
    assert check_free_seating(9, THREE_SEATS, tables) == []
    assert byes_of(9, tables) == (1, 6, 7)


def test_free_seating_a_player_twice_in_a_round_is_refused() -> None:
    problems = check_free_seating(9, THREE_SEATS, [[0, 1, 2], [3, 4, 1]], NAMES)
    assert [(p.field, p.code) for p in problems] == [("tables[1].seats[2]", "seated_twice")]
    assert problems[0].message == "Bruno also sits at table 1, seat 1"


def test_free_seating_names_every_field_at_fault() -> None:
    problems = check_free_seating(9, THREE_SEATS, [[0, 1], [3, None, 12], [5, 6, 7]])
    assert [(p.field, p.code) for p in problems] == [
        ("tables[0]", "table_size"),
        ("tables[1].seats[1]", "seat_empty"),
        ("tables[1].seats[2]", "out_of_range"),
    ]
    assert problems[0].message == "table 1 has 2 entrants; it seats 3"
    assert problems[1].message == "seat 1 of table 2 is empty"
    assert problems[2].message == ("entrant 12 is not on the roster: entrants are numbered 0 "
                                   "to 8")


# -- individual --------------------------------------------------------------------------------------


def test_individual_players_change_tables_and_partners_every_round() -> None:
    first, second = play(16, PAIR_GAME, 2)
    assert not partnerships(first) & partnerships(second)
    assert {frozenset(t) for t in first.tables}.isdisjoint(frozenset(t) for t in second.tables)


def test_individual_fewest_repeated_partnerships_first() -> None:
    # Round 1 partnered 0-1, 2-3, 4-5, 6-7; round 2 can avoid every one of them.
    round_1 = Seating(((0, 2, 1, 3), (4, 6, 5, 7)))
    seating = seat_individual(8, PAIR_GAME, [round_1], 9)
    assert not partnerships(seating) & partnerships(round_1)


def test_individual_repeats_a_partnership_only_when_the_round_cannot_avoid_it() -> None:
    # Four players who have partnered everyone: one partnership must repeat, and one only.
    history = [Seating(((0, 2, 1, 3),)), Seating(((0, 1, 2, 3),)), Seating(((0, 1, 3, 2),))]
    seating = seat_individual(4, PAIR_GAME, history, 1)
    assert len(partnerships(seating)) == 2
    assert repeats([*history, seating], PAIR_GAME, "individual").partners != ()


def test_individual_then_fewest_repeated_opponents() -> None:
    # Nine players of a 3-seat game, three tables: round 2 can meet only new opponents.
    first, second = play(9, THREE_SEATS, 2)
    assert not opponents(first, THREE_SEATS) & opponents(second, THREE_SEATS)
    first, second = play(16, CALL_GAME, 2)
    assert not opponents(first, CALL_GAME) & opponents(second, CALL_GAME)


def test_individual_then_fewest_repeated_opponents_where_a_greedy_round_repeats_one() -> None:
    # 13 players of gatti-3, seed 114672557: the first three rounds as a greedy seating
    # gives them. Its round 4 would sit 5 with 10 again, while 0 2 3 / 1 5 6 / 4 8 11 /
    # 7 9 10 (12 on a bye) repeats nobody: the round must repeat nobody either.
    history = [Seating(((11, 6, 9), (8, 5, 3), (2, 10, 4), (1, 12, 7)), (0,)),
               Seating(((7, 4, 6), (2, 8, 12), (0, 1, 9), (11, 5, 10)), (3,)),
               Seating(((11, 7, 3), (10, 1, 8), (9, 2, 5), (6, 0, 12)), (4,))]
    met = set().union(*(opponents(s, THREE_SEATS) for s in history))
    witness = Seating(((0, 2, 3), (1, 5, 6), (4, 8, 11), (7, 9, 10)), (12,))
    assert not opponents(witness, THREE_SEATS) & met
    seating = seat_individual(13, THREE_SEATS, history, 114672557)
    assert seated_once(seating, 13) and len(seating.byes) == 1
    assert seating.byes[0] not in (0, 3, 4)  # no second bye before everyone had one
    assert not opponents(seating, THREE_SEATS) & met


def test_individual_then_fewest_repeated_opponents_with_the_same_partnerships() -> None:
    # 16 players of gatti-4, seed 2: the first two rounds as a greedy grouping gives
    # them. Its round 3 (the schedule's partnerships) met one old opponent pair again,
    # where the same partnerships grouped otherwise meet none.
    history = [Seating(((9, 0, 4, 6), (3, 14, 12, 1), (7, 15, 11, 2), (13, 8, 5, 10))),
               Seating(((12, 6, 5, 7), (8, 14, 0, 10), (2, 1, 13, 15), (11, 3, 9, 4)))]
    met = set().union(*(opponents(s, PAIR_GAME) for s in history))
    seating = seat_individual(16, PAIR_GAME, history, 2)
    assert not partnerships(seating) & set().union(*(partnerships(s) for s in history))
    best = min(sum(frozenset((a, b)) in met for u, v in tables for a in u for b in v)
               for tables in _pairings(sorted(tuple(sorted(p)) for p in
                                              partnerships(seating))))
    assert best == 0
    assert not opponents(seating, PAIR_GAME) & met


def _pairings(units: list[tuple[int, ...]]) -> list[list[tuple[tuple[int, ...], ...]]]:
    if not units:
        return [[]]
    first, rest = units[0], units[1:]
    return [[(first, other), *tail] for i, other in enumerate(rest)
            for tail in _pairings(rest[:i] + rest[i + 1:])]


def test_individual_byes_when_the_roster_does_not_fill_whole_tables() -> None:
    seating = seat_individual(10, PAIR_GAME, [], 4)
    assert len(seating.tables) == 2 and len(seating.byes) == 2
    assert seated_once(seating, 10)
    seating = seat_individual(11, THREE_SEATS, [], 4)
    assert len(seating.tables) == 3 and len(seating.byes) == 2


def test_individual_no_second_bye_before_everyone_had_one() -> None:
    # Ten players at tables of four: two byes a round, so five rounds give everyone one.
    history = play(10, PAIR_GAME, 5)
    counts = [sum(e in s.byes for s in history) for e in range(10)]
    assert counts == [1] * 10
    # Seven players at tables of three: one bye a round; after seven rounds, one each.
    history = play(7, THREE_SEATS, 7)
    assert sorted(e for s in history for e in s.byes) == list(range(7))


def test_individual_byes_go_to_those_with_fewest() -> None:
    # Everyone but entrant 9 has had a bye: 9 sits out, and one of the others with it.
    history = [Seating((), tuple(range(9)))]
    seating = seat_individual(10, PAIR_GAME, history, 2)
    assert 9 in seating.byes and len(seating.byes) == 2
    # Only 6 has had a bye: the one bye of the round goes to someone else.
    history = [Seating(((0, 1, 2), (3, 4, 5)), (6,))]
    for seed in range(5):
        seating = seat_individual(7, THREE_SEATS, history, seed)
        assert len(seating.byes) == 1 and seating.byes != (6,)


@pytest.mark.parametrize("entrants", [8, 12, 16])
def test_individual_8_12_16_players_of_a_pair_game_nobody_partners_anyone_twice(
        entrants: int) -> None:
    history = play(entrants, PAIR_GAME, entrants - 1, seed=5)
    seen: set[frozenset[int]] = set()
    for seating in history:
        assert seated_once(seating, entrants) and not seating.byes
        assert not partnerships(seating) & seen
        seen |= partnerships(seating)
    assert len(seen) == entrants * (entrants - 1) // 2
    assert repeats(history, PAIR_GAME, "individual").partners == ()


def test_individual_schedule_is_a_round_robin_of_partnerships() -> None:
    rounds = [schedule_round(12, r, 3) for r in range(11)]
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == 66
    assert all(sorted(e for p in r for e in p) == list(range(12)) for r in rounds)


def test_individual_after_the_organiser_swaps_the_search_takes_over() -> None:
    history = play(8, PAIR_GAME, 3, seed=2)
    swapped = [list(t) for t in history[-1].tables]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]
    history[-1] = Seating(tuple(tuple(t) for t in swapped))
    seen = set().union(*(partnerships(s) for s in history))
    seating = seat_individual(8, PAIR_GAME, history, 2)
    assert not partnerships(seating) & seen


def test_individual_roster_too_small_for_one_table() -> None:
    assert [p.code for p in roster_problems(3, "individual", PAIR_GAME)] == ["roster_too_small"]
    assert roster_problems(3, "individual", PAIR_GAME)[0].message == (
        "a table seats 4 players; the roster has 3")
    with pytest.raises(RecordInvalid):
        seat_individual(2, THREE_SEATS, [], 1)


# -- pairs -----------------------------------------------------------------------------------------


def test_pairs_format_does_not_fit_three_seat_game() -> None:
    problems = format_problems("pairs", THREE_SEATS)
    assert [(p.field, p.code) for p in problems] == [("format", "format_unfit")]
    assert problems[0].message == ("the pairs format needs a game of two fixed pairs, and "
                                   "this game has none")


@pytest.mark.parametrize("vid", ["gatti-2", "gatti-4-call", "mitigatti-4", "mitigatti-3"])
def test_pairs_format_does_not_fit_a_game_without_fixed_pairs(vid: str) -> None:
    assert [p.code for p in format_problems("pairs", TableShape.of(find_variant(vid)))] == [
        "format_unfit"]


@pytest.mark.parametrize("vid", ["gatti-4", "gatti-classic-4", "ottocento"])
def test_pairs_format_fits_fixed_pairs(vid: str) -> None:
    shape = TableShape.of(find_variant(vid))
    assert format_problems("pairs", shape) == []
    assert format_problems("individual", shape) == format_problems("free", shape) == []


def test_unknown_format_is_refused() -> None:
    assert [p.code for p in format_problems("teams", PAIR_GAME)] == ["unknown_format"]


def test_pairs_round_one_at_random_from_the_seed() -> None:
    first = seat_pairs(8, [], [], "swiss", 11)
    assert first == seat_pairs(8, [], [], "danish", 11)
    assert seated_once(first, 8) and len(first.tables) == 4
    draws = {seat_pairs(8, [], [], "swiss", seed).tables for seed in range(20)}
    assert len(draws) > 1


def test_danish_one_v_two_three_v_four() -> None:
    history = [Seating(((0, 1), (2, 3), (4, 5)))]
    seating = seat_pairs(6, [4, 2, 0, 5, 3, 1], history, "danish", 1)
    assert seating == Seating(((4, 2), (0, 5), (3, 1)), ())


def test_danish_allows_repeat() -> None:
    history = [Seating(((0, 1), (2, 3)))]
    assert seat_pairs(4, [0, 1, 2, 3], history, "danish", 1).tables == ((0, 1), (2, 3))


def test_swiss_avoids_repeat_meeting() -> None:
    history = [Seating(((0, 1), (2, 3)))]
    assert seat_pairs(4, [0, 1, 2, 3], history, "swiss", 1).tables == ((0, 2), (1, 3))


def test_swiss_looks_ahead_so_the_last_tables_need_no_repeat() -> None:
    # 4 and 5 have met: 1 v 2 and 3 v 4 would leave them together; the third-ranked pair
    # takes the fifth instead.
    history = [Seating(((4, 5),), (0, 1, 2, 3))]
    seating = seat_pairs(6, [0, 1, 2, 3, 4, 5], history, "swiss", 1)
    assert seating.tables == ((0, 1), (2, 4), (3, 5))


def test_swiss_repeats_only_when_no_pairing_avoids_it() -> None:
    history = [Seating(((0, 1), (2, 3))), Seating(((0, 2), (1, 3))), Seating(((0, 3), (1, 2)))]
    assert seat_pairs(4, [0, 1, 2, 3], history, "swiss", 1).tables == ((0, 1), (2, 3))


def test_pairs_bye_to_the_lowest_ranked_pair_without_one() -> None:
    history = [Seating(((0, 1), (2, 3)), (4,))]
    for pairing in ("danish", "swiss"):
        seating = seat_pairs(5, [0, 1, 2, 3, 4], history, pairing, 1)  # type: ignore[arg-type]
        assert seating.byes == (3,)


def test_pairs_bye_when_all_had_one_to_the_lowest_with_fewest() -> None:
    history = [Seating(((0, 1),), (2,)), Seating(((0, 2),), (1,)), Seating(((1, 2),), (0,)),
               Seating(((0, 1),), (2,))]
    assert seat_pairs(3, [0, 1, 2], history, "danish", 1).byes == (1,)


def test_pairs_tables_follow_the_ranking() -> None:
    history = [Seating(((0, 1), (2, 3), (4, 5), (6, 7)))]
    seating = seat_pairs(8, [7, 6, 5, 4, 3, 2, 1, 0], history, "swiss", 1)
    assert seating.tables == ((7, 5), (6, 4), (3, 1), (2, 0))


def test_pairs_roster_too_small() -> None:
    assert [p.code for p in roster_problems(1, "pairs", PAIR_GAME)] == ["roster_too_small"]
    with pytest.raises(RecordInvalid):
        seat_pairs(1, [], [], "swiss", 1)
    with pytest.raises(RecordInvalid):
        seat_pairs(4, [], [], "dutch", 1)  # type: ignore[arg-type]


# -- determinism and the organiser's counters ------------------------------------------------------


def test_seatings_are_deterministic_for_event_seed_and_results() -> None:
    assert play(20, PAIR_GAME, 4, seed=8) == play(20, PAIR_GAME, 4, seed=8)
    assert play(13, THREE_SEATS, 4, seed=8) == play(13, THREE_SEATS, 4, seed=8)
    history = [Seating(((0, 1), (2, 3), (4, 5)), (6,))]
    assert (seat_pairs(7, [6, 5, 4, 3, 2, 1, 0], history, "swiss", 2)
            == seat_pairs(7, [6, 5, 4, 3, 2, 1, 0], history, "swiss", 2))


def test_repeats_counts_partners_and_opponents_met_twice() -> None:
    history = [Seating(((0, 1, 2, 3),)), Seating(((0, 3, 2, 1),))]
    found = repeats(history, PAIR_GAME, "individual")
    assert found.partners == ((0, 2, 2), (1, 3, 2))
    assert found.opponents == ((0, 1, 2), (0, 3, 2), (1, 2, 2), (2, 3, 2))
    assert repeats([Seating(((0, 1),)), Seating(((1, 0),))], PAIR_GAME, "pairs").opponents == (
        (0, 1, 2),)
    assert found.to_json()["partners"] == [{"entrants": [0, 2], "times": 2},
                                           {"entrants": [1, 3], "times": 2}]
