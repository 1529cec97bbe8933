"""A stream's readings of the resource it follows, through the app itself.

A stream (``service/live``) opens on the same access rules as the resource it follows
because it asks the app for that resource, with the client's own headers (its token, its
language, the proxy's ``X-Forwarded-*``): whatever the resource would answer (401, 403, 404,
a 429 of the client's limit) is the stream's answer. Once open, the stream reads the resource
again after each change notice. Most streams say only the resource's version, so their
readings ask for no more (``TAG_ONLY``): a resource with an entity tag answers 304 with its
current tag, made from the same cheap state a conditional read compares, and never builds its
body (an event's standings, a results page) for a stream; the client reads the body itself,
from an app server, when told. A game's stream carries the game itself (``service/live``), so
its readings ask for the body, conditionally: a 304 while the game is as the stream last read
it. Those readings are the server's, not the client's, and no client's rate limit counts them
(``ratelimit.REREAD``); they are logged as any request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.test import EnvironBuilder, run_wsgi_app

from .ratelimit import REREAD

#: A stream's reading (the WSGI environ's key): an answer with an entity tag is 304 with the
#: current tag, without its body.
TAG_ONLY = "segnapunti.stream_tag_only"

#: The client's headers a reading passes on; the others (its ``Accept``, ``Last-Event-ID``,
#: ``If-None-Match``) are the stream's own.
PASSED_ON = ("authorization", "accept-language", "x-forwarded-for", "x-forwarded-proto",
             "x-forwarded-host", "x-forwarded-port", "x-forwarded-prefix", "user-agent", "host")


@dataclass(frozen=True, slots=True)
class Reading:
    """What the app answered: its status, its entity tag, and its body and type: a refusal's,
    which the stream answers in its place, a resource's that has no entity tag, or one read
    whole (``read``'s ``body``)."""

    status: int
    etag: str | None
    body: bytes = b""
    content_type: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


def passed_on(headers: Mapping[str, str]) -> dict[str, str]:
    """The client's headers a reading passes on, by their names in lower case: the streams
    that share a follower are known by these (``authorization``, ``accept-language``), and a
    server hands them over capitalised."""
    return {name.lower(): value for name, value in headers.items()
            if name.lower() in PASSED_ON}


def read(app: Any, path: str, headers: Mapping[str, str], remote_addr: str, *,
         etag: str | None = None, again: bool = False, body: bool = False) -> Reading:
    """``GET path`` through ``app`` (its whole WSGI stack) with ``headers``; ``etag``: as
    ``If-None-Match``; ``again``: the stream's own reading after a notice; ``body``: the
    resource's body is wanted (else the entity tag alone)."""
    sent = dict(headers)
    sent["Accept"] = "text/html" if path.startswith("/results/") else "application/json"
    if etag:
        sent["If-None-Match"] = etag
    environ = EnvironBuilder(path=path, method="GET", headers=list(sent.items()),
                             environ_base={"REMOTE_ADDR": remote_addr}).get_environ()
    if not body:
        environ[TAG_ONLY] = True
    if again:
        environ[REREAD] = True
    answer, status, answered = run_wsgi_app(app, environ, buffered=True)
    code = int(status.split(" ", 1)[0])
    tag = answered.get("ETag")
    try:
        # A resource without an entity tag is known by its body (see ``version``).
        content = (b"" if code == 304 or (code == 200 and tag and not body)
                   else b"".join(answer))
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()
    kept = tuple((name, value) for name, value in answered.items()
                 if name.lower() in ("retry-after", "www-authenticate", "content-language"))
    return Reading(code, tag, content, answered.get("Content-Type"), kept)
