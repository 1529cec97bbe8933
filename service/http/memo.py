"""Answers remembered by request body, for the endpoints whose answer depends on the body
alone (``POST /score``: the same record scored by the same rules scores the same).

A table that argues over a hand sends the same record from several phones, and again after
reading the explanation; the phone page re-scores a record as it is shown. The second time
costs a hash of the body and a lookup instead of reading, validating and scoring it. Each
worker keeps its own answers, bounded in bytes; the least recently used go first. The key is
the rules version and the body's digest, so an answer never outlives the rules that made it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, request

from service.application.caches import LruCache
from service.domain import (
    RULES_VERSION,
)

from .language import request_language

F = TypeVar("F", bound=Callable[..., Any])

#: Bytes of answers one worker keeps for one endpoint (some hundreds of scored hands).
DEFAULT_BUDGET = 2 * 1024 * 1024
#: An answer larger than this is not kept (it would push out many others).
MAX_ANSWER = 64 * 1024


def new_memo() -> LruCache[bytes, bytes]:
    """Answers by key, within ``DEFAULT_BUDGET`` bytes, none larger than ``MAX_ANSWER``."""
    return LruCache(DEFAULT_BUDGET, weight=len, max_weight=MAX_ANSWER)


def body_key(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=32, person=RULES_VERSION.encode()[:16]).digest()


def memo_of(name: str) -> LruCache[bytes, bytes]:
    """The app's memo ``name``, made on first use (each app, so each worker, has its own)."""
    memos: dict[str, LruCache[bytes, bytes]] = current_app.extensions.setdefault(
        "segnapunti.memos", {})
    memo = memos.get(name)
    if memo is None:
        memo = memos.setdefault(name, new_memo())
    return memo


def by_body(name: str) -> Callable[[F], F]:
    """Answer a request whose body was answered before with the same 200 response; other
    requests run the view, and its 200 JSON answer is remembered in the app's memo ``name``.
    Only for views whose answer depends on nothing but the body and the language asked for
    (no token, no query, no other header). Apply right below ``blp.route``, above the body's
    parsing."""

    def decorator(view: F) -> F:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            memo = memo_of(name)
            key = body_key(request.get_data(cache=True)) + request_language().encode()
            answer = memo.get(key)
            if answer is not None:
                return Response(answer, status=200, mimetype="application/json")
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code == 200 and response.mimetype == "application/json":
                memo.put(key, response.get_data())
            return response

        return wrapper  # type: ignore[return-value]

    return decorator
