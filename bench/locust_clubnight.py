"""Load: a championship night, every phone of the room behind one address.

What it plays (``gatti-4``, ``individual`` format): ``CLUBNIGHT_TABLES`` tables (default 40)
of four players, each player with the page open on their own phone, one organiser's phone and
two wall boards, all from the one address locust runs on (through the proxy, the room's public
address). What each of them does is what the page does:

- every phone, the boards and the organiser first load the page cold: the shell, every file it
  names and every module those import (``/sw.js`` too), as a browser with an empty cache does
  (with ``CLUBNIGHT_PAGES=cached`` none does: the page is in every phone's cache already);
- a phone polls its table's game every 4 s with ``If-None-Match`` (the player's own link),
  and confirms each new hand of its table with its player's token once it has seen it, a
  player's tap a few seconds later (``TAP_S``: the time to read the hand);
- the table's scorekeeper (seat 0's phone) records a hand every ``HAND_MINUTES`` simulated
  minutes (± 20 %), with the edit token, until the game's four hands are played;
- the boards poll the event and its standings every 4 s with ``If-None-Match``;
- the organiser polls the same, and once every table has finished (or the round's time,
  ``ROUND_MINUTES`` simulated, is up) closes the round and starts the next; the phones then
  find their new tables, as players do when the board shows the next round: each opens its
  new table's game at a moment drawn evenly within ``CLUBNIGHT_MOVE_MINUTES`` simulated
  minutes (default 1; 0: all within the same second, the worst case).

With ``CLUBNIGHT_LIVE=streams`` the screens hold streams instead of polling (Server-Sent
Events through the proxy, each a gevent greenlet reading the answer line by line, opened again
with ``Last-Event-ID`` when cut): a phone holds its game's stream and takes the game each
change event carries, as the page does, reading it (``If-None-Match``, as ``read game``) only
when it opens its table or an event carried none; the boards and the
organiser hold the event's stream and read the event and its standings when told. With
``CLUBNIGHT_SPECTATORS=n`` (streams only) n spectators hold a stream and nothing else, every
other one on a section's board (``/api/v1/events/{id}/stream``, the read token), the others on
its results page (``/results/events/{id}/stream``: each section is published at set-up). A
stream refused, cut or silent for 40 s is a failure (``stream … open``, ``stream … cut``).
At the end it prints, for each kind of stream, how many (stream, hand) pairs heard of the hand
within 2 s and 5 s, and the delays' p50 and p99: ``heard`` says how a delay is counted.
``CLUBNIGHT_STATUS_FILE`` names a file where the number of open streams is written every
second. ``CLUBNIGHT_FIELD=1`` makes the sections (``CLUBNIGHT_SECTION_TABLES`` tables each)
one field of duplicate events, the first its host, each with a field board that reads the
field's standings (``field standings``).

Time runs ``CLUBNIGHT_SPEEDUP`` times faster at the tables (default 10: a hand every ~30 s);
polls keep the page's real 4 s. 30 simulated minutes are ``--run-time 3m`` at the default:
the first round's four hands, the round closed at 24 minutes at the latest (the tables still
playing then count as they stand), and the second round's first hands.

    make bench-clubnight                          # the topology of deploy/, 40 tables
    .venv/bin/locust -f bench/locust_clubnight.py --headless --host http://127.0.0.1:8080 \\
        --users 163 --spawn-rate 40 --run-time 3m --only-summary

``--users`` must be ``4 × tables + 3 × sections`` (+ spectators, + a field board a section
in a field): an event holds at most 200 entrants, so a
night of more than 40 tables runs in sections of 40, each an event with its organiser and
two boards (``bench/bench_clubnight.py`` counts them). At the end it prints each kind of request with its
count, errors and p50/p95/p99 in ms, and whether the goal held (no error of any kind; p99 of
a hand and of a poll at most 100 ms). Those figures are the room's at its pace: they start
again once every page is loaded (``arrived``); the arrival's time, requests and errors are
printed apart, and its errors count against the goal too. ``bench/bench_clubnight.py`` runs it at 40, 80, 120…
tables to find the knee (polling); ``bench/bench_live.py`` runs it with streams and with
polling. It is a benchmark, not a test.
"""

