"""flask-smorest's ``Api`` and ``Blueprint`` as the service uses them: the one module that
reaches into the library's private parts. Each reach, and why:

Making an app (every worker of the service and every app of the tests makes one, for an
OpenAPI document that few of them ever serve; ``bench/bench_startup.py`` measures it):

1. ``Api.register_blueprint`` is redone without its documentation: the blueprint's routes are
   registered as flask-smorest registers them (in its private ``blp_name_to_api`` registry,
   through ``Api._app``), and its pages of the document are not written then.
2. ``Blueprint.register_views_in_doc``, the writing of those pages (the larger part of
   making an app), is called when the document is first read
   (``SegnapuntiApi.documented_spec``), for every blueprint registered so far, in order.
3. ``Api.init_app`` gives the Api the list of blueprints not yet written (``_undocumented``)
   and a lock, so that two threads reading the document first write each page once.
4. ``Api._openapi_json``, the view of ``/openapi.json``, writes the pages before it answers.

Each request:

- ``Blueprint.alt_response`` and ``Blueprint.doc`` only document, so their documentation
  (the view's ``_apidoc``) is put on the view itself instead of on a wrapper that would run
  with every request (a context lookup and a coroutine check) for nothing.

What the document says:

- ``Api._register_responses`` names every error response an RFC 9457 problem
  (``application/problem+json``), with ``Retry-After`` on 429 and 503.
- ``Blueprint._prepare_doc_cbks`` gets the responses every operation can give (400 for a
  path, query or header that is no UTF-8 text, 429 for too many requests; 503 where the
  database answers), and the parameters given to ``Blueprint.doc`` after those of the
  operation's ``arguments`` (which flask-smorest's ``doc`` would replace).
"""

from __future__ import annotations

import http
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_smorest import Api
from flask_smorest import Blueprint as SmorestBlueprint
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from . import problems
from .jsonbody import StrictJsonParser
from .paths import GAMES_PREFIX
from .schemas import ProblemSchema


class SegnapuntiApi(Api):  # type: ignore[misc]
    """flask-smorest's Api with RFC 9457 errors, in the responses and in the spec, and its
    blueprints' pages of the OpenAPI document written when the document is first read."""

    ERROR_SCHEMA = ProblemSchema

    def init_app(self, app: Flask, *, spec_kwargs: dict[str, Any] | None = None) -> None:
        self._undocumented: list[tuple[Any, str, Any]] = []
        self._documenting = threading.Lock()
        super().init_app(app, spec_kwargs=spec_kwargs)

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """The blueprint's routes now (as ``Api.register_blueprint``), its documentation when
        the document is read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def documented_spec(self) -> Any:
        """The OpenAPI document with every blueprint registered so far, in their order."""
        with self._documenting:
            while self._undocumented:
                blp, name, parameters = self._undocumented.pop(0)
                blp.register_views_in_doc(self, self._app, self.spec, name=name,
                                          parameters=parameters)
                self.spec.tag({"name": name, "description": blp.description})
        return self.spec

    def _openapi_json(self) -> Any:
        self.documented_spec()
        return super()._openapi_json()

    def handle_http_exception(self, error: HTTPException) -> Any:
        return problems.http_exception(error)

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                prepare_response(response, self.spec, problems.PROBLEM_MIMETYPE)
            if status == http.HTTPStatus.TOO_MANY_REQUESTS:
                response["headers"] = {"Retry-After": {
                    "description": "seconds until the client may send its next request",
                    "schema": {"type": "integer", "minimum": 1},
                }}
            if status == http.HTTPStatus.SERVICE_UNAVAILABLE:
                response["headers"] = {"Retry-After": {
                    "description": "seconds after which the request may be tried again",
                    "schema": {"type": "integer", "minimum": 1},
                }}
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "An error (RFC 9457 problem)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, problems.PROBLEM_MIMETYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)


def _documentation_only(decorator: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``decorator`` (one of flask-smorest's that only document) without the wrapper it puts
    round the view to carry the documentation: the view carries it."""

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


def _more_parameters(doc: dict[str, Any], doc_info: Any, **_kwargs: Any) -> dict[str, Any]:
    """The parameters ``Blueprint.doc`` was given (a header: ``If-None-Match``), after those
    of the operation's ``arguments`` (flask-smorest's own ``doc`` would put them in their
    place, and a second ``doc``'s in place of the first's: a read's query, a verdict's
    ``If-Match`` would go undocumented)."""
    more = doc_info.get("more_parameters") if isinstance(doc_info, dict) else None
    if more:
        doc["parameters"] = [*doc.get("parameters", []), *more]
    return doc


def _document_database(doc: dict[str, Any], _doc_info: Any, **_kwargs: Any) -> dict[str, Any]:
    doc.setdefault("responses", {}).setdefault("503", "SERVICE_UNAVAILABLE")
    return doc


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    """flask-smorest's Blueprint as every resource module of the service uses it: request
    JSON read strictly (``jsonbody``), the responses every operation can give documented
    once, and documentation that costs nothing at request time."""

    ARGUMENTS_PARSER = StrictJsonParser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.append(_document_every_operation)
        self._prepare_doc_cbks.append(_more_parameters)
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
        """As flask-smorest's, but ``parameters`` are added to the operation's
        (``_more_parameters``) rather than put in place of those its ``arguments`` document."""
        more = kwargs.pop("parameters", [])
        documented = _documentation_only(SmorestBlueprint.doc(**kwargs))

        def apply(view: Any) -> Any:
            view = documented(view)
            view._apidoc["more_parameters"] = [*view._apidoc.get("more_parameters", []),
                                               *more]
            return view

        return apply
