"""The points games (Gatti, Ottocento): each hand's lines in rows of marks, grouped and aligned
across the columns, then the hand's points, the running total and what is left to the target;
at the end the final totals and who won. A line the sheet does not know falls in an ``other``
row under its own item name; each family names and marks its own lines (``mark``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..games import HandView
from .context import SheetContext
from .family import Family, Result
from .model import Entry, Row

#: The order of the groups of lines within a hand, and the label of each.
_GROUPS: tuple[tuple[str, str, str], ...] = (
    # group, label key, row kind
    ("meld", "row.melds", "line"),
    ("captured_meld", "row.captured_melds", "line"),
    ("bagatto", "row.bagatto", "line"),
    ("declared", "row.declared", "line"),
    ("captured", "row.captured", "line"),
    ("other", "row.other", "line"),
    ("deck_points", "row.deck_points", "deck"),
    ("card_points", "row.card_points", "deck"),
)
#: The points a side counted, in every points game: their group (no mark).
_COUNTED = {"deck_points": "deck_points", "card_points": "card_points"}


class PointsFamily(Family):
    #: Lines a side scores as a whole, never credited from a partner's seat (R6).
    own_items: frozenset[str] = frozenset()

    def __init__(self, c: SheetContext) -> None:
        super().__init__(c)
        self.any_shared = False
        self.any_void = False

    def mark(self, line: Mapping[str, Any]) -> tuple[str, str]:
        """The group a line is printed in, and its mark."""
        item = line["item"]
        if item in _COUNTED:
            return _COUNTED[item], ""
        return "other", str(line.get("mark", ""))

    def rows(self, index: int, hand: HandView, result: Result) -> tuple[list[Row], list[str]]:
        uncounted = self.uncounted(index, hand, result)
        notes = [self.t("note.not_counted")] if uncounted else []
        return self._rows(index, result, uncounted), notes

    def _side_index(self, sides: Sequence[Mapping[str, Any]], seats: Sequence[int]) -> int | None:
        for i, side in enumerate(sides):
            if seats and seats[0] in side["seats"]:
                return i
        return None

    def _entry(self, line: Mapping[str, Any], column_seats: Sequence[int]) -> tuple[str, Entry]:
        points = int(line["points"])
        group, mark = self.mark(line)
        style = "plain"
        seat = line.get("seat")
        if (self.c.variant.columns_per_seat and isinstance(seat, int)
                and seat not in column_seats and line["item"] not in self.own_items):
            style = "shared"
            self.any_shared = True
        if line.get("entered") == "points":
            mark = "#"
            self.c.used_marks.add("#")
        return group, Entry(self.t.number(points), mark, style, points)

    def _rows(self, index: int, result: Result, uncounted: set[tuple[int, int]]) -> list[Row]:
        t = self.t
        summary = self.c.view.summary
        keys = [c.key for c in summary.columns]
        sides = result.get("sides") or []
        groups: dict[str, dict[str, list[Entry]]] = {}
        other_labels: dict[str, str] = {}
        for column in summary.columns:
            s = self._side_index(sides, column.seats)
            if s is None:
                continue
            for k, line in enumerate(sides[s]["lines"]):
                group, entry = self._entry(line, column.seats)
                if (s, k) in uncounted:
                    entry = Entry(entry.text, entry.mark + "†", "void", entry.points)
                    self.any_void = True
                if group == "other":
                    other_labels.setdefault(line["item"], t.get(
                        f"item.{line['item']}", line["item"].replace("_", " ")))
                groups.setdefault(group, {}).setdefault(column.key, []).append(entry)
        rows: list[Row] = []
        for group, label_key, kind in _GROUPS:
            per_column = groups.get(group)
            if not per_column:
                continue
            depth = max(len(v) for v in per_column.values())
            label = t(label_key, item=", ".join(other_labels.values()))
            # A family may name its deck points its own way (the older rules: trick points).
            label = t.get(f"{label_key}.{self.c.variant.family}", label)
            for k in range(depth):
                cells = tuple((per_column.get(key) or [])[k]
                              if k < len(per_column.get(key) or []) else None for key in keys)
                rows.append(Row(label if k == 0 else "", kind, cells))
        if "thrown_in" in result.get("events", []):
            rows.append(Row("", "note", (), t("note.thrown_in")))
        numbers = self.c.numbers[index]
        rows.append(Row(t("row.hand"), "hand", tuple(
            Entry(t.number(numbers.points[k]), points=numbers.points[k]) for k in keys)))
        rows.append(Row(t("row.total"), "total", tuple(
            Entry(t.number(numbers.totals[k]), style="strong", points=numbers.totals[k])
            for k in keys)))
        target = summary.target
        if target:
            rows.append(Row(t("row.to_target", target=target), "progress", tuple(
                Entry(t.number(target - numbers.totals[k]) if numbers.totals[k] < target
                      else "✓", points=max(0, target - numbers.totals[k])) for k in keys)))
        return rows

    # -- the end ----------------------------------------------------------------------------

    def final(self) -> list[Row]:
        summary = self.c.view.summary
        totals = dict(summary.totals)
        winners = set(summary.winners) if summary.finished else set()
        return [Row(self.t("row.final"), "total", tuple(
            Entry(self.t.number(totals[c.key]),
                  style="winner" if c.key in winners else "strong", points=totals[c.key])
            for c in self.c.columns))]

    def outcome(self) -> list[str]:
        t = self.t
        c = self.c
        summary = c.view.summary
        played = len(c.view.hands)
        out = []
        if summary.finished:
            names = [c.label_of(k) for k in summary.winners]
            pair = any(len(col.seats) > 1 for col in summary.columns
                       if col.key in summary.winners)
            key = "end.winners" if len(names) > 1 else "end.winner.pair" if pair else "end.winner"
            out.append(t(key, names=t.names(names)))
            if summary.ended_by == "R10":
                out.append(t("end.R10", n=c.variant.hands_per_game or played))
            elif summary.ended_by == "boards":
                out.append(t("end.boards", n=played))
            elif summary.ended_by in ("R12", "R13"):
                out.append(t(f"end.{summary.ended_by}", n=played, target=summary.target))
        elif not played:
            out.append(t("end.in_progress.none"))
        else:
            totals = dict(summary.totals)
            best = max(totals.values())
            leaders = [c.label_of(k) for k, v in totals.items() if v == best]
            if len(leaders) == 1:
                out.append(t("end.in_progress", n=played, leader=leaders[0]))
            else:
                out.append(t("end.in_progress.level", n=played, leaders=t.names(leaders)))
        return out

    def note_legend(self) -> list[tuple[str, str]]:
        return [("", self.t("legend.shared"))] if self.any_shared else []
