"""Club nights and tournaments through the API (docs/events.md), on SQLite and
PostgreSQL: every resource, every bad input of docs/events.md, the access rules, and two evenings
played end to end — a 12-player ``gatti-4`` individual evening of 3 rounds and a 10-pair
``ottocento`` Danish tournament of 4 timed rounds — whose standings are checked against sums
made here, from the seats the service chose and the points the tables recorded."""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from io import BytesIO
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields, gatti3_hand
from pypdf import PdfReader

API = "/api/v1"
TWELVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
          "Marta", "Nino", "Olga"]


class Evening:
    """An event seen from the organiser's phone (edit token) and the room's (read)."""

    def __init__(self, client: Any, **body: Any) -> None:
        self.client = client
        self.created = client.post(f"{API}/events", json=body)
        assert self.created.status_code == 201, self.created.json
        self.id = self.created.json["id"]
        self.edit = self.created.json["tokens"]["edit"]
        self.read = self.created.json["tokens"]["read"]
        self.url = f"{API}/events/{self.id}"

    def start(self, tables: Any = None) -> dict[str, Any]:
        body = {} if tables is None else {"tables": tables}
        response = self.client.post(f"{self.url}/rounds", json=body, headers=auth(self.edit))
        assert response.status_code == 201, response.json
        return response.json

    def close(self, number: int) -> Any:
        return self.client.post(f"{self.url}/rounds/{number}/close", headers=auth(self.edit))

    def state(self) -> dict[str, Any]:
        response = self.client.get(self.url, headers=auth(self.read))
        assert response.status_code == 200, response.json
        return response.json

    def standings(self) -> dict[str, Any]:
        response = self.client.get(f"{self.url}/standings", headers=auth(self.read))
        assert response.status_code == 200, response.json
        return response.json

    def record(self, table: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
        """A hand at a table, entered with the table's own edit token, by whose turn it is."""
        game = f"{API}/games/{table['game']}"
        token = table["tokens"]["edit"]
        dealer = self.client.get(game, headers=auth(token)).json["next_dealer"]
        response = self.client.post(f"{game}/hands", json={"dealer": dealer, **hand},
                                    headers=auth(token))
        assert response.status_code == 201, response.json
        return response.json


def points(*per_side: int, **more: Any) -> dict[str, Any]:
    return {"piles": [{"side": s, "points": p} for s, p in enumerate(per_side)], **more}


def expected_rows(names: list[str], tables: list[tuple[list[list[int]], list[int]]],
                  byes: list[int] = ()) -> dict[str, tuple[int, Decimal, int]]:
    """Match points, difference and points of each entrant, summed here: ``tables`` are
    (entrants credited by each column, each column's total), two columns each."""
    sums: dict[int, list[Any]] = defaultdict(lambda: [0, Decimal(0), 0])
    for columns, totals in tables:
        for c, entrants in enumerate(columns):
            own, other = totals[c], totals[1 - c]
            mp = 2 if own > other else 1 if own == other else 0
            for e in entrants:
                sums[e][0] += mp
                sums[e][1] += own - other
                sums[e][2] += own
    for e in byes:
        sums[e][0] += 1  # a bye: an average table, a draw
    return {names[e]: (s[0], s[1].quantize(Decimal("0.1"), ROUND_HALF_UP), s[2])
            for e, s in sums.items()}


def check_order(rows: list[dict[str, Any]]) -> None:
    """Places follow match points, then difference, then points; equal keys share a place
    or are told apart by their meetings; the place after a shared one skips."""
    keys = [(r["match_points"], r["difference"], r["points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for i, row in enumerate(rows):
        if i and row["place"] == rows[i - 1]["place"]:
            assert keys[i] == keys[i - 1]
        else:
            assert row["place"] == i + 1
        assert row["explanation"], row


# -- creating an event, and what is refused ----------------------------------------------


def test_an_event_is_created_with_its_tokens_and_links(client: Any) -> None:
    evening = Evening(client, name="Giovedì al circolo", variant="gatti-4",
                      format="individual", rounds=3, seed=11,
                      entrants=[{"name": n} for n in TWELVE[:8]])
    body = evening.created.json
    assert body["status"] == "not_started" and body["rounds"] == []
    assert body["rounds_planned"] == 3 and body["seed"] == 11
    assert [e["name"] for e in body["entrants"]] == TWELVE[:8]
    assert body["links"]["edit"].endswith(f"#/events/{evening.id}?token={evening.edit}")
    assert body["links"]["read"].endswith(f"#/events/{evening.id}/board?token={evening.read}")
    assert evening.created.headers["Location"].endswith(evening.url)
    assert "tokens" not in evening.state()
    again = client.get(f"{evening.url}/links", headers=auth(evening.edit))
    assert again.json["tokens"]["read"] == evening.read
    assert again.json["links"] == body["links"]
    assert_problem(client.get(f"{evening.url}/links", headers=auth(evening.read)), 403)


def test_a_seed_is_drawn_when_none_is_given(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:3]])
    assert isinstance(evening.created.json["seed"], int)


def _rows(client: Any) -> int:
    engine = client.application.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return int(connection.exec_driver_sql("SELECT COUNT(*) FROM events").scalar_one())


@pytest.mark.parametrize(("body", "fields"), [
    ({"variant": "gatti-4", "format": "individual",
      "entrants": [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Carla"}]},
     {"entrants": "roster_too_small"}),
    ({"variant": "gatti-3", "format": "individual",
      "entrants": [{"name": "Anna"}, {"name": "Bruno"}, {"name": "anna"}]},
     {"entrants[2].name": "duplicate_name"}),
    ({"variant": "ottocento", "format": "pairs",
      "entrants": [{"name": "I Rossi", "players": ["Anna", "Bruno"]},
                   {"name": "I Bianchi", "players": ["Carla", "Anna"]}]},
     {"entrants[1].players[1]": "player_in_two_pairs"}),
    ({"variant": "gatti-3", "format": "pairs",
      "entrants": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}]},
     {"format": "format_unfit"}),
    ({"variant": "gatti-3", "format": "swiss", "scoring": "goals", "rounds": 0, "seed": -1,
      "entrants": [{"name": ""}, {"name": "Bruno"}, {"name": "Carla"}]},
     {"format": "unknown_format", "scoring": "unknown_scoring", "rounds": "invalid_rounds",
      "seed": "invalid_seed", "entrants[0].name": "missing_name"}),
    ({"variant": "gatti-4", "format": "individual", "pairing": "swiss",
      "options": {"melds": "sometimes"}, "entrants": [{"name": n} for n in TWELVE[:4]]},
     {"pairing": "pairing_unexpected", "options.melds": "invalid_option"}),
])
def test_bad_setups_are_refused_whole_and_store_nothing(
        client: Any, body: dict[str, Any], fields: dict[str, str]) -> None:
    before = _rows(client)
    response = client.post(f"{API}/events", json={"name": "Sera", **body})
    problem = assert_problem(response, 422)
    assert error_fields(problem) == fields
    assert _rows(client) == before


def test_an_unknown_field_and_a_wrong_type_are_refused(client: Any) -> None:
    response = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual", "colour": "red",
        "entrants": "everyone"})
    problem = assert_problem(response, 422)
    assert {"colour", "entrants"} <= set(error_fields(problem))


