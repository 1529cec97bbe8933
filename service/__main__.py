"""``python -m service``: apply the database migrations, then serve the API (tornado, waitress, or gunicorn behind a proxy).

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
``HOST`` (default 0.0.0.0), ``SERVER`` (``tornado``, the default, ``waitress`` or
``gunicorn``), ``WEB_THREADS`` (threads, default 8), ``WEB_CONNECTIONS`` (tornado, waitress:
connections held at once, default 10,000), ``REQUEST_DEADLINE`` (tornado, waitress: seconds a
connection may stay idle, default 30), ``STREAM_KEEP_ALIVE_SECONDS`` (tornado: seconds between
two comments on a quiet stream, default 15), ``WEB_CONCURRENCY`` (gunicorn: worker processes, default 2), ``PROMETHEUS_MULTIPROC_DIR``
(where the server's processes keep their metrics for ``GET /metrics``; default a fresh
temporary directory: ``service/metrics_dir.py``).

By default one process serves with tornado, which reads each request whole in its event loop
before a thread gets it: a client that trickles its request (a slowloris, or a phone on one bar
of signal), sends too large a head or body, or holds thousands of idle connections, holds no
thread; and each screen's open stream is held in that loop too (``service/live``). waitress
(``SERVER=waitress``) reads requests as safely but holds no streams. ``SERVER=gunicorn`` runs
stock gunicorn gthread workers, for behind a proxy that buffers requests (Caddy, as
compose.yaml and deploy/native.sh run it): gthread alone gives a thread to a slow client.
``service/server.py`` has the three.

The serving process stays lean (gunicorn's master imports nothing of the service; tornado's
and waitress's process holds the app only): ``python -m service`` runs the migrations (Alembic, SQLAlchemy)
in a child process of its own, ``python -m service migrate``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from service.server import int_env, serve

#: How long ``migrate`` waits for the database to answer (``MIGRATE_WAIT``, seconds): a first
#: start of compose, where PostgreSQL is still initialising its volume, or a database restarting.
DEFAULT_MIGRATE_WAIT_S = 60



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
        wait_for_database(url, int_env("MIGRATE_WAIT", DEFAULT_MIGRATE_WAIT_S), say)
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
    load into the serving process (and, with gunicorn, from its master into every worker). Its exit status."""
    return subprocess.run([sys.executable, "-m", "service", "migrate"], check=False).returncode


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
