"""A round's end through the API (a round ends when all its games end, or when the organiser
closes it; results count for the club from ended rounds, both ends alike), on
SQLite and PostgreSQL: the hand that finishes a round's last game ends the round in the same
write — its close time, its history, its tables counted for the club — for free deals, a
round of several tables, a duplicate round and an evening of Mitigatti."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from http_support import API, assert_problem, auth, gatti3_hand
from test_http_club_links import club_event, play, results
from test_http_club_season_e2e import mitigatti3
from test_http_club_seasons import open_season, standings
from test_http_clubs import CLUBS, found_club
from test_http_duplicate import Duplicate
from test_http_rubbers_and_ledgers import ALL_SIGNIFICANT, big_first_hand

EVENTS = f"{API}/events"
GAMES = f"{API}/games"
SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def event_of(client: Any, event: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"{EVENTS}/{event['id']}", headers=auth(event["tokens"]["read"]))
    assert response.status_code == 200, response.json
    body: dict[str, Any] = response.json
    return body


def history(client: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = client.get(
        f"{EVENTS}/{event['id']}/history", headers=auth(event["tokens"]["edit"])).json["actions"]
    return actions


def start(client: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    started = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                          headers=auth(event["tokens"]["edit"]))
    assert started.status_code == 201, started.json
    tables: list[dict[str, Any]] = started.json["tables"]
    return tables


def game_of(table: dict[str, Any]) -> dict[str, Any]:
    return {"id": table["game"], "tokens": table["tokens"]}


def counted_for_the_club(client: Any, club: dict[str, Any], season: str,
                         event: dict[str, Any], table: dict[str, Any]) -> list[dict[str, Any]]:
    """The one-table round of ``event`` counted for ``club``: its three rows, the season's
    evening and standings, the family's ratings; the rows."""
    rows = results(client, club)
    assert {(r["event"], r["round"], r["game"]) for r in rows} == {
        (event["id"], 1, table["game"])}
    assert len(rows) == 3
    season_rows = standings(client, club, season).json
    assert [e["event"] for e in season_rows["evenings"]] == [event["id"]]
    assert {r["entrant"] for r in season_rows["rows"]} == set(SIX[:3])
    rated = client.get(f"{CLUBS}/{club['id']}/ratings?family=gatti",
                       headers=auth(club["tokens"]["read"])).json
    assert rated["games"] == 1 and len(rated["ratings"]) == 3
    return rows


def test_a_round_ends_when_every_game_of_it_has_finished(client: Any) -> None:
    club = found_club(client)
    season = open_season(client, club, families=["gatti"]).json["id"]
    created = club_event(client, club, [{"name": n} for n in SIX[:3]], rounds=1)
    assert created.status_code == 201, created.json
    event = created.json
    table = start(client, event)[0]
    play(client, game_of(table), 3)
    ended = event_of(client, event)
    assert ended["status"] == "over"
    assert ended["rounds"][0]["state"] == "closed"
    assert ended["rounds"][0]["closed_at"] is not None
    assert ended["rounds"][0]["tables"][0]["status"] == "finished"
    last = history(client, event)[-1]
    assert (last["action"], last["data"]) == ("close_round", {"round": 1, "automatic": True})
    # Counted for the club at once, as the organiser's close would have counted it.
    rows = counted_for_the_club(client, club, season, event, table)
    standing = client.get(f"{EVENTS}/{event['id']}/standings",
                          headers=auth(event["tokens"]["read"])).json
    assert standing["provisional"] is False
    member = rows[0]["member"]
    figures = client.get(f"{CLUBS}/{club['id']}/members/{member}/stats",
                         headers=auth(club["tokens"]["read"])).json
    assert figures["games"] == 1
    # Nothing is left to close, and the table's game says it is closed.
    assert_problem(client.post(f"{EVENTS}/{event['id']}/rounds/1/close",
                               headers=auth(event["tokens"]["edit"])), 409,
                   code="round_closed")
    game = client.get(f"{GAMES}/{table['game']}", headers=auth(table["tokens"]["edit"]))
    hand = client.get(f"{GAMES}/{table['game']}/hands/3", headers=auth(table["tokens"]["edit"]))
    refused = client.put(f"{GAMES}/{table['game']}/hands/3",
                         json=gatti3_hand(hand.json["dealer"], counting_to=1),
                         headers={**auth(table["tokens"]["edit"]), "If-Match": hand.headers["ETag"]})
    assert_problem(refused, 409, code="game_closed")
    assert game.json["status"] == "finished"


