"""``python -m service``: apply the database migrations, then serve the API with gunicorn.

    python -m service            migrate, then serve on $PORT (default 8000)
    python -m service migrate    only migrate (waiting up to $MIGRATE_WAIT s, default 60,
                                 for the database to answer), then end the rounds earlier
                                 releases left open with every table finished
    python -m service serve      only serve
    python -m service backup FILE     a consistent copy of the database, while it serves
    python -m service restore FILE    the database replaced by a backup (service stopped)
    python -m service purge      purge the anonymous games untouched for $RETENTION_DAYS days
                                 (prints what it removed; migrate does it too)

Environment: ``DATABASE_URL`` (default: SQLite file ``./var/segnapunti.sqlite3``), ``PORT``,
``HOST`` (default 0.0.0.0), ``WEB_CONCURRENCY`` (gunicorn workers, default 2),
``WEB_THREADS`` (threads of each worker, default 8), ``PROMETHEUS_MULTIPROC_DIR`` (where the
workers keep their metrics for ``GET /metrics``; default a fresh temporary directory:
``service/metrics_dir.py``).

Workers are gunicorn's ``gthread`` (``service.server.BufferingWorker``): each serves its
requests on a pool of threads, and a connection waits in the worker's poller, holding no
thread, until its whole request has arrived (head and body, within 30 s). A client that
trickles its request (a slowloris, or a phone on one bar of signal) holds no thread while it
does: with sync workers two such clients held every request, the health probe included, until
the worker timeout, and with plain gthread each held a thread.

The gunicorn master stays lean: it imports gunicorn and nothing of the service. Workers are
forked from it (no preload), so whatever the master holds sits in every worker's memory;
``python -m service`` therefore runs the migrations (Alembic, SQLAlchemy) in a child process
of its own, ``python -m service migrate``, and each worker reads ``DATABASE_URL`` and imports
only what its requests need when it builds its app.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
#: How long ``migrate`` waits for the database to answer (``MIGRATE_WAIT``, seconds): a first
#: start of compose, where PostgreSQL is still initialising its volume, or a database restarting.
DEFAULT_MIGRATE_WAIT_S = 60



class GunicornServer(BaseApplication):  # type: ignore[misc]
    """gunicorn run from code. Each worker builds its own app (no preload), so no database
    connection is shared across a fork, and the database URL is read in the worker
    (``DATABASE_URL``, see ``service.http.config``)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        from service.process import serving_app

        return serving_app()


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def migrate() -> int:
    """Upgrade the database at ``DATABASE_URL`` to the newest schema, in this process, once
    the database answers (waiting up to ``MIGRATE_WAIT`` seconds), then end the rounds
    earlier releases left open with every table finished (``service/upkeep.py``); the exit
    status."""
    from service.persistence import default_database_url, upgrade
    from service.persistence.migrate import DatabaseNotAnswering, wait_for_database
    from service.process import log_to_stderr
    from service.upkeep import end_finished_rounds, purge_untouched

    def say(message: str) -> None:
        print(f"python -m service migrate: {message}", file=sys.stderr, flush=True)

    url = default_database_url()
    try:
        wait_for_database(url, _int_env("MIGRATE_WAIT", DEFAULT_MIGRATE_WAIT_S), say)
    except DatabaseNotAnswering as error:
        say(f"{error}; not migrated")
        return 1
    upgrade(url)
    log_to_stderr()  # what the rounds' ending logs (an event it could not end, and why)
    end_finished_rounds(url, say)
    purge_untouched(url, say, "upkeep")
    return 0


def purge() -> int:
    """Purge the anonymous games untouched for ``RETENTION_DAYS`` days, now; prints what it
    removed. Its exit status (2: ``RETENTION_DAYS`` is not set)."""
    from service.persistence import default_database_url
    from service.process import log_to_stderr
    from service.upkeep import purge_untouched

    log_to_stderr()
    if purge_untouched(default_database_url(), print, "command") is None:
        print("python -m service purge: RETENTION_DAYS is not set: nothing is purged",
              file=sys.stderr)
        return 2
    return 0


def migrate_in_child() -> int:
    """``python -m service migrate`` in a child process, so that Alembic and SQLAlchemy never
    load into the gunicorn master (and from it into every worker). Its exit status."""
    return subprocess.run([sys.executable, "-m", "service", "migrate"], check=False).returncode


def serve() -> None:
    from service import metrics_dir
    from service.logs import gunicorn_logconfig, log_format

    # Every worker's metrics in one directory, summed by the one that answers a scrape.
    metrics_dir.prepare()
    host = os.environ.get("HOST", "0.0.0.0")
    port = _int_env("PORT", DEFAULT_PORT)
    options = {
        "bind": f"{host}:{port}",
        "workers": _int_env("WEB_CONCURRENCY", DEFAULT_WORKERS),
        # gthread, each request read whole before a thread gets it (service/server.py).
        "worker_class": "service.server.BufferingWorker",
        "threads": _int_env("WEB_THREADS", DEFAULT_THREADS),
        # Each request's line is the app's (service/http/requestlog.py: its id, its route, its
        # problem code); gunicorn's own lines are written in the same format (service/logs.py).
        "accesslog": None,
        "errorlog": "-",
        "logconfig_dict": gunicorn_logconfig(log_format()),
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # gunicorn >= 25 opens a control socket under $HOME by default; the service needs
        # none, and a container's user may have no writable home.
        "control_socket_disable": True,
        # A worker that exits leaves the live sums of /metrics (service/metrics_dir.py).
        "child_exit": metrics_dir.worker_exited,
    }
    GunicornServer(options).run()


def backup_or_restore(command: str, file: str, *, force: bool) -> int:
    """``backup`` or ``restore`` the database at ``DATABASE_URL`` (``service/persistence/
    backup.py``); its exit status."""
    from pathlib import Path

    from service.persistence import backup as backups
    from service.persistence import default_database_url

    url = default_database_url()
    try:
        if command == "backup":
            held = backups.backup(url, Path(file), force=force)
            print(f"backed up {held} to {Path(file).resolve()} "
                  f"({Path(file).stat().st_size:,} bytes); the rows of each table:")
        else:
            held = backups.restore(url, Path(file), force=force)
            print(f"restored {held} from {Path(file).resolve()}; the rows of each table:")
        print("\n".join(held.lines()))
    except backups.BackupError as error:
        print(f"python -m service {command}: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="all",
                        choices=["all", "migrate", "serve", "backup", "restore", "purge"])
    parser.add_argument("file", nargs="?", help="the backup file (backup, restore)")
    parser.add_argument("--force", action="store_true",
                        help="backup: overwrite the file; restore: replace a database "
                             "that holds anything")
    args = parser.parse_intermixed_args(argv)  # `restore --force FILE` as `restore FILE --force`
    if args.command in {"backup", "restore"}:
        if not args.file:
            parser.error(f"{args.command} needs the backup file: python -m service "
                         f"{args.command} FILE")
        return backup_or_restore(args.command, args.file, force=args.force)
    if args.file or args.force:
        parser.error(f"{args.command} takes no file and no --force")
    if args.command == "migrate":
        return migrate()
    if args.command == "purge":
        return purge()
    if args.command == "all":
        status = migrate_in_child()
        if status != 0:
            print(f"python -m service: the migrations failed (exit status {status}); "
                  "not serving", file=sys.stderr)
            return status if status > 0 else 1
    serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
