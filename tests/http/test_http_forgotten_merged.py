"""Privacy: a member merged into another was found to be that person, so their name is that
person's too. Forgetting the person forgets it with them: the merged member becomes
"Player N" (their own number) in the roster, their games, the history and the exports."""

from __future__ import annotations

from typing import Any

from http_support import auth
from test_http_club_links import GAMES, started
from test_http_clubs import CLUBS, found_club, member


def test_privacy_a_member_merged_into_a_forgotten_one_is_forgotten_with_them(
        client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    game = started(client, club, ["Annetta", "Bruno", "Carla"])
    annetta = game["club"]["members"][0]
    edit, read = auth(club["tokens"]["edit"]), auth(club["tokens"]["read"])
    base = f"{CLUBS}/{club['id']}/members"
    merged = client.post(f"{base}/{annetta}/merge", json={"into": anna["id"]}, headers=edit)
    assert merged.status_code == 200, merged.json
    forgot = client.post(f"{base}/{anna['id']}/forget", headers=edit)
    assert forgot.status_code == 200, forgot.json
    roster = {m["id"]: m for m in client.get(base, headers=read).json["members"]}
    assert (roster[annetta]["name"], roster[annetta]["status"]) == ("Player 2", "forgotten")
    # Annetta's seat counts for Anna, whom she was found to be: it shows Anna's "Player 1".
    seats = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"])).json
    assert seats["players"][0] == "Player 1"
    for suffix in ("/history", ".json", ".csv", "/members"):
        said = client.get(f"{CLUBS}/{club['id']}{suffix}", headers=read).get_data(as_text=True)
        assert "Annetta" not in said and "Anna" not in said, suffix
    actions = client.get(f"{CLUBS}/{club['id']}/history", headers=read).json["actions"]
    assert [a["data"] for a in actions if a["action"] == "forget"] == [
        {"member": anna["id"], "number": 1},
        {"member": annetta, "number": 2, "with": anna["id"]}]
