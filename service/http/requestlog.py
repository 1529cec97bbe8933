"""Each request's id and its line in the log.

**The id.** Every answer carries ``X-Request-ID``: the caller's own, if it sent a sane one (1
to 128 of the characters ``A–Z a–z 0–9 - _ . : + / =``, which a UUID, a hex digest, a base64
value or a load balancer's trace id all are), else a new UUID. The proxy in front
(``deploy/Caddyfile``) sends one for each request that came without one, so the proxy's
access log and the service's lines of one request share it. Anything else sent in the header
(too long, spaces, quotes, control characters) is never echoed nor logged: a new id stands
for it. While the request is served, every log line written in its thread carries the id
(``service/logs.py``).

**The line.** When the answer is made, one line at INFO on the ``service.request`` logger:
its ``method``, its ``route`` (the path's template, ``/api/v1/games/<game_id>``: never the
path itself, whose ids are half of what opens a game, nor its query string; null for a path
no route matched), ``status``, ``duration_ms`` (from the first hook to the answer, the body
not yet sent), ``client`` (the client's address as the trusted proxy gave it in
``X-Forwarded-For``, ``TRUSTED_PROXIES``; else the connection's), and, on a 4xx or 5xx answer
in problem+json, its ``problem`` code (``rate_limited``, ``invalid_token``…). The
``Authorization`` header, the body and the ``Referer`` are never logged.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import Token

from flask import Flask, Response, g, request

from service.logs import REQUEST_ID

from .problems import PROBLEM_MIMETYPE

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"[A-Za-z0-9_.:+/=-]{1,128}")

log = logging.getLogger("service.request")


def request_id_of(sent: str | None) -> str:
    """The caller's id if it is sane, else a new one."""
    if sent is not None and SANE_ID.fullmatch(sent):
        return sent
    return str(uuid.uuid4())


def _begin() -> None:
    g.request_started = time.perf_counter()
    g.request_id = request_id_of(request.headers.get(HEADER))
    g.request_id_token = REQUEST_ID.set(g.request_id)


def _problem_code(response: Response) -> str | None:
    if response.status_code < 400 or response.mimetype != PROBLEM_MIMETYPE or (
            response.direct_passthrough):
        return None
    body = response.get_json(silent=True)
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None


def _answer(response: Response) -> Response:
    request_id = g.get("request_id") or request_id_of(None)
    response.headers[HEADER] = request_id
    started = g.get("request_started")
    fields = {
        "method": request.method,
        "route": request.url_rule.rule if request.url_rule is not None else None,
        "status": response.status_code,
        "duration_ms": (round((time.perf_counter() - started) * 1000, 2)
                        if started is not None else None),
        "client": request.remote_addr,
    }
    problem = _problem_code(response)
    if problem is not None:
        fields["problem"] = problem
    log.info("%s %s %s %s ms %s%s", fields["method"], fields["route"] or "(no route)",
             fields["status"], fields["duration_ms"], fields["client"],
             f" {problem}" if problem else "",
             extra={"fields": fields, "request_id": request_id})
    return response


def _end(_error: BaseException | None) -> None:
    token: Token[str | None] | None = g.pop("request_id_token", None)
    if token is not None:
        REQUEST_ID.reset(token)


def install(app: Flask) -> None:
    """Register before every other hook: the id is set before any of them may refuse the
    request (a rate limit's 429 has its line and its id too), and the line is written after
    every other ``after_request`` hook has made the answer."""
    app.before_request(_begin)
    app.after_request(_answer)
    app.teardown_request(_end)
