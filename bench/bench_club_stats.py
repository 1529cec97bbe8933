"""Benchmark: a member's statistics in a club of 60 members and 5,000 finished games: the goal
is that a member with 500 games of history answers within 3x a game's read.

The club is made through the API (the club, its 60 members); its 5,000 games are played
through the service's own use cases, not over HTTP, to be quick to set up (half a minute
rather than several): ``GameService.create_game`` with the club's members at the seats,
``add_hand`` for each hand and ``end_evening`` for a Mitigatti evening, fifty games to a
unit of work. That is the code a request runs below its view, so every game's rows of the
club's results, and their facts, are written by the real projection as it finishes. The
games: half ``gatti-3`` (three hands), a quarter ``gatti-4`` (four hands), 15 % a
``mitigatti-4`` evening (three hands with a called card, then "the evening is over") and
10 % ``ottocento`` (a rubber won in one hand); 3 or 4 members drawn from the 60 at each,
one of them (the regular) at about one game in ten: some 500 games.

Timed, in one process through Flask's test client on a temporary SQLite file, each as a
ratio to ``GET /api/v1/health`` in the same rounds:

- ``GET /games/{id}`` of the club's newest ``gatti-3`` game the regular did not play (the
  goal's yardstick), and the same right after its last hand was corrected (its body made
  again; the correction's own time not counted, as below);
- ``GET /clubs/{id}/members/{m}/stats`` for the regular, all time: while nothing changed
  (its body kept for its tag); right after a result elsewhere in the club (that game
  corrected: the regular's rows did not move, so neither did the tag); right after a
  result of theirs (their newest ``gatti-3`` game corrected: the figures summed again from
  their rows);
- the same over one season (the last four months: its tag is the club's results', so any
  result makes it again) and for one variant after a result of theirs;
- ``GET /clubs/{id}/ratings?family=gatti``: while nothing changed, and right after a result
  (the yardstick game corrected: the ratings kept are rated again from it on, and the
  table read again, as after any game finishing);

and each statistics' read over the game's read, and over the game's read after its hand.

Run from the repository root (a minute or so, most of it playing the 5,000 games):

    .venv/bin/python bench/bench_club_stats.py [--seconds 0.5] [--rounds 5] [--games 5000]
        [--members 60]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench_event_reads import API, auth, ok, seconds_per_call, setup

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.application.games import GameService
from service.application.unit_of_work import UnitOfWorkFactory
from service.domain import find_variant
from service.domain.ottocento.combos import SIGNIFICANT

MEMBERS = 60
PER_UNIT = 50
ALL_SIGNIFICANT = [c.code for c in find_variant("ottocento").pack.sort(SIGNIFICANT)]


class Clock:
    """The service's clock for the setup: the games finish one after the other over
    fourteen months, so that months and seasons have something to tell apart."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=9)
        return self.now


def gatti3(number: int) -> dict[str, Any]:
    first = 20 + number % 30
    return {"piles": [{"side": 0, "points": first}, {"side": 1, "points": 55 - first}]}


def gatti4(number: int) -> dict[str, Any]:
    side0 = 30 + number % 13
    return {"piles": [{"side": 0, "points": side0}, {"side": 1, "points": 72 - side0}]}


def mitigatti4(number: int, dealer: int) -> dict[str, Any]:
    partner = (dealer + 1 + number % 3) % 4
    return {"contract": {"type": "call", "declarer": dealer, "called_card": "KC",
                         "partner": partner},
            "piles": [{"side": 0, "points": 25 + number % 25}]}


def ottocento() -> dict[str, Any]:
    return {"discard": ["6S", "7S"], "last_trick": 2,
            "piles": [{"side": 0, "tricks": 16, "counting": ALL_SIGNIFICANT}]}


class Club:
    """The club: its tokens, its members, and its games played by the use cases."""

    def __init__(self, client: Any, app: Any, seed: int, members: int = MEMBERS) -> None:
        self.client = client
        created = ok(client.post(f"{API}/clubs", json={"name": "Circolo del Giovedì"}), 201)
        self.id, self.tokens = created.json["id"], created.json["tokens"]
        self.url = f"{API}/clubs/{self.id}"
        self.members = [ok(client.post(f"{self.url}/members", json={"name": f"Socio {i + 1}"},
                                       headers=auth(self.tokens["edit"])), 201).json["id"]
                        for i in range(members)]
        self.regular = self.members[0]
        self.games: GameService = app.extensions["segnapunti.games"]
        self.units: UnitOfWorkFactory = app.extensions["segnapunti.units"]
        self.random = random.Random(seed)
        #: The newest gatti-3 game with the regular, and without: id, edit token, last hand
        #: and its number.
        self.last: dict[bool, tuple[str, str, dict[str, Any], int]] = {}

    def seats(self, n: int) -> list[str]:
        others = self.random.sample(self.members[1:], n)
        if self.random.random() < 0.1:
            others[self.random.randrange(n)] = self.regular
        return others

    def play(self, number: int) -> None:
        """Game ``number``: its variant by the mix, its members, its hands to its end."""
        pick = number % 20
        variant = ("gatti-3" if pick < 10 else "gatti-4" if pick < 15
                   else "mitigatti-4" if pick < 18 else "ottocento")
        seats = self.seats(3 if variant == "gatti-3" else 4)
        names = [f"Socio {self.members.index(m) + 1}" for m in seats]
        unit = self.units()
        created = self.games.create_game(unit, variant, None, names, None,
                                         club=(self.id, tuple(seats)))
        game, edit = created.view.id, created.edit_token
        hands = {"gatti-3": 3, "gatti-4": 4, "mitigatti-4": 3, "ottocento": 1}[variant]
        for k in range(hands):
            access = self.games.authorize(game, edit, write=True)
            dealer = self.games.view_for(access).summary.next_dealer
            assert dealer is not None
            record = (gatti3(number + k) if variant == "gatti-3" else
                      gatti4(number + k) if variant == "gatti-4" else
                      mitigatti4(number + k, dealer) if variant == "mitigatti-4" else
                      ottocento())
            self.games.add_hand(unit, access, {"dealer": dealer, **record})
            if variant == "gatti-3":
                self.last[self.regular in seats] = (game, edit, {"dealer": dealer, **record},
                                                    k + 1)
        if variant == "mitigatti-4":
            self.games.end_evening(unit, self.games.authorize(game, edit, write=True), True)

    def build(self, count: int) -> None:
        for first in range(0, count, PER_UNIT):
            unit = self.units()

            def batch(first: int = first) -> None:
                for number in range(first, min(first + PER_UNIT, count)):
                    self.play(number)

            # Fifty games a transaction: the setup's commits are not what is measured.
            with unit.store.atomic():
                batch()


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--members", type=int, default=MEMBERS)


