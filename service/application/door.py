"""The door (docs/events.md#the-door): entrants check in as they arrive, the organiser adds or
removes one by hand, an entrant withdraws or comes back, and each entrant's own link says
where they sit now, the round's clock and their standing.

Who may do what: the door's token checks entrants in (the organiser's edit token may too);
an entrant's own token reads their link and withdraws or returns them (the edit token may
too); adding and removing by hand are the organiser's. The room's read token does none of
these (403), nor does an entrant's token at the door.
"""

from __future__ import annotations

import hmac
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from service.domain import (
    LATE_ROUNDS,
    Entrant,
    Problem,
    RecordInvalid,
    Row,
    Text,
    validate_newcomer,
)

from .entrant_links import door_token, entrant_token, open_seat
from .errors import Conflict, Forbidden, InvalidToken, NotFound, Unauthenticated
from .event_clock import clock_of
from .events import (
    EVENT_TOKEN_WORDS,
    EventNotFound,
    EventService,
    EventView,
    RoundView,
    table_tokens,
)
from .games import hash_token
from .games.access import player_token
from .lookalikes import looks
from .ports import StaleGame, StoredEvent
from .unit_of_work import UnitOfWork

Kind = Literal["edit", "door", "entrant"]


@dataclass(frozen=True, slots=True)
class Reader:
    """Who holds the token: the organiser (``edit``), the door, or entrant ``entrant``."""

    kind: Kind
    token: str
    entrant: int | None = None


@dataclass(frozen=True, slots=True)
class DoorView:
    """What the door's screen shows."""

    view: EventView
    open: bool
    from_round: int
    checked_in: int


@dataclass(frozen=True, slots=True)
class NewEntrant:
    """An entrant just checked in or added, with their own token (shown to them)."""

    view: EventView
    number: int
    entrant: Entrant
    token: str


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    name: str
    game_id: str
    player_token: str | None


@dataclass(frozen=True, slots=True)
class Now:
    """Where the entrant is in the round being played: a bye, or a table."""

    round: int
    bye: bool = False
    table: int | None = None
    game_id: str | None = None
    seats: tuple[Seat, ...] = ()
    others: tuple[str, ...] = ()
    status: str | None = None


@dataclass(frozen=True, slots=True)
class EntrantReading:
    """An entrant's own link: who they are, where they sit now, the round's clock and
    their standing; ``token``: their own token (to show the link again)."""

    view: EventView
    number: int
    entrant: Entrant
    token: str
    now: Now | None
    clock: dict[str, Any] | None
    standing: Row | None
    rounds_played: int


def rounds_sat(view: EventView) -> Counter[int]:
    """The rounds at which each entrant sat at a table (a bye is none), every entrant's in
    one pass over the tables: a roster's or a standings' rows read them all."""
    return Counter(e for r in view.rounds for t in r.tables for e in set(t.stored.entrants))


def door_open(view: EventView) -> bool:
    """Whether the door takes check-ins: the event takes them and its last planned round
    has not started."""
    planned = view.setup.rounds
    return view.setup.checkin and (planned is None or len(view.rounds) < planned)


