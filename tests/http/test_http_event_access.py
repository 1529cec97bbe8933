"""Access to events, as a matrix over every operation on an event and every kind of
credential: as for a game — no token 401; a token that opens nothing 401
(``invalid_token``); another event's token, or a game's, 404, the same as for an event that
does not exist; the room's read token on a change 403; the event's own tokens open it. A
refused request changes nothing. The operations are taken from the OpenAPI document."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from http_support import Table, assert_problem, auth
from test_http_duplicate import SEED, board_record

from service.http.openapi import build_spec

EVENT = "/api/v1/events/{event_id}"
Request = Callable[[Any, str, dict[str, str]], Any]

READS: dict[tuple[str, str], Request] = {
    ("get", EVENT): lambda c, url, h: c.get(url, headers=h),
    ("get", f"{EVENT}/standings"): lambda c, url, h: c.get(f"{url}/standings", headers=h),
    ("get", f"{EVENT}/standings.pdf"): lambda c, url, h: c.get(f"{url}/standings.pdf",
                                                                headers=h),
    ("get", f"{EVENT}/history"): lambda c, url, h: c.get(f"{url}/history", headers=h),
    ("get", f"{EVENT}.json"): lambda c, url, h: c.get(f"{url}.json", headers=h),
    ("get", f"{EVENT}.csv"): lambda c, url, h: c.get(f"{url}.csv", headers=h),
    ("get", f"{EVENT}/boards"): lambda c, url, h: c.get(f"{url}/boards", headers=h),
    ("get", f"{EVENT}/boards/{{board}}"): lambda c, url, h: c.get(f"{url}/boards/1", headers=h),
    ("get", f"{EVENT}/prizes"): lambda c, url, h: c.get(f"{url}/prizes", headers=h),
    # The field the event hosts: either token of any of its sections (without a token only
    # once the host publishes, which the matrix's events never do).
    ("get", f"{EVENT}/field"): lambda c, url, h: c.get(f"{url}/field", headers=h),
    ("get", f"{EVENT}/field/boards/{{board}}"): lambda c, url, h: c.get(
        f"{url}/field/boards/1", headers=h),
}
WRITES: dict[tuple[str, str], Request] = {
    # The organiser's alone: the table links are the tables' tokens, the room's link its own,
    # the deal slips every board before it is played.
    ("get", f"{EVENT}/boards.pdf"): lambda c, url, h: c.get(f"{url}/boards.pdf", headers=h),
    ("get", f"{EVENT}/links"): lambda c, url, h: c.get(f"{url}/links", headers=h),
    # The key card prints the organiser's link itself.
    ("get", f"{EVENT}/keycard.pdf"): lambda c, url, h: c.get(f"{url}/keycard.pdf", headers=h),
    ("get", f"{EVENT}/rounds/{{number}}"): lambda c, url, h: c.get(f"{url}/rounds/1",
                                                                    headers=h),
    ("post", f"{EVENT}/rounds"): lambda c, url, h: c.post(f"{url}/rounds", json={},
                                                           headers=h),
    ("put", f"{EVENT}/rounds/{{number}}"): lambda c, url, h: c.put(
        f"{url}/rounds/1", json={"tables": [["Anna", "Bruno", "Carla"]]}, headers=h),
    ("post", f"{EVENT}/rounds/{{number}}/close"): lambda c, url, h: c.post(
        f"{url}/rounds/1/close", headers=h),
    ("post", f"{EVENT}/rounds/{{number}}/tables/{{table}}/boards/{{board}}/release"):
        lambda c, url, h: c.post(f"{url}/rounds/1/tables/1/boards/1/release", headers=h),
    ("put", f"{EVENT}/rounds/{{number}}/tables/{{table}}/hands/{{hand}}"):
        lambda c, url, h: c.put(f"{url}/rounds/1/tables/1/hands/1", json={}, headers=h),
    # Publishing the results: the organiser's alone.
    ("patch", EVENT): lambda c, url, h: c.patch(url, json={"public": True}, headers=h),
    ("put", f"{EVENT}/clock"): lambda c, url, h: c.put(f"{url}/clock",
                                                        json={"round_minutes": 45}, headers=h),
    ("put", f"{EVENT}/prizes"): lambda c, url, h: c.put(f"{url}/prizes",
                                                         json={"prizes": [{"amount": 5}]},
                                                         headers=h),
    # The door and the entrants' pages (docs/events.md#the-door): the organiser's, the
    # door's and each entrant's own tokens; never the room's.
    ("get", f"{EVENT}/door"): lambda c, url, h: c.get(f"{url}/door", headers=h),
    ("post", f"{EVENT}/checkins"): lambda c, url, h: c.post(f"{url}/checkins",
                                                             json={"name": "Zoe"}, headers=h),
    ("post", f"{EVENT}/entrants"): lambda c, url, h: c.post(f"{url}/entrants",
                                                             json={"name": "Zoe"}, headers=h),
    ("get", f"{EVENT}/entrants/{{number}}"): lambda c, url, h: c.get(f"{url}/entrants/0",
                                                                      headers=h),
    ("delete", f"{EVENT}/entrants/{{number}}"): lambda c, url, h: c.delete(
        f"{url}/entrants/0", headers=h),
    ("post", f"{EVENT}/entrants/{{number}}/withdraw"): lambda c, url, h: c.post(
        f"{url}/entrants/0/withdraw", headers=h),
    ("post", f"{EVENT}/entrants/{{number}}/return"): lambda c, url, h: c.post(
        f"{url}/entrants/0/return", headers=h),
    # The door's poster prints the door's link.
    ("get", f"{EVENT}/poster.pdf"): lambda c, url, h: c.get(f"{url}/poster.pdf", headers=h),
}
OPERATIONS = {**READS, **WRITES}
MATRIX: dict[str, tuple[int | None, int | None, str | None]] = {
    "none": (401, 401, "token_missing"),
    "unknown token": (401, 401, "invalid_token"),
    "other event's edit": (404, 404, "not_found"),
    "other event's read": (404, 404, "not_found"),
    "a game's edit": (404, 404, "not_found"),
    "own read": (None, 403, "read_only_token"),
    "own edit": (None, None, None),
}


def test_every_operation_on_an_event_is_in_the_matrix() -> None:
    paths = build_spec()["paths"]
    found = {(method, path) for path, item in paths.items() for method in item
             if method != "parameters" and path.startswith(EVENT)}
    assert all(paths[path][method].get("security") for method, path in found)
    assert found == set(OPERATIONS)


def _event(client: Any, name: str) -> dict[str, Any]:
    # Duplicate deals: every operation, the boards' included, has something to show; board
    # 1 is played, so the room may read its traveller; it hosts a field (of itself alone).
    created = client.post("/api/v1/events", json={
        "name": name, "variant": "gatti-3", "format": "individual", "deals": "duplicate",
        "seed": SEED, "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")],
        "field": True})
    assert created.status_code == 201, created.json
    body: dict[str, Any] = created.json
    started = client.post(f"/api/v1/events/{body['id']}/rounds", json={},
                          headers=auth(body["tokens"]["edit"]))
    assert started.status_code == 201
    table = started.json["tables"][0]
    assert table["boards"][0] == 1
    played = client.post(f"/api/v1/games/{table['game']}/hands", json=board_record(1, 0),
                         headers=auth(table["tokens"]["edit"]))
    assert played.status_code == 201, played.json
    return body


@pytest.fixture(scope="module")
def kept_events() -> dict[str, Any]:
    """The matrix's events while they stand as made (see ``events``)."""
    return {}


