"""docs/events.md#late-arrivals-and-withdrawals — a round seats the entrants active in it: the
seating's numbering of them and back, earlier rounds as the seating sees them, a late
arrival's missed rounds counted as byes, and the standings of a roster that changed. One test
per clause, named after it."""

from __future__ import annotations

from service.domain.events.seating import Seating, Subset, TableShape, seat_individual, seat_pairs
from service.domain.events.setup import Entrant, EventSetup
from service.domain.events.standings import TableResult, standings
from service.domain.registry import find_variant

PAIR_GAME = TableShape.of(find_variant("gatti-4"))


def test_the_active_entrants_are_numbered_in_roster_order_and_the_others_past_them() -> None:
    subset = Subset.of([4, 1, 3], 6)
    assert [subset.local(e) for e in (1, 3, 4)] == [0, 1, 2]
    assert [subset.local(e) for e in (0, 2, 5)] == [3, 4, 5]
    assert subset.size == 3


def test_a_seating_comes_back_in_roster_numbers() -> None:
    subset = Subset.of([1, 3, 4, 6, 7], 8)
    assert subset.back(Seating(((0, 1, 2, 3),), (4,))) == Seating(((1, 3, 4, 6),), (7,))


def test_earlier_rounds_keep_who_is_not_active_past_the_active_ones() -> None:
    subset = Subset.of([0, 1, 2, 3], 5)
    history = subset.history([Seating(((4, 0, 1, 2),), (3,))])
    assert history == [Seating(((4, 0, 1, 2),), (3,))]
    subset = Subset.of([1, 2, 3, 4], 5)
    assert subset.history([Seating(((4, 0, 1, 2),), (3,))]) == [
        Seating(((3, 4, 0, 1),), (2,))]


def test_a_late_arrivals_missed_rounds_count_as_the_byes_they_had() -> None:
    subset = Subset.of(range(5), 5)
    history = subset.history([Seating(((0, 1, 2, 3),), ())], {1: [4]})
    assert history[0].byes == (4,)


def test_nobody_sits_out_before_the_late_arrival_who_missed_a_round() -> None:
    first = seat_individual(12, PAIR_GAME, [], 5)
    subset = Subset.of(range(13), 13)
    for seed in range(10):
        second = subset.back(seat_individual(
            13, PAIR_GAME, subset.history([first], {1: [12]}), seed))
        assert len(second.byes) == 1 and second.byes != (12,)
        assert 12 in {e for table in second.tables for e in table}


def test_a_withdrawn_entrant_is_not_seated_and_their_meetings_still_count() -> None:
    first = Seating(((0, 1, 2, 3), (4, 5, 6, 7)), ())
    subset = Subset.of([1, 2, 3, 4, 5, 6, 7, 8], 9)  # 0 withdrew, 8 arrived
    second = subset.back(seat_individual(8, PAIR_GAME, subset.history([first], {1: [8]}), 3))
    seated = [e for table in second.tables for e in table]
    assert sorted(seated) == [1, 2, 3, 4, 5, 6, 7, 8] and second.byes == ()
    partners = {frozenset((t[0], t[2])) for t in second.tables} | {
        frozenset((t[1], t[3])) for t in second.tables}
    assert not partners & {frozenset((1, 3)), frozenset((5, 7))}  # round 1's partnerships


def test_pairs_are_ranked_and_seated_among_the_active_ones() -> None:
    subset = Subset.of([0, 1, 3, 4, 5], 6)  # pair 2 withdrew
    ranking = subset.ranking([5, 2, 4, 3, 1, 0])
    first = Seating(((0, 5), (1, 4), (2, 3)), ())
    seating = subset.back(seat_pairs(5, ranking, subset.history([first]), "danish", 1))
    assert seating.tables == ((5, 4), (3, 1)) and seating.byes == (0,)


def test_an_entrant_plays_from_their_first_round_until_they_withdraw() -> None:
    late = Entrant("Zoe", from_round=2, withdrawn_from=4)
    assert [late.active_in(n) for n in (1, 2, 3, 4)] == [False, True, True, False]
    assert not Entrant("Ugo", removed=True).active_in(1)


def _setup(late_rounds: str) -> EventSetup:
    entrants = (Entrant("A"), Entrant("B"), Entrant("C", removed=True), Entrant("D"),
                Entrant("E", from_round=3))
    return EventSetup("Sera", find_variant("gatti-3"), {}, "individual", None, "match_points",
                      3, 1, entrants, late_rounds=late_rounds)


def test_a_late_arrivals_missed_rounds_are_byes_only_when_the_event_says_so() -> None:
    assert _setup("bye").late_byes(2) == {1: (4,), 2: (4,)}
    assert _setup("zero").late_byes(2) == {}
    assert _setup("bye").active(3) == (0, 1, 3, 4)


def test_a_removed_entrant_has_no_row_in_the_standings() -> None:
    setup = _setup("zero")
    result = TableResult(1, 1, ((0,), (1,), (3,)), (10, 5, 0), "finished")
    found = standings(setup.names(), [result], {}, "match_points", 3, among=setup.listed())
    assert sorted(row.entrant for row in found.rows) == [0, 1, 3, 4]
