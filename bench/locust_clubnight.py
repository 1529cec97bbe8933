"""Load: a championship night, every phone of the room behind one address.

What it plays (``gatti-4``, ``individual`` format): ``CLUBNIGHT_TABLES`` tables (default 40)
of four players, each player with the page open on their own phone, one organiser's phone and
two wall boards, all from the one address locust runs on (through the proxy, the room's public
address). What each of them does is what the page does:

- every phone, the boards and the organiser first load the page cold: the shell, every file it
  names and every module those import (``/sw.js`` too), as a browser with an empty cache does;
- a phone polls its table's game every 4 s with ``If-None-Match`` (the player's own link),
  and confirms each new hand of its table with its player's token once it has seen it;
- the table's scorekeeper (seat 0's phone) records a hand every ``HAND_MINUTES`` simulated
  minutes (± 20 %), with the edit token, until the game's four hands are played;
- the boards poll the event and its standings every 4 s with ``If-None-Match``;
- the organiser polls the same, and once every table has finished (or the round's time,
  ``ROUND_MINUTES`` simulated, is up) closes the round and starts the next; the phones then
  find their new tables, as players do when the board shows the next round.

Time runs ``CLUBNIGHT_SPEEDUP`` times faster at the tables (default 10: a hand every ~30 s);
polls keep the page's real 4 s. 30 simulated minutes are ``--run-time 3m`` at the default:
the first round's four hands, the round closed at 24 minutes at the latest (the tables still
playing then count as they stand), and the second round's first hands.

    make bench-clubnight                          # the topology of deploy/, 40 tables
    .venv/bin/locust -f bench/locust_clubnight.py --headless --host http://127.0.0.1:8080 \\
        --users 163 --spawn-rate 40 --run-time 3m --only-summary

``--users`` must be ``4 × tables + 3 × sections``: an event holds at most 200 entrants, so a
night of more than 40 tables runs in sections of 40, each an event with its organiser and
two boards (``bench/bench_clubnight.py`` counts them). At the end it prints each kind of request with its
count, errors and p50/p95/p99 in ms, and whether the goal held (no error of any kind; p99 of
a hand and of a poll at most 100 ms). ``bench/bench_clubnight.py`` runs it at 40, 80, 120…
tables to find the knee. It is a benchmark, not a test.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import re
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from locust import FastHttpUser, events, task
from locust.env import Environment

TABLES = int(os.environ.get("CLUBNIGHT_TABLES", "40"))
SPEEDUP = float(os.environ.get("CLUBNIGHT_SPEEDUP", "10"))
HAND_MINUTES = float(os.environ.get("CLUBNIGHT_HAND_MINUTES", "5"))
ROUND_MINUTES = float(os.environ.get("CLUBNIGHT_ROUND_MINUTES", "24"))
POLL_S = 4.0
#: An event holds at most 200 entrants: a larger night runs in sections of 40 tables, each an
#: event with its organiser and its two wall boards.
SECTION_TABLES = 40
SECTIONS = max(1, -(-TABLES // SECTION_TABLES))
VARIANT = "gatti-4"
SEATS = 4
HANDS_PER_GAME = 4
#: What the goal allows, in ms, at the 99th percentile.
GOAL_P99_MS = 100
GOAL_KINDS = ("hand", "poll game")

API = "/api/v1"
log = logging.getLogger("clubnight")


def hand_seconds() -> float:
    """Real seconds between two hands at a table (± 20 %)."""
    return HAND_MINUTES * 60 / SPEEDUP * random.uniform(0.8, 1.2)


@dataclass
class Table:
    game: str
    edit: str
    players: list[str]
    names: list[str]
    hands: int = 0


@dataclass
class Section:
    """One event of the night as its organiser set it up: shared by its phones and boards."""

    number: int
    tables_planned: int
    event: str = ""
    edit: str = ""
    read: str = ""
    round: int = 0
    round_started: float = 0.0
    tables: list[Table] = field(default_factory=list)
    seat_of: dict[str, tuple[int, int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def entrant(self, i: int) -> str:
        return f"Giocatore {self.number + 1}.{i + 1:03d}"

    def finished(self) -> bool:
        return all(t.hands >= HANDS_PER_GAME for t in self.tables)


@dataclass
class Night:
    host: str = ""
    files: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    not_modified: int = 0
    polls: int = 0
    ready: bool = False


NIGHT = Night(sections=[Section(k, min(SECTION_TABLES, TABLES - k * SECTION_TABLES))
                        for k in range(SECTIONS)])
PHONES = itertools.count()
WATCHERS = itertools.count()
ORGANISERS = itertools.count()


def phone_seat(p: int) -> tuple[Section, str]:
    """The section and entrant of the ``p``-th phone to arrive."""
    p %= SEATS * TABLES
    for section in NIGHT.sections:
        if p < SEATS * section.tables_planned:
            return section, section.entrant(p)
        p -= SEATS * section.tables_planned
    raise AssertionError("every phone has a seat")


# -- the organiser's set-up, before any phone arrives (plain HTTP, not measured) -------------


def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(NIGHT.host + API + path, data, headers, method=method)
    for attempt in range(5):
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            if error.code not in (429, 503) or attempt == 4:
                raise RuntimeError(f"{method} {path}: {error.code} {error.read()[:300]!r}")
            time.sleep(float(error.headers.get("Retry-After") or 1))
    raise AssertionError("unreachable")


def seat_round(section: Section, answer: dict[str, Any]) -> None:
    """The round the service seated: each table's game, its tokens and who sits where."""
    tables = []
    for row in answer["tables"]:
        players = call("GET", f"/games/{row['game']}/players", token=row["tokens"]["edit"])
        tables.append(Table(row["game"], row["tokens"]["edit"], list(players["tokens"]),
                            list(row["seats"])))
    seat_of = {name: (t, s) for t, table in enumerate(tables) for s, name in enumerate(table.names)}
    with section.lock:
        section.round = answer["round"]
        section.round_started = time.monotonic()
        section.tables = tables
        section.seat_of = seat_of


