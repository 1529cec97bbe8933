"""Stateless scoring and meld suggestions; the HandResult."""

from __future__ import annotations

from marshmallow import fields

from .common import (
    MAX_OPTIONS,
    MAX_SEATS,
    MAX_TRICKS,
    PassThroughSchema,
    StrictSchema,
    cards_field,
    dict_field,
    list_field,
    text_field,
    variant_field,
)
from .records import HandRecordSchema


def options_field() -> fields.Dict:
    return dict_field(
        MAX_OPTIONS,
        metadata={"description": "game options (`GET /variants/{id}` lists them); unknown names "
                            "are a 422"},
    )


class ScoreRequestSchema(StrictSchema):
    variant = variant_field(required=True)
    options = options_field()
    hand = fields.Nested(HandRecordSchema, required=True)
    seats = list_field(text_field(), MAX_SEATS, metadata={
        "description": "who sits at each seat (a game's `seats`, one name a seat): the "
                       "problems and lines name them; without, a seat is said by its number"})


class LineSchema(PassThroughSchema):
    item = fields.String(required=True)
    points = fields.Integer(required=True)
    text = fields.String()
    rule = fields.String()


class SideResultSchema(PassThroughSchema):
    side = fields.Integer(required=True)
    seats = fields.List(fields.Integer(), required=True)
    lines = fields.List(fields.Nested(LineSchema), required=True)
    total = fields.Integer(required=True)


class ProofSchema(PassThroughSchema):
    trick = fields.Integer(metadata={"description": "the later trick where the proof was played"})
    card = fields.String(metadata={"description": "the card that proves the player held it"})


class ViolationSchema(PassThroughSchema):
    trick = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    card = fields.String(required=True)
    rule = fields.String(
        required=True,
        metadata={"description": "must_follow_suit, must_trump or must_follow_trump"},
    )
    message = fields.String(required=True)
    proof = fields.Nested(ProofSchema)


class PlayedTrickSchema(PassThroughSchema):
    number = fields.Integer(required=True)
    leader = fields.Integer(required=True)
    cards = cards_field(required=True)
    winner = fields.Integer(required=True)


class PaymentSchema(PassThroughSchema):
    """Mitigatti: one payment in marca, and why."""

    item = fields.String(required=True, metadata={
        "description": "partida, declaration, bagatte_ultimu or surrender"})
    payer = fields.Integer(required=True, data_key="from", attribute="from",
                           metadata={"description": "the seat that pays"})
    to = fields.Raw(required=True, metadata={
        "description": "the seat paid, or \"pot\" for marca set aside (R15)"})
    marca = fields.Integer(required=True)
    text = fields.String(required=True, metadata={"description": "why, said"})
    rule = fields.String(required=True)
    flow = fields.String(required=True, metadata={
        "description": "who pays whom how much, said with the table's names: "
                       "\"Anna → Bruno 2\""})


class HandResultSchema(PassThroughSchema):
    sides = fields.List(fields.Nested(SideResultSchema), required=True)
    columns = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "what each score-sheet column receives for the hand"},
    )
    marca = fields.Dict(keys=fields.String(), values=fields.Integer())
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    events = fields.List(fields.String(), required=True)
    contract_text = fields.String(metadata={
        "description": "who played with whom, said with the table's names: a Mitigatti "
                       "hand's contract (the call and its partner, a solo, a surrender), "
                       "gatti-4-call's call and who held the card"})
    earlier_rules = fields.String(metadata={
        "description": "a stored hand recorded under an earlier rules version, which a "
                       "ruling brought since would refuse: the version, the ruling and why; "
                       "the hand keeps the result it was accepted with"})
    payments = fields.List(fields.Nested(PaymentSchema), metadata={
        "description": "Mitigatti: the hand's payments in marca"})
    pot = fields.Integer(metadata={"description": "Mitigatti: marca the hand sets aside (R15)"})
    tricks = fields.List(
        fields.Nested(PlayedTrickSchema),
        metadata={"description": "trick records only: each trick's leader and winner"},
    )
    fool = fields.Dict(metadata={"description": "trick records only: the Fool's fate, derived"})
    bagatto = fields.Dict(metadata={"description": "trick records only: Bagatto ultimo, derived"})
    partner = fields.Integer(
        allow_none=True,
        metadata={"description": "trick records with a call: the partner the tricks revealed"},
    )


class MeldSuggestRequestSchema(StrictSchema):
    variant = variant_field(required=True)
    cards = cards_field(required=True)


class MeldSuggestionSchema(PassThroughSchema):
    kind = fields.String(required=True)
    points = fields.Integer(required=True)
    cards = cards_field()


class EarlierTrickSchema(StrictSchema):
    leader = fields.Integer(strict=True, required=True)
    cards = cards_field(required=True, metadata={"description": "in the order played"})


class AdjudicateRequestSchema(StrictSchema):
    variant = variant_field(required=True)
    leader = fields.Integer(strict=True, required=True,
                            metadata={"description": "the seat that led the disputed trick"})
    cards = cards_field(required=True,
                        metadata={"description": "the disputed trick, in the order played"})
    hands = dict_field(
        MAX_SEATS, values=cards_field(),
        metadata={"description": "what seats held before the disputed trick, where known "
                                 "(keys are seats)"},
    )
    history = list_field(
        fields.Nested(EarlierTrickSchema),
        MAX_TRICKS,
        metadata={"description": "the earlier tricks of the hand, oldest first"},
    )


class PlayRulingSchema(PassThroughSchema):
    seat = fields.Integer(required=True)
    card = fields.String(required=True)
    legal = fields.Boolean(required=True)
    reason = fields.String()


class RulingSchema(PassThroughSchema):
    winner = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "the seat that wins (so far, for an unfinished trick)"},
    )
    plays = fields.List(fields.Nested(PlayRulingSchema), required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
