"""Events (docs/events.md): the request bodies, and the answers as the views build them."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from service.application.language import LANGUAGES
from service.domain import (
    ENTRANTS_MAX,
)

from .common import (
    MAX_ID,
    PassThroughSchema,
    StrictBoolean,
    StrictSchema,
    checked_by_the_core,
    variant_field,
)
from .scoring import options_field

_checked_by_the_core = checked_by_the_core


class EntrantSchema(StrictSchema):
    name = _checked_by_the_core("a player's name, or a pair's; in an event of a club, "
                                "{\"member\": id} for a member", required=True)
    players = _checked_by_the_core("format pairs: the pair's two players (names, or "
                                   "{\"member\": id} in an event of a club)")


class _NightFields(StrictSchema):
    round_minutes = _checked_by_the_core(
        "the round's clock: how long a round lasts, 5 to 240 minutes; null (default): no "
        "clock")
    auto_close = _checked_by_the_core(
        "true: a round closes by itself grace_minutes after its end, as the organiser's "
        "close would (default false)")
    grace_minutes = _checked_by_the_core(
        "the time after a round's end for the hand being played before it closes by itself, "
        "0 to 60 minutes (default 2)")


class _PrizeFields(StrictSchema):
    prizes = _checked_by_the_core(
        "one prize per place from the first: {\"amount\": \"45.00\"} (money, at least 0, in "
        "whole cents), {\"label\": \"a ham\"} (a prize in kind), or both; more prizes than "
        "entrants is allowed (the extra places go unawarded)")
    currency = _checked_by_the_core("the prizes' currency, its ISO 4217 code (default EUR)")


class EventCreateSchema(_NightFields, _PrizeFields):
    name = _checked_by_the_core("the evening's or the tournament's name", required=True)
    variant = variant_field(required=True)
    options = options_field()
    format = _checked_by_the_core(
        "individual (players change tables and partners every round), pairs (fixed pairs), "
        "or free (the organiser seats each table)", required=True,
        enum=["individual", "pairs", "free"])
    pairing = _checked_by_the_core("format pairs: danish (default) or swiss",
                                   enum=["danish", "swiss"])
    scoring = _checked_by_the_core("match_points (default) or difference",
                                   enum=["match_points", "difference"])
    rounds = _checked_by_the_core("how many rounds the event plays (1-30); none: as many as "
                                  "the organiser starts")
    seed = _checked_by_the_core("the seed of round 1's draw and of a duplicate event's boards "
                                "(0 to 2**31-1); none: one is drawn and shown")
    deals = _checked_by_the_core(
        "free (default: each table its own deals) or duplicate (the same boards at every "
        "table, dealt by the service from the seed)", enum=["free", "duplicate"])
    boards_per_round = _checked_by_the_core(
        "deals duplicate: the boards each round plays at every table (1 to what a game "
        "holds; default the variant's hands a game, Ottocento 4, Mitigatti one a seat)")
    entrants = fields.List(fields.Nested(EntrantSchema),
                           validate=validate.Length(max=ENTRANTS_MAX), metadata={
                               "description": "the roster; with checkin it may be empty or "
                                              "left out (the roster fills at the door)"})
    checkin = _checked_by_the_core(
        "true: entrants check in at the door as they arrive (the door's link); default false")
    late_rounds = _checked_by_the_core(
        "what a late arrival's missed rounds are worth: zero (default, nothing) or bye "
        "(each a bye)", enum=["zero", "bye"])
    club = fields.String(validate=validate.Length(min=1, max=MAX_ID), metadata={
        "description": "the club the event is held for, with the club's edit "
                       "token in Club-Authorization: its entrants become members"})
    field = _checked_by_the_core(
        "one field across many clubs, for a duplicate event: true hosts a field (the answer's "
        "tokens.field is its join key, for the other clubs' organisers); {\"join\": the "
        "host event's id, \"key\": the join key} makes the event a section of that field, "
        "playing the host's boards (its variant, options, boards_per_round and seed: leave "
        "them out, or give the host's)")


class EventClockSchema(_NightFields):
    """The round's clock: a field left out keeps its value."""


