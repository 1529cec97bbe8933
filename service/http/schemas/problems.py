"""The RFC 9457 problem body of every error response."""

from __future__ import annotations

from marshmallow import Schema, fields


class ProblemErrorSchema(Schema):
    field = fields.String(
        required=True,
        metadata={"description": "path into the request, e.g. hand.declarations[1].cards[2]"},
    )
    code = fields.String(required=True, metadata={"description": "stable machine name"})
    message = fields.String(required=True)
    rule = fields.String(metadata={
        "description": "the section of the rulebook the input breaks (§2.3, R8)"})


class ProblemSchema(Schema):
    type = fields.String(required=True, metadata={"description": "URI of the problem type"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    code = fields.String(metadata={"description": "stable machine name of the problem"})
    errors = fields.List(
        fields.Nested(ProblemErrorSchema),
        metadata={"description": "every error found (422), else empty"},
    )
