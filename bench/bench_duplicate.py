"""Benchmark: a 40-table duplicate evening (issue 28, point 6), against a free-deal evening
of the same size and against a health check.

160 players of ``gatti-4`` (40 tables), 5 rounds of 4 boards, every board played at every
table (800 hands), in one process through Flask's test client on a temporary SQLite file.
Timed, each as a ratio to ``GET /api/v1/health`` in the same rounds:

- dealing the evening's 20 boards from the seed (in the process: ``deal_boards``);
- the deal slips PDF of the 20 boards (``GET /events/{id}/boards.pdf``);
- a round's movement: ``POST /events/{id}/rounds`` for round 5 (40 tables seated, 40 games
  made with their boards), once;
- the standings right after a hand (a correction at one table: the standings and their 20
  boards' travellers made again; each read timed alone, the correction not counted),
  and the same for the free-deal evening: the issue asks the duplicate standings to stay
  within 2x of these;
- one board's traveller right after a hand.

Run from the repository root (a minute or two, most of it playing the 800 hands):

    .venv/bin/python bench/bench_duplicate.py [--seconds 0.5] [--rounds 5]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bench_event_reads import API, Event, auth, ok, seconds_per_call, setup

from service.domain import deal_boards, find_variant

PLAYERS, ROUNDS, BOARDS = 160, 5, 4


def evening(client: object, **extra: object) -> tuple[Event, float]:
    """An evening played to its last round's end; the time of seating its last round."""
    event = Event(client, PLAYERS, rounds=ROUNDS, **extra)
    seating = 0.0
    for number in range(1, ROUNDS + 1):
        seating = event.start()
        for _ in range(BOARDS):
            event.play_round()
        if number < ROUNDS:
            event.close(number)
    return event, seating


def main() -> None:
    args, client = setup(__doc__.splitlines()[0])

    began = time.perf_counter()
    duplicate, seating = evening(client, deals="duplicate", boards_per_round=BOARDS)
    free, _ = evening(client)
    built = time.perf_counter() - began
    first = duplicate.tables[0]
    dealer = ok(client.get(f"{API}/games/{first['game']}", headers=auth(
        first["tokens"]["edit"]))).json["hands"][0]["dealer"]
    variant = find_variant("gatti-4")

    def read_after_a_hand(event: Event, first_dealer: int, read: str) -> float:
        """Seconds a read takes right after a hand (a correction at the event's first
        table), the hand itself not counted: each read is timed alone."""
        spent, calls, began = 0.0, 0, time.perf_counter()
        while time.perf_counter() - began < args.seconds:
            event.correct(event.tables[0], first_dealer)
            start = time.perf_counter()
            ok(client.get(f"{event.url}/{read}", headers=auth(event.edit)))
            spent += time.perf_counter() - start
            calls += 1
        return spent / calls

    cases: dict[str, Callable[[], object]] = {
        "deal the 20 boards (deal_boards)": lambda: deal_boards(variant, 7, ROUNDS * BOARDS),
        "the deal slips PDF (20 boards)": lambda: ok(client.get(
            f"{duplicate.url}/boards.pdf", headers=auth(duplicate.edit))),
    }
    after = {
        "standings after a hand, duplicate": (duplicate, dealer, "standings"),
        "standings after a hand, free deals": (free, 0, "standings"),
        "a board's traveller after a hand": (duplicate, dealer, "boards/1"),
    }
    timings: dict[str, list[float]] = {name: [] for name in [*cases, *after]}
    baseline: list[float] = []
    for _ in range(args.rounds):
        base = seconds_per_call(lambda: ok(client.get(f"{API}/health")), args.seconds)
        baseline.append(base)
        for name, call in cases.items():
            timings[name].append(seconds_per_call(call, args.seconds))
        for name, (event, first_dealer, read) in after.items():
            timings[name].append(read_after_a_hand(event, first_dealer, read))
    base = statistics.median(baseline)
    print(f"two evenings of {PLAYERS} players, {ROUNDS} rounds of {BOARDS} hands, built in "
          f"{built:.0f} s")
    print(f"GET /health (yardstick): {base * 1e3:8.3f} ms (median of {args.rounds})")
    for name, values in timings.items():
        took = statistics.median(values)
        print(f"{name:<45} {took * 1e3:9.3f} ms   ratio {took / base:8.1f} x health")
    print(f"{'POST rounds, round 5 (40 tables, boards)':<45} {seating * 1e3:9.3f} ms   "
          f"ratio {seating / base:8.1f} x health (once)")
    dup = statistics.median(timings["standings after a hand, duplicate"])
    free_deals = statistics.median(timings["standings after a hand, free deals"])
    print(f"standings after a hand, duplicate over free deals: {dup / free_deals:.2f}")


if __name__ == "__main__":
    main()
