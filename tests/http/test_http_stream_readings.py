"""A stream's readings of what it follows (``service/http/follow.py``) ask for the entity tag
alone: a game, an event, its standings and a published results page answer 304 with the tag
a client's read gets, without their body, and refuse as the resource does. On SQLite and
PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

from typing import Any

from http_support import auth

from service.http.follow import read

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
