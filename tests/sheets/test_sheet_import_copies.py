"""Export → import is a true copy: the history, corrections and deletions included,
and every hand's times come back as they were; a game of a thousand hands comes back too, as
plain JSON over 1 MiB or gzip-compressed; and the import's larger body limit and gzip
decoding refuse what they must (a gzip bomb, a corrupt stream) without storing anything.

The thousand-hand game is imported on one database (PostgreSQL where there is one, as in
production): what it adds to the other imports is the size of the work, not the store's part,
which every other test here checks on each database."""

from __future__ import annotations

import copy
import functools
import gzip
import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from legal_play import random_legal_hand
from sheet_samples import SAMPLES, long_mitigatti
from sheet_support import API, HttpGame, auth, fields, problem
from sqlalchemy import text

from service.application.games import MAX_HANDS
from service.application.printouts import MAX_HISTORY
from service.http.bodies import IMPORT_MAX_BYTES
from service.http.config import MAX_BODY_BYTES
from service.persistence import upgrade

IMPORT = f"{API}/games/import"
JSON = {"Content-Type": "application/json"}
GZIP = {**JSON, "Content-Encoding": "gzip"}


def stored_rows(client: Any) -> tuple[int, int, int]:
    engine = client.application.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return tuple(int(connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one())
                     for table in ("games", "hands", "hand_versions"))  # type: ignore[return-value]


def imported(client: Any, body: bytes, headers: dict[str, str]) -> HttpGame:
    response = client.post(IMPORT, data=body, headers=headers)
    assert response.status_code == 201, (response.status_code, response.data[:500])
    return _opened(client, response.json)


def _opened(client: Any, created: dict[str, Any]) -> HttpGame:
    game = HttpGame.__new__(HttpGame)
    game.client, game.id = client, created["id"]
    game.edit, game.read = created["tokens"]["edit"], created["tokens"]["read"]
    game.url = f"{API}/games/{game.id}"
    return game


def history(game: HttpGame) -> list[dict[str, Any]]:
    response = game.get("/history")
    assert response.status_code == 200
    return response.json["versions"]  # type: ignore[no-any-return]


def hands_as_stored(game: HttpGame) -> list[dict[str, Any]]:
    """The hands as the game answers them, but for what names the game (its id)."""
    return [{k: v for k, v in hand.items() if k not in ("etag", "links", "game_id")}
            for hand in game.state()["hands"]]


def write(game: HttpGame, method: str, number: int, record: Any = None) -> None:
    etag = game.get(f"/hands/{number}").headers["ETag"]
    response = game.client.open(f"{game.url}/hands/{number}", method=method, json=record,
                                headers={**auth(game.edit), "If-Match": etag})
    assert response.status_code in (200, 204), response.json


@pytest.fixture()
def corrected(client: Any) -> HttpGame:
    """A Mitigatti evening whose last hand was corrected twice, deleted and entered again."""
    sample = long_mitigatti(hands=6)
    game = HttpGame(client, sample)
    last, record = len(sample.hands), sample.hands[-1]
    write(game, "PUT", last, {"dealer": record["dealer"], "thrown_in": True})
    write(game, "PUT", last, record)
    write(game, "DELETE", last)
    added = client.post(f"{game.url}/hands", json=record, headers=auth(game.edit))
    assert added.status_code == 201
    return game


def test_the_export_carries_the_whole_history(corrected: HttpGame) -> None:
    document = corrected.get(".json").json
    assert document["format_version"] == 2
    assert document["history"] == history(corrected)
    actions = [(v["number"], v["version"], v["action"]) for v in document["history"]][-4:]
    assert actions == [(6, 2, "correct"), (6, 3, "correct"), (6, 4, "delete"), (6, 5, "create")]


def test_an_import_is_a_true_copy_history_and_times_included(client: Any,
                                                             corrected: HttpGame) -> None:
    document = corrected.get(".json").json
    copy_ = imported(client, json.dumps(document).encode(), JSON)
    assert history(copy_) == history(corrected)
    assert hands_as_stored(copy_) == hands_as_stored(corrected)
    original, again = corrected.state(), copy_.state()
    assert again["created_at"] == original["created_at"]
    assert again["version"] == original["version"]
    # Exported again, the copy is the same file but for its id and the time of the export.
    second = copy_.get(".json").json
    for key in ("hands", "history", "summary", "rules_version"):
        assert second[key] == document[key], key
    assert {**second["game"], "id": None} == {**document["game"], "id": None}


