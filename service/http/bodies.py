"""Request bodies past the plain JSON every request sends: the import's own size limit and
its gzip encoding.

A request body is at most ``MAX_BODY_BYTES`` (1 MiB): a hand, a game's setup. An import
carries a whole game (a thousand Mitigatti hands with their history are some 4 MiB of JSON),
so ``POST /games/import`` takes up to ``IMPORT_MAX_BYTES``, and takes it gzip-compressed
(``Content-Encoding: gzip``) too. The compressed body is inflated before Flask reads it, by
``InflateImports``, never past the same limit: a small body that would inflate to gigabytes
(a gzip bomb) is a 413 after reading at most the limit. A body that is not gzip, or is cut
short, is a 400. No other request takes an encoded body: 415, as RFC 7694 has it.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_input_stream

from . import problems
from .bodylimits import IMPORT_MAX_BYTES, size
from .paths import IMPORT_PATH

_CHUNK = 64 * 1024
# Set by the middleware for the request's hook: what was wrong with an encoded body.
_PROBLEM = "segnapunti.body_problem"


def _encoding(environ: dict[str, Any]) -> str:
    return str(environ.get("HTTP_CONTENT_ENCODING", "")).strip().lower()


class InflateImports:
    """WSGI middleware: a gzip body posted to the import path is inflated, at most ``limit``
    bytes of it read and at most ``limit`` bytes made, and handed on as a plain body. What
    went wrong is left in the environ for ``check_body`` to answer, in the app's own
    problem+json."""

    def __init__(self, app: Callable[..., Iterable[bytes]], limit: int) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        if (environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == IMPORT_PATH
                and _encoding(environ) == "gzip"):
            body, problem = self._inflate(environ)
            if problem is not None:
                environ[_PROBLEM] = problem
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_CONTENT_ENCODING", None)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)

    def _inflate(self, environ: dict[str, Any]) -> tuple[bytes, str | None]:
        inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip's header and trailer
        out = bytearray()
        try:
            stream = get_input_stream(environ, max_content_length=self.limit)
            while chunk := stream.read(_CHUNK):
                out += inflater.decompress(chunk, self.limit + 1 - len(out))
                if len(out) > self.limit:
                    return b"", "too_large"
                if inflater.eof:
                    break
        except RequestEntityTooLarge:
            return b"", "too_large"
        except zlib.error:
            return b"", "not_gzip"
        if not inflater.eof or inflater.unused_data or stream.read(1):
            return b"", "not_gzip"
        return bytes(out), None


_PROBLEMS = {
    "too_large": (413, "body_too_large", "The request body is too large",
                  "inflated, the body is over {limit}, the most an import takes"),
    "not_gzip": (400, "malformed_request", "The request body is not gzip",
                 ("the body is declared Content-Encoding: gzip but is not one whole gzip "
                  "stream (corrupt, cut short, or followed by other bytes)")),
}


def check_body() -> Response | None:
    """Before a request: answer what the middleware found wrong, refuse an encoded body
    where none is taken (415), and give the import its larger limit."""
    found = request.environ.get(_PROBLEM)
    if found is not None:
        status, code, title, detail = _PROBLEMS[found]
        detail = detail.format(limit=size(IMPORT_MAX_BYTES))
        return problems.problem_response(
            status, code=code, title=title, detail=detail,
            errors=[{"field": "body", "code": code, "message": detail}])
    encoding = _encoding(request.environ)
    if encoding not in ("", "identity") and request.method in {"POST", "PUT", "PATCH"}:
        detail = (f"a body encoded {encoding!r} is not taken here: send it as it is; only "
                  f"POST {IMPORT_PATH} takes a gzip body")
        return problems.problem_response(
            415, code="unsupported_content_encoding", title="The body's encoding is not taken",
            detail=detail,
            errors=[{"field": "Content-Encoding", "code": "unsupported_content_encoding",
                     "message": detail}],
            headers={"Accept-Encoding": "gzip" if request.path == IMPORT_PATH else "identity"})
    if request.path == IMPORT_PATH:
        request.max_content_length = IMPORT_MAX_BYTES
    return None
