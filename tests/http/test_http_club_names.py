"""A club's members in the games they played: a merged member's games show the kept
member's name until the merge is undone ("Words": merged, "the merged member's games and
events then show the kept member's name"), and a forgotten member becomes "Player N" in
every game, event and export while the games stay whole: their statistics and rating go,
and everyone else's do not move at all ("Privacy")."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from http_support import API, auth
from pypdf import PdfReader
from test_http_club_links import club_event, play, results, started
from test_http_club_ratings import ratings
from test_http_club_stats import ok_stats
from test_http_clubs import CLUBS, found_club, member

GAMES = f"{API}/games"
EVENTS = f"{API}/events"


def players(client: Any, game: dict[str, Any]) -> list[str]:
    state = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"]))
    assert state.status_code == 200, state.json
    found: list[str] = state.json["players"]
    return found


def exported_players(client: Any, club: dict[str, Any]) -> dict[str, list[str]]:
    body = client.get(f"{CLUBS}/{club['id']}.json", headers=auth(club["tokens"]["read"])).json
    return {g["id"]: g["players"] for g in body["games"]}


def sheet_text(client: Any, game: dict[str, Any]) -> str:
    sheet = client.get(f"{GAMES}/{game['id']}/sheet.pdf", headers=auth(game["tokens"]["read"]))
    assert sheet.status_code == 200
    return " ".join(page.extract_text() for page in PdfReader(BytesIO(sheet.data)).pages)


def club_action(client: Any, club: dict[str, Any], member_id: str, action: str,
                **body: Any) -> None:
    done = client.post(f"{CLUBS}/{club['id']}/members/{member_id}/{action}",
                       headers=auth(club["tokens"]["edit"]), **({"json": body} if body else {}))
    assert done.status_code == 200, done.json


def test_words_a_merged_members_games_show_the_kept_name_until_the_merge_is_undone(
        client: Any) -> None:
    club = found_club(client)
    giovanni, giovani = member(client, club, "Giovanni"), member(client, club, "Giovani")
    old = started(client, club, [{"member": giovani["id"]}, "Anna", "Bruno"])
    play(client, old, 3)
    event = club_event(client, club, [{"name": {"member": giovani["id"]}}, {"name": "Anna"},
                                      {"name": "Bruno"}]).json
    reading = auth(event["tokens"]["read"])

    club_action(client, club, giovani["id"], "merge", into=giovanni["id"])
    assert players(client, old)[0] == "Giovanni"
    assert exported_players(client, club)[old["id"]][0] == "Giovanni"
    entrants = client.get(f"{EVENTS}/{event['id']}", headers=reading).json["entrants"]
    assert entrants[0]["name"] == "Giovanni"
    assert "Giovanni" in sheet_text(client, old) and "Giovani" not in sheet_text(client, old)

    # The kept member renamed: their merged games follow.
    renamed = client.patch(f"{CLUBS}/{club['id']}/members/{giovanni['id']}",
                           json={"name": "Gianni"}, headers=auth(club["tokens"]["edit"]))
    assert renamed.status_code == 200, renamed.json
    assert players(client, old)[0] == "Gianni"

    club_action(client, club, giovani["id"], "unmerge")
    assert players(client, old)[0] == "Giovani"
    assert exported_players(client, club)[old["id"]][0] == "Giovani"
    entrants = client.get(f"{EVENTS}/{event['id']}", headers=reading).json["entrants"]
    assert entrants[0]["name"] == "Giovani"
    assert "Giovani" in sheet_text(client, old)


def _everything(client: Any, club: dict[str, Any], members: list[str]) -> dict[str, Any]:
    """What each member's statistics and every family's ratings say."""
    return {"stats": {m: ok_stats(client, club, m) for m in members},
            "ratings": {f: ratings(client, club, f).json["ratings"] for f in ("gatti",)}}


def test_privacy_a_forgotten_member_leaves_every_game_whole_for_the_others(
        client: Any) -> None:
    """Four members in threes at gatti-3: Carla forgotten, her games stay games of three
    (not duels), the others' ratings and statistics are what they were to the last figure,
    she being "Player 3" where they met her; her own statistics and rating go."""
    club = found_club(client)
    anna, bruno, carla, dario = (member(client, club, n)["id"]
                                 for n in ("Anna", "Bruno", "Carla", "Dario"))
    tables = [(anna, bruno, carla), (carla, dario, anna), (bruno, carla, dario),
              (dario, anna, bruno), (carla, anna, dario), (anna, carla, bruno)]
    games = []
    for number, seated in enumerate(tables):
        game = started(client, club, [{"member": m} for m in seated])
        play(client, game, 3, counting_to=number % 3)
        games.append(game)
    others = [anna, bruno, dario]
    before = _everything(client, club, others)
    assert carla in {r["member"]["id"] for r in before["ratings"]["gatti"]}

    club_action(client, club, carla, "forget")

    after = _everything(client, club, others)
    assert str(after["stats"]).replace("Player 3", "Carla") == str(before["stats"])
    # The ratings table without her row: the others' ratings as they were (their places
    # close up where she stood above them).
    assert [{**r, "place": None} for r in after["ratings"]["gatti"]] == [
        {**r, "place": None} for r in before["ratings"]["gatti"] if r["member"]["id"] != carla]
    assert "Player 3" in str(after["stats"][anna])  # she is met, by her neutral name
    assert carla not in {r["member"]["id"] for r in after["ratings"]["gatti"]}
    gone = ok_stats(client, club, carla)
    assert (gone["games"], gone["families"]) == (0, [])
    rated = client.get(f"{CLUBS}/{club['id']}/members/{carla}/ratings?family=gatti",
                       headers=auth(club["tokens"]["read"])).json
    assert (rated["games"], rated["history"]) == (0, [])
    for game, seated in zip(games, tables, strict=True):
        assert [players(client, game)[seated.index(m)] for m in seated if m == carla] == [
            "Player 3"] * seated.count(carla)
    assert all("Carla" not in names for names in exported_players(client, club).values())
    assert carla not in {r["counted_for"] for r in results(client, club)}


def test_privacy_forgetting_a_merged_member_keeps_their_games_with_the_one_they_were(
        client: Any) -> None:
    """Dario, found to be Anna, merged into her, then his old name forgotten: his games stay
    Anna's (her statistics and everyone's ratings as they were, to the last figure, his seats
    still showing her name), and no reading says "Dario" any more."""
    club = found_club(client)
    anna, bruno, carla, dario = (member(client, club, n)["id"]
                                 for n in ("Anna", "Bruno", "Carla", "Dario"))
    tables = [(anna, bruno, carla), (dario, bruno, carla), (bruno, dario, carla),
              (carla, anna, bruno)]
    games = []
    for number, seated in enumerate(tables):
        game = started(client, club, [{"member": m} for m in seated])
        play(client, game, 3, counting_to=number % 3)
        games.append(game)
    merged = client.post(f"{CLUBS}/{club['id']}/members/{dario}/merge", json={"into": anna},
                         headers=auth(club["tokens"]["edit"]))
    assert merged.status_code == 200, merged.json
    before = _everything(client, club, [anna, bruno, carla])

    club_action(client, club, dario, "forget")

    assert _everything(client, club, [anna, bruno, carla]) == before
    for game, seated in zip(games, tables, strict=True):
        if dario in seated:
            assert players(client, game)[seated.index(dario)] == "Anna"
    assert all("Dario" not in names for names in exported_players(client, club).values())
    assert {r["counted_for"] for r in results(client, club)} == {anna, bruno, carla}