class EventPrizesSchema(_PrizeFields):
    """The prize list and its currency: a field left out keeps its value."""


class SeatingSchema(StrictSchema):
    tables = _checked_by_the_core(
        "each table's entrants by place, as names or numbers (from 0, in roster order): "
        "players by seat; in the pairs format the pair on side 0, then the pair on side 1. "
        "Entrants not seated sit out (a bye). Only for the free format when a round starts.")
    despite_disputes = fields.Boolean(load_default=False, metadata={"description": (
        "start it although players dispute hands of the round it ends (a round whose tables "
        "have all finished; without it, 409 open_disputes listing them)")})


class CloseRoundSchema(StrictSchema):
    despite_disputes = fields.Boolean(load_default=False, metadata={"description": (
        "close the round although players dispute some of its hands (without it, such a "
        "round answers 409 open_disputes listing them); the organiser can still correct "
        "them afterwards")})


class AwardSchema(PassThroughSchema):
    entrant = fields.String(required=True, metadata={"description": "the entrant's name"})
    number = fields.Integer(required=True, metadata={"description": "the entrant's number"})
    place = fields.Integer(required=True, metadata={
        "description": "the place, shared with shared_with"})
    amount = fields.String(metadata={
        "description": "the entrant's money, a decimal string with its cents (\"45.00\"): "
                       "its share of the places it covers"})
    odd_cents = fields.Integer(metadata={
        "description": "the cents of the share that the split did not divide equally, given "
                       "to this sharer (one each to the first sharers in the standings)"})
    labels = fields.List(fields.String(), metadata={
        "description": "the prizes in kind of the places it covers (shared, when "
                       "shared_with is not empty)"})
    shared_with = fields.List(fields.String(), required=True)


class PrizeListSchema(PassThroughSchema):
    final = fields.Boolean(required=True, metadata={
        "description": "false (provisional) until the event's last round has closed"})
    currency = fields.String(required=True)
    prizes = fields.List(fields.Dict(), required=True, metadata={
        "description": "the prize list as the organiser set it, one per place"})
    awards = fields.List(fields.Nested(AwardSchema), required=True, metadata={
        "description": "one per entrant who receives something, best place first"})
    unawarded_places = fields.List(fields.Integer(), required=True, metadata={
        "description": "places with a prize that no entrant reaches (more prizes than "
                       "entrants): those prizes are not given"})


