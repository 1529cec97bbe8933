"""A club's seasons over HTTP, clause by clause of docs/clubs.md#resources
(``POST /clubs/{id}/seasons``, its standings with either token and an ETag), "Words" (a
season sums what the club decides, ties as in docs/events.md), "Bad input" (reversed dates, an
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


def by_rank(totals: list[int]) -> list[int]:
    """docs/events.md's match points at a table of players on their own: 4, 2, 0 by rank at a
    table of three, those tied sharing the points of the ranks they cover."""
    points = [2 * (len(totals) - 1 - rank) for rank in range(len(totals))]
    ranked = sorted(totals, reverse=True)
    return [sum(points[i] for i, t in enumerate(ranked) if t == own) // ranked.count(own)
            for own in totals]


def test_words_a_season_as_a_club_plays_it(client: Any) -> None:
    """Evenings of two families (a stand-alone game, an evening of marca, an event), a
    correction, a merge and a forget: the season of one family counts what it should, each
    member's match points the sum of their evenings', worked out here from the games."""
    club = found_club(client)
    edit = auth(club["tokens"]["edit"])
    season = open_season(client, club, families=["gatti"]).json["id"]
    # Evening 1: Anna takes every counting card (4 match points, Bruno and Carla share 1).
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, first, 3, counting_to=0)
    anna, bruno, carla = first["club"]["members"]
    # Evening 2: marca, another family: over, but not this season's.
    marca = started(client, club, ["Anna", "Bruno", "Carla"], variant="mitigatti-3")
    hand = {"dealer": 0, "piles": [
        {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}
    client.post(f"/api/v1/games/{marca['id']}/hands", json=hand,
                headers=auth(marca["tokens"]["edit"]))
    client.post(f"/api/v1/games/{marca['id']}/end", headers=auth(marca["tokens"]["edit"]))
    # Evening 3: an event of one round; whoever sits at seat 1 takes every counting card.
    event = client.post("/api/v1/events", json={
        "name": "Giovedì", "variant": "gatti-3", "format": "individual", "club": club["id"],
        "entrants": [{"name": {"member": anna}}, {"name": "Elena"}, {"name": "Dario"}]},
        headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"}).json
    organiser = auth(event["tokens"]["edit"])
    table = client.post(f"/api/v1/events/{event['id']}/rounds", json={}, headers=organiser
                        ).json["tables"][0]
    at_table = {"id": table["game"], "tokens": table["tokens"]}
    seats = client.get(f"/api/v1/games/{table['game']}", headers=auth(table["tokens"]["read"])
                       ).json["club"]["members"]
    play(client, at_table, 3, counting_to=1)
    client.post(f"/api/v1/events/{event['id']}/rounds/1/close", headers=organiser)
    names = {m["id"]: m["name"] for m in client.get(
        f"{CLUBS}/{club['id']}/members", headers=edit).json["members"]}
    dario = next(m for m in seats if names[m] == "Dario")
    elena = next(m for m in seats if names[m] == "Elena")
    # The correction: evening 1 was Carla's, not Anna's.
    game_edit = auth(first["tokens"]["edit"])
    for played in client.get(f"/api/v1/games/{first['id']}", headers=game_edit).json["hands"]:
        client.put(f"/api/v1/games/{first['id']}/hands/{played['number']}",
                   json={**played["record"], "piles": [
                       {"side": s, "tricks": t, "counting": [] if s != 2 else
                        [c for p in played["record"]["piles"] for c in p["counting"]]}
                       for s, t in ((0, 10), (1, 8), (2, 8))]},
                   headers={**game_edit, "If-Match": played["etag"]})
    expected: dict[str, int] = {}
    for game, token in ((first["id"], first["tokens"]["read"]),
                        (table["game"], table["tokens"]["read"])):
        state = client.get(f"/api/v1/games/{game}", headers=auth(token)).json
        for member, earned in zip(state["club"]["members"], by_rank(
                [state["totals"][c["key"]] for c in state["columns"]]), strict=True):
            expected[member] = expected.get(member, 0) + earned
    winners = client.get(f"/api/v1/games/{first['id']}", headers=game_edit).json["winners"]
    assert winners == ["2"]  # the correction gave evening 1 to Carla
    rows = standings(client, club, season).json["rows"]
    assert {r["member"]: r["match_points"] for r in rows} == expected
    # Dario found to be Bruno: one member, both evenings; Carla forgotten: gone. Anna and
    # Elena sat at one table: they are two people.
    assert_problem(client.post(f"{CLUBS}/{club['id']}/members/{anna}/merge",
                               json={"into": elena}, headers=edit), 422)
    client.post(f"{CLUBS}/{club['id']}/members/{dario}/merge", json={"into": bruno},
                headers=edit)
    client.post(f"{CLUBS}/{club['id']}/members/{carla}/forget", headers=edit)
    merged = {anna: expected[anna], bruno: expected[bruno] + expected[dario],
              elena: expected[elena]}
    after = standings(client, club, season).json
    assert {r["member"]: r["match_points"] for r in after["rows"]} == merged
    assert len(after["evenings"]) == 2 and {r["entrant"] for r in after["rows"]} == {
        "Anna", "Bruno", "Elena"}
    assert [r["place"] for r in after["rows"]] == sorted(r["place"] for r in after["rows"])


def test_pictures_the_standings_carry_the_top_places_evening_by_evening(client: Any) -> None:
    """docs/clubs.md#pictures: the season's standings have a chart of the top places evening by
    evening; its figures are each leader's match points after each evening, summed here from
    the games' totals."""
    club = found_club(client)
    season = open_season(client, club).json["id"]
    seatings = [(["Anna", "Bruno", "Carla"], 0), (["Dario", "Bruno", "Carla"], 1),
                (["Anna", "Dario", "Elena"], 2), (["Carla", "Elena", "Franco"], 0)]
    evenings: list[dict[str, int]] = []
    for players, winner in seatings:
        game = started(client, club, players)
        play(client, game, 3, counting_to=winner)
        state = client.get(f"/api/v1/games/{game['id']}",
                           headers=auth(game["tokens"]["read"])).json
        assert state["status"] == "finished"
        evenings.append(dict(zip(state["club"]["members"], by_rank(
            [state["totals"][c["key"]] for c in state["columns"]]), strict=True)))
    found = standings(client, club, season).json
    assert len(found["evenings"]) == 4 and len(found["rows"]) == 6
    leaders = found["leaders"]
    assert [(x["member"], x["entrant"]) for x in leaders] == [
        (r["member"], r["entrant"]) for r in found["rows"][:5]]
    for leader in leaders:
        running = [0]
        for night in evenings:
            running.append(running[-1] + night.get(leader["member"], 0))
        assert leader["running"] == running
    pdf = client.get(f"{CLUBS}/{club['id']}/seasons/{season}/standings.pdf?lang=en",
                     headers=auth(club["tokens"]["read"]))
    assert pdf.status_code == 200
