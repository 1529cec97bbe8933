"""The service's administration: with ``ADMIN_TOKEN`` set, its holder issues a club, an event
or a game new tokens — answered once, the old ones refused from then on, the club's and the
event's history saying so, an event's tables renewed with it; without ``ADMIN_TOKEN`` there is
no administration (404); a missing or wrong admin token is a 401 problem, counted with the
address's failed authentications, and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from http_support import Table, assert_problem, auth, gatti3_hand

ADMIN = "the-instance-admin-token-0123456789"
NO_RATE_LIMIT = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0}
API = "/api/v1"
GATTI3 = {"variant": "gatti-3", "format": "individual",
          "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]}


def _app(migrated_url: str, **config: Any) -> Iterator[Any]:
    from service.http.app import create_app

    application = create_app({"DATABASE_URL": migrated_url, "TESTING": True, **NO_RATE_LIMIT,
                              "ADMIN_TOKEN": ADMIN, **config})
    yield application
    application.extensions["segnapunti.games"].repository.engine.dispose()


@pytest.fixture()
def admin_app(migrated_url: str) -> Iterator[Any]:
    yield from _app(migrated_url)


@pytest.fixture()
def admin(admin_app: Any) -> Any:
    return admin_app.test_client()


def _club(client: Any) -> dict[str, Any]:
    made = client.post(f"{API}/clubs", json={"name": "Circolo del Giovedì"})
    assert made.status_code == 201
    body: dict[str, Any] = made.json
    return body


def _event(client: Any) -> dict[str, Any]:
    made = client.post(f"{API}/events", json={"name": "Torneo", **GATTI3})
    assert made.status_code == 201, made.json
    body: dict[str, Any] = made.json
    return body


def _renew(client: Any, kind: str, resource_id: str) -> dict[str, Any]:
    response = client.post(f"{API}/admin/{kind}/{resource_id}/tokens", headers=auth(ADMIN))
    assert response.status_code == 200, response.json
    assert response.headers["Cache-Control"] == "no-store"
    body: dict[str, Any] = response.json
    assert body["id"] == resource_id
    assert body["links"]["edit"].endswith(f"/{resource_id}?token={body['tokens']['edit']}")
    return body


def test_without_an_admin_token_the_service_has_no_administration(client: Any,
                                                                 admin: Any) -> None:
    # The same database, served with ADMIN_TOKEN and without: only the first administers.
    club = _club(client)
    issued = _renew(admin, "clubs", club["id"])["tokens"]
    for path in (f"clubs/{club['id']}", "events/abcdefghjk", "games/abcdefghjk"):
        response = client.post(f"{API}/admin/{path}/tokens", headers=auth(ADMIN))
        assert_problem(response, 404, code="not_found")
    assert client.get(f"{API}/clubs/{club['id']}/links",
                      headers=auth(issued["edit"])).status_code == 200


def test_a_club_s_new_tokens_open_it_and_the_old_ones_no_longer_do(admin: Any) -> None:
    club = _club(admin)
    issued = _renew(admin, "clubs", club["id"])
    new = issued["tokens"]
    assert new["edit"] != club["tokens"]["edit"] and new["read"] != club["tokens"]["read"]
    for old in club["tokens"].values():
        assert_problem(admin.get(f"{API}/clubs/{club['id']}", headers=auth(old)), 401,
                       code="invalid_token")
    links = admin.get(f"{API}/clubs/{club['id']}/links", headers=auth(new["edit"]))
    assert links.status_code == 200
    assert links.json["tokens"]["read"] == new["read"]
    assert admin.get(f"{API}/clubs/{club['id']}", headers=auth(new["read"])).status_code == 200
    history = admin.get(f"{API}/clubs/{club['id']}/history", headers=auth(new["read"])).json
    assert [a["action"] for a in history["actions"]] == ["create", "new_tokens"]
    assert history["actions"][-1]["data"] == {"by": "admin"}
    assert new["edit"] not in str(history)


def test_an_event_s_new_tokens_renew_its_tables_as_its_rounds_show_them(admin: Any) -> None:
    event = _event(admin)
    old = event["tokens"]
    started = admin.post(f"{API}/events/{event['id']}/rounds", json={}, headers=auth(old["edit"]))
    assert started.status_code == 201, started.json
    table = started.json["tables"][0]
    game = table["game"]

    new = _renew(admin, "events", event["id"])["tokens"]
    for token in (old["edit"], old["read"], table["tokens"]["edit"], table["tokens"]["read"]):
        assert_problem(admin.get(f"{API}/games/{game}", headers=auth(token)), 401,
                       code="invalid_token")
    assert_problem(admin.get(f"{API}/events/{event['id']}", headers=auth(old["edit"])), 401,
                   code="invalid_token")
    # The organiser's new token shows the tables' new links, and they work.
    round_ = admin.get(f"{API}/events/{event['id']}/rounds/1", headers=auth(new["edit"]))
    assert round_.status_code == 200, round_.json
    renewed = round_.json["tables"][0]["tokens"]
    assert renewed["edit"] != table["tokens"]["edit"]
    dealer = admin.get(f"{API}/games/{game}", headers=auth(renewed["read"])).json["next_dealer"]
    hand = admin.post(f"{API}/games/{game}/hands", json=gatti3_hand(dealer),
                      headers=auth(renewed["edit"]))
    assert hand.status_code == 201, hand.json
    board = admin.get(f"{API}/events/{event['id']}", headers=auth(new["read"]))
    assert board.status_code == 200
    table_history = admin.get(f"{API}/games/{game}/history", headers=auth(renewed["read"])).json
    assert [v["action"] for v in table_history["versions"]] == ["new_tokens", "create"]
    history = admin.get(f"{API}/events/{event['id']}/history", headers=auth(new["read"])).json
    assert history["actions"][-1]["action"] == "new_tokens"
    assert history["actions"][-1]["data"] == {"by": "admin", "tables": 1}


def test_a_game_s_new_tokens_renew_its_players_links(admin: Any) -> None:
    game = Table(admin)
    old_players = admin.get(f"{API}/games/{game.id}/players", headers=auth(game.edit))
    assert old_players.status_code == 200
    old_player = old_players.json["tokens"][0]

    new = _renew(admin, "games", game.id)["tokens"]
    for token in (game.edit, game.read, old_player):
        assert_problem(admin.get(f"{API}/games/{game.id}", headers=auth(token)), 401,
                       code="invalid_token")
    assert admin.get(f"{API}/games/{game.id}", headers=auth(new["read"])).status_code == 200
    versions = admin.get(f"{API}/games/{game.id}/history", headers=auth(new["read"])).json
    assert [(v["number"], v["action"], v["token_kind"]) for v in versions["versions"]] == [
        (0, "new_tokens", "admin")]
    players = admin.get(f"{API}/games/{game.id}/players", headers=auth(new["edit"]))
    assert players.status_code == 200
    opened = admin.get(f"{API}/games/{game.id}", headers=auth(players.json["tokens"][0]))
    assert opened.status_code == 200
    assert opened.headers["Game-Access"] == "player"


def test_a_table_of_an_event_is_renewed_with_its_event_not_alone(admin: Any) -> None:
    event = _event(admin)
    started = admin.post(f"{API}/events/{event['id']}/rounds", json={},
                         headers=auth(event["tokens"]["edit"]))
    table = started.json["tables"][0]
    response = admin.post(f"{API}/admin/games/{table['game']}/tokens", headers=auth(ADMIN))
    assert_problem(response, 409, code="table_of_an_event")
    assert admin.get(f"{API}/games/{table['game']}",
                     headers=auth(table["tokens"]["edit"])).status_code == 200


@pytest.mark.parametrize(("headers", "code"), [
    ({}, "token_missing"),
    (auth("not-the-admin-token"), "invalid_token"),
    (auth(ADMIN[:-1]), "invalid_token"),
    (auth(ADMIN + "x"), "invalid_token"),
])
def test_a_missing_or_wrong_admin_token_is_401_and_changes_nothing(
        admin: Any, headers: dict[str, str], code: str) -> None:
    club = _club(admin)
    response = admin.post(f"{API}/admin/clubs/{club['id']}/tokens", headers=headers)
    assert_problem(response, 401, code=code)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert admin.get(f"{API}/clubs/{club['id']}/links",
                     headers=auth(club["tokens"]["edit"])).status_code == 200


def test_a_club_s_own_edit_token_is_no_admin_token(admin: Any) -> None:
    club = _club(admin)
    response = admin.post(f"{API}/admin/clubs/{club['id']}/tokens",
                          headers=auth(club["tokens"]["edit"]))
    assert_problem(response, 401, code="invalid_token")


def test_the_admin_token_on_something_that_is_not_there_is_404(admin: Any) -> None:
    for kind, word in (("clubs", "club"), ("events", "event"), ("games", "game")):
        response = admin.post(f"{API}/admin/{kind}/abcdefghjk/tokens", headers=auth(ADMIN))
        body = assert_problem(response, 404, code="not_found")
        assert body["detail"] == f"there is no {word} 'abcdefghjk'"


def test_wrong_admin_tokens_spend_the_address_s_failed_authentications(
        migrated_url: str) -> None:
    """Guessing the admin token spends the address's guesses; the admin token itself is
    looked up and answered even then."""
    for limited in _app(migrated_url, AUTH_FAILURES_PER_MINUTE=2, AUTH_FAILURE_BURST=2):
        client = limited.test_client()
        for guess in ("a-guess", "another-guess"):
            assert client.post(f"{API}/admin/games/abcdefghjk/tokens",
                               headers=auth(guess)).status_code == 401
        refused = client.post(f"{API}/admin/games/abcdefghjk/tokens", headers=auth("a-third"))
        assert_problem(refused, 429)
        answered = client.post(f"{API}/admin/games/abcdefghjk/tokens", headers=auth(ADMIN))
        assert_problem(answered, 404, code="not_found")


def test_an_event_s_new_tokens_renew_its_door_and_its_entrants_links(admin: Any) -> None:
    made = admin.post(f"{API}/events", json={"name": "Alla porta", "variant": "gatti-3",
                                             "format": "individual", "checkin": True})
    assert made.status_code == 201, made.json
    event_id, old = made.json["id"], made.json["tokens"]
    url = f"{API}/events/{event_id}"
    came = [admin.post(f"{url}/checkins", json={"name": n}, headers=auth(old["door"])).json
            for n in ("Anna", "Bruno", "Carla")]
    assert admin.post(f"{url}/rounds", json={}, headers=auth(old["edit"])).status_code == 201
    new = _renew(admin, "events", event_id)["tokens"]
    # The door's and the entrants' old tokens open nothing now.
    assert_problem(admin.get(f"{url}/door", headers=auth(old["door"])), 401,
                   code="invalid_token")
    assert_problem(admin.get(f"{url}/entrants/0", headers=auth(came[0]["tokens"]["entrant"])),
                   401, code="invalid_token")
    # The new ones, worked out from the new edit token, do, and the seat's link with them.
    door = admin.get(f"{url}/links", headers=auth(new["edit"])).json["tokens"]["door"]
    assert admin.get(f"{url}/door", headers=auth(door)).status_code == 200
    link = admin.get(f"{url}/entrants/0", headers=auth(new["edit"])).json["links"]["entrant"]
    own = link.rsplit("token=", 1)[1]
    assert own != came[0]["tokens"]["entrant"]
    page = admin.get(f"{url}/entrants/0", headers=auth(own))
    assert page.status_code == 200, page.json
    seat = page.json["now"]["seats"][0]
    token = seat["link"].rsplit("token=", 1)[1]
    assert admin.get(f"{API}/games/{page.json['now']['game']}",
                     headers=auth(token)).status_code == 200


def test_an_event_s_revoked_edit_token_takes_its_door_and_entrants_links(admin: Any) -> None:
    made = admin.post(f"{API}/events", json={"name": "Alla porta", "variant": "gatti-3",
                                             "format": "individual", "checkin": True})
    event_id, old = made.json["id"], made.json["tokens"]
    url = f"{API}/events/{event_id}"
    came = admin.post(f"{url}/checkins", json={"name": "Anna"}, headers=auth(old["door"])).json
    revoked = admin.post(f"{API}/admin/events/{event_id}/tokens", json={
        "action": "revoke", "which": ["edit"]}, headers=auth(ADMIN))
    assert revoked.status_code == 200, revoked.json
    assert_problem(admin.get(f"{url}/door", headers=auth(old["door"])), 401)
    assert_problem(admin.get(f"{url}/entrants/0", headers=auth(came["tokens"]["entrant"])), 401)