def test_a_file_without_history_imports_each_hand_at_its_time(client: Any) -> None:
    game = HttpGame(client, SAMPLES["mitigatti-3"])
    document = game.get(".json").json
    document["format_version"] = 1
    del document["history"]
    copy_ = imported(client, json.dumps(document).encode(), JSON)
    assert [(v["number"], v["version"], v["action"], v["created_at"]) for v in history(copy_)] \
        == [(h["number"], 1, "create", h["created_at"]) for h in document["hands"]]
    assert [h["created_at"] for h in copy_.state()["hands"]] == [
        h["created_at"] for h in document["hands"]]


def _broken(document: dict[str, Any], change: Any) -> dict[str, Any]:
    broken = copy.deepcopy(document)
    change(broken["history"])
    return broken


HISTORIES_THAT_DO_NOT_FOLLOW = {
    "a hand created out of turn": (
        lambda h: h.insert(0, {**h[1]}), {"history[0].number": "wrong_hand_number"}),
    "a version skipped": (
        lambda h: h[-1].update(version=7), {"history[-1].version": "wrong_version"}),
    "a hand corrected that is not there": (
        lambda h: h.insert(0, {**h[0], "action": "correct"}),
        {"history[0].number": "no_such_hand"}),
    "a deletion with a record": (
        lambda h: h[-2].update(record=h[-1]["record"]), {"history[-2].record": "unexpected_record"}),
    "a deletion not of the last hand": (
        lambda h: h.insert(2, {**h[-2], "number": 1, "version": 2}),
        {"history[2].number": "not_last_hand"}),
    "a correction without a record": (
        lambda h: h[-4].update(record=None), {"history[-4].record": "missing_record"}),
    "a record the rules refuse": (
        lambda h: h[-4]["record"].update(dealer=9), {"history[-4].record.dealer": "out_of_range"}),
    "a time without its offset": (
        lambda h: h[0].update(created_at="2026-11-20T21:00:00"),
        {"history[0].created_at": "invalid_field"}),
    "a history that ends elsewhere": (
        lambda h: h.pop(), {"history": "disagrees_with_hands"}),
}


@pytest.mark.parametrize("case", list(HISTORIES_THAT_DO_NOT_FOLLOW))
def test_a_history_that_does_not_follow_is_refused(client: Any, corrected: HttpGame,
                                                  case: str) -> None:
    document = corrected.get(".json").json
    change, expected = HISTORIES_THAT_DO_NOT_FOLLOW[case]
    broken = _broken(document, change)
    count = len(broken["history"])
    expected = {(_absolute(field, count) if "[-" in field else field): code
                for field, code in expected.items()}
    before = stored_rows(client)
    found = fields(problem(client.post(IMPORT, json=broken), 422))
    assert expected.items() <= found.items(), found
    assert stored_rows(client) == before


def _absolute(field: str, count: int) -> str:
    """``history[-2].record`` → ``history[7].record`` in a history of 9 entries."""
    head, rest = field.split("[-", 1)
    back, tail = rest.split("]", 1)
    return f"{head}[{count - int(back)}]{tail}"


def test_a_history_past_twenty_thousand_changes_is_refused(client: Any) -> None:
    change = {"number": 1, "version": 1, "action": "delete", "record": None,
              "token_kind": "edit", "created_at": "2026-11-20T21:00:00+00:00"}
    document = {"format": "segnapunti.game", "format_version": 2,
                "game": {"variant": "gatti-3", "players": ["A", "B", "C"]},
                "history": [change] * (MAX_HISTORY + 1)}
    before = stored_rows(client)
    assert fields(problem(client.post(IMPORT, json=document), 422)) == {
        "history": "invalid_field"}
    assert stored_rows(client) == before


# -- a thousand hands ---------------------------------------------------------------------------


