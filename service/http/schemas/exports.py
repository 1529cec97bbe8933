"""The score sheet's query, and the exported game as ``POST /games/import`` takes it back."""

from __future__ import annotations

from marshmallow import fields, validate

from service.application.exports import EXPORT_FORMAT, EXPORT_VERSION
from service.application.games import MAX_HANDS
from service.application.i18n import LANGUAGES

from .common import MAX_SEATS, PassThroughSchema, StrictSchema, text_field
from .records import HandRecordSchema
from .scoring import options_field


class SheetQuerySchema(StrictSchema):
    lang = fields.String(validate=validate.OneOf(LANGUAGES),
                         metadata={"description": "the sheet's language: en (default) or it"})
    detail = fields.Boolean(
        truthy={"1", "true"}, falsy={"0", "false"},
        metadata={"description": "1: print each hand's explanation lines under it"})


class ImportedGameSchema(StrictSchema):
    id = text_field(metadata={"description": "the exported game's id (the import gets a new "
                                             "one)"})
    variant = text_field(required=True)
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


class GameImportSchema(StrictSchema):
    format = fields.String(required=True, validate=validate.OneOf([EXPORT_FORMAT]))
    format_version = fields.Integer(strict=True, required=True,
                                    validate=validate.OneOf([EXPORT_VERSION]))
    exported_at = text_field()
    rules_version = text_field()
    game = fields.Nested(ImportedGameSchema, required=True)
    hands = fields.List(fields.Nested(ImportedHandSchema),
                        validate=validate.Length(max=MAX_HANDS), load_default=list)
    summary = fields.Dict(metadata={"description": "as exported; not read"})


class ExportedHandSchema(PassThroughSchema):
    number = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    record = fields.Dict(required=True, metadata={"description": "the canonical HandRecord"})
    result = fields.Dict(required=True, metadata={"description": "the HandResult"})
    rules_version = fields.String(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


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
    summary = fields.Dict(required=True, metadata={
        "description": "columns, totals, status, winners… as GET /games/{id} gives them"})
