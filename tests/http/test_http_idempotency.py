"""``Idempotency-Key``: a retry gets the first response and creates nothing; the same key with
another body is a 422; the key is stored in the transaction of the effect, sealed; two
requests with one key at the same time make one effect."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from typing import Any

import pytest
from http_support import API, assert_problem, auth, error_fields, gatti3_hand, invalid_hand
from sqlalchemy import text

from service.application.idempotency import KEY_MAX_LENGTH, fingerprint, seal, unseal

KEY = "2f1c7a4e-0b5d-4c1e-9a3f-6d2b8e7c1a90"


def _post_hand(client: Any, game: Any, record: dict[str, Any], key: str | None = KEY,
               token: str | None = None) -> Any:
    headers = auth(token or game.edit)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"{game.url}/hands", json=record, headers=headers)


def _post_game(client: Any, body: dict[str, Any], key: str | None = KEY) -> Any:
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(f"{API}/games", json=body, headers=headers)


def _rows(app: Any, table: str) -> list[Any]:
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return list(connection.execute(text(f"SELECT * FROM {table}")))


GAME = {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}


def test_a_retried_hand_gets_the_first_response_and_is_recorded_once(
    client: Any, table: Any
) -> None:
    game = table()
    first = _post_hand(client, game, gatti3_hand(0))
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    again = _post_hand(client, game, gatti3_hand(0))
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    for header in ("Location", "ETag", "Content-Type"):
        assert again.headers[header] == first.headers[header]
    assert again.headers["Referrer-Policy"] == "no-referrer"
    assert len(game.state()["hands"]) == 1
    assert [v["action"] for v in game.history()] == ["create"]


def test_the_first_response_is_replayed_even_after_the_game_moved_on(
    client: Any, table: Any
) -> None:
    game = table()
    first = _post_hand(client, game, gatti3_hand(0))
    game.play()  # another phone records hand 2
    again = _post_hand(client, game, gatti3_hand(0))
    assert again.status_code == 201 and again.json == first.json
    assert len(game.state()["hands"]) == 2


def test_key_order_and_spacing_of_the_body_do_not_matter(client: Any, table: Any) -> None:
    game = table()
    record = gatti3_hand(0)
    first = _post_hand(client, game, record)
    reordered = json.dumps(dict(reversed(list(record.items()))), indent=2)
    again = client.post(f"{game.url}/hands", data=reordered, content_type="application/json",
                        headers={**auth(game.edit), "Idempotency-Key": KEY})
    assert again.status_code == 201 and again.json == first.json
    assert fingerprint("POST", "/p", {"a": 1, "b": [1, 2]}) == fingerprint(
        "post", "/p", {"b": [1, 2], "a": 1})
    assert fingerprint("POST", "/p", {"a": 1}) != fingerprint("POST", "/q", {"a": 1})


def test_the_same_key_with_another_body_is_a_422_and_changes_nothing(
    client: Any, table: Any
) -> None:
    game = table()
    _post_hand(client, game, gatti3_hand(0))
    before = game.state()
    response = _post_hand(client, game, gatti3_hand(1))
    body = assert_problem(response, 422, code="idempotency_key_reused")
    assert error_fields(body) == {"Idempotency-Key": "idempotency_key_reused"}
    assert game.state() == before


def test_keys_are_scoped_to_their_game(client: Any, table: Any) -> None:
    one, two = table(), table(players=("Dario", "Elena", "Fabio"))
    assert _post_hand(client, one, gatti3_hand(0)).status_code == 201
    response = _post_hand(client, two, gatti3_hand(0))
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert len(two.state()["hands"]) == 1


def test_a_replay_still_needs_the_edit_token(client: Any, table: Any) -> None:
    game = table()
    _post_hand(client, game, gatti3_hand(0))
    assert_problem(_post_hand(client, game, gatti3_hand(0), token=game.read), 403)
    assert_problem(client.post(f"{game.url}/hands", json=gatti3_hand(0),
                               headers={"Idempotency-Key": KEY}), 401)


def test_a_rejected_request_stores_no_key(app: Any, client: Any, table: Any) -> None:
    game = table()
    assert_problem(_post_hand(client, game, invalid_hand(0)), 422)
    assert_problem(_post_hand(client, game, {"dealer": 0, "nonsense": 1}), 422)
    assert_problem(_post_hand(client, game, gatti3_hand(1)), 422)  # wrong dealer
    assert _rows(app, "idempotency_keys") == []
    response = _post_hand(client, game, gatti3_hand(0))
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers


def test_a_retried_game_creation_returns_the_same_game_and_tokens(
    app: Any, client: Any
) -> None:
    first = _post_game(client, GAME)
    again = _post_game(client, GAME)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(_rows(app, "games")) == 1
    tokens = again.json["tokens"]
    url = first.headers["Location"]
    assert client.get(url, headers=auth(tokens["edit"])).status_code == 200
    assert_problem(_post_game(client, {**GAME, "players": ["A", "B", "C"]}), 422,
                   code="idempotency_key_reused")


@pytest.mark.parametrize("key", ["", "x" * (KEY_MAX_LENGTH + 1), "tab\there", "\x7f"])
def test_keys_are_bounded_printable_ascii(client: Any, key: str) -> None:
    response = _post_game(client, GAME, key=key)
    assert_problem(response, 422, code="idempotency_key_invalid")


def test_a_key_at_the_length_limit_is_accepted(client: Any) -> None:
    assert _post_game(client, GAME, key="k" * KEY_MAX_LENGTH).status_code == 201


def test_the_stored_response_is_sealed_with_the_key(app: Any, client: Any) -> None:
    created = _post_game(client, GAME).json
    [row] = _rows(app, "idempotency_keys")
    stored = " ".join(str(value) for value in row)
    for secret in (KEY, created["tokens"]["edit"], created["tokens"]["read"], "Anna"):
        assert secret not in stored


def test_seal_round_trips_and_refuses_another_key_or_a_change() -> None:
    sealed = seal("k1", b'{"tokens": {"edit": "secret"}}')
    assert unseal("k1", sealed) == b'{"tokens": {"edit": "secret"}}'
    assert b"secret" not in sealed.encode()
    assert seal("k1", b"same") != seal("k1", b"same")  # a fresh salt each time
    assert unseal("k1", seal("k1", b"")) == b""
    with pytest.raises(ValueError):
        unseal("k2", sealed)
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    with pytest.raises(ValueError):
        unseal("k1", tampered)


def test_the_key_is_stored_in_the_transaction_of_the_effect(
    app: Any, client: Any, table: Any, monkeypatch: Any
) -> None:
    game = table()
    repository = app.extensions["segnapunti.store"].idempotency

    def fail(_entry: Any) -> None:
        raise RuntimeError("the database went away between the effect and the key")

    monkeypatch.setattr(repository, "save_idempotency", fail)
    with pytest.raises(RuntimeError):
        _post_hand(client, game, gatti3_hand(0))
    with pytest.raises(RuntimeError):
        _post_game(client, GAME, key="another")
    monkeypatch.undo()
    assert game.state()["hands"] == []  # the hand rolled back with the key
    assert game.history() == []
    assert len(_rows(app, "games")) == 1  # only `game`


def test_a_twin_running_at_the_same_time_makes_no_second_hand(
    app: Any, client: Any, table: Any, monkeypatch: Any
) -> None:
    """Request B with A's key read no key (A had not committed) and the game as it was
    before A; by the time B writes, A has committed. B's compare-and-set fails, it runs
    again, finds A's key and replays A's response."""
    game = table()
    first = _post_hand(client, game, gatti3_hand(0))
    keys = app.extensions["segnapunti.store"].idempotency
    repository = app.extensions["segnapunti.games"].repository
    find, read = keys.find_idempotency, repository.get_game
    seen: list[str] = []

    def find_once_too_early(scope: str, key_hash: str) -> Any:
        seen.append("find")
        return None if seen.count("find") == 1 else find(scope, key_hash)

    def read_once_too_early(game_id: str) -> Any:
        stored = read(game_id)
        if seen.count("read") == 0:
            seen.append("read")
            return dataclasses.replace(stored, version=stored.version - 1, hands=())
        return stored

    monkeypatch.setattr(keys, "find_idempotency", find_once_too_early)
    monkeypatch.setattr(repository, "get_game", read_once_too_early)
    again = _post_hand(client, game, gatti3_hand(0))
    monkeypatch.undo()
    assert again.status_code == 201 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(game.state()["hands"]) == 1


def test_a_twin_that_read_the_game_after_the_first_gets_its_response_not_an_error(
    app: Any, client: Any, table: Any, monkeypatch: Any
) -> None:
    """B looked for A's key before A committed, then read the game after: the dealer has
    moved on, so B's record is the wrong dealer's. B's answer is A's response all the same
    (found by looking for the key again after the failure), not a 422."""
    game = table()
    first = _post_hand(client, game, gatti3_hand(0))
    repository = app.extensions["segnapunti.store"].idempotency
    find = repository.find_idempotency
    calls: list[int] = []

    def find_once_too_early(scope: str, key_hash: str) -> Any:
        calls.append(1)
        return None if len(calls) == 1 else find(scope, key_hash)

    monkeypatch.setattr(repository, "find_idempotency", find_once_too_early)
    again = _post_hand(client, game, gatti3_hand(0))
    monkeypatch.undo()
    assert again.status_code == 201 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(game.state()["hands"]) == 1


def test_a_twin_game_creation_at_the_same_time_makes_no_second_game(
    app: Any, client: Any, monkeypatch: Any
) -> None:
    """Both requests create a game; the second's key insert hits the first's key, its game
    rolls back with it, and it replays the first's response."""
    first = _post_game(client, GAME)
    repository = app.extensions["segnapunti.store"].idempotency
    find = repository.find_idempotency
    calls: list[int] = []

    def find_once_too_early(scope: str, key_hash: str) -> Any:
        calls.append(1)
        return None if len(calls) == 1 else find(scope, key_hash)

    monkeypatch.setattr(repository, "find_idempotency", find_once_too_early)
    again = _post_game(client, GAME)
    monkeypatch.undo()
    assert again.status_code == 201 and again.json == first.json
    assert len(_rows(app, "games")) == 1


