"""The score sheet's query, and the exported game as ``POST /games/import`` takes it back."""

from __future__ import annotations

from marshmallow import fields, validate

from service.application.games import MAX_HANDS
from service.application.language import LANGUAGES
from service.application.printouts import EXPORT_FORMAT, IMPORT_VERSIONS, MAX_HISTORY

from .common import MAX_SEATS, PassThroughSchema, StrictSchema, text_field, variant_field
from .records import HandRecordSchema
from .scoring import options_field


class SheetQuerySchema(StrictSchema):
    lang = fields.String(validate=validate.OneOf(LANGUAGES),
                         metadata={"description": "the sheet's language: en, it or fr; "
                                                  "without it the game's `language` option, "
                                                  "else en"})
    detail = fields.Boolean(
        truthy={"1", "true"}, falsy={"0", "false"},
        metadata={"description": "1: print each hand's explanation lines under it"})


class ImportedGameSchema(StrictSchema):
    id = text_field(metadata={"description": "the exported game's id (the import gets a new "
                                             "one)"})
    variant = variant_field(required=True)
    options = options_field()
    players = fields.List(text_field(), required=True,
                          validate=validate.Length(min=1, max=MAX_SEATS))
    first_dealer = fields.Integer(strict=True)
    created_at = text_field(metadata={"description": "when the game started (ISO 8601); kept"})


class ImportedHandSchema(StrictSchema):
    number = fields.Integer(strict=True, metadata={"description": "from 1, in order"})
    dealer = fields.Integer(strict=True)
    record = fields.Nested(HandRecordSchema, required=True)
    result = fields.Dict(metadata={
        "description": "the result as exported: where given, the replayed result must give "
                       "every column the same points (and marca)"})
    rules_version = text_field()
    created_at = text_field()
    updated_at = text_field()


class ImportedVerdictSchema(StrictSchema):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    verdict = fields.String(required=True, validate=validate.OneOf(["confirm", "dispute"]))
    reason = fields.String(allow_none=True, validate=validate.Length(max=2000))
    version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    at = text_field(required=True, metadata={"description": "when (ISO 8601); kept"})


class ImportedVersionSchema(StrictSchema):
    number = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    action = fields.String(required=True, validate=validate.OneOf(["create", "correct", "delete"]))
    record = fields.Nested(HandRecordSchema, required=True, allow_none=True, metadata={
        "description": "the hand's record after the change; null for a deletion"})
    rules_version = text_field()
    token_kind = fields.String(required=True, validate=validate.OneOf(["edit", "read"]))
    created_at = text_field(required=True, metadata={"description": "when (ISO 8601); kept"})
    confirmations = fields.List(fields.Nested(ImportedVerdictSchema), load_default=list,
                                validate=validate.Length(max=100), metadata={
        "description": "the players' verdicts on this version, oldest first; kept"})


class GameImportSchema(StrictSchema):
    format = fields.String(required=True, validate=validate.OneOf([EXPORT_FORMAT]))
    format_version = fields.Integer(strict=True, required=True,
                                    validate=validate.OneOf(IMPORT_VERSIONS))
    exported_at = text_field()
    rules_version = text_field()
    game = fields.Nested(ImportedGameSchema, required=True)
    hands = fields.List(fields.Nested(ImportedHandSchema),
                        validate=validate.Length(max=MAX_HANDS), load_default=list)
    history = fields.List(fields.Nested(ImportedVersionSchema), load_default=None,
                          validate=validate.Length(max=MAX_HISTORY), metadata={
        "description": "every version of every hand, oldest first, as exported (format 2): "
                       "replayed, so the new game has the same history and times, and it must "
                       "end in the hands listed; without it each hand is created once, at its "
                       "created_at"})
    summary = fields.Dict(metadata={"description": "as exported; not read"})
    ended_at = text_field(metadata={
        "description": "when its scorekeeper said the evening is over (a game with no "
                       "natural end): the new game is ended at the same time"})


class ExportedHandSchema(PassThroughSchema):
    number = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    record = fields.Dict(required=True, metadata={"description": "the canonical HandRecord"})
    result = fields.Dict(required=True, metadata={"description": "the HandResult"})
    rules_version = fields.String(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


class ExportedVersionSchema(PassThroughSchema):
    number = fields.Integer(required=True)
    version = fields.Integer(required=True)
    action = fields.String(required=True)
    record = fields.Dict(required=True, allow_none=True)
    rules_version = fields.String(required=True)
    token_kind = fields.String(required=True)
    created_at = fields.String(required=True)
    confirmations = fields.List(fields.Dict(), required=True, metadata={
        "description": "the players' verdicts on this version, oldest first"})


class ExportedGameSchema(PassThroughSchema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.String(), required=True)
    first_dealer = fields.Integer(required=True)
    created_at = fields.String(required=True)


class GameExportSchema(PassThroughSchema):
    format = fields.String(required=True, metadata={"description": EXPORT_FORMAT})
    format_version = fields.Integer(required=True)
    exported_at = fields.String(required=True)
    rules_version = fields.String(required=True)
    game = fields.Nested(ExportedGameSchema, required=True)
    hands = fields.List(fields.Nested(ExportedHandSchema), required=True)
    history = fields.List(fields.Nested(ExportedVersionSchema), required=True, metadata={
        "description": "every version of every hand, oldest first, as GET "
                       "/games/{id}/history gives them"})
    summary = fields.Dict(required=True, metadata={
        "description": "columns, totals, status, winners… as GET /games/{id} gives them"})
    ended_at = fields.String(metadata={
        "description": "when its scorekeeper said the evening is over (POST …/end)"})
