"""Gatti on the sheet (rulebook §2.7, §3): each hand's melds, one row of marks a meld (``20 F``,
``10 ♦``, ``5 K``), the captured melds, Bagatto ultimo (``B``), then the deck points; a called
partner named at the hand's head; the legend of the meld marks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games import HandView
from .family import Result
from .points import PointsFamily


class Gatti(PointsFamily):
    own_items = frozenset({"bagatto_ultimo"})

    def mark(self, line: Mapping[str, Any]) -> tuple[str, str]:
        item = line["item"]
        if item == "bagatto_ultimo":
            self.c.used_marks.add("B")
            return "bagatto", "B"
        if item not in ("meld", "captured_meld"):
            return super().mark(line)
        mark = str(line.get("mark", ""))
        if mark:
            self.c.used_marks.add(mark)
        if item == "captured_meld":
            self.c.used_marks.add("captured")
        return item, mark

    def lead_notes(self, hand: HandView, result: Result) -> tuple[list[str], set[str]]:
        """The card the dealer called, and who turned out to hold it, as the service says it."""
        call = result.get("contract_text")
        if call is None:
            return [], set()
        return [self.c.say(call)], {"dealer_alone"}

    def mark_legend(self) -> list[tuple[str, str]]:
        t = self.t
        used = self.c.used_marks
        out: list[tuple[str, str]] = []
        for mark in "FT":
            if mark in used:
                out.append((mark, t(f"legend.{mark}")))
        if "G" in used:
            gatti_cards = self.c.variant.gatti_cards
            out.append(("G", t("legend.G", third=gatti_cards[-1] if gatti_cards else "T21")))
        suits = [s for s in "♥♦♣♠" if s in used]
        if suits:
            out.append((" ".join(suits), t("legend.suits")))
        ranks = [r for r in "JCQK" if r in used]
        if ranks:
            out.append((" ".join(ranks), t("legend.ranks")))
        if "B" in used:
            out.append(("B", t("legend.B")))
        if "captured" in used:
            out.append(("", t("legend.captured")))
        return out

