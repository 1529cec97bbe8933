"""Endpoints that store nothing: liveness and readiness, variants, ``POST /score``,
``POST /melds/suggest``."""

from __future__ import annotations

import functools
import importlib.metadata
from typing import Any

import orjson
from flask import Response, current_app

from service.application import stateless
from service.domain import (
    RULES_VERSION,
    UnknownVariant,
    find_variant,
)

from ..jsonbody import said_json
from ..language import speaker
from ..memo import by_body
from ..paths import API_PREFIX
from ..schemas import (
    AdjudicateRequestSchema,
    HandResultSchema,
    HealthSchema,
    MeldSuggestionSchema,
    MeldSuggestRequestSchema,
    ReadySchema,
    RulebookSchema,
    RulingSchema,
    ScoreRequestSchema,
    VariantDetailSchema,
    VariantSummarySchema,
)
from ..smorest import Blueprint
from .common import json_body

blp = Blueprint(
    "stateless",
    __name__,
    url_prefix=API_PREFIX,
    description="Variants, and scoring that stores nothing (for disputes)",
)


@functools.cache
def release() -> str | None:
    """The service's release: the installed package's version (None where the code runs
    without being installed)."""
    try:
        return importlib.metadata.version("segnapunti")
    except importlib.metadata.PackageNotFoundError:
        return None


@blp.route("/health")
@blp.response(200, HealthSchema)
def health() -> Any:
    """Check the service is up, and which release it is

    The cheapest request: it goes through the same middleware as every other (headers,
    access log) but reads no database and scores nothing, so it answers whatever the
    database does. It says the release (`version`), the rules it referees by
    (`rules_version`), the database schema's revision this release reads (`schema.head`)
    beside the one this process's last readiness check found (`schema.database`), and who
    may create here (`creation`: `open`, `clubs`, `admin`), so that a page offers only what
    will be taken. The Docker health check calls it; it is never rate limited.
    """
    head, database = current_app.extensions["segnapunti.store"].schema()
    body = {"status": "ok", "version": release(), "rules_version": RULES_VERSION,
            "schema": {"head": head, "database": database},
            "creation": current_app.extensions.get("segnapunti.creation", "open")}
    return Response(orjson.dumps(body), status=200, mimetype="application/json")


READY_BODY = b'{"status":"ready"}\n'


@blp.route("/ready")
@blp.response(200, ReadySchema)
@blp.alt_response(503, response="SERVICE_UNAVAILABLE")
def ready() -> Any:
    """Check the service can serve: its database answers, at the schema it reads

    Readiness, apart from liveness (`/health`): `200` when the database answers a
    `SELECT 1` within a second and its schema is at the revision this release reads,
    `503` with `Retry-After` when it does not: `database_unavailable` when it cannot be
    reached or does not answer in time, `schema_not_current` when it was not migrated (or
    a newer release migrated it past this one). A check's outcome stands for a second,
    however often it is asked; a schema found current is not read again while the
    database answers. A proxy's health check, Docker's and compose's call it, so that a
    server whose database is away or unmigrated is taken out of rotation and shown
    unhealthy; it changes nothing.
    """
    current_app.extensions["segnapunti.store"].check_ready()
    return Response(READY_BODY, status=200, mimetype="application/json")


@blp.route("/variants")
@blp.response(200, VariantSummarySchema(many=True))
def list_variants() -> Any:
    """List the variants

    Every variant (rule set) the service scores, with its players, sides and options.
    """
    return stateless.list_variants()


@blp.route("/variants/<string:variant_id>")
@blp.response(200, VariantDetailSchema)
@blp.alt_response(404, response="NOT_FOUND")
def get_variant(variant_id: str) -> Any:
    """Describe one variant

    The full rule parameters of a variant, by id or alias: pack, ranks, counting values,
    melds with thresholds and points, game length, trick size, totals.
    """
    return stateless.describe_variant(variant_id)


@blp.route("/variants/<string:variant_id>/rules")
@blp.response(200, RulebookSchema)
@blp.alt_response(404, response="NOT_FOUND")
def get_variant_rules(variant_id: str) -> Any:
    """Read a variant's rules

    The rules of a variant in sections, in the project's own words, in Italian or English
    (`Accept-Language`): every `rule` a problem or an explanation line names (`§2.3`, `R8`)
    is the `ref` of one of its sections.
    """
    return stateless.variant_rules(variant_id)


@blp.route("/score", methods=["POST"])
@by_body("score")
@json_body(blp)
@blp.arguments(ScoreRequestSchema)
@blp.response(200, HandResultSchema)
def score(body: dict[str, Any]) -> Any:
    """Score one hand

    Nothing is stored: the same computation a stored game makes of each of its hands, for
    settling a dispute. Every problem found is listed (422); the record's fields are under
    `hand.`. The same body sent again gets the same answer without being scored again.
    With `seats` (who sits where, as a game lists them) the problems and lines name the
    players; without, a seat is said by its number.
    """
    seats = body.get("seats")
    result = stateless.score(body["variant"], body.get("options"), body["hand"], seats)
    return said_json(result.to_json(), speaker(_family(body["variant"]), seats))


@blp.route("/melds/suggest", methods=["POST"])
@json_body(blp)
@blp.arguments(MeldSuggestRequestSchema)
@blp.response(200, MeldSuggestionSchema(many=True))
def suggest_melds(body: dict[str, Any]) -> Any:
    """Suggest melds

    Every meld (or Ottocento combination, or Mitigatti declaration) the given cards can
    declare, with its points.
    """
    return said_json(stateless.suggest_melds(body["variant"], body["cards"]),
                     speaker(_family(body["variant"])))


@blp.route("/adjudicate/trick", methods=["POST"])
@json_body(blp)
@blp.arguments(AdjudicateRequestSchema)
@blp.response(200, RulingSchema)
def adjudicate_trick(body: dict[str, Any]) -> Any:
    """Settle a dispute over one trick

    Who won the trick, and whether each card was legal. Legality is judged from what is given:
    a seat's hand before the trick (`hands`), or what the earlier tricks (`history`) and this
    one prove a player held. Every illegal play found, in the history too, is a violation with
    its proof. Nothing is stored.
    """
    return said_json(stateless.adjudicate_trick(
        body["variant"], body["leader"], body["cards"], body.get("hands"), body.get("history")
    ), speaker(_family(body["variant"])))


def _family(variant_id: str) -> str | None:
    """The family of the variant a body names (None for one that is not: the core says so)."""
    try:
        return find_variant(variant_id).family
    except UnknownVariant:
        return None
