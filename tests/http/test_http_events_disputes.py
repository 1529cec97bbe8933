"""docs/events.md#words (a round closed by the organiser) and the players' confirmations,
together: closing a round while players dispute its hands asks first, and the organiser can
still correct a hand of a closed round with the event's edit token — a new version in the
game's history, an action in the event's, and the standings following."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import assert_problem, auth

API = "/api/v1"
FOUR = ["Anna", "Bruno", "Carla", "Dario"]


def points(*per_side: int) -> dict[str, Any]:
    return {"piles": [{"side": s, "points": p} for s, p in enumerate(per_side)]}


class Night:
    """A four-player gatti-4 evening of one table, its round started and one hand played."""

    def __init__(self, client: Any) -> None:
        self.client = client
        created = client.post(f"{API}/events", json={
            "name": "Sera", "variant": "gatti-4", "format": "individual", "seed": 3,
            "entrants": [{"name": n} for n in FOUR]})
        assert created.status_code == 201, created.json
        self.id = created.json["id"]
        self.edit = created.json["tokens"]["edit"]
        self.read = created.json["tokens"]["read"]
        self.url = f"{API}/events/{self.id}"
        started = client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        self.table = started.json["tables"][0]
        self.game = f"{API}/games/{self.table['game']}"
        self.table_edit = self.table["tokens"]["edit"]
        hand = client.post(f"{self.game}/hands", json={"dealer": 0, **points(50, 22)},
                           headers=auth(self.table_edit))
        assert hand.status_code == 201, hand.json
        self.players = client.get(f"{self.game}/players",
                                  headers=auth(self.table_edit)).json["tokens"]

    def dispute(self, seat: int, reason: str, number: int = 1) -> None:
        response = self.client.post(f"{self.game}/hands/{number}/confirmations",
                                    json={"verdict": "dispute", "reason": reason},
                                    headers=auth(self.players[seat]))
        assert response.status_code == 201, response.json

    def close(self, body: Any = None) -> Any:
        if body is None:
            return self.client.post(f"{self.url}/rounds/1/close", headers=auth(self.edit))
        return self.client.post(f"{self.url}/rounds/1/close", json=body,
                                headers=auth(self.edit))

    def history(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = self.client.get(
            f"{self.url}/history", headers=auth(self.edit)).json["actions"]
        return actions

    def etag(self, number: int = 1) -> str:
        return str(self.client.get(f"{self.game}/hands/{number}",
                                   headers=auth(self.table_edit)).headers["ETag"])

    def correct(self, record: dict[str, Any], token: str | None = None,
                etag: str | None = None) -> Any:
        return self.client.put(
            f"{self.url}/rounds/1/tables/1/hands/1", json={"dealer": 0, **record},
            headers={**auth(token or self.edit), "If-Match": etag or self.etag()})

    def points_of(self) -> dict[str, int]:
        rows = self.client.get(f"{self.url}/standings", headers=auth(self.edit)).json["rows"]
        return {r["entrant"]: r["points"] for r in rows}


def test_a_verdict_leaves_what_the_event_says_and_its_entity_tag_as_they_were(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A verdict changes nothing an event, its standings or its published page say: a screen
    polling them is answered 304 (a stream is told nothing); the next hand moves them."""
    monkeypatch.setitem(app.config, "PUBLIC_FRESH_SECONDS", 0)  # each read asks the database
    night = Night(client)
    published = client.patch(night.url, json={"public": True}, headers=auth(night.edit))
    assert published.status_code == 200, published.json
    reads = [(f"{night.url}{suffix}", auth(token)) for suffix in ("", "/standings")
             for token in (night.edit, night.read)]
    reads.append((f"{API}/public/events/{night.id}", {}))
    before = [client.get(url, headers=headers) for url, headers in reads]
    night.dispute(1, "the count is wrong")
    response = client.post(f"{night.game}/hands/1/confirmations", json={"verdict": "confirm"},
                           headers=auth(night.players[2]))
    assert response.status_code == 201, response.json
    for (url, headers), read in zip(reads, before, strict=True):
        again = client.get(url, headers={**headers, "If-None-Match": read.headers["ETag"]})
        assert again.status_code == 304, url
    hand = client.post(f"{night.game}/hands", json={"dealer": 1, **points(40, 32)},
                       headers=auth(night.table_edit))
    assert hand.status_code == 201, hand.json
    for (url, headers), read in zip(reads, before, strict=True):
        again = client.get(url, headers={**headers, "If-None-Match": read.headers["ETag"]})
        assert again.status_code == 200, url


