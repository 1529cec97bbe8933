"""Real parallel clients on one game, against the real server (gunicorn, 4 worker processes)
on PostgreSQL (and SQLite): no duplicate hand, no lost update, no 5xx.

Each test releases its clients together (a barrier) so that their requests reach the workers
at the same moment."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from live_support import API, COUNTING, LiveServer, Reply, auth, gatti3_hand

CLIENTS = 8


def _together(calls: list[Any]) -> list[Reply]:
    """Run the calls in parallel threads, released at the same moment."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> Reply:
        barrier.wait()
        reply: Reply = call()
        return reply

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def _no_server_error(replies: list[Reply]) -> None:
    assert all(r.status < 500 for r in replies), [(r.status, r.body) for r in replies]


def test_the_same_next_hand_from_many_phones_is_recorded_once(server: LiveServer) -> None:
    game = server.create_game()
    url, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])
    replies = _together([
        (lambda c=client: server.call("POST", f"{url}/hands",
                                      gatti3_hand(0, counting_to=c % 3), edit))
        for client in range(CLIENTS)
    ])
    _no_server_error(replies)
    statuses = Counter(r.status for r in replies)
    assert statuses[201] == 1, statuses
    for reply in replies:
        if reply.status != 201:  # the dealer has moved on, or the game kept changing
            assert reply.status in {409, 422}, reply
            assert reply.body["code"] in {"record_invalid", "concurrent_change"}, reply.body
    [won] = [r for r in replies if r.status == 201]
    state = server.call("GET", url, headers=edit).body
    assert [h["number"] for h in state["hands"]] == [1]
    assert state["hands"][0]["record"] == won.body["record"]
    history = server.call("GET", f"{url}/history", headers=edit).body["versions"]
    assert [(v["number"], v["action"]) for v in history] == [(1, "create")]


def test_phones_racing_through_a_game_lose_no_acknowledged_hand(server: LiveServer) -> None:
    """Every client records hands until the game is finished, each with a record of its own,
    reading the next dealer again whenever it lost a race. Every hand acknowledged (201) is
    in the final game, as acknowledged; no number is taken twice."""
    game = server.create_game()
    url, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])
    barrier = threading.Barrier(CLIENTS)

    def play(client: int) -> list[Reply]:
        acknowledged: list[Reply] = []
        barrier.wait()
        for _ in range(40):
            state = server.call("GET", url, headers=edit).body
            if state["status"] == "finished":
                break
            record = gatti3_hand(state["next_dealer"], counting_to=client % 3,
                                 tricks=(10 - client % 3, 8, 8 + client % 3))
            reply = server.call("POST", f"{url}/hands", record, edit)
            assert reply.status in {201, 409, 422}, reply
            if reply.status == 201:
                acknowledged.append(reply)
        return acknowledged

    with ThreadPoolExecutor(CLIENTS) as pool:
        acknowledged = [r for replies in pool.map(play, range(CLIENTS)) for r in replies]
    state = server.call("GET", url, headers=edit).body
    assert state["status"] == "finished"
    numbers = sorted(r.body["number"] for r in acknowledged)
    assert numbers == [1, 2, 3]  # each number acknowledged exactly once
    stored = {h["number"]: h for h in state["hands"]}
    for reply in acknowledged:
        hand = stored[reply.body["number"]]
        assert (hand["record"], hand["etag"], hand["result"]) == (
            reply.body["record"], reply.body["etag"], reply.body["result"])
    history = server.call("GET", f"{url}/history", headers=edit).body["versions"]
    assert sorted(v["number"] for v in history) == [1, 2, 3]


def test_corrections_with_the_same_if_match_make_one_new_version(server: LiveServer) -> None:
    game = server.create_game()
    url, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])
    etag = server.call("POST", f"{url}/hands", gatti3_hand(0), edit).body["etag"]
    replies = _together([
        (lambda c=client: server.call(
            "PUT", f"{url}/hands/1",
            gatti3_hand(0, counting_to=1 + c % 2, tricks=(10 - c % 3, 8, 8 + c % 3)),
            {**edit, "If-Match": etag}))
        for client in range(CLIENTS)
    ])
    _no_server_error(replies)
    statuses = Counter(r.status for r in replies)
    assert statuses[200] == 1, statuses
    assert set(statuses) <= {200, 412, 409}, statuses
    [won] = [r for r in replies if r.status == 200]
    hand = server.call("GET", f"{url}/hands/1", headers=edit).body
    assert hand["version"] == 2
    assert hand["record"] == won.body["record"]  # the one acknowledged, not overwritten
    history = server.call("GET", f"{url}/history", headers=edit).body["versions"]
    assert [v["action"] for v in history] == ["create", "correct"]


