"""``GET /metrics``: the operator's Prometheus text, readable from this machine and private
networks or with ``METRICS_TOKEN``, never from outside; requests counted by route template,
the hands recorded by family, the limiter's refusals, the pool and readiness."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from http_support import API, Table, assert_problem
from prometheus_client.parser import text_string_to_metric_families

OUTSIDE = "203.0.113.7"
TOKEN = "a-long-random-metrics-token"


def scrape(client: Any, **kwargs: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` by name and labels."""
    response = client.get("/metrics", **kwargs)
    assert response.status_code == 200, response.data
    assert response.content_type.startswith("text/plain; version=0.0.4")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.get_data(as_text=True))
            for sample in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture()
def made(migrated_url: str) -> Iterator[Callable[..., Any]]:
    """A test client of an app made with these settings (on the module's database)."""
    from service.http.app import create_app

    apps: list[Any] = []

    def make(**config: Any) -> Any:
        app = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                          "RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0, **config})
        apps.append(app)
        return app.test_client()

    yield make
    for app in apps:
        app.extensions["segnapunti.games"].repository.engine.dispose()


def test_requests_are_counted_by_route_template_and_status_never_by_path(
        client: Any, table: Callable[..., Table]) -> None:
    game = table()
    route = f"{API}/games/<game_id>"
    before = value(scrape(client), "segnapunti_http_requests_total", route=route,
                   method="GET", status="200")
    game.state()
    game.state()
    text = client.get("/metrics").get_data(as_text=True)
    samples = scrape(client)
    assert value(samples, "segnapunti_http_requests_total", route=route, method="GET",
                 status="200") == before + 2
    assert value(samples, "segnapunti_http_request_duration_seconds_count", route=route,
                 method="GET") >= 2
    assert game.id not in text  # no id is ever a label
    client.get(f"{API}/no-such-thing/{game.id}")
    assert game.id not in client.get("/metrics").get_data(as_text=True)
    assert value(scrape(client), "segnapunti_http_requests_total", route="(unmatched)",
                 method="GET", status="404") >= 1
    # A method made up is "other": what a client sends makes no labels.
    client.open(f"{API}/games/{game.id}", method="BREW")
    text = client.get("/metrics").get_data(as_text=True)
    assert "BREW" not in text and 'method="other"' in text


def test_metrics_are_read_from_this_machine_and_private_networks(client: Any) -> None:
    for address in ("127.0.0.1", "::1", "10.1.2.3", "172.20.0.5", "192.168.1.9",
                    "::ffff:192.168.1.9", "fd00::5"):
        assert client.get("/metrics", environ_base={"REMOTE_ADDR": address}).status_code == 200


def test_metrics_are_a_missing_path_to_an_outside_address_without_the_token(
        made: Callable[..., Any]) -> None:
    client = made(METRICS_TOKEN=TOKEN)
    outside = {"REMOTE_ADDR": OUTSIDE}
    assert_problem(client.get("/metrics", environ_base=outside), 404)
    assert_problem(client.get("/metrics", environ_base=outside,
                              headers={"Authorization": "Bearer not-the-token"}), 404)
    scrape(client, environ_base=outside, headers={"Authorization": f"Bearer {TOKEN}"})
    # With no token configured, no token opens it.
    assert_problem(made().get("/metrics", environ_base=outside,
                              headers={"Authorization": "Bearer "}), 404)


def test_metrics_behind_the_proxy_go_by_the_forwarded_address(made: Callable[..., Any]) -> None:
    client = made(TRUSTED_PROXIES=1, METRICS_TOKEN=TOKEN)
    through_proxy = {"X-Forwarded-For": OUTSIDE}
    assert_problem(client.get("/metrics", headers=through_proxy), 404)
    scrape(client, headers={**through_proxy, "Authorization": f"Bearer {TOKEN}"})
    scrape(client, headers={"X-Forwarded-For": "192.168.1.20"})


def test_hands_recorded_are_counted_by_family_once_written(
        client: Any, table: Callable[..., Table]) -> None:
    game = table()
    before = scrape(client)
    game.play()
    game.play()
    after = scrape(client)
    assert value(after, "segnapunti_hands_recorded_total", family="gatti") == value(
        before, "segnapunti_hands_recorded_total", family="gatti") + 2
    # A hand refused is no hand recorded.
    game.add({"dealer": 0, "discard": [], "piles": []})
    assert value(scrape(client), "segnapunti_hands_recorded_total", family="gatti") == value(
        after, "segnapunti_hands_recorded_total", family="gatti")


def test_rate_limit_refusals_are_counted(made: Callable[..., Any]) -> None:
    client = made(RATE_LIMIT_PER_MINUTE=60, RATE_LIMIT_BURST=2)
    before = value(scrape(made()), "segnapunti_rate_limited_total", limit="requests")
    statuses = [client.get(f"{API}/variants").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert value(scrape(made()), "segnapunti_rate_limited_total",
                 limit="requests") == before + 1


def test_readiness_and_the_databases_figures_are_read_at_the_scrape(
        client: Any, table: Callable[..., Table]) -> None:
    table()
    table()
    samples = scrape(client)
    assert value(samples, "segnapunti_ready") == 1
    assert value(samples, "segnapunti_games") == 2
    assert value(samples, "segnapunti_clubs") == 0
    assert value(samples, "segnapunti_events_running") == 0
    assert value(samples, "segnapunti_rounds_running") == 0


def test_an_event_with_a_round_open_is_running_until_its_round_closes(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual", "seed": 3,
        "entrants": [{"name": name} for name in ("Anna", "Bruno", "Carla", "Dario", "Elena",
                                                  "Fabio")]})
    assert created.status_code == 201, created.json
    url, edit = f"{API}/events/{created.json['id']}", created.json["tokens"]["edit"]
    started = client.post(f"{url}/rounds", json={}, headers={"Authorization": f"Bearer {edit}"})
    assert started.status_code == 201, started.json
    samples = scrape(client)
    assert value(samples, "segnapunti_events_running") == 1
    assert value(samples, "segnapunti_rounds_running") == 1
    assert value(samples, "segnapunti_games") == 2  # the round's two tables
    closed = client.post(f"{url}/rounds/1/close", headers={"Authorization": f"Bearer {edit}"})
    assert closed.status_code == 200, closed.json
    samples = scrape(client)
    assert value(samples, "segnapunti_events_running") == 0
    assert value(samples, "segnapunti_rounds_running") == 0


def test_the_pool_in_use_counts_connections_checked_out(app: Any, client: Any) -> None:
    engine = app.extensions["segnapunti.games"].repository.engine
    if not hasattr(engine.pool, "checkedout"):
        pytest.skip("this database's pool does not count its connections")
    idle = value(scrape(client), "segnapunti_db_pool_in_use")
    with engine.connect():
        assert value(scrape(client), "segnapunti_db_pool_in_use") == idle + 1


def test_metrics_are_served_but_not_in_the_public_openapi_document(
        stateless_client: Any) -> None:
    assert value(scrape(stateless_client), "segnapunti_workers") == 1
    spec = stateless_client.get(f"{API}/openapi.json").json
    assert not any("metrics" in path for path in spec["paths"])
