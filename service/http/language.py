"""The language a request asks for (``Accept-Language``: ``it``, ``fr`` or ``en``, English
when it names none) and the ``Speaker`` that says the rules core's sentences in it, naming cards
as the game at hand does."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Response, has_request_context, request

from service.application.language import DEFAULT, LANGUAGES, Speaker
from service.locale import translations


def request_language() -> str:
    if not has_request_context():
        return DEFAULT
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def speaker(family: str | None = None, seats: Sequence[str] | None = None) -> Speaker:
    """The request's language, naming cards as ``family`` does and seats by ``seats`` (the
    table's players): a body about a table is said by the one its view makes with both."""
    lang = request_language()
    return Speaker(lang, family, translations(lang), seats)


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
