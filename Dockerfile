# Segnapunti: `docker build -t segnapunti . && docker run -p 8000:8000 segnapunti`
# The container migrates its database, then serves with gunicorn (python -m service).
#
# Everything in it comes from Debian and PyPI: the base is Debian bookworm (BASE, by default
# the public debian:bookworm-slim; deploy/image.sh builds here from a base mmdebstrap made),
# Python and PostgreSQL's client tools are Debian's packages, and the Python dependencies are
# requirements.lock's pins (`python deploy/lock.py`), installed into a virtual environment
# before the service itself, which is installed without resolving anything again.
# Built with BuildKit (docker buildx, or DOCKER_BUILDKIT=1 with Debian's docker.io).
ARG BASE=debian:bookworm-slim

FROM ${BASE} AS build
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
# Where pip finds PyPI, and the CA bundle it trusts there (a build secret, `pip_cert`, for a
# machine that reaches PyPI through a proxy of its own): build settings of this stage only,
# never in the image, which takes the finished environment and nothing else of this stage.
ARG PIP_INDEX_URL=https://pypi.org/simple
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
RUN python3 -m venv /opt/segnapunti
COPY requirements.lock /src/
RUN --mount=type=secret,id=pip_cert \
    if [ -s /run/secrets/pip_cert ]; then export PIP_CERT=/run/secrets/pip_cert; fi \
 && /opt/segnapunti/bin/pip install -r /src/requirements.lock
COPY pyproject.toml README.md /src/
COPY service /src/service
RUN --mount=type=secret,id=pip_cert \
    if [ -s /run/secrets/pip_cert ]; then export PIP_CERT=/run/secrets/pip_cert; fi \
 && /opt/segnapunti/bin/pip install --no-deps /src \
 && /opt/segnapunti/bin/pip check

FROM ${BASE}
ARG DEBIAN_FRONTEND=noninteractive
# `python -m service backup` runs pg_dump, and restore pg_restore, which must be of the
# server's major version or newer: bookworm's PostgreSQL is 15, the major compose runs
# (postgres:15) and the tests run.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 postgresql-client-15 ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
RUN useradd --system --create-home --home-dir /home/segnapunti --uid 10001 segnapunti
COPY --from=build /opt/segnapunti /opt/segnapunti
WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
RUN mkdir -p /app/var/backups && chown -R segnapunti:segnapunti /app/var

# The package is installed in /opt/segnapunti (its environment, first on the PATH); its
# migrations are here. The default database is a SQLite file on the /app/var volume; set
# DATABASE_URL=postgresql://… for PostgreSQL.
# Backups: `python -m service backup /app/var/backups/FILE` (docs/operations.md, "Backups and restores").
ENV PATH=/opt/segnapunti/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SEGNAPUNTI_MIGRATIONS=/app/migrations \
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
