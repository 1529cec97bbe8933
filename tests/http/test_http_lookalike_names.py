"""Bad input: a name that looks like another is refused where names are told apart. "Аnna"
with a Cyrillic А reads as "Anna" though no comparison of letters finds them equal: a club
would keep two members that nobody can tell apart, an event two entrants. Two names whose
confusable skeletons (Unicode's, UTS #39) are equal are refused, naming the field and the
name it looks like, in the request's language."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields
from test_http_club_links import EVENTS, club_event, club_game
from test_http_clubs import CLUBS, add, found_club, member, roster

#: "Anna" with a Cyrillic А (U+0410), "Marta" with a Cyrillic а (U+0430), "Paolo" with a
#: Greek ο, "Marco" with "rn" for its "m".
CYRILLIC_ANNA = "\u0410nna"
LOOK_ALIKES = [("Anna", CYRILLIC_ANNA), ("Marta", "M\u0430rta"), ("Paolo", "Pa\u03bflo"),
               ("marco", "Rnarco")]


@pytest.mark.parametrize(("name", "twin"), LOOK_ALIKES)
def test_bad_input_a_new_member_that_looks_like_a_member_is_refused(
        client: Any, name: str, twin: str) -> None:
    club = found_club(client)
    member(client, club, name)
    body = assert_problem(add(client, club, twin), 422)
    assert error_fields(body) == {"name": "looks_like_member"}
    assert repr(name) in body["errors"][0]["message"]
    assert [m["name"] for m in roster(client, club)] == [name]


def test_bad_input_the_refusal_names_the_member_in_the_requests_language(client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    response = client.post(f"{CLUBS}/{club['id']}/members", json={"name": CYRILLIC_ANNA},
                           headers={**auth(club["tokens"]["edit"]), "Accept-Language": "it"})
    body = assert_problem(response, 422)
    message = body["errors"][0]["message"]
    assert "'Anna'" in message and "somiglia" in message


def test_bad_input_a_rename_to_a_look_alike_of_another_member_is_refused(client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    bruno = member(client, club, "Bruno")
    renamed = client.patch(f"{CLUBS}/{club['id']}/members/{bruno['id']}",
                           json={"name": CYRILLIC_ANNA}, headers=auth(club["tokens"]["edit"]))
    assert error_fields(assert_problem(renamed, 422)) == {"name": "looks_like_member"}
    assert [m["name"] for m in roster(client, club)] == ["Anna", "Bruno"]
    # Names that read differently are still two people's.
    for other in ("Anne", "Hanna", "Annamaria"):
        assert add(client, club, other).status_code == 201, other


def test_bad_input_a_new_name_on_a_club_games_seat_that_looks_like_a_member_is_refused(
        client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    body = assert_problem(club_game(client, club, [CYRILLIC_ANNA, "Marta", "M\u0430rta"]), 422)
    assert error_fields(body) == {"players[0]": "looks_like_member",
                                  "players[2]": "looks_like_member"}
    assert [m["name"] for m in roster(client, club)] == ["Anna"]


def test_bad_input_a_new_name_among_a_club_events_entrants_that_looks_like_a_member(
        client: Any) -> None:
    club = found_club(client)
    member(client, club, "Anna")
    response = club_event(client, club, [{"name": CYRILLIC_ANNA}, {"name": "Bruno"},
                                         {"name": "Carla"}])
    assert error_fields(assert_problem(response, 422)) == {
        "entrants[0].name": "looks_like_member"}
    assert [m["name"] for m in roster(client, club)] == ["Anna"]


def test_bad_input_an_events_entrants_that_look_alike_are_refused(client: Any) -> None:
    body = {"name": "Giovedì", "variant": "gatti-3", "format": "individual",
            "entrants": [{"name": "Anna"}, {"name": "Bruno"}, {"name": CYRILLIC_ANNA}]}
    refused = assert_problem(client.post(EVENTS, json=body), 422)
    assert error_fields(refused) == {"entrants[2].name": "looks_like_entrant"}
    assert "'Anna'" in refused["errors"][0]["message"]