from __future__ import annotations

import bisect
import http.client
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

import gevent
from gevent.event import Event
from locust import FastHttpUser, events, task
from locust.env import Environment

TABLES = int(os.environ.get("CLUBNIGHT_TABLES", "40"))
SPEEDUP = float(os.environ.get("CLUBNIGHT_SPEEDUP", "10"))
HAND_MINUTES = float(os.environ.get("CLUBNIGHT_HAND_MINUTES", "5"))
ROUND_MINUTES = float(os.environ.get("CLUBNIGHT_ROUND_MINUTES", "24"))
#: The players' move to their new tables once a round starts, in simulated minutes: each phone
#: opens its new table at a moment drawn evenly within it (the players read the board, get
#: up and sit down again). 0: every phone within the second the round starts, the worst case.
MOVE_MINUTES = float(os.environ.get("CLUBNIGHT_MOVE_MINUTES", "1"))
POLL_S = 4.0
#: A player's tap on "confirm", seconds after the hand shows on the phone (the time to read
#: it): a person's, whatever the room's pace. The four players of a table never tap in the
#: same millisecond, as four phones confirming the moment they are told would.
TAP_S = (1.0, 6.0)
#: ``polling`` (the page's 4 s polls) or ``streams`` (each screen holds its resource's stream
#: and reads the resource only when told).
LIVE = os.environ.get("CLUBNIGHT_LIVE", "polling")
if LIVE not in ("polling", "streams"):
    raise SystemExit(f"CLUBNIGHT_LIVE is polling or streams, not {LIVE!r}")
