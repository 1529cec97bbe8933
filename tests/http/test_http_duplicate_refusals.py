"""Probing a board must not pay (a duplicate board keeps its secret until every table due to
play it has played it), on SQLite and PostgreSQL: a duplicate table's refused
records are counted board by board in the database; past the limit the table's token gets
``429`` for that board alone, until the organiser, who sees every table's counts, releases
it. A refused record changes nothing else; its refusal is counted all the same, by every
process of the service, across restarts, and deleting hands takes nothing off it."""

from __future__ import annotations

from typing import Any

from http_support import assert_problem, auth
from test_http_duplicate import Duplicate, board, board_record

from service.application.refusals import REFUSALS_PER_BOARD

API = "/api/v1"


def wrong_record(number: int) -> dict[str, Any]:
    """A record of board ``number`` whose discard holds a card the dealer was not dealt."""
    dealt = board(number)
    record = board_record(number, 0)
    other = (dealt.dealer + 1) % 3
    record["discard"] = [next(c.code for c in dealt.hands[other] if c.is_plain),
                         *record["discard"][1:]]
    return record


def post(client: Any, table: dict[str, Any], record: dict[str, Any]) -> Any:
    return client.post(f"{API}/games/{table['game']}/hands", json=record,
                       headers=auth(table["tokens"]["edit"]))


def refuse(client: Any, table: dict[str, Any], number: int, times: int) -> None:
    for _ in range(times):
        assert_problem(post(client, table, wrong_record(number)), 422, code="record_invalid")


def refusals(client: Any, evening: Duplicate) -> dict[str, Any]:
    body = client.get(evening.url, headers=auth(evening.edit)).json
    return dict(body["refusals"])


def counts(client: Any, evening: Duplicate) -> dict[tuple[int, int], tuple[int, int, bool]]:
    """(table, board) -> (refused, total, stopped), as the organiser reads them."""
    return {(r["table"], r["board"]): (r["refused"], r["total"], r["stopped"])
            for r in refusals(client, evening)["boards"]}


def test_a_table_refused_too_often_on_a_board_gets_429_for_that_board_until_released(
        client: Any) -> None:
    evening = Duplicate(client)
    tables = evening.start()["tables"]
    first, fourth = tables[0], tables[3]  # both play board 1 first
    assert first["boards"][0] == fourth["boards"][0] == 1
    assert refusals(client, evening) == {"limit": REFUSALS_PER_BOARD, "boards": []}
    before = evening.game(first)
    refuse(client, first, 1, REFUSALS_PER_BOARD)
    # Nothing stored by the refusals: the game is as it was, version and all.
    after = evening.game(first)
    assert (after["hands_played"], after["version"]) == (before["hands_played"],
                                                         before["version"])
    # Past the limit even the board's right record is refused, 429, naming the board and
    # the organiser, with nothing to wait for.
    stopped = post(client, first, board_record(1, 0))
    problem = assert_problem(stopped, 429, code="board_refusals_exceeded")
    assert "Retry-After" not in stopped.headers
    assert "board 1" in problem["detail"] and "organiser" in problem["detail"]
    assert problem["errors"] == [{"field": "board", "code": "board_refusals_exceeded",
                                  "message": problem["detail"]}]
    assert evening.game(first)["hands_played"] == 0
    # Not another table on the same board: it is refused (422) and counted for itself.
    refuse(client, fourth, 1, 1)
    assert post(client, fourth, board_record(1, 0)).status_code == 201
    assert counts(client, evening) == {(1, 1): (REFUSALS_PER_BOARD, REFUSALS_PER_BOARD, True),
                                       (4, 1): (1, 1, False)}
    listed = refusals(client, evening)["boards"]
    assert [(r["round"], r["table"], r["game"]) for r in listed] == [
        (1, 1, first["game"]), (1, 4, fourth["game"])]
    # The room does not see who was refused.
    assert "refusals" not in client.get(evening.url, headers=auth(evening.read)).json
    # The organiser releases it: the table records the board, and its total stays.
    release = f"{evening.url}/rounds/1/tables/1/boards/1/release"
    assert_problem(client.post(release, headers=auth(evening.read)), 403)
    assert_problem(client.post(f"{evening.url}/rounds/1/tables/1/boards/9/release",
                               headers=auth(evening.edit)), 404)
    released = client.post(release, headers=auth(evening.edit))
    assert released.status_code == 200, released.json
    assert released.json["refusals"]["boards"][0]["refused"] == 0
    assert counts(client, evening)[(1, 1)] == (0, REFUSALS_PER_BOARD, False)
    history = client.get(f"{evening.url}/history", headers=auth(evening.edit)).json
    assert history["actions"][-1]["action"] == "release_board"
    assert history["actions"][-1]["data"]["released"] == REFUSALS_PER_BOARD
    assert post(client, first, board_record(1, 0)).status_code == 201