@functools.cache
def thousand_hands() -> bytes:
    """A Mitigatti game of three, every one of its ``MAX_HANDS`` hands played trick by trick,
    a few corrected and the last deleted and entered again, as an export file (format 2)."""
    rng = random.Random(19)
    records = [random_legal_hand("mitigatti-3", rng, dealer=n % 3) for n in range(MAX_HANDS)]
    start = datetime(2026, 11, 20, 19, 0, 0, 250_000, tzinfo=UTC)

    def at(minutes: int) -> str:
        return (start + timedelta(minutes=minutes, microseconds=minutes)).isoformat()

    versions = [{"number": n + 1, "version": 1, "action": "create", "record": record,
                 "token_kind": "edit", "rules_version": "2026.11.1", "created_at": at(2 * n)}
                for n, record in enumerate(records)]
    last = MAX_HANDS
    versions += [
        {**versions[-1], "version": 2, "action": "delete", "record": None,
         "created_at": at(2 * last)},
        {**versions[-1], "version": 3, "created_at": at(2 * last + 1)},
    ]
    return json.dumps({
        "format": "segnapunti.game", "format_version": 2,
        "game": {"variant": "mitigatti-3", "players": ["Anna", "Bruno", "Carla"],
                 "options": {"marca_value": "0.10"}, "first_dealer": 0,
                 "created_at": start.isoformat()},
        "hands": [{"number": n + 1, "record": record} for n, record in enumerate(records)],
        "history": versions,
    }).encode()


@pytest.fixture(scope="module")
def one_client(one_db_url: str) -> Iterator[Any]:
    """A test client of an app on the module's one database."""
    from service.http.app import create_app

    upgrade(one_db_url)
    app = create_app({"DATABASE_URL": one_db_url, "TESTING": True,
                      "RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0})
    yield app.test_client()
    app.extensions["segnapunti.games"].repository.engine.dispose()


def test_a_thousand_hand_game_comes_back_whole(one_client: Any) -> None:
    client = one_client
    compressed = gzip.compress(thousand_hands())
    first = imported(client, compressed, GZIP)
    exported = first.get(".json")
    assert len(exported.data) > MAX_BODY_BYTES  # what the plain body limit used to refuse
    again = imported(client, exported.data, JSON)
    copied = again.get(".json").json
    assert len(copied["history"]) == MAX_HANDS + 2
    for key in ("hands", "history", "summary"):
        assert copied[key] == exported.json[key], key


# -- the import's body ------------------------------------------------------------------------


def test_an_import_takes_its_own_limit_and_no_more(client: Any) -> None:
    before = stored_rows(client)
    padded = json.dumps({"format": "segnapunti.game", "padding": "x" * IMPORT_MAX_BYTES})
    body = problem(client.post(IMPORT, data=padded, headers=JSON), 413)
    assert body["code"] == "body_too_large" and "16 MiB" in body["detail"]
    body = problem(client.post(f"{API}/games", data=" " * (MAX_BODY_BYTES + 1), headers=JSON),
                   413)
    assert "1 MiB" in body["detail"] and "import" in body["detail"]
    assert stored_rows(client) == before


def test_a_gzip_bomb_is_refused_after_the_limit(client: Any) -> None:
    bomb = gzip.compress(b" " * (IMPORT_MAX_BYTES + 1))
    assert len(bomb) < 64 * 1024
    before = stored_rows(client)
    body = problem(client.post(IMPORT, data=bomb, headers=GZIP), 413)
    assert body["code"] == "body_too_large"
    assert stored_rows(client) == before


@pytest.mark.parametrize("case", ["not gzip", "cut short", "trailing bytes"])
def test_a_body_that_is_no_gzip_is_malformed(client: Any, case: str) -> None:
    whole = gzip.compress(json.dumps({"format": "segnapunti.game"}).encode())
    data = {"not gzip": b'{"format": "segnapunti.game"}', "cut short": whole[:-6],
            "trailing bytes": whole + b"junk"}[case]
    body = problem(client.post(IMPORT, data=data, headers=GZIP), 400)
    assert body["code"] == "malformed_request"
    assert fields(body) == {"body": "malformed_request"}


def test_only_the_import_takes_an_encoded_body(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    setup = gzip.compress(json.dumps({"variant": "gatti-3", "players": ["A", "B", "C"]}).encode())
    before = stored_rows(client)
    response = client.post(f"{API}/games", data=setup, headers=GZIP)
    body = problem(response, 415)
    assert body["code"] == "unsupported_content_encoding"
    assert response.headers["Accept-Encoding"] == "identity"
    document = json.dumps(game.get(".json").json).encode()
    body = problem(client.post(IMPORT, data=document, headers={**JSON, "Content-Encoding": "br"}),
                   415)
    assert fields(body) == {"Content-Encoding": "unsupported_content_encoding"}
    assert stored_rows(client) == before
    # Declared, the identity encoding is no encoding.
    imported(client, document, {**JSON, "Content-Encoding": "identity"})
