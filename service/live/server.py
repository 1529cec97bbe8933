"""``SERVER=tornado``: one process that holds the streams (``service/live/streams.py``) in an
event loop and runs the app's other requests in ``WEB_THREADS`` threads.

Tornado reads each request whole (its head, then its body) in the loop before a thread sees
it, as waitress does: a client that trickles its request, sends a head or a body too large,
or opens thousands of idle connections holds no thread. An open stream holds no thread
either, only a coroutine and its connection. ``docs/decisions.md`` ("Live screens") says why
this server, with the measurements.

Limits as waitress's (``service/server.py``): a head over 64 KiB or a body over 16 MiB closes
the connection, a connection idle ``REQUEST_DEADLINE`` seconds (30) mid-request or between
requests is closed, the soft limit of open files is raised for ``WEB_CONNECTIONS``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.httputil import HTTPServerRequest
from tornado.netutil import bind_sockets
from tornado.routing import AnyMatches, Matcher, PathMatches, Rule, RuleRouter
from tornado.web import Application
from tornado.wsgi import WSGIContainer

from service.application.notices import EVERYTHING, Follow, kept_for
from service.application.public import RECENT

from .streams import KEEP_ALIVE_S, Hub, StreamHandler

log = logging.getLogger("service.server")

STREAM_PATHS = r"(/api/v1/.+|/results/.+)/stream"


def topics_for(notices: Any) -> Any:
    """What a followed resource listens to, from the store's notices (``of_game``,
    ``of_event``)."""

    def topics_of(follow: Follow) -> frozenset[str]:
        topics = {EVERYTHING}
        if follow.of == "game":
            topics.add(f"g:{follow.id}")
            event_id = notices.of_game(follow.id)[0]
            if event_id:
                topics.add(f"ev:{event_id}")
        elif follow.of == "event":
            topics.add(f"e:{follow.id}")
        elif follow.of == "field":
            host = notices.of_event(follow.id)[1] or follow.id
            topics.update({f"f:{host}", f"e:{follow.id}"})
        else:
            topics.add(f"c:{follow.id}")
        return frozenset(topics)

    return topics_of


def buffered(app: Any) -> Any:
    """``app`` with its answer made whole in the thread that runs it (the container would go
    back to a thread for each part, and once more to learn there is none), and answering with
    ``Server: segnapunti`` (the container would name itself)."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: list[tuple[str, str]], *info: Any) -> Any:
            if not any(name.lower() == "server" for name, _ in headers):
                headers.append(("Server", "segnapunti"))
            return start_response(status, headers, *info)
        answer = app(environ, start)
        try:
            return [b"".join(answer)]
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
    return wsgi


def forget_kept(topics: frozenset[str]) -> None:
    """The published states this process keeps a moment, forgotten where a notice says they
    may have changed (all of them after ``*``)."""
    if EVERYTHING in topics:
        RECENT.clear()
    else:
        RECENT.forget(*kept_for(topics))


def keep_alive_seconds(raw: str | None) -> float:
    """``STREAM_KEEP_ALIVE_SECONDS``: seconds between two comments on a quiet stream, 1 to
    25; unset or empty, 15."""
    value = (raw or "").strip()
    if not value:
        return KEEP_ALIVE_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 1 <= seconds <= 25:
        raise ValueError("STREAM_KEEP_ALIVE_SECONDS is a number of seconds from 1 to 25, "
                         f"not {raw!r}")
    return seconds


class StreamRequests(Matcher):  # type: ignore[misc]
    """A ``GET`` of a stream's path; any other request, whatever its method, is the app's."""

    def __init__(self) -> None:
        self.paths = PathMatches(STREAM_PATHS)

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        if request.method != "GET":
            return None
        found: dict[str, Any] | None = self.paths.match(request)
        return found


def application(app: Any, threads: int) -> tuple[RuleRouter, Hub]:
    """What the server routes to: the streams, held in the loop, and every other request to
    ``app`` in a pool of ``threads`` threads (which answers any method and path as it does
    behind any server); and the streams' hub (not yet listening)."""
    executor = ThreadPoolExecutor(threads, thread_name_prefix="segnapunti-request")
    container = WSGIContainer(buffered(app), executor=executor)
    notices = app.extensions["segnapunti.notices"]
    hub = Hub(app, executor, topics_for(notices), forget_kept,
              keep_alive_seconds(os.environ.get("STREAM_KEEP_ALIVE_SECONDS")),
              app.extensions.get("segnapunti.streams_open", lambda _open: None))
    streams = Application([(STREAM_PATHS, StreamHandler, {"hub": hub, "fallback": container})],
                          compress_response=False)
    return RuleRouter([Rule(StreamRequests(), streams), Rule(AnyMatches(), container)]), hub


async def run(app: Any, host: str, port: int, *, threads: int, deadline: float,
              max_head: int, max_body: int, ready: Any = None) -> None:
    """Serve until SIGTERM or SIGINT (or ``stop`` set, for tests through ``ready``)."""
    # Each request has the app's own line (service/http/requestlog.py), by its route: tornado's
    # would be a second one, without the request's id and with the query string (where a
    # hand-made link may carry a token).
    logging.getLogger("tornado.access").disabled = True
    router, hub = application(app, threads)
    hub.loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    listening = app.extensions["segnapunti.notices"].listen(hub.deliver, stopping)
    server = HTTPServer(router, max_header_size=max_head, max_body_size=max_body,
                        max_buffer_size=max_body, idle_connection_timeout=deadline,
                        body_timeout=deadline)
    sockets = bind_sockets(port, host, backlog=2048)
    server.add_sockets(sockets)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stopping.set)
        except (ValueError, RuntimeError):  # not the main thread (a test's server)
            pass
    bound = sockets[0].getsockname()
    log.info("Serving on http://%s:%s", bound[0], bound[1])
    if ready is not None:
        ready(hub, stopping, bound[1])
    await stopping.wait()
    server.stop()
    if isinstance(listening, asyncio.Task):
        listening.cancel()
    else:
        listening()
    await asyncio.wait_for(server.close_all_connections(), 5)
