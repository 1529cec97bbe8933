"""Club nights and tournaments (docs/events.md): events, their rounds and tables, the
standings (JSON, PDF, CSV) and the organiser's history. Thin views over
``service.application.events``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from service.application.caches import LruCache
from service.application.door import Door, rounds_sat
from service.application.entrant_links import door_token
from service.application.event_clock import (
    PrizeReading,
    clock_of,
    prizes_of,
    round_clock_json,
)
from service.application.events import (
    EventService,
    EventView,
    TableLinks,
    TableRefusals,
    TableView,
    boards_owed,
    finished_boards,
    repeated,
)
from service.application.field import FieldReading, FieldTraveller, field_key
from service.application.games import GameView
from service.application.printouts import build_slips, build_standings_sheet
from service.application.public import RECENT, event_status
from service.application.refusals import REFUSALS_PER_BOARD
from service.application.unit_of_work import UnitOfWork
from service.domain import (
    Standings,
    decimal_json,
    money_json,
    percent,
)

from ..language import Speaker, request_language, translations
from ..paths import API_PREFIX
from ..routing import HAND_NUMBER
from ..schemas.events import (
    BoardsSchema,
    CloseRoundSchema,
    CreatedEventSchema,
    EventClockSchema,
    EventCreateSchema,
    EventHistorySchema,
    EventLinksSchema,
    EventPrizesSchema,
    EventPublishSchema,
    EventRefusalsSchema,
    EventSchema,
    FieldQuerySchema,
    FieldSchema,
    FieldTravellerSchema,
    PrizeListSchema,
    RoundTablesSchema,
    SeatingSchema,
    StandingsSchema,
    TravellerSchema,
)
from ..smorest import Blueprint
from .common import (
    action_json,
    bearer_token,
    club_entrants,
    club_service,
    conditional_read,
    creates,
    if_match,
    json_body,
    printed,
    prints_standings,
    standings_csv,
    standings_rows,
    token_protected,
    write,
)
from .games import (
    corrects_a_hand,
    hand_tag,
    keep_new_games,
    kept_json,
    kept_newest,
    said_hand,
    share_link,
)
from .keycards import keycard_pdf, prints_keycard

blp = Blueprint(
    "events",
    __name__,
    url_prefix=f"{API_PREFIX}/events",
    description="Club nights and tournaments: rounds of tables (each an ordinary game), "
                "seatings and standings (need the event's token)",
)

ROUND = "int(min=1, max=30)"
TABLE = "int(min=1, max=100)"
#: What the token sent may do with the event: ``edit`` (the organiser's) or ``read`` (the
#: room's), so the page knows which view to open without trying a change.
ACCESS_HEADER = "Event-Access"
READ_HEADERS = {ACCESS_HEADER: {"description": "`edit` for the organiser's token, `read` for "
                                               "the room's", "schema": {"type": "string",
                                                                        "enum": ["edit", "read"]}}}
F = TypeVar("F", bound=Callable[..., Any])


def event_service() -> EventService:
    service: EventService = current_app.extensions["segnapunti.events"]
    return service


event_protected = token_protected(event_service, "event_id")


# -- serialisation --------------------------------------------------------------------------


def event_link(event_id: str, token: str, board: bool = False) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/#/events/{event_id}{'/board' if board else ''}?token={token}"


def status_of(view: EventView) -> str:
    """Where the event stands (``service.application.public.event_status``)."""
    return event_status(view)


def _members(entrant: dict[str, Any]) -> dict[str, Any]:
    """An entrant of a club's event: the member it is (a pair: its two members)."""
    return {key: entrant[key] for key in ("member", "members") if key in entrant}


