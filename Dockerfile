# Segnapunti: `docker build -t segnapunti . && docker run -p 8000:8000 segnapunti`
# The container migrates its database, then serves with gunicorn (python -m service).
# Base images pinned to a patch release (Debian bookworm, like the native topology); Python
# dependencies installed from requirements.lock (`python deploy/lock.py`), then the service's
# own wheel without resolving anything again.

FROM python:3.11.14-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service ./service
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11.14-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# `python -m service backup` runs pg_dump, and restore pg_restore: PostgreSQL's client of the
# server's major version (compose: postgres:16), from PostgreSQL's own Debian repository
# (bookworm carries 15); the repository's key ships in Debian's postgresql-common.
ARG POSTGRES_MAJOR=16
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-common ca-certificates \
 && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
 && apt-get install -y --no-install-recommends "postgresql-client-${POSTGRES_MAJOR}" \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --system --create-home --home-dir /home/segnapunti --uid 10001 segnapunti
WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock
COPY --from=build /wheels /wheels
RUN pip install --no-deps /wheels/*.whl && rm -rf /wheels && pip check
COPY alembic.ini ./
COPY migrations ./migrations
RUN mkdir -p /app/var/backups && chown -R segnapunti:segnapunti /app/var

# The package is installed in site-packages; its migrations are here. The default database
# is a SQLite file on the /app/var volume; set DATABASE_URL=postgresql://… for PostgreSQL.
# Backups: `python -m service backup /app/var/backups/FILE` (docs/operations.md, "Backups and restores").
ENV SEGNAPUNTI_MIGRATIONS=/app/migrations \
    DATABASE_URL=sqlite:////app/var/segnapunti.sqlite3 \
    PORT=8000 \
    WEB_CONCURRENCY=2

USER segnapunti
VOLUME ["/app/var"]
EXPOSE 8000
# Readiness, not liveness: healthy while the database answers (GET /api/v1/ready).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/v1/ready' % os.environ.get('PORT', '8000'), timeout=4)"
CMD ["python", "-m", "service"]