def test_a_round_ends_with_its_last_table_not_before(client: Any) -> None:
    club = found_club(client)
    created = club_event(client, club, [{"name": n} for n in SIX], rounds=2, seed=5)
    assert created.status_code == 201, created.json
    event = created.json
    for number in (1, 2):
        first, second = start(client, event)
        play(client, game_of(first), 3)
        play(client, game_of(second), 2)
        playing = event_of(client, event)
        assert playing["rounds"][number - 1]["state"] == "open"
        assert playing["status"] == "playing"
        assert {r["round"] for r in results(client, club)} == set(range(1, number))
        play(client, game_of(second), 1)
        ended = event_of(client, event)["rounds"][number - 1]
        assert ended["state"] == "closed" and ended["closed_at"] is not None
        assert {(r["round"], r["game"]) for r in results(client, club)
                if r["round"] == number} == {(number, first["game"]), (number, second["game"])}
    assert event_of(client, event)["status"] == "over"
    assert [a["data"].get("automatic") for a in history(client, event)
            if a["action"] == "close_round"] == [True, True]


def test_a_duplicate_round_ends_with_its_last_board(client: Any) -> None:
    evening = Duplicate(client, boards_per_round=2, rounds=1)
    tables = evening.start()
    for table in tables["tables"]:
        evening.play(table)
    room = client.get(evening.url, headers=auth(evening.read)).json
    assert room["rounds"][0]["state"] == "open"
    for table in tables["tables"][:-1]:
        evening.play(table)
    assert client.get(evening.url, headers=auth(evening.read)).json["rounds"][0]["state"] == \
        "open"
    evening.play(tables["tables"][-1])
    room = client.get(evening.url, headers=auth(evening.read)).json
    assert room["status"] == "over" and room["rounds"][0]["state"] == "closed"
    assert [t["status"] for t in room["rounds"][0]["tables"]] == ["finished"] * 4
    standing = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json
    assert standing["provisional"] is False
    assert {r["boards"] for r in standing["rows"]} == {2}


def test_a_round_of_mitigatti_ends_when_its_last_evening_is_over(client: Any) -> None:
    club = found_club(client)
    created = club_event(client, club, [{"name": n} for n in SIX[:3]], rounds=1,
                         variant="mitigatti-3")
    assert created.status_code == 201, created.json
    event = created.json
    table = start(client, event)[0]
    url, edit = f"{GAMES}/{table['game']}", auth(table["tokens"]["edit"])
    dealer = client.get(url, headers=edit).json["next_dealer"]
    hand = mitigatti3((12, 6, 8), (0, 1, 2), (7, 4, 8))
    assert client.post(f"{url}/hands", json={"dealer": dealer, **hand.body},
                       headers=edit).status_code == 201
    assert event_of(client, event)["rounds"][0]["state"] == "open"
    ended = client.post(f"{url}/end", headers=edit)
    assert ended.status_code == 200, ended.json
    assert event_of(client, event)["rounds"][0]["state"] == "closed"
    assert {r["game"] for r in results(client, club)} == {table["game"]}


