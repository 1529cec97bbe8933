"""Stored games over HTTP: creation, hands, dealer order, corrections, deletion, history."""

from __future__ import annotations

import dataclasses
from typing import Any

from http_support import (
    API,
    assert_problem,
    auth,
    error_fields,
    gatti3_hand,
    invalid_hand,
)


def test_create_game_returns_tokens_location_and_the_game(client: Any, table: Any) -> None:
    game = table()
    response = game.created
    assert response.headers["Location"].endswith(f"{API}/games/{game.id}")
    body = response.json
    assert body["tokens"]["edit"] != body["tokens"]["read"]
    assert body["variant"] == "gatti-3"
    assert body["players"] == ["Anna", "Bruno", "Carla"]
    assert body["seats"] == ["Anna", "Bruno", "Carla"]
    assert body["hands"] == []
    assert body["status"] == "in_progress"
    assert body["next_dealer"] == 0
    assert body["options"]["melds"] == "hand"  # defaults filled in
    assert set(body["totals"]) == {c["key"] for c in body["columns"]}
    # Tokens are shown once: a read does not repeat them.
    assert "tokens" not in game.state()


def test_create_game_rejects_bad_setups_with_every_problem(client: Any) -> None:
    response = client.post(f"{API}/games", json={
        "variant": "gatti-3", "players": ["A", "B"], "first_dealer": 7,
        "options": {"melds": "sometimes"},
    })
    fields = error_fields(assert_problem(response, 422))
    assert {"players", "first_dealer", "options.melds"} <= set(fields)


def test_create_game_unknown_variant(client: Any) -> None:
    response = client.post(f"{API}/games", json={"variant": "scopa", "players": ["A", "B"]})
    assert error_fields(assert_problem(response, 422)) == {"variant": "unknown_variant"}


def test_first_dealer_sets_the_rotation(table: Any) -> None:
    game = table(first_dealer=2)
    assert game.state()["next_dealer"] == 2
    game.play()
    assert game.state()["next_dealer"] == 0


def test_add_hand_returns_201_with_result_location_and_etag(client: Any, table: Any) -> None:
    game = table()
    response = game.add(gatti3_hand(0))
    assert response.status_code == 201, response.json
    hand = response.json
    assert hand["number"] == 1
    assert response.headers["Location"].endswith(f"/games/{game.id}/hands/1")
    assert response.headers["ETag"] == hand["etag"]
    assert hand["record"]["dealer"] == 0
    assert set(hand["result"]["columns"]) == {"0", "1", "2"}
    state = game.state()
    assert state["hands"][0]["result"] == hand["result"]
    assert state["totals"] == hand["result"]["columns"]
    assert state["next_dealer"] == 1


def _without_texts(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "sides": [{**side, "lines": [{k: v for k, v in line.items() if k != "text"}
                                                   for line in side["lines"]]}
                                for side in result["sides"]]}


def test_stored_result_equals_the_stateless_score(client: Any, table: Any) -> None:
    """The same result; only the words differ: a stored game's lines name its players, a
    stateless score's its seats."""
    game = table()
    record = gatti3_hand(0, counting_to=2)
    stored = game.add(record).json["result"]
    scored = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": record}).json
    assert _without_texts(stored) == _without_texts(scored)
    texts = [line["text"] for side in stored["sides"] for line in side["lines"]]
    assert [text.split(":")[0] for text in texts] == ["Anna", "Bruno", "Carla"]
    assert [line["text"] for side in scored["sides"] for line in side["lines"]] == [
        text.replace(name, f"Seat {seat}", 1)
        for seat, (name, text) in enumerate(zip(["Anna", "Bruno", "Carla"], texts, strict=True))]


def test_a_rejected_hand_changes_nothing(client: Any, table: Any) -> None:
    game = table()
    game.play()
    before = game.state()
    history_before = game.history()
    response = game.add(invalid_hand(1))
    body = assert_problem(response, 422, code="record_invalid")
    # Errors are relative to the body (no "hand." prefix here).
    assert "discard[1]" in error_fields(body)
    assert game.state() == before
    assert game.history() == history_before


