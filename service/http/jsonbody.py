"""JSON in and out: request bodies read strictly and without surprises, responses written
fast.

Python's ``json`` accepts what RFC 8259 does not (``NaN``, ``Infinity``, and a string escape
of half a surrogate pair, ``"\\ud800"``, which no UTF-8 text can hold and which would fail
only when the value is written out again) and fails on some inputs with errors other than
``JSONDecodeError``: a 5,000-digit number raises ``ValueError``, a body nested 100,000 deep
``RecursionError``. Every one of them is a malformed body (400, naming where it was found),
never a server error; this module is the one place that reads request JSON, for webargs (the
views' arguments) and for the ``Idempotency-Key`` fingerprint alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NoReturn

import orjson
from flask import Request, Response, current_app
from flask.json.provider import DefaultJSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from service.application.language import Speaker

from .language import speaker


class MalformedJson(ValueError):
    """The body is not one JSON value of Unicode text (RFC 8259). ``field`` is where in the
    value the fault lies when it is known (``players[1]``), ``code`` what it is."""

    def __init__(self, message: str, *, field: str = "", code: str = "malformed_json") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


def _reject_constant(name: str) -> NoReturn:
    raise MalformedJson(f"{name} is not JSON")


#: The escape of a UTF-16 surrogate: its pairs are ordinary characters once read, a lone one
#: stays a lone surrogate in the Python string. Searched for only to decide whether the value
#: needs the walk below, so text without any pays one scan.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _path(parts: tuple[str | int, ...]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _lone_surrogates(value: Any, parts: tuple[str | int, ...] = ()) -> Iterator[str]:
    """The field path of every string (key or value) in ``value`` holding a lone surrogate.
    Iterative, as the value may be nested as deep as the parser allowed."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, parts)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                yield _path(where)
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                if _SURROGATE.search(key):
                    yield _path((*where, key.encode("utf-8", "backslashreplace").decode()))
                stack.append((child, (*where, key)))
        elif isinstance(item, list):
            stack.extend((child, (*where, i)) for i, child in reversed(list(enumerate(item))))


def loads(data: bytes | str) -> Any:
    """Parse one JSON value; ``MalformedJson`` for anything that is not one, including a
    string with an unpaired surrogate escape."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text, parse_constant=_reject_constant)
    except MalformedJson:
        raise
    except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError too
        raise MalformedJson(str(error)) from error
    if _SURROGATE_ESCAPE.search(text):
        where = next(_lone_surrogates(value), None)
        if where is not None:
            raise MalformedJson(
                f"the string at {where or 'the top'} holds an unpaired UTF-16 surrogate "
                "escape (\\ud800-\\udfff), which is not a character",
                field=where, code="lone_surrogate",
            )
    return value


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
    """webargs' parser reading JSON with ``loads``: a malformed body raises ``MalformedJson``
    itself, which ``problems.py`` answers 400 ``malformed_json`` saying what broke where."""

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return loads(data)


class FastJsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with responses written by orjson, several times faster than
    ``json.dumps`` on a game's or a hand's body. The output is the same JSON: keys in order,
    UTF-8 text rather than escapes (``ensure_ascii`` off), integer keys as strings, and
    everything orjson would write its own way (times, dataclasses) handed to Flask's
    ``default`` as before. What orjson cannot write (an integer beyond 64 bits), a pretty
    print (debug) or ASCII escapes go the standard way.

    Every sentence in a body is said by a ``Speaker``: the one a view hands to ``said_json``
    (a table's body: its cards in its family's words, its seats by its players' names), else
    the request's language alone."""

    _OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
                | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        return self.said(self._prepare_response_obj(args, kwargs), speaker())

    def said(self, obj: Any, say: Speaker) -> Response:
        """``obj`` as a JSON response, every sentence in it said by ``say``."""
        obj = say.localize(obj)
        pretty = (self.compact is None and self._app.debug) or self.compact is False
        if not pretty and not self.ensure_ascii:
            options = self._OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
            try:
                body = orjson.dumps(obj, default=self.default, option=options)
            except orjson.JSONEncodeError:
                pass
            else:
                return Response(body, mimetype=self.mimetype)
        return super().response(obj)


def said_json(obj: Any, say: Speaker) -> Response:
    """``obj`` as the app's JSON response, every sentence in it said by ``say``."""
    provider = current_app.json
    assert isinstance(provider, FastJsonProvider)
    return provider.said(obj, say)
