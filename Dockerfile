# Segnapunti: `docker build -t segnapunti . && docker run -p 8000:8000 segnapunti`
# The container migrates its database, then serves with gunicorn (python -m service).

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service ./service
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN useradd --system --create-home --home-dir /home/segnapunti --uid 10001 segnapunti
WORKDIR /app

COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels
COPY alembic.ini ./
COPY migrations ./migrations
RUN mkdir -p /app/var && chown segnapunti:segnapunti /app/var

# The package is installed in site-packages; its migrations are here. The default database
# is a SQLite file on the /app/var volume; set DATABASE_URL=postgresql://… for PostgreSQL.
ENV SEGNAPUNTI_MIGRATIONS=/app/migrations \
    DATABASE_URL=sqlite:////app/var/segnapunti.sqlite3 \
    PORT=8000 \
    WEB_CONCURRENCY=2

USER segnapunti
VOLUME ["/app/var"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/v1/health' % os.environ.get('PORT', '8000'), timeout=4)"
CMD ["python", "-m", "service"]
