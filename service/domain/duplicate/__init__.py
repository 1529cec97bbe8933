"""Duplicate (EVENTS.md "Duplicate: the same deals at every table"): the boards dealt from an
event's seed with each variant's own deal, and the movement that says which boards each table
plays, in which order, and who sits where."""

from __future__ import annotations

from .boards import Board, deal_board, deal_boards, sort_cards
from .referee import board_checks, disagreements
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

__all__ = [
    "Board",
    "RoundPlan",
    "TablePlan",
    "board_checks",
    "board_order",
    "deal_board",
    "deal_boards",
    "disagreements",
    "mitchell",
    "mitchell_rounds",
    "plan_movement",
    "plan_round",
    "round_boards",
    "seated_round",
    "sort_cards",
]
