"""flask-smorest's Blueprint as every resource module of the service uses it: request JSON read
strictly (``jsonbody``), the responses every operation can give documented once (400 for a
path, query or header that is no UTF-8 text, 429 when a client sends too many requests,
``ratelimit``, and 503 where the database answers, when it cannot), and documentation that
costs nothing at request time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint as SmorestBlueprint

from .jsonbody import StrictJsonParser
from .paths import GAMES_PREFIX


def _documentation_only(decorator: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``decorator`` (one of flask-smorest's that only document) without the wrapper it puts
    round the view to carry the documentation: the view carries it. Each such wrapper runs on
    every request (a context lookup and a coroutine check) for nothing, and an operation
    documents a dozen answers."""

    def apply(view: Any) -> Any:
        view._apidoc = decorator(view)._apidoc
        return view

    return apply


def _document_every_operation(doc: dict[str, Any], _doc_info: Any,
                              **_kwargs: Any) -> dict[str, Any]:
    responses = doc.setdefault("responses", {})
    responses.setdefault("400", "BAD_REQUEST")
    responses.setdefault("429", "TOO_MANY_REQUESTS")
    return doc


def _document_database(doc: dict[str, Any], _doc_info: Any, **_kwargs: Any) -> dict[str, Any]:
    doc.setdefault("responses", {}).setdefault("503", "SERVICE_UNAVAILABLE")
    return doc


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = StrictJsonParser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.append(_document_every_operation)
        if str(kwargs.get("url_prefix", "")).startswith(GAMES_PREFIX):
            self._prepare_doc_cbks.append(_document_database)

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """As flask-smorest's, with a schema class made an instance once, here: webargs
        would build one (with copies of every nested schema) for each request."""
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def alt_response(self, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        return _documentation_only(super().alt_response(*args, **kwargs))

    @staticmethod
    def doc(**kwargs: Any) -> Callable[[Any], Any]:
        return _documentation_only(SmorestBlueprint.doc(**kwargs))
