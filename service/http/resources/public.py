"""Public results: a published event or club, readable by anyone without a token.

``GET /api/v1/public/events/{id}`` and ``/api/v1/public/clubs/{id}`` give it as JSON;
``/results/events/{id}`` and ``/results/clubs/{id}`` as a page made here (Jinja2, from
``service/http/templates``), whole without a script: a phone with JavaScript off, a search
engine and a screen reader read the same. What they show, and the names they give, is
``service.application.public``'s; an event or club not published answers 404, as one that
does not exist does.

Each is a cached read: its entity tag is the published state (one small query: the event's
version, its tables' games' versions and its club's version; a club's version, its results'
version and its published events' versions) and the language, and its body is made once per
tag in this process. ``If-None-Match`` gets a 304; ``Cache-Control`` lets a proxy keep it for
``PUBLIC_MAX_AGE`` seconds."""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import quote

import segno
from flask import Blueprint as PageBlueprint
from flask import Response, current_app, render_template, request
from flask.views import MethodView
from markupsafe import Markup

from service.application.caches import LruCache
from service.application.errors import NotFound
from service.application.language import LANGUAGES
from service.application.public import RECENT, read_public_club, read_public_event
from service.locale import decimal, month_names, public_words

from ..language import request_language
from ..paths import API_PREFIX
from ..schemas.public import PublicClubSchema, PublicEventSchema
from ..smorest import Blueprint
from .common import club_service, not_modified_doc
from .events import event_service
from .games import wants_tag_only
from .web import ASSETS, ASSETS_PREFIX

#: How long a browser or a proxy may keep a public answer without asking again: short, so a
#: result (or the organiser taking the results down) reaches the readers within seconds.
PUBLIC_MAX_AGE = 10
#: How long this process answers from the published state it last read (``RECENT``), in
#: seconds (``PUBLIC_FRESH_SECONDS``; 0: a query at every read).
FRESH_SECONDS = 1.0
CACHE_CONTROL = f"public, max-age={PUBLIC_MAX_AGE}"

#: A results page is whole without a script: its style is inline, its QR code inline SVG. Its
#: one script (``resultslive.js``, the page's own file) follows the page's stream and puts the
#: new results in place; ``connect-src 'self'`` lets it read the stream and the page again
#: (and a crawler's tool read ``/robots.txt``).
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
               "form-action 'none'; frame-ancestors 'none'")

blp = Blueprint(
    "public",
    __name__,
    url_prefix=f"{API_PREFIX}/public",
    description="Published results: an event's or a club's, readable without a token",
)

pages = PageBlueprint("results", __name__,
                      template_folder=str(Path(__file__).resolve().parents[1] / "templates"))

#: The public answers recently made, by entity tag (JSON and pages, every language), in this
#: process: a read while nothing changed costs one small query.
_BODIES: LruCache[str, bytes] = LruCache(8 * 1024 * 1024, weight=len)


def reader_language() -> str:
    """The page's language: ``?lang=`` when it is one the service speaks, else the
    ``Accept-Language`` header's best (English by default)."""
    asked = request.args.get("lang", "")
    return asked if asked in LANGUAGES else request_language()


def _label(lang: str) -> Callable[[int], str]:
    template = public_words(lang)["player"]
    return lambda n: template.format(n=n)


