"""A club's ratings kept as its games finish ("Ratings": "recomputed from the results in the
order the games finished, so a correction to an old game changes every later rating the
same way every time"): after any sequence of games finishing, old games corrected or made
to count no more, merges, their undoing and forgets, the ratings kept are exactly openskill's
over every counted game in finishing order, recomputed from nothing."""

from __future__ import annotations

import random
from typing import Any

from http_support import API, auth, gatti3_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from test_http_club_links import play, started
from test_http_clubs import CLUBS, found_club, member

from service.application.clubs import ClubService
from service.application.ratings import matches_of, rate_matches

GAMES = f"{API}/games"
ACTIONS = ("finish", "finish", "finish", "correct", "uncount", "merge", "unmerge", "forget")


def kept_and_replayed(client: Any, club: dict[str, Any]) -> tuple[Any, Any]:
    """The ratings table as the service keeps it, and a recomputation from every counted
    game (the forgotten left out of the table, as the service leaves them): each member's
    numbers exactly, and how many games are rated."""
    clubs: ClubService = client.application.extensions["segnapunti.clubs"]
    _, kept = clubs.ratings(club["id"], club["tokens"]["read"], "gatti")
    forgotten = {m.id for m in clubs.repository.get_club(club["id"]).members if m.forgotten}
    matches = matches_of(clubs.repository.club_results(club["id"]))
    whole = rate_matches(matches).get("gatti")
    rows = [r for r in whole.members if r.member not in forgotten] if whole else []

    def said(rows: Any) -> list[tuple[Any, ...]]:
        return [(r.member, r.mu, r.sigma, r.games, r.last_change, r.last_game,
                 r.last_played) for r in rows]

    return (said(kept.members), kept.games), (said(rows), len(matches))


class Club:
    """A club of six members and two aliases (to merge into the member they are), playing
    gatti-3 games; what it did, to choose what it can still do."""

    def __init__(self, client: Any, draw: random.Random) -> None:
        self.client, self.draw = client, draw
        self.club = found_club(client)
        self.members = [member(client, self.club, n)["id"]
                        for n in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco",
                                  "Ann", "Brunetto")]
        self.games: list[tuple[dict[str, Any], tuple[str, ...]]] = []
        self.merged: dict[str, str] = {}
        self.forgotten: set[str] = set()

    def edit(self, member_id: str, action: str, **body: Any) -> Any:
        return self.client.post(f"{CLUBS}/{self.club['id']}/members/{member_id}/{action}",
                                headers=auth(self.club["tokens"]["edit"]),
                                **({"json": body} if body else {}))

    def seatable(self) -> list[str]:
        return [m for m in self.members if m not in self.merged and m not in self.forgotten]

    def do(self, action: str) -> None:
        draw = self.draw
        if action == "finish" or not self.games:
            seated = tuple(draw.sample(self.seatable(), 3))
            game = started(self.client, self.club, [{"member": m} for m in seated])
            play(self.client, game, 3, counting_to=draw.randrange(3))
            self.games.append((game, seated))
        elif action == "correct":
            game, _ = draw.choice(self.games)
            put = self.client.put(f"{GAMES}/{game['id']}/hands/2", json=gatti3_hand(
                1, counting_to=draw.randrange(3)),
                headers={**auth(game["tokens"]["edit"]), "If-Match": "*"})
            assert put.status_code in (200, 404, 409, 422), put.json
        elif action == "uncount":
            game, _ = draw.choice(self.games)
            gone = self.client.delete(f"{GAMES}/{game['id']}/hands/3",
                                      headers={**auth(game["tokens"]["edit"]), "If-Match": "*"})
            assert gone.status_code in (204, 404, 409), gone.json
        elif action == "merge":
            pairs = [(a, b) for a in self.seatable() for b in self.seatable() if a != b
                     and not any(a in s and b in s for _, s in self.games)]
            if pairs:
                alias, into = draw.choice(pairs)
                assert self.edit(alias, "merge", into=into).status_code == 200
                self.merged[alias] = into
        elif action == "unmerge" and self.merged:
            alias = draw.choice(sorted(self.merged))
            if self.merged[alias] not in self.forgotten:
                assert self.edit(alias, "unmerge").status_code == 200
                del self.merged[alias]
        elif action == "forget" and len(self.seatable()) > 4:
            gone = draw.choice(self.seatable())
            assert self.edit(gone, "forget").status_code == 200
            self.forgotten.add(gone)


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(actions=st.lists(st.sampled_from(ACTIONS), min_size=6, max_size=10),
       seed=st.integers(0, 2**16))
def test_ratings_kept_are_a_recomputation_in_finishing_order_after_any_change(
        client: Any, actions: list[str], seed: int) -> None:
    club = Club(client, random.Random(seed))
    for action in actions:
        club.do(action)
        kept, replayed = kept_and_replayed(client, club.club)
        assert kept == replayed, action


def test_ratings_are_read_as_kept_not_recomputed_from_the_games(client: Any) -> None:
    """Reading the ratings after a game finished reads the ratings as they stand, not the
    club's results (the games are rated as they finish, each one once)."""
    draw = Club(client, random.Random(7))
    for _ in range(4):
        draw.do("finish")
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = client.application.extensions["segnapunti.games"].repository.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = client.get(f"{CLUBS}/{draw.club['id']}/ratings?family=gatti",
                            headers=auth(draw.club["tokens"]["read"]))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert answer.status_code == 200 and answer.json["games"] == 4
    assert statements and not any("club_results" in s for s in statements)
