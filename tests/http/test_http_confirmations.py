"""Each player vouches for the hand: a player's link confirms or disputes a hand's
current version; the same verdict twice is one; a correction leaves the new version unvouched
for and the history keeps every verdict; the game's ``confirmation`` option decides whether
verdicts are taken and whether a hand counts as final before every player confirmed it; the
game's entity tag moves with every verdict. On SQLite and PostgreSQL (the ``db_url``
fixture)."""

from __future__ import annotations

import io
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields, gatti3_hand
from pypdf import PdfReader


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() or "" for page in
                             PdfReader(io.BytesIO(data)).pages).split())


def players(game: Any) -> list[str]:
    return game.created.json["tokens"]["players"]


def confirm(game: Any, seat: int, number: int = 1, verdict: str = "confirm",
            reason: str | None = None, **headers: str) -> Any:
    body: dict[str, Any] = {"verdict": verdict}
    if reason is not None:
        body["reason"] = reason
    return game.client.post(f"{game.url}/hands/{number}/confirmations", json=body,
                            headers={**auth(players(game)[seat]), **headers})


def test_a_player_confirms_a_hand_as_their_seat(table: Any) -> None:
    game = table()
    game.play()
    response = confirm(game, 1)
    assert response.status_code == 201, response.json
    assert response.json["seat"] == 1 and response.json["verdict"] == "confirm"
    assert response.json["version"] == 1 and response.json["hand"] == 1
    assert response.json["standing"] == {"status": "waiting", "confirmed": [1],
                                         "disputed": [], "waiting": [0, 2]}
    assert response.headers["Location"].endswith(f"{game.url}/hands/1")
    hand = game.state()["hands"][0]
    assert [(c["seat"], c["verdict"], c["version"]) for c in hand["confirmations"]] == [
        (1, "confirm", 1)]
    assert "reason" not in hand["confirmations"][0]


def test_confirming_twice_is_one_confirmation(table: Any) -> None:
    game = table()
    game.play()
    first = confirm(game, 0)
    version = game.state()["version"]
    again = confirm(game, 0)
    assert again.status_code == 200
    assert again.json["at"] == first.json["at"]
    assert game.state()["version"] == version
    assert len(game.state()["hands"][0]["confirmations"]) == 1
    assert len(game.history()[0]["confirmations"]) == 1


def test_a_dispute_says_why_and_replaces_the_seats_confirmation(table: Any) -> None:
    game = table()
    game.play()
    confirm(game, 2)
    disputed = confirm(game, 2, verdict="dispute", reason="  Bruno had the Fool, not Anna ")
    assert disputed.status_code == 201
    assert disputed.json["reason"] == "Bruno had the Fool, not Anna"
    state = game.state()
    assert state["hands"][0]["confirmations"] == [
        {k: v for k, v in disputed.json.items() if k not in ("hand", "standing", "final")}]
    assert state["hands"][0]["standing"]["status"] == "disputed"
    assert state["confirmation"]["disputed"] == [1]
    # the history keeps both verdicts on version 1
    assert [c["verdict"] for c in game.history()[0]["confirmations"]] == ["confirm", "dispute"]


def test_every_player_confirming_makes_the_hand_confirmed(table: Any) -> None:
    game = table()
    game.play()
    for seat in range(3):
        last = confirm(game, seat)
    assert last.json["standing"]["status"] == "confirmed"
    state = game.state()
    assert state["hands"][0]["standing"] == {"status": "confirmed", "confirmed": [0, 1, 2],
                                             "disputed": [], "waiting": []}
    assert state["confirmation"] == {"mode": "optional", "disputed": [], "waiting": [],
                                     "final": True}