def test_tables_finishing_at_the_same_moment_end_their_round_once(app: Any,
                                                                 client: Any) -> None:
    # Each table's last hand is written while the others' are: the event is held before such
    # a write, so the last of them sees every other table finished and ends the round.
    for attempt in range(3):
        created = client.post(EVENTS, json={
            "name": "Sera", "variant": "gatti-3", "format": "individual", "rounds": 1,
            "entrants": [{"name": f"{n} {attempt}"} for n in SIX]})
        event = created.json
        tables = start(client, event)
        for table in tables:
            play(client, game_of(table), 2)
        barrier = threading.Barrier(len(tables))

        def last_hand(table: dict[str, Any], barrier: threading.Barrier = barrier) -> int:
            own = app.test_client()
            url, edit = f"{GAMES}/{table['game']}", auth(table["tokens"]["edit"])
            dealer = own.get(url, headers=edit).json["next_dealer"]
            barrier.wait()
            return int(own.post(f"{url}/hands", json=gatti3_hand(dealer),
                                headers=edit).status_code)

        with ThreadPoolExecutor(len(tables)) as pool:
            assert list(pool.map(last_hand, tables)) == [201] * len(tables)
        ended = event_of(client, event)
        assert (ended["status"], ended["rounds"][0]["state"]) == ("over", "closed")
        assert [a["action"] for a in history(client, event)].count("close_round") == 1


def ottocento_table(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A one-round Ottocento evening of one table, its first hand 736 to 25 (R12: the
    rubber is to 800)."""
    created = client.post(EVENTS, json={
        "name": "Sera", "variant": "ottocento", "format": "individual", "rounds": 1,
        "seed": 2, "entrants": [{"name": n} for n in SIX[:4]]})
    assert created.status_code == 201, created.json
    event = created.json
    table = start(client, event)[0]
    first = client.post(f"{GAMES}/{table['game']}/hands", json=big_first_hand(),
                        headers=auth(table["tokens"]["edit"]))
    assert first.status_code == 201, first.json
    return event, table


def rubber_won() -> dict[str, Any]:
    return {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 2,
            "piles": [{"side": 0, "tricks": 16, "counting": ALL_SIGNIFICANT}]}


def test_a_correction_that_finishes_the_last_game_ends_the_round(client: Any) -> None:
    event, table = ottocento_table(client)
    url, edit = f"{GAMES}/{table['game']}/hands/1", auth(table["tokens"]["edit"])
    etag = client.get(url, headers=edit).headers["ETag"]
    corrected = client.put(url, json=rubber_won(), headers={**edit, "If-Match": etag})
    assert corrected.status_code == 200, corrected.json
    ended = event_of(client, event)
    assert ended["status"] == "over" and ended["rounds"][0]["state"] == "closed"
    assert history(client, event)[-1]["data"] == {"round": 1, "automatic": True}


def test_the_organisers_correction_that_finishes_the_last_game_ends_the_round(
        client: Any) -> None:
    event, table = ottocento_table(client)
    hand = client.get(f"{GAMES}/{table['game']}/hands/1", headers=auth(table["tokens"]["edit"]))
    corrected = client.put(f"{EVENTS}/{event['id']}/rounds/1/tables/1/hands/1",
                           json=rubber_won(), headers={**auth(event["tokens"]["edit"]),
                                                       "If-Match": hand.headers["ETag"]})
    assert corrected.status_code == 200, corrected.json
    assert event_of(client, event)["rounds"][0]["state"] == "closed"
    actions = [(a["action"], a["data"].get("automatic")) for a in history(client, event)]
    assert actions[-2:] == [("close_round", True), ("correct_hand", None)]


def test_a_round_left_open_with_every_table_finished_is_still_to_be_closed(
        app: Any, client: Any) -> None:
    # A round stored before rounds ended by themselves: every table finished, the round open.
    # The event says it is being played (not over above an open round), and the organiser's
    # close ends it and counts it for the club.
    club = found_club(client)
    event = club_event(client, club, [{"name": n} for n in SIX[:3]], rounds=1).json
    table = start(client, event)[0]
    games = app.extensions["segnapunti.games"]
    rounds, games.rounds = games.rounds, None
    try:
        play(client, game_of(table), 3)
    finally:
        games.rounds = rounds
    left = event_of(client, event)
    assert (left["status"], left["rounds"][0]["state"], left["rounds"][0]["finished"]) == \
        ("playing", "open", True)
    assert results(client, club) == []
    closed = client.post(f"{EVENTS}/{event['id']}/rounds/1/close",
                         headers=auth(event["tokens"]["edit"]))
    assert closed.status_code == 200, closed.json
    assert closed.json["status"] == "over"
    assert {r["round"] for r in results(client, club)} == {1}
