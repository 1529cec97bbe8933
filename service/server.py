"""How ``python -m service serve`` serves the app: tornado by default (``service/live``: one
process, the app in threads and the screens' streams in its event loop), waitress
(``SERVER=waitress``), stock gunicorn behind a buffering proxy (``SERVER=gunicorn``).
``docs/decisions.md`` ("The HTTP server", "Live screens") says why.

``SERVER=tornado`` (the default: one process, what a club runs on its own Wi-Fi with nothing
in front) reads requests as waitress does below, with the same limits, and holds each open
stream without a thread (``service/live/server.py``).

``SERVER=waitress`` (one process, no streams: the screens poll). waitress reads every request whole (head and body) in its event loop before one
of its ``WEB_THREADS`` threads (8) is given it, so a client that trickles its request, or
sends a head or a body too large, or opens thousands of connections and sends nothing, holds
no thread: a health probe is answered at once whatever they do. Settings for hostile Wi-Fi:

- ``poll()`` rather than ``select()`` (which fails past 1,024 file descriptors);
- up to ``WEB_CONNECTIONS`` connections at once (10,000), the process's soft limit of open
  files raised to its hard limit to hold them (a warning when that is not enough);
- a connection idle ``REQUEST_DEADLINE`` seconds (30) is closed, its request whole or not;
- a head over 64 KiB is refused (431), and so is a body over 16 MiB (an import's limit; the app
  refuses any other body over 1 MiB from its ``Content-Length``, ``service/http/bodylimits.py``);
- waitress leaves ``REMOTE_ADDR`` and the ``X-Forwarded-*`` headers as they came: the app's
  ``ProxyFix`` (``TRUSTED_PROXIES``, ``service/http/app.py``) is the one place that believes
  a proxy;
- its lines (a connection refused, the queue's depth) in the service's log format.

``SERVER=gunicorn``: stock gunicorn gthread, ``WEB_CONCURRENCY`` processes (2) of
``WEB_THREADS`` threads. gthread gives a connection to a thread once its first bytes arrive,
so a slow client holds a thread: only behind a proxy that reads each request whole first
(``deploy/Caddyfile``'s ``request_buffers``), as ``compose.yaml`` and ``deploy/native.sh``
run it. The master imports gunicorn and nothing of the service; each worker builds its app.
"""

from __future__ import annotations

import logging
import os
import resource
import signal
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

DEFAULT_SERVER = "tornado"
SERVERS = ("waitress", "gunicorn", "tornado")
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
#: Connections waitress holds at once (``WEB_CONNECTIONS``): thousands of idle ones from one
#: address must not keep a new one from being accepted.
DEFAULT_CONNECTIONS = 10_000
#: Seconds a connection may stay idle, mid-request or between requests (``REQUEST_DEADLINE``).
DEFAULT_DEADLINE_S = 30
MAX_HEAD_BYTES = 64 * 1024
#: The largest body the app takes: an import's (``IMPORT_MAX_BYTES``); every other request's
#: limit (1 MiB) is the app's to enforce, from the body's length.
MAX_BODY_BYTES = 16 * 1024 * 1024
#: Connections waitress accepts at most in one turn of its loop (``accept_in_batches``).
ACCEPT_BATCH = 256
#: Files a process holds besides its connections (the database, logs, metrics, the listener).
SPARE_FILES = 64

log = logging.getLogger("service.server")


def int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def request_deadline() -> float:
    """``$REQUEST_DEADLINE`` in seconds, else 30."""
    raw = os.environ.get("REQUEST_DEADLINE", "").strip()
    value = float(raw) if raw else float(DEFAULT_DEADLINE_S)
    if not value > 0:
        raise ValueError(f"REQUEST_DEADLINE is a number of seconds above 0, not {raw!r}")
    return value


def which_server() -> str:
    chosen = os.environ.get("SERVER", "").strip().lower() or DEFAULT_SERVER
    if chosen not in SERVERS:
        raise ValueError(f"SERVER is one of {', '.join(SERVERS)}, not {chosen!r}")
    return chosen


