"""The SQL statements one request runs do not grow with the game: reading a game of 30 hands
costs the same statements as reading a game of 1 (no N+1 queries), and so does adding a hand
or reading one. Counted on the app's engine (``before_cursor_execute``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

API = "/api/v1"
LONG = 30


def mitigatti_hand(dealer: int, i: int) -> dict[str, Any]:
    """A valid ``mitigatti-3`` hand; the top seat turns round, so the ledger never ends."""
    top, second = i % 3, (i + 1) % 3
    return {"dealer": dealer, "piles": [
        {"side": top, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": second, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}


@contextmanager
def counted(app: Any) -> Iterator[list[str]]:
    engine = app.extensions["segnapunti.games"].repository.engine
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


class Game:
    def __init__(self, client: Any, hands: int) -> None:
        self.client = client
        created = client.post(f"{API}/games",
                              json={"variant": "mitigatti-3", "players": ["A", "B", "C"]})
        assert created.status_code == 201, created.json
        self.url = f"{API}/games/{created.json['id']}"
        self.auth = {"Authorization": f"Bearer {created.json['tokens']['edit']}"}
        for i in range(hands):
            assert self.add(i).status_code == 201

    def next_dealer(self) -> int:
        dealer: int = self.client.get(self.url, headers=self.auth).json["next_dealer"]
        return dealer

    def add(self, i: int, dealer: int | None = None) -> Any:
        dealer = self.next_dealer() if dealer is None else dealer
        return self.client.post(f"{self.url}/hands", json=mitigatti_hand(dealer, i),
                                headers=self.auth)


def scores_counted(app: Any, monkeypatch: Any) -> list[int]:
    """The numbers of the stored hands the app's views score from now on (until
    ``monkeypatch.undo()``), in the order they are scored."""
    views = app.extensions["segnapunti.games"].views
    scored: list[int] = []
    score = views.scored

    def counting(setup: Any, game_id: str, stored: Any) -> Any:
        scored.append(stored.number)
        return score(setup, game_id, stored)

    monkeypatch.setattr(views, "scored", counting)
    return scored


def _statements(app: Any, game: Game) -> dict[str, list[str]]:
    client = game.client
    counts: dict[str, list[str]] = {}
    with counted(app) as statements:
        assert client.get(game.url, headers=game.auth).status_code == 200
    counts["GET game"] = statements
    with counted(app) as statements:
        assert client.get(f"{game.url}/hands/1", headers=game.auth).status_code == 200
    counts["GET hand"] = statements
    dealer = game.next_dealer()
    with counted(app) as statements:
        assert game.add(7, dealer).status_code == 201
    counts["POST hand"] = statements
    return counts


@pytest.mark.parametrize("request_name", ["GET game", "GET hand", "POST hand"])
def test_statements_per_request_do_not_grow_with_the_game(
    app: Any, client: Any, request_name: str
) -> None:
    short = _statements(app, Game(client, 1))[request_name]
    long = _statements(app, Game(client, LONG))[request_name]
    assert len(short) == len(long), (short, long)
    assert len(short) <= 12, short
    # The token is checked once, even where it is checked before the body is read.
    assert sum("edit_token_hash" in statement for statement in short) == 1, short


def test_a_new_hand_is_four_statements(app: Any, client: Any) -> None:
    """The token check, then the write: the game's version (compare-and-set), the hand (its
    version found in the same statement), its history entry (copied from the hand's row)."""
    statements = _statements(app, Game(client, 3))["POST hand"]
    assert len(statements) == 4, statements


def test_a_game_is_sent_gzipped_to_clients_that_take_it(app: Any, client: Any) -> None:
    import gzip
    import json

    game = Game(client, 3)
    plain = client.get(game.url, headers=game.auth)
    zipped = client.get(game.url, headers={**game.auth, "Accept-Encoding": "gzip, deflate"})
    assert plain.status_code == zipped.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert zipped.headers["ETag"] == plain.headers["ETag"]
    assert json.loads(gzip.decompress(zipped.data)) == plain.json


@pytest.fixture()
def other_worker(app: Any, migrated_url: str) -> Iterator[Any]:
    """A second app on the same database, as a second gunicorn worker is: each keeps its own
    copies of the games it has seen."""
    from service.http.app import create_app

    other = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                        "RATE_LIMIT_PER_MINUTE": 0})
    yield other
    other.extensions["segnapunti.games"].repository.engine.dispose()


