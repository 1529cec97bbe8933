"""Clubs and their members, clause by clause of docs/clubs.md: "Resources",
"Words" (a member's name unique in the club, compared case- and accent-insensitively; a
rename keeps the member; a merge kept in the history and undoable), "Privacy" (forgetting),
"Bad input" (duplicates, a merge into itself: 422 naming the field, nothing stored)."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import assert_problem, auth

CLUBS = "/api/v1/clubs"


def found_club(client: Any, name: str = "Circolo del Giovedì") -> dict[str, Any]:
    response = client.post(CLUBS, json={"name": name})
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json
    return body


def add(client: Any, club: dict[str, Any], name: str, **extra: Any) -> Any:
    return client.post(f"{CLUBS}/{club['id']}/members", json={"name": name, **extra},
                       headers=auth(club["tokens"]["edit"]))


def member(client: Any, club: dict[str, Any], name: str, **extra: Any) -> dict[str, Any]:
    response = add(client, club, name, **extra)
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json
    return body


def roster(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(f"{CLUBS}/{club['id']}/members",
                          headers=auth(club["tokens"]["read"]))
    assert response.status_code == 200, response.json
    members: list[dict[str, Any]] = response.json["members"]
    return members


def history(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(f"{CLUBS}/{club['id']}/history",
                          headers=auth(club["tokens"]["read"]))
    assert response.status_code == 200
    actions: list[dict[str, Any]] = response.json["actions"]
    return actions


def test_resources_a_club_is_founded_with_its_tokens_shown_once(client: Any) -> None:
    club = found_club(client)
    assert set(club) >= {"id", "name", "tokens", "links", "members", "version"}
    assert club["name"] == "Circolo del Giovedì" and club["members"] == []
    assert club["tokens"]["edit"] != club["tokens"]["read"]
    read = client.get(f"{CLUBS}/{club['id']}", headers=auth(club["tokens"]["read"]))
    assert read.status_code == 200 and "tokens" not in read.json
    assert read.headers["Club-Access"] == "read"
    again = client.get(f"{CLUBS}/{club['id']}/links", headers=auth(club["tokens"]["edit"]))
    assert again.status_code == 200
    assert again.json["tokens"]["read"] == club["tokens"]["read"]
    assert_problem(client.get(f"{CLUBS}/{club['id']}/links",
                              headers=auth(club["tokens"]["read"])), 403)
    assert client.post(CLUBS, json={"name": "x"}).headers["Cache-Control"] == "no-store"


def test_resources_the_club_and_its_roster_answer_304_while_unchanged(client: Any) -> None:
    club = found_club(client)
    for path in ("", "/members"):
        url = f"{CLUBS}/{club['id']}{path}"
        first = client.get(url, headers=auth(club["tokens"]["read"]))
        tag = first.headers["ETag"]
        same = client.get(url, headers={**auth(club["tokens"]["read"]), "If-None-Match": tag})
        assert same.status_code == 304
        member(client, club, f"Anna {path}")
        moved = client.get(url, headers={**auth(club["tokens"]["read"]), "If-None-Match": tag})
        assert moved.status_code == 200 and moved.headers["ETag"] != tag


def test_words_a_member_has_a_name_initials_joined_and_active(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "  Anna\u200b  Maria ", initials="AM")
    assert anna["name"] == "Anna Maria" and anna["initials"] == "AM"
    assert anna["active"] is True and anna["status"] == "active" and anna["number"] == 1
    assert anna["joined_at"]
    assert [m["id"] for m in roster(client, club)] == [anna["id"]]


@pytest.mark.parametrize("again", ["NICOLÒ", "nicolo", "Nico\u200blò", "Nicolo\u0300",
                                   "Ｎｉｃｏｌò"])
def test_words_a_name_is_unique_in_the_club_case_and_accent_insensitively(
        client: Any, again: str) -> None:
    club = found_club(client)
    member(client, club, "Nicolò")
    refused = assert_problem(add(client, club, again), 422)
    assert [e["field"] for e in refused["errors"]] == ["name"]
    assert refused["errors"][0]["code"] == "duplicate_name"
    assert len(roster(client, club)) == 1 and len(history(client, club)) == 2


def test_words_a_name_refused_as_taken_names_the_member_as_the_roster_spells_it(
        client: Any) -> None:
    club = found_club(client)
    member(client, club, "Nicolò")
    refused = assert_problem(add(client, club, "NICOLO"), 422)
    message = refused["errors"][0]["message"]
    assert "'Nicolò'" in message and "NICOLO" not in message


def test_words_the_same_name_in_another_club_is_another_member(client: Any) -> None:
    member(client, found_club(client), "Anna")
    member(client, found_club(client, "Altro circolo"), "Anna")


def test_bad_input_every_problem_of_a_member_at_once_and_nothing_stored(client: Any) -> None:
    club = found_club(client)
    refused = assert_problem(add(client, club, "\u200b\u2060 ", initials="TOOLONG"), 422)
    assert {e["field"] for e in refused["errors"]} == {"name", "initials"}
    assert roster(client, club) == [] and len(history(client, club)) == 1


def test_words_renaming_keeps_the_member(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    url = f"{CLUBS}/{club['id']}/members/{anna['id']}"
    renamed = client.patch(url, json={"name": "Annalisa", "initials": "AL"},
                           headers=auth(club["tokens"]["edit"]))
    assert renamed.status_code == 200, renamed.json
    assert renamed.json["id"] == anna["id"] and renamed.json["name"] == "Annalisa"
    assert history(client, club)[-1]["data"] == {
        "member": anna["id"], "before": "Anna", "after": "Annalisa", "initials": "AL"}
    # A rename to one's own name in another case is no duplicate.
    assert client.patch(url, json={"name": "ANNALISA"},
                        headers=auth(club["tokens"]["edit"])).status_code == 200


def test_words_a_rename_to_another_members_name_is_refused(client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    bruno = member(client, club, "Bruno")
    refused = client.patch(f"{CLUBS}/{club['id']}/members/{bruno['id']}",
                           json={"name": "anna", "active": "no"},
                           headers=auth(club["tokens"]["edit"]))
    body = assert_problem(refused, 422)
    assert {e["field"] for e in body["errors"]} == {"name", "active"}
    assert [m["name"] for m in roster(client, club)] == ["Anna", "Bruno"]


def test_words_a_member_is_deactivated_and_reactivated(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    url = f"{CLUBS}/{club['id']}/members/{anna['id']}"
    off = client.patch(url, json={"active": False}, headers=auth(club["tokens"]["edit"]))
    assert off.json["status"] == "inactive"
    assert roster(client, club)[0]["active"] is False  # the roster keeps the inactive
    on = client.patch(url, json={"active": True}, headers=auth(club["tokens"]["edit"]))
    assert on.json["status"] == "active"


def test_a_change_with_a_stale_if_match_is_refused(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    url = f"{CLUBS}/{club['id']}/members/{anna['id']}"
    tag = client.get(url, headers=auth(club["tokens"]["read"])).headers["ETag"]
    edit = auth(club["tokens"]["edit"])
    assert client.patch(url, json={"initials": "A"},
                        headers={**edit, "If-Match": tag}).status_code == 200
    assert_problem(client.patch(url, json={"initials": "B"},
                                headers={**edit, "If-Match": tag}), 412)


def test_words_a_merge_is_kept_in_the_history_and_undoable(client: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    annina = member(client, club, "Annina")
    edit = auth(club["tokens"]["edit"])
    base = f"{CLUBS}/{club['id']}/members/{annina['id']}"
    merged = client.post(f"{base}/merge", json={"into": anna["id"]}, headers=edit)
    assert merged.status_code == 200, merged.json
    assert merged.json["status"] == "merged" and merged.json["merged_into"] == anna["id"]
    assert history(client, club)[-1]["action"] == "merge"
    # Merged, the name stays taken (the merge can be undone).
    assert_problem(add(client, club, "annina"), 422)
    assert_problem(client.post(f"{base}/merge", json={"into": anna["id"]}, headers=edit), 409)
    undone = client.post(f"{base}/unmerge", headers=edit)
    assert undone.status_code == 200, undone.json
    assert undone.json["status"] == "active" and undone.json["merged_into"] is None
    assert [a["action"] for a in history(client, club)][-2:] == ["merge", "unmerge"]
    assert_problem(client.post(f"{base}/unmerge", headers=edit), 409, code="not_merged")


@pytest.mark.parametrize("into", ["self", "unknown", "merged", 7, None])
def test_bad_input_a_merge_into_itself_or_no_member_is_422_on_into(
        client: Any, into: Any) -> None:
    club = found_club(client)
    anna = member(client, club, "Anna")
    bruno = member(client, club, "Bruno")
    carla = member(client, club, "Carla")
    edit = auth(club["tokens"]["edit"])
    if into == "merged":
        client.post(f"{CLUBS}/{club['id']}/members/{carla['id']}/merge",
                    json={"into": bruno["id"]}, headers=edit)
    target = {"self": anna["id"], "unknown": "zzzzzzzzzz", "merged": carla["id"]}.get(
        into, into) if isinstance(into, str) or into is None else into
    before = history(client, club)
    refused = assert_problem(client.post(f"{CLUBS}/{club['id']}/members/{anna['id']}/merge",
                                         json={"into": target}, headers=edit), 422)
    assert [e["field"] for e in refused["errors"]] == ["into"]
    assert history(client, club) == before


def test_privacy_a_forgotten_member_becomes_a_neutral_label_for_good(client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    bruno = client.post(f"{CLUBS}/{club['id']}/members",
                        json={"name": "Bruno Rossi", "initials": "BR"},
                        headers={**auth(club["tokens"]["edit"]), "Idempotency-Key": "b"}).json
    edit = auth(club["tokens"]["edit"])
    url = f"{CLUBS}/{club['id']}/members/{bruno['id']}"
    client.patch(url, json={"name": "Bruno Bianchi"}, headers=edit)
    forgotten = client.post(f"{url}/forget", headers=edit)
    assert forgotten.status_code == 200, forgotten.json
    assert forgotten.json["name"] == "Player 2" and forgotten.json["initials"] is None
    assert forgotten.json["status"] == "forgotten"
    assert_problem(client.post(f"{url}/forget", headers=edit), 409)
    assert_problem(client.patch(url, json={"name": "Bruno"}, headers=edit), 409)
    assert_problem(client.post(f"{url}/forget", headers=auth(club["tokens"]["read"])), 403)
    # Nowhere the old name: the history (this action and the earlier ones) and the exports.
    read = auth(club["tokens"]["read"])
    for suffix in ("/history", ".json", ".csv", "", "/members"):
        said = client.get(f"{CLUBS}/{club['id']}{suffix}", headers=read).get_data(as_text=True)
        assert "Bruno" not in said and "BR" not in said.replace("BRUNO", ""), suffix
    assert history(client, club)[-1]["action"] == "forget"
    # Nor in the first response kept for the Idempotency-Key that added him: sent again,
    # the request is refused (410), neither answered with his name nor run anew (which
    # would bring him back).
    again = client.post(f"{CLUBS}/{club['id']}/members",
                        json={"name": "Bruno Rossi", "initials": "BR"},
                        headers={**edit, "Idempotency-Key": "b"})
    assert_problem(again, 410, code="idempotency_replay_withdrawn")
    assert "Bruno" not in again.get_data(as_text=True)
    assert [m["id"] for m in roster(client, club)][-1] == bruno["id"]


def test_exports_the_roster_as_json_and_csv(client: Any) -> None:
    club = found_club(client)
    member(client, club, "=Anna", initials="A")
    read = auth(club["tokens"]["read"])
    exported = client.get(f"{CLUBS}/{club['id']}.json", headers=read)
    assert exported.status_code == 200 and exported.json["export"] == "club"
    assert exported.json["members"][0]["name"] == "=Anna" and exported.json["history"]
    assert exported.json["games"] == exported.json["results"] == exported.json["seasons"] == []
    sheet = client.get(f"{CLUBS}/{club['id']}.csv", headers=read).get_data(as_text=True)
    lines = sheet.splitlines()
    assert lines[0] == "number,id,name,initials,status,merged_into,joined_at"
    assert lines[1].split(",")[2] == "'=Anna"


def test_an_idempotency_key_adds_a_member_once(client: Any) -> None:
    club = found_club(client)
    headers = {**auth(club["tokens"]["edit"]), "Idempotency-Key": "k-1"}
    url = f"{CLUBS}/{club['id']}/members"
    first = client.post(url, json={"name": "Anna"}, headers=headers)
    again = client.post(url, json={"name": "Anna"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    assert len(roster(client, club)) == 1


def test_the_club_bodies_are_what_their_schemas_dump(client: Any) -> None:
    """Sent as built (``PassThroughSchema``): marshmallow's own dump gives them back."""
    from service.http.schemas.clubs import (
        ClubSchema,
        CreatedClubSchema,
        MemberSchema,
        MembersSchema,
    )

    club = found_club(client)
    assert CreatedClubSchema().field_dump(club) == club
    anna = member(client, club, "Anna", initials="A")
    assert MemberSchema().field_dump(anna) == anna
    read = auth(club["tokens"]["read"])
    body = client.get(f"{CLUBS}/{club['id']}", headers=read).json
    assert ClubSchema().field_dump(body) == body
    members = client.get(f"{CLUBS}/{club['id']}/members", headers=read).json
    assert MembersSchema().field_dump(members) == members


def test_a_change_that_lost_a_race_runs_again_from_a_fresh_read(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two secretaries add "Anna" and "ANNA" at once: the one whose write finds the club
    moved on is run again on the club as it is now, and gets the duplicate's 422 (not a
    409, nor two Annas)."""
    from service.application.clubs import ClubService

    club = found_club(client)
    stale = client.application.extensions["segnapunti.clubs"].repository.get_club(club["id"])
    member(client, club, "Anna")  # the other secretary's, after ``stale`` was read
    real = ClubService._load
    reads: list[int] = []

    def load(self: ClubService, club_id: str) -> Any:
        reads.append(1)
        return stale if len(reads) == 1 else real(self, club_id)

    monkeypatch.setattr(ClubService, "_load", load)
    body = assert_problem(add(client, club, "ANNA"), 422)
    assert body["errors"][0]["code"] == "duplicate_name" and len(reads) == 2
    monkeypatch.undo()
    assert [m["name"] for m in roster(client, club)] == ["Anna"]
