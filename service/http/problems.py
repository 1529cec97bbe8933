"""Every error, mapped in one place to an RFC 9457 ``application/problem+json`` response.

Sources: the rules core's ``RecordInvalid`` / ``UnknownVariant`` (422 with every problem),
the use cases' errors (401, 403, 404, 409, 412, 422, 428), marshmallow validation through webargs
(422, messages flattened to dotted and indexed field paths), and every other HTTP error Flask
or Werkzeug raises (400 malformed JSON, 404, 405, 413, 415, 500…).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException, InternalServerError

from service.application.creation import CreationQuotaSpent
from service.application.errors import (
    ApplicationError,
    BoardRefused,
    Conflict,
    Forbidden,
    IdempotencyKeyInvalid,
    IdempotencyKeyReused,
    IdempotencyReplayWithdrawn,
    InvalidToken,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    Unauthenticated,
)
from service.application.ports import SchemaNotCurrent, StoreUnavailable
from service.application.printouts import PrinterBusy
from service.domain import (
    RecordInvalid,
    Text,
    UnknownVariant,
)

from .bodylimits import body_too_large
from .jsonbody import MalformedJson
from .language import speaker

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "urn:segnapunti:problem:"

log = logging.getLogger(__name__)

_APPLICATION_STATUS: dict[type[ApplicationError], int] = {
    IdempotencyKeyInvalid: 422,
    IdempotencyKeyReused: 422,
    IdempotencyReplayWithdrawn: 410,
    NotFound: 404,
    Unauthenticated: 401,
    Forbidden: 403,
    Conflict: 409,
    PreconditionFailed: 412,
    PreconditionRequired: 428,
    PrinterBusy: 503,
    BoardRefused: 429,
    CreationQuotaSpent: 429,
}

# Marshmallow's messages, as stable codes.
_MESSAGE_CODES = {
    "Unknown field.": "unknown_field",
    "Missing data for required field.": "missing_field",
}
# The messages of marshmallow a client meets most, in words every language can say.
_MESSAGE_WORDS = {
    "Unknown field.": Text("Unknown field."),
    "Missing data for required field.": Text("Missing data for required field."),
    "Not a valid integer.": Text("Not a valid integer."),
    "Not a valid string.": Text("Not a valid string."),
    "Not a valid boolean.": Text("Not a valid boolean."),
    "Not a valid list.": Text("Not a valid list."),
    "Not a valid mapping type.": Text("Not a valid mapping type."),
    "Invalid input type.": Text("Invalid input type."),
    "Field may not be null.": Text("Field may not be null."),
}


#: The statuses' phrases, as a title in the request's language.
_PHRASES = {
    400: Text("Bad Request"), 401: Text("Unauthorized"), 403: Text("Forbidden"),
    404: Text("Not Found"), 405: Text("Method Not Allowed"), 406: Text("Not Acceptable"),
    409: Text("Conflict"), 410: Text("Gone"), 412: Text("Precondition Failed"), 413: Text("Request Entity Too Large"),
    415: Text("Unsupported Media Type"), 422: Text("Unprocessable Entity"),
    428: Text("Precondition Required"), 429: Text("Too Many Requests"),
    500: Text("Internal Server Error"), 503: Text("Service Unavailable"),
}


def problem_type(code: str) -> str:
    return PROBLEM_TYPE_BASE + code.replace("_", "-")


def problem_response(
    status: int,
    *,
    code: str | None = None,
    title: str | None = None,
    detail: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A problem+json response. Without ``code`` the type is ``about:blank`` and the title the
    status phrase, as RFC 9457 §4.2.1 asks."""
    phrase = HTTPStatus(status).phrase
    said = speaker()(_PHRASES.get(status, phrase))
    body: dict[str, Any] = {
        "type": problem_type(code) if code else "about:blank",
        "title": title or said,
        "status": status,
        "detail": detail or said,
        "code": code or phrase.lower().replace(" ", "_").replace("-", "_"),
        "errors": errors or [],
    }
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# -- marshmallow messages -------------------------------------------------------------------


