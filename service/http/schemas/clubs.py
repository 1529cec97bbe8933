"""Clubs and their members (issue 29, CLUBS.md): the request bodies, and the answers as the
views build them."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validates_schema

from .common import PassThroughSchema, StrictSchema


def _checked_by_the_core(description: str, *, required: bool = False) -> fields.Raw:
    """A field the rules core checks (with every other problem of the request at once): any
    JSON value gets that far."""
    return fields.Raw(required=required, allow_none=True,
                      metadata={"description": description})


class ClubCreateSchema(StrictSchema):
    name = _checked_by_the_core("the club's name (1 to 60 characters)", required=True)


class MemberCreateSchema(StrictSchema):
    name = _checked_by_the_core(
        "the member's name, unique in the club (compared without case, accents and "
        "invisible characters), 1 to 60 characters", required=True)
    initials = _checked_by_the_core("up to 4 characters; null or absent for none")


class MemberChangeSchema(StrictSchema):
    name = _checked_by_the_core("a new name (a rename keeps the member and every result)")
    initials = _checked_by_the_core("new initials; null drops them")
    active = _checked_by_the_core("false deactivates the member, true reactivates them")

    @validates_schema
    def _something(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if not data:
            raise ValidationError("say what changes: name, initials or active", "_schema")


class MergeSchema(StrictSchema):
    into = _checked_by_the_core("the id of the member this one is found to be",
                                required=True)


class MemberSchema(PassThroughSchema):
    id = fields.String(required=True)
    number = fields.Integer(required=True, metadata={
        "description": "the order they joined in, from 1 (a forgotten member's label)"})
    name = fields.String(required=True)
    initials = fields.String(allow_none=True)
    active = fields.Boolean(required=True)
    status = fields.String(required=True, metadata={
        "description": "active, inactive, merged (into merged_into) or forgotten"})
    merged_into = fields.String(allow_none=True)
    joined_at = fields.String(required=True)


class MembersSchema(PassThroughSchema):
    club_id = fields.String(required=True)
    members = fields.List(fields.Nested(MemberSchema), required=True, metadata={
        "description": "every member in the order they joined: active, inactive, merged "
                       "and forgotten"})


class ClubSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    members = fields.List(fields.Nested(MemberSchema), required=True)
    created_at = fields.String(required=True)
    version = fields.Integer(required=True)


class ClubTokensSchema(PassThroughSchema):
    edit = fields.String(required=True, metadata={"description": "the secretary's"})
    read = fields.String(required=True, metadata={"description": "the members'"})


class CreatedClubSchema(ClubSchema):
    tokens = fields.Nested(ClubTokensSchema, required=True,
                           metadata={"description": "shown here, and again to the edit token "
                                                    "(GET /clubs/{id}/links)"})
    links = fields.Dict(required=True, metadata={
        "description": "the club's page for the secretary and for the members, the token in "
                       "the fragment"})


class ClubLinksSchema(PassThroughSchema):
    tokens = fields.Dict(required=True, metadata={"description": "read: the members' token"})
    links = fields.Dict(required=True)


class ClubHistorySchema(PassThroughSchema):
    club_id = fields.String(required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={
        "description": "every change in order: version, action (create, add_member, "
                       "change_member, merge, unmerge, forget), data, created_at"})