class BoardRefusalsSchema(PassThroughSchema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    board = fields.Integer(required=True)
    refused = fields.Integer(required=True, metadata={
        "description": "the table's refused records of the board since the organiser last "
                       "released it: what the limit counts"})
    total = fields.Integer(required=True, metadata={
        "description": "every refused record of the board at the table, released or not"})
    stopped = fields.Boolean(required=True, metadata={
        "description": "the table reached the limit: it records the board no more (429) "
                       "until the organiser releases it"})
    last_refused_at = fields.String(required=True)


class RefusalsSchema(PassThroughSchema):
    limit = fields.Integer(required=True, metadata={
        "description": "the refused records of one board a table may make before it must "
                       "ask the organiser"})
    boards = fields.List(fields.Nested(BoardRefusalsSchema), required=True, metadata={
        "description": "each table's refusals of each board, by round, table and board"})


class EventRefusalsSchema(PassThroughSchema):
    refusals = fields.Nested(RefusalsSchema, required=True)


class EventSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    options = fields.Dict(required=True)
    format = fields.String(required=True)
    pairing = fields.String(allow_none=True)
    scoring = fields.String(required=True)
    rounds_planned = fields.Integer(allow_none=True)
    seed = fields.Integer(required=True, allow_none=True, metadata={
        "description": "null for a duplicate event once created (the seed deals every "
                       "board)"})
    deals = fields.String(required=True, metadata={"description": "free or duplicate"})
    boards_per_round = fields.Integer(allow_none=True)
    status = fields.String(required=True, metadata={
        "description": "not_started, playing (a round is open), between_rounds, or over"})
    entrants = fields.List(fields.Dict(), required=True)
    rounds = fields.List(fields.Dict(), required=True, metadata={
        "description": "each round: state, started_at, at an event with a clock ends_at "
                       "(and with auto_close closes_at), closed_at, its tables (game ids, "
                       "seats, status, totals; "
                       "a duplicate event's: boards, in the order the table plays them, "
                       "and boards_owed, those it has still to play: none once its game "
                       "ended or its round was closed) and its byes. To anyone but the "
                       "organiser a duplicate table's totals count its complete boards "
                       "only"})
    current_round = fields.Integer(allow_none=True)
    boards_complete = fields.List(fields.Integer(), metadata={
        "description": "a duplicate event's: the boards every table due to play them has "
                       "played (or whose round was closed), which the room's answers count"})
    boards_secret = fields.List(fields.Integer(), metadata={
        "description": "a duplicate event's: the boards of the rounds seated so far that a "
                       "table has still to play; only the organiser's answers count them"})
    repeats = fields.Dict(metadata={"description": "who partnered or met whom more than once"})
    round_minutes = fields.Integer(allow_none=True, metadata={
        "description": "the round's clock (null: none): each round then says ends_at (its "
                       "started_at plus these minutes) and, with auto_close, closes_at"})
    auto_close = fields.Boolean(metadata={
        "description": "a round closes by itself grace_minutes after its end; the first "
                       "reading after that moment finds it closed"})
    grace_minutes = fields.Integer()
    currency = fields.String(metadata={"description": "the prizes' currency"})
    prizes = fields.List(fields.Dict(), metadata={
        "description": "the prize list, one per place (GET /events/{id}/prizes shares it)"})
    refusals = fields.Nested(RefusalsSchema, metadata={
        "description": "a duplicate event's, to the organiser's token only: its tables' "
                       "refused records, board by board"})
    field = fields.Dict(allow_none=True, metadata={
        "description": "the field the event plays in (null: none): host, the host event's "
                       "id, and hosts, whether this event is it"})
    created_at = fields.String(required=True)
    version = fields.Integer(required=True)


class EventTokensSchema(PassThroughSchema):
    edit = fields.String(required=True, metadata={"description": "the organiser's"})
    read = fields.String(required=True, metadata={"description": "the room's (the board)"})
    field = fields.String(metadata={
        "description": "a field's host: the join key the other clubs' organisers join with"})


class CreatedEventSchema(EventSchema):
    tokens = fields.Nested(EventTokensSchema, required=True,
                           metadata={"description": "shown only once"})
    links = fields.Dict(required=True, metadata={
        "description": "the organiser's page and the public board, the token in the "
                       "fragment"})


class FieldSectionSchema(PassThroughSchema):
    event = fields.String(required=True, metadata={"description": "the section's event id"})
    name = fields.String(required=True, metadata={"description": "the section's event name"})
    host = fields.Boolean(required=True, metadata={"description": "the field's host"})
    tables = fields.Integer(required=True, metadata={
        "description": "the tables of its latest round (0 before it starts)"})
    rounds_played = fields.Integer(required=True)
    rounds_planned = fields.Integer(allow_none=True)
    status = fields.String(required=True, metadata={
        "description": "not_started, playing, between_rounds or over"})


class FieldSchema(PassThroughSchema):
    host = fields.String(required=True, metadata={"description": "the host event's id"})
    public = fields.Boolean(required=True, metadata={
        "description": "the host published its event, and with it the field"})
    boards_complete = fields.List(fields.Integer(), required=True, metadata={
        "description": "the boards no table of any section is due to play any more: the "
                       "only ones the field's standings and travellers count"})
    sections = fields.List(fields.Nested(FieldSectionSchema), required=True)
    provisional = fields.Boolean(required=True)
    rows = fields.List(fields.Dict(), required=True, metadata={
        "description": "the field's standings, by average percentage: each row's place, "
                       "section (its event id) and section_name, entrant (its name) and "
                       "number (in its section), boards, percentage, match_points, points, "
                       "results and explanation (these two left out with rows=brief)"})


class FieldQuerySchema(StrictSchema):
    rows = fields.String(validate=validate.OneOf(("full", "brief")), metadata={
        "description": "full (the default): each row with its results and explanation; "
                       "brief: each row's place, section, entrant, boards and totals alone "
                       "(what a wall shows: a tenth of the body at the end of a night)"})


class FieldTravellerSchema(PassThroughSchema):
    board = fields.Integer(required=True)
    top = fields.Integer(required=True, metadata={
        "description": "the most matchpoints a result on the board could earn across the "
                       "field"})
    results = fields.List(fields.Dict(), required=True, metadata={
        "description": "every section's results on the board (a traveller's rows, each "
                       "adding section and section_name), scored across the field"})


class EventLinksSchema(PassThroughSchema):
    tokens = fields.Dict(required=True, metadata={"description": "read: the room's token"})
    links = fields.Dict(required=True, metadata={
        "description": "edit: the organiser's page; read: the public board"})


class RoundTablesSchema(PassThroughSchema):
    round = fields.Integer(required=True)
    tables = fields.List(fields.Dict(), required=True, metadata={
        "description": "each table: table, game, seats (names by seat), tokens and links "
                       "(edit for the table's scorekeeper, read) of its game; a duplicate "
                       "event's: boards, in the order the table plays them"})
    byes = fields.List(fields.String(), required=True)


class BoardSchema(PassThroughSchema):
    board = fields.Integer(required=True)
    dealer = fields.Integer(required=True, metadata={"description": "the dealer's seat"})
    hands = fields.List(fields.List(fields.String()), required=True, metadata={
        "description": "each seat's dealt cards, sorted by suit and rank"})
    extra = fields.List(fields.String(), required=True, metadata={
        "description": "the cards the dealer takes besides"})
    exposed = fields.List(fields.String(), required=True)


class BoardsSchema(PassThroughSchema):
    boards = fields.List(fields.Nested(BoardSchema), required=True, metadata={
        "description": "edit token: every board of the event; read token: the boards every "
                       "table due to play them has played"})


class TravellerRowSchema(PassThroughSchema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    hand = fields.Integer(required=True, metadata={"description": "the hand that was the board"})
    seats = fields.List(fields.String(), required=True, metadata={"description": "by seat"})
    columns = fields.Dict(required=True, metadata={
        "description": "each column's result on the board (Mitigatti: its marca), by the "
                       "column's number"})
    matchpoints = fields.Dict(required=True, metadata={
        "description": "2 for each other result beaten in that column, 1 for each tie"})
    percentage = fields.Dict(required=True, metadata={
        "description": "the matchpoints as a percentage of the board's top (one table: 50)"})
    difference = fields.Dict(metadata={
        "description": "with scoring difference: the result minus the others' average"})


class TravellerSchema(PassThroughSchema):
    board = fields.Integer(required=True)
    top = fields.Integer(required=True, metadata={
        "description": "the most matchpoints a result on the board could earn"})
    results = fields.List(fields.Nested(TravellerRowSchema), required=True, metadata={
        "description": "every table that has played the board, by round and table"})


class BoardTopByPlaySchema(PassThroughSchema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    entrants = fields.List(fields.String(), required=True, metadata={
        "description": "who the column credits at that table"})


class BoardTopSchema(PassThroughSchema):
    column = fields.Integer(required=True, metadata={
        "description": "the column's number: a seat, or in pair games the lowest seat of "
                       "the side"})
    points = fields.Integer(required=True, metadata={
        "description": "the best result of that column across the room"})
    matchpoints = fields.Integer(required=True)
    percentage = fields.Float(required=True)
    difference = fields.Float(metadata={"description": "with scoring difference"})
    by = fields.List(fields.Nested(BoardTopByPlaySchema), required=True, metadata={
        "description": "the tables that made it (several when they tie)"})


class FinishedBoardSchema(PassThroughSchema):
    board = fields.Integer(required=True)
    tables = fields.Integer(required=True, metadata={
        "description": "how many tables played it"})
    top = fields.Integer(required=True, metadata={
        "description": "the most matchpoints a result on the board could earn"})
    tops = fields.List(fields.Nested(BoardTopSchema), required=True, metadata={
        "description": "each column's top result"})


class StandingsSchema(PassThroughSchema):
    provisional = fields.Boolean(required=True, metadata={
        "description": "true while a table of the event is still playing"})
    scoring = fields.String(required=True)
    rows = fields.List(fields.Dict(), required=True, metadata={
        "description": "place, entrant, number, match_points, difference, points, rounds, "
                       "explanation; a duplicate event's add boards and percentage"})
    boards_finished = fields.List(fields.Nested(FinishedBoardSchema), metadata={
        "description": "a duplicate event's boards finished across the room (every table "
                       "due to play them has), in order, with each column's top result"})


class EventHistorySchema(PassThroughSchema):
    event_id = fields.String(required=True)
    actions = fields.List(fields.Dict(), required=True)


class EventSheetQuerySchema(StrictSchema):
    lang = fields.String(validate=validate.OneOf(LANGUAGES),
                      metadata={"description": "en (default), it or fr"})


class EventPublishSchema(StrictSchema):
    public = StrictBoolean(metadata={
        "description": "true publishes the event's results (readable without a token at "
                       "/api/v1/public/events/{id} and /results/events/{id}); false takes "
                       "them down at once"})
    checkin = _checked_by_the_core(
        "true: entrants check in at the door; changes only before round 1 starts (else 409 "
        "round_started)")
    late_rounds = _checked_by_the_core(
        "what a late arrival's missed rounds are worth: zero or bye", enum=["zero", "bye"])

    @validates_schema
    def _something(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if not data:
            raise ValidationError("say what changes: public, checkin or late_rounds", "_schema")


class ArrivalSchema(StrictSchema):
    name = _checked_by_the_core("the entrant's name (a pair's name in the pairs format)")
    member = _checked_by_the_core("an event of a club: the member arriving, by id")
    players = _checked_by_the_core("format pairs: the pair's two players (names, or "
                                   "{\"member\": id} in an event of a club)")


class DoorEventSchema(PassThroughSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    status = fields.String(required=True)
    current_round = fields.Integer(allow_none=True)
    rounds_planned = fields.Integer(allow_none=True)
    variant = fields.String(required=True)


class DoorSchema(PassThroughSchema):
    event = fields.Nested(DoorEventSchema, required=True)
    open = fields.Boolean(required=True, metadata={
        "description": "the door takes check-ins (until the last planned round starts)"})
    from_round = fields.Integer(required=True, metadata={
        "description": "the first round an entrant checking in now plays"})
    checked_in = fields.Integer(required=True, metadata={
        "description": "how many entrants the roster has"})
    members = fields.List(fields.Dict(), required=True, metadata={
        "description": "an event of a club: its active members not yet entrants, by name "
                       "({id, name})"})


class NewEntrantSchema(PassThroughSchema):
    entrant = fields.Integer(required=True, metadata={"description": "the entrant's number"})
    name = fields.String(required=True)
    players = fields.List(fields.String())
    tokens = fields.Dict(required=True, metadata={"description": "entrant: their own token"})
    links = fields.Dict(required=True, metadata={
        "description": "entrant: their own page, where they sit each round"})
    from_round = fields.Integer(required=True)


class EntrantReadingSchema(PassThroughSchema):
    entrant = fields.Integer(required=True)
    name = fields.String(required=True)
    players = fields.List(fields.String())
    from_round = fields.Integer(required=True)
    withdrawn = fields.Boolean(required=True)
    withdrawn_from = fields.Integer(allow_none=True)
    rounds_played = fields.Integer(required=True)
    event = fields.Dict(required=True)
    now = fields.Dict(allow_none=True, metadata={
        "description": "the round being played: a bye, or the table, its game, the "
                       "entrant's seats each with its player link, the others at the table "
                       "and the table's status; null between rounds"})
    clock = fields.Dict(allow_none=True, metadata={"description": "the round's clock"})
    standing = fields.Dict(allow_none=True, metadata={
        "description": "place, match_points, points, rounds_played (and difference with "
                       "scoring difference)"})
    links = fields.Dict(required=True)
