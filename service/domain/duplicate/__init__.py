"""Duplicate (docs/events.md#duplicate): the boards dealt from an
event's seed with each variant's own deal, the movement that says which boards each table
plays, in which order, and who sits where, the referee that checks a record against its board,
and the boards' scores: matchpoints or difference, travellers and standings."""

from __future__ import annotations

from .boards import Board, deal_board, deal_boards, sort_cards
from .field import FieldRow, Section, field_standings, rounds_to_come, section_owes
from .movement import (
    RoundPlan,
    TablePlan,
    board_order,
    mitchell,
    mitchell_rounds,
    plan_movement,
    plan_round,
    round_boards,
    seated_round,
)
from .referee import board_checks, disagreements
from .scoring import (
    BoardPlay,
    BoardScoring,
    BoardStandings,
    BoardTop,
    ScoredPlay,
    Traveller,
    board_columns,
    board_standings,
    board_tops,
    percent,
    score_board,
    table_play,
    traveller,
    travellers,
)
from .secrecy import TableProgress, complete_boards, counted_hands

__all__ = [
    "Board",
    "BoardPlay",
    "BoardScoring",
    "BoardStandings",
    "BoardTop",
    "FieldRow",
    "RoundPlan",
    "ScoredPlay",
    "Section",
    "TablePlan",
    "TableProgress",
    "Traveller",
    "board_checks",
    "board_columns",
    "board_order",
    "board_standings",
    "board_tops",
    "complete_boards",
    "counted_hands",
    "deal_board",
    "deal_boards",
    "disagreements",
    "field_standings",
    "mitchell",
    "mitchell_rounds",
    "percent",
    "plan_movement",
    "plan_round",
    "round_boards",
    "rounds_to_come",
    "score_board",
    "seated_round",
    "section_owes",
    "sort_cards",
    "table_play",
    "traveller",
    "travellers",
]