# -- rounds ---------------------------------------------------------------------------------


def test_a_round_seats_every_entrant_once_and_creates_its_games(client: Any) -> None:
    names = TWELVE[:10]
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual", seed=3,
                      entrants=[{"name": n} for n in names])
    started = evening.start()
    assert started["round"] == 1 and len(started["tables"]) == 3
    seated = [name for t in started["tables"] for name in t["seats"]]
    assert sorted(seated + started["byes"]) == sorted(names) and len(started["byes"]) == 1
    table = started["tables"][0]
    game = client.get(f"{API}/games/{table['game']}", headers=auth(table["tokens"]["edit"]))
    assert game.status_code == 200 and game.headers["Game-Access"] == "edit"
    assert game.json["players"] == table["seats"]
    assert game.json["event"] == {"id": evening.id, "round": 1, "table": 1, "closed": False,
                                  "started_at": evening.state()["rounds"][0]["started_at"]}
    assert table["links"]["edit"].endswith(f"#/games/{table['game']}?token="
                                           f"{table['tokens']['edit']}")
    # The organiser sees the links again; the room does not.
    again = client.get(f"{evening.url}/rounds/1", headers=auth(evening.edit))
    assert again.json["tables"] == started["tables"]
    assert_problem(client.get(f"{evening.url}/rounds/1", headers=auth(evening.read)), 403)
    state = evening.state()
    assert state["status"] == "playing" and state["current_round"] == 1
    assert evening.standings()["provisional"] is True  # a round is on, no hand yet
    assert client.get(evening.url, headers=auth(evening.edit)).headers["Event-Access"] == "edit"
    assert client.get(evening.url, headers=auth(evening.read)).headers["Event-Access"] == "read"
    assert [t["game"] for t in state["rounds"][0]["tables"]] == [
        t["game"] for t in started["tables"]]


