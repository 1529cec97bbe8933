"""Public results: what a published event or club shows to anyone, without a token.

An event's public reading is its room's (``EventView.for_reader("read")``: a duplicate board
counts only once complete, and nothing of a board still being played is shown), named as its
club lets it be named: a forgotten member is "Player N" in the reader's language, a member
who asked to be left out of public pages (``public: false``) their initials. Tokens, the
seed and the deals of boards never appear: nothing here reads them.

A club's public reading is its published events, its seasons' standings and, when the club
says so (``public_ratings``), its ratings in each family it has played."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from service.domain import decimal_json, percent, travellers

from .clubs import FAMILIES, ClubService
from .door import rounds_sat
from .events import EventService, EventView, board_plays
from .ports import StoredClub, StoredMember, StoredSeason

#: How a forgotten member is shown, given their number: "Player 7" in the reader's language.
Label = Callable[[int], str]


class RecentStates:
    """The published states this process read in the last moment (``seconds``), by key: a
    public read within it is answered from its kept body with no query at all, so a crowd
    reading a page costs the database one small query a second. Publishing or taking down
    through this process forgets its key at once (``forget``); another process sees it
    within ``seconds``, a result within ``seconds`` too, a proxy within the answer's
    ``max-age``."""

    def __init__(self, size: int = 4096, clock: Callable[[], float] = time.monotonic) -> None:
        self._kept: dict[str, tuple[float, object]] = {}
        self._size = size
        self._clock = clock
        self._lock = threading.Lock()

    def get(self, key: str, seconds: float, read: Callable[[], object]) -> object:
        now = self._clock()
        if seconds > 0:
            with self._lock:
                found = self._kept.get(key)
            if found is not None and now - found[0] < seconds:
                return found[1]
        state = read()  # a state not published raises: nothing is kept of it
        with self._lock:
            if len(self._kept) >= self._size:
                self._kept.clear()
            self._kept[key] = (now, state)
        return state

    def forget(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._kept.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


#: This process's recent published states: ``event:{id}``, ``club:{id}``.
RECENT = RecentStates()


def initials_of(member: StoredMember) -> str:
    """A member's initials as public pages show a member left out of them: their own, or
    the first letter of each word of their name."""
    if member.initials:
        return member.initials
    return "".join(word[0] for word in member.name.split() if word).upper() or "?"


def public_name(club: StoredClub, member_id: str | None, label: Label) -> str | None:
    """The name a member of ``club`` has on public pages (a merged member's: the one they
    were merged into); None when the club has no such member."""
    by_id = {m.id: m for m in club.members}
    member = by_id.get(member_id or "")
    seen = set()
    while member is not None and member.merged_into and member.id not in seen:
        seen.add(member.id)
        member = by_id.get(member.merged_into, member)
    if member is None:
        return None
    if member.forgotten:
        return label(member.number)
    return member.name if member.public else initials_of(member)


def entrant_names(view: EventView, club: StoredClub | None, label: Label) -> list[str]:
    """Each entrant's public name: an event of no club names them as entered; a club's
    event names its members as the club lets them be named (a pair: its two members')."""
    names = view.setup.names()
    if club is None:
        return names
    out = []
    for name, stored in zip(names, view.event.entrants, strict=True):
        if "member" in stored:
            out.append(public_name(club, stored["member"], label) or name)
        elif stored.get("members"):
            members = [public_name(club, m, label) for m in stored["members"]]
            shown = [m for m in members if m is not None]
            plain = all(_plainly_named(club, m) for m in stored["members"])
            out.append(name if plain or not shown else " & ".join(shown))
        else:
            out.append(name)
    return out


def _plainly_named(club: StoredClub, member_id: str | None) -> bool:
    found = next((m for m in club.members if m.id == member_id), None)
    return found is None or (found.public and not found.forgotten and not found.merged_into)


def event_status(view: EventView) -> str:
    """``not_started``, ``playing``, ``between_rounds`` or ``over``. A round is over once
    closed: by the organiser, by its clock, or by the hand that finished its last table; a
    round stored open with every table finished is still to be closed, and says so."""
    current = view.current
    if current is None:
        return "not_started"
    if current.stored.state != "closed":
        return "playing"
    planned = view.setup.rounds
    return "over" if planned is not None and len(view.rounds) >= planned else "between_rounds"


def _number(value: int | Decimal) -> Any:
    return decimal_json(Decimal(value))


def read_public_event(events: EventService, clubs: ClubService, event_id: str,
                      label: Label) -> dict[str, Any]:
    """A published event as anyone reads it; 404 when not published."""
    view = events.public_event(event_id)
    club = clubs.repository.get_club(view.event.club) if view.event.club else None
    return public_event(view, club, label)


def read_public_club(clubs: ClubService, club_id: str, label: Label) -> dict[str, Any]:
    """A published club as anyone reads it; 404 when not published."""
    club = clubs.public_club(club_id)
    return public_club(clubs, club, clubs.repository.public_events_of(club_id),
                       clubs.repository.seasons(club_id), label)


def public_event(view: EventView, club: StoredClub | None, label: Label) -> dict[str, Any]:
    """A published event as anyone reads it (``view``: the room's reading)."""
    names = entrant_names(view, club, label)
    played = view.results()
    found = view.standings(played, explained=False)
    results = {(r.round, r.table): r for r in played}
    sat = rounds_sat(view)
    rows = [{
        "place": row.place, "entrant": names[row.entrant], "number": row.entrant,
        "match_points": _number(row.match_points), "difference": decimal_json(row.difference),
        "points": _number(row.points), "rounds_played": sat[row.entrant],
        "withdrawn": view.setup.entrants[row.entrant].withdrawn_from is not None,
        **({"boards": row.boards, "percentage": decimal_json(row.percentage)}
           if row.percentage is not None else {}),
    } for row in found.rows]
    rounds = []
    for played in view.rounds:
        tables = []
        for table in played.tables:
            result = results.get((played.number, table.stored.number))
            tables.append({
                "table": table.stored.number,
                "status": table.state,
                "entrants": [names[e] for e in table.stored.entrants],
                "columns": [] if result is None else [
                    {"entrants": [names[e] for e in column], "total": total}
                    for column, total in zip(result.columns, result.totals, strict=True)],
            })
        rounds.append({"round": played.number, "state": played.stored.state,
                       "tables": tables, "byes": [names[e] for e in played.stored.byes]})
    out: dict[str, Any] = {
        "id": view.event.id,
        "name": view.setup.name,
        "variant": view.setup.variant.id,
        "format": view.setup.format,
        "scoring": view.setup.scoring,
        "deals": view.setup.deals,
        "status": event_status(view),
        "rounds_planned": view.setup.rounds,
        "created_at": view.event.created_at.isoformat(),
        "standings": {"provisional": found.provisional, "rows": rows},
        "rounds": rounds,
    }
    if view.setup.duplicate:
        out["boards"] = [{
            "board": t.board, "top": t.top,
            "results": [{
                "round": r.play.round, "table": r.play.table,
                "columns": [{"entrants": [names[e] for e in r.play.entrants[c]],
                             "points": r.play.columns[c],
                             "matchpoints": r.matchpoints[c],
                             "percentage": decimal_json(percent(r.percentages[c]))}
                            for c in range(len(r.play.columns))],
            } for r in t.results],
        } for t in travellers(board_plays(view))]
    return out


def public_club(clubs: ClubService, club: StoredClub, events: list[tuple[str, str, Any]],
                seasons: list[StoredSeason], label: Label) -> dict[str, Any]:
    """A published club as anyone reads it: its published events, each season's standings
    and, with ``public_ratings``, its ratings in each family."""
    out: dict[str, Any] = {
        "id": club.id,
        "name": club.name,
        "public_ratings": club.public_ratings,
        "events": [{"id": i, "name": n, "created_at": c.isoformat()} for i, n, c in events],
        "seasons": [_season(clubs, club, s, label) for s in seasons],
    }
    if club.public_ratings:
        families = []
        for family in FAMILIES:
            table = clubs.family_ratings(club, family)
            if table.members:
                families.append({"family": family, "ratings": [{
                    "place": place, "member": public_name(club, row.member, label) or "",
                    "rating": row.shown, "games": row.games,
                } for place, row in enumerate(table.members, start=1)]})
        out["ratings"] = families
    return out


def _season(clubs: ClubService, club: StoredClub, season: StoredSeason,
            label: Label) -> dict[str, Any]:
    found = clubs.season_table(club, season)
    spec = season.season
    return {
        "id": season.id, "name": spec.name, "from": spec.date_from.isoformat(),
        "to": spec.date_to.isoformat(), "counting": spec.counting,
        "rows": [{
            "place": row.place,
            "member": public_name(club, found.members[row.entrant], label) or "",
            "match_points": _number(row.match_points),
            "points": _number(row.points),
            "evenings": len(row.rounds),
        } for row in found.standings.rows],
    }

