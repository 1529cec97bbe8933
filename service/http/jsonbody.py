"""Reading request bodies as JSON, strictly and without surprises.

Python's ``json`` accepts what RFC 8259 does not (``NaN``, ``Infinity``) and fails on some
inputs with errors other than ``JSONDecodeError``: a 5,000-digit number raises ``ValueError``,
a body nested 100,000 deep ``RecursionError``. Every one of them is a malformed body (400),
never a server error; this module is the one place that reads request JSON, for webargs (the
views' arguments) and for the ``Idempotency-Key`` fingerprint alike.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import Request
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