def test_the_limit_is_a_boards_own_other_boards_of_the_table_are_taken(client: Any) -> None:
    """Stopped on its second board, the table still corrects its first (and is refused
    there as anywhere, 422, counted for that board)."""
    evening = Duplicate(client)
    table = evening.start()["tables"][0]
    one, two = table["boards"][:2]
    hand = post(client, table, board_record(one, 0)).json
    refuse(client, table, two, REFUSALS_PER_BOARD)
    assert_problem(post(client, table, board_record(two, 0)), 429,
                   code="board_refusals_exceeded")
    url = f"{API}/games/{table['game']}/hands/1"
    headers = {**auth(table["tokens"]["edit"]), "If-Match": hand["etag"]}
    assert_problem(client.put(url, json=wrong_record(one), headers=headers), 422,
                   code="record_invalid")
    corrected = client.put(url, json=board_record(one, 1), headers=headers)
    assert corrected.status_code == 200, corrected.json
    assert counts(client, evening) == {(1, one): (1, 1, False),
                                       (1, two): (REFUSALS_PER_BOARD, REFUSALS_PER_BOARD, True)}


def test_deleting_hands_takes_nothing_off_a_later_boards_refusals(client: Any) -> None:
    """A table reaches its later board only by recording the boards before it; what it is
    refused there stays counted when it deletes them back and records them again."""
    evening = Duplicate(client)
    table = evening.start()["tables"][0]
    one, two = table["boards"][:2]
    hand = post(client, table, board_record(one, 0)).json
    refuse(client, table, two, REFUSALS_PER_BOARD - 1)
    deleted = client.delete(f"{API}/games/{table['game']}/hands/1",
                            headers={**auth(table["tokens"]["edit"]), "If-Match": hand["etag"]})
    assert deleted.status_code == 204, deleted.json
    assert post(client, table, board_record(one, 0)).status_code == 201
    refuse(client, table, two, 1)
    assert_problem(post(client, table, wrong_record(two)), 429, code="board_refusals_exceeded")
    assert counts(client, evening)[(1, two)] == (REFUSALS_PER_BOARD, REFUSALS_PER_BOARD, True)


def test_the_organisers_screen_sees_each_refusal_as_it_happens(client: Any) -> None:
    """The organiser's read of the event moves with every refusal and release (a poll with
    the ETag read before is not answered 304); the room's does not."""
    evening = Duplicate(client)
    table = evening.start()["tables"][0]
    organiser = client.get(evening.url, headers=auth(evening.edit))
    room = client.get(evening.url, headers=auth(evening.read))
    refuse(client, table, table["boards"][0], 1)
    again = client.get(evening.url, headers={**auth(evening.edit),
                                             "If-None-Match": organiser.headers["ETag"]})
    assert again.status_code == 200
    assert again.json["refusals"]["boards"][0]["refused"] == 1
    unchanged = client.get(evening.url, headers={**auth(evening.read),
                                                 "If-None-Match": room.headers["ETag"]})
    assert unchanged.status_code == 304


def test_refusals_are_counted_by_every_process_and_survive_a_restart(
        client: Any, migrated_url: str) -> None:
    """Two apps on one database (two processes of the service) count into the same
    refusals, and an app started afterwards (a restart) keeps the table stopped."""
    from service.http.app import create_app

    evening = Duplicate(client)
    table = evening.start()["tables"][0]
    number = table["boards"][0]
    config = {"DATABASE_URL": migrated_url, "TESTING": True, "RATE_LIMIT_PER_MINUTE": 0,
              "AUTH_FAILURES_PER_MINUTE": 0}
    apps = [create_app(config) for _ in range(2)]
    try:
        for k in range(REFUSALS_PER_BOARD):
            other = apps[k % 2].test_client()
            assert_problem(post(other, table, wrong_record(number)), 422)
        restarted = create_app(config)
        apps.append(restarted)
        assert_problem(post(restarted.test_client(), table, board_record(number, 0)), 429,
                       code="board_refusals_exceeded")
        assert_problem(post(client, table, board_record(number, 0)), 429)
    finally:
        for made in apps:
            made.extensions["segnapunti.games"].repository.engine.dispose()
    assert counts(client, evening) == {
        (1, number): (REFUSALS_PER_BOARD, REFUSALS_PER_BOARD, True)}

