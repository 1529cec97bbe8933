"""Benchmark: seating and standings of a 40-table event.

What it measures: the time of one call of

- ``seat_individual`` for round 6 of 160 players of ``gatti-4`` (40 tables) after 5 rounds,
  once with a history that kept the seed's round-robin of partnerships (the schedule is
  followed) and once after an organiser's swap in round 5 (the maximum-matching search runs);
- ``seat_individual`` for round 6 of 120 players of ``gatti-3`` (40 tables);
- ``seat_pairs`` (Swiss) for round 6 of 80 pairs (40 tables) after 5 Swiss rounds;
- ``standings`` of a 6-round event of 160 players at 40 tables of ``gatti-4`` (240 results);

against sorting 160 tuples of (int, int, str) as a yardstick that does not depend on the
machine's speed. Each is the median of ``--rounds`` rounds, each round timing about
``--seconds`` of calls; the ratio (call time / sort time) is the median of the rounds' ratios.

Run from the repository root:

    .venv/bin/python bench/bench_events.py [--seconds 0.3] [--rounds 5] [--seed 1]

It is not a test and asserts nothing beyond the seatings being whole.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.domain import (
    Seating,
    TableResult,
    TableShape,
    find_variant,
    seat_individual,
    seat_pairs,
    standings,
)


def seconds_per_call(work: Callable[[], object], seconds: float) -> float:
    """Seconds per call of ``work`` over about ``seconds`` (batches sized by a first probe)."""
    batch, elapsed = 1, 0.0
    while elapsed < seconds / 10:
        batch *= 2
        start = time.perf_counter()
        for _ in range(batch):
            work()
        elapsed = time.perf_counter() - start
    n = max(1, int(batch * seconds / elapsed))
    start = time.perf_counter()
    for _ in range(n):
        work()
    return (time.perf_counter() - start) / n


def whole(seating: Seating, entrants: int) -> None:
    everyone = sorted([e for t in seating.tables for e in t] + list(seating.byes))
    assert everyone == list(range(entrants)), "a seating lost or doubled an entrant"


def individual_history(entrants: int, shape: TableShape, seed: int,
                       swap: bool) -> list[Seating]:
    history: list[Seating] = []
    for _ in range(5):
        history.append(seat_individual(entrants, shape, history, seed))
    if swap:
        tables = [list(t) for t in history[-1].tables]
        tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
        history[-1] = Seating(tuple(tuple(t) for t in tables), history[-1].byes)
    return history


def swiss_history(pairs: int, seed: int) -> tuple[list[Seating], list[int]]:
    rng = random.Random(seed)
    history: list[Seating] = []
    ranking = list(range(pairs))
    for _ in range(5):
        history.append(seat_pairs(pairs, ranking, history, "swiss", seed))
        rng.shuffle(ranking)
    return history, ranking


def event_results(history: list[Seating], seed: int) -> list[TableResult]:
    rng = random.Random(seed)
    results = []
    for r, seating in enumerate(history, start=1):
        for t, (a, b, c, d) in enumerate(seating.tables, start=1):
            results.append(TableResult(r, t, ((a, c), (b, d)),
                                       (rng.randrange(0, 400), rng.randrange(0, 400)),
                                       "finished"))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--seed", type=int, default=1, help="the event's seed")
    args = parser.parse_args()
    seed = args.seed

    pair_game = TableShape.of(find_variant("gatti-4"))
    three_seats = TableShape.of(find_variant("gatti-3"))
    scheduled = individual_history(160, pair_game, seed, swap=False)
    swapped = individual_history(160, pair_game, seed, swap=True)
    threes = individual_history(120, three_seats, seed, swap=False)
    swiss, ranking = swiss_history(80, seed)
    six_rounds = [*scheduled, seat_individual(160, pair_game, scheduled, seed)]
    results = event_results(six_rounds, seed)
    names = [f"Player {i + 1}" for i in range(160)]
    whole(seat_individual(160, pair_game, swapped, seed), 160)
    whole(seat_individual(120, three_seats, threes, seed), 120)
    whole(seat_pairs(80, ranking, swiss, "swiss", seed), 80)
    assert len(standings(names, results, {}).rows) == 160

    rng = random.Random(seed)
    rows = [(rng.randrange(20), rng.randrange(-500, 500), f"Player {i}") for i in range(160)]
    cases: dict[str, Callable[[], object]] = {
        "individual gatti-4, 160 players, round 6 (schedule)":
            lambda: seat_individual(160, pair_game, scheduled, seed),
        "individual gatti-4, 160 players, round 6 (after a swap)":
            lambda: seat_individual(160, pair_game, swapped, seed),
        "individual gatti-3, 120 players, round 6":
            lambda: seat_individual(120, three_seats, threes, seed),
        "Swiss, 80 pairs, round 6":
            lambda: seat_pairs(80, ranking, swiss, "swiss", seed),
        "standings, 160 players, 6 rounds, 240 tables":
            lambda: standings(names, results, {}),
    }
    timings: dict[str, list[float]] = {name: [] for name in cases}
    ratios: dict[str, list[float]] = {name: [] for name in cases}
    baseline: list[float] = []
    for _ in range(args.rounds):
        base = seconds_per_call(lambda: sorted(rows), args.seconds)
        baseline.append(base)
        for name, work in cases.items():
            took = seconds_per_call(work, args.seconds)
            timings[name].append(took)
            ratios[name].append(took / base)
    print(f"sorting 160 tuples (yardstick): {statistics.median(baseline) * 1e3:9.4f} ms "
          f"(median of {args.rounds})")
    for name in cases:
        print(f"{name:<58} {statistics.median(timings[name]) * 1e3:8.2f} ms   "
              f"ratio {statistics.median(ratios[name]):8.0f} x sort")


if __name__ == "__main__":
    main()
