"""Privacy, as retries see it: a request retried with its ``Idempotency-Key`` gets its first
response again, unless that response named a member the club has since forgotten. Such a
response is withdrawn when they are forgotten (the server cannot rewrite it: it is sealed
with the client's key) and its retry is refused with a 410 problem on ``Idempotency-Key``,
never run again: running it would make the game, the event or the member a second time, and
bring a forgotten member back under their old name."""

from __future__ import annotations

from typing import Any

from http_support import assert_problem, auth, error_fields, gatti3_hand
from test_http_club_links import EVENTS, GAMES, club_auth
from test_http_clubs import CLUBS, found_club, member, roster

KEY = "6a0f3c9e-51b2-4d7a-8e1f-2c4b9d0a7e35"


def keyed(key: str = KEY, **headers: str) -> dict[str, str]:
    return {"Idempotency-Key": key, **headers}


def forget(client: Any, club: dict[str, Any], member_id: str) -> None:
    response = client.post(f"{CLUBS}/{club['id']}/members/{member_id}/forget",
                           headers=auth(club["tokens"]["edit"]))
    assert response.status_code == 200, response.json


def assert_withdrawn(response: Any, *gone: str) -> None:
    body = assert_problem(response, 410, code="idempotency_replay_withdrawn")
    assert error_fields(body) == {"Idempotency-Key": "idempotency_replay_withdrawn"}
    for name in gone:
        assert name not in response.get_data(as_text=True)


def club_games(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    exported = client.get(f"{CLUBS}/{club['id']}.json", headers=auth(club["tokens"]["read"]))
    games: list[dict[str, Any]] = exported.json["games"]
    return games


GAME = {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}


def test_privacy_a_retried_club_game_that_named_a_forgotten_member_is_refused(
        client: Any) -> None:
    club = found_club(client)
    body = {**GAME, "club": club["id"]}
    first = client.post(GAMES, json=body, headers=keyed(**club_auth(club)))
    assert first.status_code == 201, first.json
    forget(client, club, first.json["club"]["members"][0])
    again = client.post(GAMES, json=body, headers=keyed(**club_auth(club)))
    assert_withdrawn(again, "Anna", first.json["tokens"]["edit"])
    assert len(club_games(client, club)) == 1  # not made again
    # The same key for another request is still a reuse.
    other = client.post(GAMES, json={**body, "players": ["Dario", "Bruno", "Carla"]},
                        headers=keyed(**club_auth(club)))
    assert_problem(other, 422, code="idempotency_key_reused")


def test_privacy_a_retried_club_event_that_named_a_forgotten_member_is_refused(
        client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    body = {"name": "Giovedì", "variant": "gatti-3", "format": "individual", "club": club["id"],
            "entrants": [{"name": {"member": anna["id"]}}, {"name": "Bruno"}, {"name": "Carla"}]}
    first = client.post(EVENTS, json=body, headers=keyed(**club_auth(club)))
    assert first.status_code == 201, first.json
    edit = auth(first.json["tokens"]["edit"])
    rounds = f"{EVENTS}/{first.json['id']}/rounds"
    seated = client.post(rounds, json={}, headers=keyed("round-1", **edit))
    assert seated.status_code == 201, seated.json
    forget(client, club, anna["id"])
    assert_withdrawn(client.post(EVENTS, json=body, headers=keyed(**club_auth(club))), "Anna")
    assert_withdrawn(client.post(rounds, json={}, headers=keyed("round-1", **edit)), "Anna")


def test_privacy_a_retried_addition_of_a_forgotten_member_does_not_bring_them_back(
        client: Any) -> None:
    club = found_club(client)
    edit = auth(club["tokens"]["edit"])
    first = client.post(f"{CLUBS}/{club['id']}/members", json={"name": "Anna"},
                        headers=keyed(**edit))
    assert first.status_code == 201, first.json
    forget(client, club, first.json["id"])
    again = client.post(f"{CLUBS}/{club['id']}/members", json={"name": "Anna"},
                        headers=keyed(**edit))
    assert_withdrawn(again, "Anna")
    assert [(m["name"], m["status"]) for m in roster(client, club)] == [
        ("Player 1", "forgotten")]


def test_privacy_a_retried_hand_of_a_game_a_forgotten_member_sat_in_is_refused(
        client: Any) -> None:
    club = found_club(client)
    game = client.post(GAMES, json={**GAME, "club": club["id"]}, headers=club_auth(club)).json
    hands = f"{GAMES}/{game['id']}/hands"
    edit = auth(game["tokens"]["edit"])
    first = client.post(hands, json=gatti3_hand(0), headers=keyed(**edit))
    assert first.status_code == 201, first.json
    forget(client, club, game["club"]["members"][0])
    assert_withdrawn(client.post(hands, json=gatti3_hand(0), headers=keyed(**edit)), "Anna")
    assert len(client.get(f"{GAMES}/{game['id']}", headers=edit).json["hands"]) == 1


def test_privacy_retries_that_name_no_forgotten_member_still_replay(client: Any) -> None:
    club = found_club(client)
    edit = auth(club["tokens"]["edit"])
    bruno = client.post(f"{CLUBS}/{club['id']}/members", json={"name": "Bruno"},
                        headers=keyed("bruno", **edit))
    elsewhere = client.post(GAMES, json=GAME, headers=keyed("elsewhere"))
    forget(client, club, member(client, club, "Anna")["id"])
    again = client.post(f"{CLUBS}/{club['id']}/members", json={"name": "Bruno"},
                        headers=keyed("bruno", **edit))
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == bruno.json
    replayed = client.post(GAMES, json=GAME, headers=keyed("elsewhere"))
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json == elsewhere.json
