"""Behind a proxy (``TRUSTED_PROXIES``): the client's address, the scheme and the host come
from the ``X-Forwarded-*`` headers of the trusted hops, for the rate limits and the share
links; with none trusted (the default) those headers are a client's claim and ignored."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from http_support import API

FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "segnapunti.example"}


@pytest.fixture()
def behind(migrated_url: str) -> Iterator[Callable[..., Any]]:
    from service.http.app import create_app

    made: list[Any] = []

    def make(hops: int, **config: Any) -> Any:
        app = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                          "TRUSTED_PROXIES": hops, "AUTH_FAILURES_PER_MINUTE": 0,
                          "RATE_LIMIT_PER_MINUTE": 60, "RATE_LIMIT_BURST": 2, **config})
        made.append(app)
        return app.test_client()

    yield make
    for app in made:
        app.extensions["segnapunti.games"].repository.engine.dispose()


def _share_link(client: Any, headers: dict[str, str]) -> str:
    response = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                 "players": ["A", "B", "C"]}, headers=headers)
    assert response.status_code == 201, response.json
    return str(response.json["links"]["edit"])


def test_share_links_use_the_host_and_scheme_the_proxy_was_asked_for(behind: Any) -> None:
    link = _share_link(behind(1), FORWARDED)
    assert link.startswith("https://segnapunti.example/#/games/")


def test_without_trusted_proxies_the_forwarded_headers_are_ignored(behind: Any) -> None:
    link = _share_link(behind(0), FORWARDED)
    assert link.startswith("http://localhost/#/games/")


def test_the_client_address_is_the_one_the_proxy_saw(behind: Any) -> None:
    client = behind(1)

    def from_(address: str) -> int:
        return int(client.get(f"{API}/variants",
                              headers={"X-Forwarded-For": address}).status_code)

    # Two phones behind the proxy have an allowance each, not the proxy's one.
    assert [from_("198.51.100.1") for _ in range(3)] == [200, 200, 429]
    assert [from_("198.51.100.2") for _ in range(2)] == [200, 200]


def test_a_client_cannot_choose_its_address_without_a_trusted_proxy(behind: Any) -> None:
    client = behind(0)
    answers = [client.get(f"{API}/variants", headers={"X-Forwarded-For": f"198.51.100.{i}"})
               .status_code for i in range(3)]
    assert answers == [200, 200, 429]


def test_only_as_many_hops_as_trusted_are_believed(behind: Any) -> None:
    client = behind(1)
    # The client wrote the first address itself; the one proxy appended the real one.
    spoofed = [client.get(f"{API}/variants",
                          headers={"X-Forwarded-For": f"10.0.0.{i}, 198.51.100.9"}).status_code
               for i in range(3)]
    assert spoofed == [200, 200, 429]


def test_a_public_url_still_names_the_site(behind: Any) -> None:
    link = _share_link(behind(1, PUBLIC_URL="https://carte.example"), FORWARDED)
    assert link.startswith("https://carte.example/#/games/")
