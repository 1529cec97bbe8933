"""Stored games, their hands and history."""

from __future__ import annotations

from marshmallow import INCLUDE, fields, validate

from .common import (
    MAX_ID,
    MAX_SEATS,
    PassThroughSchema,
    SeatField,
    StrictSchema,
    variant_field,
)
from .records import HandRecordSchema
from .scoring import HandResultSchema, options_field


class GameCreateSchema(StrictSchema):
    variant = variant_field(required=True)
    options = options_field()
    players = fields.List(
        SeatField(), required=True, validate=validate.Length(min=1, max=MAX_SEATS)
    )
    first_dealer = fields.Integer(strict=True, metadata={"description": "seat; default 0"})
    club = fields.String(validate=validate.Length(min=1, max=MAX_ID), metadata={
        "description": "the club the game is played for, with the club's edit "
                       "token in Club-Authorization: its seats become members"})


class StoredRecordSchema(PassThroughSchema, HandRecordSchema):
    """A hand record as stored: canonical notation, every key kept."""

    class Meta:
        unknown = INCLUDE


class ConfirmationSchema(PassThroughSchema):
    """One player's verdict on one version of a hand."""

    seat = fields.Integer(required=True, metadata={"description": "the player's seat"})
    verdict = fields.String(required=True, validate=validate.OneOf(["confirm", "dispute"]))
    reason = fields.String(metadata={"description": "why the player disputes the hand"})
    version = fields.Integer(required=True, metadata={"description": "the hand's version"})
    at = fields.DateTime(required=True)


class StandingSchema(PassThroughSchema):
    """What a hand's verdicts add up to."""

    status = fields.String(required=True, validate=validate.OneOf(
        ["confirmed", "disputed", "waiting", "not_asked"]), metadata={"description": (
            "confirmed: every player confirmed this version; disputed: a player disputes "
            "it; waiting: some players have not said; not_asked: the game takes no verdicts")})
    confirmed = fields.List(fields.Integer(), required=True)
    disputed = fields.List(fields.Integer(), required=True)
    waiting = fields.List(fields.Integer(), required=True)


class ConfirmationRequestSchema(StrictSchema):
    verdict = fields.String(required=True, validate=validate.OneOf(["confirm", "dispute"]),
                            metadata={"description": "confirm the hand as recorded, or "
                                                     "dispute it (with a reason)"})
    reason = fields.String(allow_none=True, validate=validate.Length(max=2000), metadata={
        "description": "why the player disputes the hand (needed with dispute, at most 280 "
                       "characters once trimmed; none with confirm)"})


class ConfirmationResultSchema(ConfirmationSchema):
    hand = fields.Integer(required=True, metadata={"description": "the hand's number"})
    standing = fields.Nested(StandingSchema, required=True)
    final = fields.Boolean(required=True, metadata={
        "description": "whether the hand counts as final (confirmation: required: once "
                       "every player confirmed it)"})


class HandSchema(PassThroughSchema):
    number = fields.Integer(required=True, metadata={"description": "from 1"})
    version = fields.Integer(required=True)
    etag = fields.String(required=True, metadata={"description": "for If-Match"})
    dealer = fields.Integer(required=True)
    record = fields.Nested(StoredRecordSchema, required=True)
    result = fields.Nested(HandResultSchema, required=True)
    rules_version = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    confirmations = fields.List(fields.Nested(ConfirmationSchema), required=True, metadata={
        "description": "each player's latest verdict on this version of the hand, by seat"})
    standing = fields.Nested(StandingSchema, required=True)
    final = fields.Boolean(required=True, metadata={
        "description": "whether the hand counts as final (confirmation: required: once every "
                       "player confirmed it)"})
    board = fields.Integer(metadata={
        "description": "a duplicate event's table: the board this hand played"})


class TableBoardSchema(PassThroughSchema):
    board = fields.Integer(required=True)
    dealer = fields.Integer(required=True, metadata={"description": "the seat that deals it"})
    exposed = fields.List(fields.String(), required=True, metadata={
        "description": "the cards every player sees at the deal (§2.2); empty until the "
                       "table reaches the board (it has played it, or it is the next)"})


class GameConfirmationSchema(PassThroughSchema):
    """Where the players' verdicts stand across the game."""

    mode = fields.String(required=True, validate=validate.OneOf(["none", "optional",
                                                                 "required"]))
    disputed = fields.List(fields.Integer(), required=True,
                           metadata={"description": "hands a player disputes"})
    waiting = fields.List(fields.Integer(), required=True,
                          metadata={"description": "hands some player has not vouched for"})
    final = fields.Boolean(required=True, metadata={
        "description": "whether every hand counts as final"})


class ColumnSchema(PassThroughSchema):
    key = fields.String(required=True)
    label = fields.String(required=True)
    seats = fields.List(fields.Integer(), required=True)