def event_json(view: EventView) -> dict[str, Any]:
    setup, event = view.setup, view.event
    names = setup.names()
    clock = clock_of(event.settings)
    prizes, currency = prizes_of(event.settings)
    sat = rounds_sat(view)
    return {
        "id": event.id,
        "name": setup.name,
        "variant": setup.variant.id,
        "options": dict(setup.options),
        "format": setup.format,
        "pairing": setup.pairing,
        "scoring": setup.scoring,
        "rounds_planned": setup.rounds,
        # A duplicate event's seed deals every board: the room never sees it.
        "seed": None if setup.duplicate else setup.seed,
        "deals": setup.deals,
        "boards_per_round": setup.boards_per_round,
        "status": status_of(view),
        "checkin": setup.checkin,
        "late_rounds": setup.late_rounds,
        # Entrants removed by the organiser are not listed (their numbers are never reused).
        "entrants": [{"number": i, **e.to_json(), **_members(stored),
                      **entrant_state(view, i, sat)}
                     for i, (e, stored) in enumerate(zip(setup.entrants, event.entrants,
                                                         strict=True)) if not e.removed],
        "rounds": [{
            "round": r.number,
            "state": r.stored.state,
            "finished": r.finished,
            "started_at": r.stored.started_at.isoformat(),
            **round_clock_json(clock, r.stored.started_at),
            "closed_at": r.stored.closed_at.isoformat() if r.stored.closed_at else None,
            "tables": [{
                "table": t.stored.number,
                "game": t.stored.game_id,
                "seats": t.game.setup.seat_names(),
                "entrants": [names[e] for e in t.stored.entrants],
                "status": t.state,
                "hands_played": t.game.summary.hands_played,
                "columns": [c.to_json() for c in t.game.summary.columns],
                # The reader's: a duplicate event's room counts its complete boards only.
                "totals": dict(view.table_summary(t).totals),
                **_boards(t.game),
                **_owed(t),
            } for t in r.tables],
            "byes": [names[e] for e in r.stored.byes],
        } for r in view.rounds],
        "current_round": view.current.number if view.current else None,
        **_board_progress(view),
        "repeats": repeated(view),
        **clock.to_json(),
        "currency": currency,
        "prizes": [p.to_json() for p in prizes],
        "created_at": event.created_at.isoformat(),
        "public": event.public,
        "field": _field_of(event),
        "version": event.version,
    }


def _field_of(event: Any) -> dict[str, Any] | None:
    """The field the event plays in (docs/events.md#one-field-across-many-clubs): its host,
    and whether this event is it; None for an event in no field."""
    if event.field_host is None:
        return None
    return {"host": event.field_host, "hosts": event.field_host == event.id}


def entrant_state(view: EventView, number: int, sat: Mapping[int, int]) -> dict[str, Any]:
    """Where an entrant stands on the roster (docs/events.md#the-door): their first round,
    whether they withdrew (and from which round), came through the door, the rounds
    they sat at a table (``sat``: every entrant's, ``rounds_sat``)."""
    entrant = view.setup.entrants[number]
    return {"from_round": entrant.from_round,
            "withdrawn": entrant.withdrawn_from is not None,
            "withdrawn_from": entrant.withdrawn_from,
            "checked_in": entrant.checked_in,
            "rounds_played": sat[number]}


def door_links(event_id: str, edit_token: str) -> dict[str, Any]:
    """The door's token and link, worked out from the organiser's."""
    door = door_token(edit_token, event_id)
    return {"tokens": {"door": door}, "links": {"door": door_link(event_id, door)}}