def main() -> None:
    args, client = setup(__doc__.splitlines()[0], _options)
    clock = Clock(datetime.now(UTC) - timedelta(days=420))
    club = Club(client, client.application, args.seed, args.members)
    club.games.clock = clock
    began = time.perf_counter()
    club.build(args.games)
    built = time.perf_counter() - began
    club.games.clock = lambda: datetime.now(UTC)

    read = auth(club.tokens["read"])
    stats_url = f"{club.url}/members/{club.regular}/stats"
    whole = ok(client.get(stats_url, headers=read)).json
    season_from = (datetime.now(UTC) - timedelta(days=120)).date().isoformat()
    season = ok(client.post(f"{club.url}/seasons", json={
        "name": "Last four months", "from": season_from, "to": "2099-12-31"},
        headers=auth(club.tokens["edit"])), 201).json["id"]
    # The yardstick: the club's newest game of the commonest kind (gatti-3, three hands)
    # that the regular did not play; and the newest they played.
    elsewhere, theirs = club.last[False], club.last[True]

    def correct(which: tuple[str, str, dict[str, Any], int]) -> None:
        """The game's last hand corrected with itself: a new version, its rows written
        again (a result moved)."""
        game, edit, hand, number = which
        ok(client.put(f"{API}/games/{game}/hands/{number}", json=hand,
                      headers={**auth(edit), "If-Match": "*"}))

    def after(which: tuple[str, str, dict[str, Any], int], url: str,
              token: dict[str, str] = read) -> Callable[[], float]:
        """Seconds a read takes right after a result of ``which`` moved, the correction
        not counted."""
        def timed() -> float:
            spent, calls, start_all = 0.0, 0, time.perf_counter()
            while time.perf_counter() - start_all < args.seconds:
                correct(which)
                start = time.perf_counter()
                ok(client.get(url, headers=token))
                spent += time.perf_counter() - start
                calls += 1
            return spent / calls
        return timed

    def unchanged(url: str, token: dict[str, str] = read) -> Callable[[], float]:
        return lambda: seconds_per_call(lambda: ok(client.get(url, headers=token)),
                                        args.seconds)

    game_url, game_read = f"{API}/games/{elsewhere[0]}", auth(elsewhere[1])
    cases: dict[str, Callable[[], float]] = {
        "GET /games/{id} (a game's read)": unchanged(game_url, game_read),
        "a game's read after its hand": after(elsewhere, game_url, game_read),
        "stats, unchanged": unchanged(stats_url),
        "stats, after a result elsewhere": after(elsewhere, stats_url),
        "stats, after a result of theirs": after(theirs, stats_url),
        "stats, a season, after a result": after(elsewhere, f"{stats_url}?season={season}"),
        "stats, a variant, after their result": after(theirs, f"{stats_url}?variant=gatti-3"),
        "ratings, unchanged": unchanged(f"{club.url}/ratings?family=gatti"),
        "ratings, after a result": after(elsewhere, f"{club.url}/ratings?family=gatti"),
    }
    timings: dict[str, list[float]] = {name: [] for name in cases}
    baseline: list[float] = []
    for _ in range(args.rounds):
        baseline.append(seconds_per_call(lambda: ok(client.get(f"{API}/health")),
                                         args.seconds))
        for name, timed in cases.items():
            timings[name].append(timed())
    base = statistics.median(baseline)
    print(f"a club of {args.members} members and {args.games} finished games, built in "
          f"{built:.0f} s; the regular member has {whole['games']} games")
    print(f"GET /health (yardstick): {base * 1e3:8.3f} ms (median of {args.rounds})")
    for name, values in timings.items():
        took = statistics.median(values)
        print(f"{name:<40} {took * 1e3:8.3f} ms   ratio {took / base:6.2f} x health")
    game_took = statistics.median(timings["GET /games/{id} (a game's read)"])
    after_hand = statistics.median(timings["a game's read after its hand"])
    print("over a game's read (the goal: within 3), and over a game's read after its hand:")
    for name in [n for n in cases if n.startswith(("stats", "ratings"))]:
        took = statistics.median(timings[name])
        print(f"  {name:<40} {took / game_took:6.2f}   {took / after_hand:6.2f}")


if __name__ == "__main__":
    main()
