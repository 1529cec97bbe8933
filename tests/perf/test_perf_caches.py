"""What a worker keeps stays bounded however many games and hands it serves: one view per
game (its newest version), weighed by its hands; caches bounded by entries, hands or bytes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

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


def test_a_worker_keeps_one_view_per_game_at_its_newest_version(app: Any, client: Any) -> None:
    service = app.extensions["segnapunti.games"]
    games = [Game(client, 3), Game(client, 2)]
    for game in games:
        game.add(3)
    views = [service._views.get(game.url.rsplit("/", 1)[1]) for game in games]
    assert [len(view.hands) for view in views] == [4, 3]
    assert len(service._views) == 2
    assert service._views.total == 4 + 1 + 3 + 1  # weighed by hands
    # A view of an older version (a slow reader finishing late) never replaces a newer one.
    older = replace(views[0], game=replace(views[0].game, version=views[0].game.version - 1))
    service._keep_view(older)
    assert service._views.get(views[0].id) is views[0]
