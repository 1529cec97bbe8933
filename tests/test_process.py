"""A serving process freezes what its boot made out of the garbage collector's sight once
its app is built (``service.process``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

import service.http.app
import service.process
from service.__main__ import GunicornServer
from service.process import settle


@pytest.fixture()
def collector() -> Iterator[None]:
    """The collector as the test suite has it, put back afterwards."""
    yield
    gc.unfreeze()


def test_settle_freezes_what_boot_made(collector: None) -> None:
    thresholds = gc.get_threshold()
    kept = object(), [object()]
    settle()
    assert gc.get_threshold() == thresholds
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


def test_a_serving_process_logs_to_stderr_unless_logging_is_set_up(
    monkeypatch: Any, capsys: Any
) -> None:
    import logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", logging.WARNING)
    monkeypatch.setenv("LOG_LEVEL", "info")
    service.process.log_to_stderr()
    assert root.level == logging.INFO and len(root.handlers) == 1
    logging.getLogger("service.test").info("the rate limit storage is away")
    assert "[INFO] service.test: the rate limit storage is away" in capsys.readouterr().err
    # Set up already (by the test runner, or an operator): left alone.
    service.process.log_to_stderr()
    assert len(root.handlers) == 1
