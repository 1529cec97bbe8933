"""A serving process tunes Python's garbage collector once its app is built
(``service.process``): what boot made is frozen out of the collector's sight, and
collections run less often."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

import service.http.app
import service.process
from service.__main__ import GunicornServer
from service.process import GC_THRESHOLDS, settle


@pytest.fixture()
def collector() -> Iterator[None]:
    """The collector as the test suite has it, put back afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_what_boot_made_and_collects_less_often(collector: None) -> None:
    assert gc.get_threshold() != GC_THRESHOLDS
    kept = object(), [object()]
    settle()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_freeze_count() > 0
    assert not any(o is kept for o in gc.get_objects())  # frozen: the collector skips it


def test_a_gunicorn_worker_settles_once_its_app_is_built(
    collector: None, monkeypatch: Any
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(service.http.app, "create_app", lambda: calls.append("app") or "app")
    monkeypatch.setattr(service.process, "settle", lambda: calls.append("settle"))
    server = GunicornServer.__new__(GunicornServer)
    assert server.load() == "app"
    assert calls == ["app", "settle"]