def test_a_verdict_tells_its_games_sheet_and_not_its_events_screens(
        client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screens that follow the event are not told of a verdict (it changes nothing they
    say); the table's sheets are, and the event's are of the next hand."""
    notices = app.extensions["segnapunti.notices"]
    monkeypatch.setattr(notices, "postgres", False)  # told within this process
    told: list[frozenset[str]] = []
    stop = notices.listen(told.append, None)
    try:
        night = Night(client)
        told.clear()
        verdict = client.post(f"{night.game}/hands/1/confirmations",
                              json={"verdict": "dispute", "reason": "the count is wrong"},
                              headers=auth(night.players[1]))
        assert verdict.status_code == 201, verdict.json
        verdict.close()  # the answer sent: the notice goes
        game = f"g:{night.table['game']}"
        assert told and all(topics == {game} for topics in told), told
        told.clear()
        hand = client.post(f"{night.game}/hands", json={"dealer": 1, **points(40, 32)},
                           headers=auth(night.table_edit))
        assert hand.status_code == 201, hand.json
        hand.close()
        assert told and {game, f"e:{night.id}"} <= set().union(*told), told
    finally:
        stop()


def test_closing_a_round_with_open_disputes_asks_first_listing_them(client: Any) -> None:
    night = Night(client)
    night.dispute(1, "the count is wrong")
    before = client.get(night.url, headers=auth(night.edit)).json
    problem = assert_problem(night.close(), 409, code="open_disputes")
    seats = night.table["seats"]
    assert problem["errors"] == [{
        "field": "tables[1].hands[1]", "code": "hand_disputed",
        "message": f"table 1, hand 1: disputed by {seats[1]} (the count is wrong)"}]
    assert client.get(night.url, headers=auth(night.edit)).json == before  # nothing changed
    assert_problem(night.close({"despite_disputes": False}), 409, code="open_disputes")
    closed = night.close({"despite_disputes": True})
    assert closed.status_code == 200 and closed.json["rounds"][0]["state"] == "closed"
    last = night.history()[-1]
    assert last["action"] == "close_round"
    assert last["data"]["despite_disputes"] == [{
        "table": 1, "game": night.table["game"], "hand": 1,
        "by": [{"player": seats[1], "reason": "the count is wrong"}]}]


def test_closing_a_round_without_disputes_needs_no_confirmation(client: Any) -> None:
    night = Night(client)
    assert night.close().status_code == 200
    assert "despite_disputes" not in night.history()[-1]["data"]


def test_a_round_ends_with_its_last_hand_keeping_the_disputes_open_then(client: Any) -> None:
    # A round whose tables have all finished has ended: nobody is asked, and the history
    # keeps which hands were disputed when it ended; the organiser can still correct them.
    night = Night(client)
    night.dispute(2, "the count is wrong")
    for number in range(2, 5):
        played = client.post(f"{night.game}/hands", json={"dealer": number - 1, **points(40, 32)},
                             headers=auth(night.table_edit))
        assert played.status_code == 201, played.json
    ended = client.get(night.url, headers=auth(night.edit)).json["rounds"][0]
    assert ended["state"] == "closed" and ended["closed_at"] is not None
    closing = night.history()[-1]
    assert closing["action"] == "close_round" and closing["data"]["automatic"] is True
    assert [d["hand"] for d in closing["data"]["despite_disputes"]] == [1]
    started = client.post(f"{night.url}/rounds", json={}, headers=auth(night.edit))
    assert started.status_code == 201, started.json
    assert night.correct(points(30, 42)).status_code == 200


def test_the_organiser_corrects_a_hand_of_a_closed_round(client: Any) -> None:
    # Closing a round does not freeze a disputed hand: the organiser may still correct it.
    night = Night(client)
    night.dispute(1, "it was 40 to 32")
    assert night.close({"despite_disputes": True}).status_code == 200
    seats = night.table["seats"]
    assert night.points_of() == {seats[0]: 50, seats[2]: 50, seats[1]: 22, seats[3]: 22}
    # The table's own token still cannot change a closed game.
    refused = client.put(f"{night.game}/hands/1", json={"dealer": 0, **points(40, 32)},
                         headers={**auth(night.table_edit), "If-Match": night.etag()})
    assert_problem(refused, 409, code="game_closed")
    corrected = night.correct(points(40, 32))
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["version"] == 2 and corrected.headers["ETag"]
    # Both histories keep it; the standings follow.
    game_history = client.get(f"{night.game}/history", headers=auth(night.table_edit)).json
    assert [v["action"] for v in game_history["versions"]][-1] == "correct"
    last = night.history()[-1]
    assert last["action"] == "correct_hand"
    assert last["data"] == {"round": 1, "table": 1, "game": night.table["game"], "hand": 1,
                            "version": 2, "round_closed": True}
    assert night.points_of() == {seats[0]: 40, seats[2]: 40, seats[1]: 32, seats[3]: 32}
    game = client.get(night.game, headers=auth(night.table_edit)).json
    assert game["event"]["closed"] is True  # still closed: it takes no new hands


def test_an_organiser_s_correction_is_checked_like_any(client: Any) -> None:
    night = Night(client)
    assert night.close().status_code == 200
    assert_problem(night.correct(points(40, 32), etag='"stale"'), 412)
    room = client.get(f"{night.url}/links", headers=auth(night.edit)).json["tokens"]["read"]
    assert_problem(night.correct(points(40, 32), token=room), 403)
    assert_problem(night.correct(points(40, 32), token=night.table_edit), 404)
    bad = night.correct({"piles": [{"side": 0, "points": 80}, {"side": 1, "points": 80}]})
    assert_problem(bad, 422)
    missing = client.put(f"{night.url}/rounds/1/tables/2/hands/1",
                         json={"dealer": 0, **points(40, 32)},
                         headers={**auth(night.edit), "If-Match": night.etag()})
    assert_problem(missing, 404)
    assert [a["action"] for a in night.history()] == ["create", "start_round", "close_round"]


@pytest.mark.parametrize("body", [{"despite_disputes": "maybe"}, {"colour": "red"}, [1]])
def test_closing_a_round_refuses_a_body_it_does_not_know(client: Any, body: Any) -> None:
    night = Night(client)
    assert_problem(night.close(body), 422)