def test_a_correction_clears_confirmations_and_the_history_keeps_them(table: Any) -> None:
    game = table()
    game.play()
    confirm(game, 0)
    confirm(game, 1, verdict="dispute", reason="the count was 40")
    hand = game.hand(1, game.edit)
    corrected = game.client.put(f"{game.url}/hands/1", json=gatti3_hand(0, counting_to=1),
                                headers={**auth(game.edit), "If-Match": hand.headers["ETag"]})
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["confirmations"] == []
    assert corrected.json["standing"]["status"] == "waiting"
    state = game.state()["hands"][0]
    assert state["version"] == 2 and state["confirmations"] == []
    history = game.history()
    assert [(v["version"], [c["verdict"] for c in v["confirmations"]]) for v in history] == [
        (1, ["confirm", "dispute"]), (2, [])]
    again = confirm(game, 0)
    assert again.status_code == 201 and again.json["version"] == 2


def test_a_verdict_on_a_version_the_player_did_not_read_is_refused(table: Any) -> None:
    game = table()
    game.play()
    seen = game.hand(1, players(game)[0]).headers["ETag"]
    hand = game.hand(1, game.edit)
    game.client.put(f"{game.url}/hands/1", json=gatti3_hand(0, counting_to=1),
                    headers={**auth(game.edit), "If-Match": hand.headers["ETag"]})
    assert_problem(confirm(game, 0, **{"If-Match": seen}), 412)
    fresh = game.hand(1, players(game)[0]).headers["ETag"]
    assert confirm(game, 0, **{"If-Match": fresh}).status_code == 201


def test_each_verdict_moves_the_games_entity_tag(table: Any) -> None:
    game = table()
    game.play()
    before = game.get()
    tag = before.headers["ETag"]
    confirm(game, 0)
    after = game.client.get(game.url, headers={**auth(game.read), "If-None-Match": tag})
    assert after.status_code == 200
    assert after.json["hands"][0]["confirmations"][0]["seat"] == 0
    assert after.json["version"] == before.json["version"] + 1
    # a hand added after a verdict is read with it (the view catches up or reads anew)
    game.play()
    state = game.state()
    assert len(state["hands"]) == 2 and state["hands"][0]["confirmations"]
    assert state["hands"][1]["confirmations"] == []


@pytest.mark.parametrize("kind", ["edit", "read"])
def test_the_edit_and_read_tokens_cannot_confirm(table: Any, kind: str) -> None:
    game = table()
    game.play()
    token = game.edit if kind == "edit" else game.read
    refused = game.client.post(f"{game.url}/hands/1/confirmations",
                               json={"verdict": "confirm"}, headers=auth(token))
    body = assert_problem(refused, 403)
    assert "player's own link" in body["detail"]
    # the token is checked before the body: a bad body from the wrong token is still 403
    assert_problem(game.client.post(f"{game.url}/hands/1/confirmations", json={"x": 1},
                                    headers=auth(token)), 403)
    assert game.state()["hands"][0]["confirmations"] == []


def test_confirmations_follow_the_access_rules(table: Any) -> None:
    game, other = table(), table()
    game.play()
    other.play()
    url = f"{game.url}/hands/1/confirmations"
    assert_problem(game.client.post(url, json={"verdict": "confirm"}), 401)
    assert_problem(game.client.post(url, json={"verdict": "confirm"},
                                    headers=auth("y" * 43)), 401)
    assert_problem(game.client.post(url, json={"verdict": "confirm"},
                                    headers=auth(players(other)[0])), 404)
    assert_problem(confirm(game, 0, number=2), 404)


def test_a_bad_verdict_names_every_field(table: Any) -> None:
    game = table()
    game.play()
    body = assert_problem(confirm(game, 0, verdict="maybe"), 422)
    assert "verdict" in error_fields(body)
    body = assert_problem(confirm(game, 0, verdict="dispute"), 422)
    assert error_fields(body) == {"reason": "reason_missing"}
    body = assert_problem(confirm(game, 0, verdict="dispute", reason="   "), 422)
    assert error_fields(body) == {"reason": "reason_missing"}
    body = assert_problem(confirm(game, 0, reason="fine"), 422)
    assert error_fields(body) == {"reason": "reason_unexpected"}
    body = assert_problem(confirm(game, 0, verdict="dispute", reason="x" * 281), 422)
    assert error_fields(body) == {"reason": "reason_too_long"}
    body = assert_problem(game.client.post(
        f"{game.url}/hands/1/confirmations", json={"verdict": "confirm", "seat": 2},
        headers=auth(players(game)[0])), 422)
    assert "seat" in error_fields(body)
    assert game.state()["hands"][0]["confirmations"] == []
    assert game.history()[0]["confirmations"] == []


