"""Stateless scoring and meld suggestions; the HandResult."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema, StrictSchema, cards_field
from .records import HandRecordSchema


def options_field() -> fields.Dict:
    return fields.Dict(
        keys=fields.String(),
        metadata={"description": "game options (API.md Options); unknown names are a 422"},
    )


class ScoreRequestSchema(StrictSchema):
    variant = fields.String(required=True)
    options = options_field()
    hand = fields.Nested(HandRecordSchema, required=True)


class LineSchema(PassThroughSchema):
    item = fields.String(required=True)
    points = fields.Integer(required=True)
    text = fields.String()
    rule = fields.String()


class SideResultSchema(PassThroughSchema):
    side = fields.Integer(required=True)
    seats = fields.List(fields.Integer(), required=True)
    lines = fields.List(fields.Nested(LineSchema), required=True)
    total = fields.Integer(required=True)


class ViolationSchema(PassThroughSchema):
    trick = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    card = fields.String(required=True)
    rule = fields.String(required=True)
    message = fields.String(required=True)


class HandResultSchema(PassThroughSchema):
    sides = fields.List(fields.Nested(SideResultSchema), required=True)
    columns = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "what each score-sheet column receives for the hand"},
    )
    marca = fields.Dict(keys=fields.String(), values=fields.Integer())
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    events = fields.List(fields.String(), required=True)


class MeldSuggestRequestSchema(StrictSchema):
    variant = fields.String(required=True)
    cards = cards_field(required=True)


class MeldSuggestionSchema(PassThroughSchema):
    kind = fields.String(required=True)
    points = fields.Integer(required=True)
    cards = cards_field()
