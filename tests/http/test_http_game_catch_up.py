"""A worker's kept view of a game catches up with what another worker wrote since (hands
added, players' verdicts given) from those changes alone, and says what a whole read says;
a correction makes it read the game whole. Two apps on one database stand for two workers.
On SQLite and PostgreSQL (the ``app`` and ``migrated_url`` fixtures)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from http_support import auth

from service.http.app import create_app

API = "/api/v1"
HAND = {"dealer": 0, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]}


@pytest.fixture()
def other(migrated_url: str, app: Any) -> Iterator[Any]:
    """A second worker: an app of its own on the same database."""
    second = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                         "RATE_LIMIT_PER_MINUTE": 0})
    yield second.test_client()
    second.extensions["segnapunti.store"].engine.dispose()


def whole_reads(client: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games ``client``'s worker reads whole from now on."""
    repository = client.application.extensions["segnapunti.games"].views.repository
    read = repository.get_game
    seen: list[str] = []

    def counted(game_id: str) -> Any:
        seen.append(game_id)
        return read(game_id)

    monkeypatch.setattr(repository, "get_game", counted)
    return seen


def test_a_kept_game_catches_up_with_hands_and_verdicts_without_a_whole_read(
        client: Any, other: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = client.post(f"{API}/games", json={
        "variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}).json
    path, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])
    players = [auth(token) for token in game["tokens"]["players"]]
    assert other.post(f"{path}/hands", json=HAND, headers=edit).status_code == 201
    assert client.get(path, headers=edit).status_code == 200  # kept by the first worker
    seen = whole_reads(client, monkeypatch)
    # The other worker: a verdict, a second hand, two verdicts on it and a dispute.
    assert other.post(f"{path}/hands/1/confirmations", json={"verdict": "confirm"},
                      headers=players[1]).status_code == 201
    hand = {**HAND, "dealer": 1}
    assert other.post(f"{path}/hands", json=hand, headers=edit).status_code == 201
    for seat, verdict in ((0, "confirm"), (2, "confirm"), (2, "dispute")):
        said = other.post(f"{path}/hands/2/confirmations", json={
            "verdict": verdict, **({"reason": "Non torna"} if verdict == "dispute" else {})},
            headers=players[seat])
        assert said.status_code == 201, said.json
    caught = client.get(path, headers=edit)
    assert seen == []
    assert caught.json == other.get(path, headers=edit).json
    assert caught.headers["ETag"] == other.get(path, headers=edit).headers["ETag"]
    assert [c["verdict"] for c in caught.json["hands"][1]["confirmations"]] == [
        "confirm", "dispute"]
    # A correction is not a change the kept view can follow: the game is read whole.
    tag = other.get(f"{path}/hands/2", headers=edit).headers["ETag"]
    corrected = other.put(f"{path}/hands/2", json={**hand, "piles": [
        {"side": 0, "points": 30}, {"side": 1, "points": 30}]}, headers={**edit, "If-Match": tag})
    assert corrected.status_code == 200, corrected.json
    assert client.get(path, headers=edit).json == other.get(path, headers=edit).json
    assert seen == [game["id"]]
