"""The variant catalogue."""

from __future__ import annotations

from marshmallow import fields

from .common import PassThroughSchema


class BoardsPerRoundSchema(PassThroughSchema):
    """What a duplicate event of the variant takes as ``boards_per_round``."""

    default = fields.Integer(required=True, metadata={
        "description": "the boards a round plays when the event does not say: a game's hands "
                       "(Gatti), 4 for Ottocento's rubbers, one a seat for Mitigatti"})
    max = fields.Integer(required=True, metadata={
        "description": "the most a round can give a table's game (from 1): a game's hands, or 8 "
                       "for a game of no fixed length; more is a 422 on boards_per_round"})


class _VariantTableSchema(PassThroughSchema):
    """What the catalogue and a variant's detail both name first: the variant and its table."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    boards_per_round = fields.Nested(BoardsPerRoundSchema, required=True, metadata={
        "description": "a duplicate event's boards a round (docs/events.md#duplicate): its "
                       "default and its most for this variant"})


class VariantSummarySchema(_VariantTableSchema):
    sides = fields.Raw(required=True)
    options = fields.Raw(required=True)


class VariantDetailSchema(_VariantTableSchema):
    """The full rule parameters: pack, ranks, counting values, melds, game length, …"""

    family = fields.String(required=True)
    deck_points_total = fields.Integer(required=True, metadata={
        "description": "a hand's points: every pile's deck points and the last trick's"})
    deck_points_method = fields.String(required=True, metadata={
        "description": "how a pile's deck points are counted, for a client that counts one "
                       "itself: `per_trick` (a point a trick, the discard one where held, §2.6), "
                       "`per_three_cards` (a point per three cards, a remainder of two rounding "
                       "up, §3) or `in_pairs` (the cards' values, a point off per pair, §4.1); "
                       "each adds the pile's card values (`counting`, and "
                       "`unlisted_card_value` for each card a summary does not list)"})
    summary_cards = fields.List(fields.String(), required=True, metadata={
        "description": "the cards a summary pile lists (`counting`): the counting cards, or "
                       "in Ottocento every card worth more than a point or able to join a "
                       "combination"})
    unlisted_card_value = fields.Integer(required=True, metadata={
        "description": "what each card a summary pile does not list is worth (0, or "
                       "Ottocento's 1)"})
    suit_style = fields.String(required=True, metadata={
        "description": "how the pack names its suits: `french` (hearts, diamonds, clubs, "
                       "spades) or `round` (cups, coins, batons, swords)"})


class RuleSectionSchema(PassThroughSchema):
    ref = fields.String(required=True, metadata={
        "description": "the rulebook's section (§2.3, R8): what a problem's or a line's `rule` "
                       "names"})
    title = fields.String(required=True)
    text = fields.String(required=True)


class RulebookSchema(PassThroughSchema):
    """A variant's rules in sections, in the language asked for (`Accept-Language`)."""

    variant = fields.String(required=True)
    sections = fields.List(fields.Nested(RuleSectionSchema), required=True)