STREAMS = LIVE == "streams"
#: Spectators holding streams (streams only): half on a section's board
#: (``/api/v1/events/{id}/stream``, the read token), half on its published results page
#: (``/results/events/{id}/stream``, no token).
SPECTATORS = int(os.environ.get("CLUBNIGHT_SPECTATORS", "0")) if STREAMS else 0
#: Where the number of open streams is written every second (for bench/bench_live.py).
STATUS_FILE = os.environ.get("CLUBNIGHT_STATUS_FILE", "")
#: ``cached`` (``CLUBNIGHT_PAGES``): every page is in its phone's cache already (the service
#: worker keeps it after a first evening), so none is loaded cold; else each is.
PAGES_CACHED = os.environ.get("CLUBNIGHT_PAGES", "cold") == "cached"
#: A stream with nothing (not even a keep-alive comment) for this long is taken as cut.
STREAM_SILENCE_S = 40.0
#: A field (``CLUBNIGHT_FIELD=1``): every section a duplicate event of one field, the first
#: its host, the others joining with its key; each section's boards also read the field.
FIELD = os.environ.get("CLUBNIGHT_FIELD", "") == "1"
#: A field's wall told of a change reads within this many seconds (field.js's ``SPREAD_MS``).
FIELD_SPREAD_S = 1.0
#: An event holds at most 200 entrants: a larger night runs in sections of 40 tables (a field's
#: of ``CLUBNIGHT_SECTION_TABLES``), each an event with its organiser and its two wall boards.
SECTION_TABLES = int(os.environ.get("CLUBNIGHT_SECTION_TABLES", "40"))
SECTIONS = max(1, -(-TABLES // SECTION_TABLES))
BOARDS_A_ROUND = 4
VARIANT = "gatti-4"
SEATS = 4
HANDS_PER_GAME = 4
#: What the goal allows, in ms, at the 99th percentile.
GOAL_P99_MS = 100
READ_GAME = "read game" if STREAMS else "poll game"
GOAL_KINDS = ("hand", READ_GAME)

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


@dataclass(eq=False)
class Stream:
    """One screen's stream: what it follows (``g:<game>``, ``e:<event>``: the event and its
    standings, ``r:<event>``: the published results page), and when each change event came."""

    role: str
    scope: str
    opened: float = 0.0
    closed: float | None = None
    arrivals: list[float] = field(default_factory=list)
    cuts: int = 0
    #: What the last change event carried (a game's: its entity tag and body), until taken.
    carried: tuple[str, dict[str, Any]] | None = None


@dataclass
class Night:
    host: str = ""
    files: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    not_modified: int = 0
    polls: int = 0
    ready: bool = False
    #: Every hand recorded: (sent, answered, game, event), monotonic seconds.
    hands: list[tuple[float, float, str, str]] = field(default_factory=list)
    streams: list[Stream] = field(default_factory=list)
    open_streams: int = 0
    #: Pages loaded so far; once every visitor's is (``arrived``), the figures start again.
    loaded: int = 0
    #: The room's arrival: seconds from the first user to the last page loaded, requests and
    #: errors meanwhile (cold page loads all at once: not what a hand or a read costs at the
    #: room's pace, so kept apart; its errors still count against the goal).
    arrival: tuple[float, int, int] | None = None
    #: When it arrived (the wall clock: what the proxy's log is read from).
    arrived_at: float = 0.0
    started: float = field(default_factory=time.monotonic)


NIGHT = Night(sections=[Section(k, min(SECTION_TABLES, TABLES - k * SECTION_TABLES))
                        for k in range(SECTIONS)])
PHONES = itertools.count()
WATCHERS = itertools.count()
ORGANISERS = itertools.count()
FIELD_BOARDS = itertools.count()


#: Users that load the page: the phones, the boards, the organisers and the field's boards.
VISITORS = SEATS * TABLES + 3 * SECTIONS + (SECTIONS if FIELD else 0)


def arrived(environment: Environment) -> None:
    """Every page is loaded: what the arrival cost is kept apart (``NIGHT.arrival``) and the
    request figures start again from here, the room at its pace."""
    total = environment.stats.total
    NIGHT.arrival = (time.monotonic() - NIGHT.started, total.num_requests, total.num_failures)
    NIGHT.arrived_at = time.time()
    for error in environment.stats.errors.values():
        print(f"error while the room arrived: {error.occurrences} × {error.method} "
              f"{error.name}: {error.error}")
    environment.stats.reset_all()
    log.info("every page loaded after %.0f s: the figures start again", NIGHT.arrival[0])


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
        host, key = "", ""
        for section in NIGHT.sections:
            extra: dict[str, Any] = {}
            if FIELD:
                extra = ({"deals": "duplicate", "boards_per_round": BOARDS_A_ROUND,
                          "field": {"join": host, "key": key}} if host else
                         {"deals": "duplicate", "boards_per_round": BOARDS_A_ROUND,
                          "field": True})
            body = {
                "name": f"Campionato, girone {section.number + 1}", "variant": VARIANT,
                "format": "individual", "rounds": 6, "seed": 2026 + section.number,
                "entrants": [{"name": section.entrant(i)}
                             for i in range(SEATS * section.tables_planned)], **extra}
            if FIELD and host:
                del body["seed"]  # a section plays the host's boards, dealt from its seed
            created = call("POST", "/events", body)
            if FIELD and not host:
                host, key = created["id"], created["tokens"]["field"]
            section.event, section.edit, section.read = (
                created["id"], created["tokens"]["edit"], created["tokens"]["read"])
            seat_round(section, call("POST", f"/events/{section.event}/rounds", {},
                                     section.edit))
            if SPECTATORS:  # the results page the spectators follow
                call("PATCH", f"/events/{section.event}", {"public": True}, section.edit)
    except (OSError, RuntimeError) as error:
        log.error("the night could not be set up: %s", error)
        environment.process_exit_code = 2
        if environment.runner is not None:
            environment.runner.quit()
        return
    NIGHT.ready = True
    NIGHT.started = time.monotonic()
    if STATUS_FILE:
        gevent.spawn(write_status)
    log.info("the night: %d tables in %d section(s), %d page files", TABLES, SECTIONS,
             len(NIGHT.files))


def write_status() -> None:
    while True:
        with open(STATUS_FILE, "w") as f:
            f.write(f"{NIGHT.open_streams}\n")
        gevent.sleep(1.0)


# -- streams ----------------------------------------------------------------------------------


def hold_stream(environment: Environment, path: str, token: str | None, stream: Stream,
                told: Event | None, stop: Event) -> None:
    """Hold ``GET path/stream`` through the proxy until ``stop`` is set, reading it line by
    line (a gevent socket: locust patches the standard library); each change event noted in
    ``stream.arrivals`` and ``told`` set. A stream cut (closed, an error, ``STREAM_SILENCE_S``
    without a byte, a status other than 200) is a failure, and the stream opens again with
    ``Last-Event-ID`` after the ``retry`` it was told."""
    host, _, port = NIGHT.host.split("//", 1)[1].partition(":")
    headers = {"Accept": "text/event-stream", "Accept-Encoding": "identity"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    name = f"stream {stream.role}"
    last_id = ""
    retry = 3.0
    while not stop.is_set():
        if last_id:
            headers["Last-Event-ID"] = last_id
        started = time.monotonic()
        connection = http.client.HTTPConnection(host, int(port or 80), timeout=STREAM_SILENCE_S)
        opened = False
        error: str | None = None
        try:
            connection.request("GET", path + "/stream", headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                error = f"{response.status}: {response.read()[:200]!r}"
            else:
                opened = True
                NIGHT.open_streams += 1
                if not stream.opened:
                    stream.opened = time.monotonic()
                environment.events.request.fire(
                    request_type="GET", name=f"{name} open",
                    response_time=(time.monotonic() - started) * 1000, response_length=0,
                    exception=None, context={})
                event = ""
                data: list[str] = []
                while not stop.is_set():
                    line = response.readline()
                    if not line:
                        error = "closed by the server"
                        break
                    text = line.decode("utf-8", "replace").rstrip("\r\n")
                    if text.startswith("event:"):
                        event = text[6:].strip()
                    elif text.startswith("id:"):
                        last_id = text[3:].strip()
                    elif text.startswith("retry:"):
                        retry = int(text[6:].strip()) / 1000
                    elif text.startswith("data:"):
                        data.append(text[5:].removeprefix(" "))
                    elif text == "":
                        if event == "change":
                            stream.arrivals.append(time.monotonic())
                            said = json.loads("\n".join(data)) if data else {}
                            if "body" in said:  # a game's event carries the game
                                stream.carried = (said["etag"], said["body"])
                            if told is not None:
                                told.set()
                        elif event == "gone":
                            error = "gone"
                            break
                        event = ""
                        data = []
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__}: {exc}"
        finally:
            if opened:
                NIGHT.open_streams -= 1
            connection.close()
        if stop.is_set():
            break
        stream.cuts += 1
        environment.events.request.fire(
            request_type="GET", name=f"{name} cut" if opened else f"{name} open",
            response_time=(time.monotonic() - started) * 1000, response_length=0,
            exception=RuntimeError(error or "cut"), context={})
        stop.wait(retry)
    stream.closed = time.monotonic()


class Holder:
    """A user's one stream at a time: opened on a path, moved to another, ended."""

    def __init__(self, environment: Environment, role: str) -> None:
        self.environment = environment
        self.role = role
        self.told = Event()
        self.path = ""
        self.stop: Event | None = None
        self.stream: Stream | None = None

    def follow(self, path: str, token: str | None, scope: str) -> None:
        if path == self.path:
            return
        self.end()
        self.path = path
        self.stop = Event()
        stream = self.stream = Stream(self.role, scope)
        NIGHT.streams.append(stream)
        self.told.set()  # the screen reads what it now shows once
        gevent.spawn(hold_stream, self.environment, path, token, stream, self.told,
                     self.stop)

    def end(self) -> None:
        if self.stop is not None:
            self.stop.set()
        self.stop = None

    def wait(self, most: float) -> bool:
        """Whether the stream told of a change within ``most`` seconds."""
        told = self.told.wait(max(0.0, most))
        self.told.clear()
        return bool(told)

    def carried(self) -> tuple[str, dict[str, Any]] | None:
        """What the stream's last change carried (a game's entity tag and body), taken."""
        stream = self.stream
        if stream is None or stream.carried is None:
            return None
        found, stream.carried = stream.carried, None
        return found


# -- the room ---------------------------------------------------------------------------------


class Visitor(FastHttpUser):
    """Anyone with the page open."""

    abstract = True

    def wait_time(self) -> float:
        return 0.0 if STREAMS else POLL_S

    def on_stop(self) -> None:
        holder = getattr(self, "holder", None)
        if holder is not None:
            holder.end()

    def load_page(self) -> None:
        for path in () if PAGES_CACHED else NIGHT.files:
            kind = "page" if path == "/" else "page file"
            with self.client.get(path, name=kind, catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"{path}: {response.status_code}")
        NIGHT.loaded += 1
        if NIGHT.loaded == VISITORS:
            arrived(self.environment)

    def conditional_get(self, path: str, token: str, name: str,
                        etags: dict[str, str], *, stale: bool = False) -> dict[str, Any] | None:
        """The page's poll: the answer's JSON when it changed, ``None`` when it did not;
        ``stale``: as an event's screen reads when its stream told it, taking the newest
        state made."""
        headers = {"Authorization": f"Bearer {token}"}
        if stale:
            headers["Cache-Control"] = "max-stale"
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
        #: The hands seen and not yet confirmed: when the player taps, and which.
        self.taps: list[tuple[float, Table, int, dict[str, Any]]] = []
        self.round = 0
        #: When the player sits at the new round's table (monotonic), while moving to it.
        self.seated_at: float | None = None
        self.next_hand = 0.0
        self.next_dealer = 0
        self.holder = Holder(self.environment, "phone") if STREAMS else None
        self.load_page()
        self.client.get(f"{API}/variants/{VARIANT}", name="variant")
        time.sleep(random.uniform(0, POLL_S))

    @task
    def at_the_table(self) -> None:
        section = self.section
        where = section.seat_of.get(self.name_)
        if where is None:
            if self.holder is not None:
                time.sleep(1.0)
            return
        index, seat = where
        table = section.tables[index]
        self.tap_due()
        if self.round != section.round:  # a new round: the phone opens its new table's link
            if self.seated_at is None:  # once the player has moved to it
                self.seated_at = time.monotonic() + random.uniform(
                    0, MOVE_MINUTES * 60 / SPEEDUP)
            if time.monotonic() < self.seated_at:
                time.sleep(min(1.0, self.seated_at - time.monotonic()))
                return
            self.seated_at = None
            self.round, self.etags = section.round, {}
            self.next_hand = time.monotonic() + hand_seconds() * random.uniform(0.3, 1.0)
            self.next_dealer = 0
        if self.holder is not None:
            self.holder.follow(f"{API}/games/{table.game}", table.players[seat],
                               f"g:{table.game}")
            # Told of a change, or the scorekeeper's next hand due, a tap due, or a second (a
            # new round).
            most = min(1.0, self.next_hand - time.monotonic()) if seat == 0 else 1.0
            if self.taps:
                most = min(most, self.taps[0][0] - time.monotonic())
            if not self.holder.wait(max(0.0, most)):
                if seat == 0 and table.hands < HANDS_PER_GAME \
                        and time.monotonic() >= self.next_hand:
                    self.record_hand(table)
                return
        carried = self.holder.carried() if self.holder is not None else None
        path = f"/games/{table.game}"
        if carried is not None and carried[1].get("id") == table.game:
            # The stream's event carried the game, as the page takes it: no read.
            game = carried[1] if self.etags.get(path) != carried[0] else None
            self.etags[path] = carried[0]
        else:
            game = self.conditional_get(path, table.players[seat], READ_GAME, self.etags)
        if game is not None:
            self.next_dealer = game.get("next_dealer") or 0
            for hand in game.get("hands", []):
                self.seen(table, seat, hand)
        if seat == 0 and table.hands < HANDS_PER_GAME and time.monotonic() >= self.next_hand:
            self.record_hand(table)

    def seen(self, table: Table, seat: int, hand: dict[str, Any]) -> None:
        """A hand on the phone: the player taps "confirm" once they have read it."""
        key = (table.game, hand["number"], hand.get("version", 1))
        if key in self.confirmed:
            return
        self.confirmed.add(key)
        self.taps.append((time.monotonic() + random.uniform(*TAP_S), table, seat, hand))
        self.taps.sort(key=lambda tap: tap[0])

    def tap_due(self) -> None:
        """The taps whose moment has come, each a verdict sent."""
        while self.taps and self.taps[0][0] <= time.monotonic():
            _when, table, seat, hand = self.taps.pop(0)
            self.confirm(table, seat, hand)

    def confirm(self, table: Table, seat: int, hand: dict[str, Any]) -> None:
        with self.client.post(f"{API}/games/{table.game}/hands/{hand['number']}/confirmations",
                              json={"verdict": "confirm"}, name="verdict",
                              headers={"Authorization": f"Bearer {table.players[seat]}"},
                              catch_response=True) as response:
            if response.status_code not in (200, 201):
                response.failure(f"{response.status_code}: {response.text[:200]}")

    def record_hand(self, table: Table) -> None:
        points = random.randint(0, 72)
        body = {"dealer": self.next_dealer, "piles": [{"side": 0, "points": points}]}
        if FIELD:  # a duplicate board's both sides, its dealer the game's own
            body["piles"].append({"side": 1, "points": 72 - points})
        sent = time.monotonic()
        with self.client.post(f"{API}/games/{table.game}/hands", json=body, name="hand",
                              headers={"Authorization": f"Bearer {table.edit}"},
                              catch_response=True) as response:
            if response.status_code == 201:
                NIGHT.hands.append((sent, time.monotonic(), table.game, self.section.event))
                table.hands += 1
                self.next_dealer = (self.next_dealer + 1) % SEATS
                self.next_hand = time.monotonic() + hand_seconds()
            elif response.status_code == 409 and "game-closed" in response.text:
                # The organiser closed the round at its time: the table counts as it stands.
                response.success()
                table.hands = HANDS_PER_GAME
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                self.next_hand = time.monotonic() + POLL_S


class Watcher(Visitor):
    """A page that shows the event (locust gathers a class's tasks from its bases too, so the
    board and the organiser share this and each has its own task)."""

    abstract = True

    role = "board"

    def on_start(self) -> None:
        self.etags: dict[str, str] = {}
        self.section = NIGHT.sections[self.next_section() % SECTIONS]
        self.holder = Holder(self.environment, self.role) if STREAMS else None
        self.load_page()

    def next_section(self) -> int:
        return next(WATCHERS)

    def told(self, token: str) -> bool:
        """Streams: whether the event's stream told of a change (waiting a second at most);
        polling: always (the task runs every 4 s)."""
        if self.holder is None:
            return True
        event = self.section.event
        self.holder.follow(f"{API}/events/{event}", token, f"e:{event}")
        return self.holder.wait(1.0)


class Board(Watcher):
    """A wall board: the event and its standings, polled."""

    fixed_count = 2 * SECTIONS

    @task
    def watch(self) -> None:
        section = self.section
        if not self.told(section.read):
            return
        # As the page reads: the newest state made when its stream told it (max-stale), the
        # state as it is now when it polls.
        told = self.holder is not None
        self.conditional_get(f"/events/{section.event}", section.read, "board event",
                             self.etags, stale=told)
        self.conditional_get(f"/events/{section.event}/standings", section.read,
                             "board standings", self.etags, stale=told)


class FieldBoard(Watcher):
    """A field's wall (``CLUBNIGHT_FIELD=1``), one a section: its sections and the field's
    standings (``GET /events/{section}/field?rows=brief``, the section's read token), polled,
    or read when its stream tells."""

    abstract = not FIELD
    fixed_count = SECTIONS if FIELD else 0
    role = "field board"

    def next_section(self) -> int:
        return next(FIELD_BOARDS)

    @task
    def watch(self) -> None:
        section = self.section
        path = f"/events/{section.event}/field"
        if self.holder is not None:
            self.holder.follow(API + path, section.read, f"f:{section.event}")
            if not self.holder.wait(1.0):
                return
            # As the field's page does (field.js): told with every other section's wall, it
            # reads within a second, at a moment of its own.
            gevent.sleep(random.uniform(0, FIELD_SPREAD_S))
        # As the field's page reads it: the brief rows, the body its stream makes ahead.
        self.conditional_get(f"{path}?rows=brief", section.read, "field standings", self.etags,
                             stale=self.holder is not None)


class Organiser(Watcher):
    """The organiser's phone: watches like a board, closes a round and starts the next."""

    fixed_count = SECTIONS
    role = "organiser"

    def next_section(self) -> int:
        return next(ORGANISERS)

    @task
    def watch(self) -> None:
        section = self.section
        if self.told(section.edit):
            told = self.holder is not None
            self.conditional_get(f"/events/{section.event}", section.edit, "organiser event",
                                 self.etags, stale=told)
            self.conditional_get(f"/events/{section.event}/standings", section.edit,
                                 "organiser standings", self.etags, stale=told)
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


SPECTATOR_NUMBERS = itertools.count()


class Spectator(FastHttpUser):
    """Someone in the room or at home with a stream open and nothing else (no page load, no
    reads): every other spectator on a section's board with the read token, the others on its
    published results page."""

    abstract = SPECTATORS == 0
    fixed_count = SPECTATORS

    def wait_time(self) -> float:
        return 1.0

    def on_start(self) -> None:
        n = next(SPECTATOR_NUMBERS)
        self.section = NIGHT.sections[(n // 2) % SECTIONS]
        self.results = n % 2 == 1
        self.ended = Event()

    def on_stop(self) -> None:
        self.ended.set()

    @task
    def watch(self) -> None:
        event = self.section.event
        if self.results:
            stream = Stream("spectator results", f"r:{event}")
            path, token = f"/results/events/{event}", None
        else:
            stream = Stream("spectator board", f"e:{event}")
            path, token = f"{API}/events/{event}", self.section.read
        NIGHT.streams.append(stream)
        hold_stream(self.environment, path, token, stream, None, self.ended)


# -- the figures ------------------------------------------------------------------------------


def heard(end: float) -> dict[str, list[float]]:
    """Each stream's delay in hearing of each hand recorded while it was open, by role (s;
    ``inf``: never heard, though the hand was answered ``HEARD_WITHIN_S`` before the end).

    A hand's time is when its POST was answered (201). A game's stream hears of it with the
    first change event that comes after the POST was sent (nothing else writes to a table's
    game in the half minute before its next hand), counted from the answer and 0 if it came
    before the answer. An event's or a results page's stream changes with every write at any
    of its tables (hands, and verdicts too), so there the first change event after the answer
    is taken: a reading the streams' server began just before the hand was committed may end
    after the answer and be counted though it did not hold the hand yet, which makes such a
    delay short by at most one reading and ``MIN_GAP_S`` (0.2 s)."""
    by_scope: dict[str, list[tuple[float, float]]] = {}
    for sent, answered, game, event in NIGHT.hands:
        by_scope.setdefault(f"g:{game}", []).append((sent, answered))
        by_scope.setdefault(f"e:{event}", []).append((answered, answered))
        by_scope.setdefault(f"r:{event}", []).append((answered, answered))
    delays: dict[str, list[float]] = {}
    for stream in NIGHT.streams:
        if not stream.opened:
            continue
        closed = stream.closed if stream.closed is not None else end
        for after, answered in by_scope.get(stream.scope, ()):
            if after < stream.opened or answered > closed:
                continue
            i = bisect.bisect_left(stream.arrivals, after)
            if i < len(stream.arrivals):
                delay = max(0.0, stream.arrivals[i] - answered)
            elif min(end, closed) - answered >= HEARD_WITHIN_S[-1]:
                delay = float("inf")
            else:
                continue  # too near the end (or its move to the next round) to tell
            delays.setdefault(stream.role, []).append(delay)
    return delays


HEARD_WITHIN_S = (2.0, 5.0)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report_streams() -> None:
    end = time.monotonic()
    delays = heard(end)
    opened = sum(1 for s in NIGHT.streams if s.opened)
    cuts = sum(s.cuts for s in NIGHT.streams)
    print(f"streams: {opened} opened, {NIGHT.open_streams} open at the end, {cuts} cut; "
          f"hands recorded {len(NIGHT.hands)}")
    print(f"{'heard by':20} {'pairs':>7} {'<=2s %':>8} {'<=5s %':>8} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>8}")
    everything: list[float] = []
    for role in sorted(delays):
        values = delays[role]
        everything += values
        print(heard_row(role, values))
    print(heard_row("all streams", everything))


def heard_row(role: str, values: list[float]) -> str:
    n = len(values)
    within = [100 * sum(v <= w for v in values) / n if n else float("nan")
              for w in HEARD_WITHIN_S]
    return (f"{role:20} {n:7d} {within[0]:8.2f} {within[1]:8.2f} "
            f"{quantile(values, 0.5) * 1000:7.0f} {quantile(values, 0.99) * 1000:7.0f} "
            f"{max(values, default=float('nan')) * 1000:8.0f}")


@events.quitting.add_listener
def report(environment: Environment, **_: Any) -> None:
    if getattr(environment, "clubnight_reported", False):
        return
    environment.clubnight_reported = True  # type: ignore[attr-defined]
    stats = environment.stats
    rows = sorted(stats.entries.values(), key=lambda s: s.name)
    arrival_errors = 0
    if NIGHT.arrival is None:
        print(f"\nthe room never finished arriving ({NIGHT.loaded} of {VISITORS} pages "
              "loaded): the figures below include the arrival")
    else:
        seconds, requests, arrival_errors = NIGHT.arrival
        print(f"\narrival: every page loaded in {seconds:.0f} s, {requests} requests, "
              f"{arrival_errors} errors; the figures below are from then on "
              f"(at {NIGHT.arrived_at:.1f})")
    print(f"\nclub night ({LIVE}): {TABLES} tables, {SEATS * TABLES} phones, "
          f"{2 * SECTIONS} boards, {SECTIONS} organiser(s), {SPECTATORS} spectators, "
          f"one address; rounds started "
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
    errors = total.num_failures + arrival_errors
    held = errors == 0 and worst <= GOAL_P99_MS
    print(f"goal (0 errors; p99 of a hand and a {READ_GAME} <= {GOAL_P99_MS} ms): "
          f"{'held' if held else 'missed'} (errors {errors}, worst p99 {worst:.0f} ms)")
    for error in stats.errors.values():
        print(f"error: {error.occurrences} × {error.method} {error.name}: {error.error}")
    if STREAMS:
        report_streams()