def page_files(host: str) -> list[str]:
    """Every file a cold browser fetches to show the page: the shell's links and scripts, the
    modules they import, the service worker."""
    found: list[str] = []
    todo = ["/"]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.append(path)
        with urllib.request.urlopen(host + path, timeout=30) as response:
            text = response.read().decode("utf-8", "replace")
        if path == "/" or path.split("?")[0].endswith(".js"):
            todo.extend(re.findall(r"""["'](/(?:app/[^"'\s]+|sw\.js))["']""", text))
    return found


@events.test_start.add_listener
def set_up_the_night(environment: Environment, **_: Any) -> None:
    NIGHT.host = (environment.host or "http://127.0.0.1:8080").rstrip("/")
    try:
        NIGHT.files = page_files(NIGHT.host)
        for section in NIGHT.sections:
            created = call("POST", "/events", {
                "name": f"Campionato, girone {section.number + 1}", "variant": VARIANT,
                "format": "individual", "rounds": 6, "seed": 2026 + section.number,
                "entrants": [{"name": section.entrant(i)}
                             for i in range(SEATS * section.tables_planned)]})
            section.event, section.edit, section.read = (
                created["id"], created["tokens"]["edit"], created["tokens"]["read"])
            seat_round(section, call("POST", f"/events/{section.event}/rounds", {},
                                     section.edit))
    except (OSError, RuntimeError) as error:
        log.error("the night could not be set up: %s", error)
        environment.process_exit_code = 2
        if environment.runner is not None:
            environment.runner.quit()
        return
    NIGHT.ready = True
    log.info("the night: %d tables in %d section(s), %d page files", TABLES, SECTIONS,
             len(NIGHT.files))


