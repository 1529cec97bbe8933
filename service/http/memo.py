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
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, request

from service.domain import RULES_VERSION

F = TypeVar("F", bound=Callable[..., Any])

#: Bytes of answers one worker keeps for one endpoint (some hundreds of scored hands).
DEFAULT_BUDGET = 2 * 1024 * 1024
#: An answer larger than this is not kept (it would push out many others).
MAX_ANSWER = 64 * 1024


class AnswerMemo:
    """Successful JSON answers by key, within a byte budget; thread-safe."""

    def __init__(self, budget: int = DEFAULT_BUDGET, max_answer: int = MAX_ANSWER) -> None:
        self.budget = budget
        self.max_answer = max_answer
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._answers: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> bytes | None:
        with self._lock:
            answer = self._answers.get(key)
            if answer is None:
                self.misses += 1
                return None
            self.hits += 1
            self._answers.move_to_end(key)
            return answer

    def put(self, key: bytes, answer: bytes) -> None:
        if len(answer) > self.max_answer:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            if old is not None:
                self.size -= len(old)
            self._answers[key] = answer
            self.size += len(answer)
            while self.size > self.budget:
                _, dropped = self._answers.popitem(last=False)
                self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._answers)


def body_key(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=32, person=RULES_VERSION.encode()[:16]).digest()


def memo_of(name: str) -> AnswerMemo:
    """The app's memo ``name``, made on first use (each app, so each worker, has its own)."""
    memos: dict[str, AnswerMemo] = current_app.extensions.setdefault("segnapunti.memos", {})
    memo = memos.get(name)
    if memo is None:
        memo = memos.setdefault(name, AnswerMemo())
    return memo


def by_body(name: str) -> Callable[[F], F]:
    """Answer a request whose body was answered before with the same 200 response; other
    requests run the view, and its 200 JSON answer is remembered in the app's memo ``name``.
    Only for views whose answer depends on nothing but the body (no token, no query, no
    header). Apply right below ``blp.route``, above the body's parsing."""

    def decorator(view: F) -> F:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            memo = memo_of(name)
            key = body_key(request.get_data(cache=True))
            answer = memo.get(key)
            if answer is not None:
                return Response(answer, status=200, mimetype="application/json")
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code == 200 and response.mimetype == "application/json":
                memo.put(key, response.get_data())
            return response

        return wrapper  # type: ignore[return-value]

    return decorator
