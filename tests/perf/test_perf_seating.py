"""The individual movement's search stays fast (issue 25): a round of 60 players, late in an
event when repeats can no longer all be avoided and the search uses its whole budget, is
seated well under a second; and a round of the largest roster too. The budget is counted in
evaluations and nodes, never in time, so the seating stays deterministic."""

from __future__ import annotations

import time

import pytest

from service.domain.events.seating import Seating, TableShape, seat_individual
from service.domain.registry import find_variant


@pytest.mark.parametrize(("variant", "entrants", "rounds"), [
    ("gatti-4-call", 60, 16), ("gatti-3", 61, 24), ("gatti-4", 62, 12), ("gatti-3", 200, 3)])
def test_seating_a_round_of_sixty_stays_well_under_a_second(variant: str, entrants: int,
                                                            rounds: int) -> None:
    shape = TableShape.of(find_variant(variant))
    history: list[Seating] = []
    slowest = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        history.append(seat_individual(entrants, shape, history, 7))
        slowest = max(slowest, time.perf_counter() - start)
    assert slowest < 0.5, slowest