def test_no_round_starts_while_the_current_one_is_played(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:3]])
    evening.start()
    response = client.post(f"{evening.url}/rounds", json={}, headers=auth(evening.edit))
    assert_problem(response, 409, code="round_open")
    assert evening.close(1).status_code == 200
    assert_problem(evening.close(1), 409, code="round_closed")
    evening.start()


def test_a_closed_round_counts_as_it_stood_and_its_games_take_no_more_hands(
        client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-4", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:4]])
    table = evening.start()["tables"][0]
    evening.record(table, points(40, 32))
    closed = evening.close(1).json
    assert closed["rounds"][0]["state"] == "closed"
    assert closed["rounds"][0]["tables"][0]["status"] == "closed"
    game = f"{API}/games/{table['game']}"
    refused = client.post(f"{game}/hands", json={"dealer": 1, **points(36, 36)},
                          headers=auth(table["tokens"]["edit"]))
    assert_problem(refused, 409, code="game_closed")
    hand = client.get(f"{game}/hands/1", headers=auth(table["tokens"]["read"]))
    corrected = client.put(f"{game}/hands/1", json={"dealer": 0, **points(30, 42)},
                           headers={**auth(table["tokens"]["edit"]),
                                    "If-Match": hand.headers["ETag"]})
    assert_problem(corrected, 409, code="game_closed")
    standings = evening.standings()
    assert standings["provisional"] is False
    winners = {r["entrant"] for r in standings["rows"] if r["match_points"] == 2}
    assert winners == set(table["seats"][0::2])
    assert {r["points"] for r in standings["rows"]} == {40, 32}


def test_free_seating_is_the_organisers_and_is_checked(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="free",
                      entrants=[{"name": n} for n in TWELVE[:7]])
    before = evening.state()["version"]
    twice = client.post(f"{evening.url}/rounds", headers=auth(evening.edit), json={
        "tables": [["Anna", "Bruno", "Carla"], ["Dario", "Anna", "Zeno"], [5, 6]]})
    problem = assert_problem(twice, 422)
    assert error_fields(problem) == {"tables[1].seats[2]": "unknown_entrant",
                                     "tables[1].seats[1]": "seated_twice",
                                     "tables[2]": "table_size"}
    twice = client.post(f"{evening.url}/rounds", headers=auth(evening.edit), json={
        "tables": [["Anna", "Bruno", "Carla"], ["Dario", "Anna", "Elena"], [5, 6]]})
    problem = assert_problem(twice, 422)
    assert error_fields(problem) == {"tables[1].seats[1]": "seated_twice",
                                     "tables[2]": "table_size"}
    assert "Anna" in problem["errors"][0]["message"]
    assert_problem(client.post(f"{evening.url}/rounds", json={}, headers=auth(evening.edit)),
                   422)
    assert evening.state()["version"] == before and evening.state()["rounds"] == []
    started = evening.start([["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Fabio"]])
    assert started["byes"] == ["Gino"]


def test_a_swap_before_the_first_hand_and_none_after(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual", seed=5,
                      entrants=[{"name": n} for n in TWELVE[:6]])
    started = evening.start()
    first, second = started["tables"][0]["seats"], started["tables"][1]["seats"]
    swapped = [[second[0], *first[1:]], [first[0], *second[1:]]]
    response = client.put(f"{evening.url}/rounds/1", json={"tables": swapped},
                          headers=auth(evening.edit))
    assert response.status_code == 200, response.json
    assert [t["entrants"] for t in response.json["rounds"][0]["tables"]] == swapped
    game = client.get(f"{API}/games/{started['tables'][0]['game']}",
                      headers=auth(started["tables"][0]["tokens"]["read"])).json
    assert game["players"] == swapped[0]
    history = client.get(f"{evening.url}/history", headers=auth(evening.read)).json
    assert [a["action"] for a in history["actions"]] == ["create", "start_round", "swap"]
    assert history["actions"][2]["data"]["round"] == 1
    # A hand at a table: the round has started, and the swap is refused, nothing changed.
    table = started["tables"][0]
    game_url = f"{API}/games/{table['game']}"
    client.post(f"{game_url}/hands", headers=auth(table["tokens"]["edit"]),
                json={"dealer": 0, **points(30, 28, 20)})
    version = evening.state()["version"]
    response = client.put(f"{evening.url}/rounds/1", json={"tables": [first, second]},
                          headers=auth(evening.edit))
    problem = assert_problem(response, 422)
    assert error_fields(problem) == {"round": "hands_recorded"}
    assert evening.state()["version"] == version


def test_the_room_reads_and_changes_nothing(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:3]])
    other = Evening(client, name="Altra", variant="gatti-3", format="individual",
                    entrants=[{"name": n} for n in TWELVE[:3]])
    read = auth(evening.read)
    assert_problem(client.post(f"{evening.url}/rounds", json={}, headers=read), 403)
    assert_problem(client.post(f"{evening.url}/rounds/1/close", headers=read), 403)
    assert_problem(client.get(evening.url), 401)
    assert_problem(client.get(evening.url, headers=auth("nothing")), 401,
                   code="invalid_token")
    assert_problem(client.get(evening.url, headers=auth(other.edit)), 404)
    assert_problem(client.get(f"{API}/events/zzzzzzzzzz", headers=read), 404)
    for suffix in ("", "/standings", "/history", ".json", ".csv", "/standings.pdf"):
        assert client.get(f"{evening.url}{suffix}", headers=read).status_code == 200, suffix