# -- the room ---------------------------------------------------------------------------------


class Visitor(FastHttpUser):
    """Anyone with the page open."""

    abstract = True

    def wait_time(self) -> float:
        return POLL_S

    def load_page(self) -> None:
        for path in NIGHT.files:
            kind = "page" if path == "/" else "page file"
            with self.client.get(path, name=kind, catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"{path}: {response.status_code}")

    def conditional_get(self, path: str, token: str, name: str,
                        etags: dict[str, str]) -> dict[str, Any] | None:
        """The page's poll: the answer's JSON when it changed, ``None`` when it did not."""
        headers = {"Authorization": f"Bearer {token}"}
        if path in etags:
            headers["If-None-Match"] = etags[path]
        with self.client.get(API + path, headers=headers, name=name,
                             catch_response=True) as response:
            NIGHT.polls += 1
            if response.status_code == 304:
                NIGHT.not_modified += 1
                return None
            if response.status_code != 200:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            etags[path] = response.headers.get("ETag", "")
            return response.json()


class Phone(Visitor):
    """A player's phone: polls the table's game, confirms each hand; seat 0 keeps the score."""

    weight = 4

    def on_start(self) -> None:
        self.section, self.name_ = phone_seat(next(PHONES))
        self.etags: dict[str, str] = {}
        self.confirmed: set[tuple[str, int, int]] = set()
        self.round = 0
        self.next_hand = 0.0
        self.next_dealer = 0
        self.load_page()
        self.client.get(f"{API}/variants/{VARIANT}", name="variant")
        time.sleep(random.uniform(0, POLL_S))

    @task
    def at_the_table(self) -> None:
        section = self.section
        where = section.seat_of.get(self.name_)
        if where is None:
            return
        index, seat = where
        table = section.tables[index]
        if self.round != section.round:  # a new round: the phone opens its new table's link
            self.round, self.etags = section.round, {}
            self.next_hand = time.monotonic() + hand_seconds() * random.uniform(0.3, 1.0)
            self.next_dealer = 0
        game = self.conditional_get(f"/games/{table.game}", table.players[seat], "poll game",
                                    self.etags)
        if game is not None:
            self.next_dealer = game.get("next_dealer") or 0
            for hand in game.get("hands", []):
                self.confirm(table, seat, hand)
        if seat == 0 and table.hands < HANDS_PER_GAME and time.monotonic() >= self.next_hand:
            self.record_hand(table)

    def confirm(self, table: Table, seat: int, hand: dict[str, Any]) -> None:
        key = (table.game, hand["number"], hand.get("version", 1))
        if key in self.confirmed:
            return
        self.confirmed.add(key)
        with self.client.post(f"{API}/games/{table.game}/hands/{hand['number']}/confirmations",
                              json={"verdict": "confirm"}, name="verdict",
                              headers={"Authorization": f"Bearer {table.players[seat]}"},
                              catch_response=True) as response:
            if response.status_code not in (200, 201):
                response.failure(f"{response.status_code}: {response.text[:200]}")

    def record_hand(self, table: Table) -> None:
        points = random.randint(0, 72)
        body = {"dealer": self.next_dealer, "piles": [{"side": 0, "points": points}]}
        with self.client.post(f"{API}/games/{table.game}/hands", json=body, name="hand",
                              headers={"Authorization": f"Bearer {table.edit}"},
                              catch_response=True) as response:
            if response.status_code == 201:
                table.hands += 1
                self.next_dealer = (self.next_dealer + 1) % SEATS
                self.next_hand = time.monotonic() + hand_seconds()
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                self.next_hand = time.monotonic() + POLL_S


class Watcher(Visitor):
    """A page that shows the event (locust gathers a class's tasks from its bases too, so the
    board and the organiser share this and each has its own task)."""

    abstract = True

    def on_start(self) -> None:
        self.etags: dict[str, str] = {}
        self.section = NIGHT.sections[self.next_section() % SECTIONS]
        self.load_page()

    def next_section(self) -> int:
        return next(WATCHERS)