def test_a_schema_rejected_hand_changes_nothing(client: Any, table: Any) -> None:
    game = table()
    before = game.state()
    response = game.add({**gatti3_hand(0), "surprise": True})
    assert error_fields(assert_problem(response, 422)) == {"surprise": "unknown_field"}
    assert game.state() == before


def test_wrong_dealer_is_rejected(table: Any) -> None:
    game = table()
    response = game.add(gatti3_hand(1))
    body = assert_problem(response, 422)
    assert error_fields(body) == {"dealer": "wrong_dealer"}
    assert game.state()["hands"] == []


def test_wrong_dealer_is_reported_with_the_other_problems(table: Any) -> None:
    game = table()
    fields = error_fields(assert_problem(game.add(invalid_hand(2)), 422))
    assert fields["dealer"] == "wrong_dealer"
    assert "discard[1]" in fields


def test_a_finished_game_takes_no_more_hands(table: Any) -> None:
    game = table()
    for _ in range(3):  # gatti-3: three hands
        game.play()
    state = game.state()
    assert state["status"] == "finished"
    assert state["next_dealer"] is None
    assert state["winners"]
    assert_problem(game.add(gatti3_hand(0)), 409, code="game_finished")
    assert game.state() == state


def test_get_hand_has_an_etag(client: Any, table: Any) -> None:
    game = table()
    created = game.play()
    response = game.hand(1)
    assert response.status_code == 200
    assert response.headers["ETag"] == created["etag"] == response.json["etag"]
    assert response.headers["ETag"].startswith('"')


def test_correction_needs_if_match_and_keeps_earlier_versions(client: Any, table: Any) -> None:
    game = table()
    game.play(counting_to=0)
    game.play(counting_to=0)
    url = f"{game.url}/hands/1"
    etag = game.hand(1).headers["ETag"]
    corrected = gatti3_hand(0, counting_to=1)

    assert_problem(client.put(url, json=corrected, headers=auth(game.edit)), 428)
    assert_problem(client.put(url, json=corrected,
                              headers={**auth(game.edit), "If-Match": 'W/' + etag}), 412)

    response = client.put(url, json=corrected, headers={**auth(game.edit), "If-Match": etag})
    assert response.status_code == 200, response.json
    assert response.json["version"] == 2
    assert response.headers["ETag"] != etag

    # The old ETag is now stale.
    assert_problem(client.put(url, json=corrected, headers={**auth(game.edit), "If-Match": etag}),
                   412)

    state = game.state()
    assert state["hands"][0]["record"]["piles"][1]["counting"]
    hand2 = state["hands"][1]["result"]["columns"]
    hand1 = state["hands"][0]["result"]["columns"]
    assert state["totals"] == {k: hand1[k] + hand2[k] for k in hand1}

    history = game.history()
    assert [(v["number"], v["version"], v["action"]) for v in history] == [
        (1, 1, "create"), (2, 1, "create"), (1, 2, "correct"),
    ]
    assert history[0]["record"]["piles"][0]["counting"]  # the first version is kept
    assert all(v["token_kind"] == "edit" for v in history)


def test_correction_must_keep_that_hands_dealer(client: Any, table: Any) -> None:
    game = table()
    game.play()
    game.play()
    etag = game.hand(2).headers["ETag"]
    response = client.put(f"{game.url}/hands/2", json=gatti3_hand(0),
                          headers={**auth(game.edit), "If-Match": etag})
    assert error_fields(assert_problem(response, 422)) == {"dealer": "wrong_dealer"}


def test_invalid_correction_changes_nothing(client: Any, table: Any) -> None:
    game = table()
    game.play()
    before = game.state()
    etag = game.hand(1).headers["ETag"]
    response = client.put(f"{game.url}/hands/1", json=invalid_hand(0),
                          headers={**auth(game.edit), "If-Match": etag})
    assert_problem(response, 422)
    assert game.state() == before
    assert len(game.history()) == 1


