"""The instance's administration (``/api/v1/admin/…``), opened by the service's admin token
(``ADMIN_TOKEN``, ``Authorization: Bearer …``); a service without one has none (404). Each
operation issues new tokens to a club, an event or a game whose own were lost or leaked:
the new tokens are answered once, the old ones open nothing from then on. Thin views over
``service.application.admin``; the operator's other tools (listing, deleting) join them
here."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app
from flask.views import MethodView

from service.application.admin import AdminService, NewTokens
from service.application.unit_of_work import UnitOfWork

from ..paths import API_PREFIX
from ..schemas.admin import NewTokensSchema
from ..smorest import Blueprint
from .clubs import club_link
from .common import bearer_token, write
from .events import event_link
from .games import share_link

F = TypeVar("F", bound=Callable[..., Any])

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


@blp.route("/clubs/<id:club_id>/tokens")
class ClubTokens(MethodView):
    @admin_only
    @write(blp)
    @blp.response(200, NewTokensSchema)
    def post(self, club_id: str, unit: UnitOfWork) -> Any:
        """Issue a club new tokens

        A new edit token for the secretary and the members' read token worked out from it,
        answered this once with their links; the old tokens open nothing from now on. Kept
        in the club's history (`new_tokens`). Takes no body.
        """
        return _answer(admin_service().new_club_tokens(club_id), club_link)


@blp.route("/events/<id:event_id>/tokens")
class EventTokens(MethodView):
    @admin_only
    @write(blp)
    @blp.response(200, NewTokensSchema)
    def post(self, event_id: str, unit: UnitOfWork) -> Any:
        """Issue an event new tokens

        A new edit token for the organiser, the room's read token worked out from it, and
        every table's game's tokens (edit, read, the players') worked out from it in turn, as
        its rounds' links show them; the old tokens, the tables' too, open nothing from now
        on. Kept in the event's history (`new_tokens`). Takes no body.
        """
        return _answer(admin_service().new_event_tokens(event_id), event_link,
                       lambda event_id, token: event_link(event_id, token, board=True))


@blp.route("/games/<game_id:game_id>/tokens")
class GameTokens(MethodView):
    @admin_only
    @write(blp)
    @blp.response(200, NewTokensSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, game_id: str, unit: UnitOfWork) -> Any:
        """Issue a game new tokens

        New edit and read tokens, and the players' worked out from the edit token (as the
        scorekeeper's page shows them), answered this once with their links; the old ones open
        nothing from now on. A table of an event is 409: its tokens are the event's to renew.
        Takes no body.
        """
        return _answer(admin_service().new_game_tokens(game_id), share_link)