class GameSchema(PassThroughSchema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    players = fields.List(fields.String(), required=True)
    seats = fields.List(
        fields.String(), required=True, metadata={"description": "names by seat"}
    )
    first_dealer = fields.Integer(required=True)
    sides = fields.Raw(required=True)
    columns = fields.List(fields.Nested(ColumnSchema), required=True)
    hands = fields.List(fields.Nested(HandSchema), required=True)
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["in_progress", "finished"])
    )
    winners = fields.List(fields.String(), required=True)
    next_dealer = fields.Integer(required=True, allow_none=True)
    hands_played = fields.Integer()
    target = fields.Integer(metadata={"description": "games to a target (Ottocento: 800)"})
    ended_by = fields.String(
        metadata={"description": "the rule that ended the game: R10, R12 or R13; "
                                 "evening_over when its scorekeeper ended it"})
    ended_at = fields.DateTime(metadata={
        "description": "when the scorekeeper said the evening is over (POST …/end)"})
    club = fields.Dict(metadata={
        "description": "a game of a club: its id, and the member at each seat (members)"})
    balances = fields.Dict(keys=fields.String(), values=fields.Integer(),
                           metadata={"description": "Mitigatti: marca per seat, from 10"})
    pot = fields.Integer(metadata={"description": "Mitigatti: marca set aside (R15)"})
    transfers = fields.List(
        fields.Dict(),
        metadata={"description": "Mitigatti: the fewest payments that settle the evening "
                                 "(from, to, marca, money, and text: the payment said with "
                                 "the table's names and the money as the language writes it)"})
    money = fields.Dict(keys=fields.String(), values=fields.String(),
                        metadata={"description": "Mitigatti with marca_value: net money per "
                                                 "seat"})
    pot_collected = fields.List(
        fields.Dict(), metadata={"description": "Mitigatti: who collected the pot, when: "
                                                "hand, seat, marca and text (said with the "
                                                "table's names)"})
    confirmation = fields.Nested(GameConfirmationSchema, required=True)
    boards = fields.List(fields.Nested(TableBoardSchema), metadata={
        "description": "a duplicate event's table: its boards in the order it plays them "
                       "(hand n is the n-th), their dealers and exposed cards"})
    created_at = fields.DateTime(required=True)


def _by_seat(description: str) -> fields.List:
    return fields.List(fields.String(allow_none=True), required=True,
                       metadata={"description": description})


class TokensSchema(PassThroughSchema):
    edit = fields.String(required=True)
    read = fields.String(required=True)
    players = _by_seat("each seat's player token (reads the game as that seat); null for a "
                       "seat no player sits at, a gatti-2 dummy's")


class ShareLinksSchema(PassThroughSchema):
    edit = fields.String(required=True, metadata={"description": "opens the game to change it"})
    read = fields.String(required=True, metadata={"description": "opens the game to read it"})
    players = _by_seat("each seat's player link, null for a dummy's seat")


class PlayerLinksSchema(PassThroughSchema):
    """Each seat's player token and link, worked out from the edit token."""

    tokens = _by_seat("each seat's player token; null for a dummy's seat")
    links = _by_seat("each seat's player link; null for a dummy's seat")


class CreatedGameSchema(GameSchema):
    tokens = fields.Nested(
        TokensSchema, required=True, metadata={"description": "shown only once"}
    )
    links = fields.Nested(
        ShareLinksSchema,
        required=True,
        metadata={"description": "share links: the token travels in the URL's fragment, "
                                 "which browsers never send to a server nor put in Referer"},
    )


class HandVersionSchema(PassThroughSchema):
    number = fields.Integer(required=True, metadata={
        "description": "the hand; 0 for the game's own entries (end, reopen, new_tokens, "
                       "revoke_tokens)"})
    version = fields.Integer(required=True)
    action = fields.String(
        required=True,
        validate=validate.OneOf(["create", "correct", "delete", "end", "reopen", "new_tokens",
                                 "revoke_tokens"]),
        metadata={"description": "end: the scorekeeper said the evening is over; reopen: "
                                 "took it back; new_tokens: the service's administrator "
                                 "issued the game new tokens; revoke_tokens: revoked some"})
    record = fields.Nested(StoredRecordSchema, required=True, allow_none=True)
    rules_version = fields.String(required=True)
    token_kind = fields.String(required=True, validate=validate.OneOf(["edit", "read", "admin"]),
                               metadata={"description": "admin: the service's administrator"})
    created_at = fields.DateTime(required=True)
    confirmations = fields.List(fields.Nested(ConfirmationSchema), required=True, metadata={
        "description": "every verdict given on this version, oldest first"})


class HistorySchema(PassThroughSchema):
    game_id = fields.String(required=True)
    versions = fields.List(fields.Nested(HandVersionSchema), required=True)