@pytest.fixture()
def events(app: Any, kept_events: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """Two events (each seated, board 1 played) and a game. A refused request leaves them as
    they were, which every case checks, so they serve case after case; a case whose request
    may succeed drops them (``kept_events.clear()``) and the next one makes new ones, as does
    a case that finds them gone (a test on the emptied database ran between)."""
    client = app.test_client()
    made = kept_events.get("made")
    if made is None or client.get(f"/api/v1/events/{made[0]['id']}", headers=auth(
            made[0]["tokens"]["read"])).status_code != 200:
        made = kept_events["made"] = (_event(client, "Sera"), _event(client, "Altra"),
                                      Table(client))
    return made  # type: ignore[no-any-return]


@pytest.mark.parametrize("credential", sorted(MATRIX))
@pytest.mark.parametrize("operation", sorted(OPERATIONS), ids=" ".join)
def test_event_access_matrix(app: Any, events: Any, kept_events: dict[str, Any],
                             operation: tuple[str, str], credential: str) -> None:
    client = app.test_client()
    mine, other, game = events
    url = f"/api/v1/events/{mine['id']}"
    headers = {
        "none": {}, "unknown token": auth("nothing-at-all"),
        "other event's edit": auth(other["tokens"]["edit"]),
        "other event's read": auth(other["tokens"]["read"]),
        "a game's edit": auth(game.edit),
        "own read": auth(mine["tokens"]["read"]), "own edit": auth(mine["tokens"]["edit"]),
    }[credential]
    read_status, write_status, code = MATRIX[credential]
    expected = write_status if operation in WRITES else read_status
    before = client.get(url, headers=auth(mine["tokens"]["read"])).json
    response = OPERATIONS[operation](client, url, headers)
    if expected is None:
        kept_events.clear()  # it may have changed them
        assert response.status_code in {200, 201, 204, 409, 422}, response.json
        return
    assert_problem(response, expected, code=code)
    assert client.get(url, headers=auth(mine["tokens"]["read"])).json == before


@pytest.mark.parametrize("kind", ["edit", "read"])
def test_an_event_s_own_token_at_its_table_is_403_naming_both_tokens(client: Any,
                                                                     kind: str) -> None:
    # The event's tokens at a table's game are not tokens that open nothing (401):
    # they are known tokens of the wrong kind: 403, which token it is, which the
    # table needs. The same token at a game of no event still opens nothing there.
    event = _event(client, "Sera")
    token = event["tokens"][kind]
    rounds = client.get(f"/api/v1/events/{event['id']}/rounds/1",
                        headers=auth(event["tokens"]["edit"])).json
    game = rounds["tables"][0]["game"]
    for response in (client.get(f"/api/v1/games/{game}", headers=auth(token)),
                     client.post(f"/api/v1/games/{game}/hands", json={},
                                 headers=auth(token))):
        problem = assert_problem(response, 403, code=f"event_{kind}_token")
        assert problem["errors"] == [{"field": "Authorization", "code": f"event_{kind}_token",
                                      "message": problem["detail"]}]
        assert event["id"] in problem["detail"] and "round 1" in problem["detail"]
        assert ("organiser" if kind == "edit" else "read-only") in problem["detail"]
    lone = client.post("/api/v1/games", json={"variant": "gatti-3",
                                              "players": ["Anna", "Bruno", "Carla"]}).json
    assert_problem(client.get(f"/api/v1/games/{lone['id']}", headers=auth(token)), 401,
                   code="invalid_token")