def _base() -> str:
    return str(current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def _cached(tag: str, mimetype: str, build: Callable[[], bytes]) -> Response:
    """The answer of entity tag ``tag``: 304 while the reader has it, else its body, made once
    per tag in this process."""
    if wants_tag_only() or (request.if_none_match
                            and request.if_none_match.contains_weak(tag)):
        response = Response(status=304)
    else:
        body = _BODIES.get(tag)
        if body is None:
            body = build()
            _BODIES.put(tag, body)
        response = Response(body, mimetype=mimetype)
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = CACHE_CONTROL
    if mimetype == "text/html":
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        response.headers["Content-Language"] = tag.rsplit("-", 1)[1]
    response.vary.add("Accept-Language")
    return response


def _tag(kind: str, resource: str, state: object, lang: str) -> str:
    """The answer's entity tag: its resource's published state, the language, and the
    address it names itself by (a page made for one host is not another's)."""
    digest = hashlib.sha256(f"{kind}|{resource}|{state}|{_base()}".encode()).hexdigest()[:16]
    return f"p{kind}-{digest}-{lang}"


def _event_body(event_id: str, lang: str) -> dict[str, Any]:
    return {**read_public_event(event_service(), club_service(), event_id, _label(lang)),
            "language": lang, "page": f"{_base()}/results/events/{event_id}"}


def _club_body(club_id: str, lang: str) -> dict[str, Any]:
    return {**read_public_club(club_service(), club_id, _label(lang)),
            "language": lang, "page": f"{_base()}/results/clubs/{club_id}"}


def _event_state(event_id: str) -> object:
    return RECENT.get(f"event:{event_id}", _fresh(),
                      lambda: event_service().public_state(event_id))


def _club_state(club_id: str) -> object:
    return RECENT.get(f"club:{club_id}", _fresh(), lambda: club_service().public_state(club_id))


def _fresh() -> float:
    return float(current_app.config.get("PUBLIC_FRESH_SECONDS", FRESH_SECONDS))


def _json(build: Callable[[], dict[str, Any]]) -> Callable[[], bytes]:
    return lambda: current_app.json.response(build()).get_data()


# -- the JSON -------------------------------------------------------------------------------


@blp.route("/events/<id:event_id>")
class PublicEvent(MethodView):
    @not_modified_doc(blp, "the published event is as the ETag sent")
    @blp.response(200, PublicEventSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, event_id: str) -> Any:
        """Read a published event

        No token: the event's standings, its rounds with their tables and totals, and in a
        duplicate event every complete board's traveller (nothing of a board still being
        played). A club's forgotten member is "Player N" in the language asked (`?lang=`,
        `Accept-Language`); a member left out of public pages by their initials. 404 while
        the event is not published, as for an event that does not exist. A weak `ETag`
        (304 while unchanged) and `Cache-Control: public` with a short `max-age`.
        """
        lang = reader_language()
        state = _event_state(event_id)
        return _cached(_tag("e", event_id, state, lang), "application/json",
                       _json(lambda: _event_body(event_id, lang)))


@blp.route("/clubs/<id:club_id>")
class PublicClub(MethodView):
    @not_modified_doc(blp, "the published club is as the ETag sent")
    @blp.response(200, PublicClubSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, club_id: str) -> Any:
        """Read a published club

        No token: the club's published events, each season's standings, and its ratings
        when the club publishes them too (`public_ratings`). Members named as on the
        event's public answer. 404 while the club is not published, as for a club that does
        not exist. A weak `ETag` (304 while unchanged) and `Cache-Control: public` with a
        short `max-age`.
        """
        lang = reader_language()
        state = _club_state(club_id)
        return _cached(_tag("c", club_id, state, lang), "application/json",
                       _json(lambda: _club_body(club_id, lang)))


# -- the pages ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str, title: str) -> Markup:
    """The link's QR code as inline SVG (segno), titled for a screen reader: made once per
    link and language (a page made again after a hand keeps its code)."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=4,
                                     border=2, title=title, svgclass="qr", lineclass=None,
                                     dark="black", light="white")
    svg = out.getvalue().decode()
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))


@functools.lru_cache(maxsize=16384)
def _said(text: str, lang: str) -> str:
    """A number (as JSON wrote it) as ``lang`` writes it, with as many decimals: made once
    per number and language (a page says the same small numbers many times)."""
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    exponent = number.as_tuple().exponent
    digits = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return decimal(float(number), lang, digits)


def _number(lang: str) -> Callable[[object], str]:
    def say(value: object) -> str:
        return "" if value is None or value == "" else _said(str(value), lang)
    return say


def _date(lang: str) -> Callable[[str], str]:
    months = month_names(lang)

    def say(value: str) -> str:
        day = datetime.fromisoformat(value)
        return f"{day.day} {months[day.month - 1]} {day.year}"
    return say


#: An event's rounds as HTML, by language and the round's public reading: a page made again
#: after a hand makes again only the round it changed (the others' tables read the same).
_ROUNDS: LruCache[tuple[str, str], Markup] = LruCache(4 * 1024 * 1024, weight=len)


def _round_html(lang: str, words: dict[str, str]) -> Callable[[dict[str, Any]], Markup]:
    def made(played: dict[str, Any]) -> Markup:
        key = (lang, repr(played))
        html = _ROUNDS.get(key)
        if html is None:
            html = Markup(render_template("public_round.html", r=played, t=words,
                                          num=_number(lang)))
            _ROUNDS.put(key, html)
        return html
    return made


def _page(template: str, lang: str, data: dict[str, Any], path: str) -> bytes:
    words = public_words(lang)
    link = f"{_base()}{path}"
    html = render_template(
        template, data=data, lang=lang, t=words, link=link, languages=LANGUAGES,
        path=path, qr=qr_svg(link, words["share.qr"]), num=_number(lang), date=_date(lang),
        quote=quote, round_html=_round_html(lang, words), live_script=_live_script())
    return html.encode()


@functools.cache
def _live_script() -> str:
    """The address of the page's script at its version (``resultslive.js``)."""
    return f"{ASSETS_PREFIX}resultslive.js?v={ASSETS['resultslive.js'].version}"


def _not_found_page(lang: str) -> Response:
    words = public_words(lang)
    html = render_template("public_missing.html", lang=lang, t=words)
    response = Response(html, status=404, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    return response


def _published_page(kind: str, resource_id: str, state_of: Callable[[str], Any],
                    template: str, body_of: Callable[[str, str], dict[str, Any]]) -> Response:
    """A published event's or club's page in the reader's language, from the cache while its
    published state is unchanged; the page that says there is nothing here otherwise."""
    lang = reader_language()
    try:
        state = state_of(resource_id)
    except NotFound:
        return _not_found_page(lang)
    path = f"/results/{kind}s/{resource_id}"
    return _cached(_tag(kind[0].upper(), resource_id, state, lang), "text/html",
                   lambda: _page(template, lang, body_of(resource_id, lang), path))


@pages.route("/results/events/<id:event_id>")
def event_page(event_id: str) -> Response:
    return _published_page("event", event_id, _event_state, "public_event.html", _event_body)


@pages.route("/results/clubs/<id:club_id>")
def club_page(club_id: str) -> Response:
    return _published_page("club", club_id, _club_state, "public_club.html", _club_body)