def test_if_match_star_matches_any_version(client: Any, table: Any) -> None:
    game = table()
    game.play()
    response = client.put(f"{game.url}/hands/1", json=gatti3_hand(0, counting_to=2),
                          headers={**auth(game.edit), "If-Match": "*"})
    assert response.status_code == 200


def test_only_the_last_hand_can_be_deleted(client: Any, table: Any) -> None:
    game = table()
    game.play()
    game.play()
    first = game.hand(1).headers["ETag"]
    last = game.hand(2).headers["ETag"]
    assert_problem(client.delete(f"{game.url}/hands/2", headers=auth(game.edit)), 428)
    assert_problem(client.delete(f"{game.url}/hands/1",
                                 headers={**auth(game.edit), "If-Match": first}),
                   409, code="not_last_hand")
    response = client.delete(f"{game.url}/hands/2", headers={**auth(game.edit), "If-Match": last})
    assert response.status_code == 204
    assert response.data == b""
    assert "Content-Type" not in response.headers  # no content, no type
    state = game.state()
    assert [h["number"] for h in state["hands"]] == [1]
    assert state["next_dealer"] == 1
    assert [(v["number"], v["action"]) for v in game.history()] == [
        (1, "create"), (2, "create"), (2, "delete"),
    ]
    assert game.history()[-1]["record"] is None


def test_a_hand_recorded_again_after_deletion_gets_a_new_etag(client: Any, table: Any) -> None:
    game = table()
    game.play()
    deleted_etag = game.hand(1).headers["ETag"]
    client.delete(f"{game.url}/hands/1", headers={**auth(game.edit), "If-Match": deleted_etag})
    again = game.play()
    assert again["number"] == 1
    assert again["version"] == 3  # create, delete, create
    assert again["etag"] != deleted_etag
    response = client.put(f"{game.url}/hands/1", json=gatti3_hand(0),
                          headers={**auth(game.edit), "If-Match": deleted_etag})
    assert_problem(response, 412)


def test_unknown_hand_numbers_are_404(client: Any, table: Any) -> None:
    game = table()
    game.play()
    for number in (0, 2, 99):
        assert_problem(game.hand(number), 404)
    assert_problem(client.put(f"{game.url}/hands/5", json=gatti3_hand(0),
                              headers={**auth(game.edit), "If-Match": "*"}), 404)


def test_a_concurrent_change_is_a_409_and_changes_nothing(
    app: Any, client: Any, table: Any, monkeypatch: Any
) -> None:
    game = table()
    game.play()
    before = game.state()
    repository = app.extensions["segnapunti.games"].repository
    read = repository.get_game

    def read_then_someone_else_writes(game_id: str) -> Any:
        # What a request sees when another request changes the game right after it read.
        stored = read(game_id)
        return dataclasses.replace(stored, version=stored.version - 1)

    monkeypatch.setattr(repository, "get_game", read_then_someone_else_writes)
    # The game's views cached in this process would spare the read: do without them.
    monkeypatch.setattr(app.extensions["segnapunti.games"].views.kept, "get", lambda *_: None)
    assert_problem(game.add(gatti3_hand(1)), 409, code="concurrent_change")
    etag = client.get(f"{game.url}/hands/1", headers=auth(game.read)).headers["ETag"]
    response = client.put(f"{game.url}/hands/1", json=gatti3_hand(0, counting_to=1),
                          headers={**auth(game.edit), "If-Match": etag})
    assert_problem(response, 409, code="concurrent_change")
    monkeypatch.undo()
    assert game.state() == before


def test_reading_a_game_says_what_the_token_may_do(client: Any, table: Any) -> None:
    game = table()
    for kind in ("edit", "read"):
        token = game.edit if kind == "edit" else game.read
        first = client.get(game.url, headers=auth(token))
        assert first.headers["Game-Access"] == kind
        again = client.get(game.url, headers={**auth(token), "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.headers["Game-Access"] == kind
