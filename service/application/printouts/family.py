"""What one family of games puts on its sheet. The common builder (``sheet.py``) writes what
every sheet has — the header, the notes every hand may have, the players' verdicts, the
explanations, the legend's common marks — and asks the game's family for the rest: its own
columns, each hand's rows, the end, the tables after the hands, its marks in the legend.

The families: the points games (``points.py``), Gatti (``gatti.py``) and Ottocento
(``ottocento.py``) among them, and Mitigatti with its marca (``mitigatti.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games import HandView
from .context import SheetContext
from .model import Block, Row, SheetColumn

#: A hand's result as the API returns it (``HandResult.to_json()``).
Result = Mapping[str, Any]


class Family:
    """The part of a sheet that one family of games writes; this one writes nothing."""

    def __init__(self, c: SheetContext) -> None:
        self.c = c
        self.t = c.t

    def extra_columns(self) -> list[SheetColumn]:
        """Columns after the players' (Mitigatti's pot)."""
        return []

    def lead_notes(self, hand: HandView, result: Result) -> tuple[list[str], set[str]]:
        """The notes that head a hand (a call, a contract), and the events they say already."""
        return [], set()

    def rows(self, index: int, hand: HandView, result: Result) -> tuple[list[Row], list[str]]:
        """A hand's rows, and notes to add after the others."""
        return [], []

    def uncounted(self, index: int, hand: HandView, result: Result) -> set[tuple[int, int]]:
        """The lines (side, line) of a hand printed but not counted."""
        return set()

    def details(self, index: int, hand: HandView, result: Result) -> list[str]:
        """Explanation lines of a hand after its sides' lines."""
        return []

    def final(self) -> list[Row]:
        return []

    def outcome(self) -> list[str]:
        return []

    def sections(self) -> list[Block]:
        return []

    def mark_legend(self) -> list[tuple[str, str]]:
        """The family's marks, ahead of the common ones in the legend."""
        return []

    def note_legend(self) -> list[tuple[str, str]]:
        """What the legend says after the common marks."""
        return []
