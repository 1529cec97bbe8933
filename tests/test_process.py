"""A serving process freezes what its boot made out of the garbage collector's sight once
its app is built, and collects its young generation less often (``service.process``)."""

from __future__ import annotations

import gc
import io
import json
import logging
import logging.config
from collections.abc import Iterator
from typing import Any

import pytest
from gunicorn.glogging import CONFIG_DEFAULTS

import service.http.app
import service.process
from service import logs
from service.process import GC_THRESHOLDS, settle
from service.server import GunicornServer


@pytest.fixture()
def collector() -> Iterator[None]:
    """The collector as the test suite has it, put back afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_what_boot_made(collector: None) -> None:
    kept = object(), [object()]
    settle()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700  # fewer young collections than Python's default
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


def test_a_serving_process_starts_its_round_clock_sweep_once_its_app_is_built(
    collector: None, monkeypatch: Any
) -> None:
    calls: list[str] = []

    class Sweep:
        def start(self) -> bool:
            calls.append("sweep")
            return True

    class App:
        def __init__(self) -> None:
            self.extensions = {"segnapunti.clock_sweep": Sweep()}

    monkeypatch.setattr(service.http.app, "create_app", lambda: calls.append("app") or App())
    monkeypatch.setattr(service.process, "settle", lambda: calls.append("settle"))
    monkeypatch.setattr(service.process, "log_to_stderr", lambda: None)
    assert isinstance(service.process.serving_app(), App)
    assert calls == ["app", "settle", "sweep"]


def test_a_serving_process_logs_to_stderr_unless_logging_is_set_up(
    monkeypatch: Any, capsys: Any
) -> None:
    import logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", logging.WARNING)
    monkeypatch.setenv("LOG_LEVEL", "info")
    monkeypatch.setenv("LOG_FORMAT", "text")
    service.process.log_to_stderr()
    assert root.level == logging.INFO and len(root.handlers) == 1
    logging.getLogger("service.test").info("the rate limit storage is away")
    assert "[INFO] service.test: the rate limit storage is away" in capsys.readouterr().err
    # Set up already (by the test runner, or an operator): left alone.
    service.process.log_to_stderr()
    assert len(root.handlers) == 1


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_the_log_is_json_unless_written_to_a_terminal_or_asked_otherwise(
    monkeypatch: Any
) -> None:
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert logs.log_format(_Stream(tty=False)) == "json"
    assert logs.log_format(_Stream(tty=True)) == "text"
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    assert logs.log_format(_Stream(tty=True)) == "json"
    monkeypatch.setenv("LOG_FORMAT", "text")
    assert logs.log_format(_Stream(tty=False)) == "text"
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ValueError, match="LOG_FORMAT is json or text"):
        logs.log_format(_Stream(tty=False))


def test_a_serving_process_writes_one_json_object_a_line(monkeypatch: Any) -> None:
    stream = _Stream(tty=False)
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    logger = logging.getLogger("service.test.json")
    monkeypatch.setattr(logger, "handlers", [logs.handler(stream)])
    monkeypatch.setattr(logger, "propagate", False)
    logger.warning("the rate limit storage is away: %s", "redis")
    token = logs.REQUEST_ID.set("req-7")
    try:
        logger.error("failed", exc_info=ValueError("bad"))
    finally:
        logs.REQUEST_ID.reset(token)
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "the rate limit storage is away: redis"
    assert first["level"] == "WARNING" and first["logger"] == "service.test.json"
    assert "request_id" not in first
    assert second["request_id"] == "req-7" and "ValueError: bad" in second["error"]


def test_gunicorns_own_lines_are_written_in_the_services_format(
    monkeypatch: Any, capsys: Any
) -> None:
    """As gunicorn applies it, over its own defaults; the root logger is left to the worker."""
    gunicorn_log, root = logging.getLogger("gunicorn.error"), logging.getLogger()
    for logger in (gunicorn_log, root):
        for name in ("handlers", "propagate", "level", "disabled"):
            monkeypatch.setattr(logger, name, getattr(logger, name))
    before = list(root.handlers)
    logging.config.dictConfig({**CONFIG_DEFAULTS, **logs.gunicorn_logconfig("json")})
    assert root.handlers == before  # gunicorn's console handler is not added to it
    gunicorn_log.info("Booting worker with pid: %s", 42)
    line = json.loads(capsys.readouterr().err.splitlines()[-1])
    assert line["logger"] == "gunicorn.error" and line["message"] == "Booting worker with pid: 42"
    logging.config.dictConfig(logs.gunicorn_logconfig("text"))
    gunicorn_log.info("Booting worker with pid: %s", 43)
    assert "[INFO] gunicorn.error: Booting worker with pid: 43" in capsys.readouterr().err
