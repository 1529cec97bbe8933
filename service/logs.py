"""The service's log lines: one JSON object a line for a machine to read (the default when
standard error is not a terminal: a container's log, a file, journald), or plain text for a
person at a terminal (the default on a TTY). ``LOG_FORMAT`` (``json`` or ``text``) chooses
either way.

Every line written while a request is served carries that request's id (``request_id``), the
one answered in ``X-Request-ID`` (``service/http/requestlog.py`` sets it): a line of the
request itself, of a library under it (a database that went away, the rate limiter falling
back to memory), all of them.

A JSON line has ``time`` (UTC, ISO 8601 to the millisecond), ``level``, ``logger``,
``message``, ``request_id`` when there is one, the fields a record was given under
``extra={"fields": {...}}`` (the request's own line: method, route, status, duration, client,
problem code), and ``error`` (the traceback) for an exception. The standard library's
``logging`` writes them; this module gives it a formatter and a filter, no more: a library
(python-json-logger) would save the twenty lines of the formatter and cost a dependency.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

#: The id of the request being served in this thread (or task), if any.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)

TEXT_FORMAT = "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s:%(request_tag)s %(message)s"
TEXT_DATE_FORMAT = "%Y-%m-%d %H:%M:%S %z"
FORMATS = ("json", "text")


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request being served (``request_id``, None outside a
    request) and ``request_tag``, the same for the text format (`` [id]`` or nothing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        record.request_tag = f" [{record.request_id}]" if record.request_id else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_format(stream: TextIO | None = None) -> str:
    """``$LOG_FORMAT`` if it is one of ``FORMATS``; else JSON, unless the stream (standard
    error) is a terminal."""
    asked = os.environ.get("LOG_FORMAT", "").strip().lower()
    if asked in FORMATS:
        return asked
    if asked:
        raise ValueError(f"LOG_FORMAT is json or text, not {asked!r}")
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    return "text" if isatty is not None and isatty() else "json"


def formatter(kind: str) -> logging.Formatter:
    """The formatter of a format (``json`` or ``text``)."""
    if kind == "json":
        return JsonFormatter()
    return logging.Formatter(TEXT_FORMAT, TEXT_DATE_FORMAT)


def handler(stream: TextIO | None = None, kind: str | None = None) -> logging.Handler:
    """A handler writing to the stream (standard error) in the format asked (``log_format``),
    every record with its request's id."""
    made = logging.StreamHandler(stream)
    made.setFormatter(formatter(kind or log_format(stream)))
    made.addFilter(RequestIdFilter())
    return made


def gunicorn_logconfig(kind: str) -> dict[str, Any]:
    """gunicorn's own lines (its master's and workers' starting, stopping, a worker's timeout)
    in the same format, on standard error; its access log stays off, each request's line being
    the app's (``service/http/requestlog.py``). gunicorn lays this over its own defaults:
    the root logger is left without a handler here, for the worker's own
    (``service.process.log_to_stderr``)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "root": {},
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"service": {"()": f"{__name__}.{_FORMATTERS[kind]}"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "service",
                                "filters": ["request_id"], "stream": "ext://sys.stderr"}},
        "loggers": {"gunicorn.error": {"handlers": ["stderr"], "level": "INFO",
                                       "propagate": False}},
    }


def text_formatter() -> logging.Formatter:
    return formatter("text")


_FORMATTERS = {"json": "JsonFormatter", "text": "text_formatter"}
