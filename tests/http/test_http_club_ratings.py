"""A club's ratings over HTTP (docs/clubs.md#ratings): ``GET /clubs/{id}/ratings?family=``
and a member's rating game by game, computed from the club's counted games only, equal to
openskill's own Plackett–Luce fed the same games in finishing order; either token, an ETag
that moves with the results; a family that does not exist is a 422 naming ``family``."""

from __future__ import annotations

from typing import Any

from http_support import assert_problem, auth, error_fields
from openskill.models import PlackettLuce
from test_http_club_links import play, started
from test_http_clubs import CLUBS, found_club


def ratings(client: Any, club: dict[str, Any], family: str = "gatti", **headers: str) -> Any:
    return client.get(f"{CLUBS}/{club['id']}/ratings?family={family}",
                      headers={**auth(club["tokens"]["read"]), **headers})


def _places(client: Any, game: dict[str, Any]) -> list[int]:
    totals = client.get(f"/api/v1/games/{game['id']}", headers=auth(game["tokens"]["read"])
                        ).json["totals"]
    columns = [totals[str(c)] for c in range(3)]
    return [1 + sum(1 for other in columns if other > own) for own in columns]


def test_ratings_are_openskills_over_the_finished_games_in_order(client: Any) -> None:
    club = found_club(client)
    games = []
    for seats, counting in ((["Anna", "Bruno", "Carla"], 0), (["Bruno", "Carla", "Dario"], 1),
                            (["Dario", "Anna", "Carla"], 2)):
        game = started(client, club, seats)
        play(client, game, 3, counting_to=counting)
        games.append((game, seats))
    unfinished = started(client, club, ["Anna", "Bruno", "Dario"])
    play(client, unfinished, 1)  # still playing: rates nobody

    response = ratings(client, club)
    assert response.status_code == 200, response.json
    body = response.json
    assert body["family"] == "gatti" and body["games"] == 3

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for game, seats in games:
        teams = [[current.get(name) or model.rating(name=name)] for name in seats]
        for name, [after] in zip(seats, model.rate(teams, ranks=_places(client, game)),
                                 strict=True):
            current[name] = after
    expected = {name: round(1000 + 40 * (r.mu - 3 * r.sigma)) for name, r in current.items()}
    got = {row["member"]["name"]: row["rating"] for row in body["ratings"]}
    assert got == expected
    assert [row["rating"] for row in body["ratings"]] == sorted(got.values(), reverse=True)
    assert [row["place"] for row in body["ratings"]] == [1, 2, 3, 4]
    anna = next(row for row in body["ratings"] if row["member"]["name"] == "Anna")
    assert anna["games"] == 2 and 0 <= anna["certainty"] <= 100

    history = client.get(f"{CLUBS}/{club['id']}/members/{anna['member']['id']}/ratings"
                         "?family=gatti", headers=auth(club["tokens"]["edit"]))
    assert history.status_code == 200, history.json
    assert [p["game"] for p in history.json["history"]] == [games[0][0]["id"], games[2][0]["id"]]
    assert history.json["history"][-1]["rating"] == anna["rating"]
    assert sum(p["change"] for p in history.json["history"]) in range(
        anna["rating"] - 1000 - 2, anna["rating"] - 1000 + 3)


def test_ratings_answer_304_until_a_result_moves_and_start_empty(client: Any) -> None:
    club = found_club(client)
    empty = ratings(client, club, "ottocento")
    assert empty.status_code == 200 and empty.json["ratings"] == [] and empty.json["games"] == 0
    anna = client.post(f"{CLUBS}/{club['id']}/members", json={"name": "Anna"},
                       headers=auth(club["tokens"]["edit"])).json
    new = client.get(f"{CLUBS}/{club['id']}/members/{anna['id']}/ratings?family=gatti",
                     headers=auth(club["tokens"]["read"])).json
    assert (new["rating"], new["games"], new["certainty"], new["history"]) == (1000, 0, 0, [])
    tag = ratings(client, club).headers["ETag"]
    assert ratings(client, club, **{"If-None-Match": tag}).status_code == 304
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    assert ratings(client, club, **{"If-None-Match": tag}).status_code == 200


def test_bad_input_a_family_that_does_not_exist(client: Any) -> None:
    club = found_club(client)
    body = assert_problem(ratings(client, club, "scopa"), 422)
    assert error_fields(body) == {"family": "invalid_family"}
    assert_problem(client.get(f"{CLUBS}/{club['id']}/ratings",
                              headers=auth(club["tokens"]["read"])), 422)


def test_access_a_games_token_does_not_open_the_clubs_ratings(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    assert_problem(client.get(f"{CLUBS}/{club['id']}/ratings?family=gatti",
                              headers=auth(game["tokens"]["edit"])), 404)
    assert_problem(client.get(f"{CLUBS}/{club['id']}/ratings?family=gatti"), 401)
