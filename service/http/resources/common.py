"""Helpers shared by the views: the use cases, the bearer token, ``If-Match``, writes (run by
the application's unit of work, to which ``write`` hands the ``Idempotency-Key`` and the body),
and the documentation of protected operations."""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import Response, current_app, request
from flask_smorest import Blueprint
from werkzeug.exceptions import HTTPException

from service.application.clubs import ClubService, EntrantLink, SeatLink
from service.application.errors import PreconditionRequired
from service.application.games import ANY_VERSION, GameService
from service.application.idempotency import KEY_MAX_LENGTH, SavedResponse
from service.application.language import LANGUAGES
from service.application.ports import EventAction
from service.application.unit_of_work import KeyedRequest, UnitOfWork, UnitOfWorkFactory
from service.domain import (
    Standings,
    Text,
    decimal_json,
)

from ..jsonbody import MalformedJson, request_json
from ..schemas.events import EventSheetQuerySchema

F = TypeVar("F", bound=Callable[..., Any])

SECURITY: list[dict[str, list[str]]] = [{"gameToken": []}]


def game_service() -> GameService:
    service: GameService = current_app.extensions["segnapunti.games"]
    return service


def unit_of_work() -> UnitOfWork:
    """A new unit of work for this request's write."""
    units: UnitOfWorkFactory = current_app.extensions["segnapunti.units"]
    return units()


