"""The HandRecord as the API takes it (``HandRecord``). The schema checks the form;
the rules core then validates the content and reports with the same field paths."""

from __future__ import annotations

from marshmallow import fields, validate

from .common import (
    MAX_DECLARATIONS,
    MAX_SEATS,
    MAX_TRICKS,
    StrictBoolean,
    StrictSchema,
    card_field,
    cards_field,
    list_field,
    seat_field,
    text_field,
    text_list_field,
)


class CallSchema(StrictSchema):
    card = card_field(required=True)
    partner = seat_field(
        metadata={"description": "the seat that held the called card (the dealer's when "
                                 "alone); required unless `tricks` reveal it"},
    )


class DeclarationSchema(StrictSchema):
    seat = seat_field(required=True)
    kind = text_field(
        required=True, metadata={"description": "frilli, trumps, gatti, family, …"}
    )
    cards = cards_field(metadata={"description": "the cards shown"})
    suit = text_field(metadata={"description": "a family's suit when cards are not typed"})
    rank = text_field(metadata={"description": "an of-a-kind's rank when cards are not typed"})
    count = fields.Integer(strict=True, metadata={
        "description": "frilli / trumps shown; an Ottocento cricca's cards (3 or 4) or "
                       "sequence's length, with its `type`"})
    type = text_field(metadata={
        "description": "an Ottocento cricca's type (tarocchi, K, Q, C, J) or sequence's "
                       "(trumps, moors, aces, H, D, C, S) when cards are not typed: "
                       "`{\"kind\": \"cricca\", \"type\": \"K\", \"count\": 4}`"})


class CombinationSchema(StrictSchema):
    kind = text_field(required=True, metadata={
        "description": "Gatti (melds `captured` or `both`): gatti, family, four_of_a_kind, "
                       "three_of_a_kind; Ottocento: cricca, sequence"})
    suit = text_field(metadata={"description": "a Gatti family's suit"})
    rank = text_field(metadata={"description": "a Gatti three or four of a kind's rank"})
    type = text_field(metadata={
        "description": "an Ottocento cricca's type (tarocchi, K, Q, C, J) or sequence's "
                       "(trumps, moors, aces, H, D, C, S)"})
    count = fields.Integer(strict=True, metadata={
        "description": "an Ottocento cricca's cards (3 or 4) or sequence's length"})


class PileSchema(StrictSchema):
    """One of three forms: every card; a summary (tricks and counting cards); or the points
    the table counted. Every pile of a hand given by points is given by points."""

    side = fields.Integer(strict=True, required=True)
    cards = cards_field(metadata={"description": "every card of the pile"})
    tricks = fields.Integer(
        strict=True, metadata={"description": "tricks won, the discard counting as one"}
    )
    counting = cards_field(metadata={"description": "the counting cards held"})
    points = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={
        "description": "the side's points as counted at the table: deck points in Gatti and "
                       "Mitigatti, card points counted in pairs in Ottocento (the last "
                       "trick's 6 apart: `last_trick` adds them)"})
    combinations = list_field(fields.Nested(CombinationSchema), 30, metadata={
        "description": "with `points`: the combinations the pile holds where they score, by "
                       "kind"})


class FoolSchema(StrictSchema):
    played_by = seat_field(required=True)
    trick = fields.Integer(strict=True, metadata={"description": "1 = the first trick played"})
    covered = StrictBoolean()
    exchange_card = card_field(
        metadata={"description": "the card handed over to cover the Fool, where the table "
                                 "says which (trick records only)"}
    )


class BagattoSchema(StrictSchema):
    seat = seat_field(required=True)
    won = StrictBoolean(required=True)
    valid = StrictBoolean()


class ContractSchema(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(["call", "solo", "surrender"]),
                         metadata={"description": "Mitigatti with four: call, solo or "
                                                  "surrender"})
    declarer = seat_field(required=True)
    called_card = card_field()
    partner = seat_field(metadata={"description": "a call: the holder of the called card "
                                                  "(revealed by tricks when they are given)"})
    sans_prendre = StrictBoolean()


class SignalSchema(StrictSchema):
    trick = fields.Integer(strict=True, required=True,
                           metadata={"description": "the trick whose lead carried them"})
    signals = text_list_field(4, required=True,
                         metadata={"description": "busso, volo, striscio (Ottocento)"})


class HandRecordSchema(StrictSchema):
    dealer = seat_field(required=True)
    discard = cards_field()
    exposed = cards_field()
    call = fields.Nested(CallSchema)
    declarations = list_field(fields.Nested(DeclarationSchema), MAX_DECLARATIONS)
    piles = list_field(fields.Nested(PileSchema), MAX_SEATS)
    fool = fields.Nested(FoolSchema)
    bagatto = fields.Nested(BagattoSchema)
    tricks = list_field(
        cards_field(),
        MAX_TRICKS,
        metadata={"description": "the whole play, trick by trick, each trick's cards in the "
                                 "order played from its leader"},
    )
    contract = fields.Nested(ContractSchema)
    thrown_in = StrictBoolean(
        metadata={"description": "Mitigatti: the deal went 'to the mountain'; it settles "
                                 "nothing and does not move the deal"})
    last_trick = seat_field(
        metadata={"description": "the seat that won the last trick, where scoring needs it and "
                                 "no tricks are given (Ottocento's 6 points)"},
    )
    signals = list_field(
        fields.Nested(SignalSchema), MAX_TRICKS,
        metadata={"description": "signals given with leads (Ottocento), with `tricks`"},
    )
