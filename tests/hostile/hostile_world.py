"""The world the hostile cases aim at, the snapshot of all a case could change, and how a
case is sent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_to_bytes

from hostile_cases import DEFAULTS, QUERIES, VALID, WRITE_METHODS, Case, put
from http_support import Table, gatti3_hand
from sqlalchemy import text

PROBLEM = "application/problem+json"

TABLES = ("games", "hands", "hand_versions", "idempotency_keys", "player_tokens",
          "confirmations", "events", "event_rounds", "event_tables", "event_actions", "clubs",
          "club_members", "club_actions", "club_results", "club_seasons", "board_refusals")


@dataclass
class World:
    client: Any
    mine: Table  # gatti-3, two hands played: the game every case aims at
    other: Table  # another game, whose tokens must not open ``mine``
    #: An event (gatti-3, three players, round 1 seated, no hand played): its created body.
    event: dict[str, Any] | None = None
    #: A club with two members, Anna and Bruno, and a season: its created body, with
    #: ``members`` their ids and ``season`` the season's.
    club: dict[str, Any] | None = None
    #: The snapshot the last case found after its request, which is the next case's "before"
    #: unless something else wrote to the world's database since: a test that writes sets it
    #: to None first, and a case takes it with ``before()``. (A snapshot costs four requests
    #: and a read of every table; the suite has some two thousand cases.)
    known: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    def before(self) -> tuple[Any, ...]:
        """The world before a case: as the last case left it, or read now."""
        known, self.known = self.known, None
        return known if known is not None else self.snapshot()

    def snapshot(self) -> tuple[Any, ...]:
        """What a refused request must leave byte for byte: every row of every table, and
        what the service answers of them — the game as read and exported (hands, history,
        summary), the event, and the club's export (roster, games, results, seasons,
        history). Its CSV and the club's other reads are made of the same rows (their
        renderings have tests of their own), so each case costs four requests."""
        mine = self.mine
        reads = [self.client.get(f"{mine.url}{suffix}",
                                 headers={"Authorization": f"Bearer {mine.read}"})
                 for suffix in ("", ".json")]
        assert all(r.status_code == 200 for r in reads)
        export = reads[-1].json
        export.pop("exported_at")
        engine = self.client.application.extensions["segnapunti.games"].repository.engine
        with engine.connect() as connection:
            rows = tuple(sorted((tuple(row) for row in connection.execute(
                text(f"SELECT * FROM {t}"))), key=repr) for t in TABLES)
        event = self.client.get(
            f"/api/v1/events/{self.event['id']}",
            headers={"Authorization": f"Bearer {self.event['tokens']['read']}"}).data \
            if self.event else None
        club = self.client.get(f"/api/v1/clubs/{self.club['id']}.json", headers={
            "Authorization": f"Bearer {self.club['tokens']['read']}"}).data \
            if self.club else None
        return (reads[0].data, export, rows, event, club)


def open_event(client: Any) -> dict[str, Any]:
    created = client.post("/api/v1/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert created.status_code == 201, created.json
    body: dict[str, Any] = created.json
    started = client.post(f"/api/v1/events/{body['id']}/rounds", json={},
                          headers={"Authorization": f"Bearer {body['tokens']['edit']}"})
    assert started.status_code == 201, started.json
    return body


def open_club(client: Any) -> dict[str, Any]:
    """A club with two members, Anna and Bruno (their ids in ``members``), and a season
    (its id in ``season``)."""
    created = client.post("/api/v1/clubs", json={"name": "Circolo"})
    assert created.status_code == 201, created.json
    body: dict[str, Any] = created.json
    body["members"] = []
    for name in ("Anna", "Bruno"):
        added = client.post(f"/api/v1/clubs/{body['id']}/members", json={"name": name},
                            headers={"Authorization": f"Bearer {body['tokens']['edit']}"})
        assert added.status_code == 201, added.json
        body["members"].append(added.json["id"])
    season = client.post(f"/api/v1/clubs/{body['id']}/seasons", json={
        "name": "Stagione", "from": "2026-01-01", "to": "2026-12-31"},
        headers={"Authorization": f"Bearer {body['tokens']['edit']}"})
    assert season.status_code == 201, season.json
    body["season"] = season.json["id"]
    return body


def _fill(world: World, text: str) -> str:
    """A path or a body with the world's ids for its placeholders."""
    text = text.replace("{game}", world.mine.id)
    if world.event is not None:
        text = text.replace("{event}", world.event["id"])
    if world.club is not None:
        text = (text.replace("{club}", world.club["id"])
                .replace("{club_edit}", world.club["tokens"]["edit"])
                .replace("{club_read}", world.club["tokens"]["read"])
                .replace("{season}", world.club["season"])
                .replace("{member2}", world.club["members"][1])
                .replace("{member}", world.club["members"][0]))
    return text.replace("{game_edit}", world.mine.edit)


def play_two_hands(game: Table) -> Table:
    for dealer in (0, 1):
        response = game.client.post(f"{game.url}/hands", json=gatti3_hand(dealer),
                                    headers={"Authorization": f"Bearer {game.edit}"})
        assert response.status_code == 201, response.json
    return game


def _body(world: World, case: Case) -> bytes | None:
    if case.raw is not None:
        return case.raw
    body = case.body
    if case.at is not None:
        body = put(_valid(world, case.op), case.at, case.value)
    if body == "{import}":
        body = _valid(world, case.op)
    return None if body is None else _fill(world, json.dumps(body)).encode()


def _valid(world: World, op: Any) -> Any:
    body = VALID[op]
    if body == "{import}":
        export = world.client.get(f"{world.mine.url}.json",
                                  headers={"Authorization": f"Bearer {world.mine.read}"})
        return export.json
    return body


def send(world: World, case: Case, headers: dict[str, str] | None = None) -> Any:
    """The case's request, as a WSGI server hands it on: the path percent-decoded into
    ``PATH_INFO`` as bytes (latin-1), the query as sent. ``headers`` replace the edit
    token's ``Authorization``."""
    method = (case.method or case.op[0]).upper()
    path = _fill(world, case.path or case.op[1].format(**DEFAULTS) + QUERIES.get(case.op, ""))
    path, _, query = path.partition("?")
    # A verdict is a player's: sent with a player's token, every other case with the edit
    # token.
    token = (world.mine.created.json["tokens"]["players"][1]
             if case.op == ("post", "/api/v1/games/{game_id}/hands/{number}/confirmations")
             else world.event["tokens"]["edit"]
             if world.event is not None and case.op[1].startswith("/api/v1/events/")
             else world.club["tokens"]["edit"]
             if world.club is not None and case.op[1].startswith("/api/v1/clubs/")
             else world.mine.edit)
    headers = dict(headers if headers is not None else {"Authorization": f"Bearer {token}"})
    if method in WRITE_METHODS and case.if_match is not None:
        headers["If-Match"] = case.if_match
    headers.update({name: _fill(world, value) for name, value in case.headers.items()})
    data = _body(world, case)
    if data is not None and case.content_type is not None:
        headers["Content-Type"] = case.content_type
    return world.client.open(
        "/", method=method, data=data, headers=headers,
        environ_overrides={"PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
                           "QUERY_STRING": query})