def _join(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdecimal()):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _walk(messages: Any, path: tuple[str | int, ...]) -> Iterator[tuple[str, str]]:
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            yield from _walk(value, path if key == "_schema" else (*path, key))
    elif isinstance(messages, list | tuple):
        for item in messages:
            yield from _walk(item, path)
    else:
        yield _join(path), str(messages)


def flatten_validation_messages(messages: Any) -> list[dict[str, Any]]:
    """marshmallow's nested ``{"declarations": {1: {"cards": ["…"]}}}`` as a flat list of
    ``{"field": "declarations[1].cards", "code", "message"}``. The webargs location ``json``
    is dropped: paths are relative to the body, like the rules core's."""
    if isinstance(messages, Mapping) and set(messages) == {"json"}:
        messages = messages["json"]
    say = speaker()
    return [
        {"field": field, "code": _MESSAGE_CODES.get(message, "invalid_field"),
         "message": say(_MESSAGE_WORDS.get(message, message))}
        for field, message in _walk(messages, ())
    ]


# -- the handlers ---------------------------------------------------------------------------


def record_invalid(error: RecordInvalid) -> Response:
    """Every problem, said in the request's language, a game's seats by its players' names."""
    say = speaker(error.family, error.seats)
    problems = [say.localize(p.to_json()) for p in error.problems]
    count = len(problems)
    return problem_response(
        422,
        code="record_invalid",
        title=say(Text("The request breaks the rules")),
        detail=(
            problems[0]["message"]
            if count == 1
            else say(Text.counted("{n} problem was found; it is listed in errors",
                                  "{n} problems were found; each is listed in errors", count))
        ),
        errors=problems,
    )


def unknown_variant(error: UnknownVariant) -> Response:
    return record_invalid(error.invalid())


#: Set on a request whose answer says its token opens nothing here (``ratelimit``).
FAILED_AUTHENTICATION = "segnapunti.failed_authentication"


def application_error(error: ApplicationError) -> Response:
    if error.failed_authentication:
        request.environ[FAILED_AUTHENTICATION] = True
    status = _APPLICATION_STATUS.get(type(error))
    if status is None:
        status = next(
            (s for cls, s in _APPLICATION_STATUS.items() if isinstance(error, cls)), 500
        )
    headers = None
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:  # a printer busy, a creation quota spent
        headers = {"Retry-After": str(retry_after)}
    if status == 401:
        # RFC 6750 §3: a request without a token gets the bare challenge.
        error_param = ', error="invalid_token"' if isinstance(error, InvalidToken) else ""
        headers = {"WWW-Authenticate": f'Bearer realm="segnapunti"{error_param}'}
    say = speaker(error.family, error.seats)
    detail = say(error.detail)
    errors = (
        [{"field": error.field, "code": error.code, "message": detail}]
        if error.field
        else [{"field": item.field, "code": item.code, "message": say(item.message)}
              for item in error.items] or None
    )
    return problem_response(
        status,
        code=error.code,
        title=None,
        detail=detail,
        errors=errors,
        headers=headers,
    )