def bearer_token(header: str = "Authorization") -> str | None:
    scheme, _, value = request.headers.get(header, "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


#: The header that carries a club's edit token when a game or an event joins the club.
CLUB_AUTHORIZATION = "Club-Authorization"


def club_service() -> ClubService:
    service: ClubService = current_app.extensions["segnapunti.clubs"]
    return service


def club_seats(body: dict[str, Any]) -> SeatLink | None:
    """A new game's seats as members of the club the body names (``club``), with the club's
    edit token in ``Club-Authorization``; None for no club."""
    if body.get("club") is None:
        return None
    return club_service().link_seats(body["club"], bearer_token(CLUB_AUTHORIZATION),
                                     body["players"])


def club_entrants(body: dict[str, Any]) -> EntrantLink | None:
    """A new event's entrants as members of the club the body names, as ``club_seats``."""
    if body.get("club") is None:
        return None
    return club_service().link_entrants(body["club"], bearer_token(CLUB_AUTHORIZATION),
                                        body.get("entrants"))


def if_match() -> list[str] | None:
    """The strong entity tags of ``If-Match`` (``["*"]`` for any), ``None`` without one.
    A weak tag never matches: ``If-Match`` compares strongly (RFC 9110 §13.1.1)."""
    if "If-Match" not in request.headers:
        return None
    tags = request.if_match
    if tags.star_tag:
        return [ANY_VERSION]
    # Werkzeug reads an empty tag ("") as None: it names no version.
    return sorted(_any_language(tag) for tag in tags.as_set() if tag)


def _any_language(tag: str) -> str:
    """A tag as it names a version, whatever language it was read in (``language_tag``)."""
    base, dot, lang = tag.rpartition(".")
    return base if dot and lang in LANGUAGES else tag


def quoted(etag: str) -> str:
    return f'"{etag}"'


def protected(blp: Blueprint, *, write: bool, check_first: bool = False,
              player: bool = False) -> Callable[[F], F]:
    """Document an operation as needing a game token (401, 403, 404). With ``check_first``
    the token is checked before the body is parsed, so a request without the right token
    learns nothing from validation errors, and the view gets the ``access`` decided (an
    ``Access``) to hand to its use case. With ``player`` only a player's link will do (a
    verdict on a hand). Apply above ``blp.arguments``."""

    def decorator(view: F) -> F:
        wrapped: Callable[..., Any] = view
        if check_first:

            @functools.wraps(view)
            def checked(*args: Any, **kwargs: Any) -> Any:
                access = game_service().authorize(kwargs["game_id"], bearer_token(),
                                                  write=write, player=player)
                if write and request.method in {"PUT", "DELETE"} and "If-Match" not in (
                    request.headers
                ):
                    raise PreconditionRequired(
                        Text("send If-Match with the hand's ETag to change it")
                    )
                return view(*args, access=access, **kwargs)

            wrapped = checked
        wrapped = blp.alt_response(401, response="UNAUTHORIZED")(wrapped)
        if write or player:
            wrapped = blp.alt_response(403, response="FORBIDDEN")(wrapped)
        wrapped = blp.alt_response(404, response="NOT_FOUND")(wrapped)
        wrapped = blp.doc(security=SECURITY)(wrapped)
        return wrapped  # type: ignore[return-value]

    return decorator


def token_protected(service: Callable[[], Any], id_arg: str
                    ) -> Callable[..., Callable[[F], F]]:
    """The ``protected`` of a resource opened by a token of its own (an event's, a club's):
    ``service()`` answers ``authorize(id, token, write=)`` for the id in the path argument
    ``id_arg``. The decorator documents the operation as needing that token (401, 403 for a
    change with the read token, 404); with ``check_first`` the token is checked before the
    body is read."""

    def protect(blp: Blueprint, *, write: bool, check_first: bool = False) -> Callable[[F], F]:
        def decorator(view: F) -> F:
            wrapped: Callable[..., Any] = view
            if check_first:
                @functools.wraps(view)
                def checked(*args: Any, **kwargs: Any) -> Any:
                    service().authorize(kwargs[id_arg], bearer_token(), write=write)
                    return view(*args, **kwargs)

                wrapped = checked
            wrapped = blp.alt_response(401, response="UNAUTHORIZED")(wrapped)
            if write:
                wrapped = blp.alt_response(403, response="FORBIDDEN")(wrapped)
            wrapped = blp.alt_response(404, response="NOT_FOUND")(wrapped)
            wrapped = blp.doc(security=SECURITY)(wrapped)
            return wrapped  # type: ignore[return-value]

        return decorator

    return protect


def header_parameter(name: str, description: str, *, required: bool = False,
                     **schema: Any) -> dict[str, Any]:
    """A request header as the OpenAPI document lists it (a string unless ``schema`` says)."""
    return {"in": "header", "name": name, "required": required, "description": description,
            "schema": {"type": "string", **schema}}


IF_NONE_MATCH = header_parameter(
    "If-None-Match", "an ETag read before: 304 Not Modified while it is still current")


def not_modified_doc(blp: Blueprint, what: str,
                     headers: dict[str, Any] | None = None) -> Callable[[F], F]:
    """Document a read that answers ``304 Not Modified`` to an ``If-None-Match`` naming what
    it would send (``what``: "the game is as the ETag sent")."""

    def decorator(view: F) -> F:
        wrapped: Callable[..., Any] = blp.doc(parameters=[IF_NONE_MATCH])(view)
        extra = {} if headers is None else {"headers": headers}
        wrapped = blp.alt_response(304, description=f"Not Modified: {what}", **extra)(wrapped)
        return wrapped  # type: ignore[return-value]

    return decorator


def tagged_by_content(schema: Any, data: Any) -> Response:
    """A read's JSON answer (``data`` as ``schema`` dumps it) whose entity tag is its body's
    digest: 304 while the ``If-None-Match`` sent names that body. For a resource with no cheap
    version of its own (the door, an entrant's page): it is made for every read all the same,
    but a screen reading it again learns in a few bytes that nothing moved, and draws
    nothing anew."""
    response = cast(Response, current_app.json.response(schema.dump(data)))
    response.add_etag(weak=True)
    response.make_conditional(request)  # made a 304 in place while the tag sent names it
    return response


def stacked(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """Several decorators as one, applied as they would be written one above the other."""

    def decorator(view: F) -> F:
        for decorate in reversed(decorators):
            view = decorate(view)
        return view

    return decorator


def conditional_read(blp: Blueprint, guard: Callable[..., Callable[[F], F]], schema: Any,
                     headers: dict[str, Any], what: str) -> Callable[[F], F]:
    """A read behind ``guard`` (a game's or an event's token check) that answers 200 with
    ``schema`` and ``headers``, or 304 while the ETag sent names ``what`` it would send."""
    return stacked(guard(blp, write=False), blp.response(200, schema, headers=headers),
                   not_modified_doc(blp, what, headers))


def json_body(blp: Blueprint) -> Callable[[F], F]:
    """Document the errors of a JSON request body: malformed (400), over 1 MiB (413), not
    JSON (415). Schema (422) errors are documented by ``blp.arguments``."""

    def decorator(view: F) -> F:
        wrapped: Callable[..., Any] = view
        wrapped = blp.alt_response(400, response="BAD_REQUEST")(wrapped)
        wrapped = blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")(wrapped)
        wrapped = blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")(wrapped)
        return wrapped  # type: ignore[return-value]

    return decorator


IDEMPOTENCY_KEY = header_parameter(
    "Idempotency-Key",
    "a fresh random value (a UUID) per new request: a retry with the same key and body "
    "gets the first response again (with `Idempotent-Replayed: true`) and creates nothing; "
    "the same key with another body is a 422. Keys are kept 24 hours.",
    minLength=1, maxLength=KEY_MAX_LENGTH)
# The headers of a first response that its replay repeats.
_REPLAYED_HEADERS = ("Content-Type", "Location", "ETag")


def write(blp: Blueprint, *, idempotent: bool = False) -> Callable[[F], F]:
    """A view that changes something, run by a new ``UnitOfWork`` (one transaction, tried
    again from a fresh read when a concurrent request changed the game first, the work after
    its commit), which the view gets as ``unit`` to hand to its use case. With
    ``idempotent``, the view takes an ``Idempotency-Key``: this reads it and the body, and
    the unit of work replays or remembers the response. The scope of a key is the game or
    event of the path, or none for a request outside one. Apply below ``protected`` (the
    token is checked before anything is replayed) and above ``blp.arguments``."""

    def decorator(view: F) -> F:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            unit = unit_of_work()
            key = request.headers.get("Idempotency-Key") if idempotent else None
            body = _json_or_none() if key is not None else None
            if key is None or body is None:  # a malformed body: the view answers 400 / 422
                return unit.run(lambda: view(*args, unit=unit, **kwargs))
            keyed = KeyedRequest(scope=str(kwargs.get("game_id") or kwargs.get("event_id")
                                             or kwargs.get("club_id") or ""),
                                 key=key, method=request.method, path=request.path, body=body)
            return unit.run_once(
                keyed, lambda: current_app.make_response(view(*args, unit=unit, **kwargs)),
                kept=_first_response, replayed=_replayed)

        wrapped: Callable[..., Any] = wrapper
        if idempotent:
            wrapped = blp.doc(parameters=[IDEMPOTENCY_KEY])(wrapped)
            wrapped = blp.alt_response(422, response="UNPROCESSABLE_ENTITY")(wrapped)
            # A retry whose first response named a club's member since forgotten.
            wrapped = blp.alt_response(410, response="GONE")(wrapped)
        return wrapped  # type: ignore[return-value]

    return decorator


LOCATION_HEADER = {"Location": {"description": "the new resource", "schema": {"type": "string"}}}


def creates(blp: Blueprint, body_schema: Any, created_schema: Any,
            headers: dict[str, Any] | None = None) -> Callable[[F], F]:
    """A POST that makes something from a JSON body: a unit of work keyed by an
    ``Idempotency-Key``, the body's errors documented, 201 with the new resource's
    ``Location`` (and ``headers``)."""
    return stacked(write(blp, idempotent=True), json_body(blp), blp.arguments(body_schema),
                   blp.response(201, created_schema, headers={**LOCATION_HEADER, **(headers or {})}))


def _json_or_none() -> Any:
    try:
        return request_json(request)
    except MalformedJson:
        return None


def _first_response(response: Response) -> SavedResponse | None:
    """What a replay repeats of a successful first response; nothing of any other."""
    if not 200 <= response.status_code < 300:
        return None
    headers = {name: response.headers[name] for name in _REPLAYED_HEADERS
               if name in response.headers}
    return SavedResponse(response.status_code, headers, response.get_data(),
                         subject=_subject(response))


#: The ids a route names, most particular first: what a response is about.
_SUBJECTS = ("member_id", "event_id", "game_id")


def _subject(response: Response) -> str | None:
    """What a first response is about, kept with it so that the answers naming a club's
    member can be withdrawn when they are forgotten: the member, event or game it made (by
    its ``Location``'s route) or that its request's path names."""
    args: dict[str, Any] = dict(request.view_args or {})
    location = response.headers.get("Location")
    if location:
        path = urlsplit(location).path
        root = request.script_root
        if root and path.startswith(root):
            path = path[len(root):]
        adapter = current_app.create_url_adapter(request)
        try:
            if adapter is not None:
                args = dict(adapter.match(path, method="GET")[1])
        except HTTPException:
            pass
    return next((str(args[name]) for name in _SUBJECTS if args.get(name)), None)


def _replayed(saved: SavedResponse) -> Response:
    response = Response(saved.body, status=saved.status)
    for name, value in saved.headers.items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


# -- standings, as events and clubs' seasons give them ---------------------------------------

CSV_COLUMNS = ("place", "entrant", "number", "match_points", "difference", "points")


def standings_rows(found: Standings, names: Sequence[str]) -> list[dict[str, Any]]:
    """The rows of standings as JSON: each place, its sums, its rounds and how it was
    reached (the lines said in the request's language); a duplicate event's rows add the
    boards played and their average percentage."""
    rows = []
    for row in found.rows:
        out = row.to_json()
        del out["name"]  # the entrant is named by the roster, as the request's language has it
        out |= {"entrant": names[row.entrant], "number": row.entrant}
        rows.append(out)
    return rows


def standings_csv(found: Standings, names: Sequence[str], rounds: Sequence[int],
                  filename: str) -> Response:
    """Standings as CSV: a row per entrant (place, name, number, match points, difference,
    points), then each round's match points."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_COLUMNS, *(f"round_{n}" for n in rounds)])
    for row in found.rows:
        by_round = {r.round: r.match_points for r in row.rounds}
        writer.writerow([row.place, inert(names[row.entrant]), row.entrant,
                         decimal_json(Decimal(row.match_points)), decimal_json(row.difference),
                         decimal_json(Decimal(row.points)),
                         *(by_round.get(n, "") for n in rounds)])
    return attachment(out.getvalue(), "text/csv", filename)


def prints_standings(blp: Blueprint, guard: Callable[..., Callable[[F], F]],
                     description: str, *, write: bool = False) -> Callable[[F], F]:
    """A GET of a printout (standings, deal slips): either token (``guard``; ``write``: the
    edit token only), ``?lang=``, an A4 PDF."""
    return stacked(guard(blp, write=write),
                   blp.arguments(EventSheetQuerySchema, location="query"),
                   blp.response(200, {"type": "string", "format": "binary"},
                                content_type="application/pdf", description=description))


def action_json(action: EventAction) -> dict[str, Any]:
    """One entry of an event's or a club's history."""
    return {"version": action.version, "action": action.action, "data": action.data,
            "created_at": action.created_at.isoformat()}


def printed(sheet: Any, printer: str = "segnapunti.standings_pdf") -> Response:
    """A printout (standings of an event or a season, by default; an event's deal slips),
    drawn by ``service.pdf``'s ``printer``."""
    pdf = current_app.extensions[printer](sheet)
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{sheet.filename}"'
    return response


def attachment(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def inert(text: str) -> str:
    """A name a spreadsheet would read as a formula, made plain text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