def test_standings_answer_304_until_something_changes(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:3]])
    table = evening.start()["tables"][0]
    first = client.get(f"{evening.url}/standings", headers=auth(evening.read))
    tag = first.headers["ETag"]
    same = client.get(f"{evening.url}/standings",
                      headers={**auth(evening.read), "If-None-Match": tag})
    assert same.status_code == 304
    evening.record(table, points(30, 28, 20))
    moved = client.get(f"{evening.url}/standings",
                       headers={**auth(evening.read), "If-None-Match": tag})
    assert moved.status_code == 200 and moved.json["provisional"] is True
    assert {r["points"] for r in moved.json["rows"]} == {30, 28, 20}


# -- two evenings, end to end ---------------------------------------------------------------


#: Side 0's deck points in each of a table's four hands (side 1 has the rest of 72), by round
#: and table: one table in round 2 ends level, and round 2's table 3 is cut short.
GATTI_HANDS = {
    1: [[40, 30, 36, 45], [20, 50, 36, 36], [36, 36, 36, 36]],
    2: [[41, 31, 35, 44], [36, 36, 36, 36], [50, 60]],
    3: [[30, 30, 30, 30], [44, 44, 20, 36], [39, 33, 40, 32]],
}


def test_a_twelve_player_gatti_4_individual_evening(client: Any) -> None:
    evening = Evening(client, name="Gatti al circolo", variant="gatti-4",
                      format="individual", rounds=3, seed=2026,
                      entrants=[{"name": n} for n in TWELVE])
    played: list[tuple[list[list[int]], list[int]]] = []
    partners: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        started = evening.start()
        assert started["byes"] == [] and len(started["tables"]) == 3
        for t, table in enumerate(started["tables"]):
            seats = table["seats"]
            for pair in ((seats[0], seats[2]), (seats[1], seats[3])):
                assert frozenset(pair) not in partners, f"{pair} partnered twice"
                partners.add(frozenset(pair))
            hands = GATTI_HANDS[number][t]
            for side0 in hands:
                evening.record(table, points(side0, 72 - side0))
            side0 = sum(hands)
            totals = [side0, 72 * len(hands) - side0]
            entrants = [[TWELVE.index(seats[0]), TWELVE.index(seats[2])],
                        [TWELVE.index(seats[1]), TWELVE.index(seats[3])]]
            played.append((entrants, totals))
        state = evening.state()
        if number == 2:
            # Table 3 played two hands of four: the organiser ends the round on time.
            assert state["status"] == "playing"
            assert [t["status"] for t in state["rounds"][1]["tables"]] == [
                "finished", "finished", "playing"]
            assert evening.standings()["provisional"] is True
            closed = evening.close(2)
            assert closed.status_code == 200
            assert closed.json["rounds"][1]["tables"][2]["status"] == "closed"
        else:
            assert state["status"] == ("between_rounds" if number == 1 else "over")
    assert_problem(client.post(f"{evening.url}/rounds", json={}, headers=auth(evening.edit)),
                   409, code="event_over")
    standings = evening.standings()
    assert standings["provisional"] is False
    rows = standings["rows"]
    expected = expected_rows(TWELVE, played)
    assert {r["entrant"]: (r["match_points"], Decimal(str(r["difference"])), r["points"])
            for r in rows} == expected
    check_order(rows)
    assert len(rows[0]["rounds"]) == 3
    assert any("counted as it stood" in line for r in rows for line in r["explanation"])
    assert evening.state()["repeats"]["partners"] == []


