"""Schemathesis hooks for ``test_live_contract.py`` (loaded through ``SCHEMATHESIS_HOOKS``).

- ``refused_only_by_the_rules``: the OpenAPI schema fixes the form of a request, not the rules
  of tarot, so a request that fits the schema may still be refused (422 ``record_invalid``:
  no such variant, a King in the discard). The stock check ``positive_data_acceptance`` is
  therefore told to accept 422; this check puts the strictness back where the schema does
  speak: a request that fits the schema must never be refused as not fitting it
  (``invalid_request``: the schema and the server's validator disagree), nor as malformed
  JSON.
- Every ``game_id`` generated as valid is the fixture game's (two hands), so the operations on
  a game reach its logic rather than a 404; an id generated as invalid is sent as generated.
  Games the stateful phase creates (``POST /games``) keep their id and are opened with their
  own edit token: the run's token belongs to the fixture game, another game's token is a 404.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import schemathesis
from schemathesis.core.parameters import ParameterLocation

#: The fixture game and its edit token, which the run sends on every request.
RUN_GAME = os.environ.get("SEGNAPUNTI_RUN_GAME", "")
RUN_TOKEN = os.environ.get("SEGNAPUNTI_RUN_TOKEN", "")

_tokens: dict[str, str] = {}
_lock = threading.Lock()


@schemathesis.check
def refused_only_by_the_rules(ctx: Any, response: Any, case: Any) -> None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    if response.status_code not in (400, 422):
        return
    try:
        code = response.json().get("code")
    except ValueError:
        code = None
    if code in ("invalid_request", "malformed_json"):
        raise AssertionError(
            f"a request that fits the OpenAPI schema was refused as not fitting it "
            f"({response.status_code} {code}): the schema and the server disagree"
        )


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.method.upper() != "POST" or response.status_code != 201:
        return
    if not case.path.rstrip("/").endswith("/games"):
        return
    body = response.json()
    with _lock:
        _tokens[body["id"]] = body["tokens"]["edit"]


@schemathesis.hook
def before_call(context: Any, case: Any, **kwargs: Any) -> None:
    path = case.path_parameters or {}
    if "game_id" not in path:
        return
    with _lock:
        token = _tokens.get(str(path["game_id"]))
    negative = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
    if token is None and not negative and RUN_GAME:
        path["game_id"] = RUN_GAME
        case.path_parameters = path
    headers = case.headers or {}
    # Only the run's own token is swapped: checks that send no token or a wrong one
    # (ignored_auth) keep what they send.
    if token and RUN_TOKEN and headers.get("Authorization") == f"Bearer {RUN_TOKEN}":
        headers["Authorization"] = f"Bearer {token}"
        case.headers = headers
