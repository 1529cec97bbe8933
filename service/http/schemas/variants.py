"""The variant catalogue."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema


class _VariantTableSchema(PassThroughSchema):
    """What the catalogue and a variant's detail both name first: the variant and its table."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.Integer(required=True)
    seats = fields.Integer(required=True)


class VariantSummarySchema(_VariantTableSchema):
    sides = fields.Raw(required=True)
    options = fields.Raw(required=True)


class VariantDetailSchema(_VariantTableSchema):
    """The full rule parameters: pack, ranks, counting values, melds, game length, …"""


class RuleSectionSchema(PassThroughSchema):
    ref = fields.String(required=True, metadata={
        "description": "the clause of RULES.md (§2.3, R8): what a problem's or a line's `rule` "
                       "names"})
    title = fields.String(required=True)
    text = fields.String(required=True)


class RulebookSchema(PassThroughSchema):
    """A variant's rules in sections, in the language asked for (`Accept-Language`)."""

    variant = fields.String(required=True)
    sections = fields.List(fields.Nested(RuleSectionSchema), required=True)