def raise_open_files(wanted: int) -> int:
    """The soft limit of open files raised to the hard one; the limit now. Logs a warning
    when it is below ``wanted``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = wanted if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, target), hard))
            soft = max(soft, target)
        except (ValueError, OSError) as error:
            log.warning("could not raise the open files limit from %s: %s", soft, error)
    if soft < wanted:
        log.warning("open files limit %s is below the %s that WEB_CONNECTIONS needs: raise the "
                    "hard limit (ulimit -Hn, LimitNOFILE=) or lower WEB_CONNECTIONS", soft, wanted)
    return soft


def waitress_options(host: str, port: int) -> dict[str, Any]:
    return {
        "listen": f"{host}:{port}",
        "threads": int_env("WEB_THREADS", DEFAULT_THREADS),
        "connection_limit": int_env("WEB_CONNECTIONS", DEFAULT_CONNECTIONS),
        "asyncore_use_poll": True,
        "channel_timeout": request_deadline(),
        # Idle connections are looked for this often (waitress's default: 30 s).
        "cleanup_interval": max(1, min(30, int(request_deadline() // 2) or 1)),
        "max_request_header_size": MAX_HEAD_BYTES,
        "max_request_body_size": MAX_BODY_BYTES,
        "backlog": 2048,
        # The app's ProxyFix alone believes a proxy: waitress changes no address, and clears
        # no X-Forwarded-* header.
        "trusted_proxy": None,
        "clear_untrusted_proxy_headers": False,
        "ident": "segnapunti",
        "expose_tracebacks": False,
    }


def accept_in_batches(listener: Any, channels: dict[int, Any], limit: int) -> None:
    """waitress's listener accepts up to ``ACCEPT_BATCH`` waiting connections a turn of its
    loop rather than one. Each turn polls every open connection, so accepting one a turn took
    28 s to take in a burst of 3,500 idle connections, while a new client (a health probe)
    waited behind them in the listen queue."""
    accept_one = listener.handle_accept

    def handle_accept() -> None:
        for _ in range(ACCEPT_BATCH):
            held = len(channels)
            if held >= limit:
                return
            accept_one()
            if len(channels) == held:  # none was waiting (or it failed, and was logged)
                return

    listener.handle_accept = handle_accept


def serve_waitress(host: str, port: int) -> None:
    from waitress.server import BaseWSGIServer, create_server

    from service.process import serving_app

    app = serving_app()  # the log set up first (service/logs.py), waitress's lines included
    options = waitress_options(host, port)
    raise_open_files(options["connection_limit"] + SPARE_FILES)
    channels: dict[int, Any] = {}
    server = create_server(app, map=channels, **options)
    for listener in {id(c): c for c in channels.values()}.values():
        if isinstance(listener, BaseWSGIServer):
            accept_in_batches(listener, channels, options["connection_limit"])

    def stop(_signal: int, _frame: Any) -> None:
        # run() ends on SystemExit: it stops accepting, lets the threads finish (5 s at
        # most), and returns.
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    server.print_listen("Serving on http://{}:{}")
    server.run()
    server.close()


#: Seconds gunicorn keeps an idle connection open (see ``gunicorn_options``).
KEEPALIVE_S = 75


def gunicorn_options(host: str, port: int) -> dict[str, Any]:
    from service import metrics_dir
    from service.logs import gunicorn_logconfig, log_format

    return {
        "bind": f"{host}:{port}",
        "workers": int_env("WEB_CONCURRENCY", DEFAULT_WORKERS),
        "worker_class": "gthread",
        "threads": int_env("WEB_THREADS", DEFAULT_THREADS),
        # Each request's line is the app's (service/http/requestlog.py: its id, its route, its
        # problem code); gunicorn's own lines are written in the same format (service/logs.py).
        "accesslog": None,
        "errorlog": "-",
        "logconfig_dict": gunicorn_logconfig(log_format()),
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # An idle connection is kept longer than the proxy keeps one of its own idle
        # (deploy/Caddyfile: 60 s), so the proxy is always the one to close it: a server
        # closing it first (gunicorn's default is 2 s) races the proxy's next request on it,
        # which the proxy answers 502 when it is a write it may not send again.
        "keepalive": KEEPALIVE_S,
        # A worker that exits leaves the live sums of /metrics (service/metrics_dir.py).
        "child_exit": metrics_dir.worker_exited,
    }


class GunicornServer(BaseApplication):  # type: ignore[misc]
    """gunicorn run from code. Each worker builds its own app (no preload), so no database
    connection is shared across a fork."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)
        # gunicorn >= 25 opens a control socket under $HOME by default; the service needs
        # none, and a container's user may have no writable home.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)

    def load(self) -> Any:
        from service.process import serving_app

        return serving_app()


def serve_gunicorn(host: str, port: int) -> None:
    GunicornServer(gunicorn_options(host, port)).run()


def serve_tornado(host: str, port: int) -> None:
    import asyncio

    from service.live.server import run
    from service.process import serving_app

    app = serving_app()
    connections = int_env("WEB_CONNECTIONS", DEFAULT_CONNECTIONS)
    raise_open_files(connections + SPARE_FILES)
    try:
        asyncio.run(run(app, host, port, threads=int_env("WEB_THREADS", DEFAULT_THREADS),
                        deadline=request_deadline(), max_head=MAX_HEAD_BYTES,
                        max_body=MAX_BODY_BYTES))
    except TimeoutError:
        log.warning("some connections were still open 5 s after the server stopped")


def serve() -> None:
    """Serve on ``$HOST:$PORT`` with ``$SERVER`` until SIGTERM."""
    from service import metrics_dir

    chosen = which_server()
    # The metrics of every process of the server in one directory (service/metrics_dir.py).
    metrics_dir.prepare()
    host = os.environ.get("HOST", "0.0.0.0")
    port = int_env("PORT", DEFAULT_PORT)
    if chosen == "gunicorn":
        serve_gunicorn(host, port)
    elif chosen == "tornado":
        serve_tornado(host, port)
    else:
        serve_waitress(host, port)
    sys.stdout.flush()
