"""The instance's administration (``/api/v1/admin/…``), opened by the service's admin token
(``ADMIN_TOKEN``, ``Authorization: Bearer …``); a service without one has none (404): the
lists of clubs, events and games by last activity, deleting any of them with what it keeps,
and its tokens renewed (answered once, the old ones open nothing from then on) or revoked
(nothing opens until they are renewed). Thin views over ``service.application.admin``."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app
from flask.views import MethodView

from service.application.admin import REVOCABLE, AdminQuery, AdminRow, AdminService, NewTokens
from service.application.unit_of_work import UnitOfWork

from ..metrics import admin_deleted
from ..paths import API_PREFIX
from ..schemas.admin import (
    AdminListQuerySchema,
    AdminListSchema,
    DeletedSchema,
    DeleteQuerySchema,
    TokensAnswerSchema,
    tokens_action_schema,
)
from ..smorest import Blueprint
from .clubs import club_link
from .common import bearer_token, write
from .events import event_link
from .games import share_link

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)

blp = Blueprint(
    "admin",
    __name__,
    url_prefix=f"{API_PREFIX}/admin",
    description="The service's administration (needs the service's admin token, "
                "ADMIN_TOKEN; a service without one has none: 404)",
)

ADMIN_SECURITY: list[dict[str, list[str]]] = [{"adminToken": []}]
#: The new tokens are never kept by a cache on the way.
NO_STORE = {"Cache-Control": "no-store"}


def admin_service() -> AdminService:
    service: AdminService = current_app.extensions["segnapunti.admin"]
    return service


def admin_only(view: F) -> F:
    """The admin token checked before anything else (404 with no administration, 401 without
    it or with another token), the operation documented so."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        admin_service().authorize(bearer_token())
        return view(*args, **kwargs)

    wrapped: Callable[..., Any] = checked
    wrapped = blp.alt_response(401, response="UNAUTHORIZED")(wrapped)
    wrapped = blp.alt_response(404, response="NOT_FOUND")(wrapped)
    wrapped = blp.doc(security=ADMIN_SECURITY)(wrapped)
    return wrapped  # type: ignore[return-value]


def _answer(issued: NewTokens, link: Callable[[str, str], str],
            read_link: Callable[[str, str], str] | None = None) -> Any:
    return ({"id": issued.id,
             "tokens": {"edit": issued.edit_token, "read": issued.read_token},
             "links": {"edit": link(issued.id, issued.edit_token),
                       "read": (read_link or link)(issued.id, issued.read_token)}},
            200, NO_STORE)


def _renew_or_revoke(kind: str, resource_id: str, body: dict[str, Any] | None,
                     renew: Callable[[], Any]) -> Any:
    if body and body.get("action") == "revoke":
        revoked = admin_service().revoke(kind, resource_id, body["which"])
        return {"id": resource_id, "revoked": list(revoked)}, 200, NO_STORE
    return renew()


def tokens_operation(kind: str) -> Callable[[F], F]:
    """A tokens' POST: its optional body (renew by default, or revoke), its answers."""

    def decorator(view: F) -> F:
        wrapped: Callable[..., Any] = view
        wrapped = blp.arguments(tokens_action_schema(kind, REVOCABLE[kind]),
                                required=False)(wrapped)
        wrapped = blp.response(200, TokensAnswerSchema)(wrapped)
        wrapped = write(blp)(wrapped)
        return admin_only(wrapped)  # type: ignore[return-value]

    return decorator


@blp.route("/clubs/<id:club_id>/tokens")
class ClubTokens(MethodView):
    @tokens_operation("clubs")
    def post(self, body: dict[str, Any] | None, club_id: str, unit: UnitOfWork) -> Any:
        """Issue a club new tokens, or revoke some

        With no body (or `{"action": "renew"}`): a new edit token for the secretary and the
        members' read token worked out from it, answered this once with their links; the old
        tokens open nothing from now on. With `{"action": "revoke", "which": ["edit",
        "read"]}`: the tokens named open nothing from now on, and nothing replaces them until
        they are renewed. Kept in the club's history (`new_tokens`, `revoke_tokens`).
        """
        return _renew_or_revoke("clubs", club_id, body, lambda: _answer(
            admin_service().new_club_tokens(club_id), club_link))


@blp.route("/events/<id:event_id>/tokens")
class EventTokens(MethodView):
    @tokens_operation("events")
    def post(self, body: dict[str, Any] | None, event_id: str, unit: UnitOfWork) -> Any:
        """Issue an event new tokens, or revoke some

        With no body (or `{"action": "renew"}`): a new edit token for the organiser, the
        room's read token worked out from it, and every table's game's tokens (edit, read,
        the players') worked out from it in turn, as its rounds' links show them; the old
        tokens, the tables' too, open nothing from now on. With `{"action": "revoke",
        "which": [...]}` (`edit`, `read`, `tables`: every table's game's tokens): those open
        nothing from now on, until renewed. Kept in the event's history.
        """
        return _renew_or_revoke("events", event_id, body, lambda: _answer(
            admin_service().new_event_tokens(event_id), event_link,
            lambda event_id, token: event_link(event_id, token, board=True)))


@blp.route("/games/<game_id:game_id>/tokens")
class GameTokens(MethodView):
    @tokens_operation("games")
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any] | None, game_id: str, unit: UnitOfWork) -> Any:
        """Issue a game new tokens, or revoke some

        With no body (or `{"action": "renew"}`): new edit and read tokens, and the players'
        worked out from the edit token (as the scorekeeper's page shows them), answered this
        once with their links; the old ones open nothing from now on. A table of an event is
        409: its tokens are the event's to renew. With `{"action": "revoke", "which":
        [...]}` (`edit`, `read`, `players`; a table's too): those open nothing from now on,
        until renewed. Kept in the game's history (hand 0).
        """
        return _renew_or_revoke("games", game_id, body, lambda: _answer(
            admin_service().new_game_tokens(game_id), share_link))


