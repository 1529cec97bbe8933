"""The Flask application: ``create_app(config)`` wires the rules core, the use cases, the
repository and the HTTP resources under ``/api/v1``."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any
from urllib.parse import unquote

from flask import Flask, Response, request
from werkzeug.exceptions import UnsupportedMediaType
from werkzeug.middleware.proxy_fix import ProxyFix

from service.application.admin import AdminService
from service.application.clock_sweep import ClockSweep
from service.application.clubs import ClubService
from service.application.events import EventService
from service.application.games import GameService
from service.application.games.access import hash_token
from service.application.idempotency import IdempotencyService
from service.application.ports import StoreUnavailable
from service.application.printouts import SheetPrinter
from service.application.retention import Retention
from service.application.unit_of_work import UnitOfWorkFactory
from service.pdf import poster_pdf, render_keycard, render_sheet, render_slips, render_standings
from service.persistence import SqlStore, make_engine
from service.persistence.notices import StoreNotices

from . import creation, metrics, notices, problems, ratelimit, requestlog
from .bodies import InflateImports, check_body
from .bodylimits import IMPORT_MAX_BYTES
from .config import default_config
from .jsonbody import FastJsonProvider
from .language import say_language
from .paths import API_PREFIX, CLUBS_PREFIX, GAMES_PREFIX
from .resources import register_resources
from .routing import register_converters
from .shared_bodies import shared_bodies
from .smorest import SegnapuntiApi

log = logging.getLogger(__name__)


def _null_means_null(self: Any, field: Any, ret: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    """apispec writes a nullable nested schema for OpenAPI 3.0 as ``anyOf: [{type: object,
    nullable: true}, {$ref}]``, whose first branch admits any object at all. The branch is
    narrowed to what it means, null alone, so clients and generated tests read the schema
    as the service does."""
    branches = ret.get("anyOf")
    if not (getattr(field, "allow_none", False) and isinstance(branches, list)):
        return {}
    return {"anyOf": [{**branch, "enum": [None]} if branch == {"type": "object", "nullable": True}
                      else branch for branch in branches]}


#: The request headers the application reads; their values must be text (UTF-8) like a body.
_HEADERS_READ = ("Authorization", "Idempotency-Key", "If-Match", "If-None-Match",
                 "Accept-Language", "Content-Type")


def _not_utf8(raw: str) -> bool:
    """Whether a WSGI string (bytes as latin-1, PEP 3333) is not UTF-8 text. The bytes of a
    lone surrogate (``ED A0 80``…) are not, as UTF-8 forbids them."""
    try:
        raw.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return True
    return False


def _refuse_undecodable_text() -> Response | None:
    """The path, the query and the headers the application reads must be UTF-8 text, as a
    body must (``jsonbody``): a lone surrogate or any other byte sequence that is no text is
    malformed input (400, naming each place), never a value passed on."""
    environ = request.environ
    places = []
    if _not_utf8(environ.get("PATH_INFO", "")):
        places.append("path")
    if _not_utf8(unquote(environ.get("QUERY_STRING", ""), encoding="latin-1")):
        places.append("query")
    places += [name for name in _HEADERS_READ if _not_utf8(request.headers.get(name, ""))]
    if not places:
        return None
    return problems.problem_response(
        400,
        code="malformed_request",
        title="The request is not valid text",
        detail=f"not UTF-8 text (a lone surrogate, or bytes that are no character): "
               f"{', '.join(places)}",
        errors=[{"field": place, "code": "not_utf8",
                 "message": "not UTF-8 text: a lone surrogate or bytes that are no character"}
                for place in places],
    )


#: The changes that take no body (closing a round): sent with none, they need no JSON type.
BODYLESS = {"events.CloseRound", "events.ReleaseBoard", "events.EntrantWithdraw",
            "events.EntrantReturn", "clubs.UnmergeMember",
            "clubs.ForgetMember", "games.EndEvening", "games.ReopenEvening", "admin.ClubTokens",
            "admin.EventTokens", "admin.GameTokens"}


def _require_json_body() -> None:
    # A request that matched no route (404) or no method of it (405) gets that answer, not
    # a complaint about its body.
    if request.routing_exception is not None:
        return
    if request.endpoint in BODYLESS and not request.content_length:
        return  # an action that takes no body: nothing to read
    if (
        request.method in {"POST", "PUT", "PATCH"}
        and request.path.startswith(API_PREFIX)
        and not request.is_json
    ):
        raise UnsupportedMediaType("send the body as JSON (Content-Type: application/json)")


def _protect_responses(response: Response) -> Response:
    """Headers on every response. No page of the service may leak its address (a game's
    address is half of what opens it) through ``Referer``; game data is private to the
    client that holds the token, and the answer that shows the tokens is never stored."""
    if response.status_code == 204:
        # No content, so no content type (flask-smorest's 204 carried JSON's, and a client that
        # trusted it tried to read a body that is not there).
        response.headers.pop("Content-Type", None)
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request.path.startswith((GAMES_PREFIX, CLUBS_PREFIX)) and (
            "Cache-Control" not in response.headers):
        response.headers["Cache-Control"] = (
            "private, no-cache" if request.method in {"GET", "HEAD"} else "no-store"
        )
    return response


class SegnapuntiFlask(Flask):
    """Flask, reading through one database connection for the whole of a read (``GET``,
    ``HEAD``: ``Store.reading``), and once more when that connection was lost under it: a
    read changes nothing, so it is always safe to run again (writes have their own rule, in
    ``UnitOfWork.run``)."""

    def dispatch_request(self) -> Any:
        if request.method not in {"GET", "HEAD"}:
            return super().dispatch_request()
        store = self.extensions["segnapunti.store"]
        try:
            with store.reading():
                return super().dispatch_request()
        except StoreUnavailable as error:
            if not error.lost_connection:
                raise
            log.warning("the database connection was lost during a read; reading again")
            with store.reading():
                return super().dispatch_request()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app. ``config`` may set any Flask / flask-smorest key, ``DATABASE_URL``, or hand
    over ``STORE`` (an object of the application's ``Store`` port)."""
    app = SegnapuntiFlask("service")
    app.json = FastJsonProvider(app)
    app.config.update(default_config())
    app.config.update(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    store = app.config.get("STORE")
    if store is None:
        store = SqlStore(make_engine(app.config["DATABASE_URL"], serving=True))
    service = GameService(store.games, cache_hands=int(app.config["CACHE_HANDS"]),
                          event_tokens=store.events)
    keys = IdempotencyService(store.idempotency, service.clock)
    app.extensions["segnapunti.store"] = store
    app.extensions["segnapunti.games"] = service
    events = EventService(store.events, service, store.refusals)
    service.rounds = events  # a table's last hand ends its round in the same write
    app.extensions["segnapunti.events"] = events
    units = UnitOfWorkFactory(store, keys)
    events.units = units  # a reading applies the round's clock, when it has closed the round

    def fill_facts(game_ids: Collection[str]) -> None:
        unit = units()
        unit.run(lambda: service.fill_club_facts(unit, game_ids))

    app.extensions["segnapunti.clubs"] = ClubService(
        store.clubs, service.clock,
        lambda digest: store.events.event_token_exists(digest) or service.opens_a_game(digest),
        fill_facts)
    admin = AdminService(store, service.clock, app.config.get("ADMIN_TOKEN"))
    app.extensions["segnapunti.admin"] = admin
    told = StoreNotices(getattr(store, "engine", None))
    app.extensions["segnapunti.notices"] = told
    events.changed = lambda event_id: notices.tell(told, event_id=event_id)

    def token_opens(token: str) -> bool:
        """Whether a token opens anything here: a game (or a player's seat), an event, a club,
        the administration. Its hash in each one's unique index, as the handler would."""
        digest = hash_token(token)
        return (admin.is_admin_token(token) or service.opens_a_game(digest)
                or store.events.event_token_exists(digest)
                or store.clubs.club_token_exists(digest))

    app.extensions["segnapunti.standings_pdf"] = render_standings
    app.extensions["segnapunti.slips_pdf"] = render_slips
    app.extensions["segnapunti.keycard_pdf"] = render_keycard
    app.extensions["segnapunti.poster_pdf"] = poster_pdf
    app.extensions["segnapunti.idempotency"] = keys
    app.extensions["segnapunti.shared_bodies"] = shared_bodies(app.config.get("SHARED_CACHE_URL"))
    events.shared = app.extensions["segnapunti.shared_bodies"]
    app.extensions["segnapunti.units"] = units
    app.extensions["segnapunti.printer"] = SheetPrinter(
        render_sheet, cache_bytes=int(app.config["PDF_CACHE_BYTES"]),
        concurrency=int(app.config["PDF_RENDER_CONCURRENCY"]),
        wait_s=float(app.config["PDF_RENDER_WAIT_S"]))

    api = SegnapuntiApi(app)
    api.ma_plugin.converter.add_attribute_function(_null_means_null)
    problems.register_error_handlers(app)
    requestlog.install(app)  # first: every answer, refusals included, has its id and line
    ratelimit.install(app, token_opens)
    creation.install(app, admin.is_admin_token, administered=admin.enabled)
    metrics.install(app)
    notices.install(app, told)
    days = app.config.get("RETENTION_DAYS")
    retention = Retention(store, service.clock, int(days) if days else None)
    app.extensions["segnapunti.retention"] = retention
    if retention.enabled:
        app.before_request(retention.daily)
    # Started by a serving process once its app is built (service/process.py), never by a
    # test's app: a test calls its sweep itself.
    app.extensions["segnapunti.clock_sweep"] = ClockSweep(
        events.close_due_rounds, float(app.config.get("CLOCK_SWEEP_SECONDS") or 0))
    app.before_request(_refuse_undecodable_text)
    app.before_request(check_body)
    app.before_request(_require_json_body)
    app.after_request(_protect_responses)
    app.after_request(say_language)
    register_converters(app, api)
    register_resources(app, api)
    app.wsgi_app = InflateImports(app.wsgi_app, IMPORT_MAX_BYTES)  # type: ignore[method-assign]
    hops = int(app.config["TRUSTED_PROXIES"])
    if hops < 0:
        raise ValueError(f"TRUSTED_PROXIES is a count of proxies, not {hops}")
    if hops:
        # The client's address (rate limits), scheme and host (share links) as the proxies in
        # front saw them, one X-Forwarded-* value a proxy, the outermost first.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops,  # type: ignore[method-assign]
                                x_host=hops, x_port=hops, x_prefix=hops)
    return app
