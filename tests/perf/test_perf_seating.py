"""The individual movement's search at its largest: a round of 60 players, late in
an event when repeats can no longer all be avoided and the search uses its whole budget, and
a round of the largest roster. The budget is counted in evaluations and nodes, never in time,
so the same history seats the same round however busy the machine: that is what is tested
here. How long it takes is measured by ``bench/bench_events.py`` (its ratio to a sort), not
by a timed test, which a busy machine fails for no fault of the code."""

from __future__ import annotations

import pytest

from service.domain.events.seating import Seating, TableShape, seat_individual
from service.domain.registry import find_variant


@pytest.mark.parametrize(("variant", "entrants", "rounds"), [
    ("gatti-4-call", 60, 16), ("gatti-3", 61, 24), ("gatti-4", 62, 12), ("gatti-3", 200, 3)])
def test_seating_a_round_of_sixty_is_the_same_however_busy_the_machine(variant: str,
                                                                      entrants: int,
                                                                      rounds: int) -> None:
    shape = TableShape.of(find_variant(variant))
    history: list[Seating] = []
    for _ in range(rounds):
        seating = seat_individual(entrants, shape, history, 7)
        again = seat_individual(entrants, shape, history, 7)
        assert again == seating
        seated = sorted(e for table in seating.tables for e in table)
        assert sorted([*seated, *seating.byes]) == list(range(entrants))
        history.append(seating)
