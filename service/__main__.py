"""``python -m service``: apply the database migrations, then serve the API with gunicorn.

    python -m service            migrate, then serve on $PORT (default 8000)
    python -m service migrate    only migrate
    python -m service serve      only serve

Environment: ``DATABASE_URL`` (default: SQLite file ``./var/segnapunti.sqlite3``), ``PORT``,
``HOST`` (default 0.0.0.0), ``WEB_CONCURRENCY`` (gunicorn workers, default 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

from service.persistence import default_database_url, upgrade

DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2

#: The access log: client, time, method, path (without the query string), protocol, status,
#: bytes, duration, user agent. Never the query string, the Referer or the Authorization
#: header: tokens travel only in the Authorization header, but a hand-made link could put one
#: in a query, and a page's address in a Referer.
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms "%(a)s"'


class GunicornServer(BaseApplication):  # type: ignore[misc]
    """gunicorn run from code. Each worker builds its own app (no preload), so no database
    connection is shared across a fork."""

    def __init__(self, database_url: str, options: dict[str, Any]) -> None:
        self.database_url = database_url
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        from service.http.app import create_app

        return create_app({"DATABASE_URL": self.database_url})


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def serve(database_url: str) -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = _int_env("PORT", DEFAULT_PORT)
    options = {
        "bind": f"{host}:{port}",
        "workers": _int_env("WEB_CONCURRENCY", DEFAULT_WORKERS),
        "accesslog": "-",
        "access_log_format": ACCESS_LOG_FORMAT,
        "errorlog": "-",
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # gunicorn >= 25 opens a control socket under $HOME by default; the service needs
        # none, and a container's user may have no writable home.
        "control_socket_disable": True,
    }
    GunicornServer(database_url, options).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", choices=["all", "migrate", "serve"], default="all")
    args = parser.parse_args(argv)
    database_url = default_database_url()
    if args.command in {"all", "migrate"}:
        upgrade(database_url)
    if args.command in {"all", "serve"}:
        serve(database_url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
