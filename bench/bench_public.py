"""Benchmark: the public results page and its JSON, served from their cache, against
``GET /api/v1/health`` in the same rounds; and made again after a change, against a game's
read.

A published event of 32 players of ``gatti-4`` (8 tables), three rounds played and a fourth
under way, through the API. Timed, in one process through Flask's test client on a
temporary SQLite file:

- ``GET /results/events/{id}`` while nothing changed (the page kept for its entity tag, the
  published state read within the last second: no query), with ``If-None-Match`` (304), and
  ``GET /api/v1/public/events/{id}`` likewise; and the page with the state queried at every
  read (``PUBLIC_FRESH_SECONDS=0``); each as its throughput over health's (``x health``: 1.0
  is as many reads a second as ``/health``);
- the page right after a hand was corrected (``PUBLIC_FRESH_SECONDS=0``: made again at once: the event read, its standings and
  tables named, the page rendered; the correction's own time measured apart and taken off),
  as a ratio of its time to ``GET /games/{id}``'s right after the same correction (the
  table's own read made again: what "a game's read when something changed" costs), and to
  the same read answered from its kept body.

Run from the repository root (some seconds):

    .venv/bin/python bench/bench_public.py [--seconds 0.5] [--rounds 5]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from bench_event_reads import API, Event, auth, ok, seconds_per_call, setup

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    args, client = setup(__doc__.splitlines()[0])
    event = Event(client, 32)
    ok(client.patch(event.url, json={"public": True}, headers=auth(event.edit)))
    for number in range(1, 4):
        event.start()
        event.play_round()
        event.close(number)
    event.start()
    event.play_round()
    page, public = f"/results/events/{event.id}", f"{API}/public/events/{event.id}"
    table = event.tables[0]
    game = f"{API}/games/{table['game']}"
    page_tag = ok(client.get(page)).headers["ETag"]
    json_tag = ok(client.get(public)).headers["ETag"]

    def get(url: str, status: int = 200, **headers: str) -> Callable[[], object]:
        return lambda: ok(client.get(url, headers=headers), status)

    cached: dict[str, Callable[[], object]] = {
        "page, unchanged (kept body)": get(page),
        "page, If-None-Match (304)": get(page, 304, **{"If-None-Match": page_tag}),
        "public JSON, unchanged (kept body)": get(public),
        "public JSON, If-None-Match (304)": get(public, 304, **{"If-None-Match": json_tag}),
    }
    config = client.application.config
    queried = "page, unchanged, state queried each read"
    speed: dict[str, list[float]] = {name: [] for name in [*cached, queried]}
    times: dict[str, list[float]] = {name: [] for name in [*cached, queried]}
    baseline: list[float] = []
    for _ in range(args.rounds):
        base = seconds_per_call(get(f"{API}/health"), args.seconds)
        baseline.append(base)
        for name, call in cached.items():
            took = seconds_per_call(call, args.seconds)
            times[name].append(took)
            speed[name].append(base / took)
        config["PUBLIC_FRESH_SECONDS"] = 0
        took = seconds_per_call(get(page), args.seconds)
        config.pop("PUBLIC_FRESH_SECONDS")
        times[queried].append(took)
        speed[queried].append(base / took)
    config["PUBLIC_FRESH_SECONDS"] = 0  # after a change: the page made again at once

    def changed() -> object:
        event.correct(table)  # its own cost is measured apart and taken off
        return ok(client.get(page))

    read_game = get(game, **auth(table["tokens"]["read"]))

    def game_changed() -> object:
        event.correct(table)
        return read_game()

    remade: list[float] = []
    game_reads: list[float] = []
    game_remade: list[float] = []
    for _ in range(args.rounds):
        both = seconds_per_call(changed, args.seconds)
        hand = seconds_per_call(lambda: event.correct(table), args.seconds)
        read = seconds_per_call(read_game, args.seconds)
        game_both = seconds_per_call(game_changed, args.seconds)
        remade.append(max(both - hand, 0.0))
        game_reads.append(read)
        game_remade.append(max(game_both - hand, 0.0))
    base = statistics.median(baseline)
    print(f"GET /health (yardstick): {base * 1e3:8.3f} ms (median of {args.rounds})")
    for name, took_each in times.items():
        print(f"{name:<40} {statistics.median(took_each) * 1e3:8.3f} ms   "
              f"throughput {statistics.median(speed[name]):5.2f} x health")
    took, read = statistics.median(remade), statistics.median(game_reads)
    fresh = statistics.median(game_remade)
    print(f"{'GET /games/{id}, unchanged (kept body)':<40} {read * 1e3:8.3f} ms")
    print(f"{'GET /games/{id} after a hand':<40} {fresh * 1e3:8.3f} ms")
    print(f"{'page after a hand (made again)':<40} {took * 1e3:8.3f} ms   "
          f"ratio {took / fresh:5.2f} x the game's read after the same hand, "
          f"{took / read:5.2f} x its kept read")


if __name__ == "__main__":
    main()
