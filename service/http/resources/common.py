"""Helpers shared by the views: the use cases, the bearer token, ``If-Match``, and the
documentation of protected operations."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request
from flask_smorest import Blueprint

from service.application.errors import PreconditionRequired
from service.application.games import ANY_VERSION, GameService

F = TypeVar("F", bound=Callable[..., Any])

SECURITY: list[dict[str, list[str]]] = [{"gameToken": []}]


def game_service() -> GameService:
    service: GameService = current_app.extensions["segnapunti.games"]
    return service


def bearer_token() -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def if_match() -> list[str] | None:
    """The strong entity tags of ``If-Match`` (``["*"]`` for any), ``None`` without one.
    A weak tag never matches: ``If-Match`` compares strongly (RFC 9110 §13.1.1)."""
    if "If-Match" not in request.headers:
        return None
    tags = request.if_match
    if tags.star_tag:
        return [ANY_VERSION]
    return sorted(tags.as_set())


def quoted(etag: str) -> str:
    return f'"{etag}"'


def protected(blp: Blueprint, *, write: bool, check_first: bool = False) -> Callable[[F], F]:
    """Document an operation as needing a game token (401, 403, 404). With ``check_first``
    the token is checked before the body is parsed, so a request without the right token
    learns nothing from validation errors. Apply above ``blp.arguments``."""

    def decorator(view: F) -> F:
        wrapped: Callable[..., Any] = view
        if check_first:

            @functools.wraps(view)
            def checked(*args: Any, **kwargs: Any) -> Any:
                game_service().authorize(kwargs["game_id"], bearer_token(), write=write)
                if write and request.method in {"PUT", "DELETE"} and "If-Match" not in (
                    request.headers
                ):
                    raise PreconditionRequired(
                        "send If-Match with the hand's ETag to change it"
                    )
                return view(*args, **kwargs)

            wrapped = checked
        wrapped = blp.alt_response(401, response="UNAUTHORIZED")(wrapped)
        if write:
            wrapped = blp.alt_response(403, response="FORBIDDEN")(wrapped)
        wrapped = blp.alt_response(404, response="NOT_FOUND")(wrapped)
        wrapped = blp.doc(security=SECURITY)(wrapped)
        return wrapped  # type: ignore[return-value]

    return decorator


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
