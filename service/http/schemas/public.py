"""The public results' bodies: a published event's and a published club's, as anyone reads
them without a token."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema


class PublicEventSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    format = fields.String(required=True)
    scoring = fields.String(required=True)
    deals = fields.String(required=True)
    status = fields.String(required=True, metadata={
        "description": "not_started, playing, between_rounds or over"})
    rounds_planned = fields.Integer(allow_none=True)
    created_at = fields.String(required=True)
    standings = fields.Dict(required=True, metadata={
        "description": "provisional, and rows: place, entrant (the public name), number, "
                       "match_points, difference, points, rounds_played; a duplicate event's "
                       "add boards and percentage"})
    rounds = fields.List(fields.Dict(), required=True, metadata={
        "description": "each round: round, state, its tables (table, status, entrants, "
                       "columns: each column's entrants and total) and byes"})
    boards = fields.List(fields.Dict(), metadata={
        "description": "a duplicate event's complete boards' travellers: board, top, and "
                       "each table's result (round, table, columns: entrants, points, "
                       "matchpoints, percentage)"})
    language = fields.String(required=True, metadata={
        "description": "the language the names of forgotten members are said in"})
    page = fields.String(required=True, metadata={"description": "the results page's link"})


class PublicClubSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    public_ratings = fields.Boolean(required=True)
    events = fields.List(fields.Dict(), required=True, metadata={
        "description": "the club's published events, newest first: id, name, created_at"})
    seasons = fields.List(fields.Dict(), required=True, metadata={
        "description": "each season: id, name, from, to, counting, and its standings' rows "
                       "(place, member: the public name, match_points, points, evenings)"})
    ratings = fields.List(fields.Dict(), metadata={
        "description": "with public_ratings: each family played, its ratings (place, member, "
                       "rating, games)"})
    language = fields.String(required=True)
    page = fields.String(required=True, metadata={"description": "the results page's link"})
