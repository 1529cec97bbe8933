"""A stream's readings of what it follows (``service/http/follow.py``) ask for the entity tag
alone: a game, an event, its standings and a published results page answer 304 with the tag
a client's read gets, without their body, and refuse as the resource does. A game's stream
reads the game whole, the body a client gets, then 304 until it moves, and its change event
carries it (``service/live/streams.py``) unless it is too long; an event's, its standings' and
a field's readings make their bodies before the screens are told. On SQLite and PostgreSQL
(the ``client`` fixture)."""

from __future__ import annotations

import json
from typing import Any

from http_support import auth

from service.application.notices import followed
from service.http.follow import Reading, read
from service.live.streams import CARRIED_MOST, Follower

API = "/api/v1"


def test_a_streams_reading_gets_the_tag_a_client_gets_and_no_body(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert created.status_code == 201, created.json
    event, edit = created.json["id"], created.json["tokens"]["edit"]
    read_token = created.json["tokens"]["read"]
    started = client.post(f"{API}/events/{event}/rounds", json={}, headers=auth(edit))
    table = started.json["tables"][0]
    hand = client.post(f"{API}/games/{table['game']}/hands",
                       json={"dealer": 0, "piles": [{"side": 0, "points": 40},
                                                    {"side": 1, "points": 20}]},
                       headers=auth(table["tokens"]["edit"]))
    assert hand.status_code == 201, hand.json
    assert client.patch(f"{API}/events/{event}", json={"public": True},
                        headers=auth(edit)).status_code == 200
    app = client.application
    followed = [(f"{API}/games/{table['game']}", auth(table["tokens"]["read"])),
                (f"{API}/events/{event}", auth(read_token)),
                (f"{API}/events/{event}/standings", auth(edit)),
                (f"/results/events/{event}", {})]
    for path, headers in followed:
        whole = client.get(path, headers=headers)
        assert whole.status_code == 200, path
        reading = read(app, path, headers, "127.0.0.1")
        assert (reading.status, reading.etag, reading.body) == (
            304, whole.headers["ETag"], b""), path
    refused = read(app, f"{API}/games/{table['game']}", auth("nothing-opens-with-this"),
                   "127.0.0.1")
    assert refused.status == 401 and refused.etag is None


def test_a_games_stream_reads_the_game_a_client_gets_and_then_304_until_it_moves(
        client: Any) -> None:
    game = client.post(f"{API}/games", json={"variant": "gatti-3",
                                               "players": ["Anna", "Bruno", "Carla"]}).json
    path, player = f"{API}/games/{game['id']}", auth(game["tokens"]["players"][1])
    whole = client.get(path, headers=player)
    reading = read(client.application, path, player, "127.0.0.1", body=True)
    assert (reading.status, reading.etag) == (200, whole.headers["ETag"])
    assert json.loads(reading.body) == whole.json
    again = read(client.application, path, player, "127.0.0.1", etag=reading.etag, body=True)
    assert (again.status, again.etag, again.body) == (304, reading.etag, b"")
    hand = client.post(f"{path}/hands", json={"dealer": 0, "piles": [
        {"side": 0, "points": 40}, {"side": 1, "points": 20}]},
        headers=auth(game["tokens"]["edit"]))
    assert hand.status_code == 201, hand.json
    moved = read(client.application, path, player, "127.0.0.1", etag=reading.etag, body=True)
    assert moved.status == 200 and moved.etag != reading.etag
    assert json.loads(moved.body) == client.get(path, headers=player).json


def carried_event(follower: Follower) -> dict[str, Any]:
    """The data of the follower's change event, its lines joined as a client joins them."""
    lines = follower.said.rstrip("\n").split("\n")
    assert lines[0] == f"id: {follower.version}" and lines[1] == "event: change"
    data = "\n".join(line.removeprefix("data: ") for line in lines[2:])
    return json.loads(data)


def test_a_games_change_event_carries_the_game_and_a_long_one_only_its_version() -> None:
    follow = followed(f"{API}/games/g1")
    assert follow is not None and follow.kind == "game"
    follower = Follower(None, (), follow, {}, "")  # type: ignore[arg-type]
    game = {"id": "g1", "players": ["Anna", "Bruno", "Carla"], "note": "riga\nnuova"}
    body = json.dumps(game, indent=1).encode()  # a body of several lines stays whole
    follower.take(follow.paths[0], Reading(200, 'W/"g1.3"', body))
    follower.settle()
    assert carried_event(follower) == {"kind": "game", "version": follower.version,
                                       "etag": 'W/"g1.3"', "body": game}
    # Unchanged (a 304 with the same tag): the same version and the same event.
    said = follower.said
    follower.take(follow.paths[0], Reading(304, 'W/"g1.3"'))
    follower.settle()
    assert follower.said is said
    long = {"id": "g1", "hands": ["x" * 100] * (CARRIED_MOST // 100)}
    follower.take(follow.paths[0], Reading(200, 'W/"g1.4"', json.dumps(long).encode()))
    follower.settle()
    assert carried_event(follower) == {"kind": "game", "version": follower.version}
    # An event's stream says its version alone, whatever it read.
    event = followed(f"{API}/events/e1")
    assert event is not None
    board = Follower(None, (), event, {}, "")  # type: ignore[arg-type]
    for path in event.paths:
        board.take(path, Reading(200, f'W/"{path}"', b'{"id": "e1"}'))
    board.settle()
    assert carried_event(board) == {"kind": "event", "version": board.version}


class AskedHub:
    """A hub that records what each reading asked for, and answers that nothing moved."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, bool]] = []

    def read(self, path: str, headers: Any, remote: str, *, etag: str | None = None,
             again: bool = False, body: bool = False) -> Reading:
        self.asked.append((path, body))
        return Reading(304, 'W/"same"')


def test_the_readings_of_an_events_standings_and_a_fields_make_their_bodies_first() -> None:
    # Made before the screens told read them, and kept for every process: those screens
    # then find them made. A published page's readings still ask for its tag alone.
    for path, warmed in ((f"{API}/events/e1", True), (f"{API}/events/e1/standings", True),
                         (f"{API}/events/e1/field", True), (f"{API}/games/g1", True),
                         ("/results/events/e1", False), (f"{API}/events/e1/door", False)):
        follow = followed(path)
        assert follow is not None
        hub = AskedHub()
        assert Follower(hub, (), follow, {}, "").read_again() is None  # type: ignore[arg-type]
        assert hub.asked == [(p, warmed) for p in follow.paths], path


def test_a_fields_stream_makes_the_brief_rows_its_wall_reads(
        client: Any, monkeypatch: Any) -> None:
    """A field's stream reads the field as its wall does (``rows=brief``): the wall, told,
    finds that body made, under the tag the stream read, and nothing is made again."""
    from test_http_event_field import _host, _join

    from service.http.resources import events as event_resources

    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    host.play()
    section.play()
    follow = followed(f"{section.url}/field")
    assert follow is not None and follow.paths == (f"{section.url}/field?rows=brief",)
    reading = read(client.application, follow.paths[0], auth(section.read), "127.0.0.1",
                   body=True)
    assert reading.status == 200 and "results" not in json.loads(reading.body)["rows"][0]
    made: list[bool] = []
    monkeypatch.setattr(event_resources, "field_json",
                        lambda *_a, **_k: made.append(True) or {})
    wall = client.get(f"{section.url}/field?rows=brief",
                      headers={**auth(section.read), "Cache-Control": "max-stale"})
    assert wall.status_code == 200 and wall.headers["ETag"] == reading.etag
    assert wall.get_data() == reading.body and made == []
