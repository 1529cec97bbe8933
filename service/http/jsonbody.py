"""JSON in and out: request bodies read strictly and without surprises, responses written
fast.

Python's ``json`` accepts what RFC 8259 does not (``NaN``, ``Infinity``) and fails on some
inputs with errors other than ``JSONDecodeError``: a 5,000-digit number raises ``ValueError``,
a body nested 100,000 deep ``RecursionError``. Every one of them is a malformed body (400),
never a server error; this module is the one place that reads request JSON, for webargs (the
views' arguments) and for the ``Idempotency-Key`` fingerprint alike.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

import orjson
from flask import Request, Response
from flask.json.provider import DefaultJSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


class MalformedJson(ValueError):
    """The body is not one JSON value (RFC 8259)."""


def _reject_constant(name: str) -> NoReturn:
    raise MalformedJson(f"{name} is not JSON")


def loads(data: bytes | str) -> Any:
    """Parse one JSON value; ``MalformedJson`` for anything that is not one."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return json.loads(text, parse_constant=_reject_constant)
    except MalformedJson:
        raise
    except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError too
        raise MalformedJson(str(error)) from error


def request_json(request: Request) -> Any:
    """The request's JSON body; ``MalformedJson`` when it does not parse. An empty body or a
    body that is not declared JSON is ``None`` (the views answer those themselves)."""
    if not is_json_request(request):
        return None
    data = request.get_data(cache=True)
    if not data:
        return None
    return loads(data)


class StrictJsonParser(FlaskParser):
    """webargs' parser reading JSON with ``loads``: every malformed body is webargs' own
    400 "Invalid JSON body", which ``problems.py`` maps to ``malformed_json``."""

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        try:
            return loads(data)
        except MalformedJson as error:
            self._handle_invalid_json_error(
                json.JSONDecodeError(str(error), "<body>", 0), req
            )


class FastJsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with responses written by orjson, several times faster than
    ``json.dumps`` on a game's or a hand's body. The output is the same JSON: keys in order,
    UTF-8 text rather than escapes (``ensure_ascii`` off), integer keys as strings, and
    everything orjson would write its own way (times, dataclasses) handed to Flask's
    ``default`` as before. What orjson cannot write (an integer beyond 64 bits), a pretty
    print (debug) or ASCII escapes go the standard way."""

    _OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
                | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        pretty = (self.compact is None and self._app.debug) or self.compact is False
        if not pretty and not self.ensure_ascii:
            obj = self._prepare_response_obj(args, kwargs)
            options = self._OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
            try:
                body = orjson.dumps(obj, default=self.default, option=options)
            except orjson.JSONEncodeError:
                pass
            else:
                return Response(body, mimetype=self.mimetype)
        return super().response(*args, **kwargs)