def test_a_ten_pair_ottocento_danish_tournament_of_timed_rounds(client: Any) -> None:
    pairs = [{"name": f"Coppia {i + 1}", "players": [f"Giocatore {2 * i + 1}",
                                                     f"Giocatore {2 * i + 2}"]}
             for i in range(10)]
    names = [p["name"] for p in pairs]
    evening = Evening(client, name="Torneo di Tarocchino", variant="ottocento",
                      format="pairs", pairing="danish", rounds=4, seed=800, entrants=pairs)
    played: list[tuple[list[list[int]], list[int]]] = []
    for number in (1, 2, 3, 4):
        if number > 1:
            ranking = [r["entrant"] for r in evening.standings()["rows"]]
        started = evening.start()
        assert len(started["tables"]) == 5 and started["byes"] == []
        state = evening.state()["rounds"][-1]["tables"]
        if number > 1:
            # Danish: 1 v 2, 3 v 4, … by the standings so far, table 1 the top meeting.
            met = [sorted(t["entrants"][:1] + t["entrants"][1:2]) for t in state]
            assert met == [sorted(ranking[i:i + 2]) for i in range(0, 10, 2)]
        for t, table in enumerate(started["tables"]):
            hands = 1 if (number, t) == (3, 4) else 2  # one table slower than the rest
            totals = [0, 0]
            for h in range(hands):
                side0 = 30 + 7 * ((number + t + h) % 5)  # 30..58 counted, of 87
                result = evening.record(table, points(side0, 87 - side0,
                                                      last_trick=(t + h) % 2))
                totals[0] += result["result"]["columns"]["0"]
                totals[1] += result["result"]["columns"]["1"]
            first, second = state[t]["entrants"][0], state[t]["entrants"][1]
            played.append(([[names.index(first)], [names.index(second)]], totals))
        assert evening.close(number).status_code == 200  # the 30 minutes are up
    standings = evening.standings()
    rows = standings["rows"]
    assert {r["entrant"]: (r["match_points"], Decimal(str(r["difference"])), r["points"])
            for r in rows} == expected_rows(names, played)
    check_order(rows)
    assert standings["provisional"] is False
    csv = client.get(f"{evening.url}.csv", headers=auth(evening.read))
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0] == ("place,entrant,number,match_points,difference,points,round_1,round_2,"
                        "round_3,round_4")
    assert lines[1].split(",")[1] == rows[0]["entrant"]
    exported = client.get(f"{evening.url}.json", headers=auth(evening.read)).json
    assert exported["standings"]["rows"] == rows
    assert [a["action"] for a in exported["history"]].count("close_round") == 4


def test_a_table_not_yet_started_counts_for_nothing(client: Any) -> None:
    evening = Evening(client, name="Sera", variant="gatti-4", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:8]])
    first, second = evening.start()["tables"]
    assert evening.standings()["rows"][0]["rounds"] == []
    evening.record(first, points(40, 32))
    rows = evening.standings()["rows"]
    waiting = set(second["seats"])
    assert all(r["rounds"] == [] and r["match_points"] == 0 for r in rows
               if r["entrant"] in waiting)
    assert {r["match_points"] for r in rows if r["entrant"] not in waiting} == {0, 2}


