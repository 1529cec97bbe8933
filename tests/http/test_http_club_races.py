"""A club's member changes are serialised: whatever the order in which two of them reach the
database, the club ends as one of them done after the other leaves it. Threads hit the app
at once (on PostgreSQL, where requests truly write in parallel; on SQLite too, whose writes
take turns), many times over, and each end state is checked against the sequential rules."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from http_support import auth
from test_http_clubs import CLUBS, found_club, member

TRIALS = 5


def at_once(app: Any, *requests: tuple[str, str, dict[str, Any] | None, str]) -> list[int]:
    """Each request (method, URL, JSON body, token) from a thread of its own, let go
    together; their statuses."""
    barrier = threading.Barrier(len(requests))

    def send(method: str, url: str, body: dict[str, Any] | None, token: str) -> int:
        client = app.test_client()
        barrier.wait(timeout=10)
        response = client.open(url, method=method, json=body, headers=auth(token))
        return int(response.status_code)

    with ThreadPoolExecutor(len(requests)) as pool:
        return [f.result(timeout=30) for f in [pool.submit(send, *r) for r in requests]]


def test_a_clubs_member_changes_at_once_each_end_as_if_made_in_turn(app: Any,
                                                                     client: Any) -> None:
    """Twelve changes to one club's roster at once (new members, renames, forgetting Anna
    while Dario is merged into her), five times over: each is done as it would be in turn
    (none answered 409 because another got there first), and the forget and the merge end in
    one of their two orders: the merge refused (Anna already forgotten), or done before it,
    and Dario forgotten with her; never a live member merged into a forgotten one."""
    for _ in range(TRIALS):
        club = found_club(client)
        edit = club["tokens"]["edit"]
        base = f"{CLUBS}/{club['id']}/members"
        anna, dario = member(client, club, "Anna"), member(client, club, "Dario")
        renamed = [member(client, club, f"Socio {i}")["id"] for i in range(4)]
        statuses = at_once(
            app, ("POST", f"{base}/{anna['id']}/forget", None, edit),
            ("POST", f"{base}/{dario['id']}/merge", {"into": anna["id"]}, edit),
            *[("PATCH", f"{base}/{m}", {"name": f"Nuovo {i}"}, edit)
              for i, m in enumerate(renamed)],
            *[("POST", base, {"name": f"Ospite {i}"}, edit) for i in range(6)])
        forgot, merged, renames, adds = statuses[0], statuses[1], statuses[2:6], statuses[6:]
        assert (forgot, renames, adds) == (200, [200] * 4, [201] * 6), statuses
        read = auth(club["tokens"]["read"])
        roster = {m["id"]: m for m in client.get(base, headers=read).json["members"]}
        actions = [a["action"] for a in client.get(f"{CLUBS}/{club['id']}/history",
                                                   headers=read).json["actions"]]
        assert roster[anna["id"]]["status"] == "forgotten"
        if merged == 200:
            # The merge first: Dario, found to be Anna, is forgotten with her.
            assert actions.index("merge") < actions.index("forget")
            assert roster[dario["id"]]["status"] == "forgotten"
            assert roster[dario["id"]]["name"] == "Player 2"
        else:
            assert merged == 422 and "merge" not in actions, statuses
            assert roster[dario["id"]]["status"] == "active"
        assert len(roster) == 12 and len(actions) == 18 + 2 * (merged == 200)