class Door:
    """The door's use cases, over the events' (``EventService``)."""

    def __init__(self, events: EventService) -> None:
        self.events = events

    # -- access -----------------------------------------------------------------------------

    def reader(self, event_id: str, token: str | None) -> tuple[Reader, StoredEvent]:
        """Who ``token`` is at this event: 401 without one or for one that opens nothing,
        404 for another event's (or no such event), 403 for the room's read token."""
        if not token:
            raise Unauthenticated(EVENT_TOKEN_WORDS.needed)
        self.events.close_by_clock(event_id)
        event = self.events.repository.get_event(event_id)
        digest = hash_token(token)
        if event is not None:
            if hmac.compare_digest(digest, event.edit_token_hash):
                return Reader("edit", token), event
            if event.door_token_hash and hmac.compare_digest(digest, event.door_token_hash):
                return Reader("door", token), event
            for i, stored in enumerate(event.entrants):
                own = stored.get("token_hash")
                if own and not stored.get("removed") and hmac.compare_digest(digest, own):
                    return Reader("entrant", token, i), event
            if hmac.compare_digest(digest, event.read_token_hash):
                raise Forbidden(EVENT_TOKEN_WORDS.read_only)
        if not (self.events.repository.event_token_exists(digest)
                or self.events.games.opens_a_game(digest)):
            raise InvalidToken(EVENT_TOKEN_WORDS.opens_nothing)
        raise EventNotFound(Text("there is no event {event} for this token",
                                 event=repr(event_id)))

    def _door_reader(self, event_id: str, token: str | None) -> tuple[Reader, EventView]:
        reader, event = self.reader(event_id, token)
        if reader.kind == "entrant":
            raise Forbidden(Text("an entrant's own link does not open the door; use the "
                                 "door's link or the organiser's"))
        return reader, self.events._view(event)

    def _organiser(self, event_id: str, token: str | None) -> tuple[Reader, EventView]:
        reader, event = self.reader(event_id, token)
        if reader.kind != "edit":
            raise Forbidden(Text("only the organiser's link can do this"))
        return reader, self.events._view(event)

    def poster(self, event_id: str, token: str | None) -> EventView:
        """The event whose door's poster the organiser prints: 409 ``checkin_closed`` for an
        event that takes no check-ins (its poster would open nothing)."""
        _reader, view = self._organiser(event_id, token)
        if not view.setup.checkin:
            raise Conflict(Text("the event takes no check-ins: open its door first "
                                "(checkin: true)"), code="checkin_closed")
        return view

    def _entrant_reader(self, event_id: str, token: str | None,
                        number: int) -> tuple[Reader, EventView]:
        reader, event = self.reader(event_id, token)
        view = self.events._view(event)
        if not 0 <= number < len(view.setup.entrants) or view.setup.entrants[number].removed:
            raise NotFound(Text("event {event} has no entrant {n}", event=event_id, n=number))
        if reader.kind == "door" or (reader.kind == "entrant" and reader.entrant != number):
            raise Forbidden(Text("this link opens another entrant's page, not this one"))
        return reader, view

    # -- the door ---------------------------------------------------------------------------

    def door(self, event_id: str, token: str | None) -> DoorView:
        """The door's screen (the door's token or the edit token)."""
        _reader, view = self._door_reader(event_id, token)
        return DoorView(view, door_open(view), len(view.rounds) + 1, len(view.setup.listed()))

    def club_of(self, event_id: str, token: str | None, *, by_hand: bool) -> str | None:
        """The club of the event an entrant is about to join (checked for who may add
        them: the door, or by hand the organiser)."""
        view = (self._organiser(event_id, token) if by_hand
                else self._door_reader(event_id, token))[1]
        return view.event.club

    def add_entrant(self, unit: UnitOfWork, event_id: str, token: str | None,
                    body: Mapping[str, Any], *, by_hand: bool,
                    members: Sequence[str | None] | None = None,
                    problems: Sequence[Problem] = (),
                    seat: Callable[[], Sequence[str | None]] | None = None) -> NewEntrant:
        """An entrant checked in at the door (``by_hand``: added by the organiser), from
        the next round to start. A club's event: ``members`` the members the body's names
        are (None: a new name), ``problems`` theirs, ``seat`` makes the new members (called
        once the entrant is accepted). 409 ``checkin_closed`` at a door that takes none;
        409 ``already_checked_in`` for the same name or member; every other problem at once
        (400); nothing stored on a refusal."""
        if by_hand:
            reader, view = self._organiser(event_id, token)
        else:
            reader, view = self._door_reader(event_id, token)
            if not door_open(view):
                raise Conflict(Text("the door is closed: the event takes no check-ins, or its "
                                    "last round has started"), code="checkin_closed")
        setup, event = view.setup, view.event
        raw: dict[str, Any] = {k: body[k] for k in ("name", "players") if k in body}
        wrong: list[Problem] = list(problems)
        if "member" in body and event.club is None:
            wrong.append(Problem("member", "member_without_club", Text(
                "member names a club's member: this event is not a club's")))
        newcomer, found, already = validate_newcomer(setup, raw, looks)
        wrong += found
        if members is not None and event.club is not None:
            taken = _members_entered(event)
            for k, member in enumerate(members):
                if member is not None and member in taken:
                    n = taken[member]
                    already.append(Problem(
                        "member" if setup.format != "pairs" else f"players[{k}]",
                        "already_checked_in", Text(
                            "{name} is already entrant {n}", name=setup.entrants[n].name,
                            n=n + 1)))
        if wrong:
            raise RecordInvalid([*wrong, *already])
        if already:
            refused = Conflict(already[0].message, code="already_checked_in")
            refused.items = tuple(already)  # each naming the entrant they are
            raise refused
        assert newcomer is not None
        number = len(setup.entrants)
        door = reader.token if reader.kind == "door" else door_token(reader.token, event_id)
        own = entrant_token(door, event_id, number)
        from_round = len(view.rounds) + 1
        stored: dict[str, Any] = {**newcomer.to_json(), "from_round": from_round,
                                  "checked_in": not by_hand, "token_hash": hash_token(own)}
        if event.club is not None and seat is not None:
            seated = tuple(seat())
            if setup.format == "pairs":
                stored["members"] = list(seated)
            else:
                stored["member"] = seated[0] if seated else None
        action = "entrant_added" if by_hand else "checkin"
        data = {"entrant": number, "name": newcomer.name, "from_round": from_round}
        entrant = replace(newcomer, from_round=from_round, checked_in=not by_hand)
        after = self._change(unit, view, (*event.entrants, stored), action, data)
        return NewEntrant(after, number, entrant, own)

    def remove_entrant(self, unit: UnitOfWork, event_id: str, token: str | None,
                       number: int) -> EventView:
        """The organiser removes an entrant no round ever seated (a mistaken check-in): they
        are listed no more, their number never used again. 409 ``entrant_played`` for one
        seated in any round (withdraw them instead)."""
        _reader, view = self._organiser(event_id, token)
        entrant = self._entrant(view, number)
        if any(number in t.stored.entrants or number in r.stored.byes
               for r in view.rounds for t in r.tables) or any(
                number in r.stored.byes for r in view.rounds):
            raise Conflict(Text("{name} has played in the event: withdraw them instead",
                                name=entrant.name), code="entrant_played")
        entrants = list(view.event.entrants)
        entrants[number] = {**entrants[number], "removed": True}
        return self._change(unit, view, tuple(entrants), "entrant_removed",
                            {"entrant": number, "name": entrant.name})

    def set_door(self, unit: UnitOfWork, event_id: str, token: str | None,
                 body: Mapping[str, Any]) -> EventView:
        """The organiser turns the door on or off (``checkin``: only before round 1 starts,
        else 409 ``round_started``) or says what a late arrival's missed rounds are worth
        (``late_rounds``), every problem at once; an action ``door`` in the history."""
        reader, view = self._organiser(event_id, token)
        event = view.event
        problems: list[Problem] = []
        checkin = body.get("checkin", event.checkin)
        if not isinstance(checkin, bool):
            problems.append(Problem("checkin", "invalid_checkin", Text(
                "checkin is true (entrants check in at the door) or false")))
        late = body.get("late_rounds", event.late_rounds)
        if late not in LATE_ROUNDS:
            problems.append(Problem("late_rounds", "unknown_late_rounds", Text(
                "late_rounds says what a late arrival's missed rounds are worth: zero or bye")))
        if problems:
            raise RecordInvalid(problems)
        if checkin != event.checkin and view.rounds:
            raise Conflict(Text("round 1 has started: the door opens or closes only before "
                                "it"), code="round_started")
        if checkin == event.checkin and late == event.late_rounds:
            return view
        door = hash_token(door_token(reader.token, event_id)) if checkin else None
        try:
            unit.events.change_event(
                event_id, expected_version=event.version,
                values={"checkin": checkin, "late_rounds": late, "door_token_hash": door},
                action="door", data={"checkin": checkin, "late_rounds": late},
                now=self.events.clock())
        except StaleGame as error:
            raise Conflict(Text("the event was changed by another request at the same time; "
                                "read it and try again"), code="concurrent_change") from error
        changed = replace(event, checkin=checkin, late_rounds=str(late), door_token_hash=door,
                          version=event.version + 1)
        return self.events._view_of(changed, view.rounds)

    # -- the entrant's link -----------------------------------------------------------------

    def entrant(self, event_id: str, token: str | None, number: int) -> EntrantReading:
        """Entrant ``number``'s page (their own token or the edit token)."""
        reader, view = self._entrant_reader(event_id, token, number)
        return self._reading(view, reader, number)

    def withdraw(self, unit: UnitOfWork, event_id: str, token: str | None,
                 number: int) -> EntrantReading:
        """The entrant withdraws from the next round on (a round they are seated at is
        played out); 409 ``already_withdrawn``."""
        reader, view = self._entrant_reader(event_id, token, number)
        entrant = view.setup.entrants[number]
        if entrant.withdrawn_from is not None:
            raise Conflict(Text("{name} has already withdrawn", name=entrant.name),
                           code="already_withdrawn")
        start = len(view.rounds) + 1
        entrants = list(view.event.entrants)
        entrants[number] = {**entrants[number], "withdrawn_from": start}
        after = self._change(unit, view, tuple(entrants), "withdraw",
                             {"entrant": number, "name": entrant.name, "from_round": start})
        return self._reading(after, reader, number)

    def return_(self, unit: UnitOfWork, event_id: str, token: str | None,
                number: int) -> EntrantReading:
        """A withdrawn entrant comes back, before the round they withdrew from starts
        (else 409 ``return_too_late``); 409 ``not_withdrawn`` for one who is playing."""
        reader, view = self._entrant_reader(event_id, token, number)
        entrant = view.setup.entrants[number]
        if entrant.withdrawn_from is None:
            raise Conflict(Text("{name} has not withdrawn", name=entrant.name),
                           code="not_withdrawn")
        if len(view.rounds) >= entrant.withdrawn_from:
            raise Conflict(Text(
                "round {n} started without {name}: a return comes before the next round "
                "starts", n=entrant.withdrawn_from, name=entrant.name), code="return_too_late")
        entrants = list(view.event.entrants)
        entrants[number] = {k: v for k, v in entrants[number].items() if k != "withdrawn_from"}
        after = self._change(unit, view, tuple(entrants), "return",
                             {"entrant": number, "name": entrant.name})
        return self._reading(after, reader, number)

    # -- internals --------------------------------------------------------------------------

    @staticmethod
    def _entrant(view: EventView, number: int) -> Entrant:
        entrants = view.setup.entrants
        if not 0 <= number < len(entrants) or entrants[number].removed:
            raise NotFound(Text("event {event} has no entrant {n}", event=view.id, n=number))
        return entrants[number]

    def _change(self, unit: UnitOfWork, view: EventView, entrants: tuple[dict[str, Any], ...],
                action: str, data: dict[str, Any]) -> EventView:
        try:
            unit.events.change_event(view.id, expected_version=view.event.version,
                                     values={"entrants": entrants}, action=action, data=data,
                                     now=self.events.clock())
        except StaleGame as error:
            raise Conflict(Text("the event was changed by another request at the same time; "
                                "read it and try again"), code="concurrent_change") from error
        event = replace(view.event, entrants=entrants, version=view.event.version + 1)
        return self.events._view_of(event, view.rounds)

    def _reading(self, view: EventView, reader: Reader, number: int) -> EntrantReading:
        event_id = view.id
        if reader.kind == "entrant":
            own = reader.token
        else:
            own = entrant_token(door_token(reader.token, event_id), event_id, number)
        current = view.current
        now = None
        clock = None
        if current is not None and current.stored.state == "open":
            now = _now(view, current, number, own, reader)
            settings = clock_of(view.event.settings)
            started = current.stored.started_at
            ends, closes = settings.ends_at(started), settings.closes_at(started)
            clock = {"started_at": started.isoformat(),
                     "ends_at": ends.isoformat() if ends else None,
                     "closes_at": closes.isoformat() if closes else None,
                     "auto_close": settings.auto_close}
        standing = None
        if view.rounds:
            found = self.events.standings_of(view.for_reader("read"))
            standing = next((row for row in found.rows if row.entrant == number), None)
        return EntrantReading(view, number, view.setup.entrants[number], own, now, clock,
                              standing, rounds_sat(view)[number])


