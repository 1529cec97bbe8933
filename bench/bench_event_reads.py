"""Benchmark: what reading an event's standings costs during a round, at two sizes of event.

What it measures, in one process through Flask's test client on a temporary SQLite file (the
service's own code from the view down, no network): a *small* event (8 players of
``gatti-4``, round 1 of 2 tables being played) and a *large* one (160 players of ``gatti-4``,
5 rounds of 40 tables played and closed, round 6 of 40 tables being played, a hand at every
table of every round). For each, the time of

- ``GET /events/{id}/standings`` again while nothing changed (the body kept for the event's
  state: one query for the state's fingerprint, then the body);
- the same with ``If-None-Match`` (a board's poll: 304);
- ``GET /events/{id}/standings`` right after a hand was corrected at one table (the
  standings are computed again: this one grows with the event; the correction's own time,
  measured apart, is taken off);
- ``POST /events/{id}/rounds`` for the large event's round 6 (seating 40 tables of 160
  players after 5 rounds and creating their 40 games), once;

each as a ratio to ``GET /api/v1/health`` timed in the same rounds. The question the bench
answers — does a read during a round cost the same at any size — is the ratio of the large
event's read to the small one's.

Run from the repository root (about a minute, most of it building the large event):

    .venv/bin/python bench/bench_event_reads.py [--seconds 0.5] [--rounds 5]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.http.app import create_app
from service.persistence import upgrade

API = "/api/v1"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.get_data()[:300])
    return response


class Event:
    def __init__(self, client: Any, players: int, **extra: Any) -> None:
        """An event of ``players`` of ``gatti-4`` (``extra``: more of its setup, such as
        duplicate deals)."""
        self.client = client
        created = ok(client.post(f"{API}/events", json={
            "name": f"{players} players", "variant": "gatti-4", "format": "individual",
            "seed": 7, "entrants": [{"name": f"Player {i + 1}"} for i in range(players)],
            **extra}), 201)
        self.id, self.edit = created.json["id"], created.json["tokens"]["edit"]
        self.url = f"{API}/events/{self.id}"
        self.tables: list[dict[str, Any]] = []
        self.hands = 0

    def start(self) -> float:
        began = time.perf_counter()
        started = ok(self.client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit)),
                     201)
        took = time.perf_counter() - began
        self.tables = started.json["tables"]
        return took

    def hand(self, table: dict[str, Any]) -> None:
        """The next hand at a table (its dealer read from the game)."""
        game = f"{API}/games/{table['game']}"
        token = auth(table["tokens"]["edit"])
        dealer = ok(self.client.get(game, headers=token)).json["next_dealer"]
        self.hands += 1
        side0 = 30 + self.hands % 13
        ok(self.client.post(f"{game}/hands", headers=token, json={
            "dealer": dealer, "piles": [{"side": 0, "points": side0},
                                        {"side": 1, "points": 72 - side0}]}), 201)

    def correct(self, table: dict[str, Any], dealer: int = 0) -> None:
        """Hand 1 at a table corrected (a change to the event's state that can repeat);
        ``dealer``: its dealer (a duplicate table's first board's)."""
        self.hands += 1
        side0 = 30 + self.hands % 13
        ok(self.client.put(f"{API}/games/{table['game']}/hands/1",
                           headers={**auth(table["tokens"]["edit"]), "If-Match": "*"},
                           json={"dealer": dealer, "piles": [
                               {"side": 0, "points": side0}, {"side": 1, "points": 72 - side0}]}))

    def play_round(self) -> None:
        for table in self.tables:
            self.hand(table)

    def close(self, number: int) -> None:
        ok(self.client.post(f"{self.url}/rounds/{number}/close", headers=auth(self.edit)))


def seconds_per_call(work: Callable[[], object], seconds: float,
                     clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds a call of ``work`` takes, over calls for about ``seconds`` of ``clock`` (the
    wall's by default; ``time.process_time`` counts this process's CPU alone)."""
    calls, began = 0, clock()
    while True:
        work()
        calls += 1
        elapsed = clock() - began
        if elapsed >= seconds:
            return elapsed / calls


def setup(description: str, options: Callable[[argparse.ArgumentParser], object] | None = None
          ) -> tuple[argparse.Namespace, Any]:
    """A benchmark's options (``--seconds`` a timing, ``--rounds`` of them, and those
    ``options`` adds) and a test client of the service on a new SQLite file, migrated, with no
    rate limit (its app is the client's ``application``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=5)
    if options is not None:
        options(parser)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="segnapunti-bench-"))
    url = f"sqlite:///{work / 'bench.sqlite3'}"
    upgrade(url)
    return args, create_app({"DATABASE_URL": url, "RATE_LIMIT_PER_MINUTE": 0}).test_client()


def main() -> None:
    args, client = setup(__doc__.splitlines()[0])

    small = Event(client, 8)
    small.start()
    small.play_round()
    large = Event(client, 160)
    for number in range(1, 6):
        large.start()
        large.play_round()
        large.close(number)
    seating = large.start()
    large.play_round()

    def read(event: Event, headers: dict[str, str] | None = None) -> Callable[[], object]:
        return lambda: ok(client.get(f"{event.url}/standings",
                                     headers={**auth(event.edit), **(headers or {})}),
                          304 if headers else 200)

    def changed(event: Event) -> Callable[[], object]:
        def work() -> object:
            event.correct(event.tables[0])  # its own cost is measured apart and taken off
            return ok(client.get(f"{event.url}/standings", headers=auth(event.edit)))
        return work

    def hand_only(event: Event) -> Callable[[], object]:
        return lambda: event.correct(event.tables[1])

    tags = {e.id: ok(client.get(f"{e.url}/standings", headers=auth(e.edit))).headers["ETag"]
            for e in (small, large)}
    cases: dict[str, Callable[[], object]] = {
        "standings, small event (2 tables), unchanged": read(small),
        "standings, large event (240 tables), unchanged": read(large),
        "standings, small event, If-None-Match (304)":
            read(small, {"If-None-Match": tags[small.id]}),
        "standings, large event, If-None-Match (304)":
            read(large, {"If-None-Match": tags[large.id]}),
    }
    timings: dict[str, list[float]] = {name: [] for name in cases}
    ratios: dict[str, list[float]] = {name: [] for name in cases}
    baseline: list[float] = []
    for _ in range(args.rounds):
        base = seconds_per_call(lambda: ok(client.get(f"{API}/health")), args.seconds)
        baseline.append(base)
        for name, call in cases.items():
            took = seconds_per_call(call, args.seconds)
            timings[name].append(took)
            ratios[name].append(took / base)
    # After a change the standings are made again; the hand's own cost is taken off.
    recompute: dict[str, list[float]] = {"small": [], "large": []}
    for _ in range(args.rounds):
        for label, event in (("small", small), ("large", large)):
            both = seconds_per_call(changed(event), args.seconds)
            hand = seconds_per_call(hand_only(event), args.seconds)
            recompute[label].append(max(both - hand, 0.0))
    base = statistics.median(baseline)
    print(f"GET /health (yardstick): {base * 1e3:8.3f} ms (median of {args.rounds})")
    for name in cases:
        print(f"{name:<52} {statistics.median(timings[name]) * 1e3:8.3f} ms   "
              f"ratio {statistics.median(ratios[name]):6.2f} x health")
    for label in ("small", "large"):
        took = statistics.median(recompute[label])
        print(f"{'standings after a hand, ' + label + ' event':<52} {took * 1e3:8.3f} ms   "
              f"ratio {took / base:6.2f} x health")
    large_read = statistics.median(timings["standings, large event (240 tables), unchanged"])
    small_read = statistics.median(timings["standings, small event (2 tables), unchanged"])
    print(f"a read during a round, large over small event: {large_read / small_read:.2f}")
    print(f"POST rounds, round 6 of 160 players (40 tables seated, 40 games made): "
          f"{seating * 1e3:.1f} ms ({seating / base:.0f} x health)")


if __name__ == "__main__":
    main()