def http_exception(error: HTTPException) -> Response:
    """Werkzeug's and webargs' errors. webargs attaches marshmallow's messages as
    ``error.data["messages"]`` (422 for a body that does not fit its schema, 400 for JSON
    that does not parse)."""
    status = error.code or 500
    if isinstance(error, InternalServerError) or status >= 500:
        original = getattr(error, "original_exception", None)
        if original is not None:
            log.error("unhandled error", exc_info=original)
        return problem_response(status)
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    headers = {
        name: value
        for name, value in error.get_headers()
        if name.lower() not in {"content-type", "content-length"}
    }
    headers.update(data.get("headers") or {})
    if status == 422 and messages is not None:
        errors = flatten_validation_messages(messages)
        return problem_response(
            422,
            code="invalid_request",
            title=speaker()(Text("The request body does not fit its schema")),
            detail=(
                f"{errors[0]['field'] or 'body'}: {errors[0]['message']}"
                if len(errors) == 1
                else speaker()(Text.counted(
                    "{n} field is invalid; it is listed in errors",
                    "{n} fields are invalid; each is listed in errors", len(errors)))
            ),
            errors=errors,
            headers=headers,
        )
    if status == 400 and messages is not None:
        return problem_response(
            400,
            code="malformed_json",
            title="The request body is not valid JSON",
            detail="the body could not be parsed as JSON",
            headers=headers,
        )
    if status == 413:
        detail = body_too_large(request.max_content_length)
        return problem_response(413, code="body_too_large", title="The request body is too large",
                                detail=detail, headers=headers,
                                errors=[{"field": "body", "code": "body_too_large",
                                         "message": detail}])
    if status == 404:
        detail = speaker()(Text("there is nothing at this address"))
    elif status == 405:
        detail = speaker()(Text("this address does not take {method}", method=request.method))
    else:
        detail = error.description
    return problem_response(status, detail=detail, headers=headers)


def malformed_json(error: MalformedJson) -> Response:
    """A body that is not one JSON value of Unicode text: what broke, and where when known."""
    return problem_response(
        400,
        code="malformed_json",
        title="The request body is not valid JSON",
        detail=f"the body could not be parsed as JSON: {error}",
        errors=[{"field": error.field or "body", "code": error.code, "message": str(error)}],
    )


#: Seconds a client is asked to wait before it tries again when the database is unavailable.
STORE_RETRY_AFTER_S = 5


def store_unavailable(error: StoreUnavailable) -> Response:
    """The database cannot answer now: 503, to be tried again, never a 500. What it said is
    logged, not shown (it may name hosts and users)."""
    log.warning("database unavailable: %s", error.detail)
    return problem_response(
        503,
        code="database_unavailable",
        title="The database is unavailable",
        detail=("the service cannot reach its database right now; nothing was changed by "
                f"this request unless it was answered. Try again in {STORE_RETRY_AFTER_S} s"),
        headers={"Retry-After": str(STORE_RETRY_AFTER_S)},
    )


def schema_not_current(error: SchemaNotCurrent) -> Response:
    """The database answers, but its schema is not the one this release reads: 503 until it
    is migrated (``python -m service migrate``), never a 500 at every read."""
    log.warning("database schema not current: %s", error.detail)
    say = speaker()
    return problem_response(
        503,
        code="schema_not_current",
        title=say(Text("The database's schema is not the one this release reads")),
        detail=say(
            Text("the database was never migrated, this release reads {expected}: migrate it "
                 "(python -m service migrate). Try again in {n} s",
                 expected=error.expected, n=STORE_RETRY_AFTER_S)
            if error.database is None else
            Text("the database's schema is at {database}, this release reads {expected}: "
                 "migrate it (python -m service migrate). Try again in {n} s",
                 database=error.database, expected=error.expected, n=STORE_RETRY_AFTER_S)),
        headers={"Retry-After": str(STORE_RETRY_AFTER_S)},
    )


def register_error_handlers(app: Flask) -> None:
    """Handlers for the non-HTTP errors. ``HTTPException`` is routed here by the Api subclass
    in ``app.py`` (flask-smorest registers its own handler for it)."""
    app.register_error_handler(RecordInvalid, record_invalid)
    app.register_error_handler(UnknownVariant, unknown_variant)
    app.register_error_handler(ApplicationError, application_error)
    app.register_error_handler(MalformedJson, malformed_json)
    app.register_error_handler(StoreUnavailable, store_unavailable)
    app.register_error_handler(SchemaNotCurrent, schema_not_current)
