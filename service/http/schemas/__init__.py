"""Marshmallow schemas of every request and response body. Requests reject unknown
fields; responses declare what the API fixes and pass through any further keys the rules core
adds (documented as ``additionalProperties``)."""

from .common import HealthSchema, PassThroughSchema, ReadySchema, StrictSchema
from .games import (
    ConfirmationRequestSchema,
    ConfirmationResultSchema,
    CreatedGameSchema,
    GameCreateSchema,
    GameSchema,
    HandSchema,
    HistorySchema,
    PlayerLinksSchema,
)
from .problems import ProblemSchema
from .records import HandRecordSchema
from .scoring import (
    AdjudicateRequestSchema,
    HandResultSchema,
    MeldSuggestionSchema,
    MeldSuggestRequestSchema,
    RulingSchema,
    ScoreRequestSchema,
)
from .variants import RulebookSchema, VariantDetailSchema, VariantSummarySchema

__all__ = [
    "AdjudicateRequestSchema",
    "ConfirmationRequestSchema",
    "ConfirmationResultSchema",
    "CreatedGameSchema",
    "GameCreateSchema",
    "GameSchema",
    "HandRecordSchema",
    "HandResultSchema",
    "HandSchema",
    "HealthSchema",
    "HistorySchema",
    "MeldSuggestRequestSchema",
    "MeldSuggestionSchema",
    "PassThroughSchema",
    "PlayerLinksSchema",
    "ProblemSchema",
    "ReadySchema",
    "RulebookSchema",
    "RulingSchema",
    "ScoreRequestSchema",
    "StrictSchema",
    "VariantDetailSchema",
    "VariantSummarySchema",
]