def test_keys_expire_after_the_retention(app: Any, client: Any, monkeypatch: Any) -> None:
    keys = app.extensions["segnapunti.idempotency"]
    first = _post_game(client, GAME)
    now = keys.clock()
    monkeypatch.setattr(keys, "clock", lambda: now + keys.retention + timedelta(minutes=1))
    again = _post_game(client, GAME)  # the key is forgotten: a new game
    assert again.status_code == 201 and again.json["id"] != first.json["id"]
    assert "Idempotent-Replayed" not in again.headers
    monkeypatch.setattr(keys, "clock", lambda: now + 2 * keys.retention + timedelta(hours=1))
    monkeypatch.setattr(keys, "_last_purge", None)
    assert keys.purge_if_due() == 1
    assert keys.purge_if_due() == 0  # not again before PURGE_EVERY
    assert _rows(app, "idempotency_keys") == []


def test_a_malformed_body_with_a_key_is_a_400(client: Any) -> None:
    response = client.post(f"{API}/games", data="{", content_type="application/json",
                           headers={"Idempotency-Key": KEY})
    assert_problem(response, 400, code="malformed_json")


def _sealed_before_aes_gcm(key: str, plaintext: bytes) -> str:
    """A body as an earlier release sealed it: an HMAC-SHA256 keystream XORed with it, then
    its HMAC (version byte 1)."""
    import base64
    import hashlib
    import hmac

    salt = b"\x07" * 16
    master = hmac.new(key.encode(), b"segnapunti idempotency seal\x1f" + salt,
                      hashlib.sha256).digest()
    encrypt = hmac.new(master, b"encrypt", hashlib.sha256).digest()
    mac = hmac.new(master, b"authenticate", hashlib.sha256).digest()
    stream = b"".join(hmac.new(encrypt, salt + n.to_bytes(8, "big"), hashlib.sha256).digest()
                      for n in range((len(plaintext) + 31) // 32))
    cipher = bytes(a ^ b for a, b in zip(plaintext, stream, strict=False))
    tag = hmac.new(mac, salt + cipher, hashlib.sha256).digest()
    return base64.b64encode(b"\x01" + salt + tag + cipher).decode("ascii")


def test_the_stored_response_is_aes_gcm_under_a_key_hkdf_derives_from_the_clients(
        app: Any, client: Any) -> None:
    import base64

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    created = _post_game(client, GAME)
    [row] = _rows(app, "idempotency_keys")
    raw = base64.b64decode(row.body)
    salt, nonce, sealed = raw[1:17], raw[17:29], raw[29:]
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                   info=b"segnapunti idempotency seal, AES-256-GCM").derive(KEY.encode())
    bound = f"{row.scope}\x1f{row.key_hash}".encode()
    assert AESGCM(derived).decrypt(nonce, sealed, bound) == created.get_data()
    # Bound to where it is stored: the same body under another entry does not open.
    with pytest.raises(ValueError):
        unseal(KEY, row.body, b"another entry")


def test_a_response_sealed_by_an_earlier_release_has_expired(app: Any, client: Any) -> None:
    first = _post_game(client, GAME)
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.begin() as connection:
        connection.execute(text("UPDATE idempotency_keys SET body = :body"),
                           {"body": _sealed_before_aes_gcm(KEY, first.get_data())})
    again = _post_game(client, GAME)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert again.json["id"] != first.json["id"]
    # Kept anew, the new way: the next retry replays the second answer.
    replayed = _post_game(client, GAME)
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json["id"] == again.json["id"]
