"""Each write that stands tells the screens that follow what it changed
(``service.application.notices``): once its answer is sent, from the ids of its path."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, request

log = logging.getLogger(__name__)

READS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The path's ids a notice names, by the name of the route's argument.
NAMED = ("game_id", "event_id", "club_id")


def tell(notices: Any, **ids: str | None) -> None:
    """Tell the write's topics; a failure is logged (the write stands, the screens' next poll
    or notice catches up)."""
    try:
        notices.wrote(**ids)
    except Exception:
        log.warning("could not tell the screens of a change", exc_info=True)


def install(app: Flask, notices: Any) -> None:
    @app.after_request
    def tell_after_a_write(response: Response) -> Response:
        if request.method in READS or not 200 <= response.status_code < 300:
            return response
        args = request.view_args or {}
        ids = {name: str(args[name]) for name in NAMED if args.get(name)}
        if ids:
            # After the answer is sent: the writer does not wait for the notice.
            response.call_on_close(lambda: tell(notices, **ids))
        return response
