"""A crash loses no acknowledged hand: writers start games and record hands against the real
server; in the middle of the load the server's master and workers are killed at once
(SIGKILL: no worker finishes its request, nothing is flushed on the way out). After a
restart on the same database every game and hand whose 201 a client received is there,
exactly as acknowledged, and every game is whole (hands 1..n, each with its history)."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path
from typing import Any

from live_support import API, LiveServer, auth, gatti3_hand
from sqlalchemy import text

from service.persistence import make_engine

WRITERS = 6
#: The server is killed once the load has this many acknowledged hands (while it goes on).
KILL_AFTER_HANDS = 60
#: How long the load may take to reach that many on a loaded machine (it is over as soon as
#: it has).
LOAD_TIMEOUT_S = 120.0


def _load(server: LiveServer, stop: threading.Event, acknowledged: list[Any],
          lock: threading.Lock) -> None:
    """Start games and record their hands until told to stop or the server is gone."""
    while not stop.is_set():
        try:
            created = server.call("POST", f"{API}/games",
                                  {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]})
            if created.status != 201:
                continue
            game = created.body
            with lock:
                acknowledged.append(("game", game["id"], game["tokens"]["edit"], game))
            for dealer in range(3):
                reply = server.call("POST", f"{API}/games/{game['id']}/hands",
                                    gatti3_hand(dealer, counting_to=dealer),
                                    auth(game["tokens"]["edit"]))
                if reply.status != 201:
                    break
                with lock:
                    acknowledged.append(("hand", game["id"], game["tokens"]["edit"],
                                         reply.body))
        except (OSError, http.client.HTTPException):
            time.sleep(0.01)  # the server is gone: wait to be told to stop


def _check(server: LiveServer, acknowledged: list[Any]) -> None:
    """Every acknowledged game and hand is there as acknowledged; every game is whole."""
    hands: dict[str, dict[int, Any]] = {}
    tokens: dict[str, str] = {}
    for kind, game_id, token, body in acknowledged:
        tokens[game_id] = token
        if kind == "hand":
            hands.setdefault(game_id, {})[body["number"]] = body
    for game_id, token in tokens.items():
        state = server.call("GET", f"{API}/games/{game_id}", headers=auth(token))
        assert state.status == 200, (game_id, state)
        stored = {hand["number"]: hand for hand in state.body["hands"]}
        assert sorted(stored) == list(range(1, len(stored) + 1)), (game_id, sorted(stored))
        for number, body in hands.get(game_id, {}).items():
            assert number in stored, (game_id, number)
            for field in ("version", "etag", "dealer", "record", "result", "created_at"):
                assert stored[number][field] == body[field], (game_id, number, field)
        history = server.call("GET", f"{API}/games/{game_id}/history", headers=auth(token))
        assert [(v["number"], v["action"]) for v in history.body["versions"]] == [
            (number, "create") for number in sorted(stored)
        ], game_id


def test_kill_9_during_a_write_load_loses_no_acknowledged_hand(
    db_url: str, tmp_path: Path
) -> None:
    server = LiveServer(db_url, tmp_path, workers=2).start()
    acknowledged: list[Any] = []
    lock = threading.Lock()
    stop = threading.Event()
    writers = [threading.Thread(target=_load, args=(server, stop, acknowledged, lock))
               for _ in range(WRITERS)]
    def hands_so_far() -> int:
        with lock:
            return sum(entry[0] == "hand" for entry in acknowledged)

    try:
        for writer in writers:
            writer.start()
        deadline = time.monotonic() + LOAD_TIMEOUT_S
        while hands_so_far() < KILL_AFTER_HANDS and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()  # in the middle of the load: the writers' next requests are in flight
    finally:
        stop.set()
        for writer in writers:
            writer.join(timeout=30)
    with lock:
        acknowledged = list(acknowledged)
    assert hands_so_far() >= KILL_AFTER_HANDS, "the load was too slow to be a load"

    server.start()  # migrates (nothing to do) and serves the same database
    try:
        _check(server, acknowledged)
    finally:
        server.stop()

    if db_url.startswith("sqlite"):
        engine = make_engine(db_url)
        try:
            with engine.connect() as connection:
                assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        finally:
            engine.dispose()

    log = server.log_path.read_text()
    assert server.starts == 2 and "Serving on http" in log  # the server's own line
    for entry in acknowledged:
        assert entry[2] not in log  # no token in the server's logs
