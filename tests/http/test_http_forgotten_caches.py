"""Privacy, as caches see it: a member renamed or forgotten is named anew in every resource of
the club that names them, and every entity tag of such a resource moves with its body, so a
phone holding the old tag gets the new body (never a 304 that keeps the old name for good).

The sweep walks every resource that sends an ``ETag`` (a club game and its hands, sheet and
exports; an event of the club, its standings and its table's game and hand; the club, its
roster, a member, a season's standings, the ratings, a member's ratings and statistics)
through a rename and then a forget of a member who sat in the game and entered the event."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import auth
from test_http_club_links import EVENTS, GAMES, club_event, play, started
from test_http_club_seasons import open_season
from test_http_clubs import CLUBS, found_club

#: What a reader sends: the languages each representation is read in (a tag names one).
LANGUAGES = ("en", "it")


def resources(client: Any, club: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Every ETagged resource naming Anna, by a label: its URL and the token that reads it.
    Anna sits in a finished club game and in a club event whose first table has a hand."""
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    anna = game["club"]["members"][0]
    bruno = game["club"]["members"][1]
    event = club_event(client, club, [{"name": {"member": anna}}, {"name": "Bruno"},
                                      {"name": "Carla"}]).json
    table = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                        headers=auth(event["tokens"]["edit"])).json["tables"][0]
    play(client, {"id": table["game"], "tokens": table["tokens"]}, 1)
    season = open_season(client, club).json
    game_read, event_read, table_read = (game["tokens"]["read"], event["tokens"]["read"],
                                         table["tokens"]["read"])
    club_read = club["tokens"]["read"]
    g, t, c = f"{GAMES}/{game['id']}", f"{GAMES}/{table['game']}", f"{CLUBS}/{club['id']}"
    return {
        "game": (g, game_read),
        "hand": (f"{g}/hands/1", game_read),
        "sheet": (f"{g}/sheet.pdf", game_read),
        "sheet, detailed": (f"{g}/sheet.pdf?detail=1", game_read),
        "game export": (f"{g}.json", game_read),
        "game csv": (f"{g}.csv", game_read),
        "event": (f"{EVENTS}/{event['id']}", event_read),
        "event standings": (f"{EVENTS}/{event['id']}/standings", event_read),
        "table's game": (t, table_read),
        "table's hand": (f"{t}/hands/1", table_read),
        "club": (c, club_read),
        "roster": (f"{c}/members", club_read),
        "member": (f"{c}/members/{anna}", club_read),
        "season standings": (f"{c}/seasons/{season['id']}/standings", club_read),
        "ratings": (f"{c}/ratings?family=gatti", club_read),
        "member's ratings": (f"{c}/members/{anna}/ratings?family=gatti", club_read),
        "member's stats": (f"{c}/members/{anna}/stats", club_read),
        "partner's stats": (f"{c}/members/{bruno}/stats", club_read),
    }


def read_all(client: Any, found: dict[str, tuple[str, str]]) -> dict[tuple[str, str], Any]:
    out = {}
    for label, (url, token) in found.items():
        for lang in LANGUAGES:
            response = client.get(url, headers={**auth(token), "Accept-Language": lang})
            assert response.status_code == 200, (label, response.json)
            assert response.headers.get("ETag"), label
            out[label, lang] = response
    return out


def assert_tags_moved_with_bodies(client: Any, found: dict[str, tuple[str, str]],
                                  before: dict[tuple[str, str], Any], old_name: str) -> None:
    stale = []
    for (label, lang), first in before.items():
        url, token = found[label]
        headers = {**auth(token), "Accept-Language": lang}
        again = client.get(url, headers={**headers, "If-None-Match": first.headers["ETag"]})
        now = client.get(url, headers=headers)
        if now.status_code != 200:
            # Gone with the member (their statistics): the old tag opens nothing either.
            assert again.status_code == now.status_code, label
            continue
        if now.get_data() == first.get_data():
            continue
        if (again.status_code == 304 or now.headers["ETag"] == first.headers["ETag"]
                or old_name.encode() in now.get_data()):
            stale.append((label, lang))
    assert stale == []


@pytest.mark.parametrize("change", ["rename", "forget"])
def test_privacy_every_entity_tag_moves_when_a_members_name_does(client: Any,
                                                                 change: str) -> None:
    club = found_club(client)
    found = resources(client, club)
    before = read_all(client, found)
    anna = found["member"][0].rsplit("/", 1)[1]
    edit = auth(club["tokens"]["edit"])
    if change == "rename":
        done = client.patch(f"{CLUBS}/{club['id']}/members/{anna}", json={"name": "Annamaria"},
                            headers=edit)
    else:
        done = client.post(f"{CLUBS}/{club['id']}/members/{anna}/forget", headers=edit)
    assert done.status_code == 200, done.json
    changed = [label for (label, lang), first in before.items() if lang == "en"
               and client.get(found[label][0], headers=auth(found[label][1])).get_data()
               != first.get_data()]
    # Every one of them names her, so every one of them changed.
    assert sorted(changed) == sorted(found)
    assert_tags_moved_with_bodies(client, found, before, "Anna\"")


def test_a_hands_entity_tag_moves_with_the_language_its_lines_are_said_in(client: Any) -> None:
    """A hand's lines are said in the reader's language: the Italian body is not the English
    one, so it has a tag of its own (an Italian reader holding the English tag gets the
    Italian body, not a 304); ``If-Match`` takes the tag of either to correct the hand."""
    game = started(client, found_club(client), ["Anna", "Bruno", "Carla"])
    play(client, game, 1)
    url, read = f"{GAMES}/{game['id']}/hands/1", auth(game["tokens"]["read"])
    english = client.get(url, headers={**read, "Accept-Language": "en"})
    italian = client.get(url, headers={**read, "Accept-Language": "it"})
    assert english.get_data() != italian.get_data()
    assert english.headers["ETag"] != italian.headers["ETag"]
    switched = client.get(url, headers={**read, "Accept-Language": "it",
                                        "If-None-Match": english.headers["ETag"]})
    assert switched.status_code == 200 and switched.get_data() == italian.get_data()
    kept = client.get(url, headers={**read, "Accept-Language": "it",
                                    "If-None-Match": italian.headers["ETag"]})
    assert kept.status_code == 304
    record = {**english.json["record"]}
    corrected = client.put(url, json=record, headers={
        **auth(game["tokens"]["edit"]), "Accept-Language": "it",
        "If-Match": italian.headers["ETag"]})
    assert corrected.status_code == 200, corrected.json
