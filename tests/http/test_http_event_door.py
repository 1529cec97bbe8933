"""The door (docs/events.md#the-door): an event whose entrants check in as they arrive, late
arrivals, withdrawals and returns, entrants added and removed by hand, and each entrant's own
link, through the API on SQLite and PostgreSQL; and a whole evening: 24 players check in, one
arrives after round 1, one withdraws after round 2, another withdraws and comes back."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from http_support import assert_problem, auth, error_fields
from pypdf import PdfReader

API = "/api/v1"
PLAYERS = [f"Giocatore {i + 1}" for i in range(24)]


def link_token(link: str) -> str:
    return parse_qs(urlsplit(link).fragment.split("?", 1)[1])["token"][0]


class Door:
    """An event with a door, seen by the organiser (edit token) and the door (door token)."""

    def __init__(self, client: Any, **body: Any) -> None:
        self.client = client
        base = {"name": "Sera alla porta", "variant": "gatti-4", "format": "individual",
                "checkin": True, "seed": 7}
        self.created = client.post(f"{API}/events", json={**base, **body})
        assert self.created.status_code == 201, self.created.json
        self.id = self.created.json["id"]
        self.edit = self.created.json["tokens"]["edit"]
        self.read = self.created.json["tokens"]["read"]
        self.door = self.created.json["tokens"].get("door")
        self.url = f"{API}/events/{self.id}"

    def checkin(self, body: dict[str, Any], token: str | None = None) -> Any:
        return self.client.post(f"{self.url}/checkins", json=body,
                                headers=auth(token or self.door))

    def arrive(self, name: str) -> dict[str, Any]:
        response = self.checkin({"name": name})
        assert response.status_code == 201, response.json
        return response.json

    def start(self) -> Any:
        response = self.client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        assert response.status_code == 201, response.json
        return response.json

    def close(self, number: int) -> None:
        response = self.client.post(f"{self.url}/rounds/{number}/close",
                                    headers=auth(self.edit))
        assert response.status_code == 200, response.json

    def state(self) -> dict[str, Any]:
        return self.client.get(self.url, headers=auth(self.edit)).json

    def page(self, number: int, token: str) -> Any:
        return self.client.get(f"{self.url}/entrants/{number}", headers=auth(token))

    def act(self, number: int, what: str, token: str) -> Any:
        return self.client.post(f"{self.url}/entrants/{number}/{what}", headers=auth(token))

    def history(self) -> list[dict[str, Any]]:
        return self.client.get(f"{self.url}/history", headers=auth(self.edit)).json["actions"]


def test_an_event_with_a_door_is_made_with_no_entrants_and_gives_the_doors_link(
        client: Any) -> None:
    door = Door(client)
    body = door.created.json
    assert body["checkin"] is True and body["late_rounds"] == "zero"
    assert body["entrants"] == []
    assert body["links"]["door"].endswith(f"/#/events/{door.id}/door?token={door.door}")
    links = client.get(f"{door.url}/links", headers=auth(door.edit)).json
    assert links["tokens"]["door"] == door.door and links["links"]["door"] == body["links"]["door"]


def test_an_event_without_a_door_still_needs_its_roster(client: Any) -> None:
    response = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual"})
    assert error_fields(assert_problem(response, 422))["entrants"] == "missing_entrants"


def test_the_door_token_opens_the_door_and_says_who_came(client: Any) -> None:
    door = Door(client)
    door.arrive("Anna")
    found = client.get(f"{door.url}/door", headers=auth(door.door))
    assert found.status_code == 200, found.json
    assert found.json["open"] is True and found.json["from_round"] == 1
    assert found.json["checked_in"] == 1 and found.json["members"] == []
    assert found.json["event"]["id"] == door.id and found.json["event"]["variant"] == "gatti-4"
    assert client.get(f"{door.url}/door", headers=auth(door.edit)).status_code == 200
    assert_problem(client.get(f"{door.url}/door", headers=auth(door.read)), 403)


def test_the_door_read_again_is_304_until_someone_checks_in(client: Any) -> None:
    # The door's screen reads it every few seconds: while nobody came, a few bytes say so.
    door = Door(client)
    first = client.get(f"{door.url}/door", headers=auth(door.door))
    tag = first.headers["ETag"]
    again = client.get(f"{door.url}/door", headers={**auth(door.door), "If-None-Match": tag})
    assert again.status_code == 304 and again.headers["ETag"] == tag and again.data == b""
    door.arrive("Anna")
    moved = client.get(f"{door.url}/door", headers={**auth(door.door), "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert moved.json["checked_in"] == 1


def test_an_entrants_page_read_again_is_304_until_the_round_seats_them(client: Any) -> None:
    door = Door(client)
    came = [door.arrive(name) for name in PLAYERS[:4]]
    token = came[0]["tokens"]["entrant"]
    first = door.page(0, token)
    tag = first.headers["ETag"]
    again = client.get(f"{door.url}/entrants/0",
                       headers={**auth(token), "If-None-Match": tag})
    assert again.status_code == 304 and again.headers["ETag"] == tag
    door.start()
    seated = client.get(f"{door.url}/entrants/0",
                        headers={**auth(token), "If-None-Match": tag})
    assert seated.status_code == 200 and seated.json["now"]["round"] == 1


def test_a_check_in_answers_the_entrants_own_link(client: Any) -> None:
    door = Door(client)
    came = door.arrive("Anna")
    assert came["entrant"] == 0 and came["name"] == "Anna" and came["from_round"] == 1
    token = came["tokens"]["entrant"]
    assert came["links"]["entrant"].endswith(
        f"/#/events/{door.id}/entrants/0?token={token}")
    page = door.page(0, token)
    assert page.status_code == 200, page.json
    assert page.json["name"] == "Anna" and page.json["now"] is None
    assert page.json["withdrawn"] is False and page.json["rounds_played"] == 0
    entrant = door.state()["entrants"][0]
    assert entrant == {"number": 0, "name": "Anna", "from_round": 1, "withdrawn": False,
                       "withdrawn_from": None, "checked_in": True, "rounds_played": 0}


def test_the_same_name_twice_is_already_checked_in_and_says_whom(client: Any) -> None:
    door = Door(client)
    door.arrive("Anna")
    door.arrive("Bruno")
    again = assert_problem(door.checkin({"name": " ＢＲＵＮＯ\u200b "}), 409,
                           code="already_checked_in")
    assert "2" in again["detail"]
    assert len(door.state()["entrants"]) == 2


def test_a_bad_name_is_refused_with_every_problem_and_nothing_stored(client: Any) -> None:
    door = Door(client, format="pairs", variant="tarocchino-bolognese")
    response = door.checkin({"name": "", "players": ["Anna", "x" * 61]})
    fields = error_fields(assert_problem(response, 422))
    assert fields == {"name": "missing_name", "players[1]": "name_too_long"}
    assert door.state()["entrants"] == []
    assert door.state()["version"] == 1


def test_a_check_in_at_an_event_without_a_door_is_refused(client: Any) -> None:
    door = Door(client, checkin=False, entrants=[{"name": n} for n in PLAYERS[:4]])
    assert door.door is None
    assert_problem(door.checkin({"name": "Zoe"}, door.edit), 409, code="checkin_closed")


def test_the_door_closes_when_the_last_round_starts(client: Any) -> None:
    door = Door(client, rounds=1)
    for name in PLAYERS[:4]:
        door.arrive(name)
    door.start()
    assert client.get(f"{door.url}/door", headers=auth(door.door)).json["open"] is False
    assert_problem(door.checkin({"name": "Zoe"}), 409, code="checkin_closed")


def test_an_entrants_own_token_does_not_open_the_door(client: Any) -> None:
    door = Door(client)
    token = door.arrive("Anna")["tokens"]["entrant"]
    assert door.act(0, "withdraw", token).status_code == 200
    assert_problem(door.checkin({"name": "Bruno"}, token), 403)


def test_an_entrants_token_opens_their_page_only(client: Any) -> None:
    door = Door(client)
    anna = door.arrive("Anna")["tokens"]["entrant"]
    door.arrive("Bruno")
    assert_problem(door.page(1, anna), 403)
    assert_problem(door.page(0, door.door), 403)
    assert door.page(0, door.edit).json["links"]["entrant"].endswith(f"token={anna}")


def test_the_organiser_adds_an_entrant_by_hand_with_or_without_a_door(client: Any) -> None:
    door = Door(client, checkin=False, entrants=[{"name": n} for n in PLAYERS[:4]])
    added = client.post(f"{door.url}/entrants", json={"name": "Zoe"}, headers=auth(door.edit))
    assert added.status_code == 201, added.json
    assert added.json["entrant"] == 4
    assert door.state()["entrants"][4]["checked_in"] is False
    assert_problem(client.post(f"{door.url}/entrants", json={"name": "Yuri"},
                               headers=auth(door.read)), 403)


def test_a_removed_entrant_is_not_listed_and_their_number_is_not_reused(client: Any) -> None:
    door = Door(client)
    door.arrive("Anna")
    door.arrive("Bruno")
    removed = client.delete(f"{door.url}/entrants/0", headers=auth(door.edit))
    assert removed.status_code == 204
    assert [e["number"] for e in door.state()["entrants"]] == [1]
    # The same name may come again (a mistaken check-in): a new number.
    assert door.arrive("Anna")["entrant"] == 2
    assert_problem(client.delete(f"{door.url}/entrants/0", headers=auth(door.edit)), 404)


def test_an_entrant_who_played_cannot_be_removed(client: Any) -> None:
    door = Door(client)
    for name in PLAYERS[:4]:
        door.arrive(name)
    door.start()
    assert_problem(client.delete(f"{door.url}/entrants/0", headers=auth(door.edit)), 409,
                   code="entrant_played")


def test_a_round_with_too_few_active_entrants_is_refused(client: Any) -> None:
    door = Door(client)
    for name in PLAYERS[:3]:
        door.arrive(name)
    response = client.post(f"{door.url}/rounds", json={}, headers=auth(door.edit))
    assert_problem(response, 409, code="roster_too_small")
    assert door.state()["rounds"] == []


def test_the_door_opens_only_before_round_1(client: Any) -> None:
    door = Door(client, checkin=False, entrants=[{"name": n} for n in PLAYERS[:4]])
    opened = client.patch(door.url, json={"checkin": True, "late_rounds": "bye"},
                          headers=auth(door.edit))
    assert opened.status_code == 200, opened.json
    assert opened.json["checkin"] is True and opened.json["late_rounds"] == "bye"
    assert "door" in client.get(f"{door.url}/links", headers=auth(door.edit)).json["tokens"]
    door.start()
    assert_problem(client.patch(door.url, json={"checkin": False}, headers=auth(door.edit)),
                   409, code="round_started")
    late = client.patch(door.url, json={"late_rounds": "zero"}, headers=auth(door.edit))
    assert late.status_code == 200 and late.json["late_rounds"] == "zero"


def test_a_return_comes_before_the_next_round_starts(client: Any) -> None:
    door = Door(client)
    tokens = [door.arrive(n)["tokens"]["entrant"] for n in PLAYERS[:5]]
    door.start()
    out = door.act(4, "withdraw", tokens[4])
    assert out.status_code == 200 and out.json["withdrawn_from"] == 2
    door.close(1)
    door.start()
    assert_problem(door.act(4, "return", tokens[4]), 409, code="return_too_late")


def test_the_entrants_tokens_never_show_in_the_events_json_or_its_export(client: Any) -> None:
    door = Door(client)
    came = door.arrive("Anna")
    token = came["tokens"]["entrant"]
    for path in ("", ".json", "/history"):
        text = client.get(f"{door.url}{path}", headers=auth(door.edit)).get_data(as_text=True)
        assert token not in text and "token_hash" not in text


def test_the_history_keeps_each_check_in_addition_removal_withdrawal_and_return(
        client: Any) -> None:
    door = Door(client)
    anna = door.arrive("Anna")["tokens"]["entrant"]
    client.post(f"{door.url}/entrants", json={"name": "Bruno"}, headers=auth(door.edit))
    client.delete(f"{door.url}/entrants/1", headers=auth(door.edit))
    door.act(0, "withdraw", anna)
    door.act(0, "return", anna)
    actions = [a["action"] for a in door.history()]
    assert actions[-5:] == ["checkin", "entrant_added", "entrant_removed", "withdraw",
                            "return"]


def _points(side0: int) -> dict[str, Any]:
    return {"piles": [{"side": 0, "points": side0}, {"side": 1, "points": 72 - side0}]}


@pytest.mark.parametrize("late_rounds", ["zero", "bye"])
def test_a_whole_evening_at_the_door(client: Any, late_rounds: str) -> None:
    """24 players check in, 4 rounds; one arrives after round 1 started, one withdraws after
    round 2, another withdraws and comes back before round 3: each round seats those
    active, the late arrival's missed round counts as the bye it was, and the standings say
    so (``late_rounds`` zero: nothing for it; bye: a bye)."""
    door = Door(client, rounds=4, seed=11, late_rounds=late_rounds)
    tokens = {name: door.arrive(name)["tokens"]["entrant"] for name in PLAYERS}
    late, gone, back = "Ritardataria", PLAYERS[3], PLAYERS[5]
    sums: dict[str, list[int]] = {name: [0, 0] for name in [*PLAYERS, late]}  # mp, points
    byes: dict[int, list[str]] = {}
    for number in (1, 2, 3, 4):
        started = door.start()
        seated = [name for table in started["tables"] for name in table["seats"]]
        assert len(seated) == len(set(seated))
        byes[number] = started["byes"]
        if number == 1:
            assert len(started["tables"]) == 6 and started["byes"] == []
            came = door.arrive(late)
            assert came["from_round"] == 2 and came["entrant"] == 24
            tokens[late] = came["tokens"]["entrant"]
            assert client.get(f"{door.url}/door", headers=auth(door.door)).json[
                "from_round"] == 2
        elif number == 2:
            # 25 play: six tables and a bye, which is not the late arrival's (the round
            # they missed was theirs).
            assert len(started["tables"]) == 6 and len(started["byes"]) == 1
            assert late in seated and started["byes"] != [late]
            on_bye = started["byes"][0]
            page = door.page(PLAYERS.index(on_bye), tokens[on_bye]).json
            assert page["now"] == {"round": 2, "bye": True}
            # The late arrival's page opens their seat's game with their player link.
            page = door.page(24, tokens[late]).json
            assert page["now"]["round"] == 2 and len(page["now"]["seats"]) == 1
            seat = page["now"]["seats"][0]
            assert seat["name"] == late and len(page["now"]["with"]) == 3
            game = client.get(f"{API}/games/{page['now']['game']}",
                              headers=auth(link_token(seat["link"])))
            assert game.status_code == 200
            assert game.json["players"][seat["seat"] - 1] == late
            assert page["clock"]["started_at"] and page["clock"]["auto_close"] is False
            # One withdraws for good, one withdraws and thinks again.
            assert door.act(PLAYERS.index(gone), "withdraw", tokens[gone]).json[
                "withdrawn_from"] == 3
            assert door.act(PLAYERS.index(back), "withdraw", door.edit).status_code == 200
            assert door.act(PLAYERS.index(back), "return", tokens[back]).json[
                "withdrawn"] is False
        else:
            # 24 play again: the one who withdrew sits out for good, nobody has a bye.
            assert len(started["tables"]) == 6 and started["byes"] == []
            assert gone not in seated and back in seated and late in seated
        for t, table in enumerate(started["tables"]):
            side0 = 30 + (7 * t + 5 * number) % 13
            hand = client.post(f"{API}/games/{table['game']}/hands",
                               json={"dealer": 0, **_points(side0)},
                               headers=auth(table["tokens"]["edit"]))
            assert hand.status_code == 201, hand.json
            seats = table["seats"]
            for names, own, other in (((seats[0], seats[2]), side0, 72 - side0),
                                      ((seats[1], seats[3]), 72 - side0, side0)):
                for name in names:
                    sums[name][0] += 2 if own > other else 1 if own == other else 0
                    sums[name][1] += own
        for name in started["byes"]:
            sums[name][0] += 1  # an average table: a draw's match points
        door.close(number)
    if late_rounds == "bye":
        sums[late][0] += 1
    assert_problem(door.checkin({"name": "Troppo tardi"}), 409, code="checkin_closed")
    standings = client.get(f"{door.url}/standings", headers=auth(door.read)).json
    rows = {row["entrant"]: row for row in standings["rows"]}
    assert len(rows) == 25
    assert {name: [row["match_points"], row["points"]] for name, row in rows.items()} == sums
    assert rows[gone]["withdrawn"] is True and rows[gone]["rounds_played"] == 2
    assert rows[back]["withdrawn"] is False and rows[back]["rounds_played"] == 4
    assert rows[late]["rounds_played"] == 3
    late_rounds_seen = [r["round"] for r in rows[late]["rounds"]]
    assert late_rounds_seen == ([1, 2, 3, 4] if late_rounds == "bye" else [2, 3, 4])
    if late_rounds == "bye":
        assert rows[late]["rounds"][0]["state"] == "bye"
    on_bye = byes[2][0]
    assert [r["state"] for r in rows[on_bye]["rounds"]].count("bye") == 1
    entrants = {e["name"]: e for e in door.state()["entrants"]}
    assert entrants[late]["from_round"] == 2 and entrants[late]["checked_in"] is True
    assert entrants[gone]["withdrawn_from"] == 3
    page = door.page(PLAYERS.index(gone), tokens[gone]).json
    assert page["withdrawn"] is True and page["standing"]["rounds_played"] == 2
    assert page["standing"]["place"] == rows[gone]["place"]


# -- a club's event ---------------------------------------------------------------------------


def _club_door(client: Any) -> tuple[dict[str, Any], Door, dict[str, str]]:
    from test_http_clubs import found_club, member

    club = found_club(client)
    members = {name: member(client, club, name)["id"] for name in ("Anna", "Bruno", "Zita")}
    made = client.post(f"{API}/events", json={
        "name": "Giovedì", "variant": "gatti-3", "format": "individual", "checkin": True,
        "club": club["id"]}, headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})
    assert made.status_code == 201, made.json
    door = Door.__new__(Door)
    door.client, door.created, door.id = client, made, made.json["id"]
    door.edit, door.read = made.json["tokens"]["edit"], made.json["tokens"]["read"]
    door.door, door.url = made.json["tokens"]["door"], f"{API}/events/{door.id}"
    return club, door, members


def test_at_a_clubs_door_a_member_checks_in_by_id_and_a_new_name_becomes_a_member(
        client: Any) -> None:
    from test_http_clubs import roster

    club, door, members = _club_door(client)
    opened = client.get(f"{door.url}/door", headers=auth(door.door)).json
    assert opened["members"] == [{"id": members[n], "name": n} for n in ("Anna", "Bruno", "Zita")]
    anna = door.checkin({"member": members["Anna"]})
    assert anna.status_code == 201, anna.json
    assert anna.json["name"] == "Anna"
    bruno = door.checkin({"name": "bruno"})  # a member's name: that member
    assert bruno.status_code == 201, bruno.json
    new = door.checkin({"name": "Carla"})
    assert new.status_code == 201, new.json
    now = {m["name"]: m["id"] for m in roster(client, club)}
    assert set(now) == {"Anna", "Bruno", "Zita", "Carla"}
    entrants = door.state()["entrants"]
    assert [e["member"] for e in entrants] == [now["Anna"], now["Bruno"], now["Carla"]]
    opened = client.get(f"{door.url}/door", headers=auth(door.door)).json
    assert opened["members"] == [{"id": members["Zita"], "name": "Zita"}]


def test_at_a_clubs_door_the_same_member_twice_is_already_checked_in(client: Any) -> None:
    from test_http_clubs import roster

    club, door, members = _club_door(client)
    assert door.checkin({"member": members["Anna"]}).status_code == 201
    assert_problem(door.checkin({"member": members["Anna"]}), 409, code="already_checked_in")
    assert_problem(door.checkin({"name": "ANNA"}), 409, code="already_checked_in")
    refused = door.checkin({"member": "nobody0000"})
    assert refused.status_code == 422
    assert len(roster(client, club)) == 3 and len(door.state()["entrants"]) == 1


# -- every format ----------------------------------------------------------------------------


def test_pairs_check_in_at_the_door_and_a_round_seats_the_pairs_active_in_it(
        client: Any) -> None:
    door = Door(client, variant="tarocchino-bolognese", format="pairs", rounds=3)
    for i in range(5):
        came = door.checkin({"name": f"Coppia {i + 1}",
                             "players": [f"Giocatore {2 * i + 1}", f"Giocatore {2 * i + 2}"]})
        assert came.status_code == 201, came.json
        assert came.json["players"] == [f"Giocatore {2 * i + 1}", f"Giocatore {2 * i + 2}"]
    assert_problem(door.checkin({"name": "Altra", "players": ["Giocatore 1", "Nuovo"]}), 409,
                   code="already_checked_in")
    first = door.start()
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    late = door.checkin({"name": "Coppia 6", "players": ["Giocatore 11", "Giocatore 12"]})
    assert late.json["from_round"] == 2
    door.close(1)
    second = door.start()
    assert len(second["tables"]) == 3 and second["byes"] == []
    assert door.act(0, "withdraw", door.edit).status_code == 200
    door.close(2)
    third = door.start()
    seated = [name for t in door.state()["rounds"][2]["tables"] for name in t["entrants"]]
    assert "Coppia 1" not in seated and third["byes"] != ["Coppia 1"]
    assert len(third["tables"]) == 2 and len(third["byes"]) == 1


def test_the_free_format_seats_only_the_entrants_active_in_the_round(client: Any) -> None:
    door = Door(client, variant="gatti-3", format="free")
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        door.arrive(name)
    assert door.act(3, "withdraw", door.edit).status_code == 200
    refused = client.post(f"{door.url}/rounds", json={"tables": [["Anna", "Bruno", "Dario"]]},
                          headers=auth(door.edit))
    assert error_fields(assert_problem(refused, 422)) == {"tables[0]": "entrant_not_playing"}
    started = client.post(f"{door.url}/rounds", json={"tables": [["Anna", "Bruno", "Carla"]]},
                          headers=auth(door.edit))
    assert started.status_code == 201 and started.json["byes"] == []


def test_a_duplicate_movement_seats_the_late_arrival_and_gives_the_bye_to_another(
        client: Any) -> None:
    door = Door(client, deals="duplicate", rounds=3)
    for name in PLAYERS[:8]:
        door.arrive(name)
    first = door.start()
    assert len(first["tables"]) == 2
    door.arrive("Ritardo")
    door.close(1)
    second = door.start()
    seated = [name for table in second["tables"] for name in table["seats"]]
    assert "Ritardo" in seated and len(second["byes"]) == 1
    assert second["byes"] != ["Ritardo"]
    assert all(table["boards"] for table in second["tables"])


def test_the_database_keeps_the_seats_links_sealed_and_the_entrants_tokens_hashed(
        app: Any, client: Any) -> None:
    """What the event keeps of an entrant's link: their token's hash, and their seat's player
    token sealed for them (it opens with their token, not with anything the database holds)."""
    from sqlalchemy import text

    door = Door(client, variant="gatti-3")
    tokens = [door.arrive(n)["tokens"]["entrant"] for n in ("Anna", "Bruno", "Carla")]
    door.start()
    page = door.page(0, tokens[0]).json
    player = link_token(page["now"]["seats"][0]["link"])
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        kept = " ".join(str(row) for row in connection.execute(text(
            "SELECT e.entrants, t.sealed FROM events e JOIN event_tables t "
            "ON t.event_id = e.id WHERE e.id = :id"), {"id": door.id}))
    assert "'0'" in kept or '"0"' in kept  # entrant 0's sealed seats are there
    assert player not in kept and not any(token in kept for token in tokens)


def test_after_a_swap_an_entrants_page_opens_their_new_seat(client: Any) -> None:
    door = Door(client, variant="gatti-3", seed=5)
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
    tokens = {n: door.arrive(n)["tokens"]["entrant"] for n in names}
    started = door.start()
    first, second = started["tables"][0]["seats"], started["tables"][1]["seats"]
    moved = second[0]
    swapped = [[moved, *first[1:]], [first[0], *second[1:]]]
    response = client.put(f"{door.url}/rounds/1", json={"tables": swapped},
                          headers=auth(door.edit))
    assert response.status_code == 200, response.json
    page = door.page(names.index(moved), tokens[moved]).json
    assert page["now"]["table"] == 1 and page["now"]["seats"][0]["seat"] == 1
    game = client.get(f"{API}/games/{page['now']['game']}",
                      headers=auth(link_token(page["now"]["seats"][0]["link"])))
    assert game.status_code == 200 and game.json["players"][0] == moved
    # An entrant not active in the round cannot be swapped in.
    late = door.arrive("Gino")["entrant"]
    refused = client.put(f"{door.url}/rounds/1", json={"tables": [
        ["Gino", *first[1:]], swapped[1]]}, headers=auth(door.edit))
    assert error_fields(assert_problem(refused, 422)) == {"tables[0]": "entrant_not_playing"}
    assert late == 6


def test_the_door_poster_prints_the_doors_link_for_the_organiser_only(client: Any) -> None:
    door = Door(client)
    printed = client.get(f"{door.url}/poster.pdf?lang=it", headers=auth(door.edit))
    assert printed.status_code == 200
    assert printed.mimetype == "application/pdf"
    assert printed.headers["Cache-Control"] == "no-store"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed.data)).pages)
    assert "Sera alla porta" in text
    assert "registrarti" in text
    assert door.door in text.replace("\n", "")
    for token in (door.read, door.door):
        refused = client.get(f"{door.url}/poster.pdf", headers=auth(token))
        assert refused.status_code in (403, 404)


def test_an_event_without_a_door_has_no_poster(client: Any) -> None:
    plain = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual",
        "entrants": [{"name": n} for n in PLAYERS[:4]]}).json
    refused = client.get(f"{API}/events/{plain['id']}/poster.pdf",
                         headers=auth(plain["tokens"]["edit"]))
    assert_problem(refused, 409, code="checkin_closed")


def test_a_published_event_marks_a_withdrawn_entrant_and_counts_rounds_at_a_table(
        client: Any) -> None:
    door = Door(client)
    tokens = [door.arrive(name)["tokens"]["entrant"] for name in PLAYERS[:5]]
    door.start()
    assert door.act(4, "withdraw", tokens[4]).status_code == 200
    client.patch(door.url, json={"public": True}, headers=auth(door.edit))
    public = client.get(f"{API}/public/events/{door.id}").json
    rows = {row["number"]: row for row in public["standings"]["rows"]}
    bye = next(n for n, row in rows.items() if row["rounds_played"] == 0)
    assert sum(row["rounds_played"] for row in rows.values()) == 4
    assert rows[4]["withdrawn"] is True
    assert all(not row["withdrawn"] for n, row in rows.items() if n != 4)
    page = client.get(f"/results/events/{door.id}?lang=it").get_data(as_text=True)
    assert "(ha lasciato)" in page
    assert bye in rows
