"""The door (docs/events.md#the-door): check-ins, entrants added and removed by hand, and
each entrant's own page, withdrawal and return. Thin views over
``service.application.door``, on the events' blueprint."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView

from service.application.door import Door, EntrantReading, NewEntrant
from service.application.events import EventView
from service.application.unit_of_work import UnitOfWork
from service.domain import Problem, decimal_json

from ..language import request_language
from ..schemas.events import (
    ArrivalSchema,
    DoorSchema,
    EntrantReadingSchema,
    NewEntrantSchema,
)
from .common import (
    bearer_token,
    club_service,
    json_body,
    not_modified_doc,
    prints_standings,
    tagged_by_content,
    write,
)
from .events import blp, door_links, event_protected, event_service, status_of
from .games import share_link

ENTRANT = "int(min=0, max=10000)"


def door() -> Door:
    return Door(event_service())


def entrant_link(event_id: str, number: int, token: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/#/events/{event_id}/entrants/{number}?token={token}"


def _event(view: EventView, *keys: str) -> dict[str, Any]:
    setup = view.setup
    found = {"id": view.id, "name": setup.name, "format": setup.format,
             "status": status_of(view),
             "current_round": view.current.number if view.current else None,
             "rounds_planned": setup.rounds, "variant": setup.variant.id}
    return {k: found[k] for k in keys}


def new_entrant_json(found: NewEntrant) -> dict[str, Any]:
    out: dict[str, Any] = {"entrant": found.number, "name": found.entrant.name}
    if found.entrant.players:
        out["players"] = list(found.entrant.players)
    return {**out, "tokens": {"entrant": found.token},
            "links": {"entrant": entrant_link(found.view.id, found.number, found.token)},
            "from_round": found.entrant.from_round}


def reading_json(found: EntrantReading) -> dict[str, Any]:
    entrant, view = found.entrant, found.view
    out: dict[str, Any] = {"entrant": found.number, "name": entrant.name}
    if entrant.players:
        out["players"] = list(entrant.players)
    now: dict[str, Any] | None = None
    if found.now is not None and found.now.bye:
        now = {"round": found.now.round, "bye": True}
    elif found.now is not None:
        game = found.now.game_id
        assert game is not None
        now = {"round": found.now.round, "table": found.now.table, "game": game,
               "seats": [{"seat": s.seat + 1, "name": s.name,
                          "link": share_link(game, s.player_token) if s.player_token else None}
                         for s in found.now.seats],
               "with": list(found.now.others), "status": found.now.status}
    standing = None
    if found.standing is not None:
        row = found.standing
        standing = {"place": row.place,
                    "match_points": decimal_json(Decimal(row.match_points)),
                    "points": decimal_json(Decimal(row.points)),
                    "rounds_played": found.rounds_played}
        if view.setup.scoring == "difference":
            standing["difference"] = decimal_json(row.difference)
    return {**out, "from_round": entrant.from_round,
            "withdrawn": entrant.withdrawn_from is not None,
            "withdrawn_from": entrant.withdrawn_from,
            "rounds_played": found.rounds_played,
            "event": _event(view, "id", "name", "status", "current_round", "rounds_planned",
                            "format"),
            "now": now, "clock": found.clock, "standing": standing,
            "links": {"entrant": entrant_link(view.id, found.number, found.token)}}


def _arrive(unit: UnitOfWork, event_id: str, body: dict[str, Any], *,
            by_hand: bool) -> NewEntrant:
    """An entrant arriving (``by_hand``: added by the organiser): at a club's event, each
    name is the club's member of that name or a new member, as when the event was made."""
    token = bearer_token()
    service = door()
    club = service.club_of(event_id, token, by_hand=by_hand)
    if club is None:
        return service.add_entrant(unit, event_id, token, body, by_hand=by_hand)
    pairs = isinstance(body.get("players"), list)
    if pairs:
        seats = [(f"players[{k}]", p) for k, p in enumerate(body["players"])]
    elif "member" in body:
        seats = [("member", {"member": body["member"]})]
    else:
        seats = [("name", body.get("name"))]
    clubs = club_service()
    link = clubs.link_arrival(club, seats)
    named = dict(body)
    named.pop("member", None)
    if pairs:
        named["players"] = list(link.choice.names)
    elif link.choice.names:
        named["name"] = link.choice.names[0]
    problems = [Problem(p.field, p.code, p.message, p.rule) for p in link.choice.problems]
    return service.add_entrant(
        unit, event_id, token, named, by_hand=by_hand, members=link.choice.members,
        problems=problems, seat=lambda: clubs.seat(unit, link, f"event {event_id}"))


@blp.route("/<id:event_id>/door")
class EventDoor(MethodView):
    @event_protected(blp, write=True)
    @blp.response(200, DoorSchema)
    @not_modified_doc(blp, "the door is as the ETag sent")
    def get(self, event_id: str) -> Any:
        """Open the door

        What the door's screen shows (the door's token, or the organiser's): whether it
        takes check-ins, the round an arrival plays from, how many entrants the roster has,
        and at a club's event its active members not yet entrants, by name.
        """
        found = door().door(event_id, bearer_token())
        view = found.view
        members: list[dict[str, str]] = []
        if view.event.club is not None:
            entered = {m for e in view.event.entrants if not e.get("removed")
                       for m in [e.get("member"), *(e.get("members") or ())] if m}
            members = [{"id": i, "name": n}
                       for i, n in club_service().door_members(view.event.club, entered)]
        return tagged_by_content(DoorSchema(), {
            "event": _event(view, "id", "name", "format", "status", "current_round",
                            "rounds_planned", "variant"),
            "open": found.open, "from_round": found.from_round,
            "checked_in": found.checked_in, "members": members})


