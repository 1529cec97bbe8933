"""The administration's answers (``resources/admin.py``)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from .common import PassThroughSchema, StrictSchema


class AdminListQuerySchema(StrictSchema):
    """A page of the operator's listing, and its filters."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500),
                           metadata={"description": "rows on the page (1 to 500)"})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0),
                            metadata={"description": "rows skipped before the page"})
    order = fields.String(load_default="newest", validate=validate.OneOf(["newest", "oldest"]),
                          metadata={"description": "by last activity: newest first (the "
                                                   "default) or oldest first (for cleanup)"})
    inactive_days = fields.Integer(validate=validate.Range(min=0, max=36500), metadata={
        "description": "only those with no activity in the last N days"})
    anonymous = fields.Boolean(metadata={
        "description": "true: only games of no event and no club, events of no club; "
                       "false: only the others"})


class AdminRowSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True, metadata={
        "description": "a club's or an event's name; a game's players"})
    variant = fields.String(allow_none=True)
    created_at = fields.String(required=True)
    last_activity = fields.String(required=True, metadata={
        "description": "the latest write: a hand, a correction, a verdict, an organiser's or "
                       "a secretary's change (of its games too, for an event or a club)"})
    size = fields.Dict(required=True, metadata={
        "description": "a game: hands, players; an event: entrants, rounds, tables, hands; a "
                       "club: members, games, events, seasons"})
    anonymous = fields.Boolean(required=True, metadata={
        "description": "a game of no event and no club; an event of no club"})
    club = fields.String(allow_none=True)
    event = fields.String(allow_none=True)
    tokens = fields.Dict(required=True, metadata={
        "description": "each kind of token it has (edit, read; a game's players): active or "
                       "revoked"})
    renewed_at = fields.String(allow_none=True, metadata={
        "description": "when the administrator last issued it new tokens"})
    revoked_at = fields.String(allow_none=True, metadata={
        "description": "when the administrator last revoked some of its tokens"})


class AdminListSchema(PassThroughSchema):
    total = fields.Integer(required=True, metadata={"description": "rows the filters match"})
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    rows = fields.List(fields.Nested(AdminRowSchema), required=True)


class DeleteQuerySchema(StrictSchema):
    confirm = fields.String(validate=validate.Length(max=32), metadata={
        "description": "the id of what is deleted, repeated (required: 428 without it, 412 "
                       "when it is another)"})


class DeletedSchema(PassThroughSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True)
    deleted = fields.Dict(required=True, metadata={"description": "rows removed, by table"})


def tokens_action_schema(kind: str, names: tuple[str, ...]) -> type[StrictSchema]:
    """What to do with a club's, an event's or a game's tokens: renew them all (the default,
    as with no body), or revoke those it names (of ``names``) (of ``kind``'s tokens)."""

    class TokensActionSchema(StrictSchema):
        action = fields.String(load_default="renew", validate=validate.OneOf(
            ["renew", "revoke"]), metadata={"description": "renew (the default) or revoke"})
        which = fields.List(fields.String(validate=validate.OneOf(names)),
                            validate=validate.Length(min=1, max=len(names)), metadata={
            "description": f"revoke: the {kind[:-1]}'s tokens to revoke ({', '.join(names)})"})

        @validates_schema
        def _revoke_names_them(self, data: dict[str, Any], **_kwargs: Any) -> None:
            if data.get("action") == "revoke" and not data.get("which"):
                raise ValidationError("revoke names the tokens it revokes", "which")
            if data.get("action") == "renew" and data.get("which"):
                raise ValidationError("renew renews every token: name none", "which")

    TokensActionSchema.__name__ = f"{kind[:-1].capitalize()}TokensActionSchema"
    return TokensActionSchema


class TokensAnswerSchema(PassThroughSchema):
    """The tokens' ``POST``: renewed, the new tokens and their links (shown once);
    revoked, the kinds revoked."""

    id = fields.String(required=True, metadata={"description": "the club, event or game"})
    tokens = fields.Dict(metadata={
        "description": "renewed: edit, the new edit token; read, the new read token (shown "
                       "this once)"})
    links = fields.Dict(metadata={
        "description": "renewed: edit and read, the page's links with the new tokens"})
    revoked = fields.List(fields.String(), metadata={
        "description": "revoked: the kinds of token revoked"})
