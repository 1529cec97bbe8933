"""Games of a club, clause by clause of docs/clubs.md#linking-results-to-members,
#resources (a game joins a club at creation), "Bad input" (a member of another
club on a seat: 422 naming the field, nothing stored) and "Privacy" (a forgotten member is
"Player N" in the club's games)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from http_support import API, assert_problem, auth, error_fields, gatti3_hand
from test_http_clubs import CLUBS, found_club, history, member, roster

GAMES = f"{API}/games"


def club_auth(club: dict[str, Any]) -> dict[str, str]:
    return {"Club-Authorization": f"Bearer {club['tokens']['edit']}"}


def club_game(client: Any, club: dict[str, Any], players: list[Any],
              variant: str = "gatti-3", **extra: Any) -> Any:
    return client.post(GAMES, json={"variant": variant, "players": players,
                                    "club": club["id"], **extra}, headers=club_auth(club))


def started(client: Any, club: dict[str, Any], players: list[Any],
            variant: str = "gatti-3") -> dict[str, Any]:
    response = club_game(client, club, players, variant)
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json
    return body


def play(client: Any, game: dict[str, Any], hands: int, counting_to: int = 0) -> Any:
    response = None
    for _ in range(hands):
        state = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"]))
        response = client.post(f"{GAMES}/{game['id']}/hands", json=gatti3_hand(
            state.json["next_dealer"], counting_to=counting_to),
            headers=auth(game["tokens"]["edit"]))
        assert response.status_code == 201, response.json
    return response


def results(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(f"{CLUBS}/{club['id']}.json", headers=auth(club["tokens"]["read"]))
    assert response.status_code == 200, response.json
    rows: list[dict[str, Any]] = response.json["results"]
    return rows


def test_resources_a_game_joins_a_club_its_seats_members_or_new_names(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    game = started(client, club, [{"member": anna["id"]}, "bruno", "Carla"])
    assert game["club"]["id"] == club["id"]
    members = {m["name"]: m["id"] for m in roster(client, club)}
    assert set(members) == {"Anna", "bruno", "Carla"}
    assert game["club"]["members"] == [anna["id"], members["bruno"], members["Carla"]]
    assert game["players"] == ["Anna", "bruno", "Carla"]
    joined = [a for a in history(client, club) if a["action"] == "add_member"]
    assert [a["data"]["name"] for a in joined] == ["Anna", "bruno", "Carla"]


def test_linking_a_name_of_the_roster_is_that_member_however_typed(client: Any) -> None:
    club = found_club(client)
    nicolo = member(client, club, "Nicolò")
    game = started(client, club, ["NICOLO", "Bruno", "Carla"])
    assert game["club"]["members"][0] == nicolo["id"]
    assert game["players"][0] == "Nicolò"
    assert len(roster(client, club)) == 3


def test_linking_a_name_of_a_merged_member_is_the_member_they_were_merged_into(
        client: Any) -> None:
    club = found_club(client)
    anna, anny = member(client, club, "Anna"), member(client, club, "Anny")
    merged = client.post(f"{CLUBS}/{club['id']}/members/{anny['id']}/merge",
                         json={"into": anna["id"]}, headers=auth(club["tokens"]["edit"]))
    assert merged.status_code == 200
    game = started(client, club, ["Anny", "Bruno", "Carla"])
    assert game["club"]["members"][0] == anna["id"] and game["players"][0] == "Anna"


def test_bad_input_a_member_of_another_club_unknown_merged_forgotten_or_twice(
        client: Any) -> None:
    club, other = found_club(client), found_club(client, "Altro circolo")
    stranger = member(client, other, "Zeno")
    anna, anny, gone = (member(client, club, n) for n in ("Anna", "Anny", "Gino"))
    edit = auth(club["tokens"]["edit"])
    client.post(f"{CLUBS}/{club['id']}/members/{anny['id']}/merge", json={"into": anna["id"]},
                headers=edit)
    client.post(f"{CLUBS}/{club['id']}/members/{gone['id']}/forget", headers=edit)
    before = roster(client, club)
    response = club_game(client, club, [{"member": stranger["id"]}, {"member": anny["id"]},
                                        {"member": gone["id"]}, {"member": "nobody"}],
                         variant="mitigatti-4")
    body = assert_problem(response, 422)
    assert error_fields(body) == {"players[0]": "unknown_member",
                                  "players[1]": "member_merged",
                                  "players[2]": "member_forgotten",
                                  "players[3]": "unknown_member"}
    twice = assert_problem(club_game(client, club, [{"member": anna["id"]}, "anna", "Nuovo"]),
                           422)
    assert error_fields(twice) == {"players[1]": "duplicate_member"}
    assert roster(client, club) == before  # "Nuovo" was not stored


def test_bad_input_the_game_and_its_seats_problems_come_together(client: Any) -> None:
    club = found_club(client)
    body = assert_problem(club_game(client, club, [{"member": "nobody"}, "Bruno"]), 422)
    assert error_fields(body) == {"players[0]": "unknown_member",
                                  "players": "wrong_player_count"}


def test_bad_input_a_member_seat_needs_a_club(client: Any) -> None:
    body = assert_problem(client.post(GAMES, json={
        "variant": "gatti-3", "players": [{"member": "x"}, "B", "C"]}), 422)
    assert error_fields(body) == {"players[0]": "member_without_club"}


def test_privacy_a_games_tokens_never_open_its_club(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    for token in (game["tokens"]["edit"], game["tokens"]["read"]):
        assert_problem(client.get(f"{CLUBS}/{club['id']}", headers=auth(token)), 404)
        assert_problem(club_game(client, {**club, "tokens": {"edit": token}},
                                 ["A", "B", "C"]), 404)


def test_resources_joining_a_club_needs_its_edit_token(client: Any) -> None:
    club = found_club(client)
    players = ["Anna", "Bruno", "Carla"]
    assert_problem(client.post(GAMES, json={"variant": "gatti-3", "players": players,
                                            "club": club["id"]}), 401)
    assert_problem(club_game(client, {**club, "tokens": {"edit": club["tokens"]["read"]}},
                             players), 403)
    assert_problem(club_game(client, {**club, "id": "nosuchclub"}, players), 404)
    assert roster(client, club) == []


def test_linking_a_rename_shows_in_the_clubs_games(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    anna = game["club"]["members"][0]
    renamed = client.patch(f"{CLUBS}/{club['id']}/members/{anna}", json={"name": "Annamaria"},
                           headers=auth(club["tokens"]["edit"]))
    assert renamed.status_code == 200, renamed.json
    state = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"])).json
    assert state["players"][0] == "Annamaria"


def test_privacy_a_forgotten_member_is_player_n_in_the_clubs_games(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    bruno = game["club"]["members"][1]
    client.post(f"{CLUBS}/{club['id']}/members/{bruno}/forget",
                headers=auth(club["tokens"]["edit"]))
    state = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"])).json
    assert state["players"][1] == "Player 2"
    assert {r["member"] for r in results(client, club)} == set(game["club"]["members"]) - {
        bruno}


def test_linking_results_count_only_from_finished_games(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 2)
    assert results(client, club) == []
    play(client, game, 1, counting_to=1)
    rows = results(client, club)
    assert len(rows) == 3
    by_seat = {r["seat"]: r for r in rows}
    assert all(r["game"] == game["id"] and r["family"] == "gatti" for r in rows)
    assert [by_seat[s]["member"] for s in range(3)] == game["club"]["members"]
    # Each seat's place is the game's: one more than the seats whose total is higher.
    totals = client.get(f"{GAMES}/{game['id']}",
                        headers=auth(game["tokens"]["read"])).json["totals"]
    points = [totals[str(s)] for s in range(3)]
    assert [by_seat[s]["place"] for s in range(3)] == [
        1 + sum(other > mine for other in points) for mine in points]
    assert all(r["hands"] == 3 for r in rows)


def test_linking_a_corrected_hand_changes_the_results_a_deleted_one_takes_them_away(
        client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3, counting_to=0)
    winner = {r["seat"] for r in results(client, club) if r["place"] == 1}
    edit = auth(game["tokens"]["edit"])
    hands = client.get(f"{GAMES}/{game['id']}", headers=edit).json["hands"]
    for hand in hands:
        corrected = client.put(f"{GAMES}/{game['id']}/hands/{hand['number']}",
                               json=gatti3_hand(hand["dealer"], counting_to=2),
                               headers={**edit, "If-Match": hand["etag"]})
        assert corrected.status_code == 200, corrected.json
    after = {r["seat"] for r in results(client, club) if r["place"] == 1}
    assert after == {2} and after != winner
    last = client.get(f"{GAMES}/{game['id']}/hands/3", headers=edit)
    deleted = client.delete(f"{GAMES}/{game['id']}/hands/3",
                            headers={**edit, "If-Match": last.headers["ETag"]})
    assert deleted.status_code == 204
    assert results(client, club) == []


def test_linking_a_game_of_no_natural_end_counts_once_the_evening_is_over(
        client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"], variant="mitigatti-3")
    edit = auth(game["tokens"]["edit"])
    url = f"{GAMES}/{game['id']}"
    assert_problem(client.post(f"{url}/end", headers=edit), 409, code="no_hands")
    hand = {"dealer": 0, "piles": [
        {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}
    assert client.post(f"{url}/hands", json=hand, headers=edit).status_code == 201
    assert results(client, club) == []
    ended = client.post(f"{url}/end", headers=edit)
    assert ended.status_code == 200, ended.json
    assert ended.json["status"] == "finished" and ended.json["ended_by"] == "evening_over"
    assert ended.json["winners"] == ["2"]
    rows = results(client, club)
    assert {r["seat"]: r["marca"] for r in rows}[2] > 0
    assert_problem(client.post(f"{url}/hands", json={**hand, "dealer": 1}, headers=edit), 409,
                   code="game_finished")
    assert_problem(client.post(f"{url}/end", headers=edit), 409, code="evening_over")
    last = client.get(f"{url}/hands/1", headers=edit).headers["ETag"]
    assert_problem(client.delete(f"{url}/hands/1", headers={**edit, "If-Match": last}), 409,
                   code="evening_over")
    actions = [v["action"] for v in client.get(f"{url}/history", headers=edit).json["versions"]]
    assert actions == ["create", "end"]
    reopened = client.post(f"{url}/reopen", headers=edit)
    assert reopened.status_code == 200 and reopened.json["status"] == "in_progress"
    assert results(client, club) == []
    assert client.post(f"{url}/hands", json={**hand, "dealer": 1}, headers=edit
                       ).status_code == 201
    assert_problem(client.post(f"{url}/reopen", headers=edit), 409, code="evening_not_over")


def test_linking_the_evening_is_over_only_for_games_with_no_natural_end(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 1)
    assert_problem(client.post(f"{GAMES}/{game['id']}/end",
                               headers=auth(game["tokens"]["edit"])), 409, code="ends_by_rules")
    assert_problem(client.post(f"{GAMES}/{game['id']}/end",
                               headers=auth(game["tokens"]["read"])), 403)


def test_linking_a_merge_counts_the_merged_members_results_for_the_survivor(
        client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    anna, bruno, _ = game["club"]["members"]
    other = started(client, club, ["Annetta", "Dario", "Elena"])
    play(client, other, 3)
    annetta = other["club"]["members"][0]
    edit = auth(club["tokens"]["edit"])
    client.post(f"{CLUBS}/{club['id']}/members/{annetta}/merge", json={"into": anna},
                headers=edit)
    counted = {(r["game"], r["seat"]): r["counted_for"] for r in results(client, club)}
    assert counted[(other["id"], 0)] == anna and counted[(game["id"], 0)] == anna
    client.post(f"{CLUBS}/{club['id']}/members/{annetta}/unmerge", headers=edit)
    counted = {(r["game"], r["seat"]): r["counted_for"] for r in results(client, club)}
    assert counted[(other["id"], 0)] == annetta
    # Two who sat at one table are two people.
    refused = assert_problem(client.post(f"{CLUBS}/{club['id']}/members/{bruno}/merge",
                                         json={"into": anna}, headers=edit), 422)
    assert error_fields(refused) == {"into": "members_met"}


# -- events of a club -----------------------------------------------------------------------

EVENTS = f"{API}/events"


def club_event(client: Any, club: dict[str, Any], entrants: list[Any], **extra: Any) -> Any:
    body = {"name": "Giovedì", "variant": "gatti-3", "format": "individual",
            "entrants": entrants, "club": club["id"], **extra}
    return client.post(EVENTS, json=body, headers=club_auth(club))


def test_resources_an_events_entrants_are_members_and_its_tables_the_clubs(
        client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    created = club_event(client, club, [{"name": {"member": anna["id"]}}, {"name": "Bruno"},
                                        {"name": "carla"}])
    assert created.status_code == 201, created.json
    event = created.json
    members = {m["name"]: m["id"] for m in roster(client, club)}
    assert set(members) == {"Anna", "Bruno", "carla"}
    assert [(e["name"], e["member"]) for e in event["entrants"]] == [
        (name, members[name]) for name in ("Anna", "Bruno", "carla")]
    edit = auth(event["tokens"]["edit"])
    started = client.post(f"{EVENTS}/{event['id']}/rounds", json={}, headers=edit)
    assert started.status_code == 201, started.json
    table = started.json["tables"][0]
    game = client.get(f"{GAMES}/{table['game']}", headers=auth(table["tokens"]["read"])).json
    assert game["club"]["id"] == club["id"]
    assert [members[n] for n in game["players"]] == game["club"]["members"]


def test_linking_an_events_tables_count_once_their_round_has_ended(client: Any) -> None:
    club = found_club(client)
    event = club_event(client, club, [{"name": n} for n in ("Anna", "Bruno", "Carla")]).json
    edit = auth(event["tokens"]["edit"])
    table = client.post(f"{EVENTS}/{event['id']}/rounds", json={}, headers=edit
                        ).json["tables"][0]
    game = {"id": table["game"], "tokens": table["tokens"]}
    play(client, game, 2)
    assert results(client, club) == []  # its round is being played
    play(client, game, 1)  # the round's only table finishes: the round has ended
    rows = results(client, club)
    assert len(rows) == 3 and {r["event"] for r in rows} == {event["id"]}
    assert {r["round"] for r in rows} == {1} and {r["game"] for r in rows} == {game["id"]}
    # The organiser's correction of a closed table moves its rows.
    hand = client.get(f"{GAMES}/{game['id']}/hands/1", headers=auth(table["tokens"]["read"]))
    corrected = client.put(f"{EVENTS}/{event['id']}/rounds/1/tables/1/hands/1",
                           json=gatti3_hand(hand.json["dealer"], counting_to=2),
                           headers={**edit, "If-Match": hand.headers["ETag"]})
    assert corrected.status_code == 200, corrected.json
    assert {r["seat"]: r["totals"] for r in results(client, club)} != {
        r["seat"]: r["totals"] for r in rows}


def test_bad_input_an_events_entrant_of_another_club(client: Any) -> None:
    club, other = found_club(client), found_club(client, "Altro")
    zeno = member(client, other, "Zeno")
    body = assert_problem(club_event(client, club, [
        {"name": {"member": zeno["id"]}}, {"name": "Bruno"}, {"name": "Bruno"}]), 422)
    assert error_fields(body) == {"entrants[0].name": "unknown_member",
                                  "entrants[2].name": "duplicate_member"}
    assert roster(client, club) == []


def test_linking_a_pairs_players_are_members_and_a_rename_shows_in_the_event(
        client: Any) -> None:
    club = found_club(client)
    pairs = [{"name": f"Coppia {i}", "players": [f"P{i}a", f"P{i}b"]} for i in range(4)]
    created = club_event(client, club, pairs, variant="gatti-4", format="pairs")
    assert created.status_code == 201, created.json
    event = created.json
    members = {m["name"]: m["id"] for m in roster(client, club)}
    assert len(members) == 8
    client.patch(f"{CLUBS}/{club['id']}/members/{members['P0a']}", json={"name": "Ada"},
                 headers=auth(club["tokens"]["edit"]))
    state = client.get(f"{EVENTS}/{event['id']}", headers=auth(event["tokens"]["read"])).json
    assert state["entrants"][0]["players"] == ["Ada", "P0b"]
    assert state["entrants"][0]["members"] == [members["P0a"], members["P0b"]]


def test_linking_an_evening_over_prints_and_exports(client: Any) -> None:
    """A game ended by its scorekeeper is a game like any other on its sheet and in its
    exports: finished, its end kept in the export as ``ended_at``."""
    game = client.post(GAMES, json={"variant": "mitigatti-3",
                                    "players": ["Anna", "Bruno", "Carla"]}).json
    edit = auth(game["tokens"]["edit"])
    hand = {"dealer": 0, "piles": [
        {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}
    assert client.post(f"{GAMES}/{game['id']}/hands", json=hand, headers=edit).status_code == 201
    assert client.post(f"{GAMES}/{game['id']}/end", headers=edit).status_code == 200
    sheet = client.get(f"{GAMES}/{game['id']}/sheet.pdf", headers=edit)
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    exported = client.get(f"{GAMES}/{game['id']}.json", headers=edit).json
    assert exported["ended_at"] and [v["action"] for v in exported["history"]] == ["create"]
    assert exported["summary"]["status"] == "finished"
    assert client.get(f"{GAMES}/{game['id']}.csv", headers=edit).status_code == 200
    imported = client.post(f"{GAMES}/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["status"] == "finished" and imported.json["ended_by"] == "evening_over"
    again = client.get(f"{GAMES}/{imported.json['id']}",
                       headers=auth(imported.json["tokens"]["read"])).json
    assert again["ended_at"] == exported["ended_at"] and again["status"] == "finished"


def test_linking_the_repository_gives_the_results_in_finishing_order(
        app: Any, client: Any) -> None:
    """What statistics and ratings read: every row, the games in the order they finished
    (not the order they began), never a game twice."""
    club = found_club(client)
    early, late = (started(client, club, ["Anna", "Bruno", "Carla"]) for _ in range(2))
    play(client, late, 3)
    play(client, early, 3, counting_to=1)
    rows = app.extensions["segnapunti.clubs"].repository.club_results(club["id"])
    assert [r.game for r in rows] == [late["id"]] * 3 + [early["id"]] * 3
    assert [r.seat for r in rows] == [0, 1, 2, 0, 1, 2]
    assert all(a.finished_at <= b.finished_at for a, b in itertools.pairwise(rows))


@pytest.mark.parametrize("credential", ["none", "read", "other club's edit", "a game's edit",
                                        "an event's edit", "an event's read", "edit"])
@pytest.mark.parametrize("what", ["game", "event"])
def test_privacy_only_the_clubs_edit_token_brings_a_game_or_an_event_into_it(
        client: Any, credential: str, what: str) -> None:
    """The access matrix of ``Club-Authorization``: the secretary's token alone; the read
    token is 403, a token of anything else (another club, a game, an event) 404, none 401,
    and a refused request adds no member."""
    club, other = found_club(client), found_club(client, "Altro")
    game = client.post(GAMES, json={"variant": "gatti-3", "players": ["X", "Y", "Z"]}).json
    event = client.post(EVENTS, json={"name": "E", "variant": "gatti-3",
                                      "format": "individual",
                                      "entrants": [{"name": n} for n in "XYZ"]}).json
    token = {"none": None, "read": club["tokens"]["read"],
             "other club's edit": other["tokens"]["edit"],
             "a game's edit": game["tokens"]["edit"],
             "an event's edit": event["tokens"]["edit"],
             "an event's read": event["tokens"]["read"],
             "edit": club["tokens"]["edit"]}[credential]
    expected = {"none": 401, "read": 403, "edit": 201}.get(credential, 404)
    headers = {} if token is None else {"Club-Authorization": f"Bearer {token}"}
    if what == "game":
        response = client.post(GAMES, json={"variant": "gatti-3", "club": club["id"],
                                            "players": ["Anna", "Bruno", "Carla"]},
                               headers=headers)
    else:
        response = client.post(EVENTS, json={
            "name": "Giovedì", "variant": "gatti-3", "format": "individual",
            "club": club["id"], "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]},
            headers=headers)
    if expected == 201:
        assert response.status_code == 201, response.json
        assert len(roster(client, club)) == 3
    else:
        assert_problem(response, expected)
        assert roster(client, club) == []
