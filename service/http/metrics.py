"""``GET /metrics``: what an operator's Prometheus reads of a server, in its text format
(``prometheus_client``).

- ``segnapunti_http_requests_total{route, method, status}``: requests answered, by the route's
  template (``/api/v1/games/<game_id>/hands``: never the path itself, so no id is ever a
  label), ``(unmatched)`` for a path no route takes;
- ``segnapunti_http_request_duration_seconds{route, method}``: how long the app took to
  answer, a histogram;
- ``segnapunti_rate_limited_total{limit}``: requests the limiter refused (429), by the limit
  spent (``requests``, ``auth_failures``);
- ``segnapunti_hands_recorded_total{family}``: hands recorded in stored games, counted once
  their write has committed;
- ``segnapunti_db_pool_in_use``: database connections checked out of the workers' pools;
- ``segnapunti_workers``: the server's worker processes alive;
- read when the metrics are: ``segnapunti_ready`` (1 when ``/api/v1/ready`` would answer
  200), ``segnapunti_events_running`` (events with a round open), ``segnapunti_rounds_running``,
  ``segnapunti_clubs``, ``segnapunti_games``, ``segnapunti_games_purged_total`` (anonymous
  games the retention purged: the purges' sum the database keeps, whichever process purged);
- ``segnapunti_rounds_closed_by_clock_total{by}``: rounds their clock closed
  (``auto_close``), by what applied the close: ``sweep`` (the clock's sweep,
  ``service/application/clock_sweep.py``), ``reading`` (a reading or change of the event),
  ``table`` (a request of one of its tables);
- ``segnapunti_admin_deleted_total{kind}``: clubs, events and games the administrator
  deleted;
- ``segnapunti_creations_refused_total{kind, reason}``: creations refused, by what was to be
  made and why (``policy``: ``CREATION`` allows it not to this client; ``quota``: the
  address's quota is spent);

Under gunicorn (``python -m service serve``) each worker writes its counts to files of its own
in ``PROMETHEUS_MULTIPROC_DIR`` (``service/metrics_dir.py`` makes it), and the worker that
answers a scrape reads every worker's files: the counts are the whole server's, whichever
worker answers. Without that directory (a single process: ``flask run``, the tests) the counts
are the process's own.

Who may read it: a client on this machine or a private network (loopback, 10/8, 172.16/12,
192.168/16, fc00::/7), by its address as the app knows it (behind a proxy, the address the
trusted proxies forwarded: ``TRUSTED_PROXIES``), or anyone with ``METRICS_TOKEN`` as a bearer
token. Anyone else gets the 404 of a path that does not exist. It is not in the OpenAPI
document: it is the operator's, not the API's (docs/operations.md, "Metrics").
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Iterator
from ipaddress import ip_address, ip_network
from time import perf_counter
from typing import Any

from flask import Flask, Response, current_app, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from werkzeug.exceptions import HTTPException, NotFound

from service.application.ports import StoreUnavailable

from .paths import API_PREFIX
from .problems import FAILED_AUTHENTICATION

METRICS_PATH = "/metrics"
READY_PATH = f"{API_PREFIX}/ready"
#: The route label of a request no route took (a 404 or 405 of the router).
UNMATCHED = "(unmatched)"
#: The methods counted by name; any other a client makes up is ``other``, so that labels
#: stay few whatever is sent.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Where the addresses that may read the metrics without a token are.
INSIDE = tuple(ip_network(network) for network in (
    "127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))
#: The service's requests take milliseconds; a sheet or an import up to seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter("segnapunti_http_requests", "HTTP requests answered, by route template, "
                   "method and status", ["route", "method", "status"])
LATENCY = Histogram("segnapunti_http_request_duration_seconds", "Time the app took to answer, "
                    "by route template and method", ["route", "method"], buckets=LATENCY_BUCKETS)
RATE_LIMITED = Counter("segnapunti_rate_limited", "Requests the rate limiter refused (429), "
                       "by the limit spent", ["limit"])
HANDS_RECORDED = Counter("segnapunti_hands_recorded", "Hands recorded in stored games, by "
                         "family", ["family"])
POOL_IN_USE = Gauge("segnapunti_db_pool_in_use", "Database connections checked out of the "
                    "workers' pools", multiprocess_mode="livesum")
WORKERS = Gauge("segnapunti_workers", "Worker processes of the server alive",
                multiprocess_mode="livesum")
STREAMS_OPEN = Gauge("segnapunti_streams_open", "The screens' streams held open now "
                     "(SERVER=tornado)", multiprocess_mode="livesum")
ROUNDS_CLOSED_BY_CLOCK = Counter("segnapunti_rounds_closed_by_clock", "Rounds their clock "
                                 "closed (auto_close), by what applied the close (sweep, "
                                 "reading, table)", ["by"])

_STARTED = "segnapunti.metrics.started"


def rate_limited(limit: str) -> None:
    """Count a request the limiter refused (``ratelimit``), by the limit it spent."""
    RATE_LIMITED.labels(limit).inc()


def start_timing() -> None:
    """Before anything else of a request (the limiter's refusal is timed too)."""
    request.environ[_STARTED] = perf_counter()


_CONVERTER = re.compile(r"<(?:[^<>:]+:)?([^<>:]+)>")
#: The counter and the histogram of each route, method and status seen, found once: a
#: request then costs a dictionary lookup, an increment and an observation.
_SERIES: dict[tuple[str | None, str, int], tuple[Any, Any]] = {}


def route_template(rule: str) -> str:
    """A route's rule as its label: each variable by its name (``<game_id>``), without its
    converter (``<game_id:game_id>``, ``<int(min=1, max=1000):number>``)."""
    return _CONVERTER.sub(r"<\1>", rule)


def _series(rule: str | None, method: str, status: int) -> tuple[Any, Any]:
    route = route_template(rule) if rule is not None else UNMATCHED
    found = _SERIES[rule, method, status] = (REQUESTS.labels(route, method, str(status)),
                                             LATENCY.labels(route, method))
    return found


def count_request(response: Response) -> Response:
    """Count the request by its route's template, its method and its status, and time it."""
    current = request._get_current_object()  # type: ignore[attr-defined]
    rule = current.url_rule
    method = current.method if current.method in METHODS else "other"
    key = (rule.rule if rule is not None else None, method, response.status_code)
    series = _SERIES.get(key) or _series(*key)
    series[0].inc()
    started = current.environ.get(_STARTED)
    if started is not None:
        series[1].observe(perf_counter() - started)
    return response


def _inside(address: str | None) -> bool:
    try:
        found = ip_address(address or "")
    except ValueError:
        return False
    if found.version == 6 and found.ipv4_mapped is not None:
        found = found.ipv4_mapped
    return any(found in network for network in INSIDE)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def _may_read(token_digest: bytes | None) -> bool:
    """From inside (the address), or with the metrics token. A wrong token counts against the
    address's failed authentications, as any token that opens nothing does."""
    if _inside(request.remote_addr):
        return True
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    if token_digest is not None and hmac.compare_digest(_digest(token.strip()), token_digest):
        return True
    request.environ[FAILED_AUTHENTICATION] = True
    return False


class ServerFigures:
    """What is read when the metrics are: readiness, and the database's figures."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def ready(self) -> bool:
        """Whether ``/api/v1/ready`` would answer 200 now: its own view is asked."""
        endpoint, arguments = self.app.url_map.bind("").match(READY_PATH, method="GET")
        try:
            answer = self.app.view_functions[endpoint](**arguments)
        except HTTPException as error:
            return error.code == 200
        except StoreUnavailable:  # the database does not answer: /ready says 503
            return False
        return getattr(answer, "status_code", 200) == 200

    def collect(self) -> Iterator[Metric]:
        ready = self.ready()
        yield GaugeMetricFamily("segnapunti_ready", "1 when /api/v1/ready answers 200, else 0",
                                value=1 if ready else 0)
        figures = getattr(self.app.extensions["segnapunti.store"], "figures", None)
        if not ready:
            figures = None
        counted = figures.count() if figures is not None else None
        if counted is None:
            return
        for name, text, value in (
                ("events_running", "Events with a round open", counted.events_running),
                ("rounds_running", "Rounds open", counted.rounds_running),
                ("clubs", "Clubs the database holds", counted.clubs),
                ("games", "Games the database holds", counted.games)):
            yield GaugeMetricFamily(f"segnapunti_{name}", text, value=value)
        yield CounterMetricFamily("segnapunti_games_purged", "Anonymous games the retention "
                                  "purged (RETENTION_DAYS), every purge kept in the database",
                                  value=counted.games_purged)


def _exposition(app: Flask) -> bytes:
    """Every worker's counts (or this process's), then what is read now."""
    figures = getattr(app.extensions["segnapunti.store"], "figures", None)
    in_use = figures.pool_in_use() if figures is not None else None
    if in_use is not None:
        POOL_IN_USE.set(in_use)
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        counts = CollectorRegistry()
        MultiProcessCollector(counts, path=directory)  # type: ignore[no-untyped-call]
        kept = generate_latest(counts)
    else:
        kept = generate_latest(REGISTRY)
    now = CollectorRegistry()
    now.register(ServerFigures(app))
    return kept + generate_latest(now)


def install(app: Flask) -> None:
    """Count and time every request, count the hands recorded and the pool's connections,
    and serve ``GET /metrics`` (not in the OpenAPI document)."""
    configured = str(app.config.get("METRICS_TOKEN") or "").strip()
    token_digest = _digest(configured) if configured else None

    def metrics() -> Any:
        if not _may_read(token_digest):
            raise NotFound()
        return Response(_exposition(current_app), mimetype=None,
                        content_type=CONTENT_TYPE_PLAIN_0_0_4,
                        headers={"Cache-Control": "no-store"})

    app.before_request_funcs.setdefault(None, []).insert(0, start_timing)
    app.after_request(count_request)
    app.add_url_rule(METRICS_PATH, "metrics", metrics, methods=["GET"])
    games = app.extensions.get("segnapunti.games")
    if games is not None:
        games.hand_recorded = lambda family: HANDS_RECORDED.labels(family).inc()
    events = app.extensions.get("segnapunti.events")
    if events is not None:
        events.clock_closed = lambda by: ROUNDS_CLOSED_BY_CLOCK.labels(by).inc()
    # Told by the streams' hub (service/live) each time a stream opens or closes.
    app.extensions["segnapunti.streams_open"] = STREAMS_OPEN.set
    figures = getattr(app.extensions.get("segnapunti.store"), "figures", None)
    if figures is not None:
        figures.watch_pool(POOL_IN_USE.set)
    WORKERS.set(1)


ADMIN_DELETED = Counter("segnapunti_admin_deleted", "Clubs, events and games the "
                        "administrator deleted, by kind", ["kind"])


def admin_deleted(kind: str) -> None:
    """Count a deletion of the administration (``resources/admin.py``)."""
    ADMIN_DELETED.labels(kind).inc()


CREATIONS_REFUSED = Counter("segnapunti_creations_refused", "Creations refused, by what was to "
                            "be made and why (policy: CREATION; quota: the address's quota)",
                            ["kind", "reason"])


def creation_refused(kind: str, reason: str) -> None:
    """Count a creation refused (``creation.py``)."""
    CREATIONS_REFUSED.labels(kind, reason).inc()