def door_link(event_id: str, door: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/#/events/{event_id}/door?token={door}"


def refusals_json(found: list[TableRefusals] | None) -> dict[str, Any]:
    """The duplicate tables' refused records, board by board, for the organiser (nothing for
    the room): each table's count toward the limit (``refused``), every refusal it made
    (``total``), whether it reached the limit and records that board no more until
    released (``stopped``), and when it was last refused."""
    if found is None:
        return {}
    return {"refusals": {"limit": REFUSALS_PER_BOARD, "boards": [{
        "round": f.round,
        "table": f.table,
        "game": f.refused.game_id,
        "board": f.refused.board,
        "refused": f.refused.counted,
        "total": f.refused.refused,
        "stopped": f.stopped,
        "last_refused_at": f.refused.last_refused_at.isoformat(),
    } for f in found]}}


def _refusals(service: EventService, view: EventView) -> dict[str, Any]:
    """A duplicate event's refusals, for the organiser's token (nothing else has any)."""
    if not view.setup.duplicate:
        return {}
    return refusals_json(service.refusals_of(view.id, bearer_token()))


def _organisers_event_json(event_id: str) -> dict[str, Any]:
    """The event as ``GET /events/{id}`` answers it: a duplicate event's with the tables'
    refusals for the organiser's token."""
    service = event_service()
    view = service.get_event(event_id, bearer_token())
    return {**event_json(view), **_refusals(service, view)}


def tables_json(view: EventView, number: int, links: list[TableLinks]) -> dict[str, Any]:
    played = next(r for r in view.rounds if r.number == number)
    names = view.setup.names()
    by_table = {t.stored.number: t for t in played.tables}
    return {
        "round": number,
        "tables": [{
            "table": link.table,
            "game": link.game_id,
            "seats": by_table[link.table].game.setup.seat_names(),
            "tokens": {"edit": link.edit_token, "read": link.read_token},
            "links": {"edit": share_link(link.game_id, link.edit_token),
                      "read": share_link(link.game_id, link.read_token)},
            **_boards(by_table[link.table].game),
        } for link in links],
        "byes": [names[e] for e in played.stored.byes],
    }


def _boards(game: GameView) -> dict[str, Any]:
    """A duplicate table's boards, in the order it plays them."""
    return {"boards": [b.number for b in game.setup.boards]} if game.setup.boards else {}


def _board_progress(view: EventView) -> dict[str, Any]:
    """A duplicate event's boards so far: those complete (every table due to play them has
    played them, or their round was closed: what the room's answers count) and those still
    secret (only the organiser's answers count them yet). Progress only: which tables have
    played what, never a result."""
    if not view.setup.duplicate:
        return {}
    return {"boards_complete": sorted(view.complete_boards()),
            "boards_secret": list(view.secret_boards())}


def _owed(table: TableView) -> dict[str, Any]:
    """The boards a duplicate table has still to play, in its order (none once its game
    ended or its round was closed)."""
    return {"boards_owed": list(boards_owed(table))} if table.game.setup.boards else {}


def standings_json(view: EventView, found: Standings) -> dict[str, Any]:
    names = view.setup.names()
    sat = rounds_sat(view)
    out = {
        "provisional": found.provisional,
        "scoring": view.setup.scoring,
        "round": view.current.number if view.current else None,
        "rows": [{**row, "withdrawn": view.setup.entrants[row["number"]].withdrawn_from
                  is not None, "rounds_played": sat[row["number"]]}
                 for row in standings_rows(found, names)],
    }
    if view.setup.duplicate:
        out["boards_finished"] = finished_boards_json(view)
    return out


def finished_boards_json(view: EventView) -> list[dict[str, Any]]:
    """The boards finished across the room (every table due to play them has), each with
    its tables and each column's top result: its points, matchpoints, percentage (and with
    ``scoring: difference`` its difference), and who made it (each table, when tied)."""
    names = view.setup.names()
    difference = view.setup.scoring == "difference"
    return [{
        "board": number,
        "tables": tables,
        "top": tops[0].top if tops else 0,
        "tops": [{
            "column": top.column,
            "points": top.points,
            "matchpoints": top.matchpoints,
            "percentage": decimal_json(percent(top.percentage)),
            **({"difference": decimal_json(top.difference)} if difference else {}),
            "by": [{"round": p.round, "table": p.table,
                    "entrants": [names[e] for e in p.entrants[top.column]]}
                   for p in top.plays],
        } for top in tops],
    } for number, tables, tops in finished_boards(view)]


#: The JSON bodies of events and standings recently read, by their state's entity tag and
#: language, in this process: a board polling every few seconds is answered from here.
_BODIES: LruCache[str, bytes] = LruCache(4 * 1024 * 1024, weight=len)


def _cached_json(event_id: str, variant: str, build: Callable[[], dict[str, Any]]) -> Response:
    """A read of the event answered by its state: 304 when the client has it, else the body
    made once per state and language (a poll costs one small query, at any event size)."""
    lang = request_language()
    state, kind, order = event_service().state_tag(event_id, bearer_token())
    # The organiser's answer and the room's differ while a duplicate board is secret: each
    # has its own tag (and body), so neither is ever answered with the other's.
    tag = f"{state}-{kind}-{variant}-{lang}"
    response = kept_json(_BODIES, tag, build, shared_as="event",
                         newest=(f"{event_id}-{kind}-{variant}-{lang}", order))
    response.headers[ACCESS_HEADER] = kind
    if response.status_code != 304:
        response.vary.add("Accept-Language")
    return response


# -- resources ------------------------------------------------------------------------------


@blp.route("")
class Events(MethodView):
    @creates(blp, EventCreateSchema, CreatedEventSchema)
    def post(self, body: dict[str, Any], unit: UnitOfWork) -> Any:
        """Start an event

        An evening or a tournament of one variant: its roster (players, or pairs with their
        two players), its format (`individual`, `pairs`, `free`), pairing, scoring, planned
        rounds and seed. The organiser's edit token and the room's read token are shown only
        here.

        An event of a club (`club`, with the club's edit token in `Club-Authorization:
        Bearer …`): each entrant's `name` (a pair's `players`) may be `{"member": id}`, and a
        name is the club's member of that name or a new member; its tables' games are then
        the club's, and each closed round counts for its members.
        """
        link = club_entrants(body)
        club = None
        if link is not None:
            body = {**body, "entrants": link.named(body.get("entrants") or [])}
            club = (link.link.club.id,
                    link.by_entrant(club_service().seat(unit, link.link, "event")))
        created = event_service().create_event(
            unit, body, club=club, problems=link.link.choice.problems if link else ())
        data = event_json(created.view)
        data["seed"] = created.view.setup.seed  # the organiser's, shown once
        data["tokens"] = {"edit": created.edit_token, "read": created.read_token}
        data["links"] = {"edit": event_link(created.view.id, created.edit_token),
                         "read": event_link(created.view.id, created.read_token, board=True)}
        if created.view.setup.checkin:
            door = door_links(created.view.id, created.edit_token)
            data["tokens"] |= door["tokens"]
            data["links"] |= door["links"]
        if created.view.event.field_key_hash is not None:
            data["tokens"]["field"] = field_key(created.edit_token, created.view.id)
        return data, 201, {"Location": url_for("events.Event", event_id=created.view.id)}


@blp.route("/<id:event_id>")
class Event(MethodView):
    @conditional_read(blp, event_protected, EventSchema, READ_HEADERS,
                      "the event is as the ETag sent")
    def get(self, event_id: str) -> Any:
        """Read an event

        Setup, entrants, and every round with its tables (game ids, seats, status, live
        totals) and byes. Either token opens it. For the organiser's edit token a duplicate
        event adds `refusals`: each table's refused records of each board, and whether it
        reached the limit (then it records that board no more until released). With
        `Cache-Control: max-stale` (a screen told of a change by its stream, which makes each
        state before it tells of it), the newest state made answers at once where the
        current one is not made yet.
        """
        return _cached_json(event_id, "event", lambda: _organisers_event_json(event_id))

    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(EventPublishSchema)
    @blp.response(200, EventSchema)
    def patch(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Publish an event, or take it down; open or close its door

        `checkin` (true: entrants check in at the door; only before round 1 starts, else 409
        `round_started`) and `late_rounds` (`zero` or `bye`: what a late arrival's missed
        rounds are worth) are the organiser's too, kept in the history (`door`).

        `public: true` (the organiser's edit token) makes the event's standings, rounds,
        complete boards' travellers readable by anyone without a token, at
        `/api/v1/public/events/{id}` and as a page at `/results/events/{id}`; `false` takes
        them down at once. Nothing is public unless published. The read token may not
        (403). Kept in the history (`publish`, `unpublish`).
        """
        service = event_service()
        view = service.get_event(event_id, bearer_token())
        if "checkin" in body or "late_rounds" in body:
            view = Door(service).set_door(unit, event_id, bearer_token(), body)
        if "public" in body:
            view = service.publish(unit, event_id, bearer_token(), body["public"])
            RECENT.forget(f"event:{event_id}", f"club:{view.event.club}")
        return event_json(view)


@blp.route("/<id:event_id>/links")
class EventLinks(MethodView):
    @event_protected(blp, write=True)
    @blp.response(200, EventLinksSchema)
    def get(self, event_id: str) -> Any:
        """Show the event's links again

        The room's read token and the board's link, and the organiser's link, for the edit
        token only: the read token is worked out from it, so any phone of the organiser can
        show the board's QR code.
        """
        token = bearer_token()
        read = event_service().room_link(event_id, token)
        assert token is not None
        out = {"tokens": {"read": read},
               "links": {"edit": event_link(event_id, token),
                         "read": event_link(event_id, read, board=True)}}
        if event_service().get_event(event_id, token).setup.checkin:
            door = door_links(event_id, token)
            out["tokens"] |= door["tokens"]
            out["links"] |= door["links"]
        key = event_service().field_links(event_id, token)
        if key is not None:
            out["tokens"]["field"] = key
        return out


@blp.route("/<id:event_id>/keycard.pdf")
class EventKeyCard(MethodView):
    @prints_keycard(blp, event_protected)
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """Print the event's key card

        The organiser's link as a QR code and as text on one A6 page, with what it opens and
        to keep it safe: opened on a new phone, it brings the event back as its organiser.
        The edit token only; `lang=it` prints it in Italian, else the reader's language.
        """
        token = bearer_token()
        service = event_service()
        service.authorize(event_id, token, write=True)
        view = service.get_event(event_id, token)
        assert token is not None
        return keycard_pdf("event", event_id, view.setup.name, event_link(event_id, token),
                           query, service.clock())


@blp.route("/<id:event_id>/rounds")
class Rounds(MethodView):
    @event_protected(blp, write=True, check_first=True)
    @creates(blp, SeatingSchema, RoundTablesSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Start the next round

        Seats the round (the `individual` movement, the `pairs` pairing, or the organiser's
        own tables in the `free` format) and creates each table's game, with its own edit
        link for the table's scorekeeper and read link. 409 while the current round is
        still being played. (A round ends by itself when its last table finishes; one stored
        open with every table finished is closed now, asking first, as closing it does,
        while players dispute hands of it: 409 open_disputes unless `despite_disputes`.)
        """
        view, links = event_service().start_round(
            unit, event_id, bearer_token(), body.get("tables"),
            despite_disputes=bool(body.get("despite_disputes")))
        number = view.current.number if view.current else 1
        if view.current is not None:
            started = [table.game for table in view.current.tables]
            unit.after_commit(lambda: keep_new_games(started))
        location = url_for("events.Round", event_id=event_id, number=number)
        return tables_json(view, number, links), 201, {"Location": location}


@blp.route(f"/<id:event_id>/rounds/<{ROUND}:number>")
class Round(MethodView):
    @event_protected(blp, write=True)
    @blp.response(200, RoundTablesSchema)
    def get(self, event_id: str, number: int) -> Any:
        """Show a round's table links

        Each table's game with its edit and read tokens and links again, for the organiser
        (edit token only): they are worked out from the event's edit token.
        """
        service = event_service()
        links = service.round_links(event_id, bearer_token(), number)
        view = service.get_event(event_id, bearer_token())
        return tables_json(view, number, links)

    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(SeatingSchema)
    @blp.response(200, EventSchema)
    def put(self, body: dict[str, Any], event_id: str, number: int,
            unit: UnitOfWork) -> Any:
        """Swap entrants before a round starts

        The round's tables seated anew (the same tables and games, other entrants at them),
        while no hand has been recorded at any of them: 422 after. Kept in the history.
        """
        view = event_service().swap(unit, event_id, bearer_token(), number,
                                    body.get("tables"))
        return event_json(view)


@blp.route(f"/<id:event_id>/rounds/<{ROUND}:number>/close")
class CloseRound(MethodView):
    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(CloseRoundSchema, location="json", required=False)
    @blp.response(200, EventSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], event_id: str, number: int,
             unit: UnitOfWork) -> Any:
        """Close a round

        Ends a timed round: its unfinished games count as they stand and take no more hands.
        (A round whose tables have all finished has ended already, in the write that
        finished the last one: 409 `round_closed`.)
        While players dispute hands of the round it asks first: 409 `open_disputes`, each
        disputed hand an item of `errors` (`field` `tables[t].hands[h]`, by table and hand
        number, `code` `hand_disputed`, who disputes and why), and nothing changes; send
        `{"despite_disputes": true}` to close it anyway (the history keeps the disputes open
        at that moment). The organiser can still correct a hand of a closed round.
        """
        return event_json(event_service().close_round(
            unit, event_id, bearer_token(), number,
            despite_disputes=bool((body or {}).get("despite_disputes"))))


@blp.route(f"/<id:event_id>/rounds/<{ROUND}:number>/tables/<{TABLE}:table>/hands/"
           f"<{HAND_NUMBER}:hand>")
class TableHand(MethodView):
    @event_protected(blp, write=True, check_first=True)
    @corrects_a_hand(blp)
    @blp.alt_response(409, response="CONFLICT")
    def put(self, record: dict[str, Any], event_id: str, number: int, table: int, hand: int,
            unit: UnitOfWork) -> Any:
        """Correct a table's hand as the organiser

        With the event's edit token, the organiser corrects hand `hand` of table `table`'s
        game, as `PUT /games/{id}/hands/{n}` does (`If-Match` the hand's `ETag`), and also
        once the round is closed (a dispute settled afterwards). The correction is a new
        version in the game's history and a `correct_hand` action in the event's; the
        standings follow.
        """
        corrected = event_service().correct_hand(unit, event_id, bearer_token(), number,
                                                 table, hand, record, if_match())
        return said_hand(corrected), {"ETag": hand_tag(corrected)}


@blp.route(f"/<id:event_id>/rounds/<{ROUND}:number>/tables/<{TABLE}:table>/boards/"
           "<int:board>/release")
class ReleaseBoard(MethodView):
    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @blp.response(200, EventRefusalsSchema)
    def post(self, event_id: str, number: int, table: int, board: int,
             unit: UnitOfWork) -> Any:
        """Release a board a table was refused too often

        A duplicate table's records of a board that were refused `limit` times stop it
        recording that board (429 `board_refusals_exceeded`): with the event's edit token,
        the organiser lets it record the board again. Its refusals of the board count no
        more toward the limit (they stay in its `total`), and the event's history keeps a
        `release_board` action. The answer is the event's `refusals` as they stand. 404 for
        a table or board the round does not have.
        """
        found = event_service().release_board(unit, event_id, bearer_token(), number, table,
                                              board)
        return refusals_json(found)


@blp.route("/<id:event_id>/standings")
class EventStandings(MethodView):
    @conditional_read(blp, event_protected, StandingsSchema, READ_HEADERS,
                      "nothing changed since the ETag sent")
    def get(self, event_id: str) -> Any:
        """Read the standings

        Every entrant's place, match points, difference and points, round by round, and how
        each row was reached; live (`provisional`) while a table is playing. With
        `Cache-Control: max-stale`, as for the event: the newest standings made where the
        current ones are not made yet.
        """
        return _cached_json(event_id, "standings", lambda: standings_json(
            *event_service().get_standings(event_id, bearer_token())))


@blp.route("/<id:event_id>/history")
class EventHistory(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, EventHistorySchema)
    def get(self, event_id: str) -> Any:
        """Read the organiser's history

        Every action on the event, in order: created, each round started (its seating), each
        swap (before and after), each round closed (`automatic: true` when the hand that
        finished its last table closed it; `upgrade: true` too when an earlier version of the
        service had left it open with every table finished, and the update closed it: the
        round's `closed_at` is when its last table finished, the entry's `created_at` when the
        update closed it).
        """
        return {"event_id": event_id,
                "actions": _history_json(event_service(), event_id)}


@blp.route("/<id:event_id>.json")
class EventExport(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, EventSchema)
    def get(self, event_id: str) -> Any:
        """Export the event as JSON

        The event as `GET /events/{id}` gives it, with its standings and the organiser's
        history, as one file.
        """
        service = event_service()
        view, found = service.get_standings(event_id, bearer_token())
        body = {**event_json(view), **_refusals(service, view),
                "standings": standings_json(view, found),
                "history": _history_json(service, event_id)}
        response = current_app.json.response(body)
        response.headers["Content-Disposition"] = (
            f'attachment; filename="segnapunti-event-{event_id}.json"')
        return response


def _history_json(service: EventService, event_id: str) -> list[dict[str, Any]]:
    return [action_json(a) for a in service.history(event_id, bearer_token())]


@blp.route("/<id:event_id>/standings.pdf")
class StandingsPdf(MethodView):
    @prints_standings(blp, event_protected, "The standings, A4")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """Print the standings

        The places (match points, difference, points, each round's match points), each
        round's tables with who sat where, their totals and how they ended, the byes, and how
        each place was reached. `lang=it` prints it in Italian.
        """
        lang = query.get("lang", "en")
        service = event_service()
        view, found = service.get_standings(event_id, bearer_token())
        sheet = build_standings_sheet(view, found, lang, service.clock(),
                                      Speaker(lang, None, translations(lang)),
                                      prizes=service.prize_reading(view, found),
                                      closed_by_clock=service.closed_by_clock(event_id))
        return printed(sheet)


@blp.route("/<id:event_id>/boards")
class Boards(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, BoardsSchema)
    def get(self, event_id: str) -> Any:
        """Read a duplicate event's boards

        Each board's dealer, each seat's cards (sorted by suit and rank), the dealer's extra
        cards and the exposed cards. The organiser's edit token reads every board of the
        event (the planned rounds', or those of the rounds started and the next); the room's
        read token only the boards that every table due to play them has played. 404 for an
        event of free deals.
        """
        _view, boards = event_service().get_boards(event_id, bearer_token())
        return {"boards": [b.to_json() for b in boards]}


@blp.route("/<id:event_id>/boards/<int:board>")
class BoardTraveller(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, TravellerSchema)
    def get(self, event_id: str, board: int) -> Any:
        """Read a board's traveller

        Every table's result on the board so far (round, table, who sat where, each column's
        result), scored across the room: each column's matchpoints (2 for every other result
        it beats in that column, 1 for every tie) and their percentage of the board's top,
        and with `scoring: difference` the result minus the others' average. The organiser's
        token reads any board; the room's a board once every table due to play it has (as
        its deal). 404 for a board the event does not deal.
        """
        view, found = event_service().get_traveller(event_id, bearer_token(), board)
        scoring = "difference" if view.setup.scoring == "difference" else "matchpoints"
        return found.to_json(scoring)


def _field_answer(event_id: str, what: str, build: Callable[[], dict[str, Any]]) -> Response:
    """A read of the field answered by its state (every section's): 304 while the client
    has it, else the body made once per state and language (or, with ``max-stale``, the
    newest made)."""
    lang = request_language()
    response = None
    if "max-stale" in request.cache_control:
        # A wall told by the field's stream, which made the field before it told: the
        # newest field made answers at once, whatever moved since (the stream makes that
        # and tells of it), with no section summed up or loaded.
        host = event_service().field_host(event_id, bearer_token())
        response = kept_newest(_BODIES, _field_name(host, what, lang), shared_as="event")
    if response is None:
        state, host, order = event_service().field_tag(event_id, bearer_token())
        # Every section's reader reads the same body of the field: its newest is the host's.
        response = kept_json(_BODIES, f"{state}-{what}-{lang}", build, shared_as="event",
                             newest=(_field_name(host, what, lang), order))
    if response.status_code != 304:
        response.vary.add("Accept-Language")
    return response


def _field_name(host: str, what: str, lang: str) -> str:
    """The field's ``what`` in ``lang``, whatever its state: the same for every section's
    reader (its newest body made is the host's field's)."""
    return f"field-{host}-{what}-{lang}"


def field_json(found: FieldReading, *, brief: bool = False) -> dict[str, Any]:
    """The field: its sections and its standings, each row naming its section; ``brief``:
    each row without its results on each board and its explanation."""
    names = {v.id: v.setup.name for v in found.sections}
    host = next((v for v in found.sections if v.id == found.host), None)
    rows = []
    for row, whose in zip(found.standings.rows, found.rows, strict=True):
        out = row.to_json(detail=not brief)
        del out["name"], out["entrant"]
        view = next(v for v in found.sections if v.id == whose.section)
        out |= {"section": whose.section, "section_name": names[whose.section],
                "entrant": view.setup.names()[whose.entrant], "number": whose.entrant}
        rows.append(out)
    complete = sorted(set().union(*(v.counted or () for v in found.sections)))
    return {
        "host": found.host,
        "public": bool(host is not None and host.event.public),
        "boards_complete": complete,
        "sections": [{
            "event": v.id, "name": v.setup.name, "host": v.id == found.host,
            "tables": len(v.current.tables) if v.current else 0,
            "rounds_played": len(v.rounds), "rounds_planned": v.setup.rounds,
            "status": status_of(v)} for v in found.sections],
        "provisional": found.standings.provisional,
        "rows": rows,
    }


def field_traveller_json(found: FieldTraveller) -> dict[str, Any]:
    """A board's traveller across the field, each result naming its section."""
    out = found.traveller.to_json()
    for result, scored in zip(out["results"], found.traveller.results, strict=True):
        view = found.sections[scored.play.game]
        result |= {"section": view.id, "section_name": view.setup.name}
    return out


@blp.route("/<id:event_id>/field")
class Field(MethodView):
    @conditional_read(blp, event_protected, FieldSchema, {},
                      "nothing in the field changed since the ETag sent")
    @blp.arguments(FieldQuerySchema, location="query")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """Read the field

        One field across many clubs: its sections (each club's event: its name, tables,
        rounds and status) and the field's standings, every result compared with every
        result on that board in every section (matchpoints and percentage across the field),
        each row naming its section. Any token of any section's event opens it at that
        event's id; without a token once the host has published its event. Only the boards
        no table of any section is due to play are counted. 404 for an event in no field.
        With `Cache-Control: max-stale`, as for the event: the newest field made, whatever
        moved since (a wall told by the field's stream). `rows=brief`: each row without its
        results and explanation, what a wall of the field shows (its stream makes this one
        ahead).
        """
        brief = query.get("rows") == "brief"
        return _field_answer(event_id, "field-brief" if brief else "field", lambda: field_json(
            event_service().get_field(event_id, bearer_token(), explained=not brief),
            brief=brief))


@blp.route("/<id:event_id>/field/boards/<int:board>")
class FieldTravellerResource(MethodView):
    @conditional_read(blp, event_protected, FieldTravellerSchema, {},
                      "nothing in the field changed since the ETag sent")
    def get(self, event_id: str, board: int) -> Any:
        """Read a board's traveller across the field

        Every section's results on the board, scored across the field (each result naming
        its section), once no table of any section is due to play it; 404 before, and for a
        board the field does not deal. Opened as the field is.
        """
        return _field_answer(event_id, f"board-{board}", lambda: field_traveller_json(
            event_service().get_field_traveller(event_id, bearer_token(), board)))


@blp.route("/<id:event_id>/boards.pdf")
class BoardsPdf(MethodView):
    @prints_standings(blp, event_protected, "The deal slips, A4, two boards a page",
                      write=True)
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """Print the deal slips

        What a club prints to make the boards before the evening (edit token): a half page
        per board, its number large, the dealer, each seat's cards sorted by suit and rank
        in the game's own suits, the cards the dealer takes, the exposed cards, a cut line
        between. `lang=it` prints it in Italian.
        """
        view, boards = event_service().get_slips(event_id, bearer_token())
        sheet = build_slips(view, boards, query.get("lang", "en"))
        return printed(sheet, "segnapunti.slips_pdf")


CSV_COLUMNS = ("place", "entrant", "number", "match_points", "difference", "points")


@blp.route("/<id:event_id>.csv")
class EventCsv(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, {"type": "string"}, content_type="text/csv",
                  description="The standings, a row per entrant and a column per round")
    def get(self, event_id: str) -> Any:
        """Export the standings as CSV

        A row per entrant: place, name, number, match points, difference, points, then each
        round's match points.
        """
        view, found = event_service().get_standings(event_id, bearer_token())
        return standings_csv(found, view.setup.names(), [r.number for r in view.rounds],
                             f"segnapunti-event-{event_id}.csv")


# -- the round's clock and the prize list ---------------------------------------------------


def prizes_json(found: PrizeReading) -> dict[str, Any]:
    """The prize list as the standings share it: one award per entrant who receives
    something (an amount with its cents, labels of prizes in kind, who shares the place), the
    places no entrant reaches, and the list itself."""
    names = found.names
    return {
        "final": found.final,
        "currency": found.currency,
        "prizes": [p.to_json() for p in found.prizes],
        "awards": [{
            "entrant": names[a.entrant],
            "number": a.entrant,
            "place": a.place,
            **({"amount": money_json(a.amount)} if a.amount is not None else {}),
            **({"odd_cents": a.odd_cents} if a.odd_cents else {}),
            **({"labels": list(a.labels)} if a.labels else {}),
            "shared_with": [names[e] for e in a.shared_with],
        } for a in found.shared.awards],
        "unawarded_places": list(found.shared.unawarded),
    }


@blp.route("/<id:event_id>/clock")
class EventClock(MethodView):
    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(EventClockSchema)
    @blp.response(200, EventSchema)
    def put(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Set the round's clock

        `round_minutes` (5 to 240; null: no clock): each round then says when it started and
        when it is up (`started_at`, `ends_at`), and the screens show the time left, then
        "last hand". `auto_close`: the round closes by itself `grace_minutes` (default 2)
        after its end, as the organiser's close would (unfinished tables count as they
        stand); whoever reads the event after that moment finds it closed. A field left out
        keeps its value; the round being played takes the new clock too. Edit token only.
        """
        return event_json(event_service().set_clock(unit, event_id, bearer_token(), body))


@blp.route("/<id:event_id>/prizes")
class EventPrizes(MethodView):
    @event_protected(blp, write=False)
    @blp.response(200, PrizeListSchema)
    def get(self, event_id: str) -> Any:
        """Read the prize list

        Who receives what as the standings stand: entrants who share a place share the
        prizes of the places they cover, the money equally to the cent (the odd cents go one
        each to the first sharers in the standings' order, `odd_cents`), prizes in kind
        listed with each sharer. `final` once the last round has closed; provisional before.
        Places with a prize that no entrant reaches are `unawarded_places`. Either token.
        """
        return prizes_json(event_service().get_prizes(event_id, bearer_token()))

    @event_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(EventPrizesSchema)
    @blp.response(200, PrizeListSchema)
    def put(self, body: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Set the prize list

        `prizes`: one per place from the first, each an `amount` (at least 0, in the
        event's `currency`, default EUR), a `label` (a prize in kind), or both. More prizes
        than entrants is allowed: the extra places go unawarded. A field left out keeps its
        value. Edit token only.
        """
        service = event_service()
        service.set_prizes(unit, event_id, bearer_token(), body)
        return prizes_json(service.get_prizes(event_id, bearer_token()))