def test_a_game_without_confirmations_takes_none(table: Any) -> None:
    game = table(options={"confirmation": "none"})
    game.play()
    assert_problem(confirm(game, 0), 409, code="confirmation_off")
    state = game.state()
    assert state["hands"][0]["standing"]["status"] == "not_asked"
    assert state["confirmation"] == {"mode": "none", "disputed": [], "waiting": [],
                                     "final": True}


def test_required_confirmation_keeps_a_hand_from_counting_as_final(table: Any) -> None:
    game = table(options={"confirmation": "required"})
    game.play()
    hand = game.state()["hands"][0]
    assert hand["final"] is False and game.state()["confirmation"]["final"] is False
    confirm(game, 0)
    confirm(game, 1)
    assert game.state()["confirmation"]["waiting"] == [1]
    done = confirm(game, 2)
    assert done.json["final"] is True
    state = game.state()
    assert state["hands"][0]["final"] is True and state["confirmation"]["final"] is True


def test_optional_confirmation_never_holds_a_hand_back(table: Any) -> None:
    game = table()
    game.play()
    state = game.state()
    assert state["hands"][0]["final"] is True
    assert state["confirmation"] == {"mode": "optional", "disputed": [], "waiting": [1],
                                     "final": True}


def test_a_dummys_seat_is_not_waited_for(table: Any) -> None:
    game = table(variant="gatti-2", players=("Anna", "Bruno"))
    state = game.state()
    assert state["options"]["confirmation"] == "optional"
    assert players(game)[2:] == [None, None]


def test_a_player_link_says_its_seat(table: Any) -> None:
    game = table()
    read = game.client.get(game.url, headers=auth(players(game)[2]))
    assert read.headers["Game-Access"] == "player" and read.headers["Game-Seat"] == "2"
    assert "Game-Seat" not in game.client.get(game.url, headers=auth(game.edit)).headers


def test_a_retried_verdict_with_its_key_is_given_once(table: Any) -> None:
    game = table()
    game.play()
    key = {"Idempotency-Key": "c0ffee00-0000-4000-8000-000000000001"}
    first = confirm(game, 1, verdict="dispute", reason="wrong dealer", **key)
    confirm(game, 1)
    replay = confirm(game, 1, verdict="dispute", reason="wrong dealer", **key)
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json == first.json
    # the replay answered, and changed nothing: the later confirmation stands
    assert game.state()["hands"][0]["confirmations"][0]["verdict"] == "confirm"


def test_an_export_carries_the_verdicts_and_an_import_keeps_them(table: Any) -> None:
    game = table()
    game.play()
    game.play()
    confirm(game, 0)
    confirm(game, 1, number=2, verdict="dispute", reason="Carla's pile had 12 tricks")
    confirm(game, 1, number=2)  # talked over: Bruno confirms after all
    document = game.client.get(f"{game.url}.json", headers=auth(game.read)).json
    assert document["history"][1]["confirmations"][-1]["verdict"] == "confirm"
    created = game.client.post("/api/v1/games/import", json=document)
    assert created.status_code == 201, created.json
    copy_url = f"/api/v1/games/{created.json['id']}"
    copied = game.client.get(f"{copy_url}/history",
                             headers=auth(created.json["tokens"]["read"])).json["versions"]
    assert copied == game.history()
    state = game.client.get(copy_url, headers=auth(created.json["tokens"]["read"])).json
    assert [h["confirmations"] for h in state["hands"]] == [
        h["confirmations"] for h in game.state()["hands"]]
    assert state["version"] == game.state()["version"]