def _members_entered(event: StoredEvent) -> dict[str, int]:
    """The members already on the event's roster: member -> entrant."""
    out: dict[str, int] = {}
    for i, stored in enumerate(event.entrants):
        if stored.get("removed"):
            continue
        for member in [stored.get("member"), *(stored.get("members") or ())]:
            if member:
                out.setdefault(member, i)
    return out


def _now(view: EventView, current: RoundView, number: int, own: str,
         reader: Reader) -> Now | None:
    """Where the entrant sits in the round being played: their seats (each with its player
    link, opened from what the event sealed for them), the others at the table."""
    if number in current.stored.byes:
        return Now(current.number, bye=True)
    for table in current.tables:
        if number not in table.stored.entrants:
            continue
        at = view.setup.seat_entrants(table.stored.entrants)
        names = table.game.setup.seat_names()
        mine = sorted(seat for seat, e in at.items() if e == number)
        sealed = (table.stored.sealed or {}).get(str(number), {})
        seats = []
        for seat in mine:
            found = sealed.get(str(seat))
            token = None
            if found is not None:
                token = open_seat(own, found, (view.id, current.number, table.stored.number,
                                               number, seat))
            if token is None and reader.kind == "edit":
                edit = table_tokens(reader.token, view.id, current.number,
                                    table.stored.number)[0]
                token = player_token(edit, table.stored.game_id, seat)
            seats.append(Seat(seat, names[seat], table.stored.game_id, token))
        others = tuple(names[seat] for seat in sorted(at) if at[seat] != number)
        return Now(current.number, table=table.stored.number, game_id=table.stored.game_id,
                   seats=tuple(seats), others=others, status=table.state)
    return None
