"""The hostile-input suite: every case of ``hostile_cases.CASES`` — wrong types,
missing and unknown fields, huge and negative numbers, NaN, deep nesting, oversized bodies,
wrong media types, encodings and methods, unicode oddities, injection strings, odd game ids
and hand numbers, bad headers and queries — is answered with its 4xx problem+json, naming
what broke, and leaves the stored game, its history, its exports and every table as they
were, byte for byte. The same names that are refused where an identifier goes are stored and
given back unchanged where a player's name goes."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hostile_cases import CASES, INJECTIONS, ODD_TEXT, VALID, Case
from hostile_world import PROBLEM, World, open_club, open_event, play_two_hands, send
from http_support import Table

from service.domain import visible
from service.http.openapi import build_spec


@pytest.fixture(scope="module")
def db_url(one_db_url: str) -> str:
    """The cases run on one database, PostgreSQL where there is one: what they refuse is
    refused before anything is written, the same on either (the writes' own atomicity is
    tested on both, tests/http), and twelve hundred cases twice cost the suite a quarter of
    a minute for nothing more."""
    return one_db_url


def assert_problem(response: Any, case: Case) -> dict[str, Any]:
    assert response.status_code == case.status, (response.status_code, response.data[:400])
    assert response.mimetype == PROBLEM, response.mimetype
    body = response.json
    assert body["status"] == case.status
    assert {"type", "title", "detail", "code", "errors"} <= set(body)
    if case.code is not None:
        assert body["code"] == case.code, body
    if case.status in (400, 422):
        # A refused body or header names what broke: each field, and the rule it breaks.
        assert body["errors"], body
        assert all(e["field"] is not None and e["code"] and e["message"]
                   for e in body["errors"]), body
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.op[0]} {c.op[1]}: {c.name}" for c in CASES])
def test_hostile_input_is_refused_and_changes_nothing(world: World, case: Case) -> None:
    before = world.before()
    assert_problem(send(world, case), case)
    after = world.snapshot()
    assert after == before
    world.known = after  # the next case's "before"


def test_every_operation_has_its_hostile_cases() -> None:
    operations = {(method, path) for path, item in build_spec()["paths"].items()
                  for method in item if method != "parameters"}
    covered = {case.op for case in CASES}
    assert covered == operations, operations ^ covered


def test_the_bodies_the_cases_spoil_are_valid(app: Any, world: World) -> None:
    """Each case breaks one thing of a body that is otherwise accepted (here on a game of
    its own, the world's twin)."""
    world.known = None  # this test writes to the world's database
    client = app.test_client()
    twin = World(client, play_two_hands(Table(client)), Table(client), event=open_event(client),
                 club=open_club(client))
    for op in VALID:
        case = Case(op, "valid", 0, body=VALID[op])
        response = send(twin, case)
        assert response.status_code in (200, 201), (op, response.status_code, response.json)


@pytest.mark.parametrize("name", [*INJECTIONS, "RTL override", "combining accent",
                                  "zero-width joiner"])
def test_a_player_may_be_named_anything_printable(world: World, name: str) -> None:
    """Where an identifier is refused, a player's name is text: stored and given back as
    typed, in the game and its JSON (the CSV's inert formulas: tests/sheets)."""
    odd = INJECTIONS.get(name) or ODD_TEXT[name]
    world.known = None  # this test writes to the world's database
    client = world.client
    response = client.post("/api/v1/games", json={"variant": "gatti-3",
                                                  "players": [odd, "Bruno", "Carla"]})
    assert response.status_code == 201, response.json
    created = response.json
    read = {"Authorization": f"Bearer {created['tokens']['read']}"}
    url = f"/api/v1/games/{created['id']}"
    assert client.get(url, headers=read).json["players"] == [odd, "Bruno", "Carla"]
    assert client.get(f"{url}.json", headers=read).json["game"]["players"][0] == odd


@pytest.mark.parametrize("name", [*INJECTIONS, "RTL override", "combining accent",
                                  "zero-width joiner"])
def test_a_member_may_be_named_anything_printable(world: World, name: str) -> None:
    """Where an identifier is refused, a club's member's name is text: stored and given
    back as shown (NFC, without the characters that show nothing), in the roster and its
    JSON export."""
    odd = INJECTIONS.get(name) or ODD_TEXT[name]
    world.known = None  # this test writes to the world's database
    client = world.client
    club = open_club(client)
    response = client.post(f"/api/v1/clubs/{club['id']}/members", json={"name": odd},
                           headers={"Authorization": f"Bearer {club['tokens']['edit']}"})
    assert response.status_code == 201, response.json
    shown = visible(unicodedata.normalize("NFC", odd))
    read = {"Authorization": f"Bearer {club['tokens']['read']}"}
    url = f"/api/v1/clubs/{club['id']}"
    assert client.get(f"{url}/members", headers=read).json["members"][-1]["name"] == shown
    assert client.get(f"{url}.json", headers=read).json["members"][-1]["name"] == shown