def test_an_import_refuses_verdicts_that_could_not_have_been_given(table: Any) -> None:
    game = table()
    game.play()
    document = game.client.get(f"{game.url}.json", headers=auth(game.read)).json
    at = "2026-11-25T20:00:00+00:00"
    document["history"][0]["confirmations"] = [
        {"seat": 5, "verdict": "confirm", "version": 1, "at": at},
        {"seat": 0, "verdict": "dispute", "version": 2, "at": at},
    ]
    body = assert_problem(game.client.post("/api/v1/games/import", json=document), 422)
    assert error_fields(body) == {
        "history[0].confirmations[0].seat": "not_a_player",
        "history[0].confirmations[1].version": "wrong_version",
        "history[0].confirmations[1].reason": "reason_missing",
    }


def test_the_pdf_marks_hands_not_yet_confirmed_and_says_why_one_is_disputed(
        table: Any) -> None:
    game = table(options={"confirmation": "required"})
    game.play()
    game.play()
    for seat in range(3):
        confirm(game, seat)
    confirm(game, 2, number=2, verdict="dispute", reason="the Fool was Anna's")
    pdf = game.client.get(f"{game.url}/sheet.pdf?lang=en", headers=auth(game.read))
    assert pdf.status_code == 200
    text = " ".join(pdf_text(pdf.data).split())
    assert "✓ confirmed by every player" in text
    assert "! disputed by Carla: “the Fool was Anna's”" in text
    assert "○ not confirmed yet by Anna, Bruno" in text
    assert "a hand is final once every player confirms it" in text
    assert "not final: not yet confirmed by every player" in text


def test_a_sheet_without_verdicts_carries_no_marks(table: Any) -> None:
    game = table()
    game.play()
    text = pdf_text(game.client.get(f"{game.url}/sheet.pdf", headers=auth(game.read)).data)
    assert "confirmed" not in text and "○" not in text


def test_a_verdict_never_fails_for_another_seats_given_at_the_same_moment(
        app: Any, table: Any) -> None:
    """32 verdicts at once on one hand (each seat changing its mind again and again): a
    verdict is its seat's own row, so none is a 409, and every one is recorded."""
    game = table()
    game.play()
    before = game.state()["version"]
    tokens = players(game)
    verdicts = [(i % 3, {"verdict": "confirm"} if i < 3 else
                 {"verdict": "dispute", "reason": f"reason {i}"}) for i in range(32)]
    barrier = threading.Barrier(len(verdicts))

    def give(verdict: tuple[int, dict[str, str]]) -> tuple[int, Any]:
        seat, body = verdict
        client = app.test_client()
        barrier.wait()
        response = client.post(f"{game.url}/hands/1/confirmations", json=body,
                               headers=auth(tokens[seat]))
        return response.status_code, response.json

    with ThreadPoolExecutor(len(verdicts)) as pool:
        answers = list(pool.map(give, verdicts))
    assert [status for status, _ in answers] == [201] * len(verdicts), [
        body for status, body in answers if status != 201]
    # Each answer counts its own verdict among the others on the hand as it left it.
    for (seat, body), (_, answer) in zip(verdicts, answers, strict=True):
        assert answer["seat"] == seat and answer.get("reason") == body.get("reason")
        assert seat in answer["standing"]["confirmed"] + answer["standing"]["disputed"]
    recorded = game.history()[0]["confirmations"]
    assert sorted((c["seat"], c.get("reason", "")) for c in recorded) == sorted(
        (seat, body.get("reason", "")) for seat, body in verdicts)
    state = game.state()
    assert state["version"] == before + len(verdicts)
    latest = {c["seat"]: c.get("reason") for c in state["hands"][0]["confirmations"]}
    assert latest == {seat: [c.get("reason") for c in recorded if c["seat"] == seat][-1]
                      for seat in range(3)}