@blp.route("/<id:event_id>/poster.pdf")
class EventPoster(MethodView):
    @prints_standings(blp, event_protected, "The door's poster, one A4 page: the event's "
                      "name and day, the door's link as a QR code read from a metre away, "
                      "one line saying what to do, and the link as text", write=True)
    @blp.alt_response(409, response="CONFLICT")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """Print the door's poster

        For the organiser's edit token, at an event that takes check-ins (else 409
        `checkin_closed`): an A4 poster for the entrance, in the language asked (`lang`) or
        the reader's. Its code opens the door's screen, where players check themselves in.
        The day printed is the event's creation day.
        """
        token = bearer_token()
        view = door().poster(event_id, token)
        assert token is not None
        club = None
        if view.event.club is not None:
            club = club_service().get_club_name(view.event.club)
        pdf = current_app.extensions["segnapunti.poster_pdf"](
            name=view.setup.name, date=view.event.created_at,
            link=door_links(event_id, token)["links"]["door"],
            lang=query.get("lang") or request_language(), club=club)
        response = Response(pdf, mimetype="application/pdf")
        response.headers["Content-Disposition"] = 'inline; filename="door-poster.pdf"'
        # The poster holds the door's token: no cache on the way keeps a copy.
        response.headers["Cache-Control"] = "no-store"
        return response


@blp.route("/<id:event_id>/checkins")
class Checkins(MethodView):
    @event_protected(blp, write=True)
    @write(blp, idempotent=True)
    @json_body(blp)
    @blp.arguments(ArrivalSchema)
    @blp.response(201, NewEntrantSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Check an entrant in at the door

        `{"name"}`, at a club's event `{"member": id}` (a new name becomes a member), in the
        pairs format `{"name", "players": [a, b]}`. The door's token (the organiser's may
        too). The entrant plays from the next round to start, and gets their own link.
        409 `checkin_closed` when the door takes none (the event takes no check-ins, or
        its last planned round has started); 409 `already_checked_in` for a name (or
        member) on the roster already.
        """
        return new_entrant_json(_arrive(unit, event_id, body, by_hand=False)), 201


@blp.route("/<id:event_id>/entrants")
class Entrants(MethodView):
    @event_protected(blp, write=True)
    @write(blp, idempotent=True)
    @json_body(blp)
    @blp.arguments(ArrivalSchema)
    @blp.response(201, NewEntrantSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Add an entrant by hand

        The organiser's (edit token), with or without a door: the same body and answer as a
        check-in. The entrant plays from the next round to start.
        """
        return new_entrant_json(_arrive(unit, event_id, body, by_hand=True)), 201


@blp.route(f"/<id:event_id>/entrants/<{ENTRANT}:number>")
class EntrantPage(MethodView):
    @event_protected(blp, write=True)
    @blp.response(200, EntrantReadingSchema)
    @not_modified_doc(blp, "the entrant's page is as the ETag sent")
    def get(self, event_id: str, number: int) -> Any:
        """Read an entrant's page

        The entrant's own token (or the organiser's): who they are, where they sit in the
        round being played (their seats, each with its player link, and who else is at the
        table) or their bye, the round's clock, and their standing.
        """
        return tagged_by_content(EntrantReadingSchema(),
                                 reading_json(door().entrant(event_id, bearer_token(), number)))

    @event_protected(blp, write=True)
    @write(blp)
    @blp.response(204)
    @blp.alt_response(409, response="CONFLICT")
    def delete(self, event_id: str, number: int, unit: UnitOfWork) -> Any:
        """Remove an entrant

        The organiser's (edit token): an entrant no round has seated (a mistaken check-in)
        is taken off the roster; their number is never used again. 409 `entrant_played`
        for one who has played (withdraw them instead).
        """
        door().remove_entrant(unit, event_id, bearer_token(), number)
        return "", 204


@blp.route(f"/<id:event_id>/entrants/<{ENTRANT}:number>/withdraw")
class EntrantWithdraw(MethodView):
    @event_protected(blp, write=True)
    @write(blp)
    @blp.response(200, EntrantReadingSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, event_id: str, number: int, unit: UnitOfWork) -> Any:
        """Withdraw an entrant

        Their own token (or the organiser's): they play no round from the next one on; a
        round they are seated at is played out. They keep their rounds in the standings.
        """
        return reading_json(door().withdraw(unit, event_id, bearer_token(), number))


@blp.route(f"/<id:event_id>/entrants/<{ENTRANT}:number>/return")
class EntrantReturn(MethodView):
    @event_protected(blp, write=True)
    @write(blp)
    @blp.response(200, EntrantReadingSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, event_id: str, number: int, unit: UnitOfWork) -> Any:
        """Bring a withdrawn entrant back

        Their own token (or the organiser's), before the round they withdrew from starts;
        409 `return_too_late` after.
        """
        return reading_json(door().return_(unit, event_id, bearer_token(), number))