def test_retries_with_one_idempotency_key_make_one_hand(server: LiveServer) -> None:
    game = server.create_game()
    url, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])
    headers = {**edit, "Idempotency-Key": "phone-1-hand-1-6b0f2c"}
    replies = _together([
        (lambda: server.call("POST", f"{url}/hands", gatti3_hand(0), headers))
        for _ in range(CLIENTS)
    ])
    _no_server_error(replies)
    assert [r.status for r in replies] == [201] * CLIENTS, [(r.status, r.body) for r in replies]
    assert all(r.body == replies[0].body for r in replies)
    assert sum(r.header("Idempotent-Replayed") == "true" for r in replies) == CLIENTS - 1
    state = server.call("GET", url, headers=edit).body
    assert len(state["hands"]) == 1


def test_retries_of_a_new_game_with_one_key_make_one_game(server: LiveServer) -> None:
    body = {"variant": "gatti-3", "players": ["Dario", "Elena", "Fabio"]}
    headers = {"Idempotency-Key": "phone-2-new-game-93ad71"}
    replies = _together([
        (lambda: server.call("POST", f"{API}/games", body, headers)) for _ in range(CLIENTS)
    ])
    _no_server_error(replies)
    assert [r.status for r in replies] == [201] * CLIENTS, [(r.status, r.body) for r in replies]
    assert len({r.body["id"] for r in replies}) == 1
    assert len({r.body["tokens"]["edit"] for r in replies}) == 1


def test_corrections_and_new_hands_at_once_lose_nothing(server: LiveServer) -> None:
    """One phone corrects hand 1 over and over while others record the next hands: every
    acknowledged write is in the final game (the last acknowledged correction is hand 1, every
    acknowledged new hand is there), and the writes that met a change of another part of the
    game were retried, not refused."""
    game = server.create_game(variant="gatti-4", players=("Anna", "Bruno", "Carla", "Dario"))
    url, edit = f"{API}/games/{game['id']}", auth(game["tokens"]["edit"])

    def gatti4_hand(dealer: int, side: int) -> dict[str, Any]:
        """Valid for gatti-4: 20 tricks (the discard of 2 counting as one), every counting card
        to ``side``."""
        piles = [{"side": s, "tricks": 11 if s == side else 9,
                  "counting": COUNTING if s == side else []} for s in (0, 1)]
        return {"dealer": dealer, "discard": ["2H", "3H"], "piles": piles}

    first = server.call("POST", f"{url}/hands", gatti4_hand(0, 0), edit)
    assert first.status == 201, first
    barrier = threading.Barrier(3)

    def correct() -> list[Reply]:
        done: list[Reply] = []
        barrier.wait()
        for attempt in range(12):
            etag = server.call("GET", f"{url}/hands/1", headers=edit).body["etag"]
            reply = server.call("PUT", f"{url}/hands/1", gatti4_hand(0, attempt % 2),
                                {**edit, "If-Match": etag})
            assert reply.status in {200, 412, 409}, reply
            if reply.status == 200:
                done.append(reply)
        return done

    def append() -> list[Reply]:
        done: list[Reply] = []
        barrier.wait()
        for _ in range(12):
            state = server.call("GET", url, headers=edit).body
            if state["status"] == "finished":
                break
            reply = server.call("POST", f"{url}/hands",
                                gatti4_hand(state["next_dealer"], len(done) % 2), edit)
            assert reply.status in {201, 409, 422}, reply
            if reply.status == 201:
                done.append(reply)
        return done

    with ThreadPoolExecutor(3) as pool:
        corrections = pool.submit(correct)
        appends = [pool.submit(append) for _ in range(2)]
        corrected = corrections.result()
        added = [reply for future in appends for reply in future.result()]
    assert corrected, "no correction got through"
    state = server.call("GET", url, headers=edit).body
    last = max(corrected, key=lambda reply: reply.body["version"])
    assert state["hands"][0]["record"] == last.body["record"]
    assert state["hands"][0]["version"] == last.body["version"] == 1 + len(corrected)
    stored = {hand["number"]: hand["record"] for hand in state["hands"]}
    assert sorted(reply.body["number"] for reply in added) == list(range(2, len(stored) + 1))
    for reply in added:
        assert stored[reply.body["number"]] == reply.body["record"]
