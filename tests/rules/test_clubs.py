"""docs/clubs.md's rules of a roster, in the rules core: "Words" (a member's
name unique in the club, compared case- and accent-insensitively, NFC), "Bad input"
(duplicates after normalization, a merge into itself: each field named, all at once),
"Privacy" (the forgotten's neutral label)."""

from __future__ import annotations

import pytest

from service.domain import (
    RecordInvalid,
    RosterName,
    forgotten_label,
    member_key,
    merge_problems,
    name_key,
    validate_member,
)


@pytest.mark.parametrize("typed", ["Nicolò", "NICOLÒ", "nicolo", "Nico\u200blò",
                                   "Nicolo\u0300", "Ｎｉｃｏｌò", "  Nicolò "])
def test_words_member_names_compare_case_and_accent_insensitively(typed: str) -> None:
    assert member_key(typed) == member_key("Nicolò") == "nicolo"


def test_words_events_keep_comparing_names_with_their_accents() -> None:
    """The accent-insensitive key is the clubs' alone: an event's José and Jose stay two."""
    assert name_key("José") != name_key("Jose")
    assert name_key("José", accents=False) == name_key("Jose", accents=False)
    assert name_key("JOSE\u0301") == name_key("josé")


def test_words_the_name_shown_is_nfc_without_invisible_characters() -> None:
    change = validate_member({"name": "  Jose\u0301\u200b  Rossi "}, [], new=True)
    assert change.name == "José Rossi"


def test_bad_input_a_duplicate_after_normalization_is_named_on_name() -> None:
    roster = [RosterName("a", member_key("Anna"))]
    with pytest.raises(RecordInvalid) as refused:
        validate_member({"name": "ÀNNA"}, roster, new=True)
    assert [(p.field, p.code) for p in refused.value.problems] == [("name", "duplicate_name")]


def test_bad_input_a_members_own_name_retyped_is_no_duplicate() -> None:
    roster = [RosterName("a", member_key("Anna"))]
    assert validate_member({"name": "anna"}, roster, member="a", new=False).name == "anna"


def test_bad_input_every_problem_at_once() -> None:
    with pytest.raises(RecordInvalid) as refused:
        validate_member({"name": "\u200b\u2060", "initials": "ABCDE", "active": "yes"}, [],
                        member="a", new=False)
    assert {p.field for p in refused.value.problems} == {"name", "initials", "active"}


@pytest.mark.parametrize("name", ["", " ", "\u200b", "\u2060\ufeff", "\u3164"])
def test_bad_input_a_name_only_of_invisible_characters_is_refused(name: str) -> None:
    with pytest.raises(RecordInvalid) as refused:
        validate_member({"name": name}, [], new=True)
    assert refused.value.problems[0].code == "missing_name"


def test_bad_input_merging_a_member_into_itself() -> None:
    with pytest.raises(RecordInvalid) as refused:
        merge_problems("a", "a", {"a": "member"})
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("into", "merge_into_itself")]


@pytest.mark.parametrize("state", ["merged", "forgotten", None])
def test_words_a_merge_is_into_a_member_on_the_roster(state: str | None) -> None:
    roster = {"a": "member"} | ({"b": state} if state else {})
    with pytest.raises(RecordInvalid):
        merge_problems("a", "b", roster)
    merge_problems("a", "b", {"a": "member", "b": "member"})


def test_privacy_a_forgotten_member_is_player_and_their_number() -> None:
    assert forgotten_label(17) == "Player 17"
