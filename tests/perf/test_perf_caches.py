"""What a worker keeps stays bounded however many games and hands it serves: one view per
game (its newest version), weighed by its hands; caches bounded by entries, hands or bytes."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest
from test_perf_sql_statements import Game

from service.application.caches import LruCache


def test_lru_cache_counts_entries_by_default_and_weighs_them_when_told() -> None:
    counted: LruCache[str, str] = LruCache(2)
    for key in "abc":
        counted.put(key, key)
    assert counted.get("a") is None and len(counted) == 2 and counted.total == 2
    weighed: LruCache[str, tuple[int, ...]] = LruCache(5, weight=len)
    weighed.put("three", (1, 2, 3))
    weighed.put("two", (1, 2))
    weighed.put("one", (1,))  # 6 > 5: "three" goes
    assert weighed.get("three") is None and weighed.total == 3
    weighed.put("six", (1,) * 6)  # heavier than the whole bound: never kept
    assert weighed.get("six") is None and weighed.total == 3


def test_threads_asking_for_one_missing_value_at_once_wait_for_one_maker() -> None:
    kept: LruCache[str, str] = LruCache(8)
    started, release = threading.Event(), threading.Event()
    makers: list[str] = []

    def slow() -> str:
        makers.append("first")
        started.set()
        assert release.wait(5)
        return "made"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(kept.made("k", slow)))
    first.start()
    assert started.wait(5)
    others = [threading.Thread(target=lambda: got.append(kept.made(
        "k", lambda: makers.append("another") or "twice"))) for _ in range(4)]
    for thread in others:
        thread.start()
    release.set()
    for thread in (first, *others):
        thread.join(5)
    assert makers == ["first"] and got == ["made"] * 5
    assert kept.made("k", lambda: "again") == "made"  # kept: nobody makes it again


def test_when_the_one_maker_fails_its_waiters_make_their_own() -> None:
    kept: LruCache[str, str] = LruCache(8)
    started, release = threading.Event(), threading.Event()

    def failing() -> str:
        started.set()
        assert release.wait(5)
        raise RuntimeError("the database went away")

    def first() -> None:
        with pytest.raises(RuntimeError):
            kept.made("k", failing)

    maker = threading.Thread(target=first)
    maker.start()
    assert started.wait(5)
    got: list[str] = []
    waiter = threading.Thread(target=lambda: got.append(kept.made("k", lambda: "its own")))
    waiter.start()
    release.set()
    maker.join(5)
    waiter.join(5)
    assert got == ["its own"] and kept.get("k") == "its own"


def test_a_worker_keeps_one_view_per_game_at_its_newest_version(app: Any, client: Any) -> None:
    service = app.extensions["segnapunti.games"]
    games = [Game(client, 3), Game(client, 2)]
    for game in games:
        game.add(3)
    views = [service.views.kept.get(game.url.rsplit("/", 1)[1]) for game in games]
    assert [len(view.hands) for view in views] == [4, 3]
    assert len(service.views.kept) == 2
    assert service.views.kept.total == 4 + 1 + 3 + 1  # weighed by hands
    # A view of an older version (a slow reader finishing late) never replaces a newer one.
    older = replace(views[0], game=replace(views[0].game, version=views[0].game.version - 1))
    service.views.keep(older)
    assert service.views.kept.get(views[0].id) is views[0]


def test_cache_hands_comes_from_the_environment(monkeypatch: Any) -> None:
    import pytest

    from service.application.games import CACHE_HANDS
    from service.http.config import cache_hands_from_env, default_config

    monkeypatch.delenv("CACHE_HANDS", raising=False)
    assert cache_hands_from_env() == CACHE_HANDS == 4_000
    monkeypatch.setenv("CACHE_HANDS", "250")
    assert default_config()["CACHE_HANDS"] == 250
    monkeypatch.setenv("CACHE_HANDS", "lots")
    with pytest.raises(ValueError, match="CACHE_HANDS"):
        cache_hands_from_env()


def test_a_worker_keeps_no_more_hands_than_cache_hands(migrated_url: str) -> None:
    from service.http.app import create_app

    small = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                        "RATE_LIMIT_PER_MINUTE": 0, "CACHE_HANDS": 5})
    none = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                       "RATE_LIMIT_PER_MINUTE": 0, "CACHE_HANDS": 0})
    try:
        for app in (small, none):
            client = app.test_client()
            games = [Game(client, 3), Game(client, 2)]
            for game in games:
                state = client.get(game.url, headers=game.auth)
                assert state.status_code == 200 and state.json["hands"]
        kept = small.extensions["segnapunti.games"]
        assert kept.views.kept.total <= 5 and len(kept.views.kept) == 1  # the last game: 2 hands + 1
        assert len(kept.views.results) <= 5
        nothing = none.extensions["segnapunti.games"]
        assert len(nothing.views.kept) == len(nothing.views.results) == 0
    finally:
        for app in (small, none):
            app.extensions["segnapunti.games"].repository.engine.dispose()