# -- the lists ------------------------------------------------------------------------------


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def _row(row: AdminRow) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "variant": row.variant,
            "created_at": row.created_at.isoformat(),
            "last_activity": row.last_activity.isoformat(), "size": dict(row.size),
            "anonymous": row.anonymous, "club": row.club, "event": row.event,
            "tokens": dict(row.tokens), "renewed_at": _when(row.renewed_at),
            "revoked_at": _when(row.revoked_at)}


def _listing(kind: str, args: dict[str, Any]) -> Any:
    service = admin_service()
    days = args.get("inactive_days")
    query = AdminQuery(limit=args["limit"], offset=args["offset"],
                       oldest_first=args["order"] == "oldest",
                       inactive_before=service.inactive_since(days) if days is not None
                       else None, anonymous=args.get("anonymous"))
    page = service.listing(kind, query)
    return ({"total": page.total, "limit": query.limit, "offset": query.offset,
             "rows": [_row(row) for row in page.rows]}, 200, NO_STORE)


def listing_operation(view: F) -> F:
    wrapped: Callable[..., Any] = blp.arguments(AdminListQuerySchema, location="query")(view)
    wrapped = blp.response(200, AdminListSchema)(wrapped)
    return admin_only(wrapped)  # type: ignore[return-value]


@blp.route("/clubs")
class AdminClubs(MethodView):
    @listing_operation
    def get(self, args: dict[str, Any]) -> Any:
        """List the clubs

        By last activity (the latest change to the club, its games or its events), newest
        first or `order=oldest`; each with its size (members, games, events, seasons) and
        its tokens' state. Paged by `limit` and `offset`; `inactive_days` keeps those with
        no activity in that many days.
        """
        return _listing("clubs", args)


@blp.route("/events")
class AdminEvents(MethodView):
    @listing_operation
    def get(self, args: dict[str, Any]) -> Any:
        """List the events

        By last activity (the organiser's latest change or a hand at a table), newest first
        or `order=oldest`; each with its size (entrants, rounds, tables, hands), its club if
        any and its tokens' state. `anonymous=true`: the events of no club.
        """
        return _listing("events", args)


@blp.route("/games")
class AdminGames(MethodView):
    @listing_operation
    def get(self, args: dict[str, Any]) -> Any:
        """List the games

        By last activity (a hand, a correction, a verdict, the evening's end), newest first
        or `order=oldest`; each with its size (hands, players), its event or club if any and
        its tokens' state. `anonymous=true`: the games of no event and no club (what
        retention purges).
        """
        return _listing("games", args)


# -- deleting -------------------------------------------------------------------------------


def _delete(kind: str, resource_id: str, args: dict[str, Any], unit: UnitOfWork) -> Any:
    deleted = admin_service().delete(kind, resource_id, args.get("confirm"))

    def tell() -> None:
        admin_deleted(kind)
        log.warning("admin: deleted %s %s (%d rows)", kind[:-1], resource_id,
                    sum(deleted.rows.values()), extra={"fields": {
                        "admin_deleted": kind[:-1], "id": resource_id,
                        "rows": dict(deleted.rows)}})

    unit.after_commit(tell)
    return {"id": resource_id, "kind": kind[:-1], "deleted": dict(deleted.rows)}, 200


def delete_operation(view: F) -> F:
    wrapped: Callable[..., Any] = blp.arguments(DeleteQuerySchema, location="query")(view)
    wrapped = blp.response(200, DeletedSchema)(wrapped)
    wrapped = blp.alt_response(412, response="PRECONDITION_FAILED")(wrapped)
    wrapped = blp.alt_response(428, response="PRECONDITION_REQUIRED")(wrapped)
    wrapped = write(blp)(wrapped)
    return admin_only(wrapped)  # type: ignore[return-value]


@blp.route("/clubs/<id:club_id>")
class AdminClub(MethodView):
    @delete_operation
    def delete(self, args: dict[str, Any], club_id: str, unit: UnitOfWork) -> Any:
        """Delete a club and all it keeps

        Its members, seasons, results, ratings and history, and every event and game played
        for it (their tables too), in one transaction. `confirm` repeats the club's id. The
        answer counts the rows removed, by table.
        """
        return _delete("clubs", club_id, args, unit)


@blp.route("/events/<id:event_id>")
class AdminEvent(MethodView):
    @delete_operation
    def delete(self, args: dict[str, Any], event_id: str, unit: UnitOfWork) -> Any:
        """Delete an event and its tables

        Its rounds, tables and their games, its history, in one transaction; an event of a
        club leaves the club's results (its ratings replayed). `confirm` repeats the event's
        id.
        """
        return _delete("events", event_id, args, unit)


@blp.route("/games/<game_id:game_id>")
class AdminGame(MethodView):
    @delete_operation
    @blp.alt_response(409, response="CONFLICT")
    def delete(self, args: dict[str, Any], game_id: str, unit: UnitOfWork) -> Any:
        """Delete a game

        Its hands, their history, the verdicts and the players' links; a game of a club
        leaves the club's results (its ratings replayed). A table of an event is 409: it is
        deleted with its event. `confirm` repeats the game's id.
        """
        return _delete("games", game_id, args, unit)
