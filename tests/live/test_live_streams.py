"""The screens' streams (``GET <resource>/stream``, Server-Sent Events), served as
``python -m service`` serves them by default (tornado: the streams in its event loop, the
app's other requests in its threads), on SQLite and on PostgreSQL:

- a stream says the resource's version at once, and a new one after each change of it;
- a game's change carries the game as its read answers it, entity tag and body;
- ``Last-Event-ID`` resumes: nothing is said until something moves, unless it moved since;
- a quiet stream gets a comment every ``STREAM_KEEP_ALIVE_SECONDS``;
- it opens on the resource's own access rules and refuses as the resource does;
- a token revoked ends it with ``event: gone``;
- the board's stream hears a hand at one of its tables, a table's game hears its round closed,
  a published page's stream hears a new result, a section's field stream a hand in another
  section;
- a hundred held streams hold no thread: a hand and a read are answered meanwhile;
- on PostgreSQL a write made by another server (gunicorn) is heard (``LISTEN/NOTIFY``);
- the battery of hostile connections leaves every health probe answered within a second.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from attack_battery import run_battery
from live_support import API, LiveServer, auth, gatti3_hand

from service.domain import deal_board, find_variant

KEEP_ALIVE_S = 1
#: How long a stream may take to tell a change here (the goal of a room is 2 s, on a loaded
#: machine more).
TOLD_WITHIN_S = 10.0
ADMIN_TOKEN = "the-administrators-token-of-the-streams-tests"


@pytest.fixture(scope="module")
def server(migrated_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(migrated_url, tmp_path_factory.mktemp("streams"), workers=1,
                      env={"STREAM_KEEP_ALIVE_SECONDS": str(KEEP_ALIVE_S),
                           "ADMIN_TOKEN": ADMIN_TOKEN, "TRUSTED_PROXIES": "1"}).start()
    yield live
    live.stop()


@dataclass
class Stream:
    """One held stream: its answer's status and headers, and the events read so far (a thread
    reads its lines as they come)."""

    connection: http.client.HTTPConnection
    response: http.client.HTTPResponse
    events: list[dict[str, str]] = field(default_factory=list)
    comments: int = 0
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        if self.response.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while raw := self.response.readline():
                self.lines.put(raw.decode().rstrip("\r\n"))
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            # closed by the test (its file gone) or cut by the server
            pass
        self.lines.put(None)

    @property
    def status(self) -> int:
        return self.response.status

    def next_event(self, within: float = TOLD_WITHIN_S) -> dict[str, str] | None:
        """The next event (its fields), or None when none came ``within`` seconds."""
        deadline = time.monotonic() + within
        event: dict[str, str] = {}
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                self.lines.put(None)  # the end, for whoever asks next
                return None
            if line == "":
                if event and set(event) != {"retry"}:
                    self.events.append(event)
                    return event
                event = {}
            elif line.startswith(":"):
                self.comments += 1
            else:
                name, _, value = line.partition(":")
                event[name] = value.removeprefix(" ")
        return None

    def close(self) -> None:
        # Shut first: the reading thread, blocked in its read, is woken and lets go of the file.
        if self.connection.sock is not None:
            with contextlib.suppress(OSError):
                self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()


def open_stream(server: LiveServer, path: str, token: str | None = None,
                last: str | None = None) -> Stream:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if last:
        headers["Last-Event-ID"] = last
    connection.request("GET", f"{path}/stream", headers=headers)
    return Stream(connection, connection.getresponse())


def version(event: dict[str, str] | None) -> str:
    assert event is not None, "no event came"
    assert event["event"] == "change", event
    data = json.loads(event["data"])
    assert data["version"] == event["id"], event
    return event["id"]


def evening(server: LiveServer) -> dict[str, Any]:
    """A twelve-player gatti-4 evening, its first round seated (three tables)."""
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
             "Marta", "Nino", "Olga"]
    created = server.call("POST", f"{API}/events", {
        "name": "Giovedì", "variant": "gatti-4", "format": "individual",
        "entrants": [{"name": n} for n in names]}).body
    edit = created["tokens"]["edit"]
    started = server.call("POST", f"{API}/events/{created['id']}/rounds", {}, auth(edit)).body
    return {**created, "round": started}


def table_hand(server: LiveServer, table: dict[str, Any]) -> None:
    game, token = table["game"], table["tokens"]["edit"]
    dealer = server.call("GET", f"{API}/games/{game}", headers=auth(token)).body["next_dealer"]
    recorded = server.call("POST", f"{API}/games/{game}/hands", {
        "dealer": dealer, "piles": [{"side": 0, "points": 50}, {"side": 1, "points": 22}]},
        auth(token))
    assert recorded.status == 201, recorded.body


def test_a_stream_says_the_version_at_once_and_a_new_one_after_each_change(
        server: LiveServer) -> None:
    game = server.create_game()
    token = game["tokens"]["edit"]
    stream = open_stream(server, f"{API}/games/{game['id']}", token)
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        assert stream.response.getheader("Cache-Control") == "no-store"
        first = version(stream.next_event())
        assert json.loads(stream.events[0]["data"])["kind"] == "game"
        server.call("POST", f"{API}/games/{game['id']}/hands", gatti3_hand(dealer=0),
                    auth(token))
        second = version(stream.next_event())
        assert second != first
    finally:
        stream.close()


def test_a_games_change_carries_the_game_as_its_read_answers_it(server: LiveServer) -> None:
    game = server.create_game()
    path, player = f"{API}/games/{game['id']}", auth(game["tokens"]["players"][2])
    stream = open_stream(server, path, game["tokens"]["players"][2])
    try:
        for moved in (False, True):
            if moved:
                server.call("POST", f"{path}/hands", gatti3_hand(dealer=0),
                            auth(game["tokens"]["edit"]))
            event = stream.next_event()
            version(event)
            assert event is not None
            carried = json.loads(event["data"])
            read = server.call("GET", path, headers=player)
            assert carried["etag"] == read.header("ETag")
            assert carried["body"] == read.body
            assert len(carried["body"]["hands"]) == int(moved)
    finally:
        stream.close()


def test_last_event_id_resumes_saying_nothing_until_something_moves(server: LiveServer) -> None:
    game = server.create_game()
    token = game["tokens"]["edit"]
    path = f"{API}/games/{game['id']}"
    stream = open_stream(server, path, token)
    now = version(stream.next_event())
    stream.close()

    resumed = open_stream(server, path, token, last=now)
    try:
        assert resumed.next_event(within=2 * KEEP_ALIVE_S + 0.5) is None
        assert resumed.comments >= 1, "a quiet stream gets its keep-alive comment"
        server.call("POST", f"{path}/hands", gatti3_hand(dealer=0), auth(token))
        moved = version(resumed.next_event())
    finally:
        resumed.close()
    # Resumed from the version before the hand: told at once that it moved.
    behind = open_stream(server, path, token, last=now)
    try:
        assert version(behind.next_event(within=5)) == moved
    finally:
        behind.close()


def test_a_stream_opens_on_the_resources_own_access_rules(server: LiveServer) -> None:
    game = server.create_game()
    path = f"{API}/games/{game['id']}"
    cases = [(None, 401, "token_missing"), ("not-a-token-of-this-game", 401, "invalid_token")]
    for token, status, code in cases:
        refused = open_stream(server, path, token)
        assert refused.status == status
        assert refused.response.getheader("Content-Type") == "application/problem+json"
        assert json.loads(refused.response.read())["code"] == code
        refused.connection.close()
    # Another game's token: refused as the game's own reading refuses it.
    other = server.create_game()
    read = server.call("GET", path, headers=auth(other["tokens"]["edit"]))
    wrong = open_stream(server, path, other["tokens"]["edit"])
    assert read.status >= 400 and wrong.status == read.status
    assert json.loads(wrong.response.read())["code"] == read.body["code"]
    wrong.connection.close()
    nowhere = open_stream(server, f"{API}/games/{game['id']}/hands")
    assert nowhere.status == 404
    assert json.loads(nowhere.response.read())["code"] == "not_found"
    nowhere.connection.close()
    # A page not published is as missing for its stream as for its readers.
    event = evening(server)
    unpublished = open_stream(server, f"/results/events/{event['id']}")
    assert unpublished.status == 404
    unpublished.connection.close()


def test_a_stream_held_with_one_token_opens_nothing_for_another(server: LiveServer) -> None:
    """The streams that share one reading are those of one token: a stream opened while
    another follows the same resource is read with its own token, and refused as its read
    would be; a read-only token's stream is never told what the organiser's token reads."""
    game = server.create_game()
    path = f"{API}/games/{game['id']}"
    held = open_stream(server, path, game["tokens"]["edit"])
    try:
        assert "body" in json.loads(held.next_event()["data"])
        for token, status in ((None, 401), ("not-a-token-of-this-game", 401),
                              (server.create_game()["tokens"]["edit"], 404)):
            refused = open_stream(server, path, token)
            assert refused.status == status, (token, refused.status)
            refused.connection.close()
        event = evening(server)
        organiser = open_stream(server, f"{API}/events/{event['id']}", event["tokens"]["edit"])
        room = open_stream(server, f"{API}/events/{event['id']}", event["tokens"]["read"])
        try:
            # Each has a version of its own: the organiser's answer is another's than the room's.
            assert version(organiser.next_event()) != version(room.next_event())
            stranger = open_stream(server, f"{API}/events/{event['id']}", "not-a-token")
            assert stranger.status == 401
            stranger.connection.close()
        finally:
            organiser.close()
            room.close()
    finally:
        held.close()


def test_a_token_revoked_ends_the_stream_with_gone(server: LiveServer) -> None:
    game = server.create_game()
    stream = open_stream(server, f"{API}/games/{game['id']}", game["tokens"]["edit"])
    try:
        version(stream.next_event())
        revoked = server.call("POST", f"{API}/admin/games/{game['id']}/tokens",
                              {"action": "revoke", "which": ["edit"]},
                              {"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert revoked.status == 200, revoked.body
        gone = stream.next_event()
        assert gone is not None and gone["event"] == "gone", gone
        assert json.loads(gone["data"])["status"] == 401
    finally:
        stream.close()


def test_the_boards_stream_hears_a_hand_and_a_tables_game_hears_its_round_closed(
        server: LiveServer) -> None:
    event = evening(server)
    board = open_stream(server, f"{API}/events/{event['id']}", event["tokens"]["read"])
    table = event["round"]["tables"][0]
    player = open_stream(server, f"{API}/games/{table['game']}", table["tokens"]["edit"])
    try:
        before = version(board.next_event())
        game_before = version(player.next_event())
        table_hand(server, event["round"]["tables"][1])  # another table's hand
        assert version(board.next_event()) != before
        closed = server.call("POST", f"{API}/events/{event['id']}/rounds/1/close", {},
                             auth(event["tokens"]["edit"]))
        assert closed.status == 200, closed.body
        assert version(player.next_event()) != game_before
    finally:
        board.close()
        player.close()


def test_a_published_pages_stream_hears_a_new_result(server: LiveServer) -> None:
    event = evening(server)
    edit = auth(event["tokens"]["edit"])
    published = server.call("PATCH", f"{API}/events/{event['id']}", {"public": True}, edit)
    assert published.status == 200, published.body
    page = open_stream(server, f"/results/events/{event['id']}")
    try:
        assert page.status == 200
        before = version(page.next_event())
        assert json.loads(page.events[0]["data"])["kind"] == "results"
        table_hand(server, event["round"]["tables"][0])
        server.call("POST", f"{API}/events/{event['id']}/rounds/1/close", {}, edit)
        assert version(page.next_event()) != before
    finally:
        page.close()


def test_a_hundred_held_streams_hold_no_thread(server: LiveServer) -> None:
    """The server has 8 threads for requests: a hundred streams held (the metrics count
    them; one reading opened them all), a hand and a read are answered as usual, and every
    stream hears the hand."""
    game = server.create_game()
    token = game["tokens"]["edit"]
    route = '"route": "/api/v1/games/<game_id:game_id>"'
    read_before = server.log_path.read_text().count(route)
    streams = [open_stream(server, f"{API}/games/{game['id']}", token) for _ in range(100)]
    try:
        for stream in streams:
            version(stream.next_event())
        # One token, one resource: the first stream read it, the others joined its follower.
        assert server.log_path.read_text().count(route) - read_before == 1
        scraped = server.call("GET", "/metrics").body.decode()
        assert "segnapunti_streams_open 100.0" in scraped.splitlines()
        started = time.monotonic()
        recorded = server.call("POST", f"{API}/games/{game['id']}/hands",
                               gatti3_hand(dealer=0), auth(token))
        read = server.call("GET", f"{API}/variants")
        assert recorded.status == 201 and read.status == 200
        assert time.monotonic() - started < 5
        for stream in streams:
            version(stream.next_event())
    finally:
        for stream in streams:
            stream.close()


def test_a_write_on_another_server_is_heard_through_the_database(
        server: LiveServer, tmp_path_factory: pytest.TempPathFactory) -> None:
    db_url = server.database_url
    if not db_url.startswith("postgresql"):
        pytest.skip("one process on SQLite: its notices stay in it (the tests above)")
    other = LiveServer(db_url, tmp_path_factory.mktemp("writer"), workers=1,
                       env={"SERVER": "gunicorn"}).start()
    try:
        game = other.create_game()
        token = game["tokens"]["edit"]
        stream = open_stream(server, f"{API}/games/{game['id']}", token)
        try:
            before = version(stream.next_event())
            other.call("POST", f"{API}/games/{game['id']}/hands", gatti3_hand(dealer=0),
                       auth(token))
            assert version(stream.next_event()) != before
        finally:
            stream.close()
    finally:
        other.stop()


def test_every_probe_is_answered_within_a_second_under_the_battery(server: LiveServer) -> None:
    latencies = run_battery(server.port)
    assert max(latencies) < 1.0, [round(s, 2) for s in latencies]


def test_no_token_of_a_stream_reaches_the_servers_log(server: LiveServer) -> None:
    game = server.create_game()
    token = game["tokens"]["edit"]
    path = f"{API}/games/{game['id']}"
    held = open_stream(server, path, token)
    version(held.next_event())
    held.close()
    # A hand-made link might put a token in the query string: refused, and never logged.
    refused = open_stream(server, f"{path}?token={token}&x=")
    refused.connection.close()
    server.call("GET", f"{path}/stream?token={token}")
    server.call("POST", f"{path}/stream?token={token}", {})
    assert token not in server.log_path.read_text()


def test_a_sections_field_stream_hears_a_hand_in_another_section(server: LiveServer) -> None:
    names = ["Anna", "Bruno", "Carla"]
    host = server.call("POST", f"{API}/events", {
        "name": "Simultaneo", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "rounds": 1, "field": True,
        "entrants": [{"name": n} for n in names]}).body
    section = server.call("POST", f"{API}/events", {
        "name": "Circolo", "variant": "gatti-3", "format": "individual", "deals": "duplicate",
        "rounds": 1, "entrants": [{"name": n} for n in ["Dora", "Ezio", "Fede"]],
        "field": {"join": host["id"], "key": host["tokens"]["field"]}}).body
    assert section["field"]["host"] == host["id"], section
    started = server.call("POST", f"{API}/events/{host['id']}/rounds", {},
                          auth(host["tokens"]["edit"])).body
    field = open_stream(server, f"{API}/events/{section['id']}/field",
                        section["tokens"]["read"])
    try:
        assert field.status == 200
        before = version(field.next_event())
        assert json.loads(field.events[0]["data"])["kind"] == "field"
        table = started["tables"][0]
        dealt = deal_board(find_variant("gatti-3"), host["seed"], table["boards"][0])
        held = [*dealt.hands[dealt.dealer], *dealt.extra]
        discard = [c.code for c in held if c.is_plain and c.rank not in "KQCJ"][:3]
        recorded = server.call("POST", f"{API}/games/{table['game']}/hands", {
            "dealer": dealt.dealer, "discard": discard,
            "piles": [{"side": s, "points": p} for s, p in enumerate([40, 20, 18])]},
            auth(table["tokens"]["edit"]))
        assert recorded.status == 201, recorded.body
        assert version(field.next_event()) != before
    finally:
        field.close()
