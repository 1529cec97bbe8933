"""The administration's answers (``resources/admin.py``)."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema


class NewTokensSchema(PassThroughSchema):
    id = fields.String(required=True, metadata={"description": "the club, event or game"})
    tokens = fields.Dict(required=True, metadata={
        "description": "edit: the new edit token; read: the new read token (shown this once)"})
    links = fields.Dict(required=True, metadata={
        "description": "edit and read: the page's links with the new tokens"})