@pytest.mark.parametrize("added_elsewhere", [1, 5])
def test_a_worker_catches_up_with_the_hands_another_added(
    app: Any, client: Any, other_worker: Any, added_elsewhere: int, monkeypatch: Any
) -> None:
    """A worker whose copy of a game is some hands old (another worker took them) reads
    those hands alone: one statement however long the game and however many were added,
    and it scores only them."""
    game = Game(client, LONG)
    elsewhere = Game.__new__(Game)
    elsewhere.client, elsewhere.url, elsewhere.auth = (
        other_worker.test_client(), game.url, game.auth)
    for i in range(added_elsewhere):
        assert elsewhere.add(LONG + i).status_code == 201
    scored = scores_counted(app, monkeypatch)
    with counted(app) as statements:
        state = client.get(game.url, headers=game.auth)
    monkeypatch.undo()
    assert state.status_code == 200
    assert len(state.json["hands"]) == LONG + added_elsewhere
    assert state.json == elsewhere.client.get(game.url, headers=game.auth).json
    assert len(statements) == 2, statements  # the token check, then what changed
    assert scored == list(range(LONG + 1, LONG + added_elsewhere + 1))
    # Adding the next hand here needs nothing more read.
    dealer = state.json["next_dealer"]
    with counted(app) as statements:
        assert game.add(99, dealer).status_code == 201
    assert len(statements) == 4, statements


def test_a_worker_reads_a_game_whole_once_a_hand_was_corrected_elsewhere(
    app: Any, client: Any, other_worker: Any
) -> None:
    game = Game(client, 3)
    other = other_worker.test_client()
    hand = other.get(f"{game.url}/hands/2", headers=game.auth)
    corrected = {**hand.json["record"],
                 "piles": mitigatti_hand(hand.json["record"]["dealer"], 5)["piles"]}
    fixed = other.put(f"{game.url}/hands/2", json=corrected,
                      headers={**game.auth, "If-Match": hand.headers["ETag"]})
    assert fixed.status_code == 200, fixed.json
    state = client.get(game.url, headers=game.auth).json
    assert state["hands"][1]["record"] == fixed.json["record"]
    assert state == other.get(game.url, headers=game.auth).json


def test_an_imported_game_is_read_without_scoring_its_hands_again(
        app: Any, client: Any, monkeypatch: Any) -> None:
    """An import scores every hand to check it; the copy it makes is kept, so reading the
    new game (its view, its export) scores none of them again."""
    game = Game(client, LONG)
    exported = client.get(f"{game.url}.json", headers=game.auth)
    assert exported.status_code == 200
    scored = scores_counted(app, monkeypatch)
    copy = client.post(f"{API}/games/import", json=exported.json)
    assert copy.status_code == 201, copy.json
    auth = {"Authorization": f"Bearer {copy.json['tokens']['edit']}"}
    read = client.get(f"{API}/games/{copy.json['id']}", headers=auth)
    again = client.get(f"{API}/games/{copy.json['id']}.json", headers=auth)
    monkeypatch.undo()
    assert read.status_code == again.status_code == 200
    assert len(read.json["hands"]) == LONG
    assert again.json["hands"] == exported.json["hands"]
    assert scored == []


def _event_of(client: Any, tables: int, rounds: int) -> tuple[str, str]:
    """An event of ``tables`` tables of four, ``rounds`` rounds of it started (each played to
    its end first): its id and edit token."""
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual", "seed": 3,
        "entrants": [{"name": f"Giocatore {i}"} for i in range(4 * tables)]})
    assert created.status_code == 201, created.json
    event, token = created.json["id"], created.json["tokens"]["edit"]
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(1, rounds + 1):
        if number > 1:
            assert client.post(f"{API}/events/{event}/rounds/{number - 1}/close",
                               headers=auth).status_code == 200
        assert client.post(f"{API}/events/{event}/rounds", json={},
                           headers=auth).status_code == 201
    return event, token


def test_an_events_tables_are_read_together_whatever_their_number(app: Any,
                                                                    client: Any) -> None:
    # A worker that keeps none of an event's games (another served its tables) reads them in
    # the same statements for two tables of one round as for six tables of three rounds.
    events = app.extensions["segnapunti.events"]
    views = app.extensions["segnapunti.games"].views
    counts = []
    for tables, rounds in ((2, 1), (6, 3)):
        event, token = _event_of(client, tables, rounds)
        views.kept = type(views.kept)(views.kept.size)
        with app.app_context(), counted(app) as statements:
            view = events.get_event(event, token)
        assert [len(r.tables) for r in view.rounds] == [tables] * rounds
        counts.append(statements)
    assert len(counts[0]) == len(counts[1]), counts


def test_a_round_start_reads_its_clock_once_for_its_tables_first_bodies(
        app: Any, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The new tables' first bodies are made as the round starts, each with the round's
    # clock: one read of it serves all six.
    events = app.extensions["segnapunti.events"]
    asked: list[tuple[str, int]] = []
    clock = events.round_clock

    def counting(event_id: str, number: int) -> Any:
        asked.append((event_id, number))
        return clock(event_id, number)

    monkeypatch.setattr(events, "round_clock", counting)
    event, _token = _event_of(client, 6, 1)
    assert asked == [(event, 1)]
