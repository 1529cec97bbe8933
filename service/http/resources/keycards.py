"""The key card of a club or an event (``GET …/keycard.pdf``): its edit link printed as a QR
code and as text, for the secretary or the organiser to keep. Only the edit token prints it
(the card *is* that token), in the language asked (``?lang=``) or else the reader's
(``Accept-Language``); never stored by a cache on the way."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from flask import Response

from service.application.printouts import KeyCardKind, build_keycard

from ..language import request_language
from ..smorest import Blueprint
from .common import printed, prints_standings

F = TypeVar("F", bound=Callable[..., Any])

DESCRIPTION = ("The key card, one A6 page: the edit link as a QR code and as text, what it "
               "opens, how a new phone uses it, and to keep it safe")


def prints_keycard(blp: Blueprint, guard: Callable[..., Callable[[F], F]]) -> Callable[[F], F]:
    """A GET of a key card: the edit token only (``guard``), ``?lang=``, a PDF."""
    return prints_standings(blp, guard, DESCRIPTION, write=True)


def keycard_pdf(kind: KeyCardKind, resource_id: str, name: str, link: str,
                query: dict[str, Any], printed_at: datetime) -> Response:
    """The key card of the club or event ``resource_id`` as a PDF response."""
    card = build_keycard(kind, resource_id, name, link,
                                   query.get("lang") or request_language(), printed_at)
    response = printed(card, "segnapunti.keycard_pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{card.filename}"'
    # The card holds the edit token: no cache keeps a copy.
    response.headers["Cache-Control"] = "no-store"
    return response
