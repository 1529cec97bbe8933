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
#: The end of the route of a player's verdicts on a hand.
VERDICTS = "/confirmations"


def tell(notices: Any, *, verdict: bool = False, **ids: str | None) -> None:
    """Tell the write's topics; a failure is logged (the write stands, the screens' next poll
    or notice catches up)."""
    try:
        notices.wrote(verdict=verdict, **ids)
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
            # A verdict changes nothing its event's screens say (game_topics).
            rule = request.url_rule.rule if request.url_rule is not None else ""
            verdict = rule.endswith(VERDICTS)
            # After the answer is sent: the writer does not wait for the notice.
            response.call_on_close(lambda: tell(notices, verdict=verdict, **ids))
        return response
