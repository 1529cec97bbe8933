"""Clubs and their members (docs/clubs.md): the request bodies, and the answers as the
views build them."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validates_schema

from .common import PassThroughSchema, StrictBoolean, StrictSchema, checked_by_the_core

_checked_by_the_core = checked_by_the_core


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
    public = _checked_by_the_core("false: the public pages and their JSON give the member's "
                                  "initials instead of their name; true (the default) their "
                                  "name")

    @validates_schema
    def _something(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if not data:
            raise ValidationError("say what changes: name, initials, active or public",
                                  "_schema")


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
    public = fields.Boolean(metadata={
        "description": "false: named by their initials on the public pages"})


class MembersSchema(PassThroughSchema):
    club_id = fields.String(required=True)
    members = fields.List(fields.Nested(MemberSchema), required=True, metadata={
        "description": "every member in the order they joined: active, inactive, merged "
                       "and forgotten"})


class ClubPublishSchema(StrictSchema):
    public = StrictBoolean(metadata={
        "description": "true publishes the club (its published events, seasons' standings) "
                       "at /api/v1/public/clubs/{id} and /results/clubs/{id}; false takes it "
                       "down at once"})
    public_ratings = StrictBoolean(metadata={
        "description": "true: the published club shows its ratings too"})

    @validates_schema
    def _something(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if not data:
            raise ValidationError("say what changes: public or public_ratings", "_schema")


class ClubSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    members = fields.List(fields.Nested(MemberSchema), required=True)
    public = fields.Boolean(metadata={"description": "published: readable without a token"})
    public_ratings = fields.Boolean(metadata={"description": "its ratings published too"})
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
    links = fields.Dict(required=True, metadata={
        "description": "edit: the secretary's page; read: the members'"})


class ClubHistorySchema(PassThroughSchema):
    club_id = fields.String(required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={
        "description": "every change in order: version, action (create, add_member, "
                       "change_member, merge, unmerge, forget), data, created_at"})


class SeasonCreateSchema(StrictSchema):
    name = _checked_by_the_core("the season's name (1 to 60 characters)", required=True)
    from_ = _checked_by_the_core("its first day, YYYY-MM-DD", required=True, data_key="from")
    to = _checked_by_the_core("its last day, YYYY-MM-DD (on or after from)", required=True)
    families = _checked_by_the_core(
        "the families of games it counts (gatti, ottocento, mitigatti); none: every family")
    counting = _checked_by_the_core(
        "sum (default: every evening's match points), best_n (each member's n best "
        "evenings) or average (per evening)", enum=["sum", "best_n", "average"])
    n = _checked_by_the_core("with best_n: how many evenings count (1 to 366)")


class SeasonSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    families = fields.List(fields.String(), required=True, metadata={
        "description": "the families it counts; empty: every family"})
    counting = fields.String(required=True)
    n = fields.Integer(allow_none=True)
    created_at = fields.String(required=True)


class SeasonsSchema(PassThroughSchema):
    club_id = fields.String(required=True)
    seasons = fields.List(fields.Nested(SeasonSchema), required=True)


class SeasonLeaderSchema(PassThroughSchema):
    member = fields.String(required=True, metadata={"description": "the member's id"})
    entrant = fields.String(required=True, metadata={"description": "the member's name now"})
    running = fields.List(fields.Float(allow_none=True), required=True, metadata={
        "description": "the match points the standings rank by, at the season's start and "
                       "after each evening (one more than the evenings): summed, the member's "
                       "best n evenings so far (best_n), or averaged over their evenings so "
                       "far to one decimal (average; null before their first evening)"})


class SeasonStandingsSchema(PassThroughSchema):
    season = fields.Nested(SeasonSchema, required=True)
    rows = fields.List(fields.Dict(), required=True, metadata={
        "description": "place, entrant (the member's name now), member (their id), number, "
                       "match_points, difference, points (averages with counting average), "
                       "rounds, explanation"})
    evenings = fields.List(fields.Dict(), required=True, metadata={
        "description": "each evening counted (a game or an event), its date and the rounds "
                       "of the standings it holds"})
    leaders = fields.List(fields.Nested(SeasonLeaderSchema), required=True, metadata={
        "description": "the first five rows' members evening by evening (the season's chart "
                       "of its top places), in the rows' order"})


class ClubExportSchema(ClubSchema):
    export = fields.String(required=True, metadata={"description": "club"})
    games = fields.List(fields.Dict(), required=True)
    results = fields.List(fields.Dict(), required=True, metadata={
        "description": "a row per member and counted game, in finishing order"})
    seasons = fields.List(fields.Nested(SeasonSchema), required=True)
    history = fields.List(fields.Dict(), required=True)


class RatingsQuerySchema(StrictSchema):
    family = fields.String(metadata={
        "description": "the family rated (required): gatti, mitigatti or ottocento"})


class RatingPointSchema(PassThroughSchema):
    game = fields.String(required=True)
    finished_at = fields.String(required=True)
    rating = fields.Integer(required=True, metadata={"description": "after this game"})
    change = fields.Integer(required=True, metadata={"description": "what this game moved it"})


class MemberRatingSchema(PassThroughSchema):
    place = fields.Integer(required=True, allow_none=True, metadata={
        "description": "in the table; null for a member with no game of the family"})
    member = fields.Dict(required=True, metadata={"description": "id and name"})
    rating = fields.Integer(required=True, metadata={
        "description": "1000 + 40·(mu − 3σ), rounded: the skill the member very probably has "
                       "at least (a newcomer is 1000)"})
    certainty = fields.Integer(required=True, metadata={
        "description": "how far σ has come down from a newcomer's, in percent"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True)
    last_change = fields.Integer(required=True)
    last_game = fields.String(required=True, allow_none=True)
    last_played = fields.String(required=True, allow_none=True)


class RatingsSchema(PassThroughSchema):
    family = fields.String(required=True)
    model = fields.String(required=True)
    scale = fields.String(required=True)
    games = fields.Integer(required=True, metadata={"description": "games rated"})
    ratings = fields.List(fields.Nested(MemberRatingSchema), required=True, metadata={
        "description": "best first; a member who has played no game of the family is not in it"})


class MemberRatingHistorySchema(MemberRatingSchema):
    family = fields.String(required=True)
    history = fields.List(fields.Nested(RatingPointSchema), required=True, metadata={
        "description": "the rating after each of the member's games, in finishing order"})


class StatsQuerySchema(StrictSchema):
    season = fields.String(metadata={
        "description": "a season of the club (its id): only the games it counts; none: all "
                       "time"})
    variant = fields.String(metadata={
        "description": "a variant (its id, such as gatti-3): only its games; none: every "
                       "variant"})


class FigureSchema(PassThroughSchema):
    key = fields.String(required=True, metadata={
        "description": "games, hands, wins, average_place, points_per_hand, points_per_game, "
                       "dealt, called, partnered, solo, bagatto, disputed, marca_won, "
                       "marca_lost, marca_balance; declared.<kind> for a kind of declaration"})
    value = fields.Raw(required=True, allow_none=True, metadata={
        "description": "a number (null where there is nothing to divide by)"})
    says = fields.String(required=True, metadata={
        "description": "what the figure counts, in the request's language"})
    games = fields.Integer(required=True, metadata={"description": "the games it comes from"})
    few = fields.Boolean(required=True, metadata={
        "description": "true when it comes from fewer than few_games games"})
    caution = fields.String(metadata={"description": "with few: the words that say so"})


class StatsBlockSchema(PassThroughSchema):
    family = fields.String(required=True)
    variant = fields.String(metadata={"description": "in a variant's block only"})
    games = fields.Integer(required=True)
    few = fields.Boolean(required=True)
    figures = fields.List(fields.Nested(FigureSchema), required=True)
    declared = fields.Dict(required=True, metadata={
        "description": "says, and kinds: each kind of declaration of the family (kind, "
                       "label, and a figure's fields)"})
    partners = fields.Dict(required=True, metadata={
        "description": "says, and members: the partners met most (member, games, wins, "
                       "average_place, points_per_game, few, caution)"})
    opponents = fields.Dict(required=True, metadata={
        "description": "says, and members: the opponents met most (as partners, with ahead, "
                       "level, behind: how often the member finished ahead of them)"})
    months = fields.Dict(required=True, metadata={
        "description": "says, and months: points per hand month by month (month, games, "
                       "hands, points, points_per_hand, few, caution)"})
    balance = fields.Dict(metadata={
        "description": "a game settled in marca (Mitigatti): says, and evenings: each "
                       "evening's marca and the balance after it"})
    evenings = fields.Dict(required=True, metadata={
        "description": "says, and days: the member's evenings, each a day they played (UTC) "
                       "however many games or events it held (date, games, events, hands, "
                       "points, points_per_hand; settled in marca: marca and the balance "
                       "after it)"})
    variants = fields.List(fields.Dict(), metadata={
        "description": "in a family's block: the same figures variant by variant"})


class MemberStatsSchema(PassThroughSchema):
    member = fields.Dict(required=True, metadata={"description": "id, name and status"})
    season = fields.Nested(SeasonSchema, required=True, allow_none=True, metadata={
        "description": "the season asked for; null: all time"})
    variant = fields.String(required=True, allow_none=True)
    few_games = fields.Integer(required=True, metadata={
        "description": "a figure from fewer games than this says so (few, caution)"})
    games = fields.Integer(required=True)
    families = fields.List(fields.Nested(StatsBlockSchema), required=True, metadata={
        "description": "a block per family played, by name"})
