"""Stored games: create and read a game, record / correct / delete hands, the history."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from service.application.caches import LruCache
from service.application.event_clock import round_clock_json
from service.application.games import Access, GameService, GameView, HandView
from service.application.language import Speaker
from service.application.ports import HandVersion
from service.application.unit_of_work import UnitOfWork
from service.domain import Board

from ..follow import TAG_ONLY
from ..jsonbody import said_json
from ..language import language_tag, speaker
from ..paths import API_PREFIX
from ..routing import HAND_NUMBER
from ..schemas import (
    ConfirmationRequestSchema,
    ConfirmationResultSchema,
    CreatedGameSchema,
    GameCreateSchema,
    GameSchema,
    HandRecordSchema,
    HandSchema,
    HistorySchema,
    PlayerLinksSchema,
)
from ..shared_bodies import SharedBodies
from ..smorest import Blueprint
from .common import (
    F,
    bearer_token,
    club_seats,
    club_service,
    conditional_read,
    creates,
    game_service,
    header_parameter,
    if_match,
    json_body,
    not_modified_doc,
    protected,
    quoted,
    stacked,
    write,
)

blp = Blueprint(
    "games",
    __name__,
    url_prefix=f"{API_PREFIX}/games",
    description="Stored games, their hands and history (need the game's token)",
)

ETAG_HEADER = {"ETag": {"description": "the hand's entity tag", "schema": {"type": "string"}}}
GAME_ETAG_HEADER = {
    "ETag": {"description": "the game's entity tag (weak; changes with every change to its "
                            "hands)", "schema": {"type": "string"}}
}
#: What the token sent may do with the game, so that a client can tell a read-only link from
#: the scorekeeper's without trying a change.
ACCESS_HEADER = "Game-Access"
GAME_READ_HEADERS = {
    **GAME_ETAG_HEADER,
    ACCESS_HEADER: {"description": "`edit` when the token sent is the game's edit token, "
                                   "`read` for its read-only token, `player` for a "
                                   "player's link (which reads the game as that seat)",
                    "schema": {"type": "string", "enum": ["edit", "read", "player"]}},
}
#: The seat a player's link speaks for, so that the page shows that player their own
#: buttons to confirm or dispute.
SEAT_HEADER = "Game-Seat"
GAME_READ_HEADERS[SEAT_HEADER] = {
    "description": "with a player's link, the seat it speaks for", "schema": {"type": "integer"}}
IF_MATCH = header_parameter(
    "If-Match", "the hand's current ETag (428 without it, 412 when stale)", required=True)


def corrects_a_hand(blp: Blueprint) -> Callable[[F], F]:
    """A PUT whose record replaces a hand's, in a unit of work: 200 with the hand's new
    ``ETag``; ``If-Match`` with the version read is required (428 without, 412 when stale)."""
    return stacked(write(blp), json_body(blp), blp.arguments(HandRecordSchema),
                   blp.response(200, HandSchema, headers=ETAG_HEADER),
                   blp.alt_response(412, response="PRECONDITION_FAILED"),
                   blp.alt_response(428, response="PRECONDITION_REQUIRED"),
                   blp.doc(parameters=[IF_MATCH]))


#: The JSON body of each recently read version of a game, by its entity tag (which names
#: the game, its version and the rules version), in this process: 4 MB of them (a 100-hand
#: game is 167 kB as JSON, some 15 kB gzipped).
_GAME_BODIES: LruCache[str, bytes] = LruCache(4 * 1024 * 1024, weight=len)


# -- serialisation --------------------------------------------------------------------------


def hand_json(hand: HandView) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        "etag": quoted(hand.etag),
        "dealer": hand.dealer,
        "record": hand.record,
        "result": hand.result.to_json(),
        "rules_version": hand.rules_version,
        "created_at": hand.created_at.isoformat(),
        "updated_at": hand.updated_at.isoformat(),
        "confirmations": [c.to_json() for c in hand.confirmations],
        "standing": hand.standing.to_json(),
        "final": hand.final,
        **({"board": hand.board.number} if hand.board is not None else {}),
    }


def hand_tag(hand: HandView) -> str:
    """The ``ETag`` header of a hand as this request reads it: its lines are said in the
    request's language, so each language's body is a representation of its own (``If-Match``
    takes any of them, or the body's ``etag``)."""
    return quoted(language_tag(hand.etag))


def hand_speaker(hand: HandView) -> Speaker:
    """The request's language, saying a hand's cards and seats as its table does."""
    return speaker(hand.family, hand.seats)


def game_speaker(view: GameView) -> Speaker:
    """The request's language, saying a game's cards and seats as its table does."""
    return speaker(view.setup.variant.family, view.setup.seat_names())


def said_hand(hand: HandView) -> Response:
    """A hand's body, said as its table does."""
    return said_json(hand_json(hand), hand_speaker(hand))


def said_game(view: GameView, *, clock: dict[str, Any] | None = None,
              **more: Any) -> Response:
    """A game's body (and ``more`` fields after it), said as its table does; ``clock``: its
    round's clock, where the caller has it already (``game_json``)."""
    return said_json({**game_json(view, clock=clock), **more}, game_speaker(view))


def game_json(view: GameView, *, clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """A game's body. At an event's table ``clock`` is its round's clock
    (``table_round_clock``), where the caller has read it already: a round's tables share
    one."""
    game = view.game
    summary = view.summary.to_json()
    return {
        "id": game.id,
        "version": game.version,
        "variant": game.variant,
        "options": dict(view.setup.options),
        "players": list(game.players),
        "seats": view.setup.seat_names(),
        "first_dealer": game.first_dealer,
        "sides": view.setup.variant.summary().get("sides"),
        **summary,
        "hands": [hand_json(hand) for hand in view.hands],
        "confirmation": view.confirmation(),
        **({"boards": [table_board_json(b, reached=i <= len(view.hands))
                       for i, b in enumerate(view.setup.boards)]}
           if view.setup.boards else {}),
        **({"event": {"id": game.event[0], "round": game.event[1], "table": game.event[2],
                      "closed": game.closed_at is not None,
                      **(table_round_clock(game.event[0], game.event[1])
                         if clock is None else clock)}}
           if game.event else {}),
        **({"club": {"id": game.club, "members": list(game.seat_members or ())}}
           if game.club else {}),
        **({"ended_at": game.ended_at.isoformat()} if game.ended_at else {}),
        "created_at": game.created_at.isoformat(),
    }


def table_round_clock(event_id: str, number: int) -> dict[str, Any]:
    """A table's round as its sheet shows the clock: when it started and, at an event with a
    clock, when it is up and when it closes by itself (a change of the clock moves the
    round's games on a version, so this is made again)."""
    found = current_app.extensions["segnapunti.events"].round_clock(event_id, number)
    if found is None:
        return {}
    clock, started_at = found
    return {"started_at": started_at.isoformat(), **round_clock_json(clock, started_at)}


def table_board_json(board: Board, *, reached: bool) -> dict[str, Any]:
    """What a duplicate table sees of one of its boards: its number, who deals it, and, once
    the table has reached it (played it, or it is the next to play), the cards exposed at the
    deal (the deal itself is on the slip in the board). A later board's exposed cards would
    tell the table where cards lie before it plays it."""
    return {"board": board.number, "dealer": board.dealer,
            "exposed": [c.code for c in board.exposed] if reached else []}


def version_json(entry: HandVersion) -> dict[str, Any]:
    return {
        "number": entry.number,
        "version": entry.version,
        "action": entry.action,
        "record": entry.record,
        "rules_version": entry.rules_version,
        "token_kind": entry.token_kind,
        "created_at": entry.created_at.isoformat(),
        "confirmations": [c.to_json() for c in entry.confirmations],
    }


def share_link(game_id: str, token: str) -> str:
    """The page's address for a game, the token in the fragment (``#…``): a fragment is never
    sent in a request, so it reaches neither server nor proxy logs, and never a ``Referer``.
    ``PUBLIC_URL`` names the site when a proxy hides it."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/#/games/{game_id}?token={token}"


def weak(etag: str) -> str:
    return f'W/"{etag}"'


def not_modified(etag: str, *, weak: bool) -> Response:
    response = Response(status=304)
    response.set_etag(etag, weak=weak)
    return response


def wants_tag_only() -> bool:
    """Whether the request is a stream's reading, which asks for the entity tag alone
    (``follow.TAG_ONLY``)."""
    return bool(request.environ.get(TAG_ONLY))


#: How hard a kept JSON body is compressed: made once per state and sent to every reader of
#: it, but made while its first readers wait; a field's standings (some 3 MB of JSON at the
#: end of a night) take 18 ms at this level and shrink to a seventh, where level 6 takes 41 ms
#: for a quarter less (docs/decisions.md, "A field's body").
KEPT_LEVEL = 3


def kept_json(bodies: LruCache[str, bytes], tag: str,
              build: Callable[[], dict[str, Any]], *, shared_as: str | None = None,
              newest: tuple[str, int] | None = None) -> Response:
    """A read by its weak entity tag ``tag``: 304 while the client has it, else the JSON body
    ``build`` makes, made once per tag in this process (kept in ``bodies``) and, with
    ``shared_as`` (what the tag is the tag of), once for every process sharing a cache
    (``shared_bodies``). ``newest``: the resource's name for one kind of reader, and the
    order of its state now; a reader that accepts a stale answer (``Cache-Control:
    max-stale``: one its stream told, the stream making this state) is answered the newest
    state made so far where this one is not made yet, with that state's tag. The body is
    kept gzip-compressed (``_kept_answer``)."""
    if wants_tag_only() or (request.if_none_match
                            and request.if_none_match.contains_weak(tag)):
        return not_modified(tag, weak=True)
    body = bodies.get(_kept_key(tag))
    if body is None:
        shared = current_app.extensions.get("segnapunti.shared_bodies") if shared_as else None

        def made() -> bytes:
            return gzip.compress(current_app.json.response(build()).get_data(),
                                 compresslevel=KEPT_LEVEL, mtime=0)

        if shared is None or shared_as is None:
            body = made()
        else:
            # The key answered may be an older state's (max-stale: this one is not made yet).
            return _shared_answer(bodies, shared_as, *shared.answered(
                f"{shared_as}:{_kept_key(tag)}", made,
                newest=(f"{shared_as}:{_kept_key(newest[0])}", newest[1]) if newest else None,
                stale="max-stale" in request.cache_control))
        bodies.put(_kept_key(tag), body)
    return _kept_answer(body, tag)


def kept_newest(bodies: LruCache[str, bytes], name: str, *, shared_as: str
                ) -> Response | None:
    """A read answered by the newest body made of ``name`` (``kept_json``'s ``newest``) by
    any process sharing a cache, under that body's own tag: 304 while the client has it;
    None when none is kept (or nothing is shared)."""
    shared = current_app.extensions.get("segnapunti.shared_bodies")
    found = shared.newest_made(f"{shared_as}:{_kept_key(name)}") if shared else None
    if found is None:
        return None
    return _shared_answer(bodies, shared_as, *found)


def _shared_answer(bodies: LruCache[str, bytes], shared_as: str, key: str, body: bytes
                   ) -> Response:
    """A body read from the shared cache under ``key`` (``shared_as:…``), answered under the
    tag it was made for and kept in ``bodies``: 304 while the client has that tag."""
    tag = key.removeprefix(f"{shared_as}:").removesuffix(_KEPT_SUFFIX)
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        return not_modified(tag, weak=True)
    bodies.put(_kept_key(tag), body)
    return _kept_answer(body, tag)


#: What a kept body's key says of it: gzip-compressed (a process that kept bodies otherwise
#: never takes one for its own).
_KEPT_SUFFIX = "/gzip"


def _kept_key(tag: str) -> str:
    return f"{tag}{_KEPT_SUFFIX}"


def _kept_answer(body: bytes, tag: str) -> Response:
    """A kept body (gzip) as the client takes it: as it is, for one that takes gzip (the
    proxy, seeing it encoded, sends it on as it is: a field's standings are compressed once
    per state, not once a reader), inflated for one that does not."""
    gzip_ok = "gzip" in request.accept_encodings
    return _encoded_json(body if gzip_ok else gzip.decompress(body), tag, gzipped=gzip_ok)


def _encoded_json(body: bytes, tag: str, *, gzipped: bool) -> Response:
    """A JSON body under its weak entity tag, as it varies with ``Accept-Encoding``;
    ``gzipped``: sent gzip-encoded."""
    response = Response(body, mimetype="application/json")
    response.headers["ETag"] = weak(tag)
    response.vary.add("Accept-Encoding")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    return response


def _hand_url(game_id: str, number: int) -> str:
    return url_for("games.Hand", game_id=game_id, number=number)


# -- resources ------------------------------------------------------------------------------


@blp.route("")
class Games(MethodView):
    @creates(blp, GameCreateSchema, CreatedGameSchema)
    def post(self, body: dict[str, Any], unit: UnitOfWork) -> Any:
        """Start a game

        The response holds the game's edit and read tokens, shown only here: keep them. The
        `links` carry them in the URL fragment, to share the game with another phone.

        A game of a club (`club`, with the club's edit token in `Club-Authorization:
        Bearer …`): each seat is `{"member": id}` or a name, which is the club's member of
        that name, or a new member. A member not on the club's roster (another club's,
        merged, forgotten) or on two seats is 422 on that seat.
        """
        link = club_seats(body)
        created = game_service().create_game(
            unit, body["variant"], body.get("options"),
            link.choice.names if link else body["players"], body.get("first_dealer"),
            problems=link.choice.problems if link else (),
            club=(link.club.id, club_service().seat(unit, link, "game")) if link else None)
        tokens = {"edit": created.edit_token, "read": created.read_token,
                  "players": list(created.player_tokens)}
        links = {
            "edit": share_link(created.view.id, created.edit_token),
            "read": share_link(created.view.id, created.read_token),
            "players": _player_links(created.view.id, created.player_tokens),
        }
        location = url_for("games.Game", game_id=created.view.id)
        return said_game(created.view, tokens=tokens, links=links), 201, {"Location": location}


def _player_links(game_id: str, tokens: tuple[str | None, ...]) -> list[str | None]:
    return [share_link(game_id, token) if token else None for token in tokens]


@blp.route("/<game_id:game_id>/players")
class PlayerLinks(MethodView):
    @protected(blp, write=True)
    @blp.response(200, PlayerLinksSchema)
    def get(self, game_id: str) -> Any:
        """Show the player links

        Each seat's player token and link, for the edit token only. A player's link opens the
        game to read it as that seat (`Game-Access: player`) and changes nothing; the links
        are worked out from the edit token, so they are the same each time.
        """
        tokens = game_service().player_links(game_id, bearer_token())
        return {"tokens": list(tokens), "links": _player_links(game_id, tokens)}


@blp.route("/<game_id:game_id>")
class Game(MethodView):
    @conditional_read(blp, protected, GameSchema, GAME_READ_HEADERS,
                      "the game is as the ETag sent")
    def get(self, game_id: str) -> Any:
        """Read a game

        Players and seats, every hand with its record and result, running totals, status,
        winners and the next dealer. Either token opens it, and `Game-Access` says which it
        is (`edit` or `read`). A page that polls sends the `ETag` it has as
        `If-None-Match` and gets `304` until the game changes.
        """
        service = game_service()
        access = service.authorize(game_id, bearer_token(), write=False)
        response = self._read(service, access)
        response.headers[ACCESS_HEADER] = access.kind
        if access.seat is not None:
            response.headers[SEAT_HEADER] = str(access.seat)
        return response

    @staticmethod
    def _read(service: GameService, access: Access) -> Response:
        if wants_tag_only():
            return not_modified(language_tag(service.tag_of(access)), weak=True)
        if request.if_none_match:
            tag = language_tag(service.tag_of(access))
            if request.if_none_match.contains_weak(tag):
                return not_modified(tag, weak=True)
        gzip_ok = "gzip" in request.accept_encodings
        encoding = "gzip" if gzip_ok else "identity"
        # The version its credentials read, as this process or another made it (a room's
        # phones open their new tables all at once, each table's four and its streams on
        # whichever worker): the game itself is then not read at all.
        tag = language_tag(service.tag_of(access))
        body = _kept_body(tag, encoding)
        if body is None:
            view = service.view_for(access)  # that version, or a later one
            later = language_tag(view.etag)
            if later != tag:
                tag, body = later, _GAME_BODIES.get(f"{later}/{encoding}")
            if body is None:
                body = _keep_body(view, tag, encoding)
        return _encoded_json(body, tag, gzipped=gzip_ok)


def _shared() -> SharedBodies | None:
    return current_app.extensions.get("segnapunti.shared_bodies")


def _kept_body(tag: str, encoding: str) -> bytes | None:
    """A version's body in ``encoding`` as this process keeps it, or another made it."""
    key = f"{tag}/{encoding}"
    body = _GAME_BODIES.get(key)
    shared = _shared()
    if body is None and shared is not None:
        body = shared.get(f"game:{key}")
        if body is not None:
            _GAME_BODIES.put(key, body)
    return body


def _encoded(plain: bytes, encoding: str) -> bytes:
    """A version's JSON body (what flask-smorest would send: ``GameSchema`` sends the body as
    built) in ``encoding``: compressed for the clients that take gzip (a long game's JSON is
    mostly repeated keys)."""
    return gzip.compress(plain, compresslevel=6, mtime=0) if encoding == "gzip" else plain


def _kept_here(tag: str, encoding: str, plain: bytes) -> tuple[str, bytes]:
    """A version's body (``tag``: its entity tag in the request's language; ``plain``: its
    JSON) in ``encoding``, kept in this process; its key in the shared cache, and the body,
    for the caller to keep there."""
    body = _encoded(plain, encoding)
    _GAME_BODIES.put(f"{tag}/{encoding}", body)
    return f"game:{tag}/{encoding}", body


def _keep_body(view: GameView, tag: str, encoding: str) -> bytes:
    """A version's body in ``encoding``, kept in this process and for every other. The next
    read of that version costs neither."""
    key, body = _kept_here(tag, encoding, said_game(view).get_data())
    shared = _shared()
    if shared is not None:
        shared.put(key, body)
    return body


def keep_new_games(views: Iterable[GameView]) -> None:
    """The first bodies of games just created (a round's tables), made once by the request
    that created them, in its language and in both encodings, kept for every process in one
    exchange with the shared cache: a room's phones open their new tables within the same
    minute, four to a game and each with its stream, and would otherwise each make the same
    body on whichever worker they reach. A round's tables share their round's clock, read
    once."""
    clocks: dict[tuple[str, int], dict[str, Any]] = {}
    kept: list[tuple[str, bytes]] = []
    for view in views:
        clock = None
        if view.game.event is not None:
            event, number, _table = view.game.event
            if (event, number) not in clocks:
                clocks[event, number] = table_round_clock(event, number)
            clock = clocks[event, number]
        tag = language_tag(view.etag)
        plain = said_game(view, clock=clock).get_data()
        kept += [_kept_here(tag, encoding, plain) for encoding in ("identity", "gzip")]
    shared = _shared()
    if shared is not None and kept:
        shared.put_many(kept)


@blp.route("/<game_id:game_id>/hands")
class Hands(MethodView):
    @protected(blp, write=True, check_first=True)
    @creates(blp, HandRecordSchema, HandSchema, ETAG_HEADER)
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def post(self, record: dict[str, Any], game_id: str, access: Access,
             unit: UnitOfWork) -> Any:
        """Record the next hand

        The record's dealer must be the game's `next_dealer`. A rejected hand (422) changes
        nothing; a finished game takes no more hands (409). At a duplicate table a refused
        record is counted for its board: past the event's limit the table records that
        board no more (429 `board_refusals_exceeded`) until the organiser releases it.
        """
        hand = game_service().add_hand(unit, access, record)
        headers = {"Location": _hand_url(game_id, hand.number), "ETag": hand_tag(hand)}
        return said_hand(hand), 201, headers


@blp.route(f"/<game_id:game_id>/hands/<{HAND_NUMBER}:number>")
class Hand(MethodView):
    @protected(blp, write=False)
    @blp.response(200, HandSchema, headers=ETAG_HEADER)
    @not_modified_doc(blp, "the hand is as the ETag sent")
    def get(self, game_id: str, number: int) -> Any:
        """Read one hand

        With its `ETag`, needed to correct or delete it.
        """
        hand = game_service().get_hand(game_id, bearer_token(), number)
        tag = language_tag(hand.etag)
        if request.if_none_match.contains_weak(tag):
            return not_modified(tag, weak=False)
        return said_hand(hand), {"ETag": quoted(tag)}

    @protected(blp, write=True, check_first=True)
    @corrects_a_hand(blp)
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def put(self, record: dict[str, Any], game_id: str, number: int, access: Access,
            unit: UnitOfWork) -> Any:
        """Correct a recorded hand

        A new version replaces the hand (earlier versions stay in the history) and every
        total after it is recomputed. The record's dealer must be the dealer of that hand.
        At a duplicate table a refused correction is counted for the hand's board, as a
        refused record is (429 `board_refusals_exceeded` past the limit).
        """
        hand = game_service().correct_hand(unit, access, number, record, if_match())
        return said_hand(hand), {"ETag": hand_tag(hand)}

    @protected(blp, write=True, check_first=True)
    @write(blp)
    @blp.response(204)
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(412, response="PRECONDITION_FAILED")
    @blp.alt_response(428, response="PRECONDITION_REQUIRED")
    @blp.doc(parameters=[IF_MATCH])
    def delete(self, game_id: str, number: int, access: Access, unit: UnitOfWork) -> Any:
        """Delete the last hand

        Only the last hand can be deleted; the deletion is recorded in the history.
        """
        game_service().delete_hand(unit, access, number, if_match())
        return None


@blp.route(f"/<game_id:game_id>/hands/<{HAND_NUMBER}:number>/confirmations")
class Confirmations(MethodView):
    @protected(blp, write=False, player=True, check_first=True)
    @creates(blp, ConfirmationRequestSchema, ConfirmationResultSchema)
    @blp.alt_response(200, schema=ConfirmationResultSchema,
                      description="the same verdict was already given on this version")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(412, response="PRECONDITION_FAILED")
    @blp.doc(parameters=[{**IF_MATCH, "required": False, "description": (
        "the ETag of the hand as the player read it: 412 when the hand has been corrected "
        "since (without it, the verdict is on the hand as it is now)")}])
    def post(self, body: dict[str, Any], game_id: str, number: int, access: Access,
             unit: UnitOfWork) -> Any:
        """Confirm or dispute a hand

        With a player's link only: that player's verdict on the hand's current version,
        `confirm`, or `dispute` with a reason. The same verdict again changes nothing (200);
        another replaces the player's earlier one. A correction makes a new version that
        nobody has vouched for yet; the history keeps every verdict. A game whose
        `confirmation` option is `none` takes none (409).
        """
        hand, confirmation, created = game_service().confirm_hand(
            unit, access, number, body["verdict"], body.get("reason"), if_match())
        data = {**confirmation.to_json(), "hand": hand.number,
                "standing": hand.standing.to_json(), "final": hand.final}
        return (said_json(data, hand_speaker(hand)), 201 if created else 200,
                {"Location": _hand_url(game_id, hand.number)})


#: The scorekeeper's word on the evening (edit token, keyed): the game as it is after it.
evening_action = stacked(protected(blp, write=True, check_first=True),
                         write(blp, idempotent=True), blp.response(200, GameSchema),
                         blp.alt_response(409, response="CONFLICT"))


@blp.route("/<game_id:game_id>/end")
class EndEvening(MethodView):
    @evening_action
    def post(self, game_id: str, access: Access, unit: UnitOfWork) -> Any:
        """The evening is over

        For a game with no natural end (a Mitigatti evening): the scorekeeper ends it after
        its last hand. It is then `finished` (`ended_by: evening_over`, the best balance
        winning), takes no more hands, and counts for its club; kept in the history (an
        `end` entry, hand 0). Taken back by `POST …/reopen`. A game that ends by its own
        rules, or has no hand yet, is 409. Takes no body.
        """
        return said_game(game_service().end_evening(unit, access, True))


@blp.route("/<game_id:game_id>/reopen")
class ReopenEvening(MethodView):
    @evening_action
    def post(self, game_id: str, access: Access, unit: UnitOfWork) -> Any:
        """Take back "the evening is over"

        The game plays on, and counts for its club no more until it is ended again; kept in
        the history (a `reopen` entry). 409 when the evening is not over. Takes no body.
        """
        return said_game(game_service().end_evening(unit, access, False))


@blp.route("/<game_id:game_id>/history")
class History(MethodView):
    @protected(blp, write=False)
    @blp.response(200, HistorySchema)
    def get(self, game_id: str) -> Any:
        """Read the history

        Every version of every hand, oldest first: what changed, when, with which token.
        """
        versions = game_service().history(game_id, bearer_token())
        return {"game_id": game_id, "versions": [version_json(v) for v in versions]}
