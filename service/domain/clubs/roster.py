"""A club's roster (docs/clubs.md#words, #privacy, #bad-input): what a club's name
and a member's name and initials must be, how two members' names are told apart, what a
forgotten member is called, and the checks of a merge. Standard library only.

Names are compared the way a person would: ``name_key`` without accents (NFKC, invisible
characters out, spaces made one, case-folded, accents stripped), so "Nicolò", "NICOLO" and
"Nico\u200blò" are one name in a club. The name shown is kept as typed, in NFC, without its
invisible characters and with its spaces made one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import Problem, ProblemList, RecordInvalid
from ..core.text import Text, name_key, visible

#: The longest club or member name, in characters (as an event's names).
CLUB_NAME_MAX = 60
#: The longest initials.
INITIALS_MAX = 4
#: The most members a club keeps (merged and forgotten ones included).
MEMBERS_MAX = 1000
#: The label a forgotten member gets, with their number in the club.
FORGOTTEN_LABEL = "Player {n}"


def member_key(name: str) -> str:
    """What two members' names share when they are one name in the club: case- and
    accent-insensitive, invisible characters removed (docs/clubs.md#words)."""
    return name_key(name, accents=False)


def forgotten_label(number: int) -> str:
    """The neutral name a forgotten member is shown by ("Player 17", docs/clubs.md#privacy)."""
    return FORGOTTEN_LABEL.format(n=number)


def _shown(raw: str) -> str:
    return unicodedata.normalize("NFC", visible(raw))


def _has_control(raw: str) -> bool:
    return any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in raw)


def _name(raw: object, field: str, problems: ProblemList) -> str | None:
    """A name as it is shown, or None with every problem of it: missing or not text, nothing
    a reader can see (only spaces and invisible characters), too long, control characters."""
    if not isinstance(raw, str) or not member_key(raw):
        problems.add(field, "missing_name", Text(
            "give a name a reader can see (not only spaces or invisible characters)"))
        return None
    name = _shown(raw)
    bad = False
    if len(name) > CLUB_NAME_MAX:
        problems.add(field, "name_too_long", Text(
            "a name is at most {n} characters, not {length}", n=CLUB_NAME_MAX,
            length=len(name)))
        bad = True
    if _has_control(raw):
        problems.add(field, "control_character", Text("a name cannot hold control characters"))
        bad = True
    return None if bad else name


def _initials(raw: object, field: str, problems: ProblemList) -> str | None:
    """Initials as shown (None: none), with their problems."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not member_key(raw):
        problems.add(field, "missing_initials", Text(
            "initials are text a reader can see, or null for none"))
        return None
    initials = _shown(raw)
    if len(initials) > INITIALS_MAX or _has_control(raw):
        problems.add(field, "initials_invalid", Text(
            "initials are at most {n} characters, without control characters",
            n=INITIALS_MAX))
        return None
    return initials


def validate_club_name(raw: object) -> str:
    """The club's name as shown, or ``RecordInvalid`` naming ``name``."""
    problems = ProblemList()
    name = _name(raw, "name", problems)
    problems.raise_if_any()
    assert name is not None
    return name


@dataclass(frozen=True, slots=True)
class RosterName:
    """A member's name as the roster knows it: their id and the key it is compared by; the
    name as shown and what it looks like (its confusable skeleton), where a look-alike is
    refused."""

    member: str
    key: str
    name: str = ""
    looks: str = ""


@dataclass(frozen=True, slots=True)
class MemberChange:
    """What a new member or a change of one sets: only the fields given (``initials``
    given as None drops them)."""

    name: str | None = None
    initials: str | None = None
    initials_given: bool = False
    active: bool | None = None

    @property
    def key(self) -> str | None:
        return member_key(self.name) if self.name is not None else None


def validate_member(raw: Mapping[str, Any], roster: Iterable[RosterName], *,
                    member: str | None = None, new: bool,
                    looks: Callable[[str], str] | None = None) -> MemberChange:
    """A new member's fields (``new``) or a change to ``member`` (a PATCH: any of ``name``,
    ``initials``, ``active``), checked against the club's other names; every problem at
    once as ``RecordInvalid``. A name taken by another member of the club (however typed:
    case, accents, invisible characters) is ``duplicate_name`` on ``name``; one that looks
    like another member's (``looks``: what a name looks like, each ``RosterName.looks``) is
    ``looks_like_member``."""
    problems = ProblemList()
    name = None
    if new or "name" in raw:
        name = _name(raw.get("name"), "name", problems)
    initials = _initials(raw.get("initials"), "initials", problems) if "initials" in raw \
        else None
    active = raw.get("active")
    if "active" in raw and not isinstance(active, bool):
        problems.add("active", "not_a_boolean", Text("active is true or false"))
        active = None
    if "public" in raw and not isinstance(raw["public"], bool):
        problems.add("public", "not_a_boolean", Text("public is true or false"))
    if not new and not ({"name", "initials", "active", "public"} & set(raw)):
        problems.add("body", "nothing_to_change", Text(
            "say what changes: name, initials, active or public"))
    if name is not None:
        key = member_key(name)
        others = [r for r in roster if r.member != member]
        taken = next((r for r in others if r.key == key), None)
        if taken is not None:
            # The member named as the roster spells them ("Nicolò"), not as typed ("NICOLO").
            problems.add("name", "duplicate_name", Text(
                "the club already has a member named {name} (names are compared without "
                "case and accents)", name=repr(taken.name or name)))
        elif looks is not None:
            twin = look_alike(looks(name), others)
            if twin is not None:
                problems.add("name", "looks_like_member", looks_like(name, twin))
    problems.raise_if_any()
    return MemberChange(name, initials, "initials" in raw, active if "active" in raw else None)


def look_alike(looks: str, roster: Iterable[RosterName]) -> RosterName | None:
    """The member of ``roster`` whose name looks like ``looks`` (a confusable skeleton), if
    one does: "Аnna" with a Cyrillic А beside "Anna"."""
    return next((r for r in roster if r.looks == looks), None)


def looks_like(name: str, twin: RosterName) -> Text:
    """The words of a name refused as a look-alike of member ``twin``'s."""
    return Text("{name} looks like {member}, a member of the club: the same letters, some "
                "of them from another alphabet or symbols that look like them; choose a name "
                "that reads differently", name=repr(name), member=repr(twin.name))


def merge_problems(member: str, into: object, roster_ids: Mapping[str, str]) -> None:
    """The checks of merging ``member`` into ``into``: ``into`` names another member of the
    club that is neither merged nor forgotten (``roster_ids``: each such member's id to
    their state). ``RecordInvalid`` naming ``into``."""
    problems: list[Problem] = []
    if not isinstance(into, str) or not into:
        problems.append(Problem("into", "missing_member", Text(
            "say which member this one is merged into (their id)")))
    elif into == member:
        problems.append(Problem("into", "merge_into_itself", Text(
            "a member cannot be merged into itself")))
    elif roster_ids.get(into) != "member":
        problems.append(Problem("into", "unknown_member", Text(
            "the club has no member {member} to merge into (merged and forgotten members "
            "take no merge)", member=repr(into))))
    if problems:
        raise RecordInvalid(problems)


__all__ = ["CLUB_NAME_MAX", "INITIALS_MAX", "MEMBERS_MAX", "MemberChange", "RosterName",
           "forgotten_label", "look_alike", "looks_like", "member_key", "merge_problems",
           "validate_club_name", "validate_member"]
