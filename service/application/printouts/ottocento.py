"""Ottocento on the sheet (rulebook §4): the combinations declared during the first trick, those
captured, the doubling (``×2``), the card points; the running total and what is left to the
target of 800. Declarations made after an act that won the rubber are printed but not counted
(R13, marked ``†``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.domain import Suit

from ..games import HandView
from .family import Result
from .points import PointsFamily

_SEQUENCE_MARKS = {"trumps": "T", "moors": "M", "aces": "A"}
_SUITS = {s.value: s.symbol for s in Suit}


class Ottocento(PointsFamily):
    def mark(self, line: Mapping[str, Any]) -> tuple[str, str]:
        item = line["item"]
        if item in ("declaration", "captured"):
            self.c.used_marks.add(str(line.get("kind")))
            return "declared" if item == "declaration" else "captured", combo_mark(line)
        if item == "doubling":
            self.c.used_marks.add("doubling")
            return "declared" if line.get("phase") == "declared" else "captured", "×2"
        if item == "card_points" and line.get("last_trick"):
            self.c.used_marks.add("last_trick")
        return super().mark(line)

    def uncounted(self, index: int, hand: HandView, result: Result) -> set[tuple[int, int]]:
        """The lines (side, line) of the hand that won a rubber during the declarations
        which were not counted: the acts after the winning one and everything after the
        declarations (R13)."""
        view = self.c.view
        summary = view.summary
        if summary.ended_by != "R13" or index != len(view.hands) - 1 or not summary.target:
            return set()
        totals = dict(summary.running[index - 1]) if index else {
            c.key: 0 for c in summary.columns}
        counted_seats: set[int] = set()
        for act in result.get("acts", []):
            totals[act["column"]] += act["points"]
            counted_seats.add(act["seat"])
            if totals[act["column"]] >= summary.target:
                break
        out = set()
        for s, side in enumerate(result["sides"]):
            for k, line in enumerate(side["lines"]):
                declared = line["item"] == "declaration" or (
                    line["item"] == "doubling" and line.get("phase") == "declared")
                if not (declared and line.get("seat") in counted_seats):
                    out.add((s, k))
        return out

    def mark_legend(self) -> list[tuple[str, str]]:
        t = self.t
        used = self.c.used_marks
        marks = (("cricca", "3K 4Q", "legend.cricca"), ("sequence", "T6 ♠4", "legend.sequence"),
                 ("doubling", "×2", "legend.doubling"), ("last_trick", "", "legend.last_trick"))
        return [(shown, t(key)) for mark, shown, key in marks if mark in used]

    def note_legend(self) -> list[tuple[str, str]]:
        out = super().note_legend()
        if self.any_void:
            out.append(("†", self.t("legend.not_counted")))
        return out


def combo_mark(line: Mapping[str, Any]) -> str:
    """A combination's mark: a cricca is its size and what (``4K``, ``3Tar``), a sequence
    what and its length (``T18``, ``♠4``, ``M6``, ``A6``)."""
    kind, what = line.get("kind"), str(line.get("type", ""))
    if kind == "cricca":
        size = line.get("count", len(line.get("cards") or ()))
        return f"{size}{'Tar' if what == 'tarocchi' else what}"
    if kind == "sequence":
        symbol = _SEQUENCE_MARKS.get(what) or _SUITS.get(what, what)
        return f"{symbol}{line.get('length', len(line.get('cards') or ()))}"
    return str(line.get("mark", ""))

