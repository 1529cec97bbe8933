"""A club's seasons over HTTP (issue 29, part 2), clause by clause of CLUBS.md "Resources"
(``POST /clubs/{id}/seasons``, its standings with either token and an ETag), "Words" (a
season sums what the club decides, ties as in EVENTS.md), "Bad input" (reversed dates, an
unknown family: 422 naming each field, nothing stored), and its CSV and printed PDF."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from http_support import assert_problem, auth, error_fields
from test_http_club_links import play, started
from test_http_clubs import CLUBS, found_club, history

TODAY = datetime.now(UTC).date().isoformat()


def open_season(client: Any, club: dict[str, Any], **extra: Any) -> Any:
    body = {"name": "Autunno", "from": "2026-01-01", "to": "2099-12-31", **extra}
    return client.post(f"{CLUBS}/{club['id']}/seasons", json=body,
                       headers=auth(club["tokens"]["edit"]))


def standings(client: Any, club: dict[str, Any], season: str, **headers: str) -> Any:
    return client.get(f"{CLUBS}/{club['id']}/seasons/{season}/standings",
                      headers={**auth(club["tokens"]["read"]), **headers})


def test_resources_a_season_is_opened_listed_and_read(client: Any) -> None:
    club = found_club(client)
    created = open_season(client, club, families=["gatti"], counting="best_n", n=8)
    assert created.status_code == 201, created.json
    season = created.json
    assert season | {"id": "x", "created_at": "y"} == {
        "id": "x", "name": "Autunno", "from": "2026-01-01", "to": "2099-12-31",
        "families": ["gatti"], "counting": "best_n", "n": 8, "created_at": "y"}
    read = auth(club["tokens"]["read"])
    listed = client.get(f"{CLUBS}/{club['id']}/seasons", headers=read)
    assert [s["id"] for s in listed.json["seasons"]] == [season["id"]]
    one = client.get(created.headers["Location"], headers=read)
    assert one.status_code == 200 and one.json == season
    assert history(client, club)[-1]["action"] == "add_season"


def test_bad_input_reversed_dates_and_an_unknown_family_store_nothing(client: Any) -> None:
    club = found_club(client)
    body = assert_problem(open_season(client, club, **{"from": "2026-06-01", "to": "2026-05-01"},
                                      families=["gatti", "scopa"]), 422)
    assert error_fields(body) == {"to": "dates_reversed", "families[1]": "unknown_family"}
    assert client.get(f"{CLUBS}/{club['id']}/seasons", headers=auth(club["tokens"]["read"])
                      ).json["seasons"] == []
    assert_problem(open_season(client, {**club, "tokens": {"edit": club["tokens"]["read"]}}),
                   403)


def test_words_a_seasons_standings_count_the_clubs_finished_games(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club, families=["gatti"]).json["id"]
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, first, 3, counting_to=0)
    second = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, second, 2, counting_to=1)  # still playing: counts nowhere
    response = standings(client, club, season)
    assert response.status_code == 200, response.json
    rows = response.json["rows"]
    assert rows[0]["entrant"] == "Anna" and rows[0]["place"] == 1
    assert {r["member"] for r in rows} == set(first["club"]["members"])
    assert all(r["explanation"] for r in rows)
    assert [e["game"] for e in response.json["evenings"]] == [first["id"]]
    assert response.json["evenings"][0]["date"] == TODAY
    assert response.headers["Club-Access"] == "read"


def test_resources_the_standings_answer_304_until_a_result_moves(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club).json["id"]
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 2)
    tag = standings(client, club, season).headers["ETag"]
    assert standings(client, club, season, **{"If-None-Match": tag}).status_code == 304
    play(client, game, 1)
    moved = standings(client, club, season, **{"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag and moved.json["rows"]


def test_words_a_rename_shows_in_the_standings(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club).json["id"]
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    anna = game["club"]["members"][0]
    client.patch(f"{CLUBS}/{club['id']}/members/{anna}", json={"name": "Annamaria"},
                 headers=auth(club["tokens"]["edit"]))
    names = {r["entrant"] for r in standings(client, club, season).json["rows"]}
    assert names == {"Annamaria", "Bruno", "Carla"}


def test_resources_the_standings_as_csv_and_printed(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club).json["id"]
    game = started(client, club, ["=Anna", "Bruno", "Carla"])
    play(client, game, 3)
    read = auth(club["tokens"]["read"])
    sheet = client.get(f"{CLUBS}/{club['id']}/seasons/{season}/standings.csv", headers=read)
    lines = sheet.get_data(as_text=True).splitlines()
    assert lines[0] == "place,entrant,number,match_points,difference,points,round_1"
    assert lines[1].split(",")[1] == "'=Anna"
    pdf = client.get(f"{CLUBS}/{club['id']}/seasons/{season}/standings.pdf?lang=it",
                     headers=read)
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert_problem(client.get(f"{CLUBS}/{club['id']}/seasons/zzzzzzzzzz/standings",
                              headers=read), 404)


def test_resources_the_clubs_export_holds_its_games_results_and_seasons(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club).json["id"]
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    read = auth(club["tokens"]["read"])
    exported = client.get(f"{CLUBS}/{club['id']}.json", headers=read).json
    assert [g["id"] for g in exported["games"]] == [game["id"]]
    assert exported["games"][0]["members"] == game["club"]["members"]
    assert len(exported["results"]) == 3 and exported["seasons"][0]["id"] == season
    sheet = client.get(f"{CLUBS}/{club['id']}.csv", headers=read).get_data(as_text=True)
    sections = sheet.split("\r\n\r\n")
    assert [s.splitlines()[0].split(",")[0] for s in sections] == [
        "number", "game", "game", "season"]
    assert len(sections[1].splitlines()) == 4 and len(sections[2].splitlines()) == 4
