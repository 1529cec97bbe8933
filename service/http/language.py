"""The language a request asks for (``Accept-Language``: ``it``, ``fr`` or ``en``, English
when it names none) and the ``Speaker`` that says the rules core's sentences in it, naming cards
as the game at hand does."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Response, g, has_request_context, request

from service.application.language import DEFAULT, LANGUAGES, Speaker
from service.locale import translations


def request_language() -> str:
    if not has_request_context():
        return DEFAULT
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def speaking_of(family: str | None, seats: Sequence[str] = ()) -> None:
    """The request is about a game of this family: its cards are named as that game's, and
    its seats by its players' names (``seats``, where given)."""
    if has_request_context() and family:
        g.card_family = family
    if has_request_context() and seats:
        g.seat_names = tuple(seats)


def speaker(family: str | None = None, seats: Sequence[str] | None = None) -> Speaker:
    """The request's language, naming cards as ``family`` does and seats by ``seats`` (the
    table's players), or else as the request is about (``speaking_of``)."""
    lang = request_language()
    context = has_request_context()
    return Speaker(lang, family or (g.get("card_family") if context else None),
                   translations(lang), seats or (g.get("seat_names") if context else None))


def language_tag(tag: str) -> str:
    """An entity tag for the request's language: a body in Italian is another representation
    of the same version than one in English."""
    lang = request_language()
    return tag if lang == DEFAULT else f"{tag}.{lang}"


def say_language(response: Response) -> Response:
    """Every answer varies with ``Accept-Language`` and says the language it is in."""
    if request.headers.get("Accept-Language") is not None or response.mimetype in (
            "application/json", "application/problem+json"):
        response.vary.add("Accept-Language")
        if response.mimetype in ("application/json", "application/problem+json"):
            response.headers["Content-Language"] = request_language()
    return response
