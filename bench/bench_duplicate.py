"""Benchmark: a 40-table duplicate evening, against a free-deal evening
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
  and the same for the free-deal evening, the two taking turns: the goal is for the
  duplicate standings to stay within 2x of these;
- one board's traveller right after a hand.

Every figure is the process's CPU time (``time.process_time``), not the wall clock: the
service runs in this one thread, and on a machine shared with other work the wall clock
counted their turns too (the same code read 0.98x and 2.85x in two runs).

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


def cpu_per_call(work: Callable[[], object], seconds: float) -> float:
    """CPU seconds a call of ``work`` takes, over calls for about ``seconds`` of CPU."""
    return seconds_per_call(work, seconds, time.process_time)


def evening(client: object, **extra: object) -> tuple[Event, float]:
    """An evening played to its last round's end; the time of seating its last round."""
    event = Event(client, PLAYERS, rounds=ROUNDS, **extra)
    seating = 0.0
    for number in range(1, ROUNDS + 1):
        began = time.process_time()
        event.start()
        seating = time.process_time() - began
        for _ in range(BOARDS):
            event.play_round()
        if number < ROUNDS:
            event.close(number)
    return event, seating


def main() -> None:
    args, client = setup(__doc__.splitlines()[0])

    began = time.process_time()
    duplicate, seating = evening(client, deals="duplicate", boards_per_round=BOARDS)
    free, _ = evening(client)
    built = time.process_time() - began
    first = duplicate.tables[0]
    dealer = ok(client.get(f"{API}/games/{first['game']}", headers=auth(
        first["tokens"]["edit"]))).json["hands"][0]["dealer"]
    variant = find_variant("gatti-4")

    def reads_after_a_hand(reads: dict[str, tuple[Event, int, str]]) -> dict[str, float]:
        """CPU seconds each read takes right after a hand (a correction at its event's first
        table), the hand itself not counted. The reads take turns, one each in a row, so
        that whatever else the machine does weighs on all of them alike."""
        spent = dict.fromkeys(reads, 0.0)
        calls = dict.fromkeys(reads, 0)
        while min(spent.values()) < args.seconds:
            for name, (event, first_dealer, read) in reads.items():
                event.correct(event.tables[0], first_dealer)
                start = time.process_time()
                ok(client.get(f"{event.url}/{read}", headers=auth(event.edit)))
                spent[name] += time.process_time() - start
                calls[name] += 1
        return {name: spent[name] / calls[name] for name in reads}

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
    ratios: list[float] = []  # duplicate over free deals, round by round
    baseline: list[float] = []
    for _ in range(args.rounds):
        base = cpu_per_call(lambda: ok(client.get(f"{API}/health")), args.seconds)
        baseline.append(base)
        for name, call in cases.items():
            timings[name].append(cpu_per_call(call, args.seconds))
        took = reads_after_a_hand(after)
        for name, value in took.items():
            timings[name].append(value)
        ratios.append(took["standings after a hand, duplicate"]
                      / took["standings after a hand, free deals"])
    base = statistics.median(baseline)
    print(f"two evenings of {PLAYERS} players, {ROUNDS} rounds of {BOARDS} hands, built in "
          f"{built:.0f} s")
    print(f"GET /health (yardstick): {base * 1e3:8.3f} ms (median of {args.rounds})")
    for name, values in timings.items():
        took = statistics.median(values)
        print(f"{name:<45} {took * 1e3:9.3f} ms   ratio {took / base:8.1f} x health")
    print(f"{'POST rounds, round 5 (40 tables, boards)':<45} {seating * 1e3:9.3f} ms   "
          f"ratio {seating / base:8.1f} x health (once)")
    print(f"standings after a hand, duplicate over free deals: "
          f"{statistics.median(ratios):.2f} (median of {args.rounds} rounds; "
          f"{min(ratios):.2f} to {max(ratios):.2f})")


if __name__ == "__main__":
    main()
