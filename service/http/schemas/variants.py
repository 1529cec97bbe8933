"""The variant catalogue."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema


class VariantSummarySchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    sides = fields.Raw(required=True)
    options = fields.Raw(required=True)


class VariantDetailSchema(PassThroughSchema):
    """The full rule parameters: pack, ranks, counting values, melds, game length, …"""

    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.Integer(required=True)
    seats = fields.Integer(required=True)