class Board(Watcher):
    """A wall board: the event and its standings, polled."""

    fixed_count = 2 * SECTIONS

    @task
    def watch(self) -> None:
        section = self.section
        self.conditional_get(f"/events/{section.event}", section.read, "board event",
                             self.etags)
        self.conditional_get(f"/events/{section.event}/standings", section.read,
                             "board standings", self.etags)


class Organiser(Watcher):
    """The organiser's phone: watches like a board, closes a round and starts the next."""

    fixed_count = SECTIONS

    def next_section(self) -> int:
        return next(ORGANISERS)

    @task
    def watch(self) -> None:
        section = self.section
        self.conditional_get(f"/events/{section.event}", section.edit, "organiser event",
                             self.etags)
        self.conditional_get(f"/events/{section.event}/standings", section.edit,
                             "organiser standings", self.etags)
        timed_out = time.monotonic() - section.round_started > ROUND_MINUTES * 60 / SPEEDUP
        if section.finished() or timed_out:
            self.next_round(section)

    def next_round(self, section: Section) -> None:
        base = f"{API}/events/{section.event}/rounds"
        auth = {"Authorization": f"Bearer {section.edit}"}
        with self.client.post(f"{base}/{section.round}/close", json={}, headers=auth,
                              name="close round", catch_response=True) as response:
            if response.status_code == 409 and "round_closed" in response.text:
                # Every table finished: the last one's hand ended the round already.
                response.success()
            elif response.status_code not in (200, 201):
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return
        with self.client.post(base, json={}, headers=auth, name="start round",
                              catch_response=True) as response:
            if response.status_code != 201:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return
            answer = response.json()
        seat_round(section, answer)


# -- the figures ------------------------------------------------------------------------------


@events.quitting.add_listener
def report(environment: Environment, **_: Any) -> None:
    if getattr(environment, "clubnight_reported", False):
        return
    environment.clubnight_reported = True  # type: ignore[attr-defined]
    stats = environment.stats
    rows = sorted(stats.entries.values(), key=lambda s: s.name)
    print(f"\nclub night: {TABLES} tables, {SEATS * TABLES} phones, {2 * SECTIONS} boards, "
          f"{SECTIONS} organiser(s), one address; rounds started "
          f"{sum(s.round for s in NIGHT.sections)}; polls answered 304: "
          f"{NIGHT.not_modified} of {NIGHT.polls}")
    print(f"{'kind':22} {'requests':>9} {'errors':>7} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>7}")
    for s in rows:
        print(f"{s.name:22} {s.num_requests:9d} {s.num_failures:7d} "
              f"{s.get_response_time_percentile(0.5):6.0f} "
              f"{s.get_response_time_percentile(0.95):6.0f} "
              f"{s.get_response_time_percentile(0.99):6.0f} {s.max_response_time:7.0f}")
    total = stats.total
    print(f"{'all':22} {total.num_requests:9d} {total.num_failures:7d} "
          f"{total.get_response_time_percentile(0.5):6.0f} "
          f"{total.get_response_time_percentile(0.95):6.0f} "
          f"{total.get_response_time_percentile(0.99):6.0f} {total.max_response_time:7.0f}")
    worst = max((stats.get(kind, "POST" if kind == "hand" else "GET")
                 .get_response_time_percentile(0.99) or 0) for kind in GOAL_KINDS)
    held = total.num_failures == 0 and worst <= GOAL_P99_MS
    print(f"goal (0 errors; p99 of a hand and a poll <= {GOAL_P99_MS} ms): "
          f"{'held' if held else 'missed'} (errors {total.num_failures}, worst p99 {worst:.0f} ms)")
    for error in stats.errors.values():
        print(f"error: {error.occurrences} × {error.method} {error.name}: {error.error}")
