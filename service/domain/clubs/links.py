"""A game's seats or an event's entrants as members of a club
(docs/clubs.md#linking-results-to-members, #bad-input). Standard library only.

Each seat is ``{"member": id}`` (a member of the club, on its roster: not merged, not
forgotten) or a name. A name is the club's member of that name when it has one, compared as
the roster compares names (case, accents, invisible characters); a member merged into
another is the other one; else it becomes a new member of the club. A member sits at one
seat only. Every problem is named by its seat's field, all at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..core.errors import Problem, ProblemList
from ..core.text import Text
from .roster import RosterName, look_alike, looks_like, member_key
from .roster import _name as checked_name


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """A member as linking needs them."""

    id: str
    name: str
    key: str
    merged_into: str | None
    forgotten: bool


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """The seats as the club knows them: the name each shows (the member's name as it is
    now), the member at each (None where a new member is made: ``new`` gives their names by
    seat), and every problem."""

    names: tuple[str, ...]
    members: tuple[str | None, ...]
    new: tuple[tuple[int, str], ...]
    problems: tuple[Problem, ...]

    def with_new(self, ids: Mapping[int, str]) -> tuple[str | None, ...]:
        """The member at each seat once the new members have their ids (by seat)."""
        return tuple(ids.get(i, m) for i, m in enumerate(self.members))


def _problem(field: str, code: str, message: Text) -> Problem:
    return Problem(field, code, message)


def choose_members(seats: Sequence[tuple[str, object]],
                   roster: Sequence[RosterEntry],
                   looks: Callable[[str], str] | None = None) -> SeatChoice:
    """Each of ``seats`` (its field, as a problem names it, and what was sent) as a member
    of the club (see the module). With ``looks`` (what a name looks like: its confusable
    skeleton), a new name that looks like a member's, or like another new name of these
    seats, is ``looks_like_member`` on its seat."""
    known = ([RosterName(m.id, m.key, m.name, looks(m.name)) for m in roster]
             if looks is not None else [])
    by_id = {m.id: m for m in roster}
    by_key = {m.key: m for m in roster}
    names: list[str] = []
    members: list[str | None] = []
    new: list[tuple[int, str]] = []
    new_keys: dict[str, int] = {}
    problems: list[Problem] = []
    seated: dict[str, int] = {}
    places = [where for where, _ in seats]
    for i, (where, seat) in enumerate(seats):
        found = None
        if isinstance(seat, Mapping):
            ident = seat.get("member")
            found = by_id.get(ident) if isinstance(ident, str) else None
            if found is None or found.forgotten or found.merged_into is not None:
                problems.append(_seat_problem(where, ident, found))
                names.append(f"?{i}")
                members.append(None)
                continue
        elif isinstance(seat, str) and member_key(seat):
            found = by_key.get(member_key(seat))
            if found is not None and found.merged_into is not None:
                found = by_id.get(found.merged_into)
            if found is not None and found.forgotten:
                problems.append(_seat_problem(where, found.id, found))
                names.append(f"?{i}")
                members.append(None)
                continue
            if found is None:
                local = ProblemList()
                name = checked_name(seat, where, local)
                problems.extend(local.items)
                key = member_key(seat)
                if name is not None and key in new_keys:
                    problems.append(_problem(where, "duplicate_member", Text(
                        "{name} already sits at {other}: a member takes one seat",
                        name=repr(name), other=places[new_keys[key]])))
                    name = None
                twin = (look_alike(looks(name), known)
                        if name is not None and looks is not None else None)
                if name is not None and twin is not None:
                    problems.append(_problem(where, "looks_like_member",
                                             looks_like(name, twin)))
                    name = None
                if name is None:
                    names.append(f"?{i}")
                else:
                    new_keys[key] = i
                    new.append((i, name))
                    names.append(name)
                    if looks is not None:
                        known.append(RosterName("", key, name, looks(name)))
                members.append(None)
                continue
        else:
            # Not a name nor a member: the game's (or the event's) own checks name it.
            names.append(seat if isinstance(seat, str) else "")
            members.append(None)
            continue
        if found.id in seated:
            problems.append(_problem(where, "duplicate_member", Text(
                "{name} already sits at {other}: a member takes one seat",
                name=repr(found.name), other=places[seated[found.id]])))
            names.append(f"?{i}")
            members.append(None)
            continue
        seated[found.id] = i
        names.append(found.name)
        members.append(found.id)
    return SeatChoice(tuple(names), tuple(members), tuple(new), tuple(problems))


def _seat_problem(where: str, ident: object, found: RosterEntry | None) -> Problem:
    if found is None:
        return _problem(where, "unknown_member", Text(
            "the club has no member {member} (a member of another club cannot sit here)",
            member=repr(ident)))
    if found.forgotten:
        return _problem(where, "member_forgotten", Text(
            "member {member} was forgotten: they take no more seats", member=found.id))
    return _problem(where, "member_merged", Text(
        "member {member} was merged into {into}: seat {into} instead", member=found.id,
        into=str(found.merged_into)))


__all__ = ["RosterEntry", "SeatChoice", "choose_members"]
