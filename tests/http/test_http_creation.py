"""Who may create here (``CREATION``: open, clubs, admin) and the creation quotas of an
address: a refusal is a 403 problem saying who may create, in the request's language; health
says the mode; a script's thousand games from one address are held at the quota, a club's
forty-table evening from one address is not; the administrator is never counted."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from http_support import API, assert_problem, auth
from redis_support import REDIS_URL, forget, needs_redis
from test_http_admin import ADMIN, GATTI3

#: Request limits far above anything here: only the quotas refuse.
LIMITS = {"RATE_LIMIT_PER_MINUTE": 10**6, "RATE_LIMIT_BURST": 10**6,
          "AUTH_FAILURES_PER_MINUTE": 0}
GAME = {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}

Make = Callable[..., Any]


@pytest.fixture()
def make(migrated_url: str) -> Iterator[Make]:
    """Clients of apps on the module's database, with the admin token and ``config``."""
    from service.http.app import create_app

    made: list[Any] = []

    def build(**config: Any) -> Any:
        app = create_app({"DATABASE_URL": migrated_url, "TESTING": True, **LIMITS,
                          "ADMIN_TOKEN": ADMIN, **config})
        made.append(app)
        return app.test_client()

    yield build
    for app in made:
        app.extensions["segnapunti.games"].repository.engine.dispose()


def _club(client: Any, **headers: str) -> Any:
    return client.post(f"{API}/clubs", json={"name": "Circolo"}, headers=headers)


def _club_game(client: Any, club: dict[str, Any]) -> Any:
    return client.post(f"{API}/games", json={**GAME, "club": club["id"]},
                       headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})


def _club_event(client: Any, club: dict[str, Any], entrants: int = 3) -> Any:
    return client.post(f"{API}/events", json={
        **GATTI3, "name": "Serata", "club": club["id"],
        "entrants": [{"name": f"Giocatore {n}"} for n in range(entrants)]},
        headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})


# -- who may create -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["open", "clubs", "admin"])
def test_health_says_who_may_create(make: Make, mode: str) -> None:
    assert make(CREATION=mode).get(f"{API}/health").json["creation"] == mode


def test_clubs_mode_founds_a_club_only_with_the_admin_token(make: Make) -> None:
    client = make(CREATION="clubs")
    body = assert_problem(_club(client), 403, code="creation_restricted")
    assert body["detail"] == "on this service only its administrator founds clubs"
    assert _club(client, **auth(ADMIN)).status_code == 201


def test_clubs_mode_takes_games_and_events_for_a_club_with_its_edit_token(make: Make) -> None:
    client = make(CREATION="clubs")
    club = _club(client, **auth(ADMIN)).json
    assert _club_game(client, club).status_code == 201
    assert _club_event(client, club).status_code == 201


def test_clubs_mode_refuses_games_and_events_of_no_club(make: Make) -> None:
    client = make(CREATION="clubs")
    for path, body in ((f"{API}/games", GAME), (f"{API}/events", {"name": "T", **GATTI3})):
        refused = assert_problem(client.post(path, json=body), 403, code="creation_restricted")
        assert "Club-Authorization" in refused["detail"]
        assert client.post(path, json=body, headers=auth(ADMIN)).status_code == 201


def test_admin_mode_takes_creations_from_the_administrator_alone(make: Make) -> None:
    client = make(CREATION="admin")
    club = _club(client, **auth(ADMIN)).json
    for response in (_club(client), _club_game(client, club), _club_event(client, club),
                     client.post(f"{API}/games", json=GAME)):
        body = assert_problem(response, 403, code="creation_restricted")
        assert body["detail"] == ("on this service only its administrator creates games, "
                                  "events and clubs")
    assert client.post(f"{API}/games", json=GAME, headers=auth(ADMIN)).status_code == 201


@pytest.mark.parametrize(("language", "words"), [
    ("it", "su questo servizio solo l'amministratore fonda circoli"),
    ("fr", "sur ce service, seul son administrateur fonde des clubs"),
])
def test_a_refused_creation_says_so_in_the_request_s_language(make: Make, language: str,
                                                               words: str) -> None:
    client = make(CREATION="clubs")
    body = assert_problem(_club(client, **{"Accept-Language": language}), 403)
    assert body["detail"] == words


def test_an_unknown_creation_mode_is_the_operator_s_mistake(make: Make) -> None:
    with pytest.raises(ValueError, match="CREATION is one of open, clubs, admin"):
        make(CREATION="nobody")


# -- quotas ---------------------------------------------------------------------------------


def test_fifteen_hundred_games_from_one_address_are_not_all_accepted(make: Make) -> None:
    client = make()  # the default quotas
    accepted = 0
    for _ in range(1500):
        response = client.post(f"{API}/games", json=GAME)
        if response.status_code != 201:
            break
        accepted += 1
    assert accepted == 300
    body = assert_problem(response, 429, code="creation_quota")
    assert "300 games in the last hour" in body["detail"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    # Another address still creates.
    other = client.post(f"{API}/games", json=GAME, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 201


def test_a_forty_table_evening_from_one_address_is_accepted(make: Make) -> None:
    """A club founds itself, runs a 40-table event (its tables' games made by the event),
    and each table also keeps a game of its own: all from the room's one address, under the
    default quotas."""
    client = make()
    club = _club(client).json
    event = _club_event(client, club, entrants=120).json
    started = client.post(f"{API}/events/{event['id']}/rounds", json={},
                          headers=auth(event["tokens"]["edit"]))
    assert started.status_code == 201, started.json
    assert len(started.json["tables"]) == 40
    for _ in range(40):
        assert _club_game(client, club).status_code == 201
    assert client.post(f"{API}/games", json=GAME).status_code == 201


def test_the_administrator_is_never_counted(make: Make) -> None:
    client = make(CREATION_QUOTA_CLUBS=1)
    assert _club(client).status_code == 201
    assert_problem(_club(client), 429, code="creation_quota")
    for _ in range(3):
        assert _club(client, **auth(ADMIN)).status_code == 201


def test_a_refused_creation_is_not_counted(make: Make) -> None:
    client = make(CREATION_QUOTA_EVENTS=1)
    assert client.post(f"{API}/events", json={"name": "T"}).status_code == 422
    assert client.post(f"{API}/events", json={"name": "T", **GATTI3}).status_code == 201
    assert_problem(client.post(f"{API}/events", json={"name": "T", **GATTI3}), 429,
                   code="creation_quota")


@needs_redis
def test_two_processes_share_an_address_s_quota(make: Make) -> None:
    prefix = f"test-{uuid.uuid4().hex}"
    try:
        one, other = (make(RATE_LIMIT_STORAGE_URL=REDIS_URL, RATE_LIMIT_KEY_PREFIX=prefix,
                           CREATION_QUOTA_GAMES=2) for _ in range(2))
        assert one.post(f"{API}/games", json=GAME).status_code == 201
        assert other.post(f"{API}/games", json=GAME).status_code == 201
        assert_problem(one.post(f"{API}/games", json=GAME), 429, code="creation_quota")
    finally:
        forget(prefix)
