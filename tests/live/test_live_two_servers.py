"""Two servers on one database and one Redis, as two machines behind a proxy: on
PostgreSQL where the run has one (as deployed), else on one SQLite file.

A table's client alternates between them to record 200 hands with idempotency keys, sending
some hands twice (a retry after an answer lost on the way) to the other server: every hand is
there once, in order, and both servers give the game the same ETag. A client hammering both
is limited at the configured rate in total, not twice it. With Redis away (pointed at a port
where nothing listens) both servers go on serving, each counting on its own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_support import API, LiveServer, auth
from redis_support import CLOSED_PORT_URL, REDIS_URL, forget, needs_redis

HANDS = 200
BURST = 300  # requests a client may send in any 30 s (600 a minute)


def mitigatti_hand(number: int) -> dict[str, Any]:
    """Hand ``number`` (from 0) of a Mitigatti game of four, which has no last hand: the
    dealer calls the King of hearts with the next seat as partner."""
    dealer = number % 4
    return {"dealer": dealer,
            "contract": {"type": "call", "declarer": dealer, "called_card": "KH",
                         "partner": (dealer + 1) % 4},
            "piles": [{"side": 0, "tricks": 10 + number % 5,
                       "counting": ["T20", "KS", "QS", "CS", "JS"]}]}


def new_game(server: LiveServer) -> dict[str, Any]:
    return server.create_game(variant="mitigatti-4", players=("Anna", "Bruno", "Carla", "Dario"))


pytestmark = needs_redis


def _pair(db_url: str, workdir: Path, storage: str, prefix: str) -> list[LiveServer]:
    env = {"RATE_LIMIT_STORAGE_URL": storage, "RATE_LIMIT_KEY_PREFIX": prefix,
           "RATE_LIMIT_PER_MINUTE": "600", "RATE_LIMIT_BURST": str(BURST),
           # Each test client is 127.0.0.1: the hammer says which client it is, through the
           # one proxy the servers trust.
           "TRUSTED_PROXIES": "1"}
    servers = []
    for name in ("a", "b"):
        (workdir / name).mkdir(exist_ok=True)
        # Two servers of one worker each: two processes, which is what the shared limits
        # and the one database are about.
        servers.append(LiveServer(db_url, workdir / name, workers=1, env=env))
    # One migrates first, as compose's migration step does; the other finds it done.
    return [server.start() for server in servers]


@pytest.fixture()
def pair(one_db_url: str, tmp_path: Path) -> Iterator[tuple[list[LiveServer], str]]:
    prefix = f"live-{uuid.uuid4().hex}"
    servers = _pair(one_db_url, tmp_path, REDIS_URL, prefix)
    yield servers, prefix
    for server in servers:
        server.stop()
    forget(prefix)


def test_two_servers_keep_one_game_and_one_allowance(pair: tuple[list[LiveServer], str],
                                                     one_db_url: str, tmp_path: Path) -> None:
    servers, _ = pair
    game = new_game(servers[0])
    url, edit = f"{API}/games/{game['id']}/hands", auth(game["tokens"]["edit"])
    for n in range(HANDS):
        key = {"Idempotency-Key": str(uuid.uuid4())}
        first = servers[n % 2].call("POST", url, mitigatti_hand(n), {**edit, **key})
        assert first.status == 201, first
        if n % 10 == 9:  # the answer was lost: the same hand again, to the other server
            again = servers[(n + 1) % 2].call("POST", url, mitigatti_hand(n), {**edit, **key})
            assert again.status == 201 and again.header("Idempotent-Replayed") == "true"
            assert again.body["number"] == first.body["number"]
    reads = [server.call("GET", f"{API}/games/{game['id']}", headers=edit) for server in servers]
    assert [len(read.body["hands"]) for read in reads] == [HANDS, HANDS]
    assert [h["number"] for h in reads[0].body["hands"]] == list(range(1, HANDS + 1))
    assert reads[0].header("ETag") == reads[1].header("ETag")
    assert reads[0].body == reads[1].body

    # One client hammering both servers gets the allowance once, not once a server.
    phone = {"X-Forwarded-For": "198.51.100.23"}
    answers = [servers[i % 2].call("GET", f"{API}/variants", headers=phone).status
               for i in range(BURST + 50)]
    assert answers.count(200) == BURST
    assert set(answers[BURST:]) == {429}


def test_without_redis_both_servers_serve(one_db_url: str, tmp_path: Path) -> None:
    servers = _pair(one_db_url, tmp_path, CLOSED_PORT_URL, f"live-{uuid.uuid4().hex}")
    try:
        game = new_game(servers[0])
        edit = auth(game["tokens"]["edit"])
        for n, server in enumerate(servers * 2):
            reply = server.call("POST", f"{API}/games/{game['id']}/hands", mitigatti_hand(n),
                                edit)
            assert reply.status == 201, reply
        reads = [s.call("GET", f"{API}/games/{game['id']}", headers=edit) for s in servers]
        assert [len(r.body["hands"]) for r in reads] == [4, 4]
        assert "counting in this process's memory" in "".join(
            s.log_path.read_text() for s in servers)
    finally:
        for server in servers:
            server.stop()