def test_a_retried_create_and_round_with_their_keys_happen_once(client: Any) -> None:
    body = {"name": "Sera", "variant": "gatti-3", "format": "individual",
            "entrants": [{"name": n} for n in TWELVE[:3]]}
    key = {"Idempotency-Key": "5e7a0000-0000-4000-8000-000000000001"}
    before = _rows(client)
    first = client.post(f"{API}/events", json=body, headers=key)
    again = client.post(f"{API}/events", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    assert _rows(client) == before + 1
    url, edit = f"{API}/events/{first.json['id']}", first.json["tokens"]["edit"]
    round_key = {**auth(edit), "Idempotency-Key": "5e7a0000-0000-4000-8000-000000000002"}
    started = client.post(f"{url}/rounds", json={}, headers=round_key)
    replayed = client.post(f"{url}/rounds", json={}, headers=round_key)
    assert started.status_code == replayed.status_code == 201
    assert replayed.json == started.json
    assert len(client.get(url, headers=auth(edit)).json["rounds"]) == 1


@pytest.mark.parametrize(("variant", "worth"), [("gatti-3", 2), ("gatti-4", 1)])
def test_a_bye_is_worth_an_average_table_at_every_moment(client: Any, variant: str,
                                                         worth: int) -> None:
    # A bye is worth the same before its round's first hand as after it: the
    # event's average table throughout: 2 with three columns, 1 with two.
    players = 4 if variant == "gatti-3" else 5
    evening = Evening(client, name="Sera", variant=variant, format="individual", seed=5,
                      entrants=[{"name": n} for n in TWELVE[:players]])
    started = evening.start()
    (resting,) = started["byes"]

    def bye_row() -> dict[str, Any]:
        return next(r for r in evening.standings()["rows"] if r["entrant"] == resting)

    before = bye_row()
    assert before["match_points"] == worth and before["rounds"][0]["state"] == "bye"
    hand = gatti3_hand(0) if variant == "gatti-3" else points(40, 32)
    hand.pop("dealer", None)
    evening.record(started["tables"][0], hand)
    after = bye_row()
    assert after["match_points"] == worth
    assert after["explanation"][0] == before["explanation"][0]
    assert evening.close(1).status_code == 200
    assert bye_row()["match_points"] == worth


def test_individual_fewest_repeated_opponents_where_a_greedy_round_repeats_one(client: Any) -> None:
    # 13 players of gatti-3, seed 114672557, rounds 1-3 started and closed: a greedy
    # round 4 would sit E05 with E10 again where a seating repeating nobody exists. No
    # round of the four repeats an opponent, and the event says no repeats.
    names = [f"E{i:02}" for i in range(13)]
    evening = Evening(client, name="x", variant="gatti-3", format="individual",
                      seed=114672557, rounds=5, entrants=[{"name": n} for n in names])
    met: set[frozenset[str]] = set()
    for number in range(1, 5):
        started = evening.start()
        assert len(started["byes"]) == 1
        pairs = {frozenset((a, b)) for t in started["tables"] for a in t["seats"]
                 for b in t["seats"] if a != b}
        assert not pairs & met, (number, pairs & met)
        met |= pairs
        assert evening.close(number).status_code == 200
    assert evening.state()["repeats"] == {"partners": [], "opponents": []}
    byes = [name for r in evening.state()["rounds"] for name in r["byes"]]
    assert len(set(byes)) == 4  # no second bye before everyone had one


def test_the_printable_standings_speak_french(client: Any) -> None:
    """``standings.pdf?lang=fr`` prints the standings' headings in French."""
    evening = Evening(client, name="Jeudi", variant="gatti-3", format="individual",
                      entrants=[{"name": n} for n in TWELVE[:3]])
    evening.start()
    answer = client.get(f"{evening.url}/standings.pdf?lang=fr", headers=auth(evening.read))
    assert answer.status_code == 200
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(answer.data)).pages)
    assert "Classement" in text and "Tournoi" in text and "Formule" in text
    assert "Standings" not in text
