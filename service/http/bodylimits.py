"""How large a request body may be, and how a 413 says so: read by the body checks
(``bodies``) and by the error handlers (``problems``) alike, and importing neither."""

from __future__ import annotations

from flask import request

from .paths import IMPORT_PATH

#: The compressed and the inflated body of an import are each at most this.
IMPORT_MAX_BYTES = 16 * 1024 * 1024


def size(limit: int) -> str:
    """A byte count as people say it: 16 MiB, 1 MiB, 512 KiB."""
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def body_too_large(limit: int | None) -> str:
    """What a 413 says of a plain body over its request's limit."""
    if limit is None:  # pragma: no cover - every request has one
        return "the request body is too large"
    extra = (" (gzip it: Content-Encoding: gzip)" if request.path == IMPORT_PATH
             else f"; only an import takes more ({size(IMPORT_MAX_BYTES)})")
    return f"the request body is over {size(limit)}, the most this request takes{extra}"
